"""Browse Dominoes: all 48, with their numbers and faces, and the terrain legend."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from kingdomino_env import drawing
from kingdomino_env.dominoes import DOMINO_CROWNS, DOMINO_TERRAIN, N_DOMINOES, TERRAINS

from ..ui import INK, MUTED, Button, Canvas
from .base import Screen

if TYPE_CHECKING:
    from ..app import App

CELL, COLUMNS = 48, 8
#: Font size of the numbers under the dominoes (large enough to tell 26 from 28).
NUMBER_SIZE = 30


def domino_pos(number: int) -> tuple[int, int]:
    """Top-left of domino `number` (1..48) on this screen."""
    row, col = divmod(number - 1, COLUMNS)
    return 70 + col * (2 * CELL + 52), 100 + row * (CELL + 40)


class DominoesScreen(Screen):
    title = "Dominoes"

    def __init__(self, app: App, back: Screen):
        super().__init__(app)
        self.back = back

    def buttons(self) -> list[Button]:
        return [Button("Back", pygame.Rect(40, 720, 160, 54), lambda: self.app.go(self.back), key=pygame.K_ESCAPE)]

    def draw_content(self, canvas: Canvas) -> None:
        for number in range(1, N_DOMINOES + 1):
            x, y = domino_pos(number)
            drawing.draw_domino(canvas.surface, (x, y), CELL, number)
            canvas.text(str(number), (x + CELL, y + CELL + 3), NUMBER_SIZE, INK, True, "midtop")
        squares = [0] * 6
        crowns = [0] * 6
        for i in range(N_DOMINOES):
            for s in (0, 1):
                squares[DOMINO_TERRAIN[i, s] - 1] += 1
                crowns[DOMINO_TERRAIN[i, s] - 1] += int(DOMINO_CROWNS[i, s])
        for t, name in enumerate(TERRAINS):
            x = 70 + t * 195
            drawing.draw_square(canvas.surface, pygame.Rect(x, 640, 40, 40), t + 1)
            canvas.text(name.capitalize(), (x + 48, 644), 24, bold=True)
            canvas.text(f"{squares[t]} squares, {crowns[t]} crowns", (x + 48, 666), 18, MUTED)
