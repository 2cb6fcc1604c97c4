"""Every agent chooses only legal actions, in every variant, batched and through the AEC env."""

from __future__ import annotations

import numpy as np
import pytest

import agents
import kingdomino_env
from agents.registry import ALL_VARIANTS, HEURISTIC_VARIANTS
from kingdomino_env.policies import Policy
from kingdomino_env.rules import Rules
from tests.variants import KINGDOMINO_VARIANTS, play_aec, play_batch

FAST = ["random", "greedy", "gprd", "heuristic"]
SEARCH = ["mc:p4", "mcts:p4"]
VARIANTS = KINGDOMINO_VARIANTS


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("spec", FAST)
def test_fast_agents_play_legal_games_in_every_variant(spec, variant):
    state = play_batch(VARIANTS[variant], agents.load(spec, seed=1), games=6, seed=10)
    assert state.is_over.all()


@pytest.mark.parametrize("variant", ["2p", "3p", "3p-36", "4p", "mighty-duel", "quests"])
@pytest.mark.parametrize("spec", SEARCH)
def test_search_agents_play_legal_games(spec, variant):
    state = play_batch(VARIANTS[variant], agents.load(spec, seed=2), games=2, seed=20, hero_seat_only=True)
    assert state.is_over.all()


@pytest.mark.parametrize("spec", FAST + SEARCH)
def test_agents_that_play_every_variant_say_so(spec):
    for rules in VARIANTS.values():
        agents.check_supports(spec, rules)
        assert agents.supports(spec, rules)
    expected = HEURISTIC_VARIANTS if spec == "heuristic" else ALL_VARIANTS
    assert agents.supported_variants(spec) == expected
    assert agents.supported_variants(spec).startswith("every Kingdomino variant")


@pytest.mark.parametrize(("spec", "options"), [(spec, {"players": 3}) for spec in FAST + SEARCH]
                         + [(spec, {"game": "queendomino", "players": 3}) for spec in ("random", "greedy", "mc:p4")])
def test_act_env_returns_a_legal_action_id_until_the_game_ends(spec, options):
    env = kingdomino_env.env(**options)
    play_aec(env, agents.load(spec, seed=3), seed=3)
    assert set(env.unwrapped.record()["scores"]) != {0}


def test_every_agent_is_a_policy_and_named_by_its_spec():
    for spec in FAST + SEARCH:
        agent = agents.load(spec)
        assert isinstance(agent, Policy)
        assert agent.name == spec


def test_act_env_refuses_a_finished_game_and_mixed_arguments():
    env = kingdomino_env.env(players=2)
    env.reset(seed=0)
    agent = agents.load("random", seed=0)
    with pytest.raises(TypeError):
        agent.act(env, np.zeros(1, dtype=np.int64))
    while not env.unwrapped.state.is_over[0]:
        env.step(agent.act(env))
    with pytest.raises(ValueError, match="over"):
        agent.act(env)


def test_seeded_agents_are_reproducible():
    first = play_batch(Rules(4), agents.load("mc:p8", seed=5), games=2, seed=30, hero_seat_only=True)
    second = play_batch(Rules(4), agents.load("mc:p8", seed=5), games=2, seed=30, hero_seat_only=True)
    assert (first.scores == second.scores).all()
    assert (first.terrain == second.terrain).all()
