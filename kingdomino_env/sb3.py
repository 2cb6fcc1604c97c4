"""The Stable-Baselines3 adapter at its public path (`SB3VecEnv`, `ModelPolicy`); the implementation is
`kingdomino_env.envs.sb3`."""

from __future__ import annotations

from .envs.sb3 import ModelPolicy, SB3VecEnv

__all__ = ["ModelPolicy", "SB3VecEnv"]
