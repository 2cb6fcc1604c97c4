"""The table: draft (pick a domino of the next line) and placement (move, rotate, place or discard).

Left: the current and next lines with the kings, then the scores. Centre: the kingdom of the player to move,
large; while a human places, the held domino follows the cursor over it and the legal spots for its rotation
are outlined in green. Right: the other kingdoms. Agents play at `app.pace` seconds per action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from kingdomino_env import drawing
from kingdomino_env.quests import names as quest_names
from kingdomino_env.quests import title as quest_title
from kingdomino_env.rules import Rules

from .. import placement
from ..match import Match
from ..placement import Cursor
from ..ui import ACCENT, MUTED, WIDTH, Button, Canvas
from .base import Screen

if TYPE_CHECKING:
    from ..app import App

LINE_CELL, LINE_GAP = 44, 14
CURRENT_ORIGIN, NEXT_ORIGIN = (30, 116), (190, 116)
FOCUS_ORIGIN, FOCUS_SIZE = (370, 104), 468
RIGHT_X, RIGHT_TOP, RIGHT_HEIGHT, RIGHT_WIDTH = 875, 76, 715, 380
CONTROLS_Y = 588


def next_slot_rect(slot: int) -> pygame.Rect:
    """Where slot `slot` of the next line is drawn (click it to pick)."""
    return drawing.slot_rect(NEXT_ORIGIN, LINE_CELL, slot, LINE_GAP)


def focus_cell(frame: int) -> int:
    """Pixels per square of the large kingdom."""
    return FOCUS_SIZE // frame


def focus_cell_rect(frame: int, row: int, col: int) -> pygame.Rect:
    """Where frame cell (row, col) of the large kingdom is drawn (click it to move the held domino there)."""
    return drawing.cell_rect(FOCUS_ORIGIN, focus_cell(frame), row, col)


def thumbnail(frame: int, index: int, count: int) -> tuple[tuple[int, int], int]:
    """Origin and cell size of the `index`-th of `count` small kingdoms on the right."""
    cell = min(30, (RIGHT_HEIGHT // count - 34) // frame, RIGHT_WIDTH // frame)
    return (RIGHT_X, RIGHT_TOP + index * (RIGHT_HEIGHT // count) + 28), cell


class PlayScreen(Screen):
    def __init__(self, app: App, match: Match):
        super().__init__(app)
        self.match = match
        self.wait = 0.0
        self.cursor: Cursor | None = None
        self.cursor_step = -1
        self.hover_slot: int | None = None

    # What is on the table now.
    @property
    def rules(self) -> Rules:
        return self.match.rules

    def focus_player(self) -> int:
        return self.match.mover if self.match.mover >= 0 else 0

    def human_placing(self) -> bool:
        return self.match.human_to_move() and self.match.placing

    def human_picking(self) -> bool:
        return self.match.human_to_move() and not self.match.placing

    def current_cursor(self) -> Cursor:
        """The held domino's cursor, set afresh at the start of each human placement."""
        step = int(self.match.state.n_steps[0])
        if self.cursor is None or self.cursor_step != step:
            self.cursor = placement.start_cursor(self.match.mask(), self.rules)
            self.cursor_step = step
        return self.cursor

    def set_cursor(self, cursor: Cursor) -> None:
        self.current_cursor()
        self.cursor = cursor

    # Actions of a human.
    def move(self, d_row: int, d_col: int) -> None:
        self.set_cursor(placement.moved(self.current_cursor(), d_row, d_col, self.rules))

    def rotate(self) -> None:
        self.set_cursor(placement.rotated(self.current_cursor(), self.rules))

    def place(self) -> None:
        cursor = self.current_cursor()
        if placement.is_legal(cursor, self.match.mask(), self.rules):
            self.match.play(cursor.action(self.rules))
            self.wait = 0.0

    def discard(self) -> None:
        if placement.must_discard(self.match.mask(), self.rules):
            self.match.play(self.rules.discard_action)
            self.wait = 0.0

    def pick(self, slot: int) -> None:
        action = self.rules.pick_action(slot)
        if self.human_picking() and self.match.mask()[action]:
            self.match.play(action)
            self.wait = 0.0

    def click_cell(self, row: int, col: int) -> None:
        """Move the held domino's first square to (row, col), turning it to a legal direction there if needed."""
        mask = self.match.mask()
        cursor = placement.at(self.current_cursor(), row, col, self.rules)
        if not placement.is_legal(cursor, mask, self.rules):
            for turns in range(1, 4):
                turned = Cursor(row, col, (cursor.direction + turns) % 4)
                if (row, col) in placement.legal_first_cells(mask, self.rules, turned.direction):
                    cursor = turned
                    break
        self.set_cursor(cursor)

    def save(self) -> None:
        self.app.show_save(self.match, self)

    # Screen.
    def buttons(self) -> list[Button]:
        out = [Button("Save & Quit", pygame.Rect(WIDTH - 190, 12, 176, 46), self.save, key=pygame.K_ESCAPE, size=28)]
        if not self.human_placing():
            return out
        mask = self.match.mask()
        discard = placement.must_discard(mask, self.rules)
        y, x = CONTROLS_Y, FOCUS_ORIGIN[0]
        for k, (label, key, action) in enumerate((
            ("LEFT", pygame.K_LEFT, lambda: self.move(0, -1)), ("UP", pygame.K_UP, lambda: self.move(-1, 0)),
            ("DOWN", pygame.K_DOWN, lambda: self.move(1, 0)), ("RIGHT", pygame.K_RIGHT, lambda: self.move(0, 1)),
            ("ROTATE", pygame.K_r, self.rotate),
        )):
            out.append(Button(label, pygame.Rect(x + k * 94, y, 86, 44), action, enabled=not discard, key=key,
                              size=24))
        legal = placement.is_legal(self.current_cursor(), mask, self.rules)
        out.append(Button("Place & Proceed", pygame.Rect(x, y + 54, 270, 54), self.place, enabled=legal,
                          key=pygame.K_RETURN, size=30))
        if discard:
            out.append(Button("Discard", pygame.Rect(x + 284, y + 54, 180, 54), self.discard, key=pygame.K_d,
                              size=30))
        return out

    def handle(self, event: pygame.event.Event) -> bool:
        if super().handle(event):
            return True
        if event.type == pygame.MOUSEMOTION:
            self.hover_slot = next((i for i in range(self.rules.line_size)
                                    if next_slot_rect(i).collidepoint(event.pos)), None)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.human_picking():
                for i in range(self.rules.line_size):
                    if next_slot_rect(i).collidepoint(event.pos):
                        self.pick(i)
                        return True
            elif self.human_placing():
                cell = drawing.cell_at(FOCUS_ORIGIN, focus_cell(self.rules.frame), self.rules.frame, event.pos)
                if cell is not None:
                    self.click_cell(*cell)
                    return True
        elif event.type == pygame.KEYDOWN and self.human_picking():
            slot = event.key - pygame.K_1
            if 0 <= slot < self.rules.line_size:
                self.pick(slot)
                return True
        return False

    def update(self, dt: float) -> None:
        self.wait += dt
        pace = self.app.pace
        if self.match.game_over:
            if self.wait >= 2 * pace:
                self.app.show_scores(self.match)
            return
        for _ in range(self.rules.max_actions):
            if self.match.game_over or self.match.human_to_move() or self.wait < pace:
                break
            self.match.play_agent()
            self.wait = 0.0
            if pace > 0:
                break
        if self.match.game_over and pace == 0:
            self.app.show_scores(self.match)

    # Drawing.
    def draw_content(self, canvas: Canvas) -> None:
        match = self.match
        mover = match.mover
        canvas.text(match.progress(), (30, 34), 34, ACCENT, True, "midleft")
        if mover >= 0:
            label = canvas.text(f"Up next: {match.names[mover]}", (WIDTH // 2 - 40, 34), 38, drawing.INK, True,
                                "center")
            drawing.draw_king(canvas.surface, (label.left - 24, 32), 34, mover)
        self.draw_lines(canvas)
        self.draw_scores(canvas)
        self.draw_focus(canvas)
        self.draw_others(canvas)
        self.draw_status(canvas)

    def draw_lines(self, canvas: Canvas) -> None:
        state = self.match.state
        first_round = int(state.round[0]) == 0
        canvas.text("Current line", (CURRENT_ORIGIN[0], CURRENT_ORIGIN[1] - 30), 24, MUTED, True)
        canvas.text("First line" if first_round else "Next line", (NEXT_ORIGIN[0], NEXT_ORIGIN[1] - 30), 24, MUTED,
                    True)
        drawing.draw_line(canvas.surface, state, 0, "current", CURRENT_ORIGIN, LINE_CELL, LINE_GAP)
        selectable: list[int] = []
        if self.human_picking():
            mask = self.match.mask()
            selectable = [i for i in range(self.rules.line_size) if mask[self.rules.pick_action(i)]]
        drawing.draw_line(canvas.surface, state, 0, "next", NEXT_ORIGIN, LINE_CELL, LINE_GAP, selectable,
                          self.hover_slot)
        if state.next_line[0].max() < 0:
            canvas.text("(last round)", (NEXT_ORIGIN[0], NEXT_ORIGIN[1] + 10), 22, MUTED)

    def draw_scores(self, canvas: Canvas) -> None:
        match, state = self.match, self.match.state
        top = 370
        canvas.panel(pygame.Rect(20, top, 330, 44 + 42 * self.rules.players))
        canvas.text("Scores so far", (36, top + 12), 26, bold=True)
        standing = match.standing() if match.options.dynasty and match.results else None
        for p in range(self.rules.players):
            y = top + 62 + p * 42
            drawing.draw_king(canvas.surface, (46, y), 30, p)
            seat = match.seats[p]
            canvas.text(seat.name, (68, y - 6), 26, bold=p == match.mover, anchor="midleft")
            canvas.text("human" if seat.is_human else seat.kind, (68, y + 12), 18, MUTED, anchor="midleft")
            canvas.text(str(int(state.scores[0, p])), (330, y), 32, bold=True, anchor="midright")
            if standing is not None:
                canvas.text(f"match {standing.scores[p]}", (262, y + 12), 18, MUTED, anchor="midright")
        self.draw_quests(canvas, top + 60 + 42 * self.rules.players)

    def draw_quests(self, canvas: Canvas, top: int) -> None:
        """The game's active quests, small, under the scores (nothing in variants without quests)."""
        state = self.match.state
        if not state.rules.has_quests:
            return
        for i, name in enumerate(["Quests:"] + quest_names(state.quests[0])):
            canvas.text(name if i == 0 else quest_title(name), (36, top + 20 * i), 18, MUTED, bold=i == 0)

    def draw_focus(self, canvas: Canvas) -> None:
        match = self.match
        player = self.focus_player()
        frame = self.rules.frame
        highlights: list[tuple[int, int]] = []
        ghost = None
        if self.human_placing():
            mask = match.mask()
            cursor = self.current_cursor()
            if not placement.must_discard(mask, self.rules):
                highlights = placement.legal_first_cells(mask, self.rules, cursor.direction)
                ghost = drawing.Ghost(match.held_domino, cursor.row, cursor.col, cursor.direction,
                                      placement.is_legal(cursor, mask, self.rules))
        last = match.last_move
        recent = last.cells if last is not None and last.player == player else ()
        name = match.names[player]
        canvas.text(f"{name}'s kingdom", (FOCUS_ORIGIN[0], FOCUS_ORIGIN[1] - 28), 28, bold=True)
        if match.placing and match.held_domino:
            held = f"to place: #{match.held_domino}"
            x = FOCUS_ORIGIN[0] + FOCUS_SIZE - 2 * 34
            canvas.text(held, (x - 10, FOCUS_ORIGIN[1] - 16), 24, MUTED, anchor="midright")
            drawing.draw_domino(canvas.surface, (x, FOCUS_ORIGIN[1] - 36), 34, match.held_domino)
        drawing.draw_kingdom(canvas.surface, match.state, 0, player, FOCUS_ORIGIN, focus_cell(frame), highlights,
                             ghost, recent)

    def draw_others(self, canvas: Canvas) -> None:
        match = self.match
        focus = self.focus_player()
        others = [p for p in range(self.rules.players) if p != focus]
        last = match.last_move
        for k, p in enumerate(others):
            origin, cell = thumbnail(self.rules.frame, k, len(others))
            drawing.draw_king(canvas.surface, (origin[0] + 10, origin[1] - 14), 24, p)
            canvas.text(f"{match.names[p]}: {int(match.state.scores[0, p])}", (origin[0] + 26, origin[1] - 14), 26,
                        anchor="midleft")
            recent = last.cells if last is not None and last.player == p else ()
            drawing.draw_kingdom(canvas.surface, match.state, 0, p, origin, cell, recent=recent)

    def draw_status(self, canvas: Canvas) -> None:
        match = self.match
        lines: list[str] = []
        mover = match.mover
        if match.game_over:
            lines.append("Game over.")
        elif self.human_picking():
            lines.append(f"{match.names[mover]}: pick a domino of the next line (click it, or press 1-4).")
        elif self.human_placing():
            if placement.must_discard(match.mask(), self.rules):
                lines.append(f"No legal placement for #{match.held_domino}: it must be discarded.")
            else:
                lines.append("Arrows move the domino, R rotates it, Enter places it.")
                lines.append("Green: where its first square may go (click one).")
        else:
            seat = match.seats[mover]
            lines.append(f"{seat.name} ({seat.kind}) is thinking...")
        if match.last_move is not None:
            lines.append(f"Last move: {match.last_move.describe(match.names)}.")
        y = CONTROLS_Y + 122 if self.human_placing() else CONTROLS_Y + 10
        for line in lines:
            canvas.text(line, (FOCUS_ORIGIN[0], y), 22, MUTED)
            y += 26


__all__ = ["PlayScreen", "focus_cell", "focus_cell_rect", "next_slot_rect", "thumbnail"]

