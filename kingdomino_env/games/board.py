"""Numba kernels that both games share: the turn phases, the placement rule, the territory flood fill, the end
of a round and the random choices.

Board encoding: terrain codes 0 empty, 1..6 (`dominoes.TERRAINS`), 7 castle, 8 town (Queendomino); crowns as
counts. The placement rule (`placements_of`, `placement_ok`, `put_squares`) and the territory flood fill (`_scan`)
are written once, over terrain codes, and serve both games: Kingdomino's own kernels are in
`games.kingdomino.kernels`, Queendomino's in `games.queendomino.kernels`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .dominoes import CASTLE

PICK, PLACE, OVER = 0, 1, 2
OK, ILLEGAL = 0, 1
#: `placements_of`'s first_only values. Numpy bools, not Python ones: kernels pass them as plain booleans, so one
#: compiled `placements_of` serves both (a Python constant would compile it once per value).
ALL_PLACEMENTS, FIRST_PLACEMENT = np.bool_(False), np.bool_(True)

_DR = np.array([0, 1, 0, -1], dtype=np.int64)
_DCOL = np.array([1, 0, -1, 0], dtype=np.int64)
# Terrain codes 1..4 (wheat, forest, lake, grassland) are those of the Bleak king quest.
_BLEAK_TERRAINS = 4

@njit(cache=True)
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


@njit(cache=True)
def decode_placement(action, s):
    """(r, c, r2, c2): the squares of placement `action` in an S x S frame (first square, then second)."""
    cell, d = divmod(action, 4)
    r, c = divmod(cell, s)
    return r, c, r + _DR[d], c + _DCOL[d]


@njit(cache=True)
def put_squares(terrain, crowns, bbox, t1, k1, t2, k2, r, c, r2, c2):
    """Write a domino given by its squares (terrain t1 and k1 crowns at (r, c), t2 and k2 at (r2, c2)) on a
    board and grow the bounding box. The one placement writer of both games (`put_domino` for Kingdomino's
    table, `games.queendomino.kernels` for Queendomino's)."""
    terrain[r, c] = t1
    terrain[r2, c2] = t2
    crowns[r, c] = k1
    crowns[r2, c2] = k2
    bbox[0] = min(bbox[0], r, r2)
    bbox[1] = max(bbox[1], r, r2)
    bbox[2] = min(bbox[2], c, c2)
    bbox[3] = max(bbox[3], c, c2)


@njit(cache=True)
def lift_domino(terrain, crowns, bbox, saved_bbox, r, c, r2, c2):
    """Undo `put_domino`: empty the two squares and restore the bounding box saved before."""
    terrain[r, c] = 0
    terrain[r2, c2] = 0
    crowns[r, c] = 0
    crowns[r2, c2] = 0
    for i in range(4):
        bbox[i] = saved_bbox[i]


@njit(cache=True)
def placement_ok(terrain, bbox, t1, t2, n, r, c, r2, c2):
    """Whether a domino of terrains t1 (first square) and t2 may go at (r, c), (r2, c2): the kingdom stays within
    N x N, both squares are empty, and one of them touches the castle (wild) or its own terrain. Both games."""
    inside = bbox[1] - n + 1 <= min(r, r2) and max(r, r2) <= bbox[0] + n - 1
    inside = inside and bbox[3] - n + 1 <= min(c, c2) and max(c, c2) <= bbox[2] + n - 1
    if not inside or terrain[r, c] != 0 or terrain[r2, c2] != 0:
        return False
    return _touches(terrain, r, c, t1) or _touches(terrain, r2, c2, t2)


@njit(cache=True, inline="always")
def placement_window(bbox, n):
    """(first row, last row, first column, last column): where both squares of a legal placement lie on a board
    with bounding box `bbox`. The kingdom must stay within N x N (rows max_r - N + 1 .. min_r + N - 1, and likewise
    columns), and a placed square touches a filled one, so both squares are at most 2 squares from the box."""
    return (max(bbox[1] - n + 1, bbox[0] - 2), min(bbox[0] + n - 1, bbox[1] + 2),
            max(bbox[3] - n + 1, bbox[2] - 2), min(bbox[2] + n - 1, bbox[3] + 2))


@njit(cache=True, inline="always")
def _row_bits(terrain, r, rlo, rhi, clo, chi, t1, t2):
    """Bit masks over the columns clo..chi of row r (bit c: column c): (empty squares, squares of terrain t1 or the
    castle, squares of terrain t2 or the castle); all zero for a row outside rlo..rhi."""
    empty = 0
    match1 = 0
    match2 = 0
    if rlo <= r <= rhi:
        for c in range(clo, chi + 1):
            t = terrain[r, c]
            if t == 0:
                empty |= 1 << c
            elif t == CASTLE:
                match1 |= 1 << c
                match2 |= 1 << c
            else:
                if t == t1:
                    match1 |= 1 << c
                if t == t2:
                    match2 |= 1 << c
    return empty, match1, match2


@njit(cache=True, inline="always")
def _mark(pairs, r, clo, chi, d, s, mask_row):
    """Mark in `mask_row` the placements in direction d whose first square is at row r, column c for each bit c of
    `pairs`; how many."""
    count = 0
    if pairs != 0:
        for c in range(clo, chi + 1):
            if (pairs >> c) & 1:
                mask_row[(r * s + c) * 4 + d] = True
                count += 1
    return count


@njit(cache=True)
def placements_of(terrain, bbox, t1, t2, n, mask_row, first_only):
    """Count the legal placements of a domino with square terrains t1, t2 on one board, marking them in
    `mask_row` if given (returning at the first with `first_only`). The one placement rule of both games.

    A square may go at rows max_r - N + 1 .. min_r + N - 1 (and likewise columns) so that the kingdom stays
    within N x N; both squares must be empty; at least one must touch the castle or its own terrain. Only the
    squares of `placement_window` are tried, a row at a time: each row's empty squares, and those touching
    terrain t1 (or t2, or the castle), are bit masks over its columns, so a direction's legal placements along a
    row come from a few shifts and ands (frames up to 62 squares wide).
    """
    s = terrain.shape[0]
    rlo, rhi, clo, chi = placement_window(bbox, n)
    count = 0
    e_up, m1_up = 0, 0
    e, m1, m2 = _row_bits(terrain, rlo, rlo, rhi, clo, chi, t1, t2)
    e_down, m1_down, m2_down = _row_bits(terrain, rlo + 1, rlo, rhi, clo, chi, t1, t2)
    touch2_up = 0
    touch2 = e & (m2_down | (m2 << 1) | (m2 >> 1))
    for r in range(rlo, rhi + 1):
        e_next, m1_next, m2_next = _row_bits(terrain, r + 2, rlo, rhi, clo, chi, t1, t2)
        touch1 = e & (m1_up | m1_down | (m1 << 1) | (m1 >> 1))
        touch2_down = e_down & (m2 | m2_next | (m2_down << 1) | (m2_down >> 1))
        east = e & (e >> 1) & (touch1 | (touch2 >> 1))
        south = e & e_down & (touch1 | touch2_down)
        west = e & (e << 1) & (touch1 | (touch2 << 1))
        north = e & e_up & (touch1 | touch2_up)
        if first_only and (east | south | west | north) != 0:
            return 1
        count += _mark(east, r, clo, chi, 0, s, mask_row) + _mark(south, r, clo, chi, 1, s, mask_row)
        count += _mark(west, r, clo, chi, 2, s, mask_row) + _mark(north, r, clo, chi, 3, s, mask_row)
        e_up, m1_up = e, m1
        e, m1, m2 = e_down, m1_down, m2_down
        e_down, m1_down, m2_down = e_next, m1_next, m2_next
        touch2_up, touch2 = touch2, touch2_down
    return count


@njit(cache=True)
def _scan(terrain, crowns, labels, stack):
    """Flood-fill the territories of one board (orthogonal, same terrain) into `labels`.

    Returns (territory points, largest territory, total crowns, filled squares, min row, max row, min col,
    max col, bleak territories: crownless wheat/forest/lake/grassland territories of 5 squares or more).
    """
    s = terrain.shape[0]
    return _scan_box(terrain, crowns, labels, stack, 0, s - 1, 0, s - 1)


@njit(cache=True)
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
        for i in range(line):  # the drawn line in ascending order, by insertion
            domino = deck[b, start + i]
            j = i
            while j > 0 and next_line[b, j - 1] > domino:
                next_line[b, j] = next_line[b, j - 1]
                j -= 1
            next_line[b, j] = domino
        next_owner[b, :] = -1
        drawn[b] = start + line
    else:
        next_line[b, :] = -1
        next_owner[b, :] = -1
    turn[b] = 0
    round_[b] += 1
    phase[b] = PLACE


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


@njit(cache=True)
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

