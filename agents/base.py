"""The agent interface: a batched `kingdomino_env.policies.Policy` that can also play one AEC env move.

Every agent acts for the player to move in some games of a core `State` batch (`act(state, games, mask, obs)`),
which is what tournaments, the vector env's opponents and search playouts call. `act(env)` with a single argument
is the convenience form for an AEC env made by `kingdomino_env.env(...)`: it returns one legal action id.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, overload

import numpy as np

from kingdomino_env.core import State


class Agent(ABC):
    """Base of all agents. Subclasses implement `act_batch`; `act` dispatches on its arguments.

    Attributes:
        name: The spec that makes this agent (e.g. `"greedy"`, `"mc:p200"`), used in tournament tables.
        needs_observation: Whether `act_batch` reads `obs` (callers skip computing observations otherwise).
    """

    name: str = "agent"
    needs_observation: bool = False

    @abstractmethod
    def act_batch(self, state: State, games: np.ndarray, mask: np.ndarray, obs: np.ndarray | None) -> np.ndarray:
        """The batched decision: one legal action for the player to move in each of some games.

        Args:
            state: The games.
            games: Indices into `state` of the games to decide.
            mask: `(len(games), n_actions)` bool, each game's legal actions.
            obs: `(len(games), obs_size)` the mover's observations, or None where `needs_observation` is False.

        Returns:
            `(len(games),)` legal action ids.
        """

    @overload
    def act(self, state: Any) -> int: ...

    @overload
    def act(self, state: State, games: np.ndarray, mask: np.ndarray, obs: np.ndarray | None) -> np.ndarray: ...

    def act(self, state: Any, games: np.ndarray | None = None, mask: np.ndarray | None = None,
            obs: np.ndarray | None = None) -> np.ndarray | int:
        """`act(env) -> int` for an AEC env, or the batched `act(state, games, mask, obs) -> actions`.

        Args:
            state: An AEC env made by `kingdomino_env.env(...)`, or a core `State` for the batched form.
            games: The batched form's games (indices into `state`); None with an env.
            mask: The batched form's legal actions, `(len(games), n_actions)` bool; None with an env.
            obs: The batched form's observations, or None.

        Returns:
            One action id for an env; `(len(games),)` action ids for the batched form.

        Raises:
            TypeError: The arguments match neither form.
        """
        if isinstance(state, State):
            if games is None or mask is None:
                raise TypeError("act(state, games, mask, obs) needs games and mask")
            return self.act_batch(state, np.asarray(games, dtype=np.int64), mask, obs)
        if games is not None or mask is not None or obs is not None:
            raise TypeError("act(env) takes the env only; pass a core State for the batched form")
        return self.act_env(state)

    def act_env(self, env: Any) -> int:
        """A legal action for the agent to move in an AEC env.

        Args:
            env: An AEC env made by `kingdomino_env.env(...)`, reset.

        Returns:
            A legal action id.

        Raises:
            TypeError: `env` is not such an env, or was not reset.
            ValueError: The game is over.
        """
        raw = env.unwrapped
        state = getattr(raw, "state", None)
        if not isinstance(state, State):
            raise TypeError(f"expected a kingdomino_env AEC env (reset first), got {type(env).__name__}")
        if bool(state.is_over[0]):
            raise ValueError("the game is over: there is no move to make")
        observation = raw.observe(raw.agent_selection)
        mask = observation["action_mask"].astype(bool)[None]
        obs = observation["observation"][None] if self.needs_observation else None
        return int(self.act_batch(state, np.zeros(1, dtype=np.int64), mask, obs)[0])

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
