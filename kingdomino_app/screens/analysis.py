"""Analysis: a finished or saved game looked at again with the advisor (`review`).

Left: a graph of each player's estimated chance of winning before each of their decisions, move by move (the step
shown is marked), and the biggest mistakes (moves that lost the most win probability against the advisor's best;
click one to go to it). Right: every kingdom at the step shown, what the move did and, for a decision, the
mover's chance and the advisor's best move. Step with the buttons or the arrow keys (Home / End: first / last).
The analysis runs in a worker with its progress shown; stepping works meanwhile; leaving the screen stops it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from agents.analysis import Decision, GameAnalysis
from kingdomino_env.rendering import pygame_drawing as drawing

from ..review import AnalysisRun, Review
from ..ui import ACCENT, ERROR, LABEL_ROOM, MUTED, PANEL, Button, Canvas, draw_labels
from .base import Screen

if TYPE_CHECKING:
    from ..app import App
    from ..thinking import Job

GRAPH = pygame.Rect(90, 110, 520, 260)
LEGEND_Y = GRAPH.bottom + 30
MISTAKES = pygame.Rect(40, 440, 580, 250)
MISTAKE_ROWS = 5
BOARD = pygame.Rect(660, 96, 600, 430)
STEP_TEXT = pygame.Rect(660, 536, 600, 110)
STEP_BUTTONS_Y = 652
#: The smallest squares a kingdom's row and column labels are drawn beside (smaller ones leave no room for them).
MIN_LABELLED_CELL = 16


class AnalysisScreen(Screen):
    title = "Analysis"

    def __init__(self, app: App, review: Review, back: Screen):
        super().__init__(app)
        self.review = review
        self.back = back
        self.step = 0
        self.run = AnalysisRun(review, app.hints.spec, app.analysis_seconds)
        self.analysis: GameAnalysis | None = None
        #: The biggest mistakes with the advisor's best move as text (computed once, when the analysis arrives).
        self.mistakes: list[tuple[Decision, str]] = []

    # Navigation.
    def go_to(self, step: int) -> None:
        self.step = max(0, min(self.review.moves, step))

    def leave(self) -> None:
        self.run.cancel()
        self.app.go(self.back)

    def pending(self) -> Job[GameAnalysis] | None:
        return None if self.run.job.done else self.run.job

    def update(self, dt: float) -> None:
        if self.analysis is None and self.run.result is not None:
            self.analysis = self.run.result
            self.mistakes = [(d, self.review.best_text(d)) for d in self.analysis.mistakes(MISTAKE_ROWS)]

    def buttons(self) -> list[Button]:
        x, w = STEP_TEXT.x, 140
        last = self.review.moves
        return [
            Button("First", pygame.Rect(x, STEP_BUTTONS_Y, w, 48), lambda: self.go_to(0), key=pygame.K_HOME, size=24),
            Button("Previous", pygame.Rect(x + 153, STEP_BUTTONS_Y, w, 48), lambda: self.go_to(self.step - 1),
                   enabled=self.step > 0, key=pygame.K_LEFT, size=24),
            Button("Next", pygame.Rect(x + 306, STEP_BUTTONS_Y, w, 48), lambda: self.go_to(self.step + 1),
                   enabled=self.step < last, key=pygame.K_RIGHT, size=24),
            Button("Last", pygame.Rect(x + 459, STEP_BUTTONS_Y, w, 48), lambda: self.go_to(last), key=pygame.K_END,
                   size=24),
            Button("Back", pygame.Rect(40, 720, 160, 54), self.leave, key=pygame.K_ESCAPE),
        ]

    def mistake_rect(self, row: int) -> pygame.Rect:
        step = (MISTAKES.h - 34) // MISTAKE_ROWS
        return pygame.Rect(MISTAKES.x + 8, MISTAKES.y + 32 + row * step, MISTAKES.w - 16, step - 4)

    def handle(self, event: pygame.event.Event) -> bool:
        if super().handle(event):
            return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for row, (decision, _) in enumerate(self.mistakes):
                if self.mistake_rect(row).collidepoint(event.pos):
                    self.go_to(decision.index)
                    return True
            if GRAPH.collidepoint(event.pos) and self.review.moves:
                self.go_to(round((event.pos[0] - GRAPH.x) * self.review.moves / GRAPH.w))
                return True
        return False

    # Drawing.
    def draw_content(self, canvas: Canvas) -> None:
        self.draw_graph(canvas)
        self.draw_mistakes(canvas)
        self.draw_board(canvas)
        self.draw_step(canvas)

    def graph_point(self, index: int, probability: float) -> tuple[int, int]:
        moves = max(1, self.review.moves)
        return (GRAPH.x + round(index * GRAPH.w / moves), GRAPH.bottom - round(probability * GRAPH.h))

    def draw_graph(self, canvas: Canvas) -> None:
        """Axes, each player's line, the step shown; the progress while the analysis runs."""
        pygame.draw.rect(canvas.surface, (252, 248, 238), GRAPH)
        for share in (0.0, 0.25, 0.5, 0.75, 1.0):
            y = self.graph_point(0, share)[1]
            pygame.draw.line(canvas.surface, (214, 206, 190), (GRAPH.x, y), (GRAPH.right, y), 1)
            canvas.text(f"{share:.0%}", (GRAPH.x - 8, y), 18, MUTED, anchor="midright")
        pygame.draw.rect(canvas.surface, drawing.INK, GRAPH, 1)
        canvas.text("Estimated chance of winning, move by move", (GRAPH.x, GRAPH.y - 26), 20, MUTED, True)
        canvas.text(f"move 1 to {self.review.moves}", (GRAPH.right, GRAPH.bottom + 4), 18, MUTED, anchor="topright")
        x = self.graph_point(self.step, 0)[0]
        pygame.draw.line(canvas.surface, ACCENT, (x, GRAPH.y), (x, GRAPH.bottom), 2)
        if self.analysis is None:
            self.draw_progress(canvas)
            return
        for seat, (indices, shares) in self.analysis.win_series().items():
            colour = drawing.PLAYER_COLOURS[seat % len(drawing.PLAYER_COLOURS)]
            points = [self.graph_point(i, p) for i, p in zip(indices, shares, strict=True)]
            if len(points) > 1:
                pygame.draw.lines(canvas.surface, colour, False, points, 3)
            for point in points:
                pygame.draw.circle(canvas.surface, colour, point, 3)
        self.draw_legend(canvas)

    def draw_legend(self, canvas: Canvas) -> None:
        """Each player's colour and name under the graph, in as many rows as they need."""
        x, y = GRAPH.x - 50, LEGEND_Y
        for seat, name in enumerate(self.review.seats):
            width = drawing.font(18).size(name.name)[0] + 34
            if x + width > MISTAKES.right:
                x, y = GRAPH.x - 50, y + 22
            colour = drawing.PLAYER_COLOURS[seat % len(drawing.PLAYER_COLOURS)]
            pygame.draw.line(canvas.surface, colour, (x, y + 10), (x + 20, y + 10), 4)
            canvas.text(name.name, (x + 26, y), 18)
            x += width + 10

    def draw_progress(self, canvas: Canvas) -> None:
        run = self.run
        if run.error:
            canvas.block(run.error, GRAPH.inflate(-20, -20), 20, ERROR)
            return
        bar = pygame.Rect(GRAPH.x + 40, GRAPH.centery, GRAPH.w - 80, 18)
        pygame.draw.rect(canvas.surface, PANEL, bar)
        if run.total:
            pygame.draw.rect(canvas.surface, ACCENT, (bar.x, bar.y, bar.w * run.done // run.total, bar.h))
        pygame.draw.rect(canvas.surface, drawing.INK, bar, 1)
        what = f"{run.done} of {run.total} decisions" if run.total else "starting"
        canvas.text(f"Analysing... {what}", (bar.centerx, bar.y - 8), 22, ACCENT, True, "midbottom")

    def draw_mistakes(self, canvas: Canvas) -> None:
        canvas.panel(MISTAKES)
        canvas.text("Biggest mistakes (click one to see it)", (MISTAKES.x + 12, MISTAKES.y + 8), 20, bold=True)
        if self.analysis is None:
            return
        if not self.mistakes:
            canvas.text("None: every move was as good as the advisor's best.", (MISTAKES.x + 12, MISTAKES.y + 40),
                        18, MUTED)
        names = [seat.name for seat in self.review.seats]
        for row, (decision, best) in enumerate(self.mistakes):
            rect = self.mistake_rect(row)
            if decision.index == self.step:
                pygame.draw.rect(canvas.surface, (214, 236, 218), rect, border_radius=6)
            text = (f"Move {decision.index + 1}, {names[decision.player]}: lost {decision.loss:.0%} of their chance "
                    f"to win. Best: {best}")
            canvas.block(text, rect.inflate(-8, 0), 18, minimum=12)

    def draw_board(self, canvas: Canvas) -> None:
        """Every kingdom before the move shown, in rows of up to four, each under its name, its rows and columns
        numbered as the frame's (as move texts name squares) when its squares are large enough."""
        match = self.review.match_at(self.step)
        kingdoms, grid = match.kingdoms, match.rules.grid
        per_row = min(kingdoms, 4)
        rows = -(-kingdoms // per_row)
        width, height = BOARD.w // per_row, BOARD.h // rows
        cell = max(6, min((width - 12 - LABEL_ROOM) // grid, (height - 48 - LABEL_ROOM) // grid))
        for k in range(kingdoms):
            row, col = divmod(k, per_row)
            x, y = BOARD.x + col * width, BOARD.y + row * height
            title = f"{match.kingdom_title(k)}: {int(match.state.scores[0, k])}"
            canvas.block(title, pygame.Rect(x + 4, y, width - 8, 40), 20, minimum=11, bold=True)
            origin = (x + 4 + LABEL_ROOM, y + 42 + LABEL_ROOM)
            drawing.draw_kingdom_window(canvas.surface, match.state, 0, k, origin, cell)
            if cell >= MIN_LABELLED_CELL:
                top, left = drawing.kingdom_window(match.state, 0, k)
                draw_labels(canvas, origin, cell, grid, first_row=top, first_col=left)

    def draw_step(self, canvas: Canvas) -> None:
        """The move at the step shown and, for a decision, the mover's chance and the advisor's best move."""
        y = canvas.block(self.review.move_text(self.step), pygame.Rect(STEP_TEXT.x, STEP_TEXT.y, STEP_TEXT.w, 48), 22)
        decision = self.decision_at(self.step)
        if decision is None:
            return
        name = self.review.seats[decision.player].name
        verdict = "the advisor's best" if decision.played == decision.best else f"lost {decision.loss:.0%}"
        canvas.block(f"{name}'s estimated chance before it: {decision.win_probability:.0%}; this move: {verdict}.",
                     pygame.Rect(STEP_TEXT.x, y + 4, STEP_TEXT.w, STEP_TEXT.bottom - y - 4), 20, MUTED)

    def decision_at(self, step: int) -> Decision | None:
        if self.analysis is None:
            return None
        return next((d for d in self.analysis.decisions if d.index == step), None)


__all__ = ["AnalysisScreen"]
