"""The configuration of PPO self-play (`TrainConfig`) and the opponent mix it gives each game.

Shared by the local trainer (`training.train_ppo`) and the Ray one (`training.ray_selfplay`), which both import it
from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from kingdomino_env import core
from kingdomino_env.rules import Rules

from .config_check import MAX_SEED, ConfigError, check_out_folder, check_values, choice, integer, number
from .runs import default_run_dir


def default_out() -> str:
    """The default run folder: `ppo` in the runs folder (`training.runs`), outside the repository."""
    return str(default_run_dir("ppo"))


#: Each key of `TrainConfig` but the `Rules` options (checked by `Rules`): its type and range.
CHECKS = {
    "timesteps": integer(1, 10**12), "seed": integer(0, MAX_SEED), "out": check_out_folder,
    "games": integer(1, 1 << 16), "reward": choice(*core.REWARD_MODES), "imitation_games": integer(0, 10**7),
    "imitation_epochs": integer(0, 10_000), "channels": integer(1, 1024), "hidden": integer(1, 4096),
    "learning_rate": number(0, 10, above=True), "n_steps": integer(1, 10**6), "batch_size": integer(1, 1 << 24),
    "n_epochs": integer(1, 10_000), "gamma": number(0, 1), "gae_lambda": number(0, 1), "ent_coef": number(0, 10),
    "clip_range": number(0, 10, above=True), "greedy_share": number(0, 1), "random_share": number(0, 1),
    "pool_size": integer(1, 1000), "snapshot_every": integer(1, 10**12), "eval_every": integer(1, 10**12),
    "eval_games": integer(1, 10**6), "threads": integer(1, 1024),
}


@dataclass
class TrainConfig:
    players: int = 2
    mighty_duel: bool = False
    timesteps: int = 1_000_000
    seed: int = 0
    out: str = field(default_factory=default_out)
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
        """Check every key before any work is done: its type and range (ConfigError naming it), the variant, and
        the opponent shares."""
        check_values({f.name: getattr(self, f.name) for f in fields(self)}, CHECKS)
        try:
            _ = self.rules
        except ValueError as err:
            raise ConfigError(f"the variant ({', '.join(rule_fields())}): {err}") from None
        if self.greedy_share + self.random_share > 1:
            raise ConfigError(f"greedy_share and random_share must sum to at most 1, got {self.greedy_share} + "
                              f"{self.random_share}")

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
