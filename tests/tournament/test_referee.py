"""The referee: every kind of agent fault forfeits its game (ranked last, a "forfeit" in the game's line, counted
per entrant), the tournament goes on, and an agent cannot change the referee's game."""

from __future__ import annotations

import json

import numpy as np
import pytest

from kingdomino_env.record import replay
from kingdomino_env.rules import Rules
from tests.tournament import faulty_agents
from tournament import TournamentConfig, run_tournament
from tournament.play import forfeit_ranks

FAULTY = "tests.tournament.faulty_agents"


@pytest.mark.parametrize(("bot", "reason", "timeout"), [
    ("Raises", "raised RuntimeError: a bug in the agent", None),
    ("Illegal", "which is not legal here", None),
    ("NotAnInteger", "not integer action ids", None),
    ("Hangs", "no decision within the time limit of 1 s", 1.0),
    ("KillsItsProcess", "its process ended (exit code 7)", None),
])
def test_a_fault_forfeits_the_game_and_the_tournament_goes_on(bot, reason, timeout):
    config = TournamentConfig(agents=(f"bot={FAULTY}:{bot}", "greedy"), rules=Rules(2), games=2, seed=1,
                              move_timeout=timeout)
    result = run_tournament(config)
    assert len(result.games) == 2
    for game in result.games:
        assert game.forfeit is not None
        seat = game.forfeit.seat
        assert game.seats[seat] == "bot" and game.forfeit.agent == "bot"
        assert reason in game.forfeit.reason
        assert game.ranks[seat] == 1 and game.ranks[1 - seat] == 0
        state, actions = replay(game.record)
        assert not bool(state.is_over[0]) and len(actions) >= faulty_agents.FAULT_STEP
        assert game.to_dict()["forfeit"] == {"seat": seat, "agent": "bot", "reason": game.forfeit.reason}
    assert result.agents["bot"]["forfeits"] == 2 and result.agents["greedy"]["forfeits"] == 0
    assert result.agents["greedy"]["wins"] == 2


def test_an_agent_cannot_change_the_referees_game():
    config = TournamentConfig(agents=(f"{FAULTY}:Meddles", "greedy"), rules=Rules(2), games=2, seed=2)
    result = run_tournament(config)
    for game in result.games:
        assert game.forfeit is None
        state, _ = replay(game.record)
        assert bool(state.is_over[0]) and max(game.scores) < 999
        assert tuple(int(s) for s in state.scores[0]) == game.scores


def test_a_built_in_agent_over_the_move_timeout_forfeits():
    config = TournamentConfig(agents=("slow=mc:p2000", "random"), rules=Rules(2), games=2, seed=0,
                              move_timeout=0.1)
    result = run_tournament(config)
    assert result.agents["slow"]["forfeits"] == 2
    assert all("time limit" in g.forfeit.reason for g in result.games)


def test_the_move_clock_stops_while_a_kernel_compiles():
    config = TournamentConfig(agents=(f"bot={FAULTY}:CompilesSlowly", "random"), rules=Rules(2), games=2, seed=0,
                              move_timeout=0.5)
    result = run_tournament(config)
    assert result.agents["bot"]["forfeits"] == 0 and result.agents["random"]["forfeits"] == 0
    assert result.agents["bot"]["seconds_per_move"] < 0.5


@pytest.mark.parametrize("entrant", [
    faulty_agents.FirstLegal(), faulty_agents.FirstLegal, faulty_agents.last_legal,
    lambda seed=None: faulty_agents.FirstLegal(seed),
], ids=["instance", "class", "policy", "factory"])
def test_python_objects_enter_a_tournament(entrant):
    config = TournamentConfig(agents=(entrant, "random"), rules=Rules(2), games=2, seed=3)
    name = config.names[0]
    assert config.spec_of(name).startswith("python:")
    result = run_tournament(config)
    assert result.agents[name]["games"] == 2 and result.agents[name]["forfeits"] == 0
    assert all(bool(replay(g.record)[0].is_over[0]) for g in result.games)


def test_a_python_object_of_the_wrong_kind_is_refused():
    with pytest.raises(ValueError, match="an entrant is an agent spec .* or an agent object"):
        TournamentConfig(agents=(object(), "random"), rules=Rules(2), games=2)


def test_forfeits_are_written_and_counted_in_the_outputs(tmp_path):
    """Games without the faulty agent play on in the same batch; every record replays to where its game ended."""
    config = TournamentConfig(agents=(f"bot={FAULTY}:Raises", "random", "greedy"), rules=Rules(2), games=6, seed=4)
    run_tournament(config, out_dir=tmp_path)
    lines = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    for line in lines:
        state, actions = replay(line["record"])
        assert ("forfeit" in line) == ("bot" in line["seats"])
        assert bool(state.is_over[0]) == ("forfeit" not in line)
        assert list(state.scores[0]) == line["scores"]
    assert all(line["forfeit"]["agent"] == "bot" for line in lines if "forfeit" in line)
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["agents"]["bot"]["forfeits"] == 4 and results["complete"] is True


def test_a_forfeiting_team_ranks_last_and_the_others_keep_their_order():
    rules = Rules(game="royal_wedding", players=6, teams=True)
    keys = (np.array([30, 10, 20]), np.array([5, 5, 5]), np.array([0, 0, 0]))
    ranks = forfeit_ranks(rules, keys, seat=1)
    assert list(ranks) == [2, 2, 1, 1, 0, 0]
