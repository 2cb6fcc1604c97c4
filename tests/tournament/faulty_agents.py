"""Agents with faults, for the referee's tests: each plays the first legal action until its fault strikes at a given
step of the game. Entered as `tests.tournament.faulty_agents:NAME` (the tests' folder is on `sys.path`)."""

from __future__ import annotations

import os
import time

import numpy as np

from agents import Agent

#: The game step from which a fault strikes.
FAULT_STEP = 5


class FirstLegal(Agent):
    """The first legal action, always."""

    def __init__(self, seed: int | None = None):
        self.seed = seed

    def act_batch(self, state, games, mask, obs):
        return mask.argmax(axis=1)


class _Faulty(FirstLegal):
    def act_batch(self, state, games, mask, obs):
        if int(state.n_steps[games[0]]) >= FAULT_STEP:
            return self.fault(state, games, mask)
        return mask.argmax(axis=1)

    def fault(self, state, games, mask):
        raise NotImplementedError


class Raises(_Faulty):
    def fault(self, state, games, mask):
        raise RuntimeError("a bug in the agent")


class Illegal(_Faulty):
    def fault(self, state, games, mask):
        return np.array([int(np.flatnonzero(~mask[i])[0]) for i in range(len(games))])


class NotAnInteger(_Faulty):
    def fault(self, state, games, mask):
        return np.full(len(games), 0.5)


class Hangs(_Faulty):
    def fault(self, state, games, mask):
        time.sleep(3600)


class KillsItsProcess(_Faulty):
    def fault(self, state, games, mask):
        os._exit(7)


class Meddles(FirstLegal):
    """Scribbles over the position it is given, then plays the first legal action of the position before."""

    def act_batch(self, state, games, mask, obs):
        chosen = mask.argmax(axis=1)
        state.scores[games] = 999
        state.terrain[games] = 0
        return chosen


def last_legal(observation, action_mask):
    """A plain policy over the AEC env's observation and mask: the last legal action."""
    return int(np.flatnonzero(action_mask)[-1])


class CompilesSlowly(_Faulty):
    """Spends a second and a half "compiling" (a numba compile event around a sleep) once, then plays on."""

    compiled = False

    def fault(self, state, games, mask):
        if not self.compiled:
            from numba.core import event

            with event.trigger_event("numba:compile", data={"dispatcher": _Dispatcher, "args": (),
                                                             "return_type": None}):
                time.sleep(1.5)
            self.compiled = True
        return mask.argmax(axis=1)


class _Dispatcher:
    py_func = CompilesSlowly.fault
