"""Agents on the Royal Wedding: every spec that plays it plays whole legal games (individual and in teams, batched
and in the AEC env), the heuristic, ppo and az refuse it up front, and search keeps each box's dominoes in their
box's lines without reading the hidden orders."""

from __future__ import annotations

import numpy as np
import pytest

import agents
import kingdomino_env
from agents import AgentSpecError, Budget, check_supports, supports
from agents.determinise import determinise, resample_hidden
from agents.flat_mc import FlatMonteCarloAgent
from agents.playout import score_ratio
from agents.uct import UCTAgent
from kingdomino_env import core
from kingdomino_env.games.dominoes import N_DOMINOES
from kingdomino_env.rules import Rules
from tests.agents.test_queendomino_agents import advance, play
from tests.variants import play_aec

PLAYS = ["random", "greedy", "gprd", "mc:p4", "mcts:p2"]
TEAMS8 = Rules(game="royal_wedding", players=8, teams=True)
TEAMS6 = Rules(game="royal_wedding", players=6, teams=True)
SOLO5 = Rules(game="royal_wedding", players=5)


# Flat Monte Carlo plays every legal action out at least once a decision, so its whole team game is the shorter one.
@pytest.mark.parametrize(("spec", "rules"), [(spec, rules) for spec in PLAYS
                                             for rules in (TEAMS6 if spec.startswith("mc:") else TEAMS8, SOLO5)]
                         + [(spec, Rules(game="royal_wedding", players=3)) for spec in ("random", "greedy", "mcts:p2")])
def test_every_spec_that_plays_it_plays_whole_legal_games(spec, rules):
    check_supports(spec, rules)
    state = play(rules, agents.load(spec, seed=1), games=1 if spec.startswith("mc") else 2, seed=50)
    assert state.is_over.all() and (state.scores > 0).all()
    assert state.scores.shape[1] == rules.kingdoms


def test_an_agent_plays_the_aec_env_in_teams():
    play_aec(kingdomino_env.env(game="royal_wedding", players=6, teams=True), agents.load("mcts:p2", seed=0), 2)


def test_greedy_teams_beat_random_teams():
    greedy = play(TEAMS8, agents.load("greedy", seed=0), games=4, seed=0).scores.mean()
    rand = play(TEAMS8, agents.load("random", seed=0), games=4, seed=0).scores.mean()
    assert greedy > rand + 30


@pytest.mark.parametrize("rules", [TEAMS8, SOLO5], ids=["8-teams", "5"])
def test_heuristic_and_ppo_refuse_it_naming_what_they_play_and_az_plays_it(rules):
    assert supports("az", rules) and "every Royal Wedding variant" in agents.supported_variants("az")
    for spec, plays in (("heuristic", "every Kingdomino variant, not Queendomino or the Royal Wedding"),
                        ("ppo", "2-player games without quests on the 5x5 grid")):
        assert not supports(spec, rules)
        with pytest.raises(AgentSpecError) as err:
            check_supports(spec, rules)
        assert plays in str(err.value)
    with pytest.raises(AgentSpecError, match="for the Royal Wedding use az, random, greedy"):
        check_supports("heuristic", rules)
    teams = " in teams of two" if rules.teams else ""
    with pytest.raises(AgentSpecError, match=f"this game is a {rules.players}-player Royal Wedding game{teams}"):
        check_supports("ppo", rules)
    assert "the Royal Wedding (teams too)" in agents.supported_variants("mc")


def test_worlds_keep_each_box_in_its_own_lines_and_what_was_seen():
    state = advance(core.new_games(TEAMS8, range(12)), 60)
    worlds = resample_hidden(state.copy(), np.random.default_rng(0))
    line = TEAMS8.line_size
    queen_lines = (np.arange(TEAMS8.deck_size) // line) % 2 == 0
    moved = False
    for b in range(state.batch_size):
        drawn = int(state.drawn[b])
        assert (worlds.deck[b, :drawn] == state.deck[b, :drawn]).all()
        assert ((worlds.deck[b] >= N_DOMINOES) == queen_lines).all()
        assert sorted(worlds.deck[b, drawn:].tolist()) == sorted(state.deck[b, drawn:].tolist())
        moved |= bool((worlds.deck[b] != state.deck[b]).any())
    assert moved
    assert (worlds.pile[:, :1] == state.pile[:, :1]).all()
    core.step(worlds, core.random_legal_actions(core.legal_action_mask(worlds), np.random.default_rng(1)))


def test_worlds_never_read_the_hidden_orders():
    state = advance(core.new_games(SOLO5, [3]), 40)
    other = state.copy()
    rng = np.random.default_rng(8)
    drawn, pos = int(state.drawn[0]), int(state.pile_pos[0])
    for box in (other.deck[0, drawn:] < N_DOMINOES, other.deck[0, drawn:] >= N_DOMINOES):
        tail = other.deck[0, drawn:]
        tail[box] = rng.permutation(tail[box])
    other.pile[0, pos:] = rng.permutation(other.pile[0, pos:])
    assert (other.deck != state.deck).any()
    first = determinise(state, np.array([0]), 8, np.random.default_rng(2))
    second = determinise(other, np.array([0]), 8, np.random.default_rng(2))
    assert (first.deck == second.deck).all() and (first.pile == second.pile).all()


def test_search_scores_kingdoms_and_picks_for_the_movers_team():
    state = advance(core.new_games(TEAMS8, [4]), 50, 4)
    while core.legal_action_mask(state)[0].sum() < 2 or state.current_player[0] < 4:
        advance(state, 1, 4)
    assert score_ratio(state).shape == (1, 4)
    for maker in (FlatMonteCarloAgent, UCTAgent):
        agent = maker(Budget(playouts=16), seed=0)
        mask = core.legal_action_mask(state)
        chosen = int(agent.act(state, np.array([0]), mask, None)[0])  # seat >= 4 indexes no kingdom array
        assert mask[0, chosen]
