"""Compiled open-loop tree search for Kingdomino: every simulation runs in numba, no Python and no torch per
simulation.

A simulation copies the root position into a scratch game, plays it in a sampled world (the dominoes not yet drawn,
in a uniformly random order, as `agents.determinise` does, never reading the real order; the root's actions share
their worlds, see `Worlds`), and descends an open-loop tree (a node is an action sequence from the root) choosing
among the actions legal in that world the one of highest Q + c_puct * P * sqrt(N) / (1 + n). The first action
sequence not yet in the tree becomes a node, valued by the value network (`network`, when the search is given one)
or the heuristic (`evaluate.leaf_utilities`), or by the final ranks when the game is over; the utilities of every
kingdom are backed up along the path (max^n: a kingdom's node values are read where that kingdom moves).

The tree lives in arrays (`Tree`): per node its visits and utility sums by kingdom; edges (node, action) -> child
in an open-addressing hash table, so a node stores no table of actions. Priors come from `evaluate.action_logits`
and are normalised over the actions legal in the world at hand. A search runs in chunks of simulations on the same
tree (`simulate`), so that a caller can stop at a deadline.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from kingdomino_env.games.board import OVER
from kingdomino_env.games.dominoes import N_DOMINOES
from kingdomino_env.games.kingdomino import kernels
from kingdomino_env.games.kingdomino.greedy import greedy_action, greedy_scratch
from kingdomino_env.games.records import KingdominoArrays, MaskArrays, MoverArrays, Variant

from ..heuristic_kernel import heuristic_action, heuristic_scratch
from ..kingdomino_endgame import final_round_action, placing_in_final_round
from .evaluate import action_logits, leaf_utilities, terminal_outcome, terminal_utilities
from .features import game_features
from .network import forward, outcome_of, utilities_from

#: Marks an empty slot of the edge table.
EMPTY = -1
#: The root's node index and the game index of a one-game record. Kernels pass these, and start counters with
#: `np.int64(0)`, rather than the literal 0: numba compiles a callee once more for each literal argument it is given.
ROOT = ONE_GAME = np.int64(0)


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


class Worlds(NamedTuple):
    """Sampled worlds shared by the root's actions (common random numbers): order (W, deck) the deck with its
    undrawn part in a sampled order, seed (W,) the seed of the draws made below the root in that world (ties
    broken in playouts), base (n_actions,) the visits of each root action when these worlds were sampled (those of
    a kept subtree the search goes on from; zero in a fresh tree). A simulation through the root's child of n
    visits plays world (n - base) mod W, so the k-th simulations of any two root actions in this search meet the
    same deck order. W = 0: every simulation samples its own."""

    order: np.ndarray
    seed: np.ndarray
    base: np.ndarray


def new_worlds(count: int, deck_size: int, n_actions: int) -> Worlds:
    """Room for `count` shared worlds of a deck of `deck_size` dominoes, for a root of `n_actions` actions."""
    return Worlds(np.zeros((count, deck_size), dtype=np.int64), np.zeros(count, dtype=np.int64),
                  np.zeros(n_actions, dtype=np.int64))


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
def _copy_into(dst, src):
    """Copy an array into one of the same size, square by square (a slice assignment would compile numba's shape
    checks and their messages)."""
    d = dst.reshape(-1)
    s = src.reshape(-1)
    for i in range(d.size):
        d[i] = s[i]


@njit(cache=True)
def _copy_game(dst, src):
    """Copy a one-game state record into another of the same shapes."""
    _copy_into(dst.terrain, src.terrain)
    _copy_into(dst.crowns, src.crowns)
    _copy_into(dst.bbox, src.bbox)
    _copy_into(dst.deck, src.deck)
    _copy_into(dst.drawn, src.drawn)
    _copy_into(dst.cur_line, src.cur_line)
    _copy_into(dst.cur_owner, src.cur_owner)
    _copy_into(dst.next_line, src.next_line)
    _copy_into(dst.next_owner, src.next_owner)
    _copy_into(dst.first_kings, src.first_kings)
    _copy_into(dst.order_player, src.order_player)
    _copy_into(dst.order_slot, src.order_slot)
    _copy_into(dst.turn, src.turn)
    _copy_into(dst.round, src.round)
    _copy_into(dst.phase, src.phase)
    _copy_into(dst.scores, src.scores)
    _copy_into(dst.largest, src.largest)
    _copy_into(dst.total_crowns, src.total_crowns)
    _copy_into(dst.discarded, src.discarded)
    _copy_into(dst.n_steps, src.n_steps)
    _copy_into(dst.quests, src.quests)


@njit(cache=True)
def _sample_world(deck, drawn, pool):
    """Replace deck[drawn:] by a uniformly random ordered sample of the dominoes not among deck[:drawn]."""
    shuffle_unseen(deck, drawn, 0, N_DOMINOES, np.arange(deck.shape[0]), pool)


@njit(cache=True)
def shuffle_unseen(order, known, base, n_ids, positions, pool):
    """Refill order[i] for the positions i >= known among `positions` (in their order) with a uniformly random
    ordered sample of the ids base .. base + n_ids - 1 not among the order's entries at positions below `known`.
    pool: (n_ids,) int64 scratch."""
    seen = np.zeros(n_ids, dtype=np.bool_)
    for i in positions:
        if i < known:
            seen[order[i] - base] = True
    k = 0
    for d in range(n_ids):
        if not seen[d]:
            pool[k] = base + d
            k += 1
    j = 0
    for i in positions:
        if i >= known:
            pick = j + int(np.random.random() * (k - j))
            pool[j], pool[pick] = pool[pick], pool[j]
            order[i] = pool[j]
            j += 1


@njit(cache=True)
def sample_worlds(deck, drawn, worlds):
    """Fill `worlds` with independent samples of the undrawn part of `deck` (the first `drawn` entries kept)."""
    pool = np.zeros(N_DOMINOES, dtype=np.int64)
    for w in range(worlds.seed.shape[0]):
        for i in range(drawn):
            worlds.order[w, i] = deck[i]
        _sample_world(worlds.order[w], drawn, pool)
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
def simulate(root, constants, tree, sims, params, heuristic, net, worlds, root_action):
    """Run `sims` simulations from the one-game state record `root` (a `KingdominoArrays` of batch 1) into
    `tree`, leaves valued by the network `net` (`network.Weights`) when `params.network`, else by the heuristic
    with weights `heuristic`; each in the shared world of `worlds` its root action is due (`Worlds`), or, when
    there are none, in a world of its own. root_action: the legal root action every simulation takes (-1: the one
    PUCT selects).
    Returns the number of simulations run (fewer when the tree is full)."""
    st = KingdominoArrays(*root)
    v = Variant(*constants)
    scratch = KingdominoArrays(st.terrain.copy(), st.crowns.copy(), st.bbox.copy(), st.deck.copy(), st.drawn.copy(),
                               st.cur_line.copy(), st.cur_owner.copy(), st.next_line.copy(), st.next_owner.copy(),
                               st.first_kings.copy(), st.order_player.copy(), st.order_slot.copy(), st.turn.copy(),
                               st.round.copy(), st.phase.copy(), st.scores.copy(), st.largest.copy(),
                               st.total_crowns.copy(), st.discarded.copy(), st.n_steps.copy(), st.quests.copy())
    mask_view = MaskArrays(scratch.terrain, scratch.bbox, scratch.cur_line, scratch.next_line, scratch.next_owner,
                           scratch.order_player, scratch.order_slot, scratch.turn, scratch.phase)
    mover_view = MoverArrays(scratch.terrain, scratch.crowns, scratch.bbox, scratch.cur_line, scratch.next_line,
                             scratch.next_owner, scratch.order_player, scratch.order_slot, scratch.turn, scratch.phase,
                             scratch.quests)
    s = st.terrain.shape[2]
    n_actions = v.n_place + 1 + v.line
    kingdoms = st.terrain.shape[1]
    mask = np.zeros((1, n_actions), dtype=np.bool_)
    logits = np.zeros(n_actions)
    actions = np.zeros(n_actions, dtype=np.int64)
    no_mask = np.zeros(1, dtype=np.bool_)
    pool = np.zeros(N_DOMINOES, dtype=np.int64)
    path = np.zeros(512, dtype=np.int64)
    u = np.zeros(kingdoms)
    lead = np.zeros(kingdoms)
    greedy_space = greedy_scratch(s, v.line)
    labels, stack, cells, _ = greedy_space
    heuristic_space = heuristic_scratch(s, v.line)
    scratch_space = np.zeros((3, s * s + 1), dtype=np.int64)
    indices = np.zeros((kingdoms, s * s), dtype=np.int64)
    dense = np.zeros((kingdoms, net.wd.shape[0]))
    glob = np.zeros((kingdoms, net.w2.shape[0] - 2 * net.b1.shape[0]))
    outputs = np.zeros((kingdoms, 2))
    played = np.zeros(kingdoms)
    mover = np.int64(st.order_player[0, st.turn[0]])
    n_worlds = worlds.seed.shape[0]
    done = 0
    for _ in range(sims):
        if tree.size[0] + 1 >= tree.visits.shape[0]:
            break
        _copy_game(scratch, st)
        if n_worlds == 0:
            _sample_world(scratch.deck[0], scratch.drawn[0], pool)
        node = ROOT
        depth = 0
        path[0] = 0
        while scratch.phase[0] != OVER:
            kernels.legal_mask(mask_view, constants, mask)
            n_legal = np.int64(0)
            for a in range(n_actions):
                if mask[0, a]:
                    actions[n_legal] = a
                    n_legal += 1
            if depth == 0 and root_action >= 0:
                a = root_action
            else:
                kingdom = scratch.order_player[0, scratch.turn[0]]
                action_logits(scratch, v, actions, n_legal, logits)
                a = _select(tree, node, actions, n_legal, logits, kingdom, n_actions, params.c_puct)
            if depth == 0 and n_worlds > 0:
                child = child_of(tree, ROOT, a, n_actions)
                w = ((tree.visits[child] if child >= 0 else 0) - worlds.base[a]) % n_worlds
                _copy_into(scratch.deck[0], worlds.order[w])
                np.random.seed(worlds.seed[w])
            kernels.step_game(scratch, v, ONE_GAME, a, labels, stack, no_mask)
            depth += 1
            node, made = child_or_new(tree, node, a, n_actions)
            path[depth] = node
            if made:
                break
        if scratch.phase[0] == OVER:
            terminal_utilities(scratch.scores[0], scratch.largest[0], scratch.total_crowns[0], params.margin_weight,
                               params.margin_softness, u)
            win, margin = terminal_outcome(scratch.scores[0], scratch.largest[0], scratch.total_crowns[0], mover)
        else:
            mix = 1.0 if params.endgame and placing_in_final_round(scratch, 0) else params.playout_mix
            win, margin = 0.0, 0.0
            if mix < 1:
                if params.network:
                    game_features(scratch, v, indices, dense, glob, labels, stack, scratch_space, cells)
                    forward(net, indices, dense, glob, outputs)
                    utilities_from(outputs, params.margin_weight, params.margin_softness, u)
                    win, margin = outcome_of(outputs, mover)
                else:
                    leaf_utilities(scratch, v, heuristic, params.value_scale, labels, stack, scratch_space, u, lead)
                    win, margin = u[mover], lead[mover]
            if mix > 0:
                _playout(scratch, mover_view, v, params.heuristic_playout, params.endgame, heuristic, greedy_space,
                         heuristic_space, no_mask)
                win, margin = mix_in_final(scratch.scores[0], scratch.largest[0], scratch.total_crowns[0], mover,
                                           mix, params, played, u, win, margin)
        backup(tree, path, depth, u, win, margin)
        done += 1
    return done


@njit(cache=True)
def mix_in_final(scores, largest, crowns, mover, mix, params, played, u, win, margin):
    """Mix the final utilities of a finished playout (its (K,) scores, largest territories and crowns), the share
    `mix`, into a leaf's utilities u (in place) and the mover's win share and margin; returns those two. `played`
    (K,) is scratch."""
    terminal_utilities(scores, largest, crowns, params.margin_weight, params.margin_softness, played)
    for k in range(u.shape[0]):
        u[k] = (1 - mix) * u[k] + mix * played[k]
    played_win, played_margin = terminal_outcome(scores, largest, crowns, mover)
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


@njit(cache=True, inline="always")
def _playout(scratch, mover_view, v, heuristic_playout, endgame, heuristic, greedy_space, heuristic_space, no_mask):
    """Play the one-game record `scratch` to its end, every seat by Full Greedy, or by the heuristic with weights
    `heuristic` before the last round when `heuristic_playout` (ties split at random), and the last round exactly
    when `endgame` (`kingdomino_endgame`); `greedy_space`, `heuristic_space`: `greedy_scratch`'s and
    `heuristic_scratch`'s arrays."""
    labels, stack, cells, best_picks = greedy_space
    while scratch.phase[0] != OVER:
        if endgame and placing_in_final_round(scratch, 0):
            a = final_round_action(scratch, v, 0)
        elif heuristic_playout and scratch.next_line[0, 0] >= 0:
            a = heuristic_action(mover_view, v, 0, heuristic, np.random.random(), heuristic_space)
        else:
            a = greedy_action(mover_view, v, 0, False, np.random.random(), labels, stack, cells, best_picks)
        kernels.step_game(scratch, v, ONE_GAME, a, labels, stack, no_mask)


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
