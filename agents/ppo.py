"""Trained policies: sb3-contrib MaskablePPO models as agents.

A model is used as saved: its observation is the core's flat observation of the player to move (a Box of
`observation_size(rules)`), or a Dict with that vector under "observation" and the int8 legal mask under
"action_mask"; its action space is Discrete(rules.n_actions). It plays deterministically (the most probable legal
action). Loading needs the `train` extra (`pip install kingdomino-rl[train]`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from kingdomino_env import core
from kingdomino_env.core import State
from kingdomino_env.files import check_regular_file

from .base import Agent
from .model_file import MAX_MODEL_BYTES, ModelShape, describe_variant, variants_text

#: The shipped 2-player policy (see the documentation's training page); `agents.load("ppo")` loads it.
SHIPPED_MODEL = Path(__file__).resolve().parent / "models" / "ppo_2p.zip"


def resolve_model_path(path: str | Path) -> Path:
    """The existing model file `path` names (SB3 adds ".zip" when it is missing); ValueError if none exists."""
    p = Path(path).expanduser()
    for candidate in (p, p.with_name(p.name + ".zip")):
        if candidate.exists():
            check_regular_file(candidate, "the model file", MAX_MODEL_BYTES)
            return candidate
    raise ValueError(f"no model file at {str(path)!r} (nor at {str(path) + '.zip'!r})")


class PPOAgent(Agent):
    """A MaskablePPO policy loaded from a .zip saved by sb3-contrib, acting greedily on legal actions."""

    needs_observation = True

    def __init__(self, path: str | Path, name: str | None = None):
        try:
            from sb3_contrib import MaskablePPO
        except ImportError as err:
            raise ValueError("loading a PPO policy needs sb3-contrib: pip install 'kingdomino-rl[train]'") from err
        self.path = resolve_model_path(path)
        try:
            self.model = MaskablePPO.load(self.path, device="cpu")
        except Exception as err:  # SB3 raises many kinds for a file that is not one of its models
            raise ValueError(f"cannot load a MaskablePPO model from {self.path}: {err}") from err
        self.name = name or f"ppo:{path}"
        self._checked: set[Any] = set()

    def _check(self, state: State, obs_size: int) -> None:
        if state.rules in self._checked:
            return
        space = self.model.observation_space
        shape = space["observation"].shape if hasattr(space, "spaces") else space.shape
        n_actions = getattr(self.model.action_space, "n", None)
        if shape != (obs_size,) or n_actions != state.rules.n_actions:
            model = ModelShape(int(shape[0]), int(n_actions)) if len(shape) == 1 and n_actions else None
            plays = variants_text(model) if model else f"observations of shape {shape} and {n_actions} actions"
            game = ModelShape(obs_size, state.rules.n_actions)
            raise ValueError(f"the policy {self.path} was trained for another variant: it plays {plays}; this game "
                             f"is a {describe_variant(state.rules, 'game')} ({game})")
        self._checked.add(state.rules)

    def act_batch(self, state: State, games: np.ndarray, mask: np.ndarray, obs: np.ndarray | None) -> np.ndarray:
        if obs is None:
            obs = core.observe(state.take(games))
        self._check(state, obs.shape[1])
        model_obs: Any = obs
        if hasattr(self.model.observation_space, "spaces"):
            model_obs = {"observation": obs, "action_mask": mask.astype(np.int8)}
        actions, _ = self.model.predict(model_obs, action_masks=mask, deterministic=True)
        return np.asarray(actions, dtype=np.int64).reshape(-1)
