"""Browse Dominoes: all 48 of a box (Kingdomino's or Queendomino's), with their numbers and faces, and the terrain
legend with each terrain's squares and crowns; the Royal Wedding, which plays both boxes, switches between them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from kingdomino_env.games.dominoes import (
    DOMINO_CROWNS,
    DOMINO_TERRAIN,
    N_DOMINOES,
    QUEEN_DOMINO_CROWNS,
    QUEEN_DOMINO_TERRAIN,
    QUEEN_TERRAINS,
    TOWN,
)
from kingdomino_env.rendering import pygame_drawing as drawing

from ..ui import INK, MUTED, WIDTH, Button, Canvas
from .base import Screen

if TYPE_CHECKING:
    from ..app import App

CELL, COLUMNS = 48, 8
#: Font size of the numbers under the dominoes (large enough to tell 26 from 28).
NUMBER_SIZE = 30
BOX_TITLES = {"kingdomino": "Kingdomino's dominoes", "queendomino": "Queendomino's dominoes"}


def domino_pos(number: int) -> tuple[int, int]:
    """Top-left of domino `number` (1..48) on this screen."""
    row, col = divmod(number - 1, COLUMNS)
    return 70 + col * (2 * CELL + 52), 100 + row * (CELL + 40)


def box_of(game: str) -> str:
    """The box a game's dominoes come from first: its own, or Kingdomino's for a game of both boxes (the Royal
    Wedding shows Kingdomino's, then switches)."""
    return game if game in BOX_TITLES else "kingdomino"


class DominoesScreen(Screen):
    def __init__(self, app: App, back: Screen, game: str = "kingdomino"):
        super().__init__(app)
        self.back = back
        self.game = game
        self.box = box_of(game)

    @property
    def title(self) -> str:  # type: ignore[override]
        return BOX_TITLES[self.box]

    def switch_box(self) -> None:
        self.box = "queendomino" if self.box == "kingdomino" else "kingdomino"

    def buttons(self) -> list[Button]:
        out = [Button("Back", pygame.Rect(40, 720, 160, 54), lambda: self.app.go(self.back), key=pygame.K_ESCAPE)]
        if self.game not in BOX_TITLES:  # a game of both boxes
            other = "Queendomino" if self.box == "kingdomino" else "Kingdomino"
            out.append(Button(f"Show {other}'s box", pygame.Rect(WIDTH - 380, 720, 340, 54), self.switch_box,
                              key=pygame.K_TAB, size=28))
        return out

    def draw_content(self, canvas: Canvas) -> None:
        queen = self.box == "queendomino"
        terrain, crowns = (QUEEN_DOMINO_TERRAIN, QUEEN_DOMINO_CROWNS) if queen else (DOMINO_TERRAIN, DOMINO_CROWNS)
        for number in range(1, N_DOMINOES + 1):
            x, y = domino_pos(number)
            drawing.draw_domino(canvas.surface, (x, y), CELL, number, queendomino=queen)
            canvas.text(str(number), (x + CELL, y + CELL + 3), NUMBER_SIZE, INK, True, "midtop")
        kinds = list(range(1, 7)) + ([TOWN] if queen else [])
        squares = {t: 0 for t in kinds}
        stars = {t: 0 for t in kinds}
        for i in range(N_DOMINOES):
            for s in (0, 1):
                t = int(terrain[i, s])
                squares[t] += 1
                stars[t] += int(crowns[i, s])
        step = (WIDTH - 120) // len(kinds)
        for k, t in enumerate(kinds):
            x = 70 + k * step
            drawing.draw_square(canvas.surface, pygame.Rect(x, 640, 40, 40), t)
            canvas.shrunk(QUEEN_TERRAINS[t - 1].capitalize(), (x + 48, 644), step - 52, 24, bold=True)
            canvas.block(f"{squares[t]} squares, {stars[t]} crowns", pygame.Rect(x + 48, 666, step - 52, 40), 18, MUTED)
