"""UCT with determinisation (an open-loop, information-set style tree) and batched Full Greedy playouts.

Each iteration samples a world consistent with what the player to move knows (`determinise`), descends the tree
by UCB1 among the actions legal in that world, adds one node, plays the rest of the game out by Full Greedy and
backs up every player's ratio own / (own + best opponent) to the nodes where that player moved (max^n; in team
games a team is one player: its kingdom's ratio is backed up where either of its seats moved). Because
a node is reached by an action sequence whose outcome differs between worlds (new lines are drawn from the hidden
deck), an action's exploration term counts the iterations in which it was available, not the parent's visits.
Iterations run in batches of worlds stepped together on the core; a pending visit counts as a loss until its
playout returns (virtual loss), so the worlds of a batch spread over the tree.
"""

from __future__ import annotations

import time

import numpy as np

from kingdomino_env import core
from kingdomino_env.core import State

from .base import Agent
from .budget import Budget
from .determinise import determinise
from .playout import ANCHOR_PLAYOUT, check_playout, playout, score_ratio


class _Node:
    """Statistics of the actions taken at one node, from the point of view of `player`, the kingdom moving there
    (in team games both seats of a team share their kingdom's node values)."""

    __slots__ = ("player", "visits", "value", "available", "children")

    def __init__(self, player: int, n_actions: int):
        self.player = player
        self.visits = np.zeros(n_actions)
        self.value = np.zeros(n_actions)
        self.available = np.zeros(n_actions)
        self.children: dict[int, _Node] = {}

    def select(self, legal: np.ndarray, exploration: float, rng: np.random.Generator) -> int:
        """An untried legal action at random, else the legal action of highest UCB1."""
        self.available[legal] += 1
        visits = self.visits[legal]
        untried = legal[visits == 0]
        if untried.size:
            return int(untried[rng.integers(untried.size)])
        ucb = self.value[legal] / visits + exploration * np.sqrt(np.log(self.available[legal]) / visits)
        return int(legal[np.argmax(ucb)])


class UCTAgent(Agent):
    """UCT over determinised worlds with a budget per move (playouts, or seconds per game decided).

    exploration: the UCB1 constant (rewards are ratios in [0, 1]); batch: worlds per game searched together.
    The action played is the root's most visited one. Decisions with a single legal action are played at once.
    """

    def __init__(self, budget: Budget, seed: int | None = None, name: str | None = None, exploration: float = 0.3,
                 batch: int = 16, playout: str = ANCHOR_PLAYOUT):
        self.budget = budget
        self.playout = check_playout(playout)
        self.rng = np.random.default_rng(seed)
        self.name = name or f"mcts:{budget}"
        self.exploration = exploration
        self.batch = batch
        self.playouts = 0

    def act_batch(self, state: State, games: np.ndarray, mask: np.ndarray, obs: np.ndarray | None) -> np.ndarray:
        start = time.perf_counter()
        out = mask.argmax(axis=1).astype(np.int64)
        open_ = np.flatnonzero(mask.sum(axis=1) > 1)
        if open_.size == 0:
            return out
        sub_games = games[open_]
        players = state.current_kingdom[sub_games]  # ratios are per kingdom (a team's, in team games)
        roots = [_Node(int(p), state.rules.n_actions) for p in players]
        done = 0
        while True:
            if self.budget.playouts is not None:
                size = min(self.batch, self.budget.playouts - done)
                if size <= 0:
                    break
            else:
                size = self.batch
            began = time.perf_counter()
            self._iterate(state, sub_games, roots, size)
            done += size
            if self.budget.seconds is not None:
                now = time.perf_counter()
                if now + (now - began) > start + self.budget.seconds * open_.size:
                    break
        for i, root in zip(open_, roots, strict=True):
            out[i] = int(np.argmax(np.where(mask[i], root.visits, -1.0)))
        return out

    def _iterate(self, state: State, games: np.ndarray, roots: list[_Node], size: int) -> None:
        """Run `size` iterations for each game's tree, all worlds together."""
        worlds = determinise(state, games, size, self.rng)
        n_actions = state.rules.n_actions
        nodes: list[_Node | None] = [roots[w // size] for w in range(worlds.batch_size)]
        paths: list[list[tuple[_Node, int]]] = [[] for _ in range(worlds.batch_size)]
        active = np.arange(worlds.batch_size)
        while active.size:
            sub = worlds.take(active)
            mask = core.legal_action_mask(sub)
            actions = np.empty(active.size, dtype=np.int64)
            expanded = np.zeros(active.size, dtype=bool)
            for j, w in enumerate(active):
                node = nodes[w]
                a = node.select(np.flatnonzero(mask[j]), self.exploration, self.rng)
                expanded[j] = node.visits[a] == 0
                node.visits[a] += 1
                paths[w].append((node, a))
                actions[j] = a
            core.step(sub, actions)
            worlds.put(active, sub)
            movers = sub.current_kingdom
            keep = ~expanded & (movers >= 0)
            for j in np.flatnonzero(keep):
                node, a = paths[active[j]][-1]
                child = node.children.get(a)
                if child is None:
                    child = node.children[a] = _Node(int(movers[j]), n_actions)
                nodes[active[j]] = child
            active = active[keep]
        ratios = score_ratio(playout(worlds, self.rng, self.playout))
        self.playouts += worlds.batch_size
        for w, path in enumerate(paths):
            for node, a in path:
                node.value[a] += ratios[w, node.player]
