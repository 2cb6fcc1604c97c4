"""Queendomino's Builders' Board in the app: each slot's cost, its tile's picture, name and effects, fitted to the
slot (names wrap, text shrinks; effects that do not fit are counted, "+1 more"), and the whole description of the
tile under the mouse in a box beside it.
"""

from __future__ import annotations

import pygame

from kingdomino_env import drawing
from kingdomino_env.core import State
from kingdomino_env.render import building_effects

from .ui import MUTED, Canvas, line_height, wrap

#: The smallest text size on a slot.
SLOT_TEXT_MIN = 11
#: The description box of the tile under the mouse.
DETAILS_WIDTH, DETAILS_SIZE = 300, 20


def effect_lines(state: State, tile: int, width: int, size: int) -> list[str]:
    """The short effects of `tile` that fit `width` at `size` one a line, the rest counted as "+N more"."""
    effects = building_effects(state.rules.building_deck, tile, short=True)
    f = drawing.font(size)
    shown = [e for e in effects if f.size(e)[0] <= width]
    if len(shown) < len(effects):
        shown.append(f"+{len(effects) - len(shown)} more")
    return shown


def draw_slot(canvas: Canvas, state: State, slot: int, rect: pygame.Rect, cell: int) -> None:
    """Builders' Board slot `slot` in `rect`: its cost and coin, then its tile (picture, name, effects) or "empty"."""
    surface = canvas.surface
    pygame.draw.rect(surface, drawing.BADGE, rect, border_radius=4)
    pygame.draw.rect(surface, drawing.INK, rect, 1, border_radius=4)
    cost = canvas.text(str(slot), (rect.x + 4, rect.y + 3), max(12, cell * 2 // 3), bold=True)
    drawing.draw_coin(surface, (cost.right + cell // 4 + 2, cost.centery), max(8, cell // 2))
    tile = int(state.slots[0, slot])
    if tile < 0:
        canvas.text("empty", rect.center, SLOT_TEXT_MIN + 3, MUTED, anchor="center", box=rect)
        return
    icon = pygame.Rect(rect.right - cell - 4, rect.y + 3, cell, cell)
    drawing.draw_building(surface, icon, state, tile)
    inner = pygame.Rect(rect.x + 4, icon.bottom + 2, rect.w - 8, rect.bottom - icon.bottom - 4)
    name = state.rules.building_deck.names[tile]
    size = 15
    while size > SLOT_TEXT_MIN and len(wrap(name, inner.w, size, True)) > 2:
        size -= 1
    name_box = pygame.Rect(inner.x, inner.y, inner.w, 2 * line_height(size))
    y = canvas.block(name, name_box, size, minimum=SLOT_TEXT_MIN, bold=True)
    effects_size = SLOT_TEXT_MIN + 1
    room = max(0, (inner.bottom - y) // line_height(effects_size))
    lines = effect_lines(state, tile, inner.w, effects_size)
    if len(lines) > room and room:
        lines = lines[: room - 1] + [f"+{len(lines) - room + 1} more"]
    for line in lines[:room]:
        canvas.text(line, (inner.x, y), effects_size, box=inner)
        y += line_height(effects_size)


def draw_details(canvas: Canvas, state: State, slot: int, rect: pygame.Rect, bounds: pygame.Rect) -> None:
    """The whole name and effects of the tile in slot `slot` (drawn in `rect`) in a box above it, kept inside
    `bounds`."""
    tile = int(state.slots[0, slot])
    if tile < 0:
        return
    deck = state.rules.building_deck
    text = f"{deck.names[tile]} (costs {slot}): " + ", ".join(building_effects(deck, tile)) + "."
    lines = len(wrap(text, DETAILS_WIDTH - 16, DETAILS_SIZE))
    box = pygame.Rect(0, 0, DETAILS_WIDTH, lines * line_height(DETAILS_SIZE) + 12)
    box.midbottom = (rect.centerx, rect.y - 4)
    box.clamp_ip(bounds)
    canvas.panel(box, (255, 250, 232))
    canvas.wrapped(text, box.inflate(-16, -12), DETAILS_SIZE)


__all__ = ["draw_details", "draw_slot", "effect_lines"]
