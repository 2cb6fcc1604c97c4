"""Outside agents in the play app: a spec typed in the New Game screen's Spec field, and a save whose seat is one."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from kingdomino_app import saves
from kingdomino_app.match import Match
from kingdomino_app.screens.load import LoadScreen
from kingdomino_app.screens.new_game import NewGameScreen
from kingdomino_app.screens.play import PlayScreen
from kingdomino_app.screens.scores import ScoresScreen
from kingdomino_app.seats import Seat
from kingdomino_env.rules import Rules
from tests.external_bots import use_bots


@pytest.fixture
def bots(tmp_path, monkeypatch):
    return use_bots(tmp_path, monkeypatch)


def test_an_outside_agent_typed_as_a_spec_is_checked_and_plays(driver, bots):
    driver.click("New Game")
    screen = driver.app.screen
    assert isinstance(screen, NewGameScreen)
    spec_buttons = [b for b in screen.buttons() if b.label == "Spec"]
    driver.click_at(spec_buttons[1].rect.center)
    driver.clear_and_type("bots:FirstLegl")
    driver.key(pygame.K_RETURN)
    assert screen.spec_seat == 1 and "did you mean 'FirstLegal'?" in screen.error, screen.error
    driver.clear_and_type("bots:FirstLegal")
    texts = driver.key(pygame.K_RETURN)
    assert screen.spec_seat is None and screen.kinds[1] == "bots:FirstLegal" and "Agent: bots:FirstLegal" in texts
    screen.kinds[0] = f"{bots}:first_legal"
    driver.click("Start Game")
    for _ in range(200):
        if not isinstance(driver.app.screen, PlayScreen):
            break
        driver.frame(dt=1.0)
    assert isinstance(driver.app.screen, ScoresScreen), "the two outside agents played the game to its end"


def test_a_save_whose_seat_is_an_outside_agent_loads_again(driver, bots):
    match = Match([Seat("Ann"), Seat("Bot", "bots:FirstLegal"), Seat("File", f"{bots}:make")], Rules(3), seed=4)
    rng = np.random.default_rng(4)
    for _ in range(6):
        match.play(int(rng.choice(np.flatnonzero(match.mask()))))
    saves.write(driver.app.saves_dir, match.to_save("outside"))
    loaded = saves.read(driver.app.saves_dir / "outside.json")
    assert [s.kind for s in loaded.seats] == ["human", "bots:FirstLegal", f"{bots}:make"]
    assert Match.from_save(loaded).record() == match.record()
    driver.click("Load Game")
    screen = driver.app.screen
    assert isinstance(screen, LoadScreen) and screen.saves[0].error is None
    driver.click("Continue Game")
    assert isinstance(driver.app.screen, PlayScreen)
    assert driver.app.screen.match.names == ["Ann", "Bot", "File"]


def test_a_save_whose_outside_agent_is_gone_says_why_when_it_is_continued(tmp_path, bots):
    """Listing the saves runs no outside code; continuing the game checks its seats and says what is wrong."""
    match = Match([Seat("Ann"), Seat("Bot", "bots:FirstLegal")], Rules(), seed=4)
    data = match.to_save("gone")
    data["seats"][1]["kind"] = "bots:Vanished"
    checked = saves.check(data)
    with pytest.raises(ValueError, match="agent spec 'bots:Vanished': module 'bots' has no attribute 'Vanished'"):
        Match.from_save(checked)
