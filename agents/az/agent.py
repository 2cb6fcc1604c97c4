"""The `az` agent: tree search guided by a trained network (`search`), or the network's policy alone.

A leaf's value is the network's value mixed half and half with a playout from it by the heuristic playout policy
(`SearchConfig.rollout` = 0.5, `SearchConfig.playout`), as AlphaGo mixed its value network with rollouts: with the
networks trained on two CPU cores, the mix wins far more often than either alone (measured: see the training page
of the documentation).

Budget: simulations per move (0 = the policy alone, no search) or seconds per move. The network is the shipped one
for the game's variant (Kingdomino's by board size and player count, `files.SHIPPED`; Queendomino's and the
Royal Wedding's by game, `files.SHIPPED_QUEEN`) or a given file. Play is
deterministic given the seed: the root is Gumbel AlphaZero's without noise (`SearchConfig.root`), and the winner of
its sequential halving is played; with the PUCT root, the most visited action (ties: the higher prior). Torch runs on
`threads` threads (1 by default: the targets are measured on one core, and tournament workers are processes), and
the network runs as `inference` says (`inference.INFERENCE`: "auto", the default, runs the faster CPU copy of a known
network; "torch" the module as trained).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from kingdomino_env import core
from kingdomino_env.core import State
from kingdomino_env.rules import Rules

from ..base import Agent
from ..budget import check_count, check_seconds
from .files import load_network, read_info, shipped_network
from .inference import INFERENCE, inference_network
from .search import NetworkEvaluator, PUCTSearch, SearchConfig

#: Simulations per move of `az` without a budget.
DEFAULT_SIMULATIONS = 200


class AZAgent(Agent):
    """PUCT + network with `simulations` per move, or `seconds` per move (exactly one is not None)."""

    def __init__(self, simulations: int | None = DEFAULT_SIMULATIONS, seconds: float | None = None,
                 network: str | Path | None = None, seed: int | None = None, name: str | None = None,
                 config: SearchConfig | None = None, threads: int | None = 1, inference: str = "auto"):
        if (simulations is None) == (seconds is None):
            raise ValueError("give either simulations or seconds per move")
        if simulations is not None:
            simulations = check_count(simulations, "simulations per move", low=0)
        if seconds is not None:
            seconds = check_seconds(seconds)
        if inference not in INFERENCE:
            raise ValueError(f"inference must be one of {', '.join(INFERENCE)}, got {inference!r}")
        self.simulations, self.seconds = simulations, seconds
        self.network = Path(network) if network is not None else None
        self.rng = np.random.default_rng(seed)
        self.config = config if config is not None else SearchConfig()
        self.threads = threads
        self.inference = inference
        self.name = name or "az"
        self._evaluators: dict[Path, NetworkEvaluator] = {}
        self.simulations_run = 0

    def network_for(self, rules: Rules) -> Path:
        """The network file this agent uses for `rules`; ValueError if it cannot play them."""
        path = self.network if self.network is not None else shipped_network(rules)
        info = read_info(path)
        if not info.plays(rules):
            raise ValueError(f"the az network {path} plays {info.describe()}, not this variant")
        return path

    def evaluator(self, rules: Rules) -> NetworkEvaluator:
        path = self.network_for(rules)
        if path not in self._evaluators:
            import torch

            if self.threads is not None:
                torch.set_num_threads(self.threads)
            net, _ = load_network(path)
            self._evaluators[path] = NetworkEvaluator(inference_network(net, self.inference), self.config.margin_weight)
        return self._evaluators[path]

    def act_batch(self, state: State, games: np.ndarray, mask: np.ndarray, obs: np.ndarray | None) -> np.ndarray:
        out = mask.argmax(axis=1).astype(np.int64)
        open_ = np.flatnonzero(mask.sum(axis=1) > 1)
        if open_.size == 0:
            return out
        search = PUCTSearch(self.evaluator(state.rules), self.config, self.rng)
        visits, roots = search.run(state, games[open_], mask[open_], self.simulations, self.seconds)
        self.simulations_run += search.simulations
        for k, (i, root) in enumerate(zip(open_, roots, strict=True)):
            if root.choice >= 0:
                out[i] = root.choice
                continue
            legal = np.flatnonzero(mask[i])
            prior = root.priors(legal, 0.0)
            out[i] = legal[np.lexsort((-prior, -visits[k, legal]))[0]]
        return out

    def estimate(self, state: State, game: int, seconds: float | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Search game `game` of `state` (this agent's budget, or `seconds`) and return, for each legal action of
        the player to move, best first (the action `act` plays, then most visits, then the higher prior): the actions,
        the mover's mean win probability and margin over the simulations through each, and their visits. An action
        the search did not visit is valued once, like a leaf, in a sampled world (its visits stay 0).
        ValueError with no simulations (az:0)."""
        simulations, budget = (None, seconds) if seconds is not None else (self.simulations, self.seconds)
        if simulations == 0:
            raise ValueError("az with 0 simulations plays the policy alone and estimates nothing; give az:SIMS "
                             "(SIMS >= 1) or seconds")
        games = np.array([game], dtype=np.int64)
        mask = core.legal_action_mask(state.take(games))
        search = PUCTSearch(self.evaluator(state.rules), self.config, self.rng)
        _, roots = search.run(state, games, mask, simulations, budget)
        self.simulations_run += search.simulations
        root, legal = roots[0], np.flatnonzero(mask[0])
        visits = root.visits[legal]
        order = np.lexsort((-root.priors(legal, 0.0), -visits, legal != root.choice))
        legal, visits = legal[order], visits[order]
        win = root.wins[legal] / np.maximum(visits, 1)
        margin = root.margins[legal] / np.maximum(visits, 1)
        unvisited = np.flatnonzero(visits == 0)
        if unvisited.size:
            mover = root.player
            wins_after, margins_after = search.outcomes_after(state, game, legal[unvisited])
            win[unvisited], margin[unvisited] = wins_after[:, mover], margins_after[:, mover]
        return legal, win, margin, visits.astype(np.int64)
