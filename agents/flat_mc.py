"""Flat Monte Carlo evaluation, MCE-FG/R of Gedda, Lagerkvist and Butler (IEEE CIG 2018).

Each legal action of the player to move is tried in sampled worlds (`determinise`), the game played out by Full
Greedy for every seat, and scored by the ratio own / (own + best opponent); the action with the best mean ratio is
played. All actions of a decision share the same sampled worlds (common random numbers), which makes their
comparison less noisy, and the playouts of all actions and all games being decided run as one batched core state.
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

#: The most playouts per game in one batched sweep: a larger playout budget runs in several sweeps, so that memory
#: stays bounded whatever the budget.
CHUNK_PLAYOUTS = 1 << 14


class FlatMonteCarloAgent(Agent):
    """MCE-FG/R with a budget per move: `Budget(playouts=N)` splits N playouts evenly over the legal actions (at
    least one each); `Budget(seconds=t)` runs sweeps of one playout per action until t seconds per game decided
    would be exceeded. Decisions with a single legal action are played at once."""

    def __init__(self, budget: Budget, seed: int | None = None, name: str | None = None,
                 playout: str = ANCHOR_PLAYOUT):
        self.budget = budget
        self.playout = check_playout(playout)
        self.rng = np.random.default_rng(seed)
        self.name = name or f"mc:{budget}"
        self.playouts = 0

    def act_batch(self, state: State, games: np.ndarray, mask: np.ndarray, obs: np.ndarray | None) -> np.ndarray:
        start = time.perf_counter()
        out = mask.argmax(axis=1).astype(np.int64)
        open_ = np.flatnonzero(mask.sum(axis=1) > 1)
        if open_.size == 0:
            return out
        sub_games = games[open_]
        candidates = [np.flatnonzero(mask[i]) for i in open_]
        totals = [np.zeros(c.size) for c in candidates]
        movers = state.current_kingdom[sub_games]  # ratios are per kingdom (a team's, in team games)
        if self.budget.playouts is not None:
            sizes = np.array([c.size for c in candidates])
            left = np.maximum(1, self.budget.playouts // sizes)
            per_sweep = np.maximum(1, CHUNK_PLAYOUTS // sizes)
            while (live := np.flatnonzero(left)).size:
                worlds = np.minimum(left[live], per_sweep[live])
                self._sweep(state, sub_games[live], [candidates[i] for i in live], movers[live], worlds,
                            [totals[i] for i in live])
                left[live] -= worlds
        else:
            deadline = start + self.budget.seconds * open_.size
            while True:
                began = time.perf_counter()
                self._sweep(state, sub_games, candidates, movers, np.ones(open_.size, dtype=np.int64), totals)
                now = time.perf_counter()
                if now + (now - began) > deadline:
                    break
        for i, c, total in zip(open_, candidates, totals, strict=True):
            out[i] = c[int(np.argmax(total))]
        return out

    def _sweep(self, state: State, games: np.ndarray, candidates: list[np.ndarray], movers: np.ndarray,
               worlds: np.ndarray, totals: list[np.ndarray]) -> None:
        """Play worlds[g] sampled worlds of each game g once per candidate action, adding the ratios to `totals`."""
        sampled = determinise(state, games, worlds, self.rng)
        first = np.concatenate([[0], np.cumsum(worlds)[:-1]])
        rows = [np.tile(np.arange(f, f + w), c.size) for f, w, c in zip(first, worlds, candidates, strict=True)]
        actions = [np.repeat(c, w) for w, c in zip(worlds, candidates, strict=True)]
        sims = sampled.take(np.concatenate(rows))
        core.step(sims, np.concatenate(actions))
        ratios = score_ratio(playout(sims, self.rng, self.playout))
        self.playouts += sims.batch_size
        at = 0
        for g, (w, c) in enumerate(zip(worlds, candidates, strict=True)):
            totals[g] += ratios[at:at + c.size * w, movers[g]].reshape(c.size, w).sum(axis=1)
            at += c.size * w

    def estimate(self, state: State, game: int, seconds: float | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Play out every legal action of the player to move in game `game` of `state` in the same sampled worlds
        (this agent's budget, or `seconds`) and return, best first (higher mean win share, then higher mean
        margin): the actions, the mover's mean win share (a shared victory counts as its share) and mean margin
        over its playouts, and the playouts of each (the mover's team's, in team games)."""
        start = time.perf_counter()
        budget = self.budget if seconds is None else Budget(seconds=seconds)
        games = np.array([game], dtype=np.int64)
        legal = np.flatnonzero(core.legal_action_mask(state.take(games))[0])
        seat = int(state.current_player[game])
        left = max(1, budget.playouts // legal.size) if budget.playouts is not None else 0
        wins, margins, played = np.zeros(legal.size), np.zeros(legal.size), 0
        while True:
            worlds = min(left, max(1, CHUNK_PLAYOUTS // legal.size)) if budget.playouts is not None else 1
            began = time.perf_counter()
            sims = determinise(state, games, worlds, self.rng).take(np.tile(np.arange(worlds), legal.size))
            core.step(sims, np.repeat(legal, worlds))
            finished = playout(sims, self.rng, self.playout)
            self.playouts += sims.batch_size
            wins += core.win_shares(finished)[:, seat].reshape(legal.size, worlds).sum(axis=1)
            margins += core.rewards(finished, "margin")[:, seat].reshape(legal.size, worlds).sum(axis=1)
            played += worlds
            left -= worlds
            now = time.perf_counter()
            if (budget.seconds is None and left <= 0) or (budget.seconds is not None
                                                          and now + (now - began) > start + budget.seconds):
                break
        order = np.lexsort((-margins, -wins))
        return legal[order], wins[order] / played, margins[order] / played, np.full(legal.size, played)
