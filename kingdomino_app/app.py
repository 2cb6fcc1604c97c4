"""The app: a state machine of screens, driven one frame at a time, and `run`, its window and main loop.

`App.step(events, dt)` hands each pygame event to the current screen and advances time; `App.draw(surface)`
draws the current screen and returns the texts it drew. Tests drive an App with their own events and no window;
`run` pumps real events into the same two calls.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from . import saves  # noqa: E402
from .match import Match, Options  # noqa: E402
from .screens.base import Screen  # noqa: E402
from .screens.dominoes import DominoesScreen  # noqa: E402
from .screens.load import LoadScreen  # noqa: E402
from .screens.menu import MenuScreen  # noqa: E402
from .screens.new_game import NewGameScreen  # noqa: E402
from .screens.play import PlayScreen  # noqa: E402
from .screens.rules import RulesScreen  # noqa: E402
from .screens.save import SaveScreen  # noqa: E402
from .screens.scores import ScoresScreen  # noqa: E402
from .seats import SeatAgent, make_agent, parse_seat  # noqa: E402
from .ui import HEIGHT, WIDTH, Canvas  # noqa: E402

#: Seconds an agent's action stays on screen before the next one.
DEFAULT_PACE = 0.6


class App:
    """The screens and what they share: where saves go, the agents' pace, the seed of new games."""

    def __init__(self, saves_dir: Path | str | None = None, pace: float = DEFAULT_PACE, seed: int | None = None,
                 agent_factory: Callable[[str, int | None], SeatAgent] = make_agent):
        self.saves_dir = Path(saves_dir) if saves_dir is not None else saves.default_dir()
        self.pace = float(pace)
        self.seed = seed
        self.agent_factory = agent_factory
        self.running = True
        self.mouse = (-1, -1)
        self.notice = ""
        self.texts: list[str] = []
        self.screen: Screen = MenuScreen(self)

    # Navigation.
    def go(self, screen: Screen) -> None:
        self.screen = screen

    def show_menu(self) -> None:
        self.go(MenuScreen(self))

    def show_new_game(self) -> None:
        self.notice = ""
        self.go(NewGameScreen(self))

    def show_dominoes(self, back: Screen) -> None:
        self.go(DominoesScreen(self, back))

    def show_load(self) -> None:
        self.notice = ""
        self.go(LoadScreen(self))

    def show_rules(self, back: Screen | None = None) -> None:
        self.go(RulesScreen(self, back))

    def show_play(self, match: Match) -> None:
        self.go(PlayScreen(self, match))

    def show_save(self, match: Match, back: Screen) -> None:
        self.go(SaveScreen(self, match, back))

    def show_scores(self, match: Match) -> None:
        self.go(ScoresScreen(self, match))

    def quit(self) -> None:
        self.running = False

    # Frames.
    def step(self, events: Iterable[pygame.event.Event] = (), dt: float = 0.0) -> None:
        """Handle `events`, then let `dt` seconds pass (agents move when their time has come)."""
        for event in events:
            if event.type == pygame.QUIT:
                self.quit()
                return
            if event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN):
                self.mouse = event.pos
            self.screen.handle(event)
        self.screen.update(dt)

    def draw(self, surface: pygame.Surface) -> list[str]:
        """Draw the current screen on `surface`; returns the texts drawn, in order."""
        canvas = Canvas(surface, self.mouse)
        self.screen.draw(canvas)
        self.texts = canvas.texts
        return canvas.texts


def run(saves_dir: Path | str | None = None, pace: float = DEFAULT_PACE, seed: int | None = None,
        seats: Sequence[str] | None = None, mighty_duel: bool = False, harmony: bool = False,
        middle_kingdom: bool = False, dynasty: bool = False, fps: int = 30, max_frames: int | None = None) -> None:
    """Open the Kingdomino window and play until Quit.

    saves_dir: where saves go (default `$KINGDOMINO_SAVES` or ~/.kingdomino/saves). pace: seconds per agent
    action. seed: deals new games (same seed and moves, same games). seats: start a game at once instead of the
    menu, one entry per player: ``human``, ``human:NAME`` or an agent spec (``greedy``, ``mcts:0.5``, ``ppo``);
    the variant flags apply to that game. max_frames: stop after that many frames (for smoke tests).
    """
    pygame.init()
    try:
        window = pygame.display.set_mode((WIDTH, HEIGHT))
        pygame.display.set_caption("Kingdomino")
        app = App(saves_dir, pace, seed)
        if seats:
            options = Options(mighty_duel, harmony, middle_kingdom, dynasty)
            app.show_play(Match([parse_seat(s, i) for i, s in enumerate(seats)], options, seed))
        clock = pygame.time.Clock()
        frames = 0
        while app.running and (max_frames is None or frames < max_frames):
            dt = clock.tick(fps) / 1000.0
            app.step(pygame.event.get(), dt)
            if not app.running:
                break
            app.draw(window)
            pygame.display.flip()
            frames += 1
    finally:
        pygame.quit()


__all__ = ["DEFAULT_PACE", "App", "run"]
