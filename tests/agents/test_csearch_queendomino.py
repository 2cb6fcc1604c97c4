"""The compiled search in Queendomino and the Royal Wedding (`agents.csearch.games`): sampled worlds keep what
is seen and reorder the rest per box and pile, hidden orders are never read, seeded determinism, the best finish
found, and a turn's decisions going on from one tree. Legal play to the end in every game, estimates, advice and
refusals are tested over every game in `test_csearch`."""

import re

import numpy as np
import pytest
from numba import njit

from agents.budget import Budget
from agents.csearch import games, network, search
from agents.csearch.agent import DEFAULT_PLAYOUT_MIX, CompiledSearchAgent
from agents.csearch.priors import HAND_WEIGHTS
from agents.heuristic_kernel import DEFAULT_WEIGHTS
from kingdomino_env import core
from kingdomino_env.games import compiled
from kingdomino_env.games.board import OVER, PICK, PLACE
from kingdomino_env.games.dominoes import N_DOMINOES
from kingdomino_env.games.queendomino.kernels import N_TILES
from kingdomino_env.games.records import QueendominoArrays
from kingdomino_env.policies import greedy_actions
from tests.agents.test_csearch import advance, decide
from tests.games_table import RULES
from tests.queendomino_positions import knight_and_build_steps

GAMES = ["queendomino-2p", "royal-wedding-5p", "royal-wedding-6p-teams"]


@pytest.mark.parametrize("game", GAMES)
def test_a_sampled_world_keeps_what_is_seen_and_reorders_the_rest_per_box_and_pile(game):
    state = advance(core.new_games(RULES[game], [3]), 40)
    pos = search.position(state)
    drawn, pile_pos = int(state.drawn[0]), int(state.pile_pos[0])
    search.seed(1)
    decks, piles = [], []
    for _ in range(20):
        search.sample_world(pos)
        world = QueendominoArrays(*pos.scratch)
        deck, pile = world.deck[0], world.pile[0]
        np.testing.assert_array_equal(deck[:drawn], state.deck[0, :drawn])
        np.testing.assert_array_equal(pile[:pile_pos], state.pile[0, :pile_pos])
        for box in np.unique(pos.boxes):
            at = np.flatnonzero(pos.boxes == box)
            ids = deck[at].astype(np.int64)
            assert ((box * N_DOMINOES <= ids) & (ids < (box + 1) * N_DOMINOES)).all()
            assert np.unique(ids).size == ids.size
        assert sorted(pile.tolist()) == list(range(N_TILES))
        decks.append(tuple(deck[drawn:]))
        piles.append(tuple(pile[pile_pos:]))
    assert len(set(decks)) == 20 and len(set(piles)) == 20


@pytest.mark.parametrize("game", GAMES)
def test_the_unseen_dominoes_and_tiles_are_never_read(game):
    """Reordering the dominoes not yet drawn (each box's among its positions) and the tiles not yet drawn from the
    pile changes nothing."""
    state = advance(core.new_games(RULES[game], range(3)), 30)
    other = state.copy()
    rng = np.random.default_rng(9)
    boxes = search.position(state.take([0])).boxes
    for b in range(state.batch_size):
        for box in np.unique(boxes):
            unseen = np.flatnonzero((boxes == box) & (np.arange(boxes.size) >= state.drawn[b]))
            other.deck[b, unseen] = rng.permutation(other.deck[b, unseen])
        pile_pos = int(state.pile_pos[b])
        other.pile[b, pile_pos:] = rng.permutation(other.pile[b, pile_pos:])
    assert (other.deck != state.deck).any() and (other.pile != state.pile).any()
    np.testing.assert_array_equal(decide(CompiledSearchAgent(Budget(playouts=300), seed=3), state),
                                  decide(CompiledSearchAgent(Budget(playouts=300), seed=3), other))


def test_the_same_seed_gives_the_same_moves():
    state = advance(core.new_games(RULES["royal-wedding-5p"], [1, 2, 3]), 25)
    first = decide(CompiledSearchAgent(Budget(playouts=300), seed=5), state)
    again = decide(CompiledSearchAgent(Budget(playouts=300), seed=5), state)
    np.testing.assert_array_equal(first, again)


def _best_margin(state, kingdom):
    """The best final margin of `kingdom` over every way to finish `state`, whose decisions left are all its own."""
    if state.is_over[0]:
        return core.rewards(state, "margin")[0, kingdom]
    return max(_best_margin(_after(state, a), kingdom) for a in np.flatnonzero(core.legal_action_mask(state)[0]))


def _after(state, action):
    after = state.copy()
    core.step(after, [action])
    return after


def _last_turn_choices(seeds):
    """(position, final margin by action) of the knight and build steps of the game's last turn, played by Full
    Greedy from each deal of `seeds`, where the actions finish with at least three different margins."""
    rules = RULES["queendomino-2p"]
    found = []
    for seed in seeds:
        state = core.new_games(rules, [seed])
        rng = np.random.default_rng(seed)
        while not state.is_over[0]:
            legal = np.flatnonzero(core.legal_action_mask(state)[0])
            last_turn = state.next_line[0, 0] < 0 and state.turn[0] == rules.kings - 1
            if last_turn and state.phase[0] not in (PLACE, PICK) and legal.size > 2:
                kingdom = int(state.current_kingdom[0])
                margins = {int(a): _best_margin(_after(state, a), kingdom) for a in legal}
                if len(set(margins.values())) > 2:
                    found.append((state.copy(), margins))
            core.step(state, greedy_actions(state, np.arange(1), rng))
    return found


def test_it_finds_the_best_finish():
    """In the last turn, with nothing hidden left, a search that weighs the margin alone takes an action after which
    the best finish has the largest margin."""
    positions = _last_turn_choices(range(10, 25))
    assert len(positions) >= 3
    agent = CompiledSearchAgent(Budget(playouts=2000), seed=0, margin_weight=1.0)
    for state, margins in positions:
        assert margins[int(decide(agent, state)[0])] == max(margins.values())


def test_a_turn_s_next_decision_goes_on_from_the_subtree_of_the_last():
    """After a placement, the same king's next decision (before any domino is drawn) reuses the placement's
    subtree: its root starts with the visits the placement's search gave that action."""
    state = advance(core.new_games(RULES["queendomino-2p"], [4]), 12)
    budget = Budget(playouts=400)
    while True:
        advance(state, 1)
        if state.phase[0] != PLACE or core.legal_action_mask(state)[0].sum() < 2:
            continue
        fresh = CompiledSearchAgent(budget, seed=1, reuse=False).root_visits(state, 0)
        agent = CompiledSearchAgent(budget, seed=1)
        player = int(state.current_player[0])
        action = decide(agent, state)[0]
        core.step(state, [action])
        if int(state.current_player[0]) == player and core.legal_action_mask(state)[0].sum() > 1:
            break
    assert agent.root_visits(state, 0).sum() == fresh[action] - 1 + 400


def test_playouts_knight_and_build_as_full_greedy_judges_them():
    """At every knight and build step, the playout's choice raises the mover's score, and leaves coins, as much as
    Full Greedy's (the same choice up to ties)."""
    checked = 0
    for state in knight_and_build_steps(range(3)):
        ours = _rising_option(search.position(state), network.empty_weights(state.rules.frame, 1, 1))
        theirs = greedy_actions(state, np.arange(1), np.random.default_rng(0))[0]
        kingdom = int(state.current_kingdom[0])
        ours_after, theirs_after = _after(state, ours), _after(state, theirs)
        assert (ours_after.scores[0, kingdom], ours_after.coins[0, kingdom]) == \
            (theirs_after.scores[0, kingdom], theirs_after.coins[0, kingdom])
        checked += 1
    assert checked >= 20


@njit(cache=True)
def _rising_option(pos, net):
    """The playouts' choice at the knight or build step of the root of `pos`."""
    st, v = compiled.as_records(pos.root, pos.constants)
    trial, _ = compiled.as_records(pos.trial, pos.constants)
    space = games.leaf_space(st, v, net)
    return games.rising_option(st, trial, v, space[1], space[2])


@pytest.mark.parametrize("game", GAMES)
def test_a_playout_plays_legal_moves_to_the_end(game):
    """A leaf's playout plays the game to its end, every step legal (a step the core refuses leaves the game
    unchanged, and the playout would never end)."""
    state = advance(core.new_games(RULES[game], [2]), 20)
    pos = search.position(state)
    params = CompiledSearchAgent(Budget(playouts=1))._leaves(state)[0]
    search.seed(3)
    search.value_leaf(pos, params, DEFAULT_WEIGHTS, network.empty_weights(state.rules.frame, 1, 1),
                      np.zeros(state.terrain.shape[1]))
    played = QueendominoArrays(*pos.scratch)
    assert played.phase[0] == OVER and played.n_steps[0] > state.n_steps[0]


def test_leaves_are_valued_by_the_playout_alone_unless_the_agent_names_a_mix():
    queen, kingdomino = core.new_games(RULES["queendomino-2p"], [0]), core.new_games(RULES["4p"], [0])
    assert CompiledSearchAgent(Budget(playouts=1))._leaves(queen)[0].playout_mix == games.QUEENDOMINO_PLAYOUT_MIX == 1.0
    assert CompiledSearchAgent(Budget(playouts=1), playout_mix=0.3)._leaves(queen)[0].playout_mix == 0.3
    assert CompiledSearchAgent(Budget(playouts=1))._leaves(kingdomino)[0].playout_mix == DEFAULT_PLAYOUT_MIX


def test_the_shipped_network_values_two_player_queendomino_leaves_half_and_half_with_the_playout():
    """The shipped Queendomino network plays 2 players only; other player counts and the Royal Wedding keep the
    playout alone."""
    agent = CompiledSearchAgent(Budget(playouts=1), shipped=True)
    params, net = agent._leaves(core.new_games(RULES["queendomino-2p"], [0]))
    shipped, meta = network.load_weights(network.shipped_weights(RULES["queendomino-2p"]))
    assert params.network and params.playout_mix == DEFAULT_PLAYOUT_MIX == 0.5
    assert meta["inputs"] == "queendomino" and all(np.array_equal(a, b) for a, b in zip(net, shipped, strict=True))
    for game in ("queendomino-3p", "royal-wedding-5p"):
        params, _ = agent._leaves(core.new_games(RULES[game], [0]))
        assert not params.network and params.playout_mix == games.QUEENDOMINO_PLAYOUT_MIX


def test_without_playouts_a_leaf_is_valued_by_the_score_lead():
    """With no playout share, a leaf's utilities are sigmoid((own - best other) / value_scale) of the scores after
    the action that made it."""
    state = advance(core.new_games(RULES["royal-wedding-5p"], [1]), 30)
    while state.phase[0] != PLACE or core.legal_action_mask(state)[0].sum() < 2:
        advance(state, 1)
    agent = CompiledSearchAgent(Budget(playouts=1), seed=0, playout_mix=0.0)
    params, _ = agent._leaves(state)
    tree = search.new_tree(64, state.terrain.shape[1])
    search.reset_tree(tree)
    search.seed(0)
    pos = search.position(state)
    empty = search.new_worlds(0, pos)
    net = network.empty_weights(state.rules.frame, 1, 1)
    assert search.simulate(pos, tree, 1, params, DEFAULT_WEIGHTS, net, HAND_WEIGHTS, empty, -1) == 1
    scores = _after(state, int(tree.action[1])).scores[0].astype(float)
    best_other = np.array([np.delete(scores, k).max() for k in range(scores.size)])
    np.testing.assert_allclose(tree.utility[1], 1 / (1 + np.exp(-(scores - best_other) / params.value_scale)))


@pytest.mark.parametrize("mix", [-0.1, 1.5, float("nan"), float("inf"), "half", True, [0.5]])
def test_a_bad_playout_mix_is_refused_before_any_search(mix):
    with pytest.raises(ValueError, match=f"playout_mix must be a share from 0 to 1 .*not {re.escape(repr(mix))}"):
        CompiledSearchAgent(Budget(playouts=1), playout_mix=mix)
