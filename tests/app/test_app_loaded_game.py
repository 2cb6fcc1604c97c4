"""A loaded game is the game that was saved: its name (Quit says it is saved, Save proposes it and replaces its own
file), its move log (replayed from the record's actions), and the quit dialog's way back to the main menu."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pygame

from kingdomino_app import saves
from kingdomino_app.match import Match
from kingdomino_app.screens.load import LoadScreen
from kingdomino_app.screens.menu import MenuScreen
from kingdomino_app.screens.play import PlayScreen
from kingdomino_app.screens.quit import QuitScreen
from kingdomino_app.screens.save import SaveScreen
from kingdomino_app.seats import Seat
from kingdomino_env.rules import Rules
from tests.app.driver import Driver

QUIT = pygame.event.Event(pygame.QUIT)


def played(driver: Driver, rules: Rules | None = None, turns: int = 4) -> Match:
    """Ann (human) against Greedy (Kingdomino unless `rules`): `turns` of Ann's turns played through the play
    screen, Greedy moving between."""
    rules = Rules() if rules is None else rules
    seats = [Seat("Ann")] + [Seat(f"Greedy {i}", "greedy") for i in range(1, rules.players)]
    match = Match(seats, rules, seed=8, agent_factory=driver.app.agent_factory)
    driver.app.show_play(match)
    driver.frame()
    rng = np.random.default_rng(1)
    for _ in range(turns):
        driver.human_turn(rng, use_keys=False)
    return match


def load(driver: Driver, title: str) -> PlayScreen:
    """Open Load Game, select the entry `title` (the autosave's title for the autosave) and continue it."""
    driver.app.show_load()
    screen = driver.app.screen
    assert isinstance(screen, LoadScreen)
    screen.selected = next(i for i, s in enumerate(screen.saves)
                           if (saves.AUTOSAVE_TITLE if s.autosave else s.name) == title)
    driver.click("Continue Game")
    play = driver.app.screen
    assert isinstance(play, PlayScreen)
    return play


def test_a_loaded_game_shows_its_moves_and_keeps_its_name(driver):
    match = played(driver)
    log = [m.describe(match.names) for m in match.moves]
    assert len(log) >= 6
    saves.write(driver.app.saves_dir, match.to_save("Friday night"))
    driver.app.show_menu()
    play = load(driver, "Friday night")
    texts = driver.frame()
    assert "(none yet)" not in texts
    assert play.log_moves() == log, "the move log is the game's, replayed from the save"
    assert log[-1] in texts and f"Last move: {log[-1]}." in texts
    texts = driver.frame([QUIT])
    assert isinstance(driver.app.screen, QuitScreen)
    assert "This game is saved as 'Friday night'." in texts
    assert "This game is not saved under a name." not in texts
    driver.click("Cancel")
    driver.human_turn(np.random.default_rng(2), use_keys=False)
    texts = driver.frame([QUIT])
    assert any(t.startswith("This game is saved as 'Friday night', without its last ") for t in texts)
    driver.click("Cancel")
    driver.click("Save & Quit")
    screen = driver.app.screen
    assert isinstance(screen, SaveScreen) and screen.field.value == "Friday night", "Save proposes the game's name"
    driver.click("Save & Quit")
    assert screen.confirm is None, "the game's own save is replaced without asking"
    assert isinstance(driver.app.screen, MenuScreen)
    written = saves.read(saves.path_for(driver.app.saves_dir, "Friday night"))
    assert written.record == play.match.record() and written.name == "Friday night"


def test_saving_a_loaded_game_under_its_name_asks_when_the_file_holds_another_game(driver):
    match = played(driver, turns=2)
    saves.write(driver.app.saves_dir, match.to_save("Derby"))
    driver.app.show_menu()
    play = load(driver, "Derby")
    other = Match([Seat("Bo"), Seat("Cy", "random")], Rules(), seed=99)
    saves.write(driver.app.saves_dir, other.to_save("Derby"), overwrite=True)
    driver.click("Save & Quit")
    texts = driver.click("Save & Quit")
    assert any("A save named like 'Derby' exists" in t for t in texts), "another game's file is not replaced unasked"
    assert saves.read(saves.path_for(driver.app.saves_dir, "Derby")).seats == other.seats
    driver.click("Replace & Quit")
    assert saves.read(saves.path_for(driver.app.saves_dir, "Derby")).record == play.match.record()


def test_the_autosave_of_a_named_game_keeps_its_name(driver):
    match = played(driver, turns=2)
    saves.write(driver.app.saves_dir, match.to_save("Derby"))
    driver.app.show_menu()
    play = load(driver, "Derby")
    driver.human_turn(np.random.default_rng(3), use_keys=False)
    autosave = json.loads((driver.app.saves_dir / saves.AUTOSAVE_FILE).read_text())
    assert autosave["name"] == "Derby" and autosave["format"] == saves.FORMAT
    moves = play.log_moves()
    driver.app.show_menu()
    play = load(driver, saves.AUTOSAVE_TITLE)
    assert play.match.name == "Derby" and play.log_moves() == moves
    texts = driver.frame([QUIT])
    assert "This game is 'Derby'; that save may not hold its latest moves." in texts
    driver.click("Cancel")
    driver.click("Save & Quit")
    assert driver.app.screen.field.value == "Derby"


def test_the_autosave_of_an_unnamed_game_stays_unnamed(driver):
    played(driver, turns=2)
    driver.app.show_menu()
    play = load(driver, saves.AUTOSAVE_TITLE)
    assert play.match.name is None and play.log_moves()
    texts = driver.frame([QUIT])
    assert "This game is not saved under a name." in texts


def test_a_forced_pick_reads_the_same_once_loaded(driver):
    """A human's only choice, played for them, is marked "(only choice)" in the log, before and after loading."""
    match = Match([Seat("Ann"), Seat("Greedy", "greedy")], Rules(), seed=8, agent_factory=driver.app.agent_factory)
    driver.app.show_play(match)
    rng = np.random.default_rng(4)
    while not match.game_over and not any(m.forced for m in match.moves):
        if match.human_to_move() and match.forced_action() is None:
            driver.human_turn(rng, use_keys=False)
        else:
            driver.frame(dt=1.0)
    log = [m.describe(match.names) for m in match.moves]
    assert any(line.endswith("(only choice)") for line in log)
    loaded = Match.from_save(saves.check(match.to_save("x")))
    assert [m.describe(loaded.names) for m in loaded.moves] == log
    assert loaded.record() == match.record() and loaded.last_move == match.last_move


def test_a_loaded_queendomino_game_shows_its_steps(driver):
    match = played(driver, Rules(game="queendomino"), turns=6)
    loaded = Match.from_save(saves.check(match.to_save("Q")))
    assert [dataclasses.replace(m, forced=False) for m in loaded.moves] == match.moves, \
        "each move reads as when it was played (a pick the test made itself is not marked as played for Ann)"
    np.testing.assert_array_equal(loaded.state.scores, match.state.scores)
    assert loaded.record() == match.record()


def test_main_menu_leaves_the_game_in_the_autosave(driver):
    match = played(driver, turns=2)
    driver.frame([QUIT])
    texts = driver.click("Main menu")
    assert isinstance(driver.app.screen, MenuScreen) and driver.app.running, "the app stays open"
    assert any("autosave" in t for t in texts)
    assert (driver.app.saves_dir / saves.AUTOSAVE_FILE).exists()
    play = load(driver, saves.AUTOSAVE_TITLE)
    assert play.match.record() == match.record()
    driver.click("Quit")
    driver.key(pygame.K_m)
    assert isinstance(driver.app.screen, MenuScreen), "M is the key of Main menu"
