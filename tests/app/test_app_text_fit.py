"""Every text fits its box on every screen, in all three games, with 16-character player names: each text drawn is
recorded with its box (`Canvas.drawn`) and must be whole (not elided) and inside its box and the window.

The app draws on a logical 1280 x 800 surface scaled into the window (`window.letterbox`), so the boxes are checked
in logical pixels once per screen, and each screen is also presented into 1366 x 768 and 1280 x 800 windows, where
the picture must fit whole."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from kingdomino_app import saves
from kingdomino_app.app import App, present
from kingdomino_app.match import Match
from kingdomino_app.review import Review
from kingdomino_app.screens.analysis import AnalysisScreen
from kingdomino_app.screens.new_game import NewGameScreen
from kingdomino_app.screens.play import PlayScreen, board_slot_rect
from kingdomino_app.seats import Seat
from kingdomino_app.ui import HEIGHT, WIDTH
from kingdomino_app.window import letterbox
from kingdomino_env.games.queendomino.kernels import BUILD, DRAGON, KNIGHT_STEP
from kingdomino_env.rules import Rules
from tests.app.driver import Driver
from tests.app.textfit import LONG_NAMES, misfits

WINDOWS = ((1366, 768), (1280, 800))
GAMES = {
    "kingdomino 4": Rules(4, harmony=True, middle_kingdom=True, random_quests=2),
    "mighty duel": Rules(2, mighty_duel=True),
    "queendomino 4": Rules(4, game="queendomino"),
    "royal wedding 8": Rules(8, game="royal_wedding"),
    "royal wedding teams": Rules(8, game="royal_wedding", teams=True),
}
NEW_GAME_BUTTONS = {"kingdomino": "Kingdomino", "queendomino": "Queendomino", "royal_wedding": "Royal Wedding"}


class Checker:
    """Draws the app's current screen, checks its texts and presents it into each window size."""

    def __init__(self, driver: Driver):
        self.driver = driver
        self.seen: list[str] = []

    def check(self, what: str) -> None:
        self.driver.frame()
        bad = misfits(self.driver.app.drawn)
        assert not bad, f"{what}: {bad}"
        for size in WINDOWS:
            window = pygame.Surface(size)
            present(window, self.driver.surface)
            x, y, w, h = letterbox(size)
            assert x >= 0 and y >= 0 and x + w <= size[0] and y + h <= size[1] and w * HEIGHT == pytest.approx(
                h * WIDTH, rel=0.01)
        self.seen.append(what)


def advance(match: Match, rng: np.random.Generator, until) -> None:
    """Play random legal actions for every seat until `until(match)` or the game ends."""
    while not match.game_over and not until(match):
        match.play(int(rng.choice(np.flatnonzero(match.mask()))))


@pytest.mark.parametrize("game", list(GAMES))
def test_every_text_fits_on_every_screen(tmp_path, game):
    rules = GAMES[game]
    app = App(saves_dir=tmp_path, pace=0, seed=3, hint_spec="mc:p4", hint_seconds=0.05, analysis_seconds=0.01)
    driver, checker = Driver(app), None
    checker = Checker(driver)
    checker.check("menu")
    app.show_rules()
    checker.check("rules")
    app.show_new_game()
    screen = app.screen
    assert isinstance(screen, NewGameScreen)
    driver.click(NEW_GAME_BUTTONS[rules.game])
    driver.click(f"{rules.players} players")
    if rules.teams:
        driver.click("Teams: Off")
    for seat in range(rules.players):
        driver.click_at(screen.fields[seat].rect.center)
        driver.clear_and_type(LONG_NAMES[seat])
    checker.check("new game")
    driver.click_at([b for b in screen.buttons() if b.label == "Spec"][1].rect.center)
    driver.clear_and_type("az:0.5s:/no/such/network/file/anywhere.az")
    driver.key(pygame.K_RETURN)
    assert screen.error
    checker.check("new game, a refused spec")
    app.show_dominoes(screen, rules.game)
    checker.check("dominoes")

    seats = [Seat(LONG_NAMES[0])] + [Seat(LONG_NAMES[i], "random") for i in range(1, rules.players)]
    match = Match(seats, rules, seed=5, agent_factory=app.agent_factory)
    rng = np.random.default_rng(1)
    app.show_play(match)
    phases = [("picking", lambda m: m.human_to_move() and not m.placing and m.forced_action() is None),
              ("placing", lambda m: m.human_to_move() and m.placing and m.forced_action() is None)]
    if rules.is_queendomino:
        phases += [(name, lambda m, p=phase: m.human_to_move() and m.phase == p)
                   for name, phase in (("knight", KNIGHT_STEP), ("build", BUILD), ("dragon", DRAGON))]
    for name, reached in phases:
        advance(match, rng, reached)
        if match.game_over:
            continue
        play = app.screen
        assert isinstance(play, PlayScreen)
        checker.check(f"play, {name}")
        if match.phase == BUILD and match.buildable_slots():
            play.choose_slot(match.buildable_slots()[0])
            checker.check("play, a tile chosen")
        driver.key(pygame.K_h)
        assert play.current_hint() is not None
        checker.check(f"play, {name} with a hint")
        if rules.is_queendomino:
            driver.frame([pygame.event.Event(pygame.MOUSEMOTION, pos=board_slot_rect(5).center, rel=(0, 0),
                                             buttons=(0, 0, 0))])
            checker.check("play, a tile's details")
    saves.write(tmp_path, match.to_save("A game of " + LONG_NAMES[0]))
    app.show_save(match, app.screen)
    checker.check("save")
    app.ask_quit()
    checker.check("quit")
    app.show_load()
    checker.check("load")
    record = {key: value for key, value in match.record().items() if key != "scores"}
    app.go(AnalysisScreen(app, Review({**record, "actions": record["actions"][:16]}, match.seats), app.screen))
    checker.check("analysis, in progress")
    driver.settle()
    checker.check("analysis")
    advance(match, rng, lambda m: False)
    app.show_scores(match)
    checker.check("scores")
    assert len(checker.seen) >= 14
