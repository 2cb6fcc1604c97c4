"""The compiled search (`csearch`): legal moves in every game and variant, seeded determinism, hidden information
never read, the winning move found at the end, its estimates and advice, a full tree, and what it refuses."""

import numpy as np
import pytest

import agents
from agents.budget import MAX_PLAYOUTS, Budget
from agents.csearch import network, search
from agents.csearch.agent import CompiledSearchAgent, _same_position
from agents.csearch.priors import HAND_WEIGHTS
from agents.csearch.settings import Settings
from agents.heuristic_kernel import DEFAULT_WEIGHTS
from agents.registry import CSEARCH_KINDS, AgentSpecError, check_supports
from kingdomino_env import core
from kingdomino_env.games.board import PLACE
from kingdomino_env.policies import greedy_actions
from tests.games_table import RULES, every_game


def advance(state, moves, seed=0):
    """Play `moves` Full Greedy moves in every game of `state` (in place)."""
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if state.is_over.all():
            break
        core.step(state, greedy_actions(state, np.arange(state.batch_size), rng))
    return state


def _positions(rules, seed):
    """Every position of one game played by Full Greedy from deal `seed`."""
    state = core.new_games(rules, [seed])
    while not state.is_over[0]:
        yield state.copy()
        advance(state, 1)


def decide(agent, state):
    return agent.act(state, np.arange(state.batch_size), core.legal_action_mask(state), None)


@pytest.mark.parametrize("game", list(RULES))
def test_it_plays_legal_moves_to_the_end_in_every_game_and_variant(game):
    state = core.new_games(RULES[game], [7])
    agent = CompiledSearchAgent(Budget(playouts=10), seed=0)
    while not state.is_over[0]:
        core.step(state, decide(agent, state))  # raises on an illegal action
    assert agent.simulations > 0


@pytest.mark.parametrize("game", list(RULES))
def test_playout_outcomes_are_the_mean_of_the_leaf_playouts_one_at_a_time(game):
    """`playout_outcomes` of N playouts is the mean of N single playouts drawn in turn from the same generator; each
    kingdom's mean win share lies in [0, 1] and they sum to 1 (every playout has a winner's share to give)."""
    state = advance(core.new_games(RULES[game], [3]), 10)
    agent = CompiledSearchAgent(Budget(playouts=1), seed=0, playout_mix=1.0)
    params, net = agent._leaves(state)
    pos = search.position(state)
    before = [a.copy() for a in state.arrays]
    kingdoms = state.terrain.shape[1]
    win, margin = np.zeros(kingdoms), np.zeros(kingdoms)
    search.seed(11)
    search.playout_outcomes(pos, params, DEFAULT_WEIGHTS, net, 4, win, margin)
    one_win, one_margin, singles = np.zeros(kingdoms), np.zeros(kingdoms), []
    search.seed(11)
    for _ in range(4):
        search.playout_outcomes(pos, params, DEFAULT_WEIGHTS, net, 1, one_win, one_margin)
        singles.append((one_win.copy(), one_margin.copy()))
    np.testing.assert_allclose(win, np.mean([w for w, _ in singles], axis=0))
    np.testing.assert_allclose(margin, np.mean([m for _, m in singles], axis=0))
    assert ((win >= 0) & (win <= 1)).all() and win.sum() == pytest.approx(1.0)
    assert len({tuple(m) for _, m in singles}) > 1  # the worlds differ
    for kept, now in zip(before, state.arrays, strict=True):  # the root is left as it was
        np.testing.assert_array_equal(kept, now)


def test_an_agents_playout_outcomes_repeat_with_its_seed_and_refuse_bad_input():
    state = advance(core.new_games(RULES["mighty-duel"], [5]), 8)
    first, again = (CompiledSearchAgent(Budget(playouts=1), seed=4).playout_outcomes(state, 0, 16) for _ in range(2))
    np.testing.assert_array_equal(first[0], again[0])
    np.testing.assert_array_equal(first[1], again[1])
    assert first[1][0] == -first[1][1] and first[0].sum() == pytest.approx(1.0)
    for count in (0, -1, 10**7, 2.5, "8", True, None):
        with pytest.raises(ValueError, match="count must be a whole number from 1 to 1000000 playouts"):
            CompiledSearchAgent(Budget(playouts=1)).playout_outcomes(state, 0, count)
    for game in (1, -1, 0.0, None):
        with pytest.raises(ValueError, match="game must be one of the state's games, 0 to 0"):
            CompiledSearchAgent(Budget(playouts=1)).playout_outcomes(state, game, 4)
    over = advance(core.new_games(RULES["2p"], [5]), 1000)
    with pytest.raises(ValueError, match="game 0 is over: playouts start from an unfinished game"):
        CompiledSearchAgent(Budget(playouts=1)).playout_outcomes(over, 0, 4)


def test_the_same_seed_gives_the_same_moves():
    state = advance(core.new_games(RULES["mighty-duel"], [1, 2, 3]), 9)
    first = decide(CompiledSearchAgent(Budget(playouts=300), seed=5), state)
    again = decide(CompiledSearchAgent(Budget(playouts=300), seed=5), state)
    np.testing.assert_array_equal(first, again)


@pytest.mark.parametrize("worlds", [0, 64])
@pytest.mark.parametrize("game", ["2p", "mighty-duel"])
def test_the_unseen_deck_order_is_never_read(game, worlds):
    """Reordering the dominoes not yet drawn (and, with 24 of 48, swapping in others from the box) changes nothing,
    whether each simulation samples its own world or the root's actions share theirs."""
    rules = RULES[game]
    state = advance(core.new_games(rules, range(6)), 11)
    other = state.copy()
    rng = np.random.default_rng(9)
    for b in range(state.batch_size):
        drawn = int(state.drawn[b])
        unseen = np.setdiff1d(np.arange(48), state.deck[b, :drawn])
        other.deck[b, drawn:] = rng.permutation(unseen)[: rules.deck_size - drawn]
    assert (other.deck != state.deck).any()
    np.testing.assert_array_equal(decide(CompiledSearchAgent(Budget(playouts=200), seed=3, worlds=worlds), state),
                                  decide(CompiledSearchAgent(Budget(playouts=200), seed=3, worlds=worlds), other))


@every_game()
def test_shared_worlds_are_the_root_with_its_hidden_orders_sampled(game):
    """Each shared world is the root as its player sees it (every array the same, the hidden orders' seen entries
    included), its undrawn dominoes (and buildings) in an order of its own, with a seed of its own."""
    one = advance(core.new_games(RULES[game], [4]), 11).take([0])
    pos = search.position(one)
    worlds = search.new_worlds(50, pos)
    search.seed(0)
    search.sample_worlds(pos, worlds)
    hidden = set()
    for w in range(50):
        world = _world(one, worlds, w)
        assert _same_position(world, one)
        hidden.add((tuple(world.deck[0]), tuple(getattr(world, "pile", np.zeros((1, 0)))[0])))
    assert len(hidden) == 50 and np.unique(worlds.seed).size == 50


@pytest.mark.parametrize("playout", ["greedy", "heuristic"])
def test_with_shared_worlds_every_root_action_s_first_simulation_plays_the_first_world(playout):
    """Common random numbers: a root action first tried in a search ends its simulation as a playout (by the policy
    asked for) of the first shared world ends (its deck order, its seed for ties), whichever action it is."""
    one = advance(core.new_games(RULES["2p"], [4]), 12).take([0])
    agent = CompiledSearchAgent(Budget(playouts=1), seed=2, playout_mix=1.0, playout=playout)
    params, net = agent._leaves(one)
    kingdoms = one.terrain.shape[1]
    tree = search.new_tree(256, kingdoms)
    search.reset_tree(tree)
    pos = search.position(one)
    worlds = search.new_worlds(3, pos)
    search.seed(7)
    search.sample_worlds(pos, worlds)
    search.simulate(pos, tree, 12, params, DEFAULT_WEIGHTS, net, HAND_WEIGHTS, worlds, -1)
    tried_once = [node for node in range(1, tree.size[0]) if tree.parent[node] == 0 and tree.visits[node] == 1]
    assert len(tried_once) >= 3
    for node in tried_once:
        world = _world(one, worlds, 0)
        core.step(world, [int(tree.action[node])])
        search.seed(int(worlds.seed[0]))
        np.testing.assert_allclose(tree.utility[node], _playout_utilities(world, params, playout))


def _playout_utilities(world, params, playout="greedy"):
    """The final utilities of `world` (a one-game state) played to its end by `playout` under the search's draws."""
    played = np.zeros(world.terrain.shape[1])
    _play_out(world, params, playout == "heuristic", params.endgame, played)
    return played


def _play_out(world, params, heuristic_playout, endgame, u):
    """Play the one-game state `world` to its end (in place) as a search's leaf playout does, with the policy and
    endgame asked for; its final utilities go into u."""
    pos = search.position(world)
    net = network.empty_weights(world.rules.frame, 1, 1)
    search.value_leaf(pos, params._replace(playout_mix=1.0, heuristic_playout=heuristic_playout, endgame=endgame),
                      DEFAULT_WEIGHTS, net, u)
    for mine, played in zip(world.arrays, pos.scratch, strict=True):
        mine[...] = played


def test_going_on_from_a_kept_tree_each_root_action_s_next_simulation_plays_the_first_world():
    """Worlds sampled for a search that goes on from a kept tree count each root action's visits from that start
    (`Worlds.base`): the next simulation through an action already visited plays the first of the new worlds."""
    one = advance(core.new_games(RULES["2p"], [4]), 12).take([0])
    params, net = CompiledSearchAgent(Budget(playouts=1), seed=2, playout_mix=1.0)._leaves(one)
    n = one.rules.n_actions
    tree = search.new_tree(1024, one.terrain.shape[1])
    search.reset_tree(tree)
    pos = search.position(one)
    earlier, later = (search.new_worlds(3, pos) for _ in range(2))
    search.seed(7)
    search.sample_worlds(pos, earlier)
    search.simulate(pos, tree, 40, params, DEFAULT_WEIGHTS, net, HAND_WEIGHTS, earlier, -1)
    search.sample_worlds(pos, later)
    search.root_visits(tree, n, later.base)
    action = int(np.flatnonzero(later.base % 3 != 0)[0])
    search.simulate(pos, tree, 1, params, DEFAULT_WEIGHTS, net, HAND_WEIGHTS, later, action)
    leaf = tree.size[0] - 1
    assert tree.action[tree.parent[leaf]] == action and tree.parent[tree.parent[leaf]] == 0
    world = _world(one, later, 0)
    core.step(world, [action])
    core.step(world, [int(tree.action[leaf])])
    search.seed(int(later.seed[0]))
    np.testing.assert_allclose(tree.utility[leaf], _playout_utilities(world, params))


def _world(one, worlds, w):
    """Shared world w of `worlds` as a one-game state of the rules of `one`."""
    world = one.copy()
    for mine, theirs in zip(world.arrays, worlds.games, strict=True):
        mine[0] = theirs[w]
    return world


def _sole_winner(state, seat):
    ranks = core.ranks(state)[0]
    return bool(ranks[seat] == 0 and (ranks == 0).sum() == 1)


def _forced_wins(state):
    """The mover's actions that win whatever the last move of the game is (`state` holds the last two moves)."""
    mover = int(state.current_player[0])
    wins = []
    for a in np.flatnonzero(core.legal_action_mask(state)[0]):
        after = core.step(state.copy(), [a])
        last = int(after.current_player[0])
        outcomes = [_sole_winner(core.step(after.copy(), [b]), mover)
                    for b in np.flatnonzero(core.legal_action_mask(after)[0])]
        if (all if last != mover else any)(outcomes):
            wins.append(a)
    return np.array(wins, dtype=np.int64)


def _endgame_positions(rules, seeds):
    """Positions of random games two moves from the end (nothing hidden is left) where some but not all moves
    force a win."""
    found = []
    for seed in seeds:
        state = core.new_games(rules, [seed])
        rng = np.random.default_rng(seed)
        while not state.is_over[0]:
            if state.in_last_round[0] and state.turn[0] == state.order_player.shape[1] - 2:
                wins = _forced_wins(state)
                if 0 < wins.size < core.legal_action_mask(state)[0].sum():
                    found.append((state.copy(), wins))
                break
            core.step(state, core.random_legal_actions(core.legal_action_mask(state), rng))
    return found


def test_it_finds_the_forced_win_at_the_end():
    positions = _endgame_positions(RULES["2p"], range(400))
    assert len(positions) >= 3
    agent = CompiledSearchAgent(Budget(playouts=2000), seed=0)
    for state, wins in positions:
        assert decide(agent, state)[0] in wins


@pytest.mark.parametrize("game", ["2p", "mighty-duel", "4p"])
def test_the_last_round_is_played_exactly_and_advised_first(game):
    """Once the last line is picked, the agent plays the solver's placements (`kingdomino_endgame`) without
    searching, and its estimates put that move first; with `endgame=False` it searches them."""
    from agents.kingdomino_endgame import final_round_actions, in_final_round

    state = next(position for seed in range(20) for position in _positions(RULES[game], seed)
                 if in_final_round(position)[0] and core.legal_action_mask(position)[0].sum() > 1)
    exact = final_round_actions(state, np.array([0]))
    agent = CompiledSearchAgent(Budget(playouts=50), seed=0)
    assert decide(agent, state)[0] == exact[0] and agent.simulations == 0
    assert agent.estimate(state, 0)[0][0] == exact[0]
    searching = CompiledSearchAgent(Budget(playouts=50), seed=0, endgame=False)
    decide(searching, state)
    assert searching.simulations > 0
    with pytest.raises(ValueError, match="endgame must be True or False, not 1"):
        CompiledSearchAgent(Budget(playouts=50), endgame=1)


@pytest.mark.parametrize("game", ["2p", "bonuses", "mighty-duel", "4p"])
def test_playouts_play_the_last_round_exactly(game):
    """From the start of the last round a playout with `endgame` ends every kingdom at its best final key, as the
    solver plays it (`play_final_round`); Full Greedy's playout reaches no better."""
    from agents.kingdomino_endgame import in_final_round, play_final_round

    for seed in range(8):
        start = next(p for p in _positions(RULES[game], seed) if in_final_round(p)[0])
        best = core.rank_keys(play_final_round(start.copy()))
        for endgame in (True, False):
            world = start.copy()
            _play_out(world, search.Params(1.5, 0.25, 20.0, 8.0, False, 1.0, False, endgame), False, endgame,
                      np.zeros(world.terrain.shape[1]))
            keys = list(zip(*(k[0] for k in core.rank_keys(world)), strict=True))
            exact = list(zip(*(k[0] for k in best), strict=True))
            if endgame:
                assert keys == exact
            else:
                assert all(k <= e for k, e in zip(keys, exact, strict=True))


def test_its_estimates_of_a_forced_win_are_certain_wins():
    """Two moves from the end nothing is hidden: the action it ranks first forces a win, with an estimate of almost
    a sure win (only its first visit, a leaf one move from the end, is valued by a guess) and a positive margin,
    above every action that does not force one."""
    agent = CompiledSearchAgent(Budget(playouts=2000), seed=0)
    for state, wins in _endgame_positions(RULES["2p"], range(400))[:3]:
        actions, win, margin, visits = agent.estimate(state, 0)
        assert actions[0] in wins and win[0] > 0.99 and margin[0] > 0
        assert win[0] > win[~np.isin(actions, wins)].max()


@pytest.mark.parametrize("game", ["2p", "mighty-duel", "4p", "queendomino-2p", "royal-wedding-6p-teams"])
def test_estimates_cover_every_legal_action_best_first(game):
    state = advance(core.new_games(RULES[game], [5]), 9)
    agent = CompiledSearchAgent(Budget(playouts=300), seed=0)
    actions, win, margin, visits = agent.estimate(state, 0)
    assert sorted(actions.tolist()) == np.flatnonzero(core.legal_action_mask(state)[0]).tolist()
    assert visits.sum() == 300 and (np.diff(visits) <= 0).all()
    assert ((0 <= win) & (win <= 1)).all() and np.isfinite(margin).all()
    assert actions[0] == decide(CompiledSearchAgent(Budget(playouts=300), seed=0), state)[0]
    for seconds in (-1, float("nan"), 10**9, "1"):
        with pytest.raises(ValueError, match="seconds per move must be a positive number"):
            agent.estimate(state, 0, seconds=seconds)


@pytest.mark.parametrize("how", [{"choice": "mean"}, {"root": "halving"}], ids=["mean choice", "halving"])
def test_the_estimate_ranks_first_the_move_the_agent_makes(how):
    """Whatever rule chooses the move from the root, the estimate's first action is the one the agent plays after
    the same search."""
    state = advance(core.new_games(RULES["mighty-duel"], [7]), 10)
    actions, _, _, visits = CompiledSearchAgent(Budget(playouts=400), seed=2, **how).estimate(state, 0)
    assert actions[0] == decide(CompiledSearchAgent(Budget(playouts=400), seed=2, **how), state)[0]
    assert (np.diff(visits[1:]) <= 0).all()


@pytest.mark.parametrize("kind", list(CSEARCH_KINDS))
def test_it_advises(kind):
    from agents.advice import advise

    state = advance(core.new_games(RULES["2p"], [2]), 5)
    estimates = advise(state, 0, f"{kind}:p200", seed=0)
    assert len(estimates) == core.legal_action_mask(state)[0].sum()
    assert estimates[0].visits == max(e.visits for e in estimates)
    queen = advance(core.new_games(RULES["queendomino-2p"], [2]), 5)
    assert len(advise(queen, 0, f"{kind}:p200", seed=0)) == core.legal_action_mask(queen)[0].sum()


def test_a_full_tree_stops_the_search_early():
    state = advance(core.new_games(RULES["2p"], [4]), 6)
    agent = CompiledSearchAgent(Budget(playouts=5000), seed=0, max_nodes=100)
    action = decide(agent, state)[0]
    assert core.legal_action_mask(state)[0, action]
    assert agent.simulations < 100


def test_the_largest_budget_runs_until_the_tree_is_full_and_a_larger_one_is_refused():
    state = advance(core.new_games(RULES["2p"], [4]), 6)
    agent = CompiledSearchAgent(Budget(playouts=MAX_PLAYOUTS), seed=0, max_nodes=300)
    assert core.legal_action_mask(state)[0, decide(agent, state)[0]]
    assert 0 < agent.simulations < MAX_PLAYOUTS
    with pytest.raises(ValueError, match="playouts per move must be an integer from 1 to 1_000_000"):
        Budget(playouts=10**20)


def test_an_empty_tree_is_reset_between_moves():
    tree = search.new_tree(64, 2)
    tree.size[0] = 10
    tree.visits[:10] = 3
    tree.keys[5] = 7
    search.reset_tree(tree)
    assert tree.size[0] == 1 and tree.visits.sum() == 0 and (tree.keys == search.EMPTY).all()


def test_a_kept_subtree_is_restored_node_for_node():
    rules = RULES["mighty-duel"]
    state = advance(core.new_games(rules, [2]), 8)
    agent = CompiledSearchAgent(Budget(playouts=400), seed=0, reuse=False)
    visits = agent.root_visits(state, 0)
    tree, n = agent.trees[rules.kingdoms], rules.n_actions
    action = int(np.argmax(visits))
    below = [search.child_of(tree, 0, action, n)]
    for node in range(below[0] + 1, tree.size[0]):
        if tree.parent[node] in below:
            below.append(node)
    sub = search.new_subtree(1000, rules.kingdoms)
    search.keep_subtree(tree, action, n, sub)
    restored = search.new_tree(2000, rules.kingdoms)
    search.restore_subtree(restored, sub, n)
    assert restored.size[0] == sub.size[0] == len(below) > 1 and restored.visits[0] == visits[action]
    for new, old in enumerate(below):
        assert restored.visits[new] == tree.visits[old]
        np.testing.assert_array_equal(restored.utility[new], tree.utility[old])
        if new > 0:
            assert restored.action[new] == tree.action[old]
            assert below[restored.parent[new]] == tree.parent[old]
            assert search.child_of(restored, restored.parent[new], restored.action[new], n) == new


def _before_place_and_pick(rules, seed):
    """A position where the player to move has a choice of placements, then picks among several dominoes."""
    state = core.new_games(rules, [seed])
    rng = np.random.default_rng(seed)
    while True:
        mask = core.legal_action_mask(state)
        if state.phase[0] == PLACE and mask[0].sum() > 1:
            after = core.step(state.copy(), [int(np.flatnonzero(mask[0])[0])])
            if core.legal_action_mask(after)[0].sum() > 1:
                return state
        core.step(state, greedy_actions(state, np.arange(1), rng))


def test_a_pick_goes_on_from_the_subtree_of_its_placement():
    """The placement's search keeps the chosen action's subtree; the pick's search adds its simulations to it. A
    search of another position starts afresh."""
    state = _before_place_and_pick(RULES["mighty-duel"], 5)
    budget = Budget(playouts=300)
    fresh = CompiledSearchAgent(budget, seed=1, reuse=False).root_visits(state, 0)
    elsewhere = CompiledSearchAgent(budget, seed=1)
    decide(elsewhere, state)
    assert elsewhere.root_visits(_before_place_and_pick(RULES["mighty-duel"], 6), 0).sum() == 300
    agent = CompiledSearchAgent(budget, seed=1)
    action = decide(agent, state)[0]
    assert action == np.argmax(np.where(core.legal_action_mask(state)[0], fresh, -1)) and fresh[action] > 1
    core.step(state, [action])
    assert agent.root_visits(state, 0).sum() == fresh[action] - 1 + 300
    assert CompiledSearchAgent(budget, seed=1, reuse=False).root_visits(state, 0).sum() == 300


def decided_root(agent, state):
    """The move `agent` makes in the one-game `state`, the legal mask, and the visits and the mover's mean utilities
    of the root's actions in the tree of that search."""
    legal = core.legal_action_mask(state)[0]
    action = decide(agent, state)[0]
    tree = agent.trees[state.terrain.shape[1]]
    n = state.rules.n_actions
    visits, means = np.zeros(n, dtype=np.int64), np.zeros(n)
    search.root_visits(tree, n, visits)
    search.root_means(tree, n, int(state.current_kingdom[0]), means)
    return action, legal, visits, means


def test_the_mean_choice_plays_the_best_mean_among_the_well_visited_root_actions():
    """With `choice="mean"` the move is the legal root action of highest mean utility for the mover among those
    with at least half the most visits; a search with the same seed and budget builds the same tree either way."""
    state = advance(core.new_games(RULES["mighty-duel"], [7]), 10)
    by_mean = CompiledSearchAgent(Budget(playouts=400), seed=2, reuse=False, choice="mean")
    action, legal, visits, means = decided_root(by_mean, state)
    well = legal & (visits >= 0.5 * visits[legal].max())
    assert well[action] and means[action] == means[well].max()
    by_visits = decide(CompiledSearchAgent(Budget(playouts=400), seed=2, reuse=False), state)[0]
    assert by_visits == np.argmax(np.where(legal, visits, -1)) != action


@pytest.mark.parametrize("game", ["mighty-duel", "bonuses", "4p"])
def test_sequential_halving_shares_each_round_evenly_and_plays_the_better_finalist(game):
    """With `root="halving"` every legal root action is searched, each round's dropped actions share one number of
    visits (one number per round), two finalists share the most, and the move is the finalist of higher mean."""
    state = advance(core.new_games(RULES[game], [3]), 8)
    agent = CompiledSearchAgent(Budget(playouts=400), seed=2, reuse=False, root="halving")
    action, legal, visits, means = decided_root(agent, state)
    assert (visits[legal] > 0).all() and (visits[~legal] == 0).all()
    assert np.unique(visits[legal]).size == int(np.ceil(np.log2(legal.sum())))
    finalists = np.flatnonzero(legal & (visits == visits.max()))
    assert finalists.size == 2 and action == finalists[np.argmax(means[finalists])]
    assert 400 - legal.sum() <= visits.sum() <= 400 + legal.sum()


BAD_SETTINGS = [("playout", "random", "unknown playout policy 'random'; valid: greedy, heuristic")]
BAD_SETTINGS += [("worlds", worlds, f"worlds must be a whole number .* not {worlds!r}")
                 for worlds in (-1, 2.5, "many", True, 10**12)]
BAD_SETTINGS += [("choice", "robust", "choice must be one of visits, mean, not 'robust'"),
                 ("root", "gumbel", "root must be one of puct, halving, not 'gumbel'")]
BAD_SETTINGS += [("margin_weight", weight, f"margin_weight must be a share from 0 to 1, not {weight!r}")
                 for weight in (-0.1, 1.5, float("nan"), "half", True)]
BAD_SETTINGS += [("margin_softness", softness, f"margin_softness must be a positive number of points, not {softness!r}")
                 for softness in (0, -5, float("inf"), float("nan"), "soft", None)]
BAD_SETTINGS += [(name, value, f"{name} must be a positive number, not {value!r}")
                 for name in ("c_puct", "value_scale") for value in (0, -1.0, float("nan"), "wide", False)]
BAD_SETTINGS += [("max_nodes", nodes, f"max_nodes must be a whole number of nodes from 2 to .* not {nodes!r}")
                 for nodes in (1, 0, 1e6, "many", 10**12)]
BAD_SETTINGS += [(name, value, f"{name} must be True or False, not {value!r}")
                 for name in ("reuse", "endgame") for value in (1, "yes", None)]


@pytest.mark.parametrize(("name", "value", "message"), BAD_SETTINGS)
def test_a_bad_setting_is_refused_when_the_agent_is_made(name, value, message):
    with pytest.raises(ValueError, match=message):
        CompiledSearchAgent(Budget(playouts=10), **{name: value})
    with pytest.raises(ValueError, match=message):
        Settings(**{name: value})


def test_settings_come_as_a_record_or_as_keywords_and_an_unknown_one_is_refused():
    base = Settings(worlds=0, c_puct=2.0)
    agent = CompiledSearchAgent(Budget(playouts=10), settings=base, choice="mean")
    assert agent.settings == Settings(worlds=0, c_puct=2.0, choice="mean") and agent.params.c_puct == 2.0
    assert CompiledSearchAgent(Budget(playouts=10)).settings == Settings()
    with pytest.raises(TypeError, match="unknown csearch setting cpuct, world; the settings are c_puct, .*, endgame"):
        CompiledSearchAgent(Budget(playouts=10), cpuct=1.0, world=3)
    with pytest.raises(TypeError, match="settings must be an agents.csearch.settings.Settings, not dict"):
        CompiledSearchAgent(Budget(playouts=10), settings={"worlds": 0})


@pytest.mark.parametrize("kind", list(CSEARCH_KINDS))
def test_the_spec_loads_and_refuses_a_network_of_another_game(tmp_path, kind):
    agent = agents.load(f"{kind}:p50", seed=0)
    assert isinstance(agent, CompiledSearchAgent) and agent.budget == Budget(playouts=50) and agent.shipped
    settings = {"margin_weight": 0.25, "margin_softness": 20.0} | CSEARCH_KINDS[kind]
    assert {name: getattr(agent.params, name) for name in settings} == settings
    assert agents.load(kind).budget == Budget(seconds=0.5)
    assert not agents.load(f"{kind}:p50:heuristic").shipped and agents.load(f"{kind}:p50:heuristic").net is None
    path = network.save_weights(tmp_path / "net.npz", network.empty_weights(9), {"frame": 9, "players": 2})
    with_file = agents.load(f"{kind}:p50:{path}")
    assert with_file.net is not None and with_file.params.margin_weight == agent.params.margin_weight
    with pytest.raises(AgentSpecError, match="no value network file"):
        agents.load(f"{kind}:p50:{tmp_path / 'missing.npz'}")
    with pytest.raises(AgentSpecError, match="is not a regular file: it is a folder"):
        agents.load(f"{kind}:p50:{tmp_path}")
    (tmp_path / "bad.npz").write_bytes(b"garbage")
    with pytest.raises(AgentSpecError, match="not a csearch value network"):
        agents.load(f"{kind}:p50:{tmp_path / 'bad.npz'}")
    with pytest.raises(AgentSpecError, match="bad search budget"):
        agents.load(f"{kind}:fast")
    check_supports(kind, RULES["queendomino-2p"])
    with pytest.raises(AgentSpecError, match="the heuristic values Kingdomino positions only; for Queendomino use"):
        check_supports(f"{kind}:p50:heuristic", RULES["queendomino-2p"])
    with pytest.raises(AgentSpecError, match="its value network reads kingdomino positions, not Queendomino's"):
        check_supports(f"{kind}:p50:{path}", RULES["queendomino-2p"])
    with pytest.raises(ValueError, match="its value network reads kingdomino positions, not the Royal Wedding's"):
        decide(with_file, core.new_games(RULES["royal-wedding-3p"], [0]))


@pytest.mark.parametrize("game", ["2p", "4p", "bonuses", "queendomino-3p", "royal-wedding-5p"])
def test_final_utilities_follow_the_cores_ranking(game):
    """The search's own ranking of finished games on each game's compiled rank keys (score, then largest territory,
    then crowns in Kingdomino; ties share the win) gives the winners `core.win_shares` gives."""
    from agents.csearch.evaluate import terminal_outcome, terminal_utilities

    state = advance(core.new_games(RULES[game], range(12)), 2000)
    assert state.is_over.all()
    shares = core.win_shares(state)
    margins = core.rewards(state, "margin")
    u = np.zeros(state.scores.shape[1])
    keys = np.zeros(state.scores.shape[1], dtype=np.int64)
    for b in range(state.batch_size):
        search.root_rank_keys(search.position(state.take([b])), keys)
        terminal_utilities(keys, state.scores[b], 0.0, 20.0, u)
        np.testing.assert_allclose(u, shares[b])
        for k in range(u.size):
            win, margin = terminal_outcome(keys, state.scores[b], k)
            assert win == pytest.approx(shares[b, k]) and margin == margins[b, k]


@pytest.mark.parametrize("softness", [20.0, 60.0])
def test_utilities_weigh_the_margin_as_the_search_s_settings_say(softness):
    """Final and network utilities are (1 - w) * win + w * (1 + tanh(margin / softness)) / 2 for the search's
    margin weight w and softness."""
    from agents.csearch.evaluate import terminal_outcome, terminal_utilities

    state = advance(core.new_games(RULES["mighty-duel"], range(6)), 200)
    u, from_net, keys = np.zeros(2), np.zeros(2), np.zeros(2, dtype=np.int64)
    for b in range(state.batch_size):
        search.root_rank_keys(search.position(state.take([b])), keys)
        terminal_utilities(keys, state.scores[b], 0.4, softness, u)
        outcomes = [terminal_outcome(keys, state.scores[b], k) for k in range(2)]
        expected = [0.6 * win + 0.2 * (1 + np.tanh(margin / softness)) for win, margin in outcomes]
        np.testing.assert_allclose(u, expected)
    outputs = np.array([[0.7, 0.5], [-0.7, -0.5]])
    network.utilities_from(outputs, 0.4, softness, from_net)
    margin = 0.5 * network.MARGIN_UNIT
    np.testing.assert_allclose(from_net[0], 0.6 / (1 + np.exp(-0.7)) + 0.2 * (1 + np.tanh(margin / softness)))


def test_a_softer_margin_changes_the_search_s_values():
    """The margin settings reach the compiled search: the same search with a softer margin values the root
    differently."""
    state = advance(core.new_games(RULES["mighty-duel"], [3]), 20)
    means = []
    for softness in (20.0, 80.0):
        agent = CompiledSearchAgent(Budget(playouts=200), seed=1, margin_weight=1.0, margin_softness=softness)
        tree, _ = agent._root_search(state.take([0]), 0)
        root = np.zeros(state.rules.n_actions)
        search.root_means(tree, state.rules.n_actions, int(state.current_kingdom[0]), root)
        means.append(root)
    assert not np.allclose(means[0], means[1])


def test_the_playout_mix_is_the_agents_else_its_networks_else_the_default(tmp_path):
    state = core.new_games(RULES["2p"], [0])
    plain = network.save_weights(tmp_path / "plain.npz", network.empty_weights(9), {"frame": 9, "players": 2})
    named = network.save_weights(tmp_path / "named.npz", network.empty_weights(9),
                                 {"frame": 9, "players": 2, "playout_mix": 0.0})
    mixes = [CompiledSearchAgent(Budget(playouts=10), weights=path, playout_mix=mix)._leaves(state)[0].playout_mix
             for path, mix in [(plain, None), (named, None), (named, 0.3), (None, None)]]
    assert mixes == [0.5, 0.0, 0.3, 0.5]
