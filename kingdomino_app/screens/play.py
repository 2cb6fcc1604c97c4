"""The table: draft (pick a domino of the next line), placement (move, rotate, place or discard) and Queendomino's
optional steps (knights, build, Dragon).

Left: the current and next lines with the kings, the scores (Queendomino: each kingdom's coins, knights, towers
and the Queen beside its score), then the log of the last moves. Centre: the kingdom of the human to move (while
an agent moves, the human who plays next, so a player's own kingdom stays in view; the agent's move shows on the
right), large; while a human places, the held domino follows the cursor over it and the legal spots for its
rotation are outlined in green. Queendomino puts the Builders' Board under it, with the Dragon and the Queen.
Right: the other kingdoms (their N x N windows in Queendomino and the Royal Wedding, in two columns past three).

Queendomino's steps, for a human: click a square of the domino just placed to choose where a knight goes (the
tax of each square is shown first, read from the core on a copy of the state), then "Send knight"; click a tile
of the Builders' Board (its cost after the Queen's discount and its effects are shown), then a green town square
to build it; click a tile, then "Send the Dragon" to burn it; "Done" ends each optional step (PASS). Keys: 1/2
choose a knight's square, 0-5 a board slot (slot k costs k), Enter confirms, D is Done.

Agents think in a worker thread (`thinking.Job`) on a copy of the env while the screen keeps drawing and handling
events; the action is played here, on the UI thread, and only if the game is still at the position it was
computed for. Agents that still have to be loaded (torch for ppo) are loaded the same way when the screen opens,
and a copy of each kind acts once on a copy of the game so that its compiled kernels load before its first move.
An agent's action stays on screen `app.pace` seconds before the next one. Each action is autosaved.

Hint (button or H, on a human's turn): the advisor (`hints`) thinks in a worker on a copy of the state; its best
action is outlined in gold on the kingdom, the line or the Builders' Board, and its top three are listed in the left
column with the mover's estimated chance of winning (with its interval and the playouts behind it) and expected
margin. A hint is shown only for the position it was computed for, and only legal actions of that position are
shown. The advisor is made and warmed up in a worker as soon as a game with a human opens. The large kingdom's rows
and columns are numbered as move texts name squares (`kingdomino_env.rules.square_name`).
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

from kingdomino_env.core import PICK
from kingdomino_env.games.dominoes import QUEEN_TERRAINS
from kingdomino_env.games.kingdomino.quests import names as quest_names
from kingdomino_env.games.kingdomino.quests import title as quest_title
from kingdomino_env.games.queendomino.kernels import BUILD, DRAGON, KNIGHT_STEP
from kingdomino_env.rendering import pygame_drawing as drawing
from kingdomino_env.rendering.text import building_effects, domino_text
from kingdomino_env.rules import BOARD_SLOTS, Rules

from .. import builders_board, placement
from ..hints import Hint, action_text, count_text, estimate_text
from ..match import Match
from ..placement import Cursor
from ..seats import default_name
from ..thinking import Job, LazyAgent
from ..ui import ACCENT, ERROR, HEIGHT, LABEL_ROOM, MUTED, WIDTH, Button, Canvas, draw_labels, elide, line_height, wrap
from .base import Screen

if TYPE_CHECKING:
    from ..app import App

LINE_CELL, LINE_GAP = 44, 14
CURRENT_ORIGIN, NEXT_ORIGIN = (30, 116), (190, 116)
#: The large kingdom: its top left square (its row and column labels left of it and above it) and its size.
FOCUS_ORIGIN, FOCUS_SIZE = (370, 104 + LABEL_ROOM - 2), 460
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
#: Queendomino's centre column: the large kingdom's size, the Builders' Board under it (cards tall enough for
#: their effects at a readable size) and the controls.
QUEEN_FOCUS_SIZE = 338
BOARD_TITLE_Y = FOCUS_ORIGIN[1] + QUEEN_FOCUS_SIZE + 12
BOARD_Y, BOARD_SLOT_W, BOARD_SLOT_H, BOARD_STEP = BOARD_TITLE_Y + 20, 80, 140, 84
QUEEN_CONTROLS_Y = BOARD_Y + BOARD_SLOT_H + 10
#: Pixels a square of the board's building icons.
BOARD_CELL = 26
#: The outline of a hint's best action.
HINT_COLOUR, HINT_WIDTH = (235, 170, 0), 5


@dataclass(frozen=True)
class Layout:
    """Where the play screen draws, for a variant: the lines' cell and gap, the large kingdom's size, the top of
    the scores panel and the height of one of its rows, and where the controls start."""

    line_cell: int
    line_gap: int
    focus_size: int
    scores_top: int
    score_row: int
    controls_y: int
    queendomino: bool


def layout(rules: Rules | None = None) -> Layout:
    """The play screen's layout for `rules` (Kingdomino's when None)."""
    if rules is None or not rules.has_buildings:
        return Layout(LINE_CELL, LINE_GAP, FOCUS_SIZE, 370, 42, CONTROLS_Y, False)
    cell, gap = (LINE_CELL, LINE_GAP) if rules.line_size <= 4 else (28, 6)
    lines_bottom = NEXT_ORIGIN[1] + rules.line_size * (cell + gap)
    return Layout(cell, gap, QUEEN_FOCUS_SIZE, max(370, lines_bottom + 16), 46 if rules.kingdoms <= 4 else 36,
                  QUEEN_CONTROLS_Y, True)


def next_slot_rect(slot: int, rules: Rules | None = None) -> pygame.Rect:
    """Where slot `slot` of the next line is drawn (click it to pick)."""
    lay = layout(rules)
    return drawing.slot_rect(NEXT_ORIGIN, lay.line_cell, slot, lay.line_gap)


def focus_cell(frame: int, rules: Rules | None = None) -> int:
    """Pixels per square of the large kingdom."""
    return layout(rules).focus_size // frame


def focus_cell_rect(frame: int, row: int, col: int, rules: Rules | None = None) -> pygame.Rect:
    """Where frame cell (row, col) of the large kingdom is drawn (click it to move the held domino there, to send
    a knight or to build)."""
    return drawing.cell_rect(FOCUS_ORIGIN, focus_cell(frame, rules), row, col)


def board_slot_rect(slot: int) -> pygame.Rect:
    """Where Builders' Board slot `slot` is drawn (click it to build its tile or to send the Dragon to it)."""
    return pygame.Rect(FOCUS_ORIGIN[0] + slot * BOARD_STEP, BOARD_Y, BOARD_SLOT_W, BOARD_SLOT_H)


def thumbnail(frame: int, index: int, count: int) -> tuple[tuple[int, int], int]:
    """Origin and cell size of the `index`-th of `count` small kingdoms on the right (Kingdomino)."""
    cell = min(30, (RIGHT_HEIGHT // count - 34) // frame, RIGHT_WIDTH // frame)
    return (RIGHT_X, RIGHT_TOP + index * (RIGHT_HEIGHT // count) + 28), cell


def queen_thumbnail(grid: int, index: int, count: int) -> tuple[pygame.Rect, int]:
    """The box and the cell size of the `index`-th of `count` small kingdoms on the right in Queendomino: one
    column up to three kingdoms, two past that; each box holds a name line, a purse line and the N x N window."""
    columns = 1 if count <= 3 else 2
    rows = -(-count // columns)
    width, height = RIGHT_WIDTH // columns, RIGHT_HEIGHT // rows
    row, col = divmod(index, columns)
    box = pygame.Rect(RIGHT_X + col * width, RIGHT_TOP + row * height, width - 8, height - 6)
    cell = max(8, min(30, (box.w - 4) // grid, (box.h - 52) // grid))
    return box, cell


def draw_spinner(surface: pygame.Surface, centre: tuple[int, int], radius: int, clock: float) -> None:
    """Eight dots in a circle, one of them bright, turning once a second: an agent is busy."""
    lit = int(clock * 8) % 8
    for k in range(8):
        angle = k * math.pi / 4
        pos = (round(centre[0] + radius * math.cos(angle)), round(centre[1] + radius * math.sin(angle)))
        pygame.draw.circle(surface, ACCENT if k == lit else MUTED, pos, 4 if k == lit else 3)


def coins_text(n: int) -> str:
    return f"{n} coin{'' if n == 1 else 's'}"


class PlayScreen(Screen):
    def __init__(self, app: App, match: Match):
        super().__init__(app)
        self.match = match
        self.wait = 0.0
        self.clock = 0.0
        self.cursor: Cursor | None = None
        self.cursor_step = -1
        self.hover_slot: int | None = None
        #: Queendomino: the knight square (0, 1) or board slot (0..5) chosen at step `choice_step`.
        self.choice: int | None = None
        self.choice_step = -1
        #: The worker job running: ("load", seats) or ("think", position).
        self.job: Job[Any] | None = None
        #: An agent's action computed for a position, waiting for its pace.
        self.ready: tuple[tuple[int, int], int] | None = None
        #: Why the agents cannot go on (a load failed, an agent raised); the game can still be saved.
        self.agent_error = ""
        #: The advisor's worker for a hint, its last hint and why the last one failed.
        self.hint_job: Job[Hint] | None = None
        self.hint: Hint | None = None
        self.hint_error = ""
        #: The worker making and warming up the advisor before the first hint (started once per screen).
        self.prepare_job: Job[None] | None = None

    # What is on the table now.
    @property
    def rules(self) -> Rules:
        return self.match.rules

    @property
    def layout(self) -> Layout:
        return layout(self.rules)

    def focus_player(self) -> int:
        """The seat whose kingdom is shown large: the human to move or next to move; the player to move when no
        human plays."""
        human = self.match.next_human()
        if human is not None:
            return human
        return self.match.mover if self.match.mover >= 0 else 0

    def focus_kingdom(self) -> int:
        return self.match.kingdom_of(self.focus_player())

    def thinking(self) -> bool:
        """Whether an agent is computing its move now."""
        return self.job is not None and self.job.token[0] == "think" and not self.job.done

    def loading(self) -> bool:
        return self.job is not None and self.job.token[0] == "load"

    def pending(self) -> Job[Any] | None:
        if self.job is None and self.hint_job is not None:
            return self.hint_job
        if self.job is None and self.preparing_hints():
            return self.prepare_job
        return self.job

    def preparing_hints(self) -> bool:
        """Whether the hint engine is being made and warmed up now (`HintAdvisor.prepare`)."""
        return self.prepare_job is not None and not self.prepare_job.done

    def human_placing(self) -> bool:
        return self.match.human_to_move() and self.match.placing

    def human_picking(self) -> bool:
        return self.match.human_to_move() and self.match.phase == PICK

    def human_step(self) -> int | None:
        """Queendomino's optional step the human to move is in (KNIGHT_STEP, BUILD, DRAGON), else None."""
        phase = self.match.phase
        if self.match.human_to_move() and phase in (KNIGHT_STEP, BUILD, DRAGON):
            return phase
        return None

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

    def current_choice(self) -> int | None:
        """The knight square or board slot chosen at this step (forgotten once the game moves on)."""
        if self.choice_step != int(self.match.state.n_steps[0]):
            self.choice = None
        return self.choice

    def choose(self, value: int | None) -> None:
        self.choice, self.choice_step = value, int(self.match.state.n_steps[0])

    # Actions of a human.
    def move(self, d_row: int, d_col: int) -> None:
        self.set_cursor(placement.moved(self.current_cursor(), d_row, d_col, self.rules))

    def rotate(self) -> None:
        self.set_cursor(placement.rotated(self.current_cursor(), self.rules))

    def place(self) -> None:
        cursor = self.current_cursor()
        if placement.is_legal(cursor, self.match.mask(), self.rules):
            self.human_play(cursor.action(self.rules))

    def discard(self) -> None:
        if placement.must_discard(self.match.mask(), self.rules):
            self.human_play(self.rules.discard_action)

    def pick(self, slot: int) -> None:
        action = self.rules.pick_action(slot)
        if self.human_picking() and self.match.mask()[action]:
            self.human_play(action)

    def human_play(self, action: int) -> None:
        """Play a legal action of the human to move (the callers check it is legal)."""
        self.match.play(action)
        self.after_action()

    def done(self) -> None:
        """End the current optional step (PASS)."""
        if self.human_step() is not None and self.match.can_pass():
            self.human_play(self.rules.pass_action)

    def choose_knight(self, square: int) -> None:
        if square in self.match.knight_squares():
            self.choose(square)

    def send_knight(self) -> None:
        square = self.current_choice()
        if self.human_step() == KNIGHT_STEP and square in self.match.knight_squares():
            self.human_play(self.rules.knight_action(square))

    def choose_slot(self, slot: int) -> None:
        """Choose Builders' Board slot `slot` to build from or to burn (when the core allows it)."""
        step = self.human_step()
        if step == BUILD and slot in self.match.buildable_slots():
            self.choose(slot)
        elif step == DRAGON and slot in self.match.dragon_slots():
            self.choose(slot)

    def build_at(self, row: int, col: int) -> None:
        slot = self.current_choice()
        if self.human_step() == BUILD and slot is not None and (row, col) in self.match.build_squares(slot):
            self.human_play(self.rules.build_action(slot, row, col))

    def send_dragon(self) -> None:
        slot = self.current_choice()
        if self.human_step() == DRAGON and slot in self.match.dragon_slots():
            self.human_play(self.rules.dragon_action(slot))

    def confirm(self) -> None:
        """Enter: send the chosen knight or the Dragon."""
        step = self.human_step()
        if step == KNIGHT_STEP:
            self.send_knight()
        elif step == DRAGON:
            self.send_dragon()

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

    def click_step_cell(self, row: int, col: int) -> None:
        """A click on the large kingdom during an optional step: a knight's square, or where to build."""
        step = self.human_step()
        if step == KNIGHT_STEP:
            placed = self.match.placed_cells()
            if placed is not None and (row, col) in placed:
                self.choose_knight(placed.index((row, col)))
        elif step == BUILD:
            self.build_at(row, col)

    def save(self) -> None:
        self.app.show_save(self.match, self)

    # Screen.
    def buttons(self) -> list[Button]:
        out = [Button("Save & Quit", pygame.Rect(WIDTH - 190, 12, 176, 46), self.save, key=pygame.K_ESCAPE, size=28),
               Button("Quit", pygame.Rect(WIDTH - 300, 12, 100, 46), self.app.ask_quit, size=28)]
        if self.match.human_to_move() and self.match.forced_action() is None:
            out.append(Button("Hint", pygame.Rect(WIDTH - 410, 12, 100, 46), self.request_hint,
                              enabled=self.hint_job is None, key=pygame.K_h, size=28))
        step = self.human_step()
        if step is not None:
            return out + self.step_buttons(step)
        if not self.human_placing():
            return out
        mask = self.match.mask()
        discard = placement.must_discard(mask, self.rules)
        legal = placement.is_legal(self.current_cursor(), mask, self.rules)
        moves = (("LEFT", pygame.K_LEFT, lambda: self.move(0, -1)), ("UP", pygame.K_UP, lambda: self.move(-1, 0)),
                 ("DOWN", pygame.K_DOWN, lambda: self.move(1, 0)), ("RIGHT", pygame.K_RIGHT, lambda: self.move(0, 1)),
                 ("ROTATE", pygame.K_r, self.rotate))
        x = FOCUS_ORIGIN[0]
        # Queendomino's screen has less room under the board: smaller buttons.
        y, small, big, small_text, big_text, wide = ((self.layout.controls_y, 40, 44, 22, 26, 250)
                                                     if self.layout.queendomino else (CONTROLS_Y, 44, 54, 24, 30, 270))
        for k, (label, key, action) in enumerate(moves):
            out.append(Button(label, pygame.Rect(x + k * 94, y, 86, small), action, enabled=not discard, key=key,
                              size=small_text))
        low = y + big + (2 if self.layout.queendomino else 0)  # the second row
        out.append(Button("Place & Proceed", pygame.Rect(x, low, wide, big), self.place, enabled=legal,
                          key=pygame.K_RETURN, size=big_text))
        if discard:
            out.append(Button("Discard", pygame.Rect(x + wide + 14, low, 180, big), self.discard, key=pygame.K_d,
                              size=big_text))
        return out

    def step_buttons(self, step: int) -> list[Button]:
        """The confirm button of the step (knights, Dragon) and "Done" (PASS)."""
        x, y = FOCUS_ORIGIN[0], self.layout.controls_y
        choice = self.current_choice()
        out = []
        if step == KNIGHT_STEP:
            label = "Send knight"
            if choice is not None:
                tax = self.match.preview(self.rules.knight_action(choice)).coins
                label = f"Send knight (+{coins_text(tax)})"
            out.append(Button(label, pygame.Rect(x, y, 300, 48), self.send_knight, enabled=choice is not None,
                              key=pygame.K_RETURN, size=26))
        elif step == DRAGON:
            out.append(Button("Send the Dragon", pygame.Rect(x, y, 300, 48), self.send_dragon,
                              enabled=choice is not None, key=pygame.K_RETURN, size=26))
        out.append(Button("Done", pygame.Rect(x + 314, y, 150, 48), self.done, enabled=self.match.can_pass(),
                          key=pygame.K_d, size=28))
        return out

    def handle(self, event: pygame.event.Event) -> bool:
        if super().handle(event):
            return True
        rules = self.rules
        if event.type == pygame.MOUSEMOTION:
            self.hover_slot = next((i for i in range(rules.line_size)
                                    if next_slot_rect(i, rules).collidepoint(event.pos)), None)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            return self.handle_click(event.pos)
        elif event.type == pygame.KEYDOWN:
            return self.handle_key(event.key)
        return False

    def handle_click(self, pos: tuple[int, int]) -> bool:
        rules = self.rules
        if self.human_picking():
            for i in range(rules.line_size):
                if next_slot_rect(i, rules).collidepoint(pos):
                    self.pick(i)
                    return True
            return False
        cell = drawing.cell_at(FOCUS_ORIGIN, focus_cell(rules.frame, rules), rules.frame, pos)
        if self.human_placing():
            if cell is not None:
                self.click_cell(*cell)
                return True
            return False
        if self.human_step() is not None:
            slot = next((k for k in range(BOARD_SLOTS) if board_slot_rect(k).collidepoint(pos)), None)
            if slot is not None:
                self.choose_slot(slot)
                return True
            if cell is not None:
                self.click_step_cell(*cell)
                return True
        return False

    def handle_key(self, key: int) -> bool:
        step = self.human_step()
        if self.human_picking():
            slot = key - pygame.K_1
            if 0 <= slot < min(self.rules.line_size, 9):
                self.pick(slot)
                return True
        elif step == KNIGHT_STEP and key in (pygame.K_1, pygame.K_2):
            self.choose_knight(key - pygame.K_1)
            return True
        elif step in (BUILD, DRAGON) and pygame.K_0 <= key < pygame.K_0 + BOARD_SLOTS:
            self.choose_slot(key - pygame.K_0)
            return True
        return False

    def update(self, dt: float) -> None:
        self.wait += dt
        self.clock += dt
        match, pace = self.match, self.app.pace
        self.collect()
        self.collect_hint()
        self.prepare_hints()
        if match.game_over:
            if self.wait >= 2 * pace:
                self.app.show_scores(match)
            return
        if self.agent_error:
            return
        if self.job is None and match.unloaded_agents():
            self.start_loading()
        if self.loading():
            return
        if match.human_to_move():
            self.play_forced_pick()
            return
        if self.ready is not None and self.wait >= pace:
            self.play_ready()
            if match.game_over:
                if pace == 0:
                    self.app.show_scores(match)
                return
        if self.job is None and self.ready is None and not match.human_to_move():
            self.start_thinking()

    def play_forced_pick(self) -> None:
        """A human's pick with one legal domino left is played for them once the pace has passed (the log says
        "(only choice)")."""
        action = self.match.forced_action()
        if action is None or self.match.phase != PICK or self.wait < self.app.pace:
            return
        self.match.play(action, forced=True)
        self.after_action()

    # Hints.
    def prepare_hints(self) -> None:
        """Once per screen, when a human plays and the advisor of this variant is not ready: make it and warm it
        up in a worker while the player reads the board, so that the first hint gets its whole time to think (the
        left column says "Preparing the hint engine..." meanwhile). A failure shows when a hint is asked for."""
        match, hints = self.match, self.app.hints
        if (self.prepare_job is not None or not self.app.prepare_hints or not match.humans or match.game_over
                or hints.ready(self.rules)):
            return
        state = match.state.copy()
        self.prepare_job = Job(("prepare", match.position), lambda: hints.prepare(state), "hint engine")

    def request_hint(self) -> None:
        """Ask the advisor about the human's position, in a worker (nothing when one is shown or on its way)."""
        match = self.match
        if (not match.human_to_move() or match.forced_action() is not None or self.hint_job is not None
                or self.current_hint() is not None):
            return
        state, position, hints = match.state.copy(), match.position, self.app.hints
        self.hint_error = ""
        self.hint_job = Job(("hint", position), lambda: hints.advise(state, position), "hint")

    def collect_hint(self) -> None:
        """Take a finished hint: kept for its position with only the actions legal there, dropped for another."""
        job = self.hint_job
        if job is None or not job.done:
            return
        self.hint_job = None
        if job.error is not None:
            self.hint_error = f"No hint: {job.error}"
        elif job.result is not None and job.token[1] == self.match.position:
            mask = self.match.mask()
            legal = tuple(e for e in job.result.estimates if mask[e.action])
            self.hint = Hint(job.result.position, legal, job.result.spec) if legal else None

    def current_hint(self) -> Hint | None:
        """The hint for the position on the table, None when there is none (or it was for another position)."""
        hint = self.hint
        if hint is None or hint.position != self.match.position or not self.match.human_to_move():
            return None
        return hint

    # The worker.
    def start_loading(self) -> None:
        """Load the agents still to load in a worker, and warm each kind up on a copy of the game (its compiled
        kernels load now, not in its first move; see `thinking.LazyAgent.warm`); "Preparing PPO: loading and
        compiling..." meanwhile."""
        match = self.match
        seats = match.unloaded_agents()
        label = ", ".join(dict.fromkeys(default_name(match.seats[i].kind, i) for i in seats))
        env = match.snapshot()

        def load() -> None:
            warmed: set[str] = set()
            for i in seats:
                agent = match.agents[i]
                if isinstance(agent, LazyAgent) and agent.spec not in warmed:
                    warmed.add(agent.spec)
                    agent.warm(copy.deepcopy(env))
                else:
                    agent.load()  # type: ignore[attr-defined]

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
    def header_name(self) -> str:
        """"Up next: Ann" (in team games with the teammate: "Up next: Ann (team 1 with Bob)")."""
        match = self.match
        mover = match.mover
        text = f"Up next: {match.names[mover]}"
        mate = match.teammate(mover)
        if mate is not None:
            text += f" (team {match.kingdom_of(mover) + 1} with {match.names[mate]})"
        return text

    def draw_content(self, canvas: Canvas) -> None:
        match = self.match
        mover = match.mover
        canvas.text(elide(match.progress(), FOCUS_ORIGIN[0] - 40, 34, True), (30, 34), 34, ACCENT, True, "midleft")
        if mover >= 0:
            team = match.teammate(mover) is not None
            size, width = (28, HEADER_WIDTH + 100) if team else (38, HEADER_WIDTH)
            label = canvas.text(elide(self.header_name(), width, size, True), HEADER_CENTRE, size, drawing.INK, True,
                                "center")
            drawing.draw_king(canvas.surface, (label.left - 24, 32), 34, mover)
            if self.thinking():
                assert self.job is not None
                draw_spinner(canvas.surface, (label.right + 24, HEADER_CENTRE[1]), 12, self.clock)
                canvas.text(f"{self.job.elapsed():.0f} s", (label.right + 44, HEADER_CENTRE[1]), 22, MUTED,
                            anchor="midleft")
        self.draw_notices(canvas)
        self.draw_lines(canvas)
        hint_top = self.draw_scores(canvas) + 12
        self.draw_log(canvas, self.draw_hint(canvas, hint_top))
        self.draw_focus(canvas)
        if self.layout.queendomino:
            self.draw_board(canvas)
        self.draw_others(canvas)
        self.draw_hint_over_kingdoms(canvas, hint_top)
        self.draw_status(canvas)
        self.draw_hint_marks(canvas)
        if self.layout.queendomino:
            slot = next((k for k in range(BOARD_SLOTS) if board_slot_rect(k).collidepoint(canvas.mouse)), None)
            if slot is not None:
                builders_board.draw_details(canvas, self.match.state, slot, board_slot_rect(slot),
                                            pygame.Rect(0, 0, WIDTH, HEIGHT))

    def draw_hint(self, canvas: Canvas, top: int) -> int:
        """The hint in the left column above the move log (or that it is on its way, or why it failed); a hint with
        no room left there (many kingdoms) is drawn later, over the kingdoms (`draw_hint_over_kingdoms`). Returns
        the y below what it drew in the left column."""
        width, x = LEFT_WIDTH - 16, 36
        if self.hint_job is not None and self.hint_job.token[1] == self.match.position:
            canvas.text(f"Hint: thinking... {self.hint_job.elapsed():.0f} s", (x, top), 20, ACCENT, True)
            return top + 30
        if self.preparing_hints():
            assert self.prepare_job is not None
            canvas.text(f"Preparing the hint engine... {self.prepare_job.elapsed():.0f} s", (x, top), 18, MUTED)
            return top + 26
        if self.hint_error:
            return canvas.block(self.hint_error, pygame.Rect(x, top, width, 44), 18, ERROR) + 8
        hint = self.current_hint()
        if hint is None:
            return top
        panel = self.hint_box(hint, top)
        if panel.x != x:
            return top
        return self.draw_hint_lines(canvas, hint, panel) + 6

    def draw_hint_over_kingdoms(self, canvas: Canvas, top: int) -> None:
        """A hint with no room in the left column, in a panel over the bottom of the right column (drawn after the
        kingdoms, so that it stays readable)."""
        hint = self.current_hint()
        if hint is None:
            return
        panel = self.hint_box(hint, top)
        if panel.x == RIGHT_X:
            canvas.panel(panel)
            self.draw_hint_lines(canvas, hint, panel.inflate(-16, -16))

    def hint_box(self, hint: Hint, top: int) -> pygame.Rect:
        """Where `hint` goes: in the left column from `top` when it fits above the log's bottom, else a panel over
        the bottom of the right column."""
        width = LEFT_WIDTH - 16
        height = 24 + sum((len(wrap(line, width, 18)) + len(wrap(estimate, width - 18, 18, True))) * line_height(18)
                          + 2 for line, estimate in zip(self.hint_lines(hint), self.estimate_lines(hint), strict=True))
        if top + height <= LOG_BOTTOM:
            return pygame.Rect(36, top, width, height)
        return pygame.Rect(RIGHT_X, HEIGHT - height - 24, RIGHT_WIDTH, height + 16)

    def hint_lines(self, hint: Hint) -> list[str]:
        return [f"{k + 1}. {action_text(self.match, e.action)}" for k, e in enumerate(hint.estimates)]

    def estimate_lines(self, hint: Hint) -> list[str]:
        """Each listed action's estimate with its uncertainty (`hints.estimate_text`)."""
        return [estimate_text(e, hint.unit, count=hint.visits is None or hint.visits <= 0) for e in hint.estimates]

    def hint_title(self, hint: Hint) -> str:
        """"Hint (mc, 21 playouts a move):" when every listed action rests on as many, else "Hint (az):"."""
        each = f", {count_text(hint.visits, hint.unit)} a move" if hint.visits else ""
        return f"Hint ({hint.spec}{each}):"

    def draw_hint_lines(self, canvas: Canvas, hint: Hint, box: pygame.Rect) -> int:
        """The hint's title, then each action with the mover's estimate, in `box`; returns the y below."""
        canvas.fitted(self.hint_title(hint), box.topleft, box.w, 20, ACCENT, True)
        y = box.y + 24
        for k, (line, estimate) in enumerate(zip(self.hint_lines(hint), self.estimate_lines(hint), strict=True)):
            y = canvas.wrapped(line, pygame.Rect(box.x, y, box.w, 20), 18)
            lines = wrap(estimate, box.w - 18, 18, True)
            area = pygame.Rect(box.x + 18, y, box.w - 18, len(lines) * line_height(18))
            for part in lines:
                canvas.text(part, (area.x, y), 18, HINT_COLOUR if k == 0 else MUTED, bold=k == 0, box=area,
                            full=part)
                y += line_height(18)
            y += 2
        return y

    def hint_rects(self, action: int) -> list[pygame.Rect]:
        """Where a hint's action shows: the domino's two squares on the large kingdom, the slot of the next line,
        the knight's square, the board tile (and the town square) or the button that plays it."""
        match, rules = self.match, self.rules
        frame = rules.frame
        if action < rules.n_place_actions:
            cell, direction = divmod(action, 4)
            first, second = Cursor(*divmod(cell, frame), direction).cells()
            return [focus_cell_rect(frame, *first, rules).union(focus_cell_rect(frame, *second, rules))]
        if rules.first_pick_action <= action < rules.first_pick_action + rules.line_size:
            return [next_slot_rect(action - rules.first_pick_action, rules).inflate(10, 10)]
        labels = {rules.discard_action: "Discard"}
        if rules.has_buildings:
            labels[rules.pass_action] = "Done"
            if action >= rules.first_dragon_action:
                return [board_slot_rect(action - rules.first_dragon_action).inflate(8, 8)]
            if action >= rules.first_build_action:
                slot, cell = divmod(action - rules.first_build_action, frame * frame)
                return [board_slot_rect(slot).inflate(8, 8), focus_cell_rect(frame, *divmod(cell, frame), rules)]
            if action >= rules.first_knight_action and action != rules.pass_action:
                placed = match.placed_cells()
                if placed is not None:
                    return [focus_cell_rect(frame, *placed[action - rules.first_knight_action], rules)]
        label = labels.get(action)
        return [b.rect.inflate(8, 8) for b in self.buttons() if b.label == label]

    def draw_hint_marks(self, canvas: Canvas) -> None:
        """The hint's best action outlined in gold."""
        hint = self.current_hint()
        if hint is None:
            return
        for rect in self.hint_rects(hint.best):
            pygame.draw.rect(canvas.surface, HINT_COLOUR, rect, HINT_WIDTH, border_radius=4)

    def draw_notices(self, canvas: Canvas) -> None:
        """A failed autosave, small, above the large kingdom (the game goes on)."""
        if self.app.autosave_error:
            canvas.text(elide(self.app.autosave_error, CENTRE_WIDTH, 18), (FOCUS_ORIGIN[0], 58), 18, ERROR,
                        anchor="midleft")

    def draw_lines(self, canvas: Canvas) -> None:
        state = self.match.state
        lay = self.layout
        first_round = int(state.round[0]) == 0
        canvas.text("Current line", (CURRENT_ORIGIN[0], CURRENT_ORIGIN[1] - 30), 24, MUTED, True)
        canvas.text("First line" if first_round else "Next line", (NEXT_ORIGIN[0], NEXT_ORIGIN[1] - 30), 24, MUTED,
                    True)
        selectable: list[int] = []
        if self.human_picking():
            mask = self.match.mask()
            selectable = [i for i in range(self.rules.line_size) if mask[self.rules.pick_action(i)]]
        if not self.rules.two_boxes:
            drawing.draw_line(canvas.surface, state, 0, "current", CURRENT_ORIGIN, lay.line_cell, lay.line_gap)
            drawing.draw_line(canvas.surface, state, 0, "next", NEXT_ORIGIN, lay.line_cell, lay.line_gap,
                              selectable, self.hover_slot)
        else:
            self.draw_labelled_line(canvas, "current", CURRENT_ORIGIN)
            self.draw_labelled_line(canvas, "next", NEXT_ORIGIN, selectable)
        if state.next_line[0].max() < 0:
            canvas.text("(last round)", (NEXT_ORIGIN[0], NEXT_ORIGIN[1] + 10), 22, MUTED)

    def draw_labelled_line(self, canvas: Canvas, which: str, origin: tuple[int, int],
                           selectable: list[int] | None = None) -> None:
        """A line of the Royal Wedding: each domino with its label ("Q12", "K19": box and number) beside it, not on
        it, then its king (as `drawing.draw_line` draws the other games' lines, with the number on the domino)."""
        state, lay = self.match.state, self.layout
        cell = lay.line_cell
        line, owner = (state.cur_line, state.cur_owner) if which == "current" else (state.next_line, state.next_owner)
        placed = drawing.placed_slots(state, 0) if which == "current" else set()
        size = 16 if cell > 30 else 15
        for i in range(self.rules.line_size):
            rect = drawing.slot_rect(origin, cell, i, lay.line_gap)
            d, who = int(line[0, i]), int(owner[0, i])
            if d < 0 or i in placed or (which == "current" and who < 0):
                pygame.draw.rect(canvas.surface, (200, 194, 180), rect, 1, border_radius=3)
                continue
            drawing.draw_domino(canvas.surface, rect.topleft, cell, d + 1, rules=self.rules)
            if selectable is not None and i in selectable:
                pygame.draw.rect(canvas.surface, drawing.LEGAL, rect.inflate(8, 8), 5 if i == self.hover_slot else 2,
                                 border_radius=4)
            label = canvas.text(domino_text(self.rules, d), (rect.right + 5, rect.centery), size, bold=True,
                                anchor="midleft")
            if who >= 0:
                king = int(cell * 0.8)
                drawing.draw_king(canvas.surface, (label.right + 2 + king // 2, rect.centery), king, who)

    def draw_kings(self, canvas: Canvas, kingdom: int, centre: tuple[int, int], size: int) -> int:
        """The kings of a kingdom's players side by side from `centre`; returns the x right of them."""
        seats = self.rules.kingdom_seats(kingdom)
        step = size * 2 // 3
        for k, seat in enumerate(seats):
            drawing.draw_king(canvas.surface, (centre[0] + k * step, centre[1]), size, seat)
        return centre[0] + (len(seats) - 1) * step + size // 2

    def draw_scores(self, canvas: Canvas) -> int:
        """The scores panel (Queendomino: each kingdom's purse; then the quests under it); returns the y below."""
        match, state, lay = self.match, self.match.state, self.layout
        top, row = lay.scores_top, lay.score_row
        right = LEFT_X + LEFT_WIDTH
        kingdoms = match.kingdoms
        canvas.panel(pygame.Rect(LEFT_X, top, LEFT_WIDTH, 44 + row * kingdoms))
        canvas.text("Scores so far", (36, top + 12), 26, bold=True)
        standing = match.standing() if match.dynasty and match.results else None
        names = match.kingdom_names()
        mover_kingdom = match.kingdom_of(match.mover) if match.mover >= 0 else -1
        first = 62 if not lay.queendomino else 58 if row > 40 else 56
        for k in range(kingdoms):
            y = top + first + k * row
            seats = self.rules.kingdom_seats(k)
            bold = k == mover_kingdom
            if lay.queendomino:
                self.draw_queen_row(canvas, k, y, names[k], bold, None if standing is None else standing.scores[k])
                continue
            canvas.text(str(int(state.scores[0, k])), (right - 20, y), 32, bold=True, anchor="midright")
            drawing.draw_king(canvas.surface, (46, y), 30, seats[0])
            seat = match.seats[seats[0]]
            canvas.text(elide(seat.name, right - 68 - 62, 26, bold), (68, y - 6), 26, bold=bold, anchor="midleft")
            kind = "human" if seat.is_human else seat.kind
            if seats[0] == match.mover and self.thinking():
                kind = f"{kind}, thinking"
            kind_right = right - 68 - (100 if standing is not None else 62)
            canvas.text(elide(kind, kind_right, 18), (68, y + 12), 18, MUTED, anchor="midleft")
            if standing is not None:
                canvas.text(f"match {standing.scores[k]}", (right - 68, y + 12), 18, MUTED, anchor="midright")
        return self.draw_quests(canvas, top + 60 + row * kingdoms)

    def draw_queen_row(self, canvas: Canvas, kingdom: int, y: int, name: str, bold: bool,
                       match_score: int | None) -> None:
        """One kingdom of the Queendomino scores panel at centre line `y`: its kings, name, purse (coins, knights
        unplaced/owned, towers, the Queen) and score (with the match total in a Dynasty). Up to four kingdoms the
        purse goes under the name; past four, beside it."""
        state, right = self.match.state, LEFT_X + LEFT_WIDTH
        score = str(int(state.scores[0, kingdom]))
        two_lines = self.layout.score_row > 40
        size = 32 if two_lines or match_score is None else 26
        score_y = y - 6 if two_lines or match_score is not None else y
        score_rect = canvas.text(score, (right - 16, score_y), size, bold=True, anchor="midright")
        if match_score is not None:
            canvas.text(f"match {match_score}", (right - 16, y + (14 if two_lines else 12)), 15, MUTED,
                        anchor="midright")
        end = min(score_rect.left, right - 64) - 8
        x = self.draw_kings(canvas, kingdom, (44, y - 2 if two_lines else y), 26 if two_lines else 22) + 6
        if two_lines:
            canvas.text(elide(name, end - x, 22, bold), (x, y - 9), 22, bold=bold, anchor="midleft")
            drawing.draw_purse(canvas.surface, state, 0, kingdom, pygame.Rect(x, y + 3, end - x, 21))
            return
        name_w = 78
        canvas.text(elide(name, name_w, 21, bold), (x, y), 21, bold=bold, anchor="midleft")
        drawing.draw_purse(canvas.surface, state, 0, kingdom, pygame.Rect(x + name_w + 6, y - 11, end - x - name_w - 6,
                                                                          22))

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

    def log_moves(self) -> list[str]:
        """The moves of the log, oldest first (passes too: "Ann passed (building)")."""
        return [m.describe(self.match.names) for m in self.match.moves]

    def draw_log(self, canvas: Canvas, top: int) -> None:
        """The last moves, newest last, in the space left under the scores."""
        lines = (LOG_BOTTOM - top - 24) // 20
        if lines <= 0:
            return
        moves = self.log_moves()[-min(lines, LOG_LINES):]
        canvas.text("Moves", (36, top), 20, MUTED, bold=True)
        if not moves:
            canvas.text("(none yet)", (36, top + 24), 18, MUTED)
        for k, move in enumerate(moves):
            canvas.text(elide(move, LEFT_WIDTH - 16, 18), (36, top + 24 + 20 * k), 18)

    def focus_marks(self) -> tuple[list[tuple[int, int]], drawing.Ghost | None]:
        """The green cells of the large kingdom (legal spots, a knight's squares, where to build) and the held
        domino over it while a human places."""
        match = self.match
        step = self.human_step()
        if step == KNIGHT_STEP:
            placed = match.placed_cells()
            return ([placed[i] for i in match.knight_squares()] if placed is not None else []), None
        if step == BUILD:
            slot = self.current_choice()
            return (match.build_squares(slot) if slot is not None else []), None
        if not self.human_placing():
            return [], None
        mask = match.mask()
        if placement.must_discard(mask, self.rules):
            return [], None
        cursor = self.current_cursor()
        return (placement.legal_first_cells(mask, self.rules, cursor.direction),
                drawing.Ghost(match.held_domino, cursor.row, cursor.col, cursor.direction,
                              placement.is_legal(cursor, mask, self.rules)))

    def draw_focus(self, canvas: Canvas) -> None:
        match = self.match
        kingdom = self.focus_kingdom()
        frame = self.rules.frame
        size = self.layout.focus_size
        highlights, ghost = self.focus_marks()
        last = match.last_move
        recent = last.cells if last is not None and match.kingdom_of(last.player) == kingdom else ()
        title_width = size
        top = FOCUS_ORIGIN[1] - LABEL_ROOM
        if match.placing and match.held_domino and match.kingdom_of(match.mover) == kingdom:
            x = FOCUS_ORIGIN[0] + max(size, FOCUS_SIZE) - 2 * 34  # at the centre column's right, whatever the board
            title_width = x - 12 - FOCUS_ORIGIN[0]
            held = "to place:" if self.layout.queendomino else f"to place: {match.domino_name(match.held_domino)}"
            label = canvas.text(held, (x - 10, top - 16), 22 if self.rules.shared_kingdoms else 24, MUTED,
                                anchor="midright")
            title_width = label.left - 12 - FOCUS_ORIGIN[0]
            drawing.draw_domino(canvas.surface, (x, top - 36), 34, match.held_domino, number_badge=True,
                                rules=self.rules)
        if self.rules.shared_kingdoms:
            canvas.shrunk(match.kingdom_title(kingdom), (FOCUS_ORIGIN[0], top - 27), title_width, 26, bold=True)
        else:
            name = match.kingdom_title(kingdom)
            title = elide(name, title_width - drawing.font(28, True).size("'s kingdom")[0], 28, True)
            canvas.text(f"{title}'s kingdom", (FOCUS_ORIGIN[0], top - 28), 28, bold=True)
        cell = focus_cell(frame, self.rules)
        drawing.draw_kingdom(canvas.surface, match.state, 0, kingdom, FOCUS_ORIGIN, cell, highlights, ghost, recent)
        draw_labels(canvas, FOCUS_ORIGIN, cell, frame)
        if self.human_step() is not None:
            for row, col in highlights:
                rect = drawing.cell_rect(FOCUS_ORIGIN, cell, row, col)
                pygame.draw.rect(canvas.surface, drawing.LEGAL, rect.inflate(-2, -2), 3)
        choice = self.current_choice()
        if self.human_step() == KNIGHT_STEP and choice is not None:
            placed = match.placed_cells()
            if placed is not None:
                rect = drawing.cell_rect(FOCUS_ORIGIN, cell, *placed[choice])
                pygame.draw.rect(canvas.surface, drawing.LEGAL, rect, max(5, cell // 5))

    def draw_board(self, canvas: Canvas) -> None:
        """Queendomino's Builders' Board under the large kingdom (the tiles the human may take outlined in green,
        the chosen one thick), with the tiles left in the pile, the Dragon and the Queen's host."""
        match, state = self.match, self.match.state
        x = FOCUS_ORIGIN[0]
        left = len(state.pile[0]) - int(state.pile_pos[0])
        title = canvas.text(f"Builders' Board ({left} left)", (x, BOARD_TITLE_Y), 21, MUTED, True, "midleft")
        dragon_x = title.right + 22
        drawing.draw_dragon(canvas.surface, (dragon_x, BOARD_TITLE_Y + 2), 24)
        dragon = canvas.text("Dragon: " + ("in cave" if state.dragon[0] else "out"), (dragon_x + 15, BOARD_TITLE_Y),
                             20, anchor="midleft")
        queen_x = dragon.right + 14
        drawing.draw_queen(canvas.surface, (queen_x, BOARD_TITLE_Y), 20)
        host = int(state.queen[0])
        who = match.kingdom_names()[host] if host >= 0 else "free"
        canvas.text(elide(f"Queen: {who}", RIGHT_X - 24 - queen_x - 10, 20), (queen_x + 10, BOARD_TITLE_Y), 20,
                    anchor="midleft")
        step = self.human_step()
        open_slots = (match.buildable_slots() if step == BUILD else match.dragon_slots() if step == DRAGON else [])
        choice = self.current_choice() if step in (BUILD, DRAGON) else None
        for k in range(BOARD_SLOTS):
            rect = board_slot_rect(k)
            builders_board.draw_slot(canvas, state, k, rect, BOARD_CELL)
            if k in open_slots:
                pygame.draw.rect(canvas.surface, drawing.LEGAL, rect.inflate(6, 6), 5 if k == choice else 2,
                                 border_radius=5)

    def draw_others(self, canvas: Canvas) -> None:
        match = self.match
        focus = self.focus_kingdom()
        others = [k for k in range(match.kingdoms) if k != focus]
        last = match.last_move
        names = match.kingdom_names()
        for i, k in enumerate(others):
            recent = last.cells if last is not None and match.kingdom_of(last.player) == k else ()
            score = f": {int(match.state.scores[0, k])}"
            if not self.layout.queendomino:
                origin, cell = thumbnail(self.rules.frame, i, len(others))
                drawing.draw_king(canvas.surface, (origin[0] + 10, origin[1] - 14), 24, k)
                name = elide(match.names[k], RIGHT_WIDTH - 26 - drawing.font(26).size(score)[0], 26)
                canvas.text(f"{name}{score}", (origin[0] + 26, origin[1] - 14), 26, anchor="midleft")
                drawing.draw_kingdom(canvas.surface, match.state, 0, k, origin, cell, recent=recent)
                continue
            box, cell = queen_thumbnail(self.rules.grid, i, len(others))
            x = self.draw_kings(canvas, k, (box.x + 10, box.y + 10), 20) + 6
            size = 22 if box.w > 200 else 20
            name = elide(names[k], box.right - x - drawing.font(size).size(score)[0], size)
            canvas.text(f"{name}{score}", (x, box.y + 10), size, anchor="midleft")
            drawing.draw_purse(canvas.surface, match.state, 0, k, pygame.Rect(box.x + 2, box.y + 22, box.w - 4, 20))
            drawing.draw_kingdom_window(canvas.surface, match.state, 0, k, (box.x + 2, box.y + 46), cell, recent)

    def status_lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        """The lines under the large kingdom (and the Builders' Board) and their colours."""
        match = self.match
        lines: list[tuple[str, tuple[int, int, int]]] = []
        mover = match.mover
        step = self.human_step()
        if match.game_over:
            lines.append(("Game over.", MUTED))
        elif step is not None:
            lines.extend((line, MUTED) for line in self.step_lines(step))
        elif self.human_picking():
            keys = f"1-{min(self.rules.line_size, 9)}"
            lines.append((f"{match.names[mover]}: pick a domino of the next line (click it, or press {keys}).",
                          MUTED))
        elif self.human_placing():
            if placement.must_discard(match.mask(), self.rules):
                lines.append((f"No legal placement for {match.domino_name(match.held_domino)}: it must be "
                              "discarded.", MUTED))
            else:
                lines.append(("Arrows move the domino, R rotates it, Enter places it.", MUTED))
                lines.append(("Green: where its first square may go (click one).", MUTED))
        else:
            seat = match.seats[mover]
            lines.append((f"{seat.name} ({seat.kind}) is thinking...", MUTED))
        if self.loading():
            assert self.job is not None
            lines.append((f"Preparing {self.job.label}: loading and compiling... {self.job.elapsed():.0f} s", ACCENT))
        if self.agent_error:
            lines.append((self.agent_error, ERROR))
        if match.last_move is not None:
            lines.append((f"Last move: {match.last_move.describe(match.names)}.", MUTED))
        return lines

    def step_lines(self, step: int) -> list[str]:
        """What the human to move may do in a Queendomino step, with what each choice costs or brings (read from
        the core by `Match.preview`)."""
        match, rules = self.match, self.rules
        coins = int(match.state.coins[0, match.kingdom_of(match.mover)])
        choice = self.current_choice()
        if step == KNIGHT_STEP:
            placed = match.placed_cells()
            lines = ["Send a knight: click a square of the new domino, or Done."]
            for i in match.knight_squares():
                kingdom = match.kingdom_of(match.mover)
                terrain = int(match.state.terrain[0, kingdom, placed[i][0], placed[i][1]]) if placed else 0
                where = ("First", "Second")[i] + (f" square ({QUEEN_TERRAINS[terrain - 1]})" if terrain else " square")
                mark = "  <- chosen" if i == choice else ""
                lines.append(f"{where}: tax +{coins_text(match.preview(rules.knight_action(i)).coins)}{mark}")
            return lines
        if step == BUILD:
            if choice is None:
                return [f"Build ({coins_text(coins)} to spend): click a green tile of the board,",
                        "then a green town square; Done to skip."]
            return self.build_lines(choice)
        if choice is None:
            return [f"The Dragon ({coins_text(coins)} to spend): click a tile to burn,",
                    "then Send the Dragon; or Done."]
        tile = match.slot_tile(choice)
        cost = -match.preview(rules.dragon_action(choice)).coins
        return [f"Burn {rules.building_deck.names[tile]} (slot {choice}) for {coins_text(cost)}?",
                "Send the Dragon confirms; another tile changes the choice."]

    def build_lines(self, slot: int) -> list[str]:
        """The chosen tile: its cost (with the Queen's discount when it applies), its effects and what building it
        changes, read from the core on a copy of the state."""
        match, rules = self.match, self.rules
        tile = match.slot_tile(slot)
        row, col = match.build_squares(slot)[0]
        preview = match.preview(rules.build_action(slot, row, col))
        cost = -preview.coins
        discount = f" ({slot} - {slot - cost}, the Queen's discount)" if cost < slot else ""
        lines = [f"{rules.building_deck.names[tile]}: costs {coins_text(cost)}{discount}."]
        effects = building_effects(rules.building_deck, tile)
        if effects:
            lines += wrap("Effects: " + ", ".join(effects) + ".", CENTRE_WIDTH, 22)
        queen = " (it brings you the Queen)" if preview.queen_after and not preview.queen_before else ""
        lines.append(f"Click a green town square to build it{queen}.")
        return lines

    def draw_status(self, canvas: Canvas) -> None:
        lay = self.layout
        if lay.queendomino:
            y = lay.controls_y + (96 if self.human_placing() else 56 if self.human_step() is not None else 4)
        else:
            y = CONTROLS_Y + 122 if self.human_placing() else CONTROLS_Y + 10
        step = 24 if lay.queendomino else 26
        room = (HEIGHT_LIMIT - y) // step
        for line, colour in self.status_lines()[:room]:
            canvas.text(elide(line, CENTRE_WIDTH, 22), (FOCUS_ORIGIN[0], y), 22, colour)
            y += step


__all__ = ["Layout", "PlayScreen", "board_slot_rect", "draw_spinner", "focus_cell", "focus_cell_rect", "layout",
           "next_slot_rect", "queen_thumbnail", "thumbnail"]
