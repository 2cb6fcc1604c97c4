"""The app: a state machine of screens, driven one frame at a time, and `run`, its window and main loop.

`App.step(events, dt)` hands each pygame event to the current screen and advances time; `App.draw(surface)`
draws the current screen (on a logical WIDTH x HEIGHT surface) and returns the texts it drew. Tests drive an App
with their own events and no window; `run` pumps real events into the same two calls and scales the drawing into
its resizable window. Agents think in worker threads (`thinking`), so a frame never waits for them; `settle`
waits (tests, screenshots). The game in progress is autosaved after every action (`saves.write_autosave`).

SIGTERM (or Ctrl-C in the terminal) ends the app without a dialog: the game in progress is written to the autosave,
a line on stderr says where (or why it could not be), and the process ends with status 130 at once, without
waiting for worker threads, as `kingdomino tournament` exits when interrupted; a second signal ends it at once.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from kingdomino_env.rules import Rules  # noqa: E402

from . import saves  # noqa: E402
from .hints import HINT_SECONDS, HintAdvisor  # noqa: E402
from .match import Match  # noqa: E402
from .review import Review  # noqa: E402
from .screens.analysis import AnalysisScreen  # noqa: E402
from .screens.base import Screen  # noqa: E402
from .screens.dominoes import DominoesScreen  # noqa: E402
from .screens.load import LoadScreen  # noqa: E402
from .screens.menu import MenuScreen  # noqa: E402
from .screens.new_game import NewGameScreen  # noqa: E402
from .screens.play import PlayScreen  # noqa: E402
from .screens.quit import QuitScreen  # noqa: E402
from .screens.rules import RulesScreen  # noqa: E402
from .screens.save import SaveScreen  # noqa: E402
from .screens.scores import ScoresScreen  # noqa: E402
from .seats import Seat, SeatAgent, distinct_names, make_agent, parse_seat  # noqa: E402
from .thinking import lazy  # noqa: E402
from .ui import HEIGHT, WIDTH, Canvas, Drawn  # noqa: E402
from .window import fit_window, letterbox, to_logical_event  # noqa: E402

#: Seconds an agent's action stays on screen before the next one.
DEFAULT_PACE = 0.6
#: The name inside the autosave of a game never saved under a name.
AUTOSAVE_NAME = saves.AUTOSAVE_NAME
#: Seconds the advisor thinks about each decision in the analysis view.
ANALYSIS_SECONDS = 0.3
#: Seconds `App.settle` waits for the agents by default.
SETTLE_TIMEOUT = 60.0
#: The exit status after SIGTERM or Ctrl-C (that of an interrupted `kingdomino tournament`).
INTERRUPTED_STATUS = 130
#: The signals that end the app, its game kept in the autosave.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
#: Whether an App warms its hint engine up when a game with a human opens (`App(prepare_hints=...)` overrides it;
#: the app tests turn it off, but for the tests of that warm-up, so that no advisor loads behind their backs).
PREPARE_HINTS = True


class App:
    """The screens and what they share: where saves go, the agents' pace, the seed of new games.

    agent_factory: makes a seat's agent from its spec and seed; the default makes `thinking.LazyAgent`s over
    `seats.make_agent`, loaded in a worker thread when a game starts (a factory given here is called as it is).
    hint_spec, hint_seconds: the advisor of hints and of the analysis view (None: `agents.advice.default_spec`)
    and its seconds per hint; analysis_seconds: its seconds per decision in the analysis view (None: the spec's own
    budget). prepare_hints: make and warm the advisor up in a worker as soon as a game with a human opens (None:
    `PREPARE_HINTS`).
    """

    def __init__(self, saves_dir: Path | str | None = None, pace: float = DEFAULT_PACE, seed: int | None = None,
                 agent_factory: Callable[[str, int | None], SeatAgent] | None = None, hint_spec: str | None = None,
                 hint_seconds: float | None = HINT_SECONDS, analysis_seconds: float | None = ANALYSIS_SECONDS,
                 prepare_hints: bool | None = None):
        self.saves_dir = Path(saves_dir) if saves_dir is not None else saves.default_dir()
        self.pace = float(pace)
        self.seed = seed
        self.agent_factory = agent_factory if agent_factory is not None else lazy(make_agent)
        self.hints = HintAdvisor(hint_spec, hint_seconds)
        self.prepare_hints = PREPARE_HINTS if prepare_hints is None else bool(prepare_hints)
        self.analysis_seconds = analysis_seconds
        self.running = True
        self.mouse = (-1, -1)
        self.notice = ""
        #: Why the last autosave failed ("" when it worked): shown small on the play screen, never raised.
        self.autosave_error = ""
        self.texts: list[str] = []
        #: The texts of the last frame drawn, with their boxes (what a test checks for text that does not fit).
        self.drawn: list[Drawn] = []
        self.screen: Screen = MenuScreen(self)

    # Navigation.
    def go(self, screen: Screen) -> None:
        self.screen = screen

    def show_menu(self) -> None:
        self.go(MenuScreen(self))

    def show_new_game(self) -> None:
        self.notice = ""
        self.go(NewGameScreen(self))

    def show_dominoes(self, back: Screen, game: str = "kingdomino") -> None:
        """Browse the dominoes of `game`'s box (the Royal Wedding's two boxes in turn)."""
        self.go(DominoesScreen(self, back, game))

    def show_load(self) -> None:
        self.notice = ""
        self.go(LoadScreen(self))

    def show_rules(self, back: Screen | None = None) -> None:
        self.go(RulesScreen(self, back))

    def show_play(self, match: Match) -> None:
        """The table of `match`; the scores when its current game is over (a save made between Dynasty games)."""
        if match.game_over:
            self.show_scores(match)
        else:
            self.go(PlayScreen(self, match))

    def show_save(self, match: Match, back: Screen, quit_after: bool = False) -> None:
        self.go(SaveScreen(self, match, back, quit_after))

    def show_scores(self, match: Match) -> None:
        self.go(ScoresScreen(self, match))

    def show_analysis(self, record: dict[str, Any], seats: Sequence[Seat], back: Screen) -> None:
        """Look again at the game of `record` between `seats` with the advisor; Back returns to `back`."""
        self.go(AnalysisScreen(self, Review(record, seats), back))

    def quit(self) -> None:
        self.running = False

    def match_in_progress(self) -> Match | None:
        """The match of the current screen unless there is none or it is over (then nothing would be lost)."""
        match = getattr(self.screen, "match", None)
        return match if isinstance(match, Match) and not match.match_over else None

    def ask_quit(self) -> None:
        """Quit, or first ask Save / Main menu / Quit without saving / Cancel when a game is in progress (asked
        once)."""
        match = self.match_in_progress()
        if match is None or isinstance(self.screen, QuitScreen):
            self.quit()
        else:
            self.go(QuitScreen(self, match, self.screen))

    # The autosave.
    def autosave(self, match: Match) -> None:
        """Write `match` to the autosave slot, under the match's name when it has one (so that a named game
        continued from its autosave keeps its name); a failure only sets `autosave_error` (the game goes on)."""
        try:
            saves.write_autosave(self.saves_dir, match.to_save(match.name or AUTOSAVE_NAME))
        except (OSError, ValueError) as err:
            self.autosave_error = f"Autosave failed: {err}"
        else:
            self.autosave_error = ""

    @property
    def autosave_path(self) -> Path:
        """The autosave's file (`saves.AUTOSAVE_FILE` in the saves folder)."""
        return self.saves_dir / saves.AUTOSAVE_FILE

    def keep_in_autosave(self, match: Match) -> str | None:
        """Write `match` to the autosave now, before it leaves the screen (Main menu) or the app ends (SIGTERM),
        whatever was autosaved before; returns why it failed, None once it is written."""
        self.autosave(match)
        return self.autosave_error or None

    def clear_autosave(self) -> None:
        """Remove the autosave (the game was saved under a name, abandoned on purpose, or is over)."""
        try:
            saves.clear_autosave(self.saves_dir)
        except OSError as err:
            self.autosave_error = f"Could not remove the autosave: {err}"

    # Frames.
    def step(self, events: Iterable[pygame.event.Event] = (), dt: float = 0.0) -> None:
        """Handle `events`, then let `dt` seconds pass (agents move when their time has come)."""
        for event in events:
            if event.type == pygame.QUIT:
                self.ask_quit()
                if not self.running:
                    return
                continue
            if event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN):
                self.mouse = event.pos
            self.screen.handle(event)
        self.screen.update(dt)

    def settle(self, timeout: float = SETTLE_TIMEOUT) -> None:
        """Step frames of no time until no agent is thinking or loading (TimeoutError after `timeout` seconds)."""
        deadline = time.monotonic() + timeout
        while True:
            self.step([], 0.0)
            job = self.screen.pending()
            if job is None or not self.running:
                return
            left = deadline - time.monotonic()
            if left <= 0 or not job.wait(left):
                raise TimeoutError(f"the agents were still busy after {timeout} s ({job.label})")

    def draw(self, surface: pygame.Surface) -> list[str]:
        """Draw the current screen on `surface`; returns the texts drawn, in order."""
        canvas = Canvas(surface, self.mouse)
        self.screen.draw(canvas)
        self.texts = canvas.texts
        self.drawn = canvas.drawn
        return canvas.texts


class StopSignals:
    """Turns SIGTERM and Ctrl-C into a request to stop (`received`), read by the main loop between two frames: SDL
    would turn SIGTERM into a window-close event, which asks before quitting. A second signal ends the process at
    once. Installed in the main thread only (the only one that may handle signals); a signal the caller ignores
    stays ignored."""

    def __init__(self) -> None:
        self.received: int | None = None
        self._before: dict[int, Any] = {}

    def install(self, ignored: Iterable[int] = ()) -> None:
        """Handle `STOP_SIGNALS` but those in `ignored` (call after `pygame.init`, which installs SDL's handler)."""
        if threading.current_thread() is not threading.main_thread():
            return
        for number in STOP_SIGNALS:
            if number not in ignored:
                self._before[number] = signal.signal(number, self._handle)

    def restore(self) -> None:
        """Put back the handlers there were before `install`."""
        for number, handler in self._before.items():
            signal.signal(number, handler)
        self._before.clear()

    def _handle(self, signum: int, frame: Any) -> None:
        if self.received is not None:
            os._exit(INTERRUPTED_STATUS)
        self.received = signum


def stop_line(app: App, signum: int) -> str:
    """Keep the game in progress in the autosave as the app ends on signal `signum`; returns the line that says so
    (where it is, or why it could not be written)."""
    name = signal.Signals(signum).name
    match = app.match_in_progress()
    if match is None:
        return f"Stopped by {name}; no game was in progress."
    error = app.keep_in_autosave(match)
    if error is not None:
        return f"Stopped by {name}; the game could not be kept: {error}"
    return f"Stopped by {name}; the game is kept as the autosave ({app.autosave_path}): Load Game continues it."


def run(saves_dir: Path | str | None = None, pace: float = DEFAULT_PACE, seed: int | None = None,
        seats: Sequence[str] | None = None, rules: Rules | None = None, dynasty: bool = False, fps: int = 30,
        max_frames: int | None = None) -> None:
    """Open the game window and play until Quit.

    saves_dir: where saves go (default `$KINGDOMINO_SAVES` or ~/.kingdomino/saves). pace: seconds per agent
    action. seed: deals new games (same seed and moves, same games). seats: start a game at once instead of the
    menu, one entry per player: ``human``, ``human:NAME`` or an agent spec (``greedy``, ``mcts:0.5``, ``ppo``).
    rules: that game's variant, of any game (default: Kingdomino for the seats); its players must be the seats'
    count. max_frames: stop after that many frames (for smoke tests). SIGTERM or Ctrl-C keeps the game in progress
    in the autosave and ends the process with `INTERRUPTED_STATUS` (`end_process`).
    """
    # The seats and the variant are checked before the window opens (ValueError for a bad one).
    seated = distinct_names([parse_seat(s, i) for i, s in enumerate(seats or ())])
    if rules is not None and rules.players != len(seated):
        raise ValueError(f"the rules are for {rules.players} players but {len(seated)} seats were given")
    if seated and rules is None:
        rules = Rules(players=len(seated))
    ignored = [number for number in STOP_SIGNALS if signal.getsignal(number) is signal.SIG_IGN]
    stop = StopSignals()
    pygame.init()
    try:
        window = pygame.display.set_mode(fit_window(desktop_size()), pygame.RESIZABLE)
        stop.install(ignored)
        pygame.display.set_caption("Kingdomino")
        logical = pygame.Surface((WIDTH, HEIGHT))
        app = App(saves_dir, pace, seed)
        if rules is not None:
            app.show_play(Match(seated, rules, dynasty=dynasty, seed=seed, agent_factory=app.agent_factory))
        clock = pygame.time.Clock()
        frames = 0
        while app.running and (max_frames is None or frames < max_frames):
            dt = clock.tick(fps) / 1000.0
            if stop.received is not None:
                print(stop_line(app, stop.received), file=sys.stderr, flush=True)
                break
            events = pygame.event.get()
            if any(e.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED) for e in events):
                window = pygame.display.get_surface()
            size = window.get_size()
            app.step([to_logical_event(e, size) for e in events], dt)
            if not app.running:
                break
            app.draw(logical)
            present(window, logical)
            pygame.display.flip()
            frames += 1
    finally:
        stop.restore()
        pygame.quit()
    if stop.received is not None:
        end_process(INTERRUPTED_STATUS)


def end_process(status: int) -> None:
    """End the process now with `status`, its output flushed. Used once the app has stopped on a signal and kept
    its game: an agent's or the hint engine's worker thread (loading torch, say) can hold the interpreter for
    seconds, and waiting for it would break the promise to exit within a frame or so; nothing else is left to
    write (saves are written on the main thread only)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed or broken stream: nothing more can be said on it
            pass
    os._exit(status)


def desktop_size() -> tuple[int, int] | None:
    """The size of the first desktop, None when the video driver does not say."""
    try:
        sizes = pygame.display.get_desktop_sizes()
    except pygame.error:
        return None
    return tuple(sizes[0]) if sizes and min(sizes[0]) > 0 else None  # type: ignore[return-value]


def present(window: pygame.Surface, logical: pygame.Surface) -> None:
    """Draw the logical surface into the window, scaled to fit and centred (bars where the shapes differ)."""
    x, y, w, h = letterbox(window.get_size())
    if (w, h) == logical.get_size():
        window.blit(logical, (x, y))
        return
    window.fill((0, 0, 0))
    if w > 0 and h > 0:
        window.blit(pygame.transform.smoothscale(logical, (w, h)), (x, y))


__all__ = ["ANALYSIS_SECONDS", "AUTOSAVE_NAME", "DEFAULT_PACE", "INTERRUPTED_STATUS", "PREPARE_HINTS", "STOP_SIGNALS",
           "App", "StopSignals", "desktop_size", "end_process", "present", "run", "stop_line"]
