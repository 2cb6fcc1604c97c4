"""The PettingZoo AEC env, at its public path: `kingdomino_env.env.env()`, `raw_env`, `queendomino_env()` and
`royal_wedding_env()`. The implementation and its documentation (action layout, observations, rewards, records)
are in `kingdomino_env.envs.aec`."""

from __future__ import annotations

from .envs.aec import (
    OVER,
    CheckedEnv,
    env,
    observation_space,
    queendomino_env,
    queendomino_observation_space,
    raw_env,
    royal_wedding_env,
)

__all__ = ["OVER", "CheckedEnv", "env", "observation_space", "queendomino_env", "queendomino_observation_space",
           "raw_env", "royal_wedding_env"]
