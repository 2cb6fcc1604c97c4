"""Drawing one game of a core `State` with pygame: squares, dominoes, kings, kingdoms, the two lines, the table.

Used by the play app (`kingdomino_app`) and by the env's render modes: `rgb_array(state)` returns the table as an
(H, W, 3) uint8 array, `Viewer().show(state)` draws it in a window. Up to 8 kingdoms (the Royal Wedding): four
side by side, then a second row; a team's kingdom is labelled with both players (castle and knights in its first
player's colour), and Royal Wedding dominoes carry their box's letter (K12, Q12). Queendomino tables add towns,
buildings on town squares, knight and tower markers, each kingdom's coins / knights / towers / Queen panel, the
Builders' Board (6 slots with their costs and tiles) and the Dragon in its cave or out; Kingdomino tables are as
before.
Everything draws onto a pygame Surface given by the caller; no display is needed except by `Viewer`. pygame is
imported here only: the rules core and `kingdomino_env` itself stay importable without it.

Geometry helpers (`cell_rect`, `cell_at`, `slot_rect`, `domino_cells`) are pure functions of their arguments, so
callers can hit-test clicks with the same numbers the drawing used.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from ..core import OVER, PICK, State  # noqa: E402
from ..games.dominoes import (  # noqa: E402
    CASTLE,
    DOMINO_CROWNS,
    DOMINO_TERRAIN,
    QUEEN_DOMINO_CROWNS,
    QUEEN_DOMINO_TERRAIN,
    TERRAINS,
    TOWN,
)
from ..games.queendomino.buildings import (  # noqa: E402
    CROWNS,
    PER_KIND,
    PER_KNIGHT,
    PER_TERRAIN,
    PER_TERRITORY,
    PER_TOWER,
    POINTS,
    TOWERS,
)
from ..rules import DIRECTIONS, Rules  # noqa: E402
from .text import PHASES, building_effects, domino_text, kingdom_label  # noqa: E402

Colour = tuple[int, int, int]

#: Fill colours of an empty square (0), the six terrains (1..6, order of `TERRAINS`), the castle (7) and
#: Queendomino's town (8; with houses).
TERRAIN_COLOURS: tuple[Colour, ...] = (
    (239, 233, 217), (236, 200, 70), (44, 112, 58), (62, 132, 210), (146, 200, 96), (132, 122, 94),
    (96, 88, 86), (214, 214, 222), (196, 64, 52),
)
#: Darker tone of each terrain, for its pattern.
_DETAIL: tuple[Colour, ...] = (
    (239, 233, 217), (190, 150, 36), (22, 70, 34), (160, 205, 245), (96, 150, 60), (86, 82, 58),
    (58, 52, 50), (150, 150, 160), (128, 36, 28),
)
#: Kings and castles of players 0..7: pink, yellow, green, blue (Kingdomino's box), then orange, purple, teal and
#: black for the Royal Wedding's fifth to eighth players.
PLAYER_COLOURS: tuple[Colour, ...] = ((226, 84, 150), (240, 196, 30), (58, 168, 84), (58, 108, 220),
                                      (240, 130, 40), (140, 84, 196), (40, 176, 176), (64, 60, 66))
PLAYER_COLOUR_NAMES: tuple[str, ...] = ("pink", "yellow", "green", "blue", "orange", "purple", "teal", "black")
BACKGROUND: Colour = (246, 242, 232)
INK: Colour = (40, 36, 32)
GOLD: Colour = (250, 204, 40)
OUTSIDE: Colour = (222, 215, 198)
LEGAL: Colour = (40, 180, 90)
ILLEGAL: Colour = (210, 50, 40)
RECENT: Colour = (255, 255, 255)
#: Backing of a domino's number badge.
BADGE: Colour = (255, 253, 245)


_FONTS: dict[tuple[int, bool], pygame.font.Font] = {}


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """pygame's default font at `size` pixels (cached until pygame quits, which frees its fonts)."""
    if not pygame.font.get_init():
        pygame.font.init()
    if not _FONTS:
        pygame.register_quit(_FONTS.clear)
    key = (size, bold)
    if key not in _FONTS:
        _FONTS[key] = pygame.font.Font(None, size)
        _FONTS[key].set_bold(bold)
    return _FONTS[key]


def text(surface: pygame.Surface, value: str, pos: tuple[int, int], size: int = 24, colour: Colour = INK,
         bold: bool = False, anchor: str = "topleft") -> pygame.Rect:
    """Draw `value` with its `anchor` (a pygame.Rect attribute such as "center") at `pos`; returns its rect."""
    image = font(size, bold).render(value, True, colour)
    rect = image.get_rect(**{anchor: pos})
    surface.blit(image, rect)
    return rect


# Squares, dominoes and kings.
def _crown(surface: pygame.Surface, x: int, y: int, w: int) -> None:
    h = max(3, int(w * 0.75))
    points = [(x, y + h), (x, y + h // 3), (x + w // 4, y + h * 2 // 3), (x + w // 2, y),
              (x + 3 * w // 4, y + h * 2 // 3), (x + w, y + h // 3), (x + w, y + h)]
    pygame.draw.polygon(surface, GOLD, points)
    pygame.draw.polygon(surface, (120, 90, 10), points, 1)


def _pattern(surface: pygame.Surface, rect: pygame.Rect, terrain: int) -> None:
    """A little drawing that tells the terrain apart beyond its colour."""
    if terrain >= len(_DETAIL):
        return
    c = _DETAIL[terrain]
    x, y, w, h = rect
    u = max(2, w // 8)
    if terrain == 1:  # wheat: ears
        for i in range(3):
            cx = x + w * (i + 1) // 4
            pygame.draw.line(surface, c, (cx, y + h * 5 // 8), (cx, y + h - u), max(1, u // 2))
            pygame.draw.ellipse(surface, c, (cx - u // 2, y + h // 2 - u, u, 2 * u))
    elif terrain == 2:  # forest: trees
        for i in range(2):
            cx = x + w * (1 + 2 * i) // 4
            half = u * 3 // 2
            pygame.draw.polygon(surface, c, [(cx, y + h // 2 - u), (cx - half, y + h - u), (cx + half, y + h - u)])
    elif terrain == 3:  # lake: waves
        for i in range(2):
            yy = y + h // 2 + i * 2 * u
            pygame.draw.arc(surface, c, (x + u, yy, w // 2 - u, 2 * u), 0, 3.14, max(1, u // 2))
            pygame.draw.arc(surface, c, (x + w // 2, yy, w // 2 - u, 2 * u), 0, 3.14, max(1, u // 2))
    elif terrain == 4:  # grassland: tufts
        for i in range(3):
            cx, cy = x + w * (i + 1) // 4, y + h * (5 + (i % 2)) // 8
            pygame.draw.lines(surface, c, False, [(cx - u, cy - u), (cx, cy + u), (cx + u, cy - u)], max(1, u // 2))
    elif terrain == 5:  # swamp: reeds and puddles
        pygame.draw.ellipse(surface, (100, 120, 110), (x + u, y + h - 3 * u, w // 2, 2 * u))
        for i in range(2):
            cx = x + w * (2 + i) // 4 + u
            pygame.draw.line(surface, c, (cx, y + h // 2), (cx, y + h - u), max(1, u // 2))
    elif terrain == TOWN:  # town: two houses
        for i in range(2):
            hx, base = x + u + i * (w // 2 - u // 2), y + h - u
            side = w // 2 - u
            pygame.draw.rect(surface, c, (hx, base - side // 2, side, side // 2))
            pygame.draw.polygon(surface, c, [(hx - 1, base - side // 2), (hx + side // 2, base - side),
                                             (hx + side, base - side // 2)])
    elif terrain == 6:  # mine: mountain
        pygame.draw.polygon(surface, c, [(x + u, y + h - u), (x + w // 2, y + h // 3), (x + w - u, y + h - u)])
        pygame.draw.polygon(surface, (230, 230, 230), [(x + w // 2, y + h // 3), (x + w // 2 - u, y + h // 3 + u),
                                                       (x + w // 2 + u, y + h // 3 + u)])


def _castle(surface: pygame.Surface, rect: pygame.Rect, player: int | None) -> None:
    colour = PLAYER_COLOURS[player % len(PLAYER_COLOURS)] if player is not None else (160, 160, 170)
    x, y, w, h = rect
    u = max(2, w // 8)
    body = pygame.Rect(x + 2 * u, y + 3 * u, w - 4 * u, h - 4 * u)
    pygame.draw.rect(surface, colour, body)
    for i in range(3):
        tx = body.x + i * (body.w - u) // 2
        pygame.draw.rect(surface, colour, (tx, body.y - u, u, u))
    pygame.draw.rect(surface, INK, body, 1)
    pygame.draw.rect(surface, INK, (x + w // 2 - u // 2, y + h - 2 * u - u, u, 2 * u))


def draw_square(surface: pygame.Surface, rect: pygame.Rect | Sequence[int], terrain: int, crowns: int = 0,
                player: int | None = None) -> None:
    """One square: terrain code 0 (empty) .. 6, 7 (the castle, in `player`'s colour) or 8 (town), with its crowns."""
    rect = pygame.Rect(rect)
    pygame.draw.rect(surface, TERRAIN_COLOURS[terrain], rect)
    if terrain == CASTLE:
        _castle(surface, rect, player)
    elif terrain:
        _pattern(surface, rect, terrain)
    w = max(5, rect.w * 2 // 7)
    for k in range(crowns):
        _crown(surface, rect.x + 2 + k * (w + 1), rect.y + 2, w)
    if terrain:
        pygame.draw.rect(surface, (60, 55, 50), rect, 1)


def domino_cells(row: int, col: int, direction: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The frame cells of a domino whose first square is at (row, col) and second towards `direction`."""
    dr, dc = DIRECTIONS[direction]
    return (row, col), (row + dr, col + dc)


def draw_domino(surface: pygame.Surface, pos: tuple[int, int], cell: int, number: int, direction: int = 0,
                number_badge: bool = False, queendomino: bool = False, rules: Rules | None = None) -> pygame.Rect:
    """Domino `number` (1..48; of the Queendomino box with `queendomino`), first square's top-left at `pos`, second
    towards `direction`; returns its rect. With `rules`, `number` is the domino id + 1 of that variant (1..96 in
    the Royal Wedding) and the badge shows `domino_text` (the box's letter and number there)."""
    i = number - 1
    if rules is not None:
        terrain, crowns = rules.domino_terrain, rules.domino_crowns
    else:
        terrain, crowns = ((QUEEN_DOMINO_TERRAIN, QUEEN_DOMINO_CROWNS) if queendomino
                           else (DOMINO_TERRAIN, DOMINO_CROWNS))
    x, y = pos
    dr, dc = DIRECTIONS[direction]
    rects = [pygame.Rect(x, y, cell, cell), pygame.Rect(x + dc * cell, y + dr * cell, cell, cell)]
    for sq, rect in enumerate(rects):
        draw_square(surface, rect, int(terrain[i, sq]), int(crowns[i, sq]))
    whole = rects[0].union(rects[1])
    pygame.draw.rect(surface, INK, whole, 2)
    if number_badge:
        label = domino_text(rules, i) if rules is not None else str(number)
        draw_number_badge(surface, label, (whole.right - 2, whole.bottom - 2), badge_size(cell))
    return whole


def badge_size(cell: int) -> int:
    """Font size of a domino's number badge at `cell` pixels a square: large enough to tell 26 from 28."""
    return max(16, cell * 2 // 3)


def draw_number_badge(surface: pygame.Surface, number: int | str, bottomright: tuple[int, int],
                      size: int) -> pygame.Rect:
    """Domino `number` (or a label such as "Q12") in bold ink on a light backing with a dark edge (readable on any
    terrain); returns its rect."""
    image = font(size, True).render(str(number), True, INK)
    badge = image.get_rect().inflate(max(4, size // 3), 2)
    badge.bottomright = bottomright
    pygame.draw.rect(surface, BADGE, badge, border_radius=4)
    pygame.draw.rect(surface, INK, badge, 1, border_radius=4)
    surface.blit(image, image.get_rect(center=badge.center))
    return badge


def draw_king(surface: pygame.Surface, center: tuple[int, int], size: int, player: int) -> None:
    """A king meeple of `player`'s colour, about `size` pixels tall, centred at `center`."""
    cx, cy = center
    colour = PLAYER_COLOURS[player % len(PLAYER_COLOURS)]
    half = size // 2
    body = [(cx - half * 3 // 4, cy + half), (cx - half // 3, cy - half // 4), (cx + half // 3, cy - half // 4),
            (cx + half * 3 // 4, cy + half)]
    pygame.draw.polygon(surface, colour, body)
    pygame.draw.polygon(surface, INK, body, 1)
    head = max(3, size // 6)
    pygame.draw.circle(surface, colour, (cx, cy - half // 4 - head + 1), head)
    pygame.draw.circle(surface, INK, (cx, cy - half // 4 - head + 1), head, 1)
    top = cy - half // 4 - 2 * head
    crown = [(cx - head, top), (cx - head, top - head), (cx - head // 2, top - head // 2), (cx, top - head),
             (cx + head // 2, top - head // 2), (cx + head, top - head), (cx + head, top)]
    pygame.draw.polygon(surface, GOLD, crown)
    pygame.draw.polygon(surface, INK, crown, 1)


# Kingdoms.
def kingdom_seat(rules: Rules, kingdom: int) -> int:
    """The seat whose colour a kingdom's castle and knights take: its first player (a team's first seat)."""
    return rules.kingdom_seats(kingdom)[0]


def cell_rect(origin: tuple[int, int], cell: int, row: int, col: int) -> pygame.Rect:
    """The screen rect of frame cell (row, col) of a kingdom drawn at `origin` with `cell` pixels a square."""
    return pygame.Rect(origin[0] + col * cell, origin[1] + row * cell, cell, cell)


def cell_at(origin: tuple[int, int], cell: int, frame: int, pos: tuple[int, int]) -> tuple[int, int] | None:
    """The frame cell (row, col) under screen position `pos`, or None outside the frame."""
    col = (pos[0] - origin[0]) // cell
    row = (pos[1] - origin[1]) // cell
    if 0 <= row < frame and 0 <= col < frame:
        return int(row), int(col)
    return None


def open_cells(state: State, game: int, player: int) -> np.ndarray:
    """(S, S) bool: the cells the kingdom may still grow into (inside the N x N bound around what it holds)."""
    r = state.rules
    n = r.grid
    bbox = state.bbox[game, player].astype(np.int64)
    rows = np.arange(r.frame)
    row_ok = (rows >= bbox[1] - n + 1) & (rows <= bbox[0] + n - 1)
    col_ok = (rows >= bbox[3] - n + 1) & (rows <= bbox[2] + n - 1)
    return row_ok[:, None] & col_ok[None, :]


@dataclass(frozen=True)
class Ghost:
    """A held domino shown over a kingdom: its first square at (row, col), the second towards `direction`."""

    number: int
    row: int
    col: int
    direction: int
    legal: bool


def draw_kingdom(surface: pygame.Surface, state: State, game: int, player: int, origin: tuple[int, int], cell: int,
                 highlights: Iterable[tuple[int, int]] = (), ghost: Ghost | None = None,
                 recent: Iterable[tuple[int, int]] = ()) -> pygame.Rect:
    """Kingdom `player` of game `game` in its S x S frame; returns the frame's rect.

    Cells outside the N x N bound are shaded; `highlights` are outlined in green (legal spots), `recent` in white
    (the last placement), and `ghost` draws the held domino over the kingdom, its outline green where legal.
    Queendomino: buildings on their town squares, tower markers on the buildings that brought them, knights.
    """
    r = state.rules
    s = r.frame
    frame_rect = pygame.Rect(origin[0], origin[1], s * cell, s * cell)
    pygame.draw.rect(surface, OUTSIDE, frame_rect)
    room = open_cells(state, game, player)
    terrain = state.terrain[game, player]
    crowns = state.crowns[game, player]
    for row in range(s):
        for col in range(s):
            rect = cell_rect(origin, cell, row, col)
            t = int(terrain[row, col])
            if t:
                draw_square(surface, rect, t, int(crowns[row, col]), kingdom_seat(r, player))
            elif room[row, col]:
                pygame.draw.rect(surface, TERRAIN_COLOURS[0], rect.inflate(-2, -2))
    if r.has_buildings:
        draw_town_pieces(surface, state, game, player, origin, cell)
    width = max(2, cell // 12)
    for row, col in highlights:
        pygame.draw.rect(surface, LEGAL, cell_rect(origin, cell, row, col).inflate(-2, -2), width)
    for row, col in recent:
        pygame.draw.rect(surface, RECENT, cell_rect(origin, cell, row, col), width)
    if ghost is not None:
        squares = domino_cells(ghost.row, ghost.col, ghost.direction)
        shown = pygame.Surface(frame_rect.size, pygame.SRCALPHA)
        table, stars = r.domino_terrain, r.domino_crowns
        for sq, (row, col) in enumerate(squares):
            if 0 <= row < s and 0 <= col < s:
                rect = cell_rect((0, 0), cell, row, col)
                draw_square(shown, rect, int(table[ghost.number - 1, sq]), int(stars[ghost.number - 1, sq]))
        shown.set_alpha(215)
        surface.blit(shown, frame_rect.topleft, special_flags=0)
        outline = None
        for row, col in squares:
            if 0 <= row < s and 0 <= col < s:
                rect = cell_rect(origin, cell, row, col)
                outline = rect if outline is None else outline.union(rect)
        if outline is not None:
            pygame.draw.rect(surface, LEGAL if ghost.legal else ILLEGAL, outline, max(3, cell // 10))
    pygame.draw.rect(surface, INK, frame_rect, 1)
    return frame_rect


def kingdom_window(state: State, game: int, player: int) -> tuple[int, int]:
    """Top-left frame cell of the N x N window that holds the kingdom (centred on it where there is room)."""
    r = state.rules
    n = r.grid
    bbox = state.bbox[game, player].astype(np.int64)
    top = (int(bbox[0]) + int(bbox[1]) + 1 - n) // 2
    left = (int(bbox[2]) + int(bbox[3]) + 1 - n) // 2
    top = min(max(top, int(bbox[1]) - n + 1, 0), int(bbox[0]), r.frame - n)
    left = min(max(left, int(bbox[3]) - n + 1, 0), int(bbox[2]), r.frame - n)
    return top, left


def draw_kingdom_window(surface: pygame.Surface, state: State, game: int, player: int, origin: tuple[int, int],
                        cell: int, recent: Iterable[tuple[int, int]] = ()) -> pygame.Rect:
    """Only the N x N window around kingdom `player` (as in `kingdom_window`), e.g. for final scores and for the
    small kingdoms of games with many players; `recent` cells are outlined as in `draw_kingdom`."""
    n = state.rules.grid
    full = pygame.Surface((state.rules.frame * cell, state.rules.frame * cell))
    draw_kingdom(full, state, game, player, (0, 0), cell, recent=recent)
    top, left = kingdom_window(state, game, player)
    area = pygame.Rect(left * cell, top * cell, n * cell, n * cell)
    surface.blit(full, origin, area)
    rect = pygame.Rect(origin, area.size)
    pygame.draw.rect(surface, INK, rect, 1)
    return rect


# The lines.
def slot_rect(origin: tuple[int, int], cell: int, slot: int, gap: int | None = None) -> pygame.Rect:
    """The screen rect of the domino in slot `slot` of a line drawn as a column at `origin`."""
    gap = cell // 3 if gap is None else gap
    return pygame.Rect(origin[0], origin[1] + slot * (cell + gap), 2 * cell, cell)


def placed_slots(state: State, game: int) -> set[int]:
    """Slots of the current line whose king has already placed its domino this round (now on the next line)."""
    if state.round[game] == 0 or state.phase[game] == OVER:
        return set()
    turn = int(state.turn[game])
    done = turn + (1 if state.phase[game] == PICK else 0)
    return {int(state.order_slot[game, t]) for t in range(min(done, state.rules.kings))}


def draw_line(surface: pygame.Surface, state: State, game: int, which: str, origin: tuple[int, int], cell: int,
              gap: int | None = None, selectable: Iterable[int] = (), hover: int | None = None) -> list[pygame.Rect]:
    """The current (`which="current"`) or next line as a column, lowest number on top, each king beside its
    domino; `selectable` slots get a green frame (thick under `hover`). Returns the slots' rects.

    A current-line slot is drawn empty once its king has placed (the king then stands on the next line), or when
    no king took it (the leftover of a 3-player line, discarded).
    """
    line, owner = (state.cur_line, state.cur_owner) if which == "current" else (state.next_line, state.next_owner)
    placed = placed_slots(state, game) if which == "current" else set()
    selectable = set(selectable)
    rects = []
    for i in range(state.rules.line_size):
        rect = slot_rect(origin, cell, i, gap)
        rects.append(rect)
        d = int(line[game, i])
        who = int(owner[game, i])
        if d < 0 or i in placed or (which == "current" and who < 0):
            pygame.draw.rect(surface, (200, 194, 180), rect, 1, border_radius=3)
            continue
        draw_domino(surface, rect.topleft, cell, d + 1, 0, number_badge=True, rules=state.rules)
        if i in selectable:
            pygame.draw.rect(surface, LEGAL, rect.inflate(8, 8), 5 if i == hover else 2, border_radius=4)
        if who >= 0:
            draw_king(surface, (rect.right + cell // 2, rect.centery), int(cell * 0.9), who)
    return rects


# Queendomino's pieces: buildings, knights, towers, coins, the Queen and the Dragon.
#: Fill of a building tile by what it scores: fixed points, per knight, per tower (per territory: the terrain's).
BUILDING_FILL: Colour = (236, 222, 190)
KNIGHT_FILL: Colour = (196, 200, 210)
TOWER_STONE: Colour = (150, 146, 140)
QUEEN_COLOUR: Colour = (170, 110, 200)
DRAGON_COLOUR: Colour = (200, 50, 40)
CAVE: Colour = (70, 60, 56)


def draw_building(surface: pygame.Surface, rect: pygame.Rect | Sequence[int], state: State, tile: int) -> None:
    """Building `tile` (0-based, of the game's deck) as a tile inside `rect`: a house on a plate coloured by what
    it scores (a terrain's colour for points per territory of that terrain), its points and its crowns."""
    rect = pygame.Rect(rect)
    row = state.rules.building_deck.table[tile]
    kind = int(row[PER_KIND])
    fill = {PER_TERRITORY: TERRAIN_COLOURS[int(row[PER_TERRAIN])], PER_KNIGHT: KNIGHT_FILL,
            PER_TOWER: TOWER_STONE}.get(kind, BUILDING_FILL)
    plate = rect.inflate(-max(2, rect.w // 8), -max(2, rect.h // 8))
    pygame.draw.rect(surface, fill, plate, border_radius=max(1, rect.w // 10))
    pygame.draw.rect(surface, INK, plate, max(1, rect.w // 24), border_radius=max(1, rect.w // 10))
    u = max(2, plate.w // 6)
    body = pygame.Rect(plate.x + u, plate.centery - u // 2, 2 * u, plate.bottom - u - plate.centery + u // 2)
    pygame.draw.rect(surface, BADGE, body)
    pygame.draw.polygon(surface, (150, 60, 40), [(body.x - u // 2, body.y), (body.centerx, body.y - u - u // 2),
                                                 (body.right + u // 2, body.y)])
    pygame.draw.rect(surface, INK, body, 1)
    points = int(row[POINTS])
    if points:
        text(surface, str(points), (plate.right - 2, plate.bottom), max(10, rect.h // 2), INK, True, "bottomright")
    w = max(5, rect.w * 2 // 7)
    for k in range(int(row[CROWNS])):
        _crown(surface, plate.x + 2 + k * (w + 1), plate.y + 1, w)


def draw_knight(surface: pygame.Surface, center: tuple[int, int], size: int, player: int) -> None:
    """A knight marker of `player`'s colour, about `size` pixels tall: a body and a helmeted head."""
    cx, cy = center
    colour = PLAYER_COLOURS[player % len(PLAYER_COLOURS)]
    half = max(3, size // 2)
    body = [(cx - half * 2 // 3, cy + half), (cx - half // 3, cy - half // 5), (cx + half // 3, cy - half // 5),
            (cx + half * 2 // 3, cy + half)]
    pygame.draw.polygon(surface, colour, body)
    pygame.draw.polygon(surface, INK, body, 1)
    head = max(2, size // 5)
    hy = cy - half // 5 - head + 1
    pygame.draw.circle(surface, KNIGHT_FILL, (cx, hy), head)
    pygame.draw.circle(surface, INK, (cx, hy), head, 1)
    pygame.draw.line(surface, INK, (cx - head, hy), (cx + head, hy), 1)


def draw_tower(surface: pygame.Surface, center: tuple[int, int], size: int) -> None:
    """A tower marker about `size` pixels tall: stone with battlements."""
    cx, cy = center
    w, h = max(4, size // 2), max(6, size)
    body = pygame.Rect(cx - w // 2, cy - h // 2 + h // 5, w, h - h // 5)
    pygame.draw.rect(surface, TOWER_STONE, body)
    step = max(1, w // 3)
    for i in (0, 2):
        pygame.draw.rect(surface, TOWER_STONE, (body.x + i * step, cy - h // 2, step, h // 5 + 1))
        pygame.draw.rect(surface, INK, (body.x + i * step, cy - h // 2, step, h // 5 + 1), 1)
    pygame.draw.rect(surface, INK, body, 1)


def draw_coin(surface: pygame.Surface, center: tuple[int, int], size: int) -> None:
    """A gold coin `size` pixels across."""
    radius = max(3, size // 2)
    pygame.draw.circle(surface, GOLD, center, radius)
    pygame.draw.circle(surface, (120, 90, 10), center, radius, 1)
    pygame.draw.circle(surface, (120, 90, 10), center, max(1, radius // 2), 1)


def draw_queen(surface: pygame.Surface, center: tuple[int, int], size: int) -> None:
    """The Queen, about `size` pixels tall: a gown, a head and a tiara."""
    cx, cy = center
    half = max(3, size // 2)
    gown = [(cx - half * 3 // 4, cy + half), (cx, cy - half // 3), (cx + half * 3 // 4, cy + half)]
    pygame.draw.polygon(surface, QUEEN_COLOUR, gown)
    pygame.draw.polygon(surface, INK, gown, 1)
    head = max(2, size // 6)
    hy = cy - half // 3 - head + 1
    pygame.draw.circle(surface, BADGE, (cx, hy), head)
    pygame.draw.circle(surface, INK, (cx, hy), head, 1)
    tiara = [(cx - head, hy - head), (cx - head // 2, hy - 2 * head), (cx, hy - head - head // 2),
             (cx + head // 2, hy - 2 * head), (cx + head, hy - head)]
    pygame.draw.polygon(surface, GOLD, tiara)
    pygame.draw.polygon(surface, INK, tiara, 1)


def draw_dragon(surface: pygame.Surface, center: tuple[int, int], size: int) -> None:
    """The Dragon, about `size` pixels wide: a body, wings, a head and a tail."""
    cx, cy = center
    u = max(2, size // 8)
    pygame.draw.polygon(surface, (150, 30, 30), [(cx - u, cy), (cx - 3 * u, cy - 3 * u), (cx + u, cy - u)])
    pygame.draw.polygon(surface, (150, 30, 30), [(cx + u, cy), (cx + 2 * u, cy - 3 * u), (cx + 3 * u, cy - u)])
    pygame.draw.line(surface, DRAGON_COLOUR, (cx - 2 * u, cy + u), (cx - 4 * u, cy + 2 * u), max(1, u))
    pygame.draw.ellipse(surface, DRAGON_COLOUR, (cx - 2 * u, cy - u, 4 * u, 3 * u))
    pygame.draw.circle(surface, DRAGON_COLOUR, (cx + 3 * u, cy - u), u + 1)
    pygame.draw.circle(surface, GOLD, (cx + 3 * u, cy - u - 1), max(1, u // 3))
    pygame.draw.ellipse(surface, INK, (cx - 2 * u, cy - u, 4 * u, 3 * u), 1)


def tower_squares(state: State, game: int, player: int) -> dict[tuple[int, int], int]:
    """Where a kingdom's towers stand: on the buildings that brought them (`towers` of each tile), in row-major
    order, as many as the player has (a tile built once the supply ran low brought fewer)."""
    deck = state.rules.building_deck
    left = int(state.towers[game, player])
    out = {}
    board = state.building_board[game, player]
    for row, col in zip(*np.nonzero(board >= 0), strict=True):
        n = min(left, int(deck.table[board[row, col], TOWERS]))
        if n:
            out[(int(row), int(col))] = n
            left -= n
    return out


def draw_town_pieces(surface: pygame.Surface, state: State, game: int, player: int, origin: tuple[int, int],
                     cell: int) -> None:
    """A Queendomino kingdom's buildings, its tower markers (on their buildings; a count beside 3 markers when
    there are more) and knights (a count beside a knight when a square holds more than one)."""
    board = state.building_board[game, player]
    for row, col in zip(*np.nonzero(board >= 0), strict=True):
        draw_building(surface, cell_rect(origin, cell, int(row), int(col)), state, int(board[row, col]))
    for (row, col), n in tower_squares(state, game, player).items():
        rect = cell_rect(origin, cell, row, col)
        size = max(8, cell * 2 // 5)
        for i in range(min(n, 3)):
            draw_tower(surface, (rect.right - cell // 5 - i * (size // 2 + 1), rect.y + cell // 4), size)
        if n > 3:
            text(surface, str(n), (rect.right - 1, rect.y + cell // 2), max(10, cell // 3), INK, True, "topright")
    knights = state.knight_board[game, player]
    for row, col in zip(*np.nonzero(knights > 0), strict=True):
        rect = cell_rect(origin, cell, int(row), int(col))
        radius = max(6, cell * 3 // 10)
        centre = (rect.x + radius + 1, rect.bottom - radius - 1)
        pygame.draw.circle(surface, BADGE, centre, radius)
        pygame.draw.circle(surface, INK, centre, radius, 1)
        draw_knight(surface, centre, max(10, cell // 2), kingdom_seat(state.rules, player))
        if knights[row, col] > 1:
            text(surface, str(int(knights[row, col])), (rect.x + cell // 2, rect.bottom - 1), max(10, cell // 3),
                 INK, True, "bottomleft")


def draw_purse(surface: pygame.Surface, state: State, game: int, player: int, rect: pygame.Rect) -> None:
    """One player's panel: coins, knights (unplaced / owned), towers, and the Queen when they host her."""
    size = max(10, rect.h * 2 // 3)
    font_size = max(12, rect.h * 3 // 4)
    x, cy = rect.x + size // 2, rect.centery
    items = ((draw_coin, str(int(state.coins[game, player]))),
             (lambda s, c, z: draw_knight(s, c, z, kingdom_seat(state.rules, player)),
              f"{int(state.knights[game, player])}/{int(state.knights_owned[game, player])}"),
             (draw_tower, str(int(state.towers[game, player]))))
    for draw, value in items:
        draw(surface, (x, cy), size)
        x = text(surface, value, (x + size // 2 + 2, cy), font_size, INK, False, "midleft").right + size // 2 + 4
    if state.queen[game] == player:
        draw_queen(surface, (x, cy), size + size // 3)


def fitted_text(surface: pygame.Surface, value: str, pos: tuple[int, int], width: int, size: int,
                colour: Colour = INK, bold: bool = False, anchor: str = "topleft") -> pygame.Rect:
    """`value` shortened with "..." until it fits in `width` pixels."""
    f = font(size, bold)
    if f.size(value)[0] > width:
        while len(value) > 1 and f.size(value + "...")[0] > width:
            value = value[:-1]
        value = value.rstrip() + "..."
    return text(surface, value, pos, size, colour, bold, anchor)


def draw_board_slot(surface: pygame.Surface, state: State, game: int, slot: int, rect: pygame.Rect,
                    cell: int) -> None:
    """Builders' Board slot `slot` in `rect`: its cost, then its tile (picture, name, effects) or "empty"."""
    small = max(14, cell * 7 // 12)
    pygame.draw.rect(surface, BADGE, rect, border_radius=4)
    pygame.draw.rect(surface, INK, rect, 1, border_radius=4)
    cost = text(surface, f"{slot}", (rect.x + 4, rect.y + 3), max(12, cell * 2 // 3), INK, True)
    draw_coin(surface, (cost.right + cell // 4 + 2, cost.centery), max(8, cell // 2))
    tile = int(state.slots[game, slot])
    if tile < 0:
        text(surface, "empty", rect.center, small, (150, 140, 130), False, "center")
        return
    deck = state.rules.building_deck
    icon = pygame.Rect(rect.right - cell - 4, rect.y + 3, cell, cell)
    draw_building(surface, icon, state, tile)
    y = icon.bottom + 2
    fitted_text(surface, deck.names[tile], (rect.x + 4, y), rect.w - 8, small, INK, True)
    for line in building_effects(deck, tile, short=True)[:3]:
        y += small - 1
        fitted_text(surface, line, (rect.x + 4, y), rect.w - 8, small)


@dataclass(frozen=True)
class TableLayout:
    """Where `draw_table` puts everything, in pixels: `size` (width, height); per kingdom its label's centre
    line `label_y` (of the first row of kingdoms; `labels` has each kingdom's), `purses` (Queendomino's panels,
    else empty) and `kingdoms` (the frames' top-left), in rows of at most `KINGDOMS_PER_ROW`; the round text at
    `info`; the two lines at `lines`; Queendomino's Builders' Board `slots` and `dragon` (the cave), with its
    title at `board` (else empty / None)."""

    size: tuple[int, int]
    label_y: int
    purses: tuple[pygame.Rect, ...]
    kingdoms: tuple[tuple[int, int], ...]
    info: tuple[int, int]
    lines: tuple[tuple[int, int], tuple[int, int]]
    board: tuple[int, int] | None
    slots: tuple[pygame.Rect, ...]
    dragon: pygame.Rect | None
    labels: tuple[int, ...] = ()


#: Kingdoms side by side in `draw_table`; more (5-8 in the Royal Wedding) go on further rows.
KINGDOMS_PER_ROW = 4


def table_layout(state: State, cell: int = 24) -> TableLayout:
    """The layout of `draw_table` for this game's variant at `cell` pixels a square."""
    r = state.rules
    gap = cell
    label_h = 2 * cell
    purse_h = cell if r.has_buildings else 0
    top = label_h + purse_h + (cell // 4 if purse_h else 0)
    kingdoms = r.kingdoms
    per_row = min(kingdoms, KINGDOMS_PER_ROW)
    row_h = top + r.frame * cell
    cols = [k % per_row for k in range(kingdoms)]
    row_y = [(k // per_row) * row_h for k in range(kingdoms)]
    xs = [gap + c * (r.frame * cell + gap) for c in cols]
    purses = (tuple(pygame.Rect(x, y + label_h, r.frame * cell, purse_h) for x, y in zip(xs, row_y, strict=True))
              if purse_h else ())
    info_y = row_y[-1] + top + r.frame * cell + gap
    lines = tuple((gap + k * (3 * cell + gap), info_y + cell) for k in range(2))
    lines_h = cell + r.line_size * (cell + cell // 3)
    width = max(per_row * r.frame * cell + (per_row + 1) * gap, 2 * (3 * cell + gap) + 3 * gap + 240)
    height = info_y + cell + lines_h + gap
    board, slots, dragon = None, (), None
    if r.has_buildings:
        bx = gap + 2 * (3 * cell + gap)
        board = (bx, info_y + cell)
        slot_w, slot_h = 4 * cell, 4 * cell
        slots = tuple(pygame.Rect(bx + k * (slot_w + cell // 4), info_y + 2 * cell, slot_w, slot_h)
                      for k in range(6))
        dragon = pygame.Rect(slots[-1].right + gap, info_y + 2 * cell, 3 * cell, 3 * cell)
        width = max(width, dragon.right + gap)
        height = max(height, info_y + 2 * cell + slot_h + gap)
    return TableLayout((width, height), label_h // 2, purses, tuple((x, y + top) for x, y in zip(xs, row_y,
                                                                                              strict=True)),
                       (gap, info_y), (lines[0], lines[1]), board, slots, dragon,
                       tuple(y + label_h // 2 for y in row_y))


def draw_dragon_cave(surface: pygame.Surface, state: State, game: int, rect: pygame.Rect, cell: int) -> None:
    """The Dragon's cave in `rect`, the Dragon inside or out beside it, and under it the Queen when nobody hosts
    her."""
    cave = pygame.Rect(rect.x, rect.y + rect.h // 3, rect.w, rect.h * 2 // 3)
    clip = surface.get_clip()
    surface.set_clip(cave)
    pygame.draw.ellipse(surface, CAVE, (cave.x, cave.y, cave.w, 2 * cave.h))
    surface.set_clip(clip)
    small = max(11, cell // 2)
    if state.dragon[game]:
        draw_dragon(surface, (cave.centerx, cave.centery + cave.h // 6), cave.w * 2 // 3)
        label = "Dragon: in cave"
    else:
        draw_dragon(surface, (cave.centerx, rect.y + cell // 2), cave.w // 2)
        label = "Dragon: out"
    text(surface, label, (rect.centerx, rect.bottom + 2), small, INK, False, "midtop")
    if state.queen[game] < 0:
        draw_queen(surface, (rect.x + cell // 2, rect.bottom + small + cell // 2 + 2), cell)
        text(surface, "Queen: free", (rect.x + cell + 2, rect.bottom + small + cell // 2 + 2), small, INK, False,
             "midleft")


# The whole table, for the env's render modes.
def table_size(state: State, cell: int = 24) -> tuple[int, int]:
    """(width, height) in pixels of `draw_table` for this game's variant."""
    return table_layout(state, cell).size


def draw_table(surface: pygame.Surface, state: State, game: int = 0, names: Sequence[str] | None = None,
               cell: int = 24) -> None:
    """The whole table of one game: the kingdoms side by side with names and scores, then both lines.
    Queendomino: each player's coins, knights, towers and the Queen above their kingdom, and the Builders'
    Board (cost and tile of each slot, tiles left in the pile) and the Dragon beside the lines."""
    r = state.rules
    layout = table_layout(state, cell)
    surface.fill(BACKGROUND)
    mover = int(state.current_player[game])
    for p in range(r.kingdoms):
        x, y = layout.kingdoms[p]
        label_y = layout.labels[p]
        seats = r.kingdom_seats(p)
        for k, seat in enumerate(seats):
            pygame.draw.circle(surface, PLAYER_COLOURS[seat % len(PLAYER_COLOURS)],
                               (x + cell // 3 + k * (cell * 2 // 3), label_y), cell // 3)
        to_move = mover in seats
        marker = ""
        if to_move:
            marker = f" ({names[mover] if names else f'player_{mover}'} to move)" if r.shared_kingdoms else " (to move)"
        left = x + cell + (len(seats) - 1) * (cell * 2 // 3)
        label = kingdom_label(r, p, list(names) if names else None)
        fitted_text(surface, f"{label}: {int(state.scores[game, p])}{marker}", (left, label_y),
                    x + r.frame * cell - left, max(14, cell * 3 // 4), INK, to_move, "midleft")
        if layout.purses:
            draw_purse(surface, state, game, p, layout.purses[p])
        draw_kingdom(surface, state, game, p, (x, y), cell)
    phase = PHASES[int(state.phase[game])]
    text(surface, f"Round {int(state.round[game])}/{r.rounds} - {phase}", layout.info, max(14, cell * 3 // 4), INK,
         True)
    for which, (x, y) in zip(("current", "next"), layout.lines, strict=True):
        text(surface, f"{which} line", (x, y), max(12, cell * 2 // 3), INK)
        draw_line(surface, state, game, which, (x, y + cell), cell)
    if layout.board is not None:
        left = len(state.pile[game]) - int(state.pile_pos[game])
        text(surface, f"Builders' Board (slot k costs k coins) - pile: {left} tiles", layout.board,
             max(12, cell * 2 // 3), INK)
        for k, rect in enumerate(layout.slots):
            draw_board_slot(surface, state, game, k, rect, cell)
        draw_dragon_cave(surface, state, game, layout.dragon, cell)


def rgb_array(state: State, game: int = 0, names: Sequence[str] | None = None, cell: int = 24) -> np.ndarray:
    """(H, W, 3) uint8 picture of the table of game `game` (no display needed)."""
    surface = pygame.Surface(table_size(state, cell))
    draw_table(surface, state, game, names, cell)
    return np.ascontiguousarray(pygame.surfarray.array3d(surface).transpose(1, 0, 2))


class Viewer:
    """A window showing the table (render mode "human"); opened on the first `show`.

    fps: at most this many shows per second (each `show` waits as needed), or None for no wait.
    """

    def __init__(self, cell: int = 32, caption: str = "Kingdomino", fps: float | None = None):
        self.cell = cell
        self.caption = caption
        self.fps = fps
        self.window: pygame.Surface | None = None
        self.clock = pygame.time.Clock()

    def show(self, state: State, game: int = 0, names: Sequence[str] | None = None) -> None:
        cell = self.cell if state.rules.kingdoms <= KINGDOMS_PER_ROW else self.cell * 3 // 4
        size = table_size(state, cell)
        if self.window is None or self.window.get_size() != size:
            pygame.display.init()
            self.window = pygame.display.set_mode(size)
            pygame.display.set_caption(self.caption)
        pygame.event.pump()
        draw_table(self.window, state, game, names, cell)
        pygame.display.flip()
        if self.fps:
            self.clock.tick(self.fps)

    def close(self) -> None:
        if self.window is not None:
            pygame.display.quit()
            self.window = None


__all__ = [
    "BACKGROUND", "BADGE", "KINGDOMS_PER_ROW", "Ghost", "PLAYER_COLOURS", "PLAYER_COLOUR_NAMES", "TERRAINS",
    "TERRAIN_COLOURS",
    "TableLayout", "Viewer", "badge_size", "cell_at", "cell_rect", "domino_cells", "draw_board_slot", "draw_building",
    "draw_coin", "draw_domino", "draw_dragon", "draw_dragon_cave", "draw_king", "draw_kingdom", "draw_kingdom_window",
    "draw_knight", "draw_line", "draw_number_badge", "draw_purse", "draw_queen", "draw_square", "draw_table",
    "domino_text", "draw_tower", "draw_town_pieces", "fitted_text", "font", "kingdom_seat",
    "kingdom_window", "open_cells", "placed_slots",
    "rgb_array", "slot_rect", "table_layout", "table_size", "text", "tower_squares",
]
