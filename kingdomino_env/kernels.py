"""Numba kernels of the rules: legal placements, applying actions, scoring, observations.

Every rule of the game that runs per step lives here, compiled, looping over the games of a batch; `core.py`
wraps them in the public functions. Numba is used because the per-game work (a few hundred candidate
placements, a flood fill of at most 49 squares) is branchy integer code that numpy can only express with many
whole-array temporaries; compiled, one step of 1,024 games costs well under a millisecond (see the README's
benchmark table).

Board encoding: terrain codes 0 empty, 1..6 (`dominoes.TERRAINS`), 7 castle, 8 town (Queendomino); crowns as
counts. The placement rule (`placements_of`, `placement_ok`, `put_squares`) and the territory flood fill (`_scan`)
are written once, over terrain codes, and serve both games; Queendomino's own kernels are in `qkernels.py`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .dominoes import CASTLE, DOMINO_CROWNS, DOMINO_TERRAIN

PICK, PLACE, OVER = 0, 1, 2
OK, ILLEGAL = 0, 1

_DT = np.ascontiguousarray(DOMINO_TERRAIN)
_DC = np.ascontiguousarray(DOMINO_CROWNS)
_DR = np.array([0, 1, 0, -1], dtype=np.int64)
_DCOL = np.array([1, 0, -1, 0], dtype=np.int64)
# Directions of quest lines: east, south, south-east, south-west.
_LINE_DR = np.array([0, 1, 1, 1], dtype=np.int64)
_LINE_DC = np.array([1, 0, 1, -1], dtype=np.int64)
# Terrain codes 1..4 (wheat, forest, lake, grassland) are those of the Bleak king quest.
_BLEAK_TERRAINS = 4

#: Observation planes per kingdom: 6 terrains, castle, crowns, open (empty and still inside the N x N bound).
KINGDOM_PLANES = 9
#: Features of one domino: present, first terrain one-hot (6), first crowns, second terrain one-hot (6),
#: second crowns, number / 48.
DOMINO_FEATURES = 16


@njit(cache=True, inline="always")
def _touches(terrain, r, c, t):
    """Whether an orthogonal neighbour of (r, c) is the castle or terrain t."""
    s = terrain.shape[0]
    if r > 0 and (terrain[r - 1, c] == t or terrain[r - 1, c] == CASTLE):
        return True
    if r < s - 1 and (terrain[r + 1, c] == t or terrain[r + 1, c] == CASTLE):
        return True
    if c > 0 and (terrain[r, c - 1] == t or terrain[r, c - 1] == CASTLE):
        return True
    if c < s - 1 and (terrain[r, c + 1] == t or terrain[r, c + 1] == CASTLE):
        return True
    return False


@njit(cache=True, inline="always")
def decode_placement(action, s):
    """(r, c, r2, c2): the squares of placement `action` in an S x S frame (first square, then second)."""
    cell, d = divmod(action, 4)
    r, c = divmod(cell, s)
    return r, c, r + _DR[d], c + _DCOL[d]


@njit(cache=True, inline="always")
def put_squares(terrain, crowns, bbox, t1, k1, t2, k2, r, c, r2, c2):
    """Write a domino given by its squares (terrain t1 and k1 crowns at (r, c), t2 and k2 at (r2, c2)) on a
    board and grow the bounding box. The one placement writer of both games (`put_domino` for Kingdomino's
    table, `qkernels` for Queendomino's)."""
    terrain[r, c] = t1
    terrain[r2, c2] = t2
    crowns[r, c] = k1
    crowns[r2, c2] = k2
    bbox[0] = min(bbox[0], r, r2)
    bbox[1] = max(bbox[1], r, r2)
    bbox[2] = min(bbox[2], c, c2)
    bbox[3] = max(bbox[3], c, c2)


@njit(cache=True, inline="always")
def put_domino(terrain, crowns, bbox, domino, r, c, r2, c2):
    """Write Kingdomino's `domino` on a board, first square at (r, c), second at (r2, c2), and grow the
    bounding box."""
    put_squares(terrain, crowns, bbox, _DT[domino, 0], _DC[domino, 0], _DT[domino, 1], _DC[domino, 1], r, c, r2, c2)


@njit(cache=True, inline="always")
def lift_domino(terrain, crowns, bbox, saved_bbox, r, c, r2, c2):
    """Undo `put_domino`: empty the two squares and restore the bounding box saved before."""
    terrain[r, c] = 0
    terrain[r2, c2] = 0
    crowns[r, c] = 0
    crowns[r2, c2] = 0
    bbox[:] = saved_bbox


@njit(cache=True)
def placements(terrain, bbox, domino, n, mask_row, first_only):
    """Count the legal placements of Kingdomino's `domino` (0-based) on one board (see `placements_of`)."""
    return placements_of(terrain, bbox, _DT[domino, 0], _DT[domino, 1], n, mask_row, first_only)


@njit(cache=True, inline="always")
def placement_ok(terrain, bbox, t1, t2, n, r, c, r2, c2):
    """Whether a domino of terrains t1 (first square) and t2 may go at (r, c), (r2, c2): the kingdom stays within
    N x N, both squares are empty, and one of them touches the castle (wild) or its own terrain. Both games."""
    inside = bbox[1] - n + 1 <= min(r, r2) and max(r, r2) <= bbox[0] + n - 1
    inside = inside and bbox[3] - n + 1 <= min(c, c2) and max(c, c2) <= bbox[2] + n - 1
    if not inside or terrain[r, c] != 0 or terrain[r2, c2] != 0:
        return False
    return _touches(terrain, r, c, t1) or _touches(terrain, r2, c2, t2)


@njit(cache=True, inline="always")
def placements_of(terrain, bbox, t1, t2, n, mask_row, first_only):
    """Count the legal placements of a domino with square terrains t1, t2 on one board, marking them in
    `mask_row` if given (returning at the first with `first_only`). The one placement rule of both games.

    A square may go at rows max_r - N + 1 .. min_r + N - 1 (and likewise columns) so that the kingdom stays
    within N x N; both squares must be empty; at least one must touch the castle or its own terrain.
    """
    s = terrain.shape[0]
    rlo = bbox[1] - n + 1
    rhi = bbox[0] + n - 1
    clo = bbox[3] - n + 1
    chi = bbox[2] + n - 1
    count = 0
    for r in range(rlo, rhi + 1):
        for c in range(clo, chi + 1):
            if terrain[r, c] != 0:
                continue
            first_touches = _touches(terrain, r, c, t1)
            for d in range(4):
                r2 = r + _DR[d]
                c2 = c + _DCOL[d]
                if r2 < rlo or r2 > rhi or c2 < clo or c2 > chi or terrain[r2, c2] != 0:
                    continue
                if first_touches or _touches(terrain, r2, c2, t2):
                    count += 1
                    if first_only:
                        return count
                    mask_row[(r * s + c) * 4 + d] = True
    return count


@njit(cache=True)
def legal_mask(terrain, bbox, cur_line, next_line, next_owner, order_player, order_slot, turn, phase, n, out):
    """Fill `out` (B, n_actions) with each game's legal actions for the player to move (none once over)."""
    n_place = terrain.shape[2] * terrain.shape[3] * 4
    line = next_line.shape[1]
    out[:] = False
    for b in range(out.shape[0]):
        if phase[b] == PICK:
            for i in range(line):
                if next_line[b, i] >= 0 and next_owner[b, i] < 0:
                    out[b, n_place + 1 + i] = True
        elif phase[b] == PLACE:
            p = order_player[b, turn[b]]
            domino = cur_line[b, order_slot[b, turn[b]]]
            if placements(terrain[b, p], bbox[b, p], domino, n, out[b], False) == 0:
                out[b, n_place] = True


@njit(cache=True)
def _scan(terrain, crowns, labels, stack):
    """Flood-fill the territories of one board (orthogonal, same terrain) into `labels`.

    Returns (territory points, largest territory, total crowns, filled squares, min row, max row, min col,
    max col, bleak territories: crownless wheat/forest/lake/grassland territories of 5 squares or more).
    """
    s = terrain.shape[0]
    return _scan_box(terrain, crowns, labels, stack, 0, s - 1, 0, s - 1)


@njit(cache=True, inline="always")
def _scan_box(terrain, crowns, labels, stack, r_lo, r_hi, c_lo, c_hi):
    """`_scan` within rows r_lo..r_hi and columns c_lo..c_hi, which must hold every filled square (a kingdom's
    bounding box): only there are `labels` cleared and written, so a caller reads labels only inside it (outside,
    stale labels or not, the terrain is empty, so the fill never enters). The stack holds squares as
    row << 8 | column, so frames up to 256 wide."""
    s = terrain.shape[0]
    for r0 in range(r_lo, r_hi + 1):
        for c0 in range(c_lo, c_hi + 1):
            labels[r0, c0] = 0
    points = 0
    largest = 0
    total_crowns = 0
    filled = 0
    bleak = 0
    rmin, rmax, cmin, cmax = s, -1, s, -1
    n_labels = 0
    for r0 in range(r_lo, r_hi + 1):
        for c0 in range(c_lo, c_hi + 1):
            t = terrain[r0, c0]
            if t == 0:
                continue
            filled += 1
            rmin = min(rmin, r0)
            rmax = max(rmax, r0)
            cmin = min(cmin, c0)
            cmax = max(cmax, c0)
            if t == CASTLE or labels[r0, c0] != 0:
                continue
            n_labels += 1
            labels[r0, c0] = n_labels
            stack[0] = (r0 << 8) | c0  # row and column packed, unpacked by shifts (no division)
            top = 1
            size = 0
            crown_sum = 0
            while top > 0:
                top -= 1
                r = stack[top] >> 8
                c = stack[top] & 255
                size += 1
                crown_sum += crowns[r, c]
                for d in range(4):
                    r2 = r + _DR[d]
                    c2 = c + _DCOL[d]
                    if 0 <= r2 < s and 0 <= c2 < s and labels[r2, c2] == 0 and terrain[r2, c2] == t:
                        labels[r2, c2] = n_labels
                        stack[top] = (r2 << 8) | c2
                        top += 1
            points += size * crown_sum
            largest = max(largest, size)
            total_crowns += crown_sum
            if crown_sum == 0 and size >= 5 and t <= _BLEAK_TERRAINS:
                bleak += 1
    return points, largest, total_crowns, filled, rmin, rmax, cmin, cmax, bleak


@njit(cache=True, inline="always")
def _is_middle(n, rmin, rmax, cmin, cmax):
    """Whether the bounding box is the N x N square centred on the castle."""
    lo = n - 1 - (n - 1) // 2
    hi = n - 1 + (n - 1) // 2
    return rmin == lo and rmax == hi and cmin == lo and cmax == hi


@njit(cache=True)
def score_board(terrain, crowns, n, harmony, middle_kingdom, labels, stack):
    """Score one board without quests: (points with bonuses, largest territory, total crowns).

    Territories are found by flood fill (orthogonal, same terrain); each scores squares x crowns. Harmony: all
    N x N squares filled. Middle Kingdom: the kingdom spans exactly (N - 1) / 2 squares from the castle in each
    direction. `labels` (S, S) and `stack` (S * S,) are scratch space.
    """
    points, largest, total, filled, rmin, rmax, cmin, cmax, _ = _scan(terrain, crowns, labels, stack)
    if harmony and filled == n * n:
        points += 5
    if middle_kingdom and _is_middle(n, rmin, rmax, cmin, cmax):
        points += 10
    return points, largest, total


@njit(cache=True)
def score_board_box(terrain, crowns, bbox, n, harmony, middle_kingdom, labels, stack):
    """`score_board` scanning only the kingdom's bounding box `bbox` (min row, max row, min col, max col), which
    must hold every filled square: the same result, with `labels` written only inside the box."""
    points, largest, total, filled, rmin, rmax, cmin, cmax, _ = _scan_box(terrain, crowns, labels, stack, bbox[0],
                                                                          bbox[1], bbox[2], bbox[3])
    if harmony and filled == n * n:
        points += 5
    if middle_kingdom and _is_middle(n, rmin, rmax, cmin, cmax):
        points += 10
    return points, largest, total


@njit(cache=True)
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
def board_points(terrain, crowns, n, harmony, middle_kingdom, quests, labels, stack):
    """`score_board` plus the quests flagged in `quests` (17,): (points, largest territory, total crowns).

    A Harmony or Middle Kingdom quest adds nothing when the same base option is on (counted once)."""
    points, largest, total, filled, rmin, rmax, cmin, cmax, bleak = _scan(terrain, crowns, labels, stack)
    if harmony and filled == n * n:
        points += 5
    if middle_kingdom and _is_middle(n, rmin, rmax, cmin, cmax):
        points += 10
    for q in range(quests.shape[0]):
        if not quests[q] or (q == 12 and harmony) or (q == 13 and middle_kingdom):
            continue
        points += _quest(q, terrain, crowns, n, filled, rmin, rmax, cmin, cmax, bleak)
    return points, largest, total


@njit(cache=True)
def _end_round(b, deck, drawn, cur_line, cur_owner, next_line, next_owner, order_player, order_slot, turn, round_,
               phase):
    """Move the next line down (with its kings) and draw a new one; the game ends when no next line exists."""
    if next_line[b, 0] < 0:
        phase[b] = OVER
        return
    line = next_line.shape[1]
    k = 0
    for i in range(line):
        cur_line[b, i] = next_line[b, i]
        cur_owner[b, i] = next_owner[b, i]
        if next_owner[b, i] >= 0:
            order_player[b, k] = next_owner[b, i]
            order_slot[b, k] = i
            k += 1
    start = drawn[b]
    if start < deck.shape[1]:
        next_line[b, :] = np.sort(deck[b, start:start + line])
        next_owner[b, :] = -1
        drawn[b] = start + line
    else:
        next_line[b, :] = -1
        next_owner[b, :] = -1
    turn[b] = 0
    round_[b] += 1
    phase[b] = PLACE


@njit(cache=True)
def step(terrain, crowns, bbox, deck, drawn, cur_line, cur_owner, next_line, next_owner, order_player, order_slot,
         turn, round_, phase, scores, largest, total_crowns, discarded, n_steps, actions, n, harmony, middle_kingdom,
         quests, status):
    """Apply one action per game in place; finished games are left alone.

    `status[b]` becomes ILLEGAL (and game b is untouched) when actions[b] is not legal for the player to move.
    quests (B, 17): each game's active quests, scored with the board. Returns the number of illegal actions.
    """
    s = terrain.shape[2]
    n_place = s * s * 4
    line = next_line.shape[1]
    kings = order_player.shape[1]
    labels = np.zeros((s, s), dtype=np.int32)
    stack = np.zeros(s * s, dtype=np.int64)
    no_mask = np.zeros(1, dtype=np.bool_)
    n_illegal = 0
    for b in range(actions.shape[0]):
        status[b] = OK
        if phase[b] == OVER:
            continue
        a = actions[b]
        p = order_player[b, turn[b]]
        if phase[b] == PLACE:
            domino = cur_line[b, order_slot[b, turn[b]]]
            board = terrain[b, p]
            box = bbox[b, p]
            if a == n_place:
                if placements(board, box, domino, n, no_mask, True) > 0:
                    status[b] = ILLEGAL
                    n_illegal += 1
                    continue
                discarded[b, p] += 1
            elif 0 <= a < n_place:
                r, c, r2, c2 = decode_placement(a, s)
                if not placement_ok(board, box, _DT[domino, 0], _DT[domino, 1], n, r, c, r2, c2):
                    status[b] = ILLEGAL
                    n_illegal += 1
                    continue
                put_domino(board, crowns[b, p], box, domino, r, c, r2, c2)
                scores[b, p], largest[b, p], total_crowns[b, p] = board_points(
                    board, crowns[b, p], n, harmony, middle_kingdom, quests[b], labels, stack)
            else:
                status[b] = ILLEGAL
                n_illegal += 1
                continue
            if next_line[b, 0] >= 0:
                phase[b] = PICK
                n_steps[b] += 1
                continue
        else:
            i = a - n_place - 1
            if i < 0 or i >= line or next_line[b, i] < 0 or next_owner[b, i] >= 0:
                status[b] = ILLEGAL
                n_illegal += 1
                continue
            next_owner[b, i] = p
            if round_[b] > 0:
                phase[b] = PLACE
        n_steps[b] += 1
        turn[b] += 1
        if turn[b] == kings:
            _end_round(b, deck, drawn, cur_line, cur_owner, next_line, next_owner, order_player, order_slot, turn,
                       round_, phase)
    return n_illegal


@njit(cache=True, inline="always")
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
def observe(terrain, crowns, bbox, deck, drawn, cur_line, cur_owner, next_line, next_owner, order_player, order_slot,
            turn, round_, phase, scores, viewer, n, rounds, out):
    """Fill `out` (B, obs_size) with each game seen by player viewer[b] (egocentric; layout in observation.py).

    Returns the number of viewers that are not a player index (their rows are left zero)."""
    players = terrain.shape[1]
    s = terrain.shape[2]
    ss = s * s
    line = cur_line.shape[1]
    slot_size = DOMINO_FEATURES + players + 1
    lines_at = players * KINGDOM_PLANES * ss
    held_at = lines_at + 2 * line * slot_size
    unseen_at = held_at + DOMINO_FEATURES
    counters_at = unseen_at + 48
    out[:] = 0.0
    bad_viewers = 0
    for b in range(out.shape[0]):
        v = viewer[b]
        if v < 0 or v >= players:
            bad_viewers += 1
            continue
        o = out[b]
        for k in range(players):
            q = (v + k) % players
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
                o[at + DOMINO_FEATURES + (cur_owner[b, i] - v) % players] = 1.0
                for k in range(order_slot.shape[1]):
                    if order_slot[b, k] == i and (k < turn[b] or (k == turn[b] and phase[b] == PICK)):
                        o[at + DOMINO_FEATURES + players] = 1.0
            at = lines_at + (line + i) * slot_size
            _write_domino(o, at, next_line[b, i])
            if next_owner[b, i] >= 0:
                o[at + DOMINO_FEATURES + (next_owner[b, i] - v) % players] = 1.0
        if phase[b] == PLACE and order_player[b, turn[b]] == v:
            _write_domino(o, held_at, cur_line[b, order_slot[b, turn[b]]])
        for j in range(48):
            o[unseen_at + j] = 1.0
        for j in range(drawn[b]):
            o[unseen_at + deck[b, j]] = 0.0
        o[counters_at] = round_[b] / rounds
        if phase[b] != OVER:
            o[counters_at + 1 + phase[b]] = 1.0
        o[counters_at + 3] = (deck.shape[1] - drawn[b]) / deck.shape[1]
        for k in range(players):
            o[counters_at + 4 + k] = scores[b, (v + k) % players]
    return bad_viewers


@njit(cache=True)
def sample_legal(mask, u, out):
    """out[b] = the floor(u[b] * n_legal)-th legal action of row b (uniform over legal actions); -1 if none."""
    for b in range(mask.shape[0]):
        row = mask[b]
        count = 0
        for a in range(row.shape[0]):
            if row[a]:
                count += 1
        if count == 0:
            out[b] = -1
            continue
        k = min(int(u[b] * count), count - 1)
        for a in range(row.shape[0]):
            if row[a]:
                if k == 0:
                    out[b] = a
                    break
                k -= 1


@njit(cache=True, inline="always")
def random_open_pick(next_line, next_owner, b, u, n_place):
    """The pick action of a uniformly chosen domino (u in [0, 1)) of game b's next line that no king has taken:
    the random draft of GPRD, in both games."""
    n_open = 0
    for j in range(next_line.shape[1]):
        if next_line[b, j] >= 0 and next_owner[b, j] < 0:
            n_open += 1
    k = min(int(u * n_open), n_open - 1)
    for j in range(next_line.shape[1]):
        if next_line[b, j] >= 0 and next_owner[b, j] < 0:
            if k == 0:
                return n_place + 1 + j
            k -= 1
    return -1


@njit(cache=True)
def _best_placement(terrain, crowns, bbox, domino, n, harmony, middle_kingdom, quests, u, labels, stack, cells):
    """(action, score) of the placement of `domino` that scores most now, ties split by u in [0, 1);
    (discard action, current score) when no placement is legal. The board is restored before returning."""
    s = terrain.shape[0]
    n_legal = placements(terrain, bbox, domino, n, cells, False)
    if n_legal == 0:
        points, _, _ = board_points(terrain, crowns, n, harmony, middle_kingdom, quests, labels, stack)
        return s * s * 4, points
    best = -1
    n_best = 0
    saved = bbox.copy()
    for a in range(s * s * 4):
        if not cells[a]:
            continue
        cells[a] = False
        r, c, r2, c2 = decode_placement(a, s)
        put_domino(terrain, crowns, bbox, domino, r, c, r2, c2)
        points, _, _ = board_points(terrain, crowns, n, harmony, middle_kingdom, quests, labels, stack)
        lift_domino(terrain, crowns, bbox, saved, r, c, r2, c2)
        if points > best:
            best = points
            n_best = 1
            stack[s * s] = a
        elif points == best:
            n_best += 1
            stack[s * s + n_best - 1] = a
    return stack[s * s + min(int(u * n_best), n_best - 1)], best


@njit(cache=True)
def greedy_actions(terrain, crowns, bbox, cur_line, next_line, next_owner, order_player, order_slot, turn, phase,
                   games, n, harmony, middle_kingdom, quests, random_draft, u, out):
    """Full Greedy (Gedda et al. 2018) for the player to move in each of `games`: place where the score after
    placing is highest; pick the domino whose best placement on the current board scores most (or a uniformly
    random one with `random_draft`, their GPRD). Scores include the active quests `quests` (B, 17). Ties are
    split by u[i] in [0, 1)."""
    s = terrain.shape[2]
    n_place = s * s * 4
    line = next_line.shape[1]
    labels = np.zeros((s, s), dtype=np.int32)
    stack = np.zeros(2 * s * s * 4 + s * s, dtype=np.int64)
    cells = np.zeros(n_place, dtype=np.bool_)
    best_picks = np.zeros(line, dtype=np.int64)
    for i in range(games.shape[0]):
        b = games[i]
        out[i] = -1
        if phase[b] == OVER:
            continue
        p = order_player[b, turn[b]]
        if phase[b] == PLACE:
            domino = cur_line[b, order_slot[b, turn[b]]]
            out[i], _ = _best_placement(terrain[b, p], crowns[b, p], bbox[b, p], domino, n, harmony,
                                        middle_kingdom, quests[b], u[i], labels, stack, cells)
            continue
        if random_draft:
            out[i] = random_open_pick(next_line, next_owner, b, u[i], n_place)
            continue
        best = -1
        n_best = 0
        for j in range(line):
            if next_line[b, j] < 0 or next_owner[b, j] >= 0:
                continue
            _, points = _best_placement(terrain[b, p], crowns[b, p], bbox[b, p], next_line[b, j], n, harmony,
                                        middle_kingdom, quests[b], 0.0, labels, stack, cells)
            if points > best:
                best = points
                n_best = 0
            if points == best:
                best_picks[n_best] = j
                n_best += 1
        out[i] = n_place + 1 + best_picks[min(int(u[i] * n_best), n_best - 1)]
