"""Quests in the app: the play screen lists them, the Scores screen itemises them, saves keep them."""

from __future__ import annotations

import numpy as np

from kingdomino_app import saves
from kingdomino_app.breakdown import breakdown
from kingdomino_app.match import Match
from kingdomino_app.seats import Seat
from kingdomino_env import core
from kingdomino_env.games.kingdomino.quests import names, title
from kingdomino_env.rules import Rules


def quest_match() -> Match:
    return Match([Seat("Ann"), Seat("Greedy", "greedy")], Rules(random_quests=2), seed=6)


def test_play_and_scores_screens_show_the_quests(driver):
    match = quest_match()
    active = names(match.state.quests[0])
    assert len(active) == 2
    driver.app.show_play(match)
    texts = driver.frame()
    assert "Quests:" in texts and all(title(name) in texts for name in active)
    rng = np.random.default_rng(1)
    while not match.game_over:
        if match.human_to_move():
            match.play(int(rng.choice(np.flatnonzero(match.mask()))))
        else:
            match.play_agent()
    driver.app.show_scores(match)
    texts = driver.frame()
    for p in range(2):
        b = breakdown(match.state, 0, p)
        assert [name for name, _ in b.quests] == active
        assert b.total == match.state.scores[0, p] == b.territory_points + b.bonus + b.quest_points
        assert core.score_breakdown(match.state, 0, p)["quests"] == dict(b.quests)
        assert all(f"Quest {title(name)}: +{points}" in texts for name, points in b.quests)


def test_saves_keep_the_quests(tmp_path):
    match = quest_match()
    rng = np.random.default_rng(0)
    for _ in range(9):
        match.play(int(rng.choice(np.flatnonzero(match.mask()))))
    resumed = Match.from_save(saves.read(saves.write(tmp_path, match.to_save("quests"))))
    assert resumed.rules == match.rules and resumed.record() == match.record()
    np.testing.assert_array_equal(resumed.state.quests, match.state.quests)
