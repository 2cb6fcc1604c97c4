"""The table: draft (pick a domino of the next line) and placement (move, rotate, place or discard).

Left: the current and next lines with the kings, the scores, then the log of the last moves. Centre: the
kingdom of the human to move (while an agent moves, the human who plays next, so a player's own kingdom stays in
view; the agent's move shows on the right), large; while a human places, the held domino follows the cursor over
it and the legal spots for its rotation are outlined in green. Right: the other kingdoms.

Agents think in a worker thread (`thinking.Job`) on a copy of the env while the screen keeps drawing and handling
events; the action is played here, on the UI thread, and only if the game is still at the position it was
computed for. Agents that still have to be loaded (torch for ppo) are loaded the same way when the screen opens.
An agent's action stays on screen `app.pace` seconds before the next one. Each action is autosaved.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pygame

from kingdomino_env import drawing
from kingdomino_env.quests import names as quest_names
from kingdomino_env.quests import title as quest_title
from kingdomino_env.rules import Rules

from .. import placement
from ..match import Match
from ..placement import Cursor
from ..seats import default_name
from ..thinking import Job
from ..ui import ACCENT, ERROR, HEIGHT, MUTED, WIDTH, Button, Canvas, elide
from .base import Screen

if TYPE_CHECKING:
    from ..app import App

LINE_CELL, LINE_GAP = 44, 14
CURRENT_ORIGIN, NEXT_ORIGIN = (30, 116), (190, 116)
FOCUS_ORIGIN, FOCUS_SIZE = (370, 104), 468
RIGHT_X, RIGHT_TOP, RIGHT_HEIGHT, RIGHT_WIDTH = 875, 76, 715, 380
CONTROLS_Y = 588
#: Left column: the scores panel's width; the move log's bottom and its most lines.
LEFT_X, LEFT_WIDTH, LOG_BOTTOM, LOG_LINES = 20, 330, 790, 8
#: The centre column's text width (status lines, notices), up to the kingdoms on the right.
CENTRE_WIDTH = RIGHT_X - 20 - FOCUS_ORIGIN[0]
#: Where the name of the player to move is centred at the top, and how wide it may be.
HEADER_CENTRE, HEADER_WIDTH = (WIDTH // 2 - 40, 34), 400
#: Status lines end above this y.
HEIGHT_LIMIT = HEIGHT - 4


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


def draw_spinner(surface: pygame.Surface, centre: tuple[int, int], radius: int, clock: float) -> None:
    """Eight dots in a circle, one of them bright, turning once a second: an agent is busy."""
    lit = int(clock * 8) % 8
    for k in range(8):
        angle = k * math.pi / 4
        pos = (round(centre[0] + radius * math.cos(angle)), round(centre[1] + radius * math.sin(angle)))
        pygame.draw.circle(surface, ACCENT if k == lit else MUTED, pos, 4 if k == lit else 3)


class PlayScreen(Screen):
    def __init__(self, app: App, match: Match):
        super().__init__(app)
        self.match = match
        self.wait = 0.0
        self.clock = 0.0
        self.cursor: Cursor | None = None
        self.cursor_step = -1
        self.hover_slot: int | None = None
        #: The worker job running: ("load", seats) or ("think", position).
        self.job: Job[Any] | None = None
        #: An agent's action computed for a position, waiting for its pace.
        self.ready: tuple[tuple[int, int], int] | None = None
        #: Why the agents cannot go on (a load failed, an agent raised); the game can still be saved.
        self.agent_error = ""

    # What is on the table now.
    @property
    def rules(self) -> Rules:
        return self.match.rules

    def focus_player(self) -> int:
        """The kingdom shown large: the human to move or next to move; the player to move when no human plays."""
        human = self.match.next_human()
        if human is not None:
            return human
        return self.match.mover if self.match.mover >= 0 else 0

    def thinking(self) -> bool:
        """Whether an agent is computing its move now."""
        return self.job is not None and self.job.token[0] == "think" and not self.job.done

    def loading(self) -> bool:
        return self.job is not None and self.job.token[0] == "load"

    def pending(self) -> Job[Any] | None:
        return self.job

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
            self.after_action()

    def discard(self) -> None:
        if placement.must_discard(self.match.mask(), self.rules):
            self.match.play(self.rules.discard_action)
            self.after_action()

    def pick(self, slot: int) -> None:
        action = self.rules.pick_action(slot)
        if self.human_picking() and self.match.mask()[action]:
            self.match.play(action)
            self.after_action()

    def after_action(self) -> None:
        """After any action: the pace starts again; autosave the game, or drop the autosave once the match is over."""
        self.wait = 0.0
        if self.match.match_over:
            self.app.clear_autosave()
        else:
            self.app.autosave(self.match)

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
        out = [Button("Save & Quit", pygame.Rect(WIDTH - 190, 12, 176, 46), self.save, key=pygame.K_ESCAPE, size=28),
               Button("Quit", pygame.Rect(WIDTH - 300, 12, 100, 46), self.app.ask_quit, size=28)]
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
        self.clock += dt
        match, pace = self.match, self.app.pace
        self.collect()
        if match.game_over:
            if self.wait >= 2 * pace:
                self.app.show_scores(match)
            return
        if self.agent_error:
            return
        if self.job is None and match.unloaded_agents():
            self.start_loading()
        if self.loading() or match.human_to_move():
            return
        if self.ready is not None and self.wait >= pace:
            self.play_ready()
            if match.game_over:
                if pace == 0:
                    self.app.show_scores(match)
                return
        if self.job is None and self.ready is None and not match.human_to_move():
            self.start_thinking()

    # The worker.
    def start_loading(self) -> None:
        """Load the agents still to load in a worker ("Loading PPO..." meanwhile)."""
        match = self.match
        seats = match.unloaded_agents()
        label = ", ".join(dict.fromkeys(default_name(match.seats[i].kind, i) for i in seats))

        def load() -> None:
            for i in seats:
                match.agents[i].load()  # type: ignore[attr-defined]

        self.job = Job(("load", tuple(seats)), load, label)

    def start_thinking(self) -> None:
        """The agent to move thinks in a worker, on a copy of the env: the screen never reads what it changes."""
        match = self.match
        agent, env = match.agents[match.mover], match.snapshot()
        self.job = Job(("think", match.position), lambda: int(agent.act(env)), match.names[match.mover])

    def collect(self) -> None:
        """Take a finished job's result: a move for the current position is kept for its pace, any other dropped."""
        job = self.job
        if job is None or not job.done:
            return
        self.job = None
        kind, token = job.token
        if job.error is not None:
            what = f"Cannot load {job.label}" if kind == "load" else f"{job.label} could not move"
            self.agent_error = f"{what}: {job.error}"
        elif kind == "think" and token == self.match.position:
            self.ready = (token, int(job.result))

    def play_ready(self) -> None:
        assert self.ready is not None
        token, action = self.ready
        self.ready = None
        if token != self.match.position:
            return
        name = self.match.names[self.match.mover]
        try:
            self.match.play(action)
        except ValueError as err:
            self.agent_error = f"{name} could not move: {err}"
            return
        self.after_action()

    # Drawing.
    def draw_content(self, canvas: Canvas) -> None:
        match = self.match
        mover = match.mover
        canvas.text(elide(match.progress(), FOCUS_ORIGIN[0] - 40, 34, True), (30, 34), 34, ACCENT, True, "midleft")
        if mover >= 0:
            label = canvas.text(elide(f"Up next: {match.names[mover]}", HEADER_WIDTH, 38, True), HEADER_CENTRE, 38,
                                drawing.INK, True, "center")
            drawing.draw_king(canvas.surface, (label.left - 24, 32), 34, mover)
            if self.thinking():
                assert self.job is not None
                draw_spinner(canvas.surface, (label.right + 24, HEADER_CENTRE[1]), 12, self.clock)
                canvas.text(f"{self.job.elapsed():.0f} s", (label.right + 44, HEADER_CENTRE[1]), 22, MUTED,
                            anchor="midleft")
        self.draw_notices(canvas)
        self.draw_lines(canvas)
        bottom = self.draw_scores(canvas)
        self.draw_log(canvas, bottom + 12)
        self.draw_focus(canvas)
        self.draw_others(canvas)
        self.draw_status(canvas)

    def draw_notices(self, canvas: Canvas) -> None:
        """A failed autosave, small, above the large kingdom (the game goes on)."""
        if self.app.autosave_error:
            canvas.text(elide(self.app.autosave_error, CENTRE_WIDTH, 18), (FOCUS_ORIGIN[0], 58), 18, ERROR,
                        anchor="midleft")

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

    def draw_scores(self, canvas: Canvas) -> int:
        """The scores panel (and the quests under it); returns the y below them."""
        match, state = self.match, self.match.state
        top = 370
        right = LEFT_X + LEFT_WIDTH
        canvas.panel(pygame.Rect(LEFT_X, top, LEFT_WIDTH, 44 + 42 * self.rules.players))
        canvas.text("Scores so far", (36, top + 12), 26, bold=True)
        standing = match.standing() if match.dynasty and match.results else None
        for p in range(self.rules.players):
            y = top + 62 + p * 42
            drawing.draw_king(canvas.surface, (46, y), 30, p)
            seat = match.seats[p]
            bold = p == match.mover
            canvas.text(elide(seat.name, right - 68 - 62, 26, bold), (68, y - 6), 26, bold=bold, anchor="midleft")
            kind = "human" if seat.is_human else seat.kind
            if p == match.mover and self.thinking():
                kind = f"{kind}, thinking"
            kind_right = right - 68 - (100 if standing is not None else 62)
            canvas.text(elide(kind, kind_right, 18), (68, y + 12), 18, MUTED, anchor="midleft")
            canvas.text(str(int(state.scores[0, p])), (right - 20, y), 32, bold=True, anchor="midright")
            if standing is not None:
                canvas.text(f"match {standing.scores[p]}", (right - 68, y + 12), 18, MUTED, anchor="midright")
        return self.draw_quests(canvas, top + 60 + 42 * self.rules.players)

    def draw_quests(self, canvas: Canvas, top: int) -> int:
        """The game's active quests, small, under the scores (nothing in variants without quests); returns the y
        below them."""
        state = self.match.state
        if not state.rules.has_quests:
            return top - 16
        lines = ["Quests:"] + [quest_title(name) for name in quest_names(state.quests[0])]
        for i, line in enumerate(lines):
            canvas.text(elide(line, LEFT_WIDTH - 16, 18, i == 0), (36, top + 20 * i), 18, MUTED, bold=i == 0)
        return top + 20 * len(lines)

    def draw_log(self, canvas: Canvas, top: int) -> None:
        """The last moves, newest last, in the space left under the scores."""
        lines = (LOG_BOTTOM - top - 24) // 20
        if lines <= 0:
            return
        moves = self.match.moves[-min(lines, LOG_LINES):]
        canvas.text("Moves", (36, top), 20, MUTED, bold=True)
        if not moves:
            canvas.text("(none yet)", (36, top + 24), 18, MUTED)
        for k, move in enumerate(moves):
            canvas.text(elide(move.describe(self.match.names), LEFT_WIDTH - 16, 18), (36, top + 24 + 20 * k), 18)

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
        title_width = FOCUS_SIZE
        if match.placing and match.held_domino and player == match.mover:
            held = f"to place: #{match.held_domino}"
            x = FOCUS_ORIGIN[0] + FOCUS_SIZE - 2 * 34
            label = canvas.text(held, (x - 10, FOCUS_ORIGIN[1] - 16), 24, MUTED, anchor="midright")
            drawing.draw_domino(canvas.surface, (x, FOCUS_ORIGIN[1] - 36), 34, match.held_domino)
            title_width = label.left - 12 - FOCUS_ORIGIN[0]
        title = elide(match.names[player], title_width - drawing.font(28, True).size("'s kingdom")[0], 28, True)
        canvas.text(f"{title}'s kingdom", (FOCUS_ORIGIN[0], FOCUS_ORIGIN[1] - 28), 28, bold=True)
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
            score = f": {int(match.state.scores[0, p])}"
            name = elide(match.names[p], RIGHT_WIDTH - 26 - drawing.font(26).size(score)[0], 26)
            canvas.text(f"{name}{score}", (origin[0] + 26, origin[1] - 14), 26, anchor="midleft")
            recent = last.cells if last is not None and last.player == p else ()
            drawing.draw_kingdom(canvas.surface, match.state, 0, p, origin, cell, recent=recent)

    def status_lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        """The lines under the large kingdom and their colours."""
        match = self.match
        lines: list[tuple[str, tuple[int, int, int]]] = []
        mover = match.mover
        if match.game_over:
            lines.append(("Game over.", MUTED))
        elif self.human_picking():
            lines.append((f"{match.names[mover]}: pick a domino of the next line (click it, or press 1-4).", MUTED))
        elif self.human_placing():
            if placement.must_discard(match.mask(), self.rules):
                lines.append((f"No legal placement for #{match.held_domino}: it must be discarded.", MUTED))
            else:
                lines.append(("Arrows move the domino, R rotates it, Enter places it.", MUTED))
                lines.append(("Green: where its first square may go (click one).", MUTED))
        else:
            seat = match.seats[mover]
            lines.append((f"{seat.name} ({seat.kind}) is thinking...", MUTED))
        if self.loading():
            assert self.job is not None
            lines.append((f"Loading {self.job.label}... {self.job.elapsed():.0f} s", ACCENT))
        if self.agent_error:
            lines.append((self.agent_error, ERROR))
        if match.last_move is not None:
            lines.append((f"Last move: {match.last_move.describe(match.names)}.", MUTED))
        return lines

    def draw_status(self, canvas: Canvas) -> None:
        y = CONTROLS_Y + 122 if self.human_placing() else CONTROLS_Y + 10
        room = (HEIGHT_LIMIT - y) // 26
        for line, colour in self.status_lines()[:room]:
            canvas.text(elide(line, CENTRE_WIDTH, 22), (FOCUS_ORIGIN[0], y), 22, colour)
            y += 26


__all__ = ["PlayScreen", "draw_spinner", "focus_cell", "focus_cell_rect", "next_slot_rect", "thumbnail"]
