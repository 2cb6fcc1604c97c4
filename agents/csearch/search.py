"""Compiled open-loop tree search for every game: every simulation runs in numba, no Python and no torch per
simulation. One `simulate` serves every game through the compiled game interface (`games.compiled`: copy, sample
the hidden orders, legal mask, step, rank keys) and the search's own per-game kernels (`games`: priors, leaf
values); numba compiles it once per game.

A simulation copies the root position into a scratch game, plays it in a sampled world (every hidden order's
undrawn part in a uniformly random order, as `agents.determinise` does, never reading the real order; the root's
actions may share their worlds, see `Worlds`), and descends an open-loop tree (a node is an action sequence from the
root) choosing among the actions legal in that world the one of highest Q + c_puct * P * sqrt(N) / (1 + n). In
games whose turns have optional steps (Queendomino), a step with a single legal action is played without making a
node. The first action sequence not yet in the tree becomes a node, valued as `games` says, or by the final ranks
when the game is over; the utilities of every kingdom are backed up along the path (max^n: a kingdom's node values
are read where that kingdom moves).

The tree lives in arrays (`Tree`): per node its visits and utility sums by kingdom; edges (node, action) -> child
in an open-addressing hash table, so a node stores no table of actions. Priors come from `games.prior_logits` and are
normalised over the actions legal in the world at hand. A search runs in chunks of simulations on the same tree
(`simulate`), so that a caller can stop at a deadline.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from kingdomino_env.core import State
from kingdomino_env.games import compiled
from kingdomino_env.games.board import OVER
from kingdomino_env.games.dominoes import N_DOMINOES

from . import games, priors
from .evaluate import terminal_outcome, terminal_utilities

#: Marks an empty slot of the edge table.
EMPTY = -1
#: The root's node index. Kernels pass it, and start counters with `np.int64(0)`, rather than the literal 0: numba
#: compiles a callee once more for each literal argument it is given.
ROOT = np.int64(0)
#: The longest action path a simulation can take from the root (a whole game has fewer steps).
MAX_DEPTH = 2048


class Tree(NamedTuple):
    """A search tree in arrays. visits (M,), utility (M, K) sums by kingdom; win, margin (M,): the root mover's win
    share and margin summed over the simulations through each child of the root since the tree was reset (what
    advice reports; zero elsewhere); parent, action (M,): the edge that made each node (-1 for the root; a node is
    made after its parent, so parent[i] < i); keys/children: the edge table (H slots, H a power of two), key
    node * n_actions + action; size[0]: nodes in use (node 0 is the root)."""

    visits: np.ndarray
    utility: np.ndarray
    win: np.ndarray
    margin: np.ndarray
    parent: np.ndarray
    action: np.ndarray
    keys: np.ndarray
    children: np.ndarray
    size: np.ndarray


def new_tree(max_nodes: int, kingdoms: int) -> Tree:
    """An empty tree with room for `max_nodes` nodes (the edge table has at least twice as many slots)."""
    slots = 1 << int(np.ceil(np.log2(max(2 * max_nodes, 16))))
    return Tree(np.zeros(max_nodes, dtype=np.int64), np.zeros((max_nodes, kingdoms)), np.zeros(max_nodes),
                np.zeros(max_nodes), np.full(max_nodes, -1, dtype=np.int64), np.full(max_nodes, -1, dtype=np.int64),
                np.full(slots, EMPTY, dtype=np.int64), np.zeros(slots, dtype=np.int64), np.zeros(1, dtype=np.int64))


class Subtree(NamedTuple):
    """A subtree kept from one search for the next (`keep_subtree`, `restore_subtree`), its nodes in the order they
    were made: parent (an earlier node; -1 for its root), action, visits, utility as in `Tree`; size[0]: nodes in
    use."""

    parent: np.ndarray
    action: np.ndarray
    visits: np.ndarray
    utility: np.ndarray
    size: np.ndarray


def new_subtree(max_nodes: int, kingdoms: int) -> Subtree:
    """An empty `Subtree` with room for `max_nodes` nodes."""
    return Subtree(np.full(max_nodes, -1, dtype=np.int64), np.full(max_nodes, -1, dtype=np.int64),
                   np.zeros(max_nodes, dtype=np.int64), np.zeros((max_nodes, kingdoms)), np.zeros(1, dtype=np.int64))


class Params(NamedTuple):
    """Search settings: c_puct, the exploration constant; margin_weight, the share of the margin in utilities;
    margin_softness, the points of margin that make tanh(1) in utilities (`evaluate`'s module docstring);
    value_scale, points of the heuristic's evaluated lead that make a utility of about 0.73 (sigmoid(1));
    network: whether leaves are valued by the value network (else by the heuristic); playout_mix: the share of a
    playout's final utilities in a leaf's value (0: none, no playout is played); heuristic_playout: whether
    playouts play the heuristic's moves before the last round (else Full Greedy's); endgame: whether playouts play
    the last round exactly (`kingdomino_endgame`; else by Full Greedy), and a leaf in its last round is valued by
    that exact playout alone."""

    c_puct: float
    margin_weight: float
    margin_softness: float
    value_scale: float
    network: bool
    playout_mix: float
    heuristic_playout: bool
    endgame: bool


class Position(NamedTuple):
    """What a search of one game reads, the arrays as plain tuples in the state's field order (the types the
    core's kernels are compiled for): root, the game's arrays (batch 1); scratch, a copy simulations play on;
    trial, a second copy (Queendomino's playouts try optional actions on it); constants, `State.constants`;
    boxes, `Rules.deck_boxes`; n_actions, the variant's actions."""

    root: tuple
    scratch: tuple
    trial: tuple
    constants: tuple
    boxes: np.ndarray
    n_actions: int


def position(game: State) -> Position:
    """The `Position` of the one-game state `game`."""
    rules = game.rules
    root = tuple(game.arrays)
    scratch, trial = (tuple(np.array(a, copy=True) for a in root) for _ in range(2))
    return Position(root, scratch, trial, game.constants, rules.deck_boxes, rules.n_actions)


class Worlds(NamedTuple):
    """Sampled worlds shared by the root's actions (common random numbers): games, the game's arrays for W games,
    each the root with its hidden orders sampled (`compiled.sample_hidden`); seed (W,) the seed of the draws made
    below the root in that world (ties broken in playouts); base (n_actions,) the visits of each root action when
    these worlds were sampled (those of a kept subtree the search goes on from; zero in a fresh tree). A simulation
    through the root's child of n visits plays world (n - base) mod W, so the k-th simulations of any two root
    actions in this search meet the same hidden orders. W = 0: every simulation samples its own."""

    games: tuple
    seed: np.ndarray
    base: np.ndarray


def new_worlds(count: int, pos: Position) -> Worlds:
    """Room for `count` shared worlds of the root of `pos`, each a copy of that root until `sample_worlds`."""
    return Worlds(tuple(np.repeat(a, count, axis=0) for a in pos.root), np.zeros(count, dtype=np.int64),
                  np.zeros(pos.n_actions, dtype=np.int64))


@njit(cache=True)
def reset_tree(tree):
    """Empty `tree` (only the slots and nodes used are cleared) and make its root."""
    used = tree.size[0]
    tree.visits[:used] = 0
    tree.utility[:used] = 0.0
    tree.win[:used] = 0.0
    tree.margin[:used] = 0.0
    tree.parent[:used] = -1
    tree.action[:used] = -1
    tree.keys[:] = EMPTY
    tree.size[0] = 1


@njit(cache=True, inline="always")
def _slot(tree, key):
    """The edge-table slot of `key`: where it is, or the empty slot where it would go."""
    mask = tree.keys.shape[0] - 1
    h = (key * 0x9E3779B97F4A7C15) & mask
    while tree.keys[h] != EMPTY and tree.keys[h] != key:
        h = (h + 1) & mask
    return h


@njit(cache=True)
def child_of(tree, node, action, n_actions):
    """The child of `node` by `action`, or -1 if not in the tree."""
    h = _slot(tree, node * n_actions + action)
    return tree.children[h] if tree.keys[h] != EMPTY else -1


@njit(cache=True, inline="always")
def child_or_new(tree, node, action, n_actions):
    """(child, made): the child of `node` by `action`, made (and made True) when it was not in the tree."""
    key = node * n_actions + action
    h = _slot(tree, key)
    if tree.keys[h] != EMPTY:
        return tree.children[h], False
    child = tree.size[0]
    tree.keys[h] = key
    tree.children[h] = child
    tree.parent[child] = node
    tree.action[child] = action
    tree.size[0] += 1
    return child, True


@njit(cache=True)
def keep_subtree(tree, action, n_actions, out):
    """Copy into the `Subtree` `out` the subtree of the root's child by `action` (as many of its nodes as `out`
    has room for, in the order they were made, so that every kept node's parent is kept); empty if there is no
    such child."""
    out.size[0] = 0
    top = child_of(tree, ROOT, action, n_actions)
    if top < 0:
        return
    room = out.visits.shape[0]
    kept_as = np.full(tree.size[0], -1, dtype=np.int64)
    n = 0
    for node in range(top, tree.size[0]):
        if n == room:
            break
        if node == top:
            out.parent[n] = -1
        elif kept_as[tree.parent[node]] >= 0:
            out.parent[n] = kept_as[tree.parent[node]]
        else:
            continue
        kept_as[node] = n
        out.action[n] = tree.action[node]
        out.visits[n] = tree.visits[node]
        for k in range(tree.utility.shape[1]):
            out.utility[n, k] = tree.utility[node, k]
        n += 1
    out.size[0] = n


@njit(cache=True)
def restore_subtree(tree, sub, n_actions):
    """Reset `tree` to the `Subtree` `sub`, its root the tree's root (win and margin start from zero)."""
    reset_tree(tree)
    tree.visits[0] = sub.visits[0]
    for k in range(tree.utility.shape[1]):
        tree.utility[0, k] = sub.utility[0, k]
    for i in range(1, min(sub.size[0], tree.visits.shape[0])):
        h = _slot(tree, sub.parent[i] * n_actions + sub.action[i])
        tree.keys[h] = sub.parent[i] * n_actions + sub.action[i]
        tree.children[h] = i
        tree.parent[i] = sub.parent[i]
        tree.action[i] = sub.action[i]
        tree.visits[i] = sub.visits[i]
        for k in range(tree.utility.shape[1]):
            tree.utility[i, k] = sub.utility[i, k]
        tree.size[0] = i + 1


@njit(cache=True)
def seed(value):
    """Seed numba's generator (simulations draw worlds from it)."""
    np.random.seed(value)


@njit(cache=True)
def sample_worlds(pos, worlds):
    """Sample the hidden orders of every world of `worlds` (copies of the root of `pos`) independently, and the
    seed of each."""
    games, v = compiled.as_records(worlds.games, pos.constants)
    pool = np.zeros(2 * N_DOMINOES, dtype=np.int64)
    for w in range(worlds.seed.shape[0]):
        compiled.sample_hidden(games, v, w, pos.boxes, pool)
        worlds.seed[w] = np.random.randint(0, 2**31 - 1)


@njit(cache=True)
def _select(tree, node, actions, n_legal, logits, kingdom, n_actions, c_puct):
    """The action among actions[:n_legal] (with prior logits logits[:n_legal]) of highest PUCT score at `node` for
    `kingdom`; an unvisited action is valued at the node's own mean utility for that kingdom."""
    parent_n = tree.visits[node]
    fpu = tree.utility[node, kingdom] / parent_n if parent_n > 0 else 0.5
    top = -1e30
    for i in range(n_legal):
        top = max(top, logits[i])
    total = 0.0
    for i in range(n_legal):
        logits[i] = np.exp(logits[i] - top)
        total += logits[i]
    sqrt_n = np.sqrt(max(parent_n, 1))
    best = -1e30
    choice = -1
    for i in range(n_legal):
        a = actions[i]
        prior = logits[i] / total
        child = child_of(tree, node, a, n_actions)
        if child >= 0 and tree.visits[child] > 0:
            n = tree.visits[child]
            q = tree.utility[child, kingdom] / n
        else:
            n = 0
            q = fpu
        score = q + c_puct * prior * sqrt_n / (1 + n)
        if score > best:
            best = score
            choice = a
    return choice


@njit(cache=True)
def simulate(pos, tree, sims, params, heuristic, net, prior_weights, worlds, root_action):
    """Run `sims` simulations from the `Position` `pos` into `tree`, leaves valued as `games` says for the game
    (Kingdomino's by the network `net` (`network.Weights`) when `params.network`, else by the heuristic with weights
    `heuristic`), priors weighed by `prior_weights` (`priors.FEATURES`,); each in the shared world of `worlds` its
    root action is due (`Worlds`), or, when there are none, in a world of its own. root_action: the legal root
    action every simulation takes (-1: the one PUCT selects).
    Returns the number of simulations run (fewer when the tree is full)."""
    st, v = compiled.as_records(pos.root, pos.constants)
    scratch, _ = compiled.as_records(pos.scratch, pos.constants)
    trial, _ = compiled.as_records(pos.trial, pos.constants)
    n_actions = pos.n_actions
    kingdoms = st.terrain.shape[1]
    mask = np.zeros((1, n_actions), dtype=np.bool_)
    logits = np.zeros(n_actions)
    actions = np.zeros(n_actions, dtype=np.int64)
    pool = np.zeros(2 * N_DOMINOES, dtype=np.int64)
    path = np.zeros(MAX_DEPTH, dtype=np.int64)
    u = np.zeros(kingdoms)
    lead = np.zeros(kingdoms)
    played = np.zeros(kingdoms)
    keys = np.zeros(kingdoms, dtype=np.int64)
    held = np.zeros(priors.TERRAIN_CODES, dtype=np.bool_)
    work = compiled.new_work(st, v)
    space = games.leaf_space(st, v, net)
    keep_forced = compiled.forced_steps_in_tree(st)
    mover = compiled.kingdom_to_move(st, v)
    n_worlds = worlds.seed.shape[0]
    done = 0
    for _ in range(sims):
        if tree.size[0] + 1 >= tree.visits.shape[0]:
            break
        compiled.copy_state(scratch, st)
        if n_worlds == 0:
            compiled.sample_hidden(scratch, v, ROOT, pos.boxes, pool)
        node = ROOT
        depth = 0
        path[0] = 0
        while scratch.phase[0] != OVER:
            compiled.legal_mask(scratch, v, mask)
            n_legal = np.int64(0)
            for a in range(n_actions):
                if mask[0, a]:
                    actions[n_legal] = a
                    n_legal += 1
            if depth == 0 and root_action >= 0:
                a = root_action
            elif n_legal == 1 and not keep_forced:
                compiled.step(scratch, v, actions[0], work)
                continue
            else:
                games.prior_logits(scratch, v, prior_weights, held, actions, n_legal, logits)
                a = _select(tree, node, actions, n_legal, logits, compiled.kingdom_to_move(scratch, v), n_actions,
                            params.c_puct)
            if depth == 0 and n_worlds > 0:
                _enter_world(tree, worlds, a, n_actions, scratch, pos.constants)
            compiled.step(scratch, v, a, work)
            depth += 1
            node, made = child_or_new(tree, node, a, n_actions)
            path[depth] = node
            if made:
                break
        if scratch.phase[0] == OVER:
            final_keys(scratch, v, keys)
            terminal_utilities(keys, scratch.scores[0], params.margin_weight, params.margin_softness, u)
            win, margin = terminal_outcome(keys, scratch.scores[0], mover)
        else:
            win, margin = _unfinished_value(scratch, trial, v, space, params, heuristic, net, mover, u, lead, keys,
                                            played)
        backup(tree, path, depth, u, win, margin)
        done += 1
    return done


@njit(cache=True)
def sample_world(pos):
    """Copy the root of `pos` into its scratch and sample the scratch's hidden orders, as a simulation without
    shared worlds does."""
    st, v = compiled.as_records(pos.root, pos.constants)
    scratch, _ = compiled.as_records(pos.scratch, pos.constants)
    compiled.copy_state(scratch, st)
    compiled.sample_hidden(scratch, v, ROOT, pos.boxes, np.zeros(2 * N_DOMINOES, dtype=np.int64))


@njit(cache=True)
def _unfinished_value(scratch, trial, v, space, params, heuristic, net, mover, u, lead, keys, played):
    """The mover's (win share, margin) of the unfinished leaf `scratch` (`games.leaf_value`, its playout played on
    the scratch, the finished playout's share mixed in), the kingdoms' utilities in u; lead, keys and played (K,)
    scratch."""
    win, margin, mix = games.leaf_value(scratch, trial, v, space, params, heuristic, net, mover, u, lead)
    if mix > 0:
        final_keys(scratch, v, keys)
        win, margin = mix_in_final(keys, scratch.scores[0], mover, mix, params, played, u, win, margin)
    return win, margin


@njit(cache=True)
def value_leaf(pos, params, heuristic, net, u):
    """Copy the root of `pos` into its scratch and value it as a leaf of an unfinished game (`_unfinished_value`):
    the mover's (win share, margin), and the kingdoms' utilities in u."""
    st, v = compiled.as_records(pos.root, pos.constants)
    scratch, _ = compiled.as_records(pos.scratch, pos.constants)
    trial, _ = compiled.as_records(pos.trial, pos.constants)
    compiled.copy_state(scratch, st)
    kingdoms = u.shape[0]
    return _unfinished_value(scratch, trial, v, games.leaf_space(st, v, net), params, heuristic, net,
                             compiled.kingdom_to_move(st, v), u, np.zeros(kingdoms), np.zeros(kingdoms, dtype=np.int64),
                             np.zeros(kingdoms))


@njit(cache=True)
def playout_outcomes(pos, params, heuristic, net, count, win, margin):
    """win[k], margin[k]: kingdom k's mean win share and margin over `count` playouts from the unfinished root of
    `pos`, each in a world of its own (`sample_world`) and played as the search's leaf playouts are with
    `params.playout_mix` 1: the value a leaf's playout estimates, averaged over the hidden orders."""
    st, v = compiled.as_records(pos.root, pos.constants)
    scratch, _ = compiled.as_records(pos.scratch, pos.constants)
    trial, _ = compiled.as_records(pos.trial, pos.constants)
    kingdoms = win.shape[0]
    u = np.zeros(kingdoms)
    lead = np.zeros(kingdoms)
    keys = np.zeros(kingdoms, dtype=np.int64)
    space = games.leaf_space(st, v, net)
    win[:] = 0.0
    margin[:] = 0.0
    for _ in range(count):
        sample_world(pos)
        games.leaf_value(scratch, trial, v, space, params, heuristic, net, ROOT, u, lead)
        final_keys(scratch, v, keys)
        for k in range(kingdoms):
            w, m = terminal_outcome(keys, scratch.scores[0], k)
            win[k] += w / count
            margin[k] += m / count


@njit(cache=True)
def root_priors(pos, prior_weights, actions, logits, features):
    """actions[:n]: the legal actions at the root of `pos`; logits[:n] their prior logits weighed by
    `prior_weights`, features[:n] (`priors.FEATURES`) what those weigh; returns n."""
    st, v = compiled.as_records(pos.root, pos.constants)
    mask = np.zeros((1, pos.n_actions), dtype=np.bool_)
    compiled.legal_mask(st, v, mask)
    n = np.int64(0)
    for a in range(pos.n_actions):
        if mask[0, a]:
            actions[n] = a
            n += 1
    held = np.zeros(priors.TERRAIN_CODES, dtype=np.bool_)
    games.prior_logits(st, v, prior_weights, held, actions, n, logits)
    games.prior_features(st, v, held, actions, n, features)
    return n


@njit(cache=True)
def root_rank_keys(pos, keys):
    """keys[k]: kingdom k's ranking key at the root of `pos` (`compiled.rank_key`)."""
    st, v = compiled.as_records(pos.root, pos.constants)
    final_keys(st, v, keys)


@njit(cache=True)
def _enter_world(tree, worlds, action, n_actions, scratch, constants):
    """Make the one-game record `scratch` (the root) the shared world the root's `action` is due (`Worlds`) and
    seed the draws below the root with that world's seed."""
    child = child_of(tree, ROOT, action, n_actions)
    w = ((tree.visits[child] if child >= 0 else 0) - worlds.base[action]) % worlds.seed.shape[0]
    games, _ = compiled.as_records(worlds.games, constants)
    compiled.copy_game(scratch, games, w)
    np.random.seed(worlds.seed[w])


@njit(cache=True)
def final_keys(st, v, keys):
    """keys[k]: kingdom k's ranking key in the one-game record `st` (`compiled.rank_key`)."""
    for k in range(keys.shape[0]):
        keys[k] = compiled.rank_key(st, v, k)


@njit(cache=True)
def mix_in_final(keys, scores, mover, mix, params, played, u, win, margin):
    """Mix the final utilities of a finished playout (its (K,) ranking keys and scores), the share `mix`, into a
    leaf's utilities u (in place) and the mover's win share and margin; returns those two. `played` (K,) is
    scratch."""
    terminal_utilities(keys, scores, params.margin_weight, params.margin_softness, played)
    for k in range(u.shape[0]):
        u[k] = (1 - mix) * u[k] + mix * played[k]
    played_win, played_margin = terminal_outcome(keys, scores, mover)
    return (1 - mix) * win + mix * played_win, (1 - mix) * margin + mix * played_margin


@njit(cache=True)
def backup(tree, path, depth, u, win, margin):
    """Add a simulation's leaf utilities u (K,) to the nodes path[:depth + 1], and the root mover's win share and
    margin to the root's child path[1]."""
    for i in range(depth + 1):
        tree.visits[path[i]] += 1
        for k in range(u.shape[0]):
            tree.utility[path[i], k] += u[k]
    if depth > 0:
        tree.win[path[1]] += win
        tree.margin[path[1]] += margin


@njit(cache=True)
def root_visits(tree, n_actions, out):
    """out[a]: the visits of the root's child by action a (0 where none)."""
    for a in range(n_actions):
        child = child_of(tree, ROOT, a, n_actions)
        out[a] = tree.visits[child] if child >= 0 else 0


@njit(cache=True)
def root_means(tree, n_actions, kingdom, out):
    """out[a]: kingdom `kingdom`'s mean utility over the simulations through the root's child by action a (its
    search value; -inf where it has none)."""
    for a in range(n_actions):
        child = child_of(tree, ROOT, a, n_actions)
        out[a] = tree.utility[child, kingdom] / tree.visits[child] if child >= 0 and tree.visits[child] > 0 else -np.inf


@njit(cache=True)
def root_outcomes(tree, n_actions, win, margin):
    """win[a], margin[a]: the root mover's mean win share and margin over the simulations through the root's child
    by action a; where it has none, the means over all the root's simulations (NaN before any)."""
    root_win = 0.0
    root_margin = 0.0
    for a in range(n_actions):
        child = child_of(tree, ROOT, a, n_actions)
        if child >= 0:
            root_win += tree.win[child]
            root_margin += tree.margin[child]
    n = tree.visits[0]
    for a in range(n_actions):
        child = child_of(tree, ROOT, a, n_actions)
        if child >= 0 and tree.visits[child] > 0:
            win[a] = tree.win[child] / tree.visits[child]
            margin[a] = tree.margin[child] / tree.visits[child]
        elif n > 0:
            win[a] = root_win / n
            margin[a] = root_margin / n
        else:
            win[a] = np.nan
            margin[a] = np.nan
