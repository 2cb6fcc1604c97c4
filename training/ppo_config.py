"""The configuration of PPO self-play (`TrainConfig`) and the opponent mix it gives each game.

Shared by the local trainer (`training.train_ppo`) and the Ray one (`training.ray_selfplay`), which both import it
from here.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from kingdomino_env import core
from kingdomino_env.rules import Rules

DEFAULT_OUT = "runs/ppo"


@dataclass
class TrainConfig:
    players: int = 2
    mighty_duel: bool = False
    timesteps: int = 1_000_000
    seed: int = 0
    out: str = DEFAULT_OUT
    games: int = 128
    reward: str = "margin"
    imitation_games: int = 4000
    imitation_epochs: int = 4
    channels: int = 16
    hidden: int = 128
    learning_rate: float = 1e-4
    n_steps: int = 64
    batch_size: int = 2048
    n_epochs: int = 4
    gamma: float = 1.0
    gae_lambda: float = 0.95
    ent_coef: float = 0.003
    clip_range: float = 0.1
    greedy_share: float = 0.5
    random_share: float = 0.1
    pool_size: int = 5
    snapshot_every: int = 200_000
    eval_every: int = 100_000
    eval_games: int = 200
    threads: int = 1
    game: str = "kingdomino"
    teams: bool = False

    def __post_init__(self) -> None:
        _ = self.rules  # a bad variant fails here
        if self.reward not in core.REWARD_MODES:
            raise ValueError(f"reward must be one of {', '.join(core.REWARD_MODES)}, got {self.reward!r}")
        for name in ("timesteps", "games", "n_steps", "batch_size", "n_epochs", "pool_size", "snapshot_every",
                     "eval_every", "eval_games", "threads", "channels", "hidden"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if not 0 <= self.greedy_share + self.random_share <= 1 or min(self.greedy_share, self.random_share) < 0:
            raise ValueError("greedy_share and random_share must be >= 0 and sum to at most 1")

    @property
    def rules(self) -> Rules:
        """The variant of the run: the `Rules` options among the config's fields."""
        return Rules.make(**{name: getattr(self, name) for name in rule_fields()})


def rule_fields() -> tuple[str, ...]:
    """The `TrainConfig` fields that are `Rules` options (the rest configure training)."""
    options = {o.name for o in Rules.options()}
    return tuple(f.name for f in fields(TrainConfig) if f.name in options)


def opponent_mix(config: TrainConfig, pool: list[Any]) -> list[Any]:
    """One opponent entry per game: greedy, random, then frozen snapshots in turn."""
    n_greedy = round(config.greedy_share * config.games)
    n_random = round(config.random_share * config.games)
    mix: list[Any] = ["greedy"] * n_greedy + ["random"] * n_random
    rest = config.games - len(mix)
    mix += [pool[i % len(pool)] for i in range(rest)] if pool else ["greedy"] * rest
    return mix
