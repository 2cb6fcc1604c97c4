"""Self-play games of an `az` network with its search: the positions they produce are its training data.

Many games are played at once (one search call decides every game waiting for a choice). With Gumbel
AlphaZero's root (`root="gumbel"`, the default), the move is the sequential halving's winner among
Gumbel-sampled candidates (the noise explores) and the target is the improved policy (the prior moved by the
completed Q values), which improves on the prior even at 16 or 32 simulations. With the PUCT root
(`root="puct"`), Dirichlet noise is mixed into the root's priors; for the first `temperature_steps` actions of a
game the move is drawn in proportion to the root's visits, then the most visited is played, and the policy target
is the visit shares. With `endgame` (the default), a Kingdomino game's last round is solved, not searched
(`PUCTSearch.run`): its move is the exact best and its target that move alone. Every decision with more than one
legal action is kept with its target (`az_data.Recorder`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from agents.az.files import load_network
from agents.az.search import ROOT_SELECTIONS, NetworkEvaluator, PUCTSearch, SearchConfig
from agents.budget import MAX_PLAYOUTS
from agents.playout import PLAYOUT_POLICIES, SEARCH_PLAYOUT
from kingdomino_env.core import State
from kingdomino_env.rules import Rules
from tournament.worker_pool import spawn_pool

from .az_data import Positions, play_games
from .config_check import boolean, check_values, choice, integer, number

#: Each key of `SelfPlayConfig`: its type and range.
SELFPLAY_CHECKS = {
    "simulations": integer(1, MAX_PLAYOUTS), "batch": integer(1, 4096), "c_puct": number(0, 100),
    "margin_weight": number(0, 1), "noise": number(0, 1), "alpha": number(0, 100, above=True),
    "temperature_steps": integer(0, 10_000), "rollout": number(0, 1), "playout": choice(*PLAYOUT_POLICIES),
    "root": choice(*ROOT_SELECTIONS), "gumbel_actions": integer(2, 4096), "gumbel_scale": number(0, 100),
    "endgame": boolean,
}


@dataclass(frozen=True)
class SelfPlayConfig:
    """simulations per decision; batch: worlds per game per search round; temperature_steps: actions of a game
    (all players') drawn in proportion to visits (PUCT root only); the rest as in `SearchConfig`."""

    simulations: int = 64
    batch: int = 8
    c_puct: float = 1.5
    margin_weight: float = 0.25
    noise: float = 0.25
    alpha: float = 0.3
    temperature_steps: int = 12
    rollout: float = 0.5
    playout: str = SEARCH_PLAYOUT
    root: str = "gumbel"
    gumbel_actions: int = 16
    gumbel_scale: float = 1.0
    endgame: bool = True

    def __post_init__(self) -> None:
        """Bad search options are refused when the config is made, not later in a worker: each key's type and range
        (ConfigError naming it), then the search's own checks."""
        check_values(asdict(self), SELFPLAY_CHECKS)
        _ = self.search

    @property
    def search(self) -> SearchConfig:
        return SearchConfig(self.c_puct, self.batch, self.margin_weight, self.noise, self.alpha, self.rollout,
                            self.playout, self.root, self.gumbel_actions, self.gumbel_scale,
                            endgame=self.endgame)

    def to_dict(self) -> dict:
        return asdict(self)


def selfplay(evaluator: NetworkEvaluator, variants: list[Rules], games: int, seed: int,
             config: SelfPlayConfig = SelfPlayConfig()) -> tuple[Positions, int]:
    """Play `games` games (spread over `variants`) and return (their positions, simulations run)."""
    rng = np.random.default_rng(seed)
    search = PUCTSearch(evaluator, config.search, rng)

    def decide(state: State, games: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        visits, roots = search.run(state, games, mask, config.simulations)
        if config.root == "gumbel":
            return np.array([root.choice for root in roots]), np.stack([root.improved for root in roots])
        played = visits.argmax(axis=1)
        shares = np.empty(visits.shape)
        for k, (g, root) in enumerate(zip(games.tolist(), roots, strict=True)):
            if root.improved is not None:
                played[k], shares[k] = root.choice, root.improved
                continue
            shares[k] = visits[k] / visits[k].sum()
            if state.n_steps[g] < config.temperature_steps:
                played[k] = rng.choice(shares.shape[1], p=shares[k])
        return played, shares

    return play_games(variants, games, rng, decide), search.simulations


def selfplay_task(network: str, variants: list[dict], games: int, seed: int, config: dict
                  ) -> tuple[Positions, int, float]:
    """`selfplay` in a worker process: the network is read from its file, torch runs on one thread. (positions,
    simulations, the worker's CPU seconds for the task: what it cost, however busy the machine was.)"""
    import torch

    began = time.process_time()
    torch.set_num_threads(1)
    net, _ = load_network(Path(network))
    cfg = SelfPlayConfig(**config)
    positions, simulations = selfplay(NetworkEvaluator(net, cfg.margin_weight), [Rules.from_dict(v) for v in variants],
                                      games, seed, cfg)
    return positions, simulations, time.process_time() - began


class ProcessSelfPlay:
    """Self-play workers as spawned processes of this machine (`ray_selfplay.RaySelfPlay` puts them on Ray)."""

    def __init__(self, workers: int):
        self.pool = spawn_pool(workers)

    def play(self, network: Path, variants: list[dict], jobs: Sequence[tuple[int, int]], config: dict
             ) -> list[tuple[Positions, int, float]]:
        """(positions, simulations, CPU seconds) of each (games, seed) job, in order."""
        futures = [self.pool.submit(selfplay_task, str(network), variants, games, seed, config)
                   for games, seed in jobs]
        return [f.result() for f in futures]

    def close(self) -> None:
        self.pool.shutdown()

    def __enter__(self) -> ProcessSelfPlay:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
