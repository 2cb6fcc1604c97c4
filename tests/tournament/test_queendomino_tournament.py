"""Queendomino tournaments: the core's 3-tuple deal seeded per deal, records that replay, dynasty, workers, outputs."""

from __future__ import annotations

import json

import numpy as np
import pytest

from kingdomino_env import core
from kingdomino_env.record import replay
from kingdomino_env.rules import Rules
from tournament import TournamentConfig, run_tournament, write_all

QUEEN3 = Rules(players=3, game="queendomino")


@pytest.fixture(scope="module")
def small():
    return run_tournament(TournamentConfig(agents=("random", "greedy"), rules=QUEEN3, games=6, seed=4))


def test_deals_are_the_cores_queendomino_deals_seeded_per_deal():
    config = TournamentConfig(agents=("random", "greedy"), rules=QUEEN3, games=6, seed=4)
    deck, kings, _, pile = config.deal(1)
    expected = core.deal(QUEEN3, np.random.default_rng(np.random.SeedSequence([4, 0, 1])))
    for got, want in zip((deck, kings, pile), expected, strict=True):
        assert (got == want).all()
    assert sorted(pile.tolist()) == list(range(32)) and len(deck) == 48
    assert config.to_dict()["rules"] == {"game": "queendomino", "players": 3, "grid": 5, "buildings": None}


def test_games_are_queendomino_games_whose_records_replay(small):
    assert len(small.games) == 6
    for game in small.games:
        assert game.record["game"] == "queendomino" and len(game.record["buildings"]) == 32
        state, _ = replay(game.record)
        assert state.is_over[0] and tuple(int(s) for s in state.scores[0]) == game.scores
        assert game.ranks == tuple(int(r) for r in core.ranks(state)[0])
    assert small.agents["greedy"]["mean_score"] > small.agents["random"]["mean_score"]


def test_a_dynasty_with_workers_is_reproducible_and_writes_its_files(tmp_path):
    config = TournamentConfig(agents=("random", "gprd"), rules=Rules(players=2, game="queendomino"), games=2,
                              seed=7, dynasty=True, unit_games=6)
    one = run_tournament(config, workers=1)
    two = run_tournament(config, workers=2)
    assert one.to_dict(timings=False) == two.to_dict(timings=False)
    assert len(one.matches) == 2 and len(one.games) == 6
    assert all(m.decided_by != "crowns" for m in one.matches)  # Queendomino has no crown tie-break
    write_all(one, tmp_path)
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["config"]["rules"]["game"] == "queendomino" and saved["dynasty"] is True
    lines = (tmp_path / "games.jsonl").read_text().splitlines()
    assert replay(json.loads(lines[-1])["record"])[0].is_over[0]
    assert "Queendomino" in (tmp_path / "results.md").read_text()


def test_agents_that_cannot_play_queendomino_are_refused_before_any_game():
    with pytest.raises(ValueError, match="heuristic plays every Kingdomino variant, not Queendomino"):
        TournamentConfig(agents=("random", "heuristic"), rules=QUEEN3)
    with pytest.raises(ValueError, match="agent 'p': ppo plays"):
        TournamentConfig(agents=("random", "p=ppo"), rules=Rules(players=2, game="queendomino"))
