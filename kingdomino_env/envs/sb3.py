"""Stable-Baselines3 glue: `SB3VecEnv` lets sb3-contrib's MaskablePPO train on a `KingdominoVectorEnv`, and
`ModelPolicy` turns a trained model into an opponent policy.

    from sb3_contrib import MaskablePPO
    from kingdomino_env import KingdominoVectorEnv
    from kingdomino_env.envs.sb3 import SB3VecEnv

    env = SB3VecEnv(KingdominoVectorEnv(num_games=256, opponents="greedy"))
    model = MaskablePPO("MlpPolicy", env, n_steps=64).learn(1_000_000)

`SB3VecEnv` has SB3's conventions: `step_wait` returns (obs, rewards, dones, infos) with a list of one info dict
per slot; a slot whose game ended gets the next game's first observation and `infos[i]["terminal_observation"]`
(plus "score" and "rank"). MaskablePPO reads the masks through `env_method("action_masks")`. In self-play
(`KingdominoVectorEnv(self_play=True)`) the SB3 env has P * num_games slots; waiting slots have only the pass
action legal, so they add rollout rows without policy gradient (see `kingdomino_env.vector_env`). Wrap it in
`VecMonitor` for episode statistics. Queendomino trains the same way: `KingdominoVectorEnv(..., game="queendomino")`;
so does the Royal Wedding (`game="royal_wedding"`), in teams with one slot per game playing both seats of the
learner's team (see `kingdomino_env.vector_env`, "Teams").
This module imports stable-baselines3 (the `train` extra).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from ..core import State
from .vector import KingdominoVectorEnv

__all__ = ["SB3VecEnv", "ModelPolicy"]


class SB3VecEnv(VecEnv):
    """A `KingdominoVectorEnv` as an SB3 `VecEnv` (num_envs = the vector env's slots)."""

    def __init__(self, env: KingdominoVectorEnv):
        if not isinstance(env, KingdominoVectorEnv):
            raise ValueError(f"SB3VecEnv wraps a KingdominoVectorEnv, got {type(env).__name__}")
        self.env = env
        self._actions: np.ndarray | None = None
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)

    def reset(self) -> np.ndarray:
        """Reset every game; a seed set by `seed(s)` deals game b with s + b (as `KingdominoVectorEnv.reset`)."""
        if any(self._options):
            raise ValueError(f"KingdominoVectorEnv.reset takes no options, got {self._options[0]}")
        obs, info = self.env.reset(seed=self._seeds[0])
        self.reset_infos = [{} for _ in range(self.num_envs)]
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async()")
        actions, self._actions = self._actions, None
        obs, rewards, terminated, truncated, info = self.env.step(actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            final_obs, final = info["final_obs"], info["final_info"]
            for i in np.flatnonzero(dones).tolist():
                infos[i] = {"terminal_observation": final_obs[i], "score": int(final["score"][i]),
                            "rank": int(final["rank"][i]), "TimeLimit.truncated": bool(truncated[i])}
        return obs, rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """(num_envs, n_actions) bool legal actions of each slot."""
        return self.env.action_masks()

    def close(self) -> None:
        self.env.close()

    # Attribute access: the vector env is one object; per-slot answers repeat it for each requested slot.
    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        value = getattr(self.env, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.env, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
                   ) -> list[Any]:
        """`action_masks` answers one row per slot; any other method is called once on the vector env and its
        result repeated for each requested slot."""
        slots = list(self._get_indices(indices))
        if method_name == "action_masks":
            return list(self.env._mask[slots])
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [result for _ in slots]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def _get_indices(self, indices: Any) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int | np.integer):
            return [int(indices)]
        return list(indices)


class ModelPolicy:
    """An SB3 model (e.g. a MaskablePPO loaded from a checkpoint) as a `policies.Policy`, to use as an opponent.

    The model acts on the observations from the mover's seat, masked by the legal actions. It is used as it is:
    to play against a frozen snapshot while training, load a separate copy (`MaskablePPO.load(path)`).
    """

    needs_observation = True

    def __init__(self, model: Any, deterministic: bool = False):
        if not callable(getattr(model, "predict", None)):
            raise ValueError(f"ModelPolicy needs a model with predict(obs, action_masks=...), got "
                             f"{type(model).__name__}")
        self.model = model
        self.deterministic = deterministic

    def act(self, state: State, games: np.ndarray, mask: np.ndarray, obs: np.ndarray | None) -> np.ndarray:
        if obs is None:
            raise ValueError("ModelPolicy needs the observations (needs_observation is True)")
        actions, _ = self.model.predict(obs, action_masks=mask, deterministic=self.deterministic)
        return np.asarray(actions, dtype=np.int64).reshape(-1)
