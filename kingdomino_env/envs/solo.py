"""`KingdominoSoloEnv`: one game from one learning seat, as a single-agent Gymnasium env.

    env = gymnasium.make("kingdomino/KingdominoSolo-v0", players=2, opponents="greedy")
    env = gymnasium.make("kingdomino/QueendominoSolo-v0", players=3)  # the same with game="queendomino"
    env = gymnasium.make("kingdomino/RoyalWeddingSolo-v0", players=6, teams=True)  # game="royal_wedding"

The other seats are played by opponent policies (`opponents.Opponents`: "random", "greedy", "gprd", a
`policies.Policy`, or a tuple of P - 1 of them for seats learner + 1, learner + 2, ...). Every observation is a
decision of the learner. It is the vector env's "learner against opponents" mode for one game, for tools that
want a plain `gymnasium.Env` (SB3's SubprocVecEnv, gymnasium's `check_env`); for speed, train on
`KingdominoVectorEnv` instead.

* Options: the AEC env's (`rules=`, or the `Rules` options as keywords: players, mighty_duel, ..., game,
  buildings), plus opponents, learner_seat, illegal_reward. Queendomino's opponents "greedy" and "gprd" play
  `games.queendomino.greedy`'s documented choices.
* Observation: the AEC env's `observation` vector (a Box, not the AEC env's Dict, so that `check_env` and
  SB3's MlpPolicy take it as it is), from the learner's seat.
* Action: Discrete(n_actions), the AEC env's layout. The legal actions are `env.action_masks()` (MaskablePPO
  finds it through wrappers and SubprocVecEnv) and `info["action_mask"]`.
* Reward: `core.rewards(state, reward)` of the learner when the game ends, 0 before. An illegal action ends the
  episode with `illegal_reward` (default -1) and `info["illegal_action"] = True`, as the AEC env's `env()` does;
  an action that is not an integer id in 0..n_actions-1 (a float, a bool, a string, an array of shape (1,) ...)
  raises ValueError and changes nothing, as in `env()`.
* Seeding: `reset(seed=s)` deals the same game as the AEC env's `reset(seed=s)`, and unseeded resets continue
  that generator as the AEC env does; the learner seat ("random" by default, drawn per episode) and opponents made
  from spec strings are seeded from s too.
* info: "action_mask", "learner_seat"; at the end also "score" and "rank" (0 = winner) of the learner.
* Teams (the Royal Wedding with teams=True): the learner is a team. The env's agent acts whenever either seat of
  its team is to move, observing from that seat (`learner_seat` follows it); opponents play the other P - 2 seats
  (a tuple lists P - 2 of them, for the seats after the learner's team). The reward, "score" and "rank" are the
  team's. Why one agent for both seats: see `kingdomino_env.vector_env` ("Teams").
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .. import core
from ..rendering.frames import frame
from ..rules import Rules, is_integer, short_repr
from .aec import observation_space
from .opponents import Opponents
from .vector import check_no_options, check_reward_mode, learner_seats

__all__ = ["KingdominoSoloEnv"]


class KingdominoSoloEnv(gym.Env):
    """One game of Kingdomino, Queendomino or the Royal Wedding against opponent policies, as a plain
    `gymnasium.Env` (see the module docstring).

    Args:
        rules: A whole variant, or None to build one from `options`.
        reward: `"outcome"`, `"score"` or `"margin"` (see `core.rewards`).
        opponents: Who plays the other seats: a spec (`"random"`, the default; `"greedy"`, `"gprd"`), a policy,
            or a tuple of P - 1 of them for seats learner + 1, learner + 2, ...
        learner_seat: The learning seat: `"random"` (drawn per episode, the default) or a seat.
        illegal_reward: The reward of an illegal action, which ends the episode.
        render_mode: None, `"ansi"` (text) or `"rgb_array"` (a picture).
        **options: The `Rules` options as keywords, as the AEC env takes them (`game`, `players`,
            `mighty_duel`, ..., `buildings`, `teams`).

    Raises:
        ValueError: A bad option, naming what is allowed.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(self, rules: Rules | None = None, reward: str = "outcome", opponents: Any = "random",
                 learner_seat: Any = "random", illegal_reward: float = -1.0, render_mode: str | None = None,
                 **options: Any):
        self.rules = Rules.make(rules, **options)
        self.reward_mode = check_reward_mode(reward)
        if isinstance(opponents, list):
            n_opp = self.rules.players - len(self.rules.kingdom_seats(0))
            raise ValueError("one game takes one opponents entry: a spec, a policy, or a tuple of "
                             f"{n_opp} of them (seats after the learner's), got a list")
        self.opponents = Opponents(self.rules, 1, opponents)
        self._fixed_seat = learner_seats(learner_seat, self.rules, 1)
        if not isinstance(illegal_reward, int | float) or isinstance(illegal_reward, bool):
            raise ValueError(f"illegal_reward must be a number, got {illegal_reward!r}")
        self.illegal_reward = float(illegal_reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}; allowed: {self.metadata['render_modes']} or None")
        self.render_mode = render_mode
        self.observation_space = observation_space(self.rules)
        self.action_space = spaces.Discrete(self.rules.n_actions)
        self.state: core.State | None = None
        self.learner_seat = 0
        self._aux = np.random.default_rng()
        self._table = np.zeros((1, self.rules.players), dtype=np.int64)
        self._mask = np.zeros(self.rules.n_actions, dtype=np.bool_)
        self._over = True

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        check_no_options(options)
        if seed is not None and (not is_integer(seed) or seed < 0):
            raise ValueError(f"seed must be None or an integer >= 0, got {short_repr(seed)}")
        seed = None if seed is None else int(seed)
        first = self._np_random is None
        super().reset(seed=seed)
        if seed is not None or first:
            children = np.random.SeedSequence(seed).spawn(1 + len(self.opponents.owned))
            self._aux = np.random.default_rng(children[0])
            self.opponents.seed(children[1:])
        self.state = core.deal_game(self.rules, self.np_random)
        seat = self._aux.integers(self.rules.players, size=1) if self._fixed_seat is None else self._fixed_seat
        self.learner_seat = int(seat[0])
        self._table = self.opponents.table(seat)
        self.opponents.advance(self.state, self._table)
        self._follow_mover()
        self._over = False
        self._mask = core.legal_action_mask(self.state)[0]
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.state is None or self._over:
            raise RuntimeError("the episode is over (or never started): call reset()")
        if not is_integer(action) or not 0 <= action < self.rules.n_actions:
            raise ValueError(f"action must be an integer in 0..{self.rules.n_actions - 1} (a Python or numpy "
                             f"integer, not a bool), got {short_repr(action)} of type {type(action).__name__}")
        action = int(action)
        if not self._mask[action]:
            self._over = True
            self._mask = np.zeros(self.rules.n_actions, dtype=np.bool_)
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), self.illegal_reward, True, False, info
        core.step(self.state, [action])
        self.opponents.advance(self.state, self._table)
        self._follow_mover()
        self._mask = core.legal_action_mask(self.state)[0]
        info = self._info()
        reward = 0.0
        if self.state.is_over[0]:
            self._over = True
            reward = float(core.rewards(self.state, self.reward_mode)[0, self.learner_seat])
            info["score"] = int(core.seat_scores(self.state)[0, self.learner_seat])
            info["rank"] = int(core.ranks(self.state)[0, self.learner_seat])
        return self._observe(), reward, self._over, False, info

    def _follow_mover(self) -> None:
        """Team games: the learner observes from the seat of its team that is to move."""
        mover = int(self.state.current_player[0])
        if self.rules.shared_kingdoms and mover >= 0:
            self.learner_seat = mover

    def action_masks(self) -> np.ndarray:
        """(n_actions,) bool: the learner's legal actions now (all False once the episode is over)."""
        return self._mask.copy()

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            return None
        if self.state is None:
            raise RuntimeError("call reset() before render()")
        return frame(self.state, self.render_mode)

    def _observe(self) -> np.ndarray:
        return core.observe(self.state, viewer=np.array([self.learner_seat]))[0]

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask.copy(), "learner_seat": self.learner_seat}
