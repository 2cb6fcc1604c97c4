"""Each screen renders and shows what it should; the play screen's controls; agents' pace; run() headless."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from kingdomino_app import placement
from kingdomino_app.app import App, run
from kingdomino_app.match import Match
from kingdomino_app.screens.dominoes import DominoesScreen
from kingdomino_app.screens.new_game import NewGameScreen
from kingdomino_app.screens.play import PlayScreen, focus_cell_rect, next_slot_rect
from kingdomino_app.screens.rules import RulesScreen
from kingdomino_app.screens.scores import ScoresScreen, result_text
from kingdomino_app.seats import AgentUnavailable, Seat
from kingdomino_env.record import replay
from kingdomino_env.rules import Rules
from tests.app.driver import Driver


def test_main_menu(driver):
    texts = driver.frame()
    assert texts[:1] == ["Kingdomino"]
    assert [b for b in driver.buttons()] == ["New Game", "Load Game", "Rules", "Quit"]
    driver.key(pygame.K_r)
    assert isinstance(driver.app.screen, RulesScreen)


def test_new_game_screen_seats_and_options(driver):
    driver.click("New Game")
    texts = driver.frame()
    for label in ("New Game", "Players", "Player 1", "Player 2", "Start Game", "Browse Dominoes", "Mighty Duel: Off",
                  "Harmony: Off", "Middle Kingdom: Off", "Dynasty: Off", "Human", "Medium: greedy"):
        assert label in texts
    assert "Player 3" not in texts
    texts = driver.click("4 players")
    assert "Player 4" in texts and "Agent: mcts" in texts
    assert not driver.buttons()["Mighty Duel: Off"].enabled
    texts = driver.click("Agent: mcts")
    assert "Agent: az" in texts
    texts = driver.click("Agent: az")
    assert "Agent: azmc" in texts
    texts = driver.click("Agent: azmc")
    assert "Agent: csearch" in texts
    texts = driver.click("Agent: csearch")
    assert "Agent: csearch-margin" in texts
    texts = driver.click("Agent: csearch-margin")
    assert texts.count("Human") == 2 and "Agent: ppo" not in texts, "ppo cannot play 4 players: skipped"
    driver.click("Agent: random")
    screen = driver.app.screen
    assert [s.kind for s in screen.seats()] == ["human", "greedy", "heuristic", "human"]
    driver.click("Agent: heuristic")
    driver.click("Agent: mc")
    driver.click("Agent: mcts")
    driver.click("Agent: az")
    driver.click("Agent: azmc")
    driver.click("Agent: csearch")
    texts = driver.click("Agent: csearch-margin")
    assert "Human" in texts and [s.kind for s in screen.seats()][2] == "human", "ppo skipped once more"
    screen.cycle_kind(2)
    assert screen.kinds[2] == "gprd" and "Easy: gprd" in driver.frame()
    screen.cycle_kind(2)
    assert [s.kind for s in screen.seats()] == ["human", "greedy", "greedy", "human"]
    assert [s.name for s in screen.seats()] == ["Player 1", "Greedy", "Greedy 2", "Player 4"]
    driver.click_at(screen.fields[2].rect.center)
    driver.clear_and_type("Maxime")
    assert [s.name for s in screen.seats()] == ["Player 1", "Greedy", "Maxime", "Player 4"]
    driver.click("2 players")
    texts = driver.click("Mighty Duel: Off")
    assert "Mighty Duel: On" in texts
    driver.click("Dynasty: Off")
    driver.click("Start Game")
    match = driver.app.screen.match
    assert match.rules.mighty_duel and match.rules.frame == 13 and match.games_total == 3
    assert match.progress() == "Game 1/3, Starting round"
    assert any(t.startswith("Game 1/3") for t in driver.frame())


def test_new_game_reports_an_agent_that_cannot_be_made(tmp_path):
    def factory(spec, seed):
        raise AgentUnavailable(f"no model for {spec}")

    driver = Driver(App(tmp_path, pace=0, agent_factory=factory))
    driver.click("New Game")
    texts = driver.click("Start Game")
    assert isinstance(driver.app.screen, NewGameScreen)
    assert "Cannot start: no model for greedy" in texts


def test_browse_dominoes(driver):
    driver.click("New Game")
    driver.click("Browse Dominoes")
    texts = driver.frame()
    assert isinstance(driver.app.screen, DominoesScreen)
    assert [str(n) for n in range(1, 49)] == [t for t in texts if t.isdigit()]
    assert {"Wheat", "Forest", "Lake", "Grassland", "Swamp", "Mine"} <= set(texts)
    assert "26 squares, 5 crowns" in texts
    driver.click("Back")
    assert isinstance(driver.app.screen, NewGameScreen)


def test_rules_screen_scrolls(driver):
    texts = driver.click("Rules")
    assert "The rules" in texts and "The goal" in texts and "Saving" not in texts
    screen = driver.app.screen
    first = screen.visible_lines()
    driver.frame([pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-2, flipped=False)])
    assert screen.offset == 120 and screen.visible_lines() != first
    texts = driver.key(pygame.K_END)
    assert screen.offset == screen.max_offset > 0 and "Saving" in texts and "The goal" not in texts
    driver.key(pygame.K_HOME)
    assert screen.offset == 0
    driver.key(pygame.K_PAGEDOWN)
    assert screen.offset > 0
    driver.click("Back")
    assert "New Game" in driver.frame()


def test_draft_screen(driver):
    match = Match([Seat("Ann"), Seat("Bob")], Rules(), seed=4)
    driver.app.show_play(match)
    texts = driver.frame()
    assert "Starting round" in texts and f"Up next: {match.names[match.mover]}" in texts
    assert "First line" in texts and "Scores so far" in texts
    assert "Place & Proceed" not in texts and "Save & Quit" in driver.buttons()
    assert not {"Place & Proceed", "Discard", "ROTATE"} & set(driver.buttons())
    picks = 0
    while not match.placing:
        mask = match.mask()
        taken = [i for i in range(4) if not mask[match.rules.pick_action(i)]]
        before = len(match.record()["actions"])
        if taken:
            driver.click_at(next_slot_rect(taken[0]).center)
            assert len(match.record()["actions"]) == before, "a taken domino cannot be picked"
        free = next(i for i in range(4) if mask[match.rules.pick_action(i)])
        driver.click_at(next_slot_rect(free).center)
        assert match.record()["actions"][before] == match.rules.pick_action(free)
        picks += 1
    assert picks == 3, "the fourth pick, the only domino left, was played for its player"
    assert match.moves[-1].forced and match.moves[-1].describe(match.names).endswith("(only choice)")
    texts = driver.frame()
    assert "Round 1/6" in texts and any(t.endswith("(only choice)") for t in texts), "the log shows it"


def test_placement_controls(driver):
    match = Match([Seat("Ann"), Seat("Bob")], Rules(), seed=4)
    driver.app.show_play(match)
    while not match.placing:
        driver.key(pygame.K_1 + next(i for i in range(4) if match.mask()[match.rules.pick_action(i)]))
    texts = driver.frame()
    for label in ("LEFT", "UP", "DOWN", "RIGHT", "ROTATE", "Place & Proceed", f"to place: #{match.held_domino}"):
        assert label in texts
    screen = driver.app.screen
    start = screen.current_cursor()
    assert placement.is_legal(start, match.mask(), match.rules)
    driver.click("UP")
    driver.click("UP")
    assert screen.current_cursor() == placement.Cursor(start.row - 2, start.col, start.direction)
    driver.click("ROTATE")
    assert screen.current_cursor().direction == (start.direction + 1) % 4
    far = placement.Cursor(0, 0, 0)
    screen.set_cursor(far)
    assert not driver.buttons()["Place & Proceed"].enabled
    driver.key(pygame.K_RETURN)
    assert match.placing and len(match.record()["actions"]) == 4
    for _ in range(12):
        driver.key(pygame.K_LEFT)
    assert screen.current_cursor().col == 0
    driver.click_at(focus_cell_rect(match.rules.frame, start.row, start.col).center)
    chosen = screen.current_cursor()
    assert placement.is_legal(chosen, match.mask(), match.rules)
    driver.click("Place & Proceed")
    assert match.last_move.verb == "placed" and match.last_move.cells == chosen.cells()
    assert "Last move: " + match.last_move.describe(match.names) + "." in driver.frame()


def find_forced_discard() -> Match:
    """A 2-human game played at random until the player to move must discard."""
    for seed in range(200):
        match = Match([Seat("Ann"), Seat("Bob")], Rules(), seed=seed)
        rng = np.random.default_rng(seed)
        while not match.game_over:
            mask = match.mask()
            if placement.must_discard(mask, match.rules):
                return match
            match.play(int(rng.choice(np.flatnonzero(mask))))
    raise AssertionError("no forced discard found")


def test_discard_offered_only_when_no_placement_is_legal(driver):
    match = find_forced_discard()
    driver.app.show_play(match)
    texts = driver.frame()
    held = match.held_domino
    assert f"No legal placement for #{held}: it must be discarded." in texts
    assert "Discard" in texts and not driver.buttons()["Place & Proceed"].enabled
    before = int(match.state.discarded[0, match.mover])
    player = match.mover
    driver.click("Discard")
    assert match.last_move.verb == "discarded" and int(match.state.discarded[0, player]) == before + 1


def test_agents_play_at_the_given_pace(tmp_path):
    app = App(tmp_path, pace=0.5, seed=2)
    driver = Driver(app)
    match = Match([Seat("Greedy", "greedy"), Seat("Random", "random")], Rules(), seed=2)
    app.show_play(match)
    driver.frame(dt=0.3)
    assert match.record()["actions"] == []
    texts = driver.frame(dt=0.3)
    assert len(match.record()["actions"]) == 1
    assert any(t.endswith("is thinking...") for t in texts)
    for _ in range(3):
        driver.frame(dt=0.6)
    assert len(match.record()["actions"]) == 4
    while not match.game_over:
        driver.frame(dt=0.6)
    assert isinstance(app.screen, PlayScreen)
    driver.frame(dt=1.3)
    assert isinstance(app.screen, ScoresScreen)


def test_dynasty_plays_three_games_and_totals_decide(driver):
    match = Match([Seat("Greedy", "greedy"), Seat("Random", "random")], Rules(), dynasty=True, seed=9)
    driver.app.show_play(match)
    scores = []
    for game in (1, 2, 3):
        texts = driver.frame()
        assert isinstance(driver.app.screen, ScoresScreen)
        assert f"Scores - Game {game} of 3" in texts
        state, _ = replay(match.record())
        scores.append(state.scores[0].tolist())
        totals = np.sum(scores, axis=0).tolist()
        assert f"Dynasty after {game} of 3 games: Greedy {totals[0]}, Random {totals[1]}" in texts
        if game < 3:
            driver.click(f"Next Game ({game + 1}/3)")
    assert "Dynasty winner: Greedy (by score)" in texts or "Dynasty winner: Random (by score)" in texts
    assert "New Game" in driver.buttons()
    assert len({tuple(s) for s in scores}) > 1, "the three games are different deals"


def test_result_text_names_the_tie_break():
    names = ["Ann", "Bob", "Cy"]
    assert result_text(names, [0, 1, 2], "score") == "Winner: Ann (by score)"
    assert result_text(names, [1, 0, 2], "largest territory") == "Winner: Bob (tie-break: largest territory)"
    assert result_text(names, [0, 0, 2], "shared").startswith("Shared victory: Ann and Bob")


@pytest.mark.parametrize("seats", [None, ["human:Ann", "random"]])
def test_run_opens_the_window_headless(tmp_path, seats):
    run(saves_dir=tmp_path, pace=0, seed=1, seats=seats, max_frames=3)
    assert not pygame.display.get_init()
    pygame.init()
    pygame.display.set_mode((1280, 800))


def test_run_with_seats_starts_the_variant_of_its_flags(tmp_path, monkeypatch):
    started: list[Match] = []
    show_play = App.show_play
    monkeypatch.setattr(App, "show_play", lambda app, match: (started.append(match), show_play(app, match)))
    run(saves_dir=tmp_path, pace=0, seed=1, seats=["human:Ann", "greedy"], rules=Rules(2, mighty_duel=True,
        harmony=True), dynasty=True, max_frames=1)
    pygame.init()
    pygame.display.set_mode((1280, 800))
    assert [m.rules for m in started] == [Rules(2, mighty_duel=True, harmony=True)]
    assert started[0].dynasty and started[0].seed == 1 and started[0].names == ["Ann", "Greedy"]


def test_run_refuses_a_bad_variant_before_the_window_opens(tmp_path):
    pygame.quit()
    try:
        with pytest.raises(ValueError, match="rules are for 2 players but 3 seats"):
            run(saves_dir=tmp_path, seats=["human", "greedy", "random"], rules=Rules(2, mighty_duel=True),
                max_frames=1)
        assert not pygame.display.get_init()
    finally:
        pygame.init()
        pygame.display.set_mode((1280, 800))


def test_a_forced_pick_is_played_after_the_pace_and_passes_are_logged(tmp_path):
    driver = Driver(App(saves_dir=tmp_path, pace=0.5, seed=11))
    match = Match([Seat("Ann"), Seat("Bob")], Rules(), seed=4)
    driver.app.show_play(match)
    for _ in range(3):
        driver.key(pygame.K_1 + next(i for i in range(4) if match.mask()[match.rules.pick_action(i)]))
    assert match.forced_action() is not None and not match.placing
    driver.frame(dt=0.2)
    assert not match.placing, "the forced pick waits for the pace, so that it can be seen"
    texts = driver.frame(dt=0.4)
    assert match.placing and any(t.endswith("(only choice)") for t in texts)
    queen = Match([Seat("Ann"), Seat("Bob")], Rules(game="queendomino"), seed=4)
    while not queen.can_pass():
        queen.play(int(np.flatnonzero(queen.mask())[0]))
    queen.play(queen.rules.pass_action)
    driver.app.show_play(queen)
    assert any(" passed (" in t for t in driver.frame()), "a pass is in the move log"
