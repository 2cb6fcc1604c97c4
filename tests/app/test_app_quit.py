"""Quitting and the autosave: closing the window mid-game asks Save / Main menu / Quit without saving / Cancel and
each does what it says (Main menu writes the autosave, even of a game loaded from a named save and not played
since, and names its file; if it cannot, the dialog stays and says so); the game in progress is autosaved after
every action and restores exactly; a failed autosave only shows a notice; between two Dynasty games the finished
game is saved and reopens on its scores."""

from __future__ import annotations

import numpy as np
import pygame

from kingdomino_app import saves
from kingdomino_app.app import App
from kingdomino_app.match import Match
from kingdomino_app.screens.load import LoadScreen
from kingdomino_app.screens.menu import MenuScreen
from kingdomino_app.screens.play import PlayScreen
from kingdomino_app.screens.quit import QuitScreen
from kingdomino_app.screens.save import SaveScreen
from kingdomino_app.screens.scores import ScoresScreen
from kingdomino_app.seats import Seat
from kingdomino_env.rules import Rules
from tests.app.driver import Driver

QUIT = pygame.event.Event(pygame.QUIT)


def human_game(driver: Driver, moves: int = 3) -> Match:
    """Ann (human) against Greedy, `moves` of Ann's actions played through the play screen."""
    match = Match([Seat("Ann"), Seat("Greedy", "greedy")], Rules(), seed=8, agent_factory=driver.app.agent_factory)
    driver.app.show_play(match)
    driver.frame()
    rng = np.random.default_rng(0)
    for _ in range(moves):
        driver.human_turn(rng, use_keys=False)
    return match


def autosave_path(driver: Driver):
    return driver.app.saves_dir / saves.AUTOSAVE_FILE


def test_closing_outside_a_game_quits_at_once(driver):
    driver.frame([QUIT])
    assert not driver.app.running


def test_closing_mid_game_asks_and_cancel_returns(driver):
    match = human_game(driver)
    play = driver.app.screen
    texts = driver.frame([QUIT])
    assert isinstance(driver.app.screen, QuitScreen) and driver.app.running
    assert list(driver.buttons()) == ["Save", "Main menu", "Quit without saving", "Cancel"]
    assert "This game is not saved under a name." in texts
    driver.click("Cancel")
    assert driver.app.screen is play and driver.app.running
    driver.click("Quit")
    assert isinstance(driver.app.screen, QuitScreen), "the play screen's Quit button asks too"
    driver.key(pygame.K_ESCAPE)
    assert driver.app.screen is play and not match.game_over


def test_quit_without_saving_drops_the_autosave(driver):
    human_game(driver)
    assert autosave_path(driver).exists()
    driver.frame([QUIT])
    driver.click("Quit without saving")
    assert not driver.app.running and not autosave_path(driver).exists()


def test_save_on_quit_saves_then_quits(driver):
    match = human_game(driver)
    driver.frame([QUIT])
    driver.click("Save")
    assert isinstance(driver.app.screen, SaveScreen)
    driver.clear_and_type("Evening")
    driver.click("Save & Quit")
    assert not driver.app.running
    assert sorted(p.name for p in driver.app.saves_dir.iterdir()) == ["evening.json"], "the autosave is gone"
    assert saves.read(driver.app.saves_dir / "evening.json").record == match.record()


def save_and_reload(driver: Driver, name: str) -> Match:
    """Save the game on the table under `name` (Save & Quit: back to the main menu), then continue it from Load
    Game; returns the loaded match."""
    driver.click("Save & Quit")
    driver.clear_and_type(name)
    driver.click("Save & Quit")
    assert isinstance(driver.app.screen, MenuScreen)
    driver.app.show_load()
    screen = driver.app.screen
    assert isinstance(screen, LoadScreen)
    screen.selected = next(i for i, info in enumerate(screen.saves) if info.name == name)
    driver.click("Continue Game")
    assert isinstance(driver.app.screen, PlayScreen)
    return driver.app.screen.match


def test_main_menu_keeps_a_game_loaded_from_its_named_save_in_the_autosave(driver):
    match = human_game(driver)
    loaded = save_and_reload(driver, "Friday")
    named = driver.app.saves_dir / "friday.json"
    kept = named.read_bytes()
    assert loaded.human_to_move() and not autosave_path(driver).exists(), "nothing was played since the save"
    driver.frame([QUIT])
    texts = driver.click("Main menu")
    assert isinstance(driver.app.screen, MenuScreen) and driver.app.running
    data = saves.read(autosave_path(driver))
    assert data.record == match.record() and data.seats == match.seats and data.seed == match.seed
    assert data.name == "Friday", "the autosave of a named game keeps its name"
    assert Match.from_save(data, autosave=True).record() == match.record()
    assert named.read_bytes() == kept, "the named save is untouched"
    assert sorted(p.name for p in driver.app.saves_dir.iterdir()) == [saves.AUTOSAVE_FILE, "friday.json"]
    assert "The game is kept as the autosave: Load Game continues it." in texts
    assert any(str(autosave_path(driver)) in t for t in texts), texts
    assert all(d.fits for d in driver.app.drawn), [d.full for d in driver.app.drawn if not d.fits]


def test_main_menu_says_so_and_stays_when_the_autosave_cannot_be_written(driver, monkeypatch):
    match = human_game(driver)
    before = saves.read(autosave_path(driver)).record

    def full_disk(directory, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(saves, "write_autosave", full_disk)
    driver.frame([QUIT])
    texts = driver.click("Main menu")
    assert isinstance(driver.app.screen, QuitScreen), "the game is not dropped: Save and Cancel are still there"
    shown = " ".join(texts)
    assert "Autosave failed: [Errno 28] No space left on device. The game is not kept" in shown
    assert "kept as the autosave" not in driver.app.notice
    assert saves.read(autosave_path(driver)).record == before, "the autosave of the last move is left as it was"
    driver.click("Cancel")
    assert isinstance(driver.app.screen, PlayScreen) and driver.app.screen.match is match


def test_the_autosave_follows_every_action_and_restores_the_game(driver):
    match = human_game(driver, moves=1)
    for _ in range(3):
        data = saves.read(autosave_path(driver))
        assert data.record == match.record() and data.name == "Autosave"
        driver.human_turn(np.random.default_rng(1), use_keys=True)
    resumed = Match.from_save(saves.read(autosave_path(driver)))
    assert resumed.record() == match.record() and resumed.seats == match.seats and resumed.seed == match.seed
    listed = saves.list_saves(driver.app.saves_dir)
    assert listed[0].autosave and listed[0].error is None


def test_a_failed_autosave_shows_a_notice_and_the_game_goes_on(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the saves folder should be")
    driver = Driver(App(blocker, pace=0, seed=1))
    match = human_game(driver, moves=2)
    texts = driver.frame()
    assert isinstance(driver.app.screen, PlayScreen) and len(match.moves) >= 2
    assert any(t.startswith("Autosave failed: ") for t in texts)
    driver.human_turn(np.random.default_rng(2), use_keys=False)
    assert isinstance(driver.app.screen, PlayScreen)


def test_the_dynasty_interlude_is_autosaved_and_reopens_on_its_scores(driver):
    app = driver.app
    match = Match([Seat("Greedy", "greedy"), Seat("Random", "random")], Rules(), dynasty=True, seed=9,
                  agent_factory=app.agent_factory)
    app.show_play(match)
    driver.frame()
    assert isinstance(app.screen, ScoresScreen) and match.game_over and match.game_number == 1
    data = saves.read(autosave_path(driver))
    assert data.record == match.record() and data.finished == [] and data.state.is_over[0]
    resumed = Match.from_save(data, app.agent_factory)
    assert resumed.game_over and resumed.game_number == 1 and not resumed.match_over
    app.show_play(resumed)
    driver.frame()
    assert isinstance(app.screen, ScoresScreen) and app.screen.match is resumed
    driver.frame([QUIT])
    assert isinstance(app.screen, QuitScreen), "the interlude is a match in progress"
    driver.click("Cancel")
    for game in (2, 3):
        driver.click(f"Next Game ({game}/3)")
    assert resumed.match_over and not autosave_path(driver).exists(), "the autosave goes once the match is over"
    driver.frame([QUIT])
    assert not app.running


def test_the_quit_dialog_names_the_game_being_played(driver):
    for rules, title in ((Rules(), "Quit Kingdomino?"), (Rules(game="queendomino"), "Quit Queendomino?"),
                         (Rules(players=3, game="royal_wedding"), "Quit the Royal Wedding?")):
        seats = [Seat("Ann")] + [Seat(f"Greedy {i}", "greedy") for i in range(1, rules.players)]
        driver.app.show_play(Match(seats, rules, seed=3, agent_factory=driver.app.agent_factory))
        texts = driver.frame([QUIT])
        assert isinstance(driver.app.screen, QuitScreen) and title in texts
