"""Drawing a game as readable text ("ansi"), from one game of a core `State` (pictures: `pygame_drawing`).

Text: each kingdom's S x S frame with row and column numbers (the coordinates of the action layout); a square is
its terrain letter and crowns (``F2`` = forest with 2 crowns), ``##`` the castle, ``.`` an empty square inside
the N x N bound, a blank one outside it. Then the two lines with the king on each domino, and the game's active
quests (in variants with quests).

The Royal Wedding (3-8 players, or teams of two sharing a kingdom) lists each kingdom under its players' names
(``Team 1: Ann & Bob``) and its dominoes by box (``#K12`` from Kingdomino's box, ``#Q12`` from Queendomino's).

Queendomino adds, per kingdom, its coins, knights, towers and whether it hosts the Queen, town squares ``T``,
a building's letter after the crowns (``T a`` = town with building a, listed under the kingdom with its effects)
and a ``k`` for a knight on the square; then the Queen's host, the Dragon, the Builders' Board (each slot's cost
and tile with its effects), the tiles left in the building pile and the supply of knights and towers.
"""

from __future__ import annotations

import string

import numpy as np

from ..core import OVER, PICK, PLACE, State
from ..games.dominoes import QUEEN_TERRAINS, TOWN, describe
from ..games.kingdomino.quests import DESCRIPTIONS, names
from ..games.queendomino.buildings import (
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
    BuildingDeck,
)
from ..games.queendomino.kernels import KNIGHT_SUPPLY, TOWER_SUPPLY
from ..rules import Rules

LETTERS = "WFLGSM"
#: The name of each phase (Kingdomino has pick, place and game over; Queendomino adds its optional steps).
PHASES = {PICK: "pick", PLACE: "place", OVER: "game over", 3: "knights", 4: "build", 5: "dragon"}
#: Letters naming a kingdom's buildings in the text, in row-major order of their squares.
BUILDING_LETTERS = string.ascii_lowercase + string.ascii_uppercase


def player_label(player: int, names: list[str] | None) -> str:
    return names[player] if names else f"player_{player}"


def kingdom_label(rules: Rules, kingdom: int, names: list[str] | None) -> str:
    """A kingdom's name: its player's, or "Team 1: player_0 & player_1" in team games (`names` per seat)."""
    who = [player_label(p, names) for p in rules.kingdom_seats(kingdom)]
    return f"Team {kingdom + 1}: {' & '.join(who)}" if rules.shared_kingdoms else who[0]


def domino_text(rules: Rules, domino: int) -> str:
    """The label of domino id `domino`: its number ("31"); in the Royal Wedding its box's letter too ("K31" from
    Kingdomino's box, "Q31" from Queendomino's), since both boxes number their dominoes 1..48."""
    box, number = rules.domino_label(int(domino))
    return f"{box[0].upper()}{number}" if rules.two_boxes else str(number)


def domino_description(rules: Rules, domino: int) -> str:
    """'#19 wheat*1|forest' for domino id `domino`; in the Royal Wedding with its box ('#Q19 ...', '#K19 ...')."""
    box, number = rules.domino_label(domino)
    text = describe(number, box == "queendomino")
    return f"#{box[0].upper()}{text[1:]}" if rules.two_boxes else text


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def building_effects(deck: BuildingDeck, tile: int, short: bool = False) -> list[str]:
    """The effects of building `tile` (0-based) of `deck` as phrases, e.g. ["2 points per forest territory",
    "+1 knight when built"]; `short` gives compact ones for pictures (["2 per forest", "+1 knight"])."""
    row = deck.table[tile]
    points, kind = int(row[POINTS]), int(row[PER_KIND])
    out = []
    if kind == PER_TERRITORY:
        terrain = QUEEN_TERRAINS[int(row[PER_TERRAIN]) - 1]
        out.append(f"{points} per {terrain}" if short else f"{_plural(points, 'point')} per {terrain} territory")
    elif kind in (PER_KNIGHT, PER_TOWER):
        what = "knight" if kind == PER_KNIGHT else "tower"
        out.append(f"{points} per {what}" if short else f"{_plural(points, 'point')} per {what} owned")
    elif points:
        out.append(f"{points} pts" if short else _plural(points, "point"))
    if row[CROWNS]:
        out.append(f"+{int(row[CROWNS])} crown" if short else f"+{_plural(int(row[CROWNS]), 'crown')} on its territory")
    for column, word in ((KNIGHTS, "knight"), (TOWERS, "tower")):
        if row[column]:
            out.append(f"+{_plural(int(row[column]), word)}" + ("" if short else " when built"))
    if row[TAX] in (TAX_KNIGHT, TAX_TOWER):
        what = "knight" if row[TAX] == TAX_KNIGHT else "tower"
        out.append(f"tax +1 per {what}" if short else f"tax: +1 coin per {what} owned")
    return out


def describe_building(deck: BuildingDeck, tile: int) -> str:
    """'Guardtower (tile 20): 3 points, +2 towers when built'."""
    effects = building_effects(deck, tile)
    return f"{deck.names[tile]} (tile {tile + 1})" + (": " + ", ".join(effects) if effects else "")


def _square(terrain: int, crowns: int, open_: bool) -> str:
    if terrain == 7:
        return "##"
    if terrain == 0:
        return " ." if open_ else "  "
    letter = "T" if terrain == TOWN else LETTERS[terrain - 1]
    return letter + (str(crowns) if crowns else " ")


def kingdom_buildings(state: State, game: int, player: int) -> list[tuple[str, int, int, int]]:
    """(letter, row, col, tile) of each building of a Queendomino kingdom, in row-major order."""
    board = state.building_board[game, player]
    rows, cols = np.nonzero(board >= 0)
    return [(BUILDING_LETTERS[i % len(BUILDING_LETTERS)], int(r), int(c), int(board[r, c]))
            for i, (r, c) in enumerate(zip(rows, cols, strict=True))]


def kingdom_text(state: State, game: int, player: int) -> list[str]:
    """Text lines drawing one kingdom in its frame, with row/column numbers (Queendomino: with its buildings and
    knights, and the list of its buildings)."""
    r = state.rules
    s, n = r.frame, r.grid
    bbox = state.bbox[game, player]
    queen = r.has_buildings
    letters = {(row, col): letter for letter, row, col, _ in kingdom_buildings(state, game, player)} if queen else {}
    width = 4 if queen else 2
    lines = ["    " + " ".join(f"{c:>{width}}" for c in range(s))]
    for row in range(s):
        cells = []
        for col in range(s):
            open_ = bbox[1] - n + 1 <= row <= bbox[0] + n - 1 and bbox[3] - n + 1 <= col <= bbox[2] + n - 1
            cell = _square(int(state.terrain[game, player, row, col]), int(state.crowns[game, player, row, col]),
                           open_)
            if queen:
                knights = int(state.knight_board[game, player, row, col])
                cell += letters.get((row, col), " ") + ("" if knights == 0 else "k" if knights == 1
                                                       else str(knights) if knights < 10 else "+")
                cell = f"{cell:<4}"
            cells.append(cell)
        text = f"{row:>2}  " + " ".join(cells)
        lines.append(text.rstrip() if queen else text)
    if queen:
        deck = r.building_deck
        lines.extend(f"    {letter} at ({row}, {col}): {describe_building(deck, tile)}"
                     for letter, row, col, tile in kingdom_buildings(state, game, player))
    return lines


def _purse(state: State, game: int, player: int) -> str:
    """'coins 9, knights 1 unplaced of 3, towers 2, hosts the Queen' (Queendomino)."""
    return (f"coins {int(state.coins[game, player])}, knights {int(state.knights[game, player])} unplaced of "
            f"{int(state.knights_owned[game, player])}, towers {int(state.towers[game, player])}"
            + (", hosts the Queen" if state.queen[game] == player else ""))


def queendomino_lines(state: State, game: int, names: list[str] | None = None) -> list[str]:
    """The Queen, the Dragon, the Builders' Board, the building pile and the supply, as text lines."""
    r = state.rules
    deck = r.building_deck
    host = int(state.queen[game])
    out = ["Queen: " + (f"hosted by {kingdom_label(r, host, names)}" if host >= 0 else "nobody hosts her yet"),
           "Dragon: " + ("in its cave" if state.dragon[game] else "out (it has burned a tile this round)"),
           "builders' board (slot k costs k coins):"]
    for k, tile in enumerate(state.slots[game].tolist()):
        out.append(f"  {k} ({_plural(k, 'coin')}): " + ("empty" if tile < 0 else describe_building(deck, tile)))
    left = len(state.pile[game]) - int(state.pile_pos[game])
    out.append(f"building pile: {_plural(left, 'tile')} left")
    knights = KNIGHT_SUPPLY - int(state.knights_owned[game].sum())
    towers = TOWER_SUPPLY - int(state.towers[game].sum())
    out.append(f"supply: {_plural(max(knights, 0), 'knight')}, {_plural(max(towers, 0), 'tower')}")
    return out


def ansi(state: State, game: int = 0, names: list[str] | None = None) -> str:
    """The whole table of one game as text."""
    r = state.rules
    out = []
    mover = int(state.current_player[game])
    head = f"Round {int(state.round[game])}/{r.rounds} - {PHASES[int(state.phase[game])]}"
    if mover >= 0:
        head += f" - {player_label(mover, names)} to move"
        if r.shared_kingdoms:
            head += f" (team {r.seat_kingdoms[mover] + 1})"
    out.append(head)
    if r.has_buildings:
        out.append("squares: terrain letter (T town), crowns, building letter, k = a knight")
    for p in range(r.kingdoms):
        out.append(f"{kingdom_label(r, p, names)}: {int(state.scores[game, p])} points"
                   + (f", {int(state.discarded[game, p])} discarded" if state.discarded[game, p] else ""))
        if r.has_buildings:
            out.append("  " + _purse(state, game, p))
        out.extend(kingdom_text(state, game, p))
    for title, line, owner in (("current line", state.cur_line, state.cur_owner),
                               ("next line", state.next_line, state.next_owner)):
        entries = []
        for i in range(r.line_size):
            d = int(line[game, i])
            if d < 0:
                continue
            who = int(owner[game, i])
            entries.append(f"  {i}: {domino_description(r, d)}"
                           + (f"  <- {player_label(who, names)}" if who >= 0 else ""))
        if entries:
            out.append(title + ":")
            out.extend(entries)
    if r.has_buildings:
        out.extend(queendomino_lines(state, game, names))
    out.extend(quest_lines(state, game))
    return "\n".join(out)


def quest_lines(state: State, game: int) -> list[str]:
    """'quests:' and one line per active quest of the game (nothing in variants without quests)."""
    if not state.rules.has_quests:
        return []
    return ["quests:"] + [f"  {name}: {DESCRIPTIONS[name]}" for name in names(state.quests[game])]


__all__ = ["PHASES", "ansi", "building_effects", "describe_building", "domino_description", "domino_text",
           "kingdom_buildings", "kingdom_label", "kingdom_text", "quest_lines", "queendomino_lines"]
