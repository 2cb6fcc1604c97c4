"""Main menu: New Game, Load Game, Rules, Quit."""

from __future__ import annotations

import pygame

from kingdomino_env.rendering import pygame_drawing as drawing

from ..ui import ACCENT, HEIGHT, MUTED, WIDTH, Button, Canvas, line_height, wrap
from .base import Screen

#: Dominoes drawn on the menu, with their direction.
_DECOR = ((45, 0), (20, 1), (36, 0), (48, 3), (12, 0), (40, 1))
#: Where the notice (what the last screen did: a save written, the game kept as the autosave) is drawn, centred.
NOTICE_BOX = pygame.Rect(60, 234, WIDTH - 120, 62)


class MenuScreen(Screen):
    def buttons(self) -> list[Button]:
        x, w, h = WIDTH // 2 - 160, 320, 64
        entries = (("New Game", self.app.show_new_game, pygame.K_n), ("Load Game", self.app.show_load, pygame.K_l),
                   ("Rules", self.app.show_rules, pygame.K_r), ("Quit", self.app.quit, pygame.K_q))
        return [Button(label, pygame.Rect(x, 300 + i * 90, w, h), action, key=key, size=34)
                for i, (label, action, key) in enumerate(entries)]

    def draw_content(self, canvas: Canvas) -> None:
        canvas.text("Kingdomino", (WIDTH // 2, 130), 110, ACCENT, True, "center")
        canvas.text("Kingdomino, Queendomino and the Royal Wedding: build the richest kingdom.", (WIDTH // 2, 210),
                    30, MUTED, False, "center")
        cell = 44
        for k, (number, direction) in enumerate(_DECOR):
            x = 70 + (k % 2) * 110 if k < 3 else WIDTH - 250 + (k % 2) * 110
            y = 300 + (k % 3) * 130
            drawing.draw_domino(canvas.surface, (x, y), cell, number, direction)
        for p in range(4):
            drawing.draw_king(canvas.surface, (WIDTH // 2 - 120 + p * 80, HEIGHT - 50), 48, p)
        if self.app.notice:
            draw_notice(canvas, self.app.notice)


def draw_notice(canvas: Canvas, notice: str, size: int = 26, minimum: int = 14) -> None:
    """`notice` centred in `NOTICE_BOX`, wrapped (its own line breaks kept) at the largest size from `size` down to
    `minimum` at which all its lines fit (at `minimum`, the lines past the box are left out)."""
    box = NOTICE_BOX
    while size > minimum and len(wrap(notice, box.w, size)) * line_height(size) > box.h:
        size -= 1
    lines = wrap(notice, box.w, size)
    shown = lines[:max(1, box.h // line_height(size))]
    for k, line in enumerate(shown):
        canvas.text(line, (WIDTH // 2, box.y + k * line_height(size)), size, ACCENT, anchor="midtop", box=box,
                    full=line if len(shown) == len(lines) else notice)
