"""Numba kernels of Queendomino: legal masks, applying actions, scoring and observations.

The placement rule and the territory flood fill are both games' (`games.board.placements_of`, `placement_ok`,
`put_squares`, `_scan_box`, `_end_round` for the lines), called here with the variant's domino table (`dt`, `dc`:
`QueendominoVariant.domino_terrain`, `.domino_crowns`); this module adds what Queendomino has on top: the optional
steps of a king's turn (knights, build, Dragon), coins, knights, towers, the Queen, the Builders' Board and building
scoring. The rules are those of `shared/specs/queendomino.md`; the building deck arrives as the numeric table of
`buildings.BuildingDeck` (`QueendominoVariant.building_table`).

The public kernels (`q_legal_mask`, `q_step`, `q_observe`) take the plain tuples of the arrays they read
(`State.arrays_for(record)`, `State.arrays` for `q_step`) and `State.constants`, and name them on entry (a
`records` class `st`, `records.QueendominoVariant` `v`).

The per-game loops of `q_step` and `q_observe` hand leaf work (loops and arithmetic over whole arrays, by index) to
helpers compiled into them (`inline="always"`). numba counts a reference for each array such a call is given, and
its pruning removes those counts only if the helper calls no kernel that stays a call (as `_scan_box` or
`_rescore` do: their error exit skips the decrefs) and does not begin in the block where views end (as right after
a flood fill of `terrain[b, p]`). So the flood fills and the rescoring stay in the loops themselves.

Seats and kingdoms: arrays with a player axis are per kingdom; the owners and the turn order hold seats. A seat's
kingdom is `seat >> shift` (shift 1 in the Royal Wedding's team games, where seats 2t and 2t + 1 share kingdom t;
0 otherwise, where seat and kingdom are the same).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board import (
    ALL_PLACEMENTS,
    FIRST_PLACEMENT,
    ILLEGAL,
    OK,
    OVER,
    PICK,
    PLACE,
    _end_round,
    _scan_box,
    decode_placement,
    placement_ok,
    placements_of,
    put_squares,
)
from ..dominoes import TOWN
from ..records import QueendominoArrays, QueendominoMaskArrays, QueendominoObserveArrays, QueendominoVariant
from .buildings import (
    CROWNS,
    KNIGHTS,
    PER_KIND,
    PER_KNIGHT,
    PER_TERRAIN,
    PER_TERRITORY,
    PER_TOWER,
    POINTS,
    TAX,
    TAX_KNIGHT,
    TAX_TOWER,
    TOWERS,
)

#: Phases of Queendomino beyond Kingdomino's PICK, PLACE, OVER: the optional steps of a king's turn.
KNIGHT_STEP, BUILD, DRAGON = 3, 4, 5
SLOTS = 6
KNIGHT_SUPPLY = 22
TOWER_SUPPLY = 15
N_TILES = 32

#: Observation: planes per kingdom (wheat, forest, lake, grassland, swamp, mine, town, crowns (the domino's plus
#: those of the building on the square), open, building, knights), features per kingdom, per Builders' Board slot,
#: per domino, of the placed domino.
Q_KINGDOM_PLANES = 11
Q_KINGDOM_FEATURES = 17
Q_TILE_FEATURES = 18
Q_DOMINO_FEATURES = 18
Q_PLACED_FEATURES = 7


@njit(cache=True)
def q_score(terrain, crowns, bbox, buildings, coins, knights_owned, towers, host, table, labels, stack, ecrowns,
            counts):
    """(score, largest territory, crowns) of one kingdom as if the game ended now.

    Wealth coins // 3; territories (the shared flood fill) squares x (crowns on their squares + `crowns` of the
    buildings on them), plus the largest territory's squares for the Queen's host (she is one more crown there;
    among equally large territories any gives the same points); buildings: fixed points, per separate territory
    of a terrain, per knight owned, per tower. Scratch: labels, ecrowns (S, S), stack (S * S,), counts (9,).
    Squares are read only inside the bounding box `bbox` (4,), where all filled ones are, in two passes: crowns
    and building points first (per-territory ones as points per territory of their terrain), then territories.
    """
    counts[:] = 0  # per terrain: the points a separate territory of it earns from the buildings
    fixed = 0
    for r in range(bbox[0], bbox[1] + 1):
        for c in range(bbox[2], bbox[3] + 1):
            ecrowns[r, c] = crowns[r, c]
            t = buildings[r, c]
            if t < 0:
                continue
            ecrowns[r, c] += table[t, CROWNS]
            kind = table[t, PER_KIND]
            if kind == PER_TERRITORY:
                counts[table[t, PER_TERRAIN]] += table[t, POINTS]
            elif kind == PER_KNIGHT:
                fixed += table[t, POINTS] * knights_owned
            elif kind == PER_TOWER:
                fixed += table[t, POINTS] * towers
            else:
                fixed += table[t, POINTS]
    points, largest, total, _, _, _, _, _, _ = _scan_box(terrain, ecrowns, labels, stack, bbox[0], bbox[1], bbox[2],
                                                         bbox[3])
    points += fixed
    seen = 0
    for r in range(bbox[0], bbox[1] + 1):
        for c in range(bbox[2], bbox[3] + 1):
            if labels[r, c] > seen:  # the first square of a new territory (labels rise in scan order)
                seen = labels[r, c]
                points += counts[terrain[r, c]]
    if host:
        points += largest
        total += 1
    return points + coins // 3, largest, total


@njit(cache=True)
def _rescore(b, p, terrain, crowns, bbox, building_board, coins, knights_owned, towers, queen, table, labels, stack,
             ecrowns, counts):
    """`q_score` of kingdom p in game b: (score, largest territory, crowns); scratch as there."""
    return q_score(terrain[b, p], crowns[b, p], bbox[b, p], building_board[b, p], coins[b, p], knights_owned[b, p],
                   towers[b, p], queen[b] == p, table, labels, stack, ecrowns, counts)


@njit(cache=True)
def _cost(k, host):
    """Slot k's price: k coins, 1 less for the Queen's host, never below 0."""
    return max(k - (1 if host else 0), 0)


@njit(cache=True)
def _can_build(terrain, bbox, buildings, slots, coins, host):
    """Whether a tile of the board is affordable and the kingdom has an open town square."""
    affordable = False
    for k in range(SLOTS):
        if slots[k] >= 0 and _cost(k, host) <= coins:
            affordable = True
            break
    if not affordable:
        return False
    for r in range(bbox[0], bbox[1] + 1):
        for c in range(bbox[2], bbox[3] + 1):
            if terrain[r, c] == TOWN and buildings[r, c] < 0:
                return True
    return False


@njit(cache=True)
def _can_dragon(b, p, coins, queen, dragon, slots):
    if not dragon[b] or queen[b] == p or coins[b, p] < 1:
        return False
    for k in range(SLOTS):
        if slots[b, k] >= 0:
            return True
    return False


@njit(cache=True)
def _next_step(b, stage, p, terrain, bbox, building_board, coins, knights, queen, dragon, slots, placed, knight_done,
               next_line):
    """The phase of the first step of the turn from `stage` (0 knights, 1 build, 2 Dragon, 3 pick) that has an
    action other than PASS, or -1 when the turn is over (optional steps without one are skipped)."""
    if stage <= 0 and placed[b, 0] >= 0 and knights[b, p] > 0 and not (knight_done[b, 0] and knight_done[b, 1]):
        return KNIGHT_STEP
    if stage <= 1 and _can_build(terrain[b, p], bbox[b, p], building_board[b, p], slots[b], coins[b, p],
                                 queen[b] == p):
        return BUILD
    if stage <= 2 and _can_dragon(b, p, coins, queen, dragon, slots):
        return DRAGON
    if next_line[b, 0] >= 0:
        return PICK
    return -1


@njit(cache=True)
def _refill_board(b, dragon, slots, pile, pile_pos):
    """Queendomino's end of a round after the lines' (`_end_round`): the Dragon returns to its cave, the board's
    tiles slide to the cheapest slots keeping their order and the empty slots fill from the pile, lowest first,
    while it lasts."""
    dragon[b] = True
    j = 0
    for k in range(SLOTS):
        if slots[b, k] >= 0:
            slots[b, j] = slots[b, k]
            j += 1
    for k in range(j, SLOTS):
        if pile_pos[b] < pile.shape[1]:
            slots[b, k] = pile[b, pile_pos[b]]
            pile_pos[b] += 1
        else:
            slots[b, k] = -1


@njit(cache=True)
def q_legal_mask(arrays, constants, out):
    """Fill `out` (B, n_actions) with each game's legal actions for the player to move (none once over).
    arrays, constants: the plain tuples `State.arrays_for(QueendominoMaskArrays)` and `State.constants`."""
    st = QueendominoMaskArrays(*arrays)
    v = QueendominoVariant(*constants)
    terrain, bbox, cur_line = st.terrain, st.bbox, st.cur_line
    next_line, next_owner, order_player = st.next_line, st.next_owner, st.order_player
    order_slot, turn, phase = st.order_slot, st.turn, st.phase
    coins, knights, building_board = st.coins, st.knights, st.building_board
    queen, dragon, slots = st.queen, st.dragon, st.slots
    knight_done = st.knight_done
    s = terrain.shape[2]
    ss = s * s
    n_place = v.n_place
    line = v.line
    k_at = v.first_knight
    b_at = v.first_build
    d_at = v.first_dragon
    pass_at = v.pass_action
    dt = v.domino_terrain
    n = v.grid
    shift = v.shift
    for b in range(out.shape[0]):
        out[b, :] = False  # row by row, so that the writes below find the row in cache
        ph = phase[b]
        if ph == OVER:
            continue
        p = order_player[b, turn[b]] >> shift
        if ph == PICK:
            for i in range(line):
                if next_line[b, i] >= 0 and next_owner[b, i] < 0:
                    out[b, n_place + 1 + i] = True
        elif ph == PLACE:
            domino = cur_line[b, order_slot[b, turn[b]]]
            if placements_of(terrain[b, p], bbox[b, p], dt[domino, 0], dt[domino, 1], n, out[b], ALL_PLACEMENTS) == 0:
                out[b, n_place] = True
        elif ph == KNIGHT_STEP:
            out[b, pass_at] = True
            if knights[b, p] > 0:
                for j in range(2):
                    if not knight_done[b, j]:
                        out[b, k_at + j] = True
        elif ph == BUILD:
            out[b, pass_at] = True
            host = queen[b] == p
            board = terrain[b, p]
            bb = building_board[b, p]
            for k in range(SLOTS):
                if slots[b, k] < 0 or _cost(k, host) > coins[b, p]:
                    continue
                for r in range(bbox[b, p, 0], bbox[b, p, 1] + 1):
                    for c in range(bbox[b, p, 2], bbox[b, p, 3] + 1):
                        if board[r, c] == TOWN and bb[r, c] < 0:
                            out[b, b_at + k * ss + r * s + c] = True
        else:
            out[b, pass_at] = True
            if dragon[b] and queen[b] != p and coins[b, p] >= 1:
                for k in range(SLOTS):
                    if slots[b, k] >= 0:
                        out[b, d_at + k] = True


#: `q_step`'s marks, besides the step a turn goes on from (0 knights, 1 build, 2 Dragon, 3 pick): an action that
#: is not legal (the game is left untouched), and a picked domino (the turn is over).
REFUSED, TURN_OVER = -1, 4


@njit(cache=True, inline="always")
def _step_scratch(s):
    """`q_step`'s scratch for S x S boards: labels, ecrowns (S, S), stack (S * S,), counts (9,) for the flood fills
    and scoring, and the one-entry mask row for `placements_of` when it only asks whether a placement exists."""
    return (np.zeros((s, s), dtype=np.int32), np.zeros((s, s), dtype=np.int8), np.zeros(s * s, dtype=np.int64),
            np.zeros(9, dtype=np.int64), np.zeros(1, dtype=np.bool_))


@njit(cache=True, inline="always")
def _send_knight(building_board, knight_board, knights, knights_owned, towers, coins, scores, placed, knight_done,
                 table, bbox, b, p, j, territory):
    """A knight of kingdom p in game b goes to square j of the domino just placed (`q_step` has checked that it
    may, and counted the `territory` squares of that square's territory): the kingdom collects a coin per square
    plus its buildings' per-knight and per-tower taxes, and its score follows its wealth. Inlined into `q_step`."""
    tax = territory
    for r in range(bbox[b, p, 0], bbox[b, p, 1] + 1):
        for c in range(bbox[b, p, 2], bbox[b, p, 3] + 1):
            t = building_board[b, p, r, c]
            if t >= 0:
                if table[t, TAX] == TAX_KNIGHT:
                    tax += knights_owned[b, p]
                elif table[t, TAX] == TAX_TOWER:
                    tax += towers[b, p]
    knights[b, p] -= 1
    knight_board[b, p, placed[b, 2 * j], placed[b, 2 * j + 1]] += 1
    knight_done[b, j] = True
    scores[b, p] += (coins[b, p] + tax) // 3 - coins[b, p] // 3  # only the wealth changes
    coins[b, p] += tax


@njit(cache=True, inline="always")
def _build_tile(building_board, coins, knights, knights_owned, towers, queen, slots, table, b, p, k, cost, r, c):
    """Kingdom p in game b buys the tile of slot k for `cost` coins and builds it on its town square (r, c)
    (`q_step` has checked that it may, and rescores the kingdoms): it takes the knights and towers the tile brings
    while the supplies last, and the Queen comes to it when its towers become the most. Returns the kingdom the
    Queen left, or -1 when she stayed. Inlined into `q_step`."""
    tile = slots[b, k]
    coins[b, p] -= cost
    building_board[b, p, r, c] = tile
    slots[b, k] = -1
    owned = 0
    placed_towers = 0
    for q in range(towers.shape[1]):
        owned += knights_owned[b, q]
        placed_towers += towers[b, q]
    gain = min(table[tile, KNIGHTS], KNIGHT_SUPPLY - owned)
    knights[b, p] += gain
    knights_owned[b, p] += gain
    gain = min(table[tile, TOWERS], TOWER_SUPPLY - placed_towers)
    towers[b, p] += gain
    left = np.int64(-1)  # of p's type, so that `_rescore` compiles once
    if gain > 0 and queen[b] != p:
        most = True
        for q in range(towers.shape[1]):
            if towers[b, q] > towers[b, p]:
                most = False
        if most:
            left = np.int64(queen[b])
            queen[b] = p
    return left


@njit(cache=True, inline="always")
def _burn_tile(scores, coins, slots, dragon, b, p, k):
    """Kingdom p in game b pays the Dragon 1 coin to burn the tile of slot k (`q_step` has checked that it may); the
    Dragon is done for the round. Inlined into `q_step`."""
    scores[b, p] += (coins[b, p] - 1) // 3 - coins[b, p] // 3  # only the wealth changes
    coins[b, p] -= 1
    slots[b, k] = -1
    dragon[b] = False


@njit(cache=True)
def q_step(arrays, constants, actions, status):
    """Apply one action per game in place (finished games are left alone); `status[b]` becomes ILLEGAL, and game
    b is untouched, when actions[b] is not legal for the player to move. Returns the number of illegal actions.
    arrays, constants: the plain tuples `State.arrays` and `State.constants`."""
    st = QueendominoArrays(*arrays)
    v = QueendominoVariant(*constants)
    terrain, crowns, bbox = st.terrain, st.crowns, st.bbox
    cur_line, next_line, next_owner = st.cur_line, st.next_line, st.next_owner
    order_player, order_slot, turn = st.order_player, st.order_slot, st.turn
    round_, phase, scores = st.round, st.phase, st.scores
    discarded, n_steps, coins = st.discarded, st.n_steps, st.coins
    knights, knights_owned, towers = st.knights, st.knights_owned, st.towers
    knight_board, building_board, queen = st.knight_board, st.building_board, st.queen
    dragon, slots, placed = st.dragon, st.slots, st.placed
    knight_done, largest, total_crowns = st.knight_done, st.largest, st.total_crowns
    deck, drawn, cur_owner = st.deck, st.drawn, st.cur_owner
    pile, pile_pos = st.pile, st.pile_pos
    n_place, line, n, shift = v.n_place, v.line, v.grid, v.shift
    k_at, b_at, d_at, pass_at = v.first_knight, v.first_build, v.first_dragon, v.pass_action
    table, dt, dc = v.building_table, v.domino_terrain, v.domino_crowns
    s = terrain.shape[2]
    labels, ecrowns, stack, counts, no_mask = _step_scratch(s)
    n_illegal = 0
    for b in range(actions.shape[0]):
        status[b] = OK
        ph = phase[b]
        if ph == OVER:
            continue
        a = actions[b]
        seat = order_player[b, turn[b]]
        p = seat >> shift
        stage = REFUSED  # until the action is found legal
        if ph == PLACE:
            domino = cur_line[b, order_slot[b, turn[b]]]
            t1, t2 = dt[domino, 0], dt[domino, 1]
            board = terrain[b, p]
            box = bbox[b, p]
            if a == n_place:
                if placements_of(board, box, t1, t2, n, no_mask, FIRST_PLACEMENT) == 0:
                    discarded[b, p] += 1
                    placed[b, :] = -1
                    stage = 0
            elif 0 <= a < n_place:
                r, c, r2, c2 = decode_placement(a, s)
                if placement_ok(board, box, t1, t2, n, r, c, r2, c2):
                    put_squares(board, crowns[b, p], box, t1, dc[domino, 0], t2, dc[domino, 1], r, c, r2, c2)
                    placed[b, 0], placed[b, 1], placed[b, 2], placed[b, 3] = r, c, r2, c2
                    scores[b, p], largest[b, p], total_crowns[b, p] = _rescore(
                        b, p, terrain, crowns, bbox, building_board, coins, knights_owned, towers, queen, table,
                        labels, stack, ecrowns, counts)
                    stage = 0
            if stage == 0:
                knight_done[b, 0] = knight_done[b, 1] = False
        elif ph == KNIGHT_STEP:
            if a == pass_at:
                stage = 1
            elif (a == k_at or a == k_at + 1) and knights[b, p] != 0 and not knight_done[b, a - k_at]:
                j = a - k_at
                r_lo, r_hi, c_lo, c_hi = bbox[b, p, 0], bbox[b, p, 1], bbox[b, p, 2], bbox[b, p, 3]
                _scan_box(terrain[b, p], crowns[b, p], labels, stack, r_lo, r_hi, c_lo, c_hi)
                r, c = placed[b, 2 * j], placed[b, 2 * j + 1]
                territory = 0  # counted here, so that `_send_knight` begins after the scan's views are gone
                for r0 in range(r_lo, r_hi + 1):
                    for c0 in range(c_lo, c_hi + 1):
                        if labels[r0, c0] == labels[r, c]:
                            territory += 1
                _send_knight(building_board, knight_board, knights, knights_owned, towers, coins, scores, placed,
                             knight_done, table, bbox, b, p, j, territory)
                stage = 0
        elif ph == BUILD:
            if a == pass_at:
                stage = 2
            elif b_at <= a < d_at:
                k, cell = divmod(a - b_at, s * s)
                r, c = divmod(cell, s)
                cost = _cost(k, queen[b] == p)
                if (slots[b, k] >= 0 and cost <= coins[b, p] and terrain[b, p, r, c] == TOWN
                        and building_board[b, p, r, c] < 0):
                    left = _build_tile(building_board, coins, knights, knights_owned, towers, queen, slots, table, b,
                                       p, k, cost, r, c)
                    if left >= 0:
                        scores[b, left], largest[b, left], total_crowns[b, left] = _rescore(
                            b, left, terrain, crowns, bbox, building_board, coins, knights_owned, towers, queen,
                            table, labels, stack, ecrowns, counts)
                    scores[b, p], largest[b, p], total_crowns[b, p] = _rescore(
                        b, p, terrain, crowns, bbox, building_board, coins, knights_owned, towers, queen,
                        table, labels, stack, ecrowns, counts)
                    stage = 2
        elif ph == DRAGON:
            if a == pass_at:
                stage = 3
            elif d_at <= a < pass_at and dragon[b] and queen[b] != p and coins[b, p] >= 1 and slots[b, a - d_at] >= 0:
                _burn_tile(scores, coins, slots, dragon, b, p, a - d_at)
                stage = 3
        else:
            i = a - n_place - 1
            if 0 <= i < line and next_line[b, i] >= 0 and next_owner[b, i] < 0:
                next_owner[b, i] = seat
                stage = TURN_OVER
        if stage == REFUSED:
            status[b] = ILLEGAL
            n_illegal += 1
            continue
        n_steps[b] += 1
        if stage != TURN_OVER:
            nxt = _next_step(b, stage, p, terrain, bbox, building_board, coins, knights, queen, dragon, slots, placed,
                             knight_done, next_line)
            if nxt >= 0:
                phase[b] = nxt
                continue
        turn[b] += 1
        if turn[b] == order_player.shape[1]:
            _end_round(b, deck, drawn, cur_line, cur_owner, next_line, next_owner, order_player, order_slot, turn,
                       round_, phase)
            if phase[b] != OVER:
                _refill_board(b, dragon, slots, pile, pile_pos)
        elif round_[b] > 0:
            phase[b] = PLACE
    return n_illegal


@njit(cache=True)
def _write_qdomino(out, base, domino, dt, dc):
    """Q_DOMINO_FEATURES of a domino at out[base:] (present, first square terrain one-hot of 7 and crowns, second
    square the same, (id + 1) / number of ids); an absent domino (-1) leaves zeros."""
    if domino < 0:
        return
    out[base] = 1.0
    for sq in range(2):
        t = dt[domino, sq]
        at = base + 1 + 8 * sq
        out[at + (6 if t == TOWN else t - 1)] = 1.0
        out[at + 7] = dc[domino, sq]
    out[base + 17] = (domino + 1) / dt.shape[0]


@njit(cache=True)
def relative_seat(owner, viewer, n_seats, shift):
    """Where seat `owner` sits as seen from seat `viewer`: 0 the viewer, then the others in seat order after it;
    in team games (shift 1) 1 is the viewer's teammate, then the other teams' seats in seat order."""
    if shift == 0:
        return (owner - viewer) % n_seats
    if owner == viewer:
        return 0
    if owner >> 1 == viewer >> 1:
        return 1
    return 2 * (((owner >> 1) - (viewer >> 1)) % (n_seats >> 1)) + (owner & 1)


@njit(cache=True, inline="always")
def _observe_kingdom(o, st, table, n, b, q, base, at):
    """Kingdom q of game b of the record `st` (QueendominoObserveArrays) into the observation row `o`: its
    Q_KINGDOM_PLANES planes at o[base:] and its Q_KINGDOM_FEATURES features at o[at:] (coins, knights, knights
    owned, towers, Queen, then the points and taxes of its buildings by kind). Inlined into `q_observe`."""
    bbox = st.bbox
    s = st.terrain.shape[2]
    ss = s * s
    tb = st.terrain[b, q]
    cb = st.crowns[b, q]
    bb = st.building_board[b, q]
    kb = st.knight_board[b, q]
    open_at = base + 8 * ss
    # Open squares: the window the kingdom may still grow into, minus its filled squares (below).
    for r in range(bbox[b, q, 1] - n + 1, bbox[b, q, 0] + n):
        row_at = open_at + r * s
        for c in range(bbox[b, q, 3] - n + 1, bbox[b, q, 2] + n):
            o[row_at + c] = 1.0
    for r in range(bbox[b, q, 0], bbox[b, q, 1] + 1):
        for c in range(bbox[b, q, 2], bbox[b, q, 3] + 1):
            t = tb[r, c]
            if t == 0:
                continue
            cell = base + r * s + c
            o[cell + 8 * ss] = 0.0
            if t == TOWN:
                o[cell + 6 * ss] = 1.0
            elif t < 7:
                o[cell + (t - 1) * ss] = 1.0
            o[cell + 10 * ss] = kb[r, c]
            tile = bb[r, c]
            if tile < 0:
                o[cell + 7 * ss] = cb[r, c]
                continue
            o[cell + 7 * ss] = cb[r, c] + table[tile, CROWNS]
            o[cell + 9 * ss] = 1.0
            kind = table[tile, PER_KIND]
            if kind == PER_TERRITORY:
                t = table[tile, PER_TERRAIN]
                o[at + 6 + (6 if t == TOWN else t - 1)] += table[tile, POINTS]
            elif kind == PER_KNIGHT:
                o[at + 13] += table[tile, POINTS]
            elif kind == PER_TOWER:
                o[at + 14] += table[tile, POINTS]
            else:
                o[at + 5] += table[tile, POINTS]
            if table[tile, TAX] == TAX_KNIGHT:
                o[at + 15] += 1.0
            elif table[tile, TAX] == TAX_TOWER:
                o[at + 16] += 1.0
    o[at] = st.coins[b, q]
    o[at + 1] = st.knights[b, q]
    o[at + 2] = st.knights_owned[b, q]
    o[at + 3] = st.towers[b, q]
    o[at + 4] = 1.0 if st.queen[b] == q else 0.0


@njit(cache=True, inline="always")
def _observe_builders_board(o, slots, table, b, host, at):
    """The Builders' Board of game b into o[at:], Q_TILE_FEATURES per slot (present, crowns, points, scoring kind
    one-hot, knights, towers, tax kind, price for the viewer, `host` if it hosts the Queen); an empty slot leaves
    zeros. Inlined into `q_observe`."""
    for k in range(SLOTS):
        tile = slots[b, k]
        if tile < 0:
            continue
        base = at + k * Q_TILE_FEATURES
        o[base] = 1.0
        o[base + 1] = table[tile, CROWNS]
        o[base + 2] = table[tile, POINTS]
        kind = table[tile, PER_KIND]
        if kind == PER_TERRITORY:
            t = table[tile, PER_TERRAIN]
            o[base + 4 + (6 if t == TOWN else t - 1)] = 1.0
        elif kind == PER_KNIGHT:
            o[base + 11] = 1.0
        elif kind == PER_TOWER:
            o[base + 12] = 1.0
        else:
            o[base + 3] = 1.0
        o[base + 13] = table[tile, KNIGHTS]
        o[base + 14] = table[tile, TOWERS]
        o[base + 15] = 1.0 if table[tile, TAX] == TAX_KNIGHT else 0.0
        o[base + 16] = 1.0 if table[tile, TAX] == TAX_TOWER else 0.0
        o[base + 17] = _cost(k, host)


@njit(cache=True)
def q_observe(arrays, constants, viewer, out):
    """Fill `out` (B, obs_size) with each game seen by seat viewer[b] (egocentric: its kingdom first, then the
    others in order; layout in `observation.QueendominoLayout`). Returns the number of viewers that are not a seat
    index (their rows are left zero). arrays, constants: the plain tuples
    `State.arrays_for(QueendominoObserveArrays)` and `State.constants`."""
    st = QueendominoObserveArrays(*arrays)
    v = QueendominoVariant(*constants)
    terrain = st.terrain
    deck, drawn, cur_line = st.deck, st.drawn, st.cur_line
    cur_owner, next_line, next_owner = st.cur_owner, st.next_line, st.next_owner
    order_player, order_slot, turn = st.order_player, st.order_slot, st.turn
    round_, phase, scores = st.round, st.phase, st.scores
    knights_owned, towers = st.knights_owned, st.towers
    queen, dragon, slots = st.queen, st.dragon, st.slots
    pile, pile_pos, placed = st.pile, st.pile_pos, st.placed
    knight_done = st.knight_done
    table = v.building_table
    dt = v.domino_terrain
    dc = v.domino_crowns
    n = v.grid
    n_seats = v.players
    shift = v.shift
    players = terrain.shape[1]
    n_ids = dt.shape[0]
    s = terrain.shape[2]
    ss = s * s
    line = v.line
    slot_size = Q_DOMINO_FEATURES + n_seats + 1
    planes = players * Q_KINGDOM_PLANES * ss
    feats_at = planes
    board_at = feats_at + players * Q_KINGDOM_FEATURES
    lines_at = board_at + SLOTS * Q_TILE_FEATURES
    held_at = lines_at + 2 * line * slot_size
    placed_at = held_at + Q_DOMINO_FEATURES
    unseen_at = placed_at + Q_PLACED_FEATURES
    pile_at = unseen_at + n_ids
    counters_at = pile_at + N_TILES
    bad_viewers = 0
    for b in range(out.shape[0]):
        o = out[b]
        o[:] = 0.0  # row by row, so that the writes below find the row in cache
        seat = viewer[b]
        if seat < 0 or seat >= n_seats:
            bad_viewers += 1
            continue
        me = seat >> shift
        for k in range(players):
            _observe_kingdom(o, st, table, n, b, (me + k) % players, k * Q_KINGDOM_PLANES * ss,
                             feats_at + k * Q_KINGDOM_FEATURES)
        _observe_builders_board(o, slots, table, b, queen[b] == me, board_at)
        for i in range(line):
            at = lines_at + i * slot_size
            _write_qdomino(o, at, cur_line[b, i], dt, dc)
            if cur_owner[b, i] >= 0 and round_[b] > 0:
                o[at + Q_DOMINO_FEATURES + relative_seat(cur_owner[b, i], seat, n_seats, shift)] = 1.0
                for k in range(order_slot.shape[1]):
                    if order_slot[b, k] == i and (k < turn[b] or (k == turn[b] and phase[b] != PLACE)):
                        o[at + Q_DOMINO_FEATURES + n_seats] = 1.0
            at = lines_at + (line + i) * slot_size
            _write_qdomino(o, at, next_line[b, i], dt, dc)
            if next_owner[b, i] >= 0:
                o[at + Q_DOMINO_FEATURES + relative_seat(next_owner[b, i], seat, n_seats, shift)] = 1.0
        mover = order_player[b, turn[b]] if phase[b] != OVER else -1
        if phase[b] == PLACE and mover == seat:
            _write_qdomino(o, held_at, cur_line[b, order_slot[b, turn[b]]], dt, dc)
        if phase[b] == KNIGHT_STEP or phase[b] == BUILD or phase[b] == DRAGON:
            if placed[b, 0] >= 0:
                o[placed_at] = 1.0
                for j in range(4):
                    o[placed_at + 1 + j] = placed[b, j] / (s - 1)
                o[placed_at + 5] = 1.0 if knight_done[b, 0] else 0.0
                o[placed_at + 6] = 1.0 if knight_done[b, 1] else 0.0
        for j in range(n_ids):
            o[unseen_at + j] = 1.0
        for j in range(drawn[b]):
            o[unseen_at + deck[b, j]] = 0.0
        for j in range(pile_pos[b], pile.shape[1]):
            o[pile_at + pile[b, j]] = 1.0
        o[counters_at] = round_[b] / v.rounds
        if phase[b] == PICK:
            o[counters_at + 1] = 1.0
        elif phase[b] == PLACE:
            o[counters_at + 2] = 1.0
        elif phase[b] != OVER:
            o[counters_at + phase[b]] = 1.0
        o[counters_at + 6] = 1.0 if dragon[b] else 0.0
        o[counters_at + 7] = (deck.shape[1] - drawn[b]) / deck.shape[1]
        o[counters_at + 8] = (pile.shape[1] - pile_pos[b]) / pile.shape[1]
        owned = 0
        placed_towers = 0
        for q in range(players):
            owned += knights_owned[b, q]
            placed_towers += towers[b, q]
        o[counters_at + 9] = KNIGHT_SUPPLY - owned
        o[counters_at + 10] = TOWER_SUPPLY - placed_towers
        for k in range(players):
            o[counters_at + 11 + k] = scores[b, (me + k) % players]
    return bad_viewers
