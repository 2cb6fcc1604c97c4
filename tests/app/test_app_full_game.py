"""A human against two agents through the screens: new game, draft and placement by clicks and keys, Save & Quit
mid-game, Load Game, finish, and the final scores against the core."""

from __future__ import annotations

import json

import numpy as np

from kingdomino_app.saves import progress_text
from kingdomino_app.screens.load import row_rect
from kingdomino_app.screens.new_game import NewGameScreen
from kingdomino_app.screens.play import PlayScreen
from kingdomino_app.screens.scores import ScoresScreen
from kingdomino_env import core
from kingdomino_env.record import replay


def start_game(driver) -> None:
    texts = driver.frame()
    for label in ("New Game", "Load Game", "Rules", "Quit"):
        assert label in texts
    driver.click("New Game")
    screen = driver.app.screen
    assert isinstance(screen, NewGameScreen)
    driver.click("3 players")
    driver.click_at(screen.fields[0].rect.center)
    driver.clear_and_type("Alice")
    driver.click("Harmony: Off")
    texts = driver.click_at((5, 5))
    assert "Alice" in texts and "Medium: greedy" in texts and "Agent: random" in texts and "Harmony: On" in texts
    driver.click("Start Game")
    assert isinstance(driver.app.screen, PlayScreen)


def play_human_turns(driver, rng, stop) -> int:
    """Play the human's turns (alternating clicks and keys) until `stop(match)` or the game ends."""
    turns = 0
    while isinstance(driver.app.screen, PlayScreen) and not stop(driver.app.screen.match):
        match = driver.app.screen.match
        assert match.human_to_move()
        texts = driver.frame()
        assert f"Up next: {match.names[match.mover]}" in texts
        assert progress_text(match.state) in texts
        driver.human_turn(rng, use_keys=turns % 2 == 1)
        turns += 1
    return turns


def test_human_against_agents_save_load_finish(driver):
    rng = np.random.default_rng(5)
    start_game(driver)
    match = driver.app.screen.match
    assert match.names == ["Alice", "Greedy", "Random"]
    assert match.rules.harmony and match.rules.players == 3

    turns = play_human_turns(driver, rng, lambda m: int(m.state.round[0]) >= 4 and not m.placing)
    assert turns >= 7
    saved_record = match.record()
    texts = driver.frame()
    assert "Round 4/12" in texts and "Scores so far" in texts

    driver.click("Save & Quit")
    driver.clear_and_type("Tuesday game")
    driver.click("Save & Quit")
    texts = driver.frame()
    assert "New Game" in texts and "Saved 'Tuesday game'." in texts
    saves_dir = driver.app.saves_dir
    assert sorted(p.name for p in saves_dir.iterdir()) == ["tuesday-game.json"]
    data = json.loads((saves_dir / "tuesday-game.json").read_text())
    assert data["record"] == saved_record and data["name"] == "Tuesday game"
    assert data["seats"] == [{"name": "Alice", "kind": "human"}, {"name": "Greedy", "kind": "greedy"},
                             {"name": "Random", "kind": "random"}]

    texts = driver.click("Load Game")
    assert "Tuesday game" in texts and "Alice, Greedy, Random  -  Round 4/12" in texts
    driver.click_at(row_rect(0).center)
    driver.click("Continue Game")
    assert isinstance(driver.app.screen, PlayScreen)
    resumed = driver.app.screen.match
    assert resumed is not match
    assert resumed.record() == saved_record
    assert resumed.names == ["Alice", "Greedy", "Random"] and resumed.mover == match.mover
    np.testing.assert_array_equal(resumed.state.terrain, match.state.terrain)

    play_human_turns(driver, rng, lambda m: False)
    assert isinstance(driver.app.screen, ScoresScreen)
    final = resumed.record()
    assert final["actions"][: len(saved_record["actions"])] == saved_record["actions"]
    state, _ = replay(final)
    assert state.is_over[0] and final["scores"] == state.scores[0].tolist()
    texts = driver.frame()
    for p, name in enumerate(resumed.names):
        assert name in texts
        assert f"Score: {int(state.scores[0, p])}" in texts
    ranks = core.ranks(state)[0]
    winners = [resumed.names[p] for p in range(3) if ranks[p] == 0]
    assert texts.count("Winner!") == len(winners)
    assert any(t.startswith(f"Winner: {winners[0]}") or t.startswith("Shared victory") for t in texts)

    driver.click("New Game")
    assert isinstance(driver.app.screen, NewGameScreen)
    driver.click("Back")
    driver.click("Quit")
    assert not driver.app.running


def test_same_seed_and_moves_give_the_same_game(tmp_path):
    from kingdomino_app.app import App
    from tests.app.driver import Driver

    records = []
    for run in range(2):
        driver = Driver(App(saves_dir=tmp_path / str(run), pace=0, seed=23))
        start_game(driver)
        play_human_turns(driver, np.random.default_rng(1), lambda m: int(m.state.round[0]) >= 3)
        records.append(driver.app.screen.match.record())
    assert records[0] == records[1]


def test_move_log_and_the_humans_kingdom_stay_in_view(driver):
    from kingdomino_app.match import Match
    from kingdomino_app.seats import Seat
    from kingdomino_env.rules import Rules

    match = Match([Seat("Greedy", "greedy"), Seat("Ann"), Seat("Random", "random")], Rules(players=3), seed=4,
                  agent_factory=driver.app.agent_factory)
    driver.app.show_play(match)
    rng = np.random.default_rng(3)
    for _ in range(6):
        texts = driver.frame()
        assert "Ann's kingdom" in texts, "the human's kingdom is the large one, also while agents move"
        driver.human_turn(rng, use_keys=False)
    screen = driver.app.screen
    texts = driver.frame()
    assert "Moves" in texts
    assert all(move.describe(match.names) in texts for move in match.moves[-3:])
    assert screen.focus_player() == 1
    assert {m.player for m in match.moves} == {0, 1, 2}
