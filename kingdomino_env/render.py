"""Drawing a game as readable text ("ansi"), from one game of a core `State` (pictures: `drawing.py`).

Text: each kingdom's S x S frame with row and column numbers (the coordinates of the action layout); a square is
its terrain letter and crowns (``F2`` = forest with 2 crowns), ``##`` the castle, ``.`` an empty square inside
the N x N bound, a blank one outside it. Then the two lines with the king on each domino, and the game's active
quests (in variants with quests).
"""

from __future__ import annotations

import numpy as np

from .core import OVER, PICK, State
from .dominoes import TOWN, describe
from .quests import DESCRIPTIONS, names

LETTERS = "WFLGSM"


def player_label(player: int, names: list[str] | None) -> str:
    return names[player] if names else f"player_{player}"


def _square(terrain: int, crowns: int, open_: bool, building: bool = False) -> str:
    if terrain == 7:
        return "##"
    if terrain == 0:
        return " ." if open_ else "  "
    if terrain == TOWN:
        return "T" + ("B" if building else str(crowns) if crowns else " ")
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
            building = r.is_queendomino and bool(state.building_board[game, player, row, col] >= 0)
            cells.append(_square(int(state.terrain[game, player, row, col]), int(state.crowns[game, player, row, col]),
                                 open_, building))
        lines.append(f"{row:>2}  " + " ".join(cells))
    return lines


def ansi(state: State, game: int = 0, names: list[str] | None = None) -> str:
    """The whole table of one game as text."""
    r = state.rules
    out = []
    phase = {PICK: "pick", 1: "place", OVER: "game over", 3: "knights", 4: "build", 5: "dragon"}[int(state.phase[game])]
    mover = int(state.current_player[game])
    head = f"Round {int(state.round[game])}/{r.rounds} - {phase}"
    if mover >= 0:
        head += f" - {player_label(mover, names)} to move"
    out.append(head)
    for p in range(r.players):
        out.append(f"{player_label(p, names)}: {int(state.scores[game, p])} points"
                   + (f", {int(state.discarded[game, p])} discarded" if state.discarded[game, p] else ""))
        if r.is_queendomino:
            out.append(f"  coins {int(state.coins[game, p])}, knights {int(state.knights[game, p])} unplaced of "
                       f"{int(state.knights_owned[game, p])}, towers {int(state.towers[game, p])}"
                       + (", hosts the Queen" if state.queen[game] == p else ""))
        out.extend(kingdom_text(state, game, p))
    for title, line, owner in (("current line", state.cur_line, state.cur_owner),
                               ("next line", state.next_line, state.next_owner)):
        entries = []
        for i in range(r.line_size):
            d = int(line[game, i])
            if d < 0:
                continue
            who = int(owner[game, i])
            entries.append(f"  {i}: {describe(d + 1, r.is_queendomino)}"
                           + (f"  <- {player_label(who, names)}" if who >= 0 else ""))
        if entries:
            out.append(title + ":")
            out.extend(entries)
    if r.is_queendomino:
        tiles = [f"{k}:{'-' if t < 0 else r.building_deck.names[t]}" for k, t in enumerate(state.slots[game].tolist())]
        out.append("builders' board: " + ", ".join(tiles) + (" - Dragon in its cave" if state.dragon[game] else ""))
    out.extend(quest_lines(state, game))
    return "\n".join(out)


def quest_lines(state: State, game: int) -> list[str]:
    """'quests:' and one line per active quest of the game (nothing in variants without quests)."""
    if not state.rules.has_quests:
        return []
    return ["quests:"] + [f"  {name}: {DESCRIPTIONS[name]}" for name in names(state.quests[game])]


__all__ = ["ansi", "frame", "kingdom_text", "quest_lines"]


def frame(state: State, mode: str, game: int = 0) -> str | np.ndarray:
    """What an env's render() returns for `mode`: "ansi" text, or an "rgb_array" picture (pygame drawing)."""
    if mode == "ansi":
        return ansi(state, game)
    from . import drawing  # pygame is needed only to draw

    return drawing.rgb_array(state, game)
