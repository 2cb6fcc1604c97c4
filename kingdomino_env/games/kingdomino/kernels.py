"""Kingdomino's numba kernels: legal actions, applying actions, scoring (bonuses and quests), observations.

Every Kingdomino rule that runs per step lives here or in `games.board` (the placement rule and flood fill both
games share), compiled, looping over the games of a batch; `core.py` wraps them in the public functions. Numba is
used because the per-game work (a few hundred candidate placements, a flood fill of at most 49 squares) is branchy
integer code that numpy can only express with many whole-array temporaries; compiled, one step of 1,024 games
costs well under a millisecond (see the README's benchmark table).

The batch kernels (`legal_mask`, `step`, `observe`) take the plain tuple of the arrays they read
(`State.arrays_for(record)`, `State.arrays` for `step`) and `State.constants`, and name them on entry (a `records`
class `st`, `records.Variant` `v`); the per-board kernels take one board. `step_game` (like
`greedy.greedy_action`) steps one game of a record with scratch arrays its caller made once: the compiled search
steps one game thousands of times a move, where allocating scratch per call would cost more than the step.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board import (
    _DCOL,
    _DR,
    ALL_PLACEMENTS,
    FIRST_PLACEMENT,
    ILLEGAL,
    OK,
    OVER,
    PICK,
    PLACE,
    _end_round,
    _scan,
    _scan_box,
    decode_placement,
    placement_ok,
    placement_window,
    placements_of,
    put_squares,
)
from ..dominoes import DOMINO_CROWNS, DOMINO_TERRAIN
from ..records import KingdominoArrays, MaskArrays, ObserveArrays, Variant

_DT = np.ascontiguousarray(DOMINO_TERRAIN)
_DC = np.ascontiguousarray(DOMINO_CROWNS)
# Directions of quest lines: east, south, south-east, south-west.
_LINE_DR = np.array([0, 1, 1, 1], dtype=np.int64)
_LINE_DC = np.array([1, 0, 1, -1], dtype=np.int64)

#: Observation planes per kingdom: 6 terrains, castle, crowns, open (empty and still inside the N x N bound).
KINGDOM_PLANES = 9
#: Features of one domino: present, first terrain one-hot (6), first crowns, second terrain one-hot (6),
#: second crowns, number / 48.
DOMINO_FEATURES = 16



@njit(cache=True, inline="always")
def put_domino(terrain, crowns, bbox, domino, r, c, r2, c2):
    """Write Kingdomino's `domino` on a board, first square at (r, c), second at (r2, c2), and grow the
    bounding box."""
    put_squares(terrain, crowns, bbox, _DT[domino, 0], _DC[domino, 0], _DT[domino, 1], _DC[domino, 1], r, c, r2, c2)


@njit(cache=True, inline="always")
def placements(terrain, bbox, domino, n, mask_row, first_only):
    """Count the legal placements of Kingdomino's `domino` (0-based) on one board (see `placements_of`)."""
    return placements_of(terrain, bbox, _DT[domino, 0], _DT[domino, 1], n, mask_row, first_only)


@njit(cache=True)
def legal_mask(arrays, constants, out):
    """Fill `out` (B, n_actions) with each game's legal actions for the player to move (none once over).
    arrays, constants: the plain tuples `State.arrays_for(MaskArrays)` and `State.constants`."""
    st = MaskArrays(*arrays)
    v = Variant(*constants)
    terrain, bbox, cur_line = st.terrain, st.bbox, st.cur_line
    next_line, next_owner, order_player = st.next_line, st.next_owner, st.order_player
    order_slot, turn, phase = st.order_slot, st.turn, st.phase
    n_place = v.n_place
    out[:] = False
    for b in range(out.shape[0]):
        if phase[b] == PICK:
            for i in range(v.line):
                if next_line[b, i] >= 0 and next_owner[b, i] < 0:
                    out[b, n_place + 1 + i] = True
        elif phase[b] == PLACE:
            p = order_player[b, turn[b]]
            domino = cur_line[b, order_slot[b, turn[b]]]
            if placements(terrain[b, p], bbox[b, p], domino, v.grid, out[b], ALL_PLACEMENTS) == 0:
                out[b, n_place] = True


@njit(cache=True, inline="always")
def _is_middle(n, rmin, rmax, cmin, cmax):
    """Whether the bounding box is the N x N square centred on the castle."""
    lo = n - 1 - (n - 1) // 2
    hi = n - 1 + (n - 1) // 2
    return rmin == lo and rmax == hi and cmin == lo and cmax == hi


@njit(cache=True)
def score_board(terrain, crowns, v, labels, stack):
    """Score one board without quests under the variant `v` (`records.Variant`: grid and bonuses): (points with
    bonuses, largest territory, total crowns).

    Territories are found by flood fill (orthogonal, same terrain); each scores squares x crowns. Harmony: all
    N x N squares filled. Middle Kingdom: the kingdom spans exactly (N - 1) / 2 squares from the castle in each
    direction. `labels` (S, S) and `stack` (S * S,) are scratch space.
    """
    last = np.int64(terrain.shape[0] - 1)
    return score_box(terrain, crowns, v, labels, stack, np.int64(0), last, np.int64(0), last)


@njit(cache=True)
def score_box(terrain, crowns, v, labels, stack, r_lo, r_hi, c_lo, c_hi):
    """`score_board` scanning only rows r_lo..r_hi and columns c_lo..c_hi, which must hold every filled square
    (e.g. the kingdom's bounding box): the same result, with `labels` written only inside that box."""
    points, largest, total, filled, rmin, rmax, cmin, cmax, _ = _scan_box(terrain, crowns, labels, stack, r_lo,
                                                                          r_hi, c_lo, c_hi)
    n = v.grid
    if v.harmony and filled == n * n:
        points += 5
    if v.middle_kingdom and _is_middle(n, rmin, rmax, cmin, cmax):
        points += 10
    return points, largest, total


@njit(cache=True, inline="always")
def territories(terrain, crowns, bbox, labels, stack, sizes, crown_sums):
    """Label one board's territories (as `_scan`, within its bounding box `bbox`) and write each label's squares
    and crowns into sizes[label] and crown_sums[label] ((S * S + 1,) each); (territory points, filled squares)."""
    points, _, _, filled, _, _, _, _, _ = _scan_box(terrain, crowns, labels, stack, bbox[0], bbox[1], bbox[2],
                                                    bbox[3])
    sizes[:] = 0
    crown_sums[:] = 0
    for r in range(bbox[0], bbox[1] + 1):
        for c in range(bbox[2], bbox[3] + 1):
            if terrain[r, c] != 0 and labels[r, c] > 0:
                sizes[labels[r, c]] += 1
                crown_sums[labels[r, c]] += crowns[r, c]
    return points, filled


@njit(cache=True, inline="always")
def _joined(terrain, labels, r, c, t, seen, n_seen):
    """Add to seen[:n_seen] the labels of the territories of terrain t next to (r, c) not yet there; the new
    count."""
    s = terrain.shape[0]
    for d in range(4):
        r2 = r + _DR[d]
        c2 = c + _DCOL[d]
        if 0 <= r2 < s and 0 <= c2 < s and terrain[r2, c2] == t:
            label = labels[r2, c2]
            new = True
            for i in range(n_seen):
                if seen[i] == label:
                    new = False
            if new:
                seen[n_seen] = label
                n_seen += 1
    return n_seen


@njit(cache=True, inline="always")
def _territory_gain(sizes, crown_sums, seen, n_seen, squares, crowns_added):
    """Points gained when `squares` new squares with `crowns_added` crowns join the territories seen[:n_seen]."""
    size = squares
    total = crowns_added
    before = 0
    for i in range(n_seen):
        size += sizes[seen[i]]
        total += crown_sums[seen[i]]
        before += sizes[seen[i]] * crown_sums[seen[i]]
    return size * total - before


@njit(cache=True, inline="always")
def points_after(terrain, bbox, domino, r, c, r2, c2, v, points, filled, labels, sizes, crown_sums, seen):
    """The points one board scores under the variant `v` (as `score_board`, quests aside) after the legal placement
    of Kingdomino's `domino` with its first square at (r, c) and its second at (r2, c2), from one labelling of the
    board as it is (`territories`, which gave `points`, `filled`, `labels`, `sizes` and `crown_sums`): the
    territories the two squares join merge. `seen` (8,) int64 scratch."""
    t1, t2 = _DT[domino, 0], _DT[domino, 1]
    n_seen = _joined(terrain, labels, r, c, t1, seen, 0)
    if t1 == t2:
        n_seen = _joined(terrain, labels, r2, c2, t2, seen, n_seen)
        gain = _territory_gain(sizes, crown_sums, seen, n_seen, 2, _DC[domino, 0] + _DC[domino, 1])
    else:
        gain = _territory_gain(sizes, crown_sums, seen, n_seen, 1, _DC[domino, 0])
        n_seen = _joined(terrain, labels, r2, c2, t2, seen, 0)
        gain += _territory_gain(sizes, crown_sums, seen, n_seen, 1, _DC[domino, 1])
    after = points + gain
    n = v.grid
    if v.harmony and filled + 2 == n * n:
        after += 5
    if v.middle_kingdom and _is_middle(n, min(bbox[0], r, r2), max(bbox[1], r, r2), min(bbox[2], c, c2),
                                       max(bbox[3], c, c2)):
        after += 10
    return after


@njit(cache=True)
def best_placements(terrain, crowns, bbox, domino, v, points, filled, labels, sizes, crown_sums, cells, seen, ties):
    """The most points one board scores under the variant `v` (as `score_board`, quests aside) after a legal
    placement of Kingdomino's `domino`, and the number of placements that score it, written in increasing order into
    `ties`; (its points now, 0) when none is legal. The same as placing each and scoring the board, computed by
    `points_after` from one labelling (`territories`). `cells` (4 * S * S,) bool, `seen` (8,) and `ties`
    (4 * S * S,) int64 scratch."""
    s = terrain.shape[0]
    n = v.grid
    if placements(terrain, bbox, domino, n, cells, ALL_PLACEMENTS) == 0:
        now = points + (5 if v.harmony and filled == n * n else 0)
        return now + (10 if v.middle_kingdom and _is_middle(n, bbox[0], bbox[1], bbox[2], bbox[3]) else 0), 0
    best = -1
    n_best = 0
    rlo, rhi, clo, chi = placement_window(bbox, n)
    for r in range(rlo, rhi + 1):
        for c in range(clo, chi + 1):
            for d in range(4):
                a = (r * s + c) * 4 + d
                if not cells[a]:
                    continue
                cells[a] = False
                after = points_after(terrain, bbox, domino, r, c, r + _DR[d], c + _DCOL[d], v, points, filled,
                                     labels, sizes, crown_sums, seen)
                if after > best:
                    best = after
                    n_best = 0
                if after == best:
                    ties[n_best] = a
                    n_best += 1
    return best, n_best


@njit(cache=True, inline="always")
def _crowned_lines(crowns):
    """La folie des grandeurs: the most lines of 3 crowned squares in a row (row, column, diagonal) pairwise
    sharing at most one square; a maximal run of L >= 3 crowned squares holds (L - 1) // 2 of them."""
    s = crowns.shape[0]
    lines = 0
    for d in range(4):
        dr = _LINE_DR[d]
        dc = _LINE_DC[d]
        for r0 in range(s):
            for c0 in range(s):
                if crowns[r0, c0] == 0:
                    continue
                rp = r0 - dr
                cp = c0 - dc
                if 0 <= rp < s and 0 <= cp < s and crowns[rp, cp] > 0:
                    continue
                length = 0
                r, c = r0, c0
                while 0 <= r < s and 0 <= c < s and crowns[r, c] > 0:
                    length += 1
                    r += dr
                    c += dc
                if length >= 3:
                    lines += (length - 1) // 2
    return lines


@njit(cache=True)
def _quest(q, terrain, crowns, n, filled, rmin, rmax, cmin, cmax, bleak):
    """Points of quest q (index in `quests.QUESTS`) for a board `_scan` has measured."""
    castle = n - 1
    full = rmax - rmin == n - 1 and cmax - cmin == n - 1
    if q < 6:
        count = 0
        for r in range(castle - 1, castle + 2):
            for c in range(castle - 1, castle + 2):
                if terrain[r, c] == q + 1:
                    count += 1
        return 5 * count
    if q < 12:
        if not full:
            return 0
        count = 0
        for r in (rmin, rmax):
            for c in (cmin, cmax):
                if terrain[r, c] == q - 5:
                    count += 1
        return 5 * count
    if q == 12:
        return 5 if filled == n * n else 0
    if q == 13:
        return 10 if _is_middle(n, rmin, rmax, cmin, cmax) else 0
    if q == 14:
        return 20 if full and (castle == rmin or castle == rmax) and (castle == cmin or castle == cmax) else 0
    if q == 15:
        return 10 * _crowned_lines(crowns)
    return 10 * bleak


@njit(cache=True)
def quest_scores(terrain, crowns, n, labels, stack, out):
    """Fill `out` (17,) with the points each quest (active or not) gives one board; scratch as `score_board`."""
    _, _, _, filled, rmin, rmax, cmin, cmax, bleak = _scan(terrain, crowns, labels, stack)
    for q in range(out.shape[0]):
        out[q] = _quest(q, terrain, crowns, n, filled, rmin, rmax, cmin, cmax, bleak)


@njit(cache=True)
def board_points(terrain, crowns, bbox, v, quests, labels, stack):
    """`score_board` under the variant `v` plus the quests flagged in `quests` (17,): (points, largest territory,
    total crowns). Only the board's bounding box `bbox` is scanned (`labels` are written there only).

    A Harmony or Middle Kingdom quest adds nothing when the same base option is on (counted once)."""
    points, largest, total, filled, rmin, rmax, cmin, cmax, bleak = _scan_box(terrain, crowns, labels, stack, bbox[0],
                                                                              bbox[1], bbox[2], bbox[3])
    n = v.grid
    if v.harmony and filled == n * n:
        points += 5
    if v.middle_kingdom and _is_middle(n, rmin, rmax, cmin, cmax):
        points += 10
    for q in range(quests.shape[0]):
        if not quests[q] or (q == 12 and v.harmony) or (q == 13 and v.middle_kingdom):
            continue
        points += _quest(q, terrain, crowns, n, filled, rmin, rmax, cmin, cmax, bleak)
    return points, largest, total


@njit(cache=True)
def step(arrays, constants, actions, status):
    """Apply one action per game in place; finished games are left alone.

    `status[b]` becomes ILLEGAL (and game b is untouched) when actions[b] is not legal for the player to move.
    Each game's active quests (`quests`) are scored with the board. Returns the number of illegal actions.
    arrays, constants: the plain tuples `State.arrays` and `State.constants`.
    """
    st = KingdominoArrays(*arrays)
    v = Variant(*constants)
    labels, stack, no_mask = step_scratch(st.terrain.shape[2])
    n_illegal = 0
    for b in range(actions.shape[0]):
        status[b] = step_game(st, v, b, actions[b], labels, stack, no_mask)
        if status[b] == ILLEGAL:
            n_illegal += 1
    return n_illegal


@njit(cache=True, inline="always")
def step_scratch(s):
    """The scratch arrays `step_game` needs on an S x S frame: (labels, stack, no_mask)."""
    return np.zeros((s, s), dtype=np.int32), np.zeros(s * s, dtype=np.int64), np.zeros(1, dtype=np.bool_)


@njit(cache=True, inline="always")
def step_game(st, v, b, a, labels, stack, no_mask):
    """Apply action `a` to game b of the `KingdominoArrays` record `st` (`step` for one game, with the scratch
    arrays of `step_scratch`); OK, or ILLEGAL with the game untouched. A finished game is left alone (OK)."""
    terrain, crowns, bbox = st.terrain, st.crowns, st.bbox
    cur_line, next_line, next_owner = st.cur_line, st.next_line, st.next_owner
    order_player, order_slot, turn = st.order_player, st.order_slot, st.turn
    round_, phase, scores = st.round, st.phase, st.scores
    s = terrain.shape[2]
    n_place = v.n_place
    n = v.grid
    if phase[b] == OVER:
        return OK
    p = order_player[b, turn[b]]
    if phase[b] == PLACE:
        domino = cur_line[b, order_slot[b, turn[b]]]
        board = terrain[b, p]
        box = bbox[b, p]
        if a == n_place:
            if placements(board, box, domino, n, no_mask, FIRST_PLACEMENT) > 0:
                return ILLEGAL
            st.discarded[b, p] += 1
        elif 0 <= a < n_place:
            r, c, r2, c2 = decode_placement(a, s)
            if not placement_ok(board, box, _DT[domino, 0], _DT[domino, 1], n, r, c, r2, c2):
                return ILLEGAL
            put_domino(board, crowns[b, p], box, domino, r, c, r2, c2)
            scores[b, p], st.largest[b, p], st.total_crowns[b, p] = board_points(
                board, crowns[b, p], box, v, st.quests[b], labels, stack)
        else:
            return ILLEGAL
        if next_line[b, 0] >= 0:
            phase[b] = PICK
            st.n_steps[b] += 1
            return OK
    else:
        i = a - n_place - 1
        if i < 0 or i >= v.line or next_line[b, i] < 0 or next_owner[b, i] >= 0:
            return ILLEGAL
        next_owner[b, i] = p
        if round_[b] > 0:
            phase[b] = PLACE
    st.n_steps[b] += 1
    turn[b] += 1
    if turn[b] == order_player.shape[1]:
        _end_round(b, st.deck, st.drawn, cur_line, st.cur_owner, next_line, next_owner, order_player, order_slot,
                   turn, round_, phase)
    return OK


@njit(cache=True)
def _write_domino(out, base, domino):
    """Write a domino's DOMINO_FEATURES at out[base:]; an absent domino (-1) leaves zeros."""
    if domino < 0:
        return
    out[base] = 1.0
    out[base + _DT[domino, 0]] = 1.0
    out[base + 7] = _DC[domino, 0]
    out[base + 7 + _DT[domino, 1]] = 1.0
    out[base + 14] = _DC[domino, 1]
    out[base + 15] = (domino + 1) / 48.0


@njit(cache=True)
def observe(arrays, constants, viewer, out):
    """Fill `out` (B, obs_size) with each game seen by player viewer[b] (egocentric; layout in observation.py).

    Returns the number of viewers that are not a player index (their rows are left zero). arrays, constants: the
    plain tuples `State.arrays_for(ObserveArrays)` and `State.constants`."""
    st = ObserveArrays(*arrays)
    v = Variant(*constants)
    terrain, crowns, bbox = st.terrain, st.crowns, st.bbox
    deck, drawn, cur_line = st.deck, st.drawn, st.cur_line
    cur_owner, next_line, next_owner = st.cur_owner, st.next_line, st.next_owner
    order_player, order_slot, turn = st.order_player, st.order_slot, st.turn
    round_, phase, scores = st.round, st.phase, st.scores
    players = terrain.shape[1]
    s = terrain.shape[2]
    n = v.grid
    ss = s * s
    line = v.line
    slot_size = DOMINO_FEATURES + players + 1
    lines_at = players * KINGDOM_PLANES * ss
    held_at = lines_at + 2 * line * slot_size
    unseen_at = held_at + DOMINO_FEATURES
    counters_at = unseen_at + 48
    out[:] = 0.0
    bad_viewers = 0
    for b in range(out.shape[0]):
        me = viewer[b]
        if me < 0 or me >= players:
            bad_viewers += 1
            continue
        o = out[b]
        for k in range(players):
            q = (me + k) % players
            base = k * KINGDOM_PLANES * ss
            rlo = bbox[b, q, 1] - n + 1
            rhi = bbox[b, q, 0] + n - 1
            clo = bbox[b, q, 3] - n + 1
            chi = bbox[b, q, 2] + n - 1
            for r in range(s):
                for c in range(s):
                    t = terrain[b, q, r, c]
                    cell = r * s + c
                    if t == 0:
                        if rlo <= r <= rhi and clo <= c <= chi:
                            o[base + 8 * ss + cell] = 1.0
                    else:
                        o[base + (t - 1) * ss + cell] = 1.0
                        o[base + 7 * ss + cell] = crowns[b, q, r, c]
        for i in range(line):
            at = lines_at + i * slot_size
            _write_domino(o, at, cur_line[b, i])
            if cur_owner[b, i] >= 0 and round_[b] > 0:
                o[at + DOMINO_FEATURES + (cur_owner[b, i] - me) % players] = 1.0
                for k in range(order_slot.shape[1]):
                    if order_slot[b, k] == i and (k < turn[b] or (k == turn[b] and phase[b] == PICK)):
                        o[at + DOMINO_FEATURES + players] = 1.0
            at = lines_at + (line + i) * slot_size
            _write_domino(o, at, next_line[b, i])
            if next_owner[b, i] >= 0:
                o[at + DOMINO_FEATURES + (next_owner[b, i] - me) % players] = 1.0
        if phase[b] == PLACE and order_player[b, turn[b]] == me:
            _write_domino(o, held_at, cur_line[b, order_slot[b, turn[b]]])
        for j in range(48):
            o[unseen_at + j] = 1.0
        for j in range(drawn[b]):
            o[unseen_at + deck[b, j]] = 0.0
        o[counters_at] = round_[b] / v.rounds
        if phase[b] != OVER:
            o[counters_at + 1 + phase[b]] = 1.0
        o[counters_at + 3] = (deck.shape[1] - drawn[b]) / deck.shape[1]
        for k in range(players):
            o[counters_at + 4 + k] = scores[b, (me + k) % players]
    return bad_viewers
