"""Drawing a game: readable text ("ansi") and a picture ("rgb_array"), from one game of a core `State`.

Text: each kingdom's S x S frame with row and column numbers (the coordinates of the action layout); a square is
its terrain letter and crowns (``F2`` = forest with 2 crowns), ``##`` the castle, ``.`` an empty square inside
the N x N bound, a blank one outside it. Then the two lines with the king on each domino.
"""

from __future__ import annotations

import numpy as np

from .core import OVER, PICK, State
from .dominoes import DOMINO_CROWNS, DOMINO_TERRAIN, TERRAINS, describe

LETTERS = "WFLGSM"
#: RGB colours of empty, the six terrains (wheat, forest, lake, grassland, swamp, mine) and the castle.
COLOURS = np.array(
    [(238, 232, 213), (230, 196, 60), (34, 110, 50), (60, 120, 200), (140, 200, 90), (120, 110, 80),
     (70, 60, 55), (200, 200, 210)],
    dtype=np.uint8,
)


def player_label(player: int, names: list[str] | None) -> str:
    return names[player] if names else f"player_{player}"


def _square(terrain: int, crowns: int, open_: bool) -> str:
    if terrain == 7:
        return "##"
    if terrain == 0:
        return " ." if open_ else "  "
    return LETTERS[terrain - 1] + (str(crowns) if crowns else " ")


def kingdom_text(state: State, game: int, player: int) -> list[str]:
    """Text lines drawing one kingdom in its frame, with row/column numbers."""
    r = state.rules
    s, n = r.frame, r.grid
    bbox = state.bbox[game, player]
    lines = ["    " + " ".join(f"{c:>2}" for c in range(s))]
    for row in range(s):
        cells = []
        for col in range(s):
            open_ = bbox[1] - n + 1 <= row <= bbox[0] + n - 1 and bbox[3] - n + 1 <= col <= bbox[2] + n - 1
            cells.append(_square(int(state.terrain[game, player, row, col]), int(state.crowns[game, player, row, col]),
                                 open_))
        lines.append(f"{row:>2}  " + " ".join(cells))
    return lines


def ansi(state: State, game: int = 0, names: list[str] | None = None) -> str:
    """The whole table of one game as text."""
    r = state.rules
    out = []
    phase = {PICK: "pick", 1: "place", OVER: "game over"}[int(state.phase[game])]
    mover = int(state.current_player[game])
    head = f"Round {int(state.round[game])}/{r.rounds} - {phase}"
    if mover >= 0:
        head += f" - {player_label(mover, names)} to move"
    out.append(head)
    for p in range(r.players):
        out.append(f"{player_label(p, names)}: {int(state.scores[game, p])} points"
                   + (f", {int(state.discarded[game, p])} discarded" if state.discarded[game, p] else ""))
        out.extend(kingdom_text(state, game, p))
    for title, line, owner in (("current line", state.cur_line, state.cur_owner),
                               ("next line", state.next_line, state.next_owner)):
        entries = []
        for i in range(r.line_size):
            d = int(line[game, i])
            if d < 0:
                continue
            who = int(owner[game, i])
            entries.append(f"  {i}: {describe(d + 1)}" + (f"  <- {player_label(who, names)}" if who >= 0 else ""))
        if entries:
            out.append(title + ":")
            out.extend(entries)
    return "\n".join(out)


def rgb_array(state: State, game: int = 0, cell: int = 24) -> np.ndarray:
    """(H, W, 3) uint8 picture: the kingdoms side by side (crowns as dots), the lines underneath."""
    r = state.rules
    s, players, gap = r.frame, r.players, cell // 2
    width = players * s * cell + (players + 1) * gap
    line_rows = 2
    height = s * cell + 2 * gap + line_rows * (cell + gap) + gap
    img = np.full((height, width, 3), 250, dtype=np.uint8)

    def square(y: int, x: int, terrain: int, crowns: int) -> None:
        img[y + 1:y + cell - 1, x + 1:x + cell - 1] = COLOURS[terrain]
        for k in range(crowns):
            cy, cx = y + 4, x + 4 + k * 6
            img[cy:cy + 4, cx:cx + 4] = (255, 215, 0)

    for p in range(players):
        x0 = gap + p * (s * cell + gap)
        for row in range(s):
            for col in range(s):
                square(gap + row * cell, x0 + col * cell, int(state.terrain[game, p, row, col]),
                       int(state.crowns[game, p, row, col]))
    y = s * cell + 2 * gap
    for li, (line, owner) in enumerate(((state.cur_line, state.cur_owner), (state.next_line, state.next_owner))):
        for i in range(r.line_size):
            d = int(line[game, i])
            if d < 0:
                continue
            x = gap + i * (2 * cell + 2 * gap)
            yy = y + li * (cell + gap)
            for sq in (0, 1):
                square(yy, x + sq * cell, int(DOMINO_TERRAIN[d, sq]), int(DOMINO_CROWNS[d, sq]))
            who = int(owner[game, i])
            if who >= 0:
                shade = int(255 * (who + 1) / (players + 1))
                img[yy:yy + cell, x + 2 * cell + 2:x + 2 * cell + gap - 2] = (shade, 40, 255 - shade)
    return img


__all__ = ["ansi", "rgb_array", "kingdom_text", "TERRAINS", "COLOURS"]
