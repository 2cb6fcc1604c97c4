"""The referee: asks each entrant for its moves and turns every fault into a forfeit of that game.

Two kinds of player sit at a tournament's tables:

* the project's own agents, trusted, asked in this process for all their games at once (`LocalPlayer`);
* outside agents (a `MODULE:ATTR` or `PATH.py:ATTR` spec, an entry-point kind, a Python object entered directly),
  and every agent when the tournament sets a time limit per move, each asked in a process of its own, one decision
  at a time (`HostedPlayer`). That process holds a copy of the position only, so the agent cannot change the
  referee's game; a decision that takes longer than the limit, or a process that dies, ends with the process
  killed and started again for the agent's next game. The limit counts thinking, not numba compiling a kernel:
  the process tells the referee when a compile starts and ends, and the clock stops meanwhile.

Either kind reports, per game asked, a legal action or a fault: the agent raised, returned something that is not an
integer, or an action that is not legal, ran out of time, or its process died. The game is then forfeited.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.util
import os
import pickle
import signal
import threading
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents import Agent
from kingdomino_env import core
from kingdomino_env.compilation import watch_compiles
from kingdomino_env.core import State
from kingdomino_env.rules import Rules

from .worker_pool import watch_parent

#: How long an agent's process may take to start and make its agent (imports, model files), and to compile one
#: kernel, beyond which it is treated as hung.
MAKE_SECONDS = 600.0
#: How long a killed agent process is given to end.
KILL_SECONDS = 2.0
#: The longest reason kept in a forfeit (an agent's error message can be long).
MAX_REASON = 300


@dataclass(frozen=True)
class Forfeit:
    """A game lost by a fault: the seat (0-based) and entrant that forfeited, and why."""

    seat: int
    agent: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "agent": self.agent, "reason": self.reason}


@dataclass
class Decisions:
    """What a player answered for some games: an action per game (meaningful where `faults` has no entry), the
    fault of each game that has one (its index among the games asked -> reason), and its thinking time."""

    actions: np.ndarray
    faults: dict[int, str]
    seconds: float

    @classmethod
    def failed(cls, count: int, reason: str, seconds: float = 0.0) -> Decisions:
        """Every one of `count` games faulted for one reason."""
        return cls(np.zeros(count, dtype=np.int64), dict.fromkeys(range(count), _short(reason)), seconds)


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_REASON else text[:MAX_REASON - 3] + "..."


def describe_error(err: BaseException) -> str:
    """An exception as a forfeit's reason: its type and message, without a traceback."""
    message = str(err)
    return _short(f"raised {type(err).__name__}: {message}" if message else f"raised {type(err).__name__}")


def _every(failed: Decisions) -> tuple[np.ndarray, dict[int, str]]:
    return failed.actions, failed.faults


def check_actions(chosen: Any, mask: np.ndarray) -> tuple[np.ndarray, dict[int, str]]:
    """The actions an agent returned for `len(mask)` games, checked: (actions, faults by game index).

    An answer of the wrong shape, or not of integers, faults every game; an action out of range or not legal
    faults its game."""
    count = mask.shape[0]
    if isinstance(chosen, np.ndarray) and chosen.dtype.kind in "iu" and chosen.shape == (count,) and count \
            and chosen.min() >= 0 and chosen.max() < mask.shape[1] and mask[np.arange(count), chosen].all():
        return chosen, {}
    try:
        raw = np.asarray(chosen)
    except Exception as err:  # noqa: BLE001 - whatever the agent returned
        return _every(Decisions.failed(count, describe_error(err)))
    if raw.dtype.kind not in "iu":
        what = f"{type(chosen).__name__}" if raw.dtype == object else f"{raw.dtype} values"
        return _every(Decisions.failed(count, f"returned {what} {chosen!r:.60}, not integer action ids"))
    if raw.shape != (count,):
        return _every(Decisions.failed(count, f"returned {raw.shape} actions for {count} games"))
    actions = np.zeros(count, dtype=np.int64)
    in_range = (raw >= 0) & (raw < mask.shape[1])
    legal = in_range.copy()
    legal[in_range] = mask[np.flatnonzero(in_range), raw[in_range]]
    actions[legal] = raw[legal]
    faults = {int(i): (f"returned action {raw[i]}, which is not legal here" if in_range[i] else
                       f"returned action {raw[i]}, out of range (0 to {mask.shape[1] - 1})")
              for i in np.flatnonzero(~legal)}
    return actions, faults


class LocalPlayer:
    """One of the project's agents, asked in this process for all its games at once; an exception faults every
    game of that call."""

    def __init__(self, agent: Agent | None, error: str | None = None):
        self.agent = agent
        self.error = error
        self.needs_observation = bool(getattr(agent, "needs_observation", False))

    def decide(self, state: State, games: np.ndarray, mask: np.ndarray, obs: np.ndarray | None,
               clock: Any) -> Decisions:
        if self.agent is None:
            return Decisions.failed(len(games), self.error or "no agent")
        began, compiled = time.perf_counter(), clock.seconds
        try:
            chosen = self.agent.act(state, games, mask, obs)
        except Exception as err:  # noqa: BLE001 - any fault of the agent forfeits its games
            chosen = err
        seconds = time.perf_counter() - began - (clock.seconds - compiled)
        if isinstance(chosen, Exception):
            return Decisions.failed(len(games), describe_error(chosen), seconds)
        actions, faults = check_actions(chosen, mask)
        return Decisions(actions, faults, seconds)


def _serve(conn: Any, parent: int) -> None:
    """An agent process: makes the agent it is sent, then answers one decision per message until told to stop or
    its parent is gone. Ctrl-C goes to the referee, which ends this process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=watch_parent, args=(parent,), name="watch-parent", daemon=True).start()
    agent: Agent | None = None
    warm = False
    with watch_compiles(lambda _: conn.send(("compiling",)), lambda: conn.send(("compiled",))) as clock:
        while True:
            try:
                message = conn.recv_bytes()
            except (EOFError, OSError):
                return
            kind, *args = pickle.loads(message)
            if kind == "stop":
                return
            if kind == "make":
                agent, reply = None, ("made", None)
                try:
                    if not warm:
                        _warm_up(*args)
                        warm = True
                    agent = make_entrant(*args[:3])
                except Exception as err:  # noqa: BLE001 - reported as the reason of the agent's forfeits
                    reply = ("error", f"could not be made: {describe_error(err)}")
                conn.send(reply)
                continue
            state, mask, obs = args
            began, compiled = time.perf_counter(), clock.seconds
            try:
                if agent is None:
                    raise RuntimeError("no agent was made")
                chosen = agent.act(state, np.zeros(1, dtype=np.int64), mask[None], None if obs is None else obs[None])
                reply = ("acted", chosen, time.perf_counter() - began - (clock.seconds - compiled))
                conn.send(reply)
            except Exception as err:  # noqa: BLE001 - the agent's fault, or an answer that cannot be sent back
                conn.send(("error", describe_error(err)))


def make_entrant(entrant: str | bytes, seed: int, name: str) -> Agent:
    """The agent of an entrant: a spec (`agents.load`), or a Python object pickled as bytes (a fresh copy)."""
    if isinstance(entrant, bytes):
        from agents.external import agent_from_object

        return agent_from_object(pickle.loads(entrant), seed=seed, name=name)
    from agents import load

    agent = load(entrant, seed=seed)
    agent.name = name
    return agent


def _warm_up(entrant: str | bytes, seed: int, name: str, rules: Rules) -> None:
    """Have a throwaway twin of the entrant's agent make one decision in a fresh game of `rules`, so that loading
    the kernels it and the rules use (from numba's cache, or compiled) happens before the clock of a real move
    starts. A fault of the twin is left to the real decisions to report."""
    twin = make_entrant(entrant, seed, name)
    state = core.new_games(rules, [0])
    mask = core.legal_action_mask(state)
    try:
        twin.act(state, np.zeros(1, dtype=np.int64), mask, core.observe(state) if twin.needs_observation else None)
    except Exception:  # noqa: BLE001, S110 - reported by the game's own decision
        pass


class AgentProcess:
    """A process that holds one entrant's agent and answers its decisions (see `_serve`)."""

    def __init__(self) -> None:
        self._context = multiprocessing.get_context("spawn")
        self._process: Any = None
        self._conn: Any = None
        self.made: tuple[Any, ...] | None = None

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.is_alive()

    def _start(self) -> None:
        self.kill()
        ours, theirs = self._context.Pipe()
        process = self._context.Process(target=_serve, args=(theirs, os.getpid()), name="kingdomino-agent")
        process.start()
        theirs.close()
        self._process, self._conn = process, ours

    def kill(self) -> None:
        """End the process at once, if there is one."""
        if self._process is not None:
            if self._process.is_alive():
                self._process.kill()
            self._process.join(KILL_SECONDS)
            self._conn.close()
        self._process = self._conn = None

    def stop(self) -> None:
        """Ask the process to end, and kill it if it does not."""
        if self.alive:
            try:
                self._conn.send_bytes(pickle.dumps(("stop",)))
                self._process.join(KILL_SECONDS)
            except (OSError, ValueError):
                pass
        self.kill()

    def _ask(self, message: tuple[Any, ...], seconds: float | None) -> tuple[Any, ...]:
        """Send `message` and wait `seconds` for the answer, not counting compiles; ("fault", reason) on a timeout
        (the process is killed) or when the process dies."""
        try:
            self._conn.send_bytes(pickle.dumps(message))
            deadline = None if seconds is None else time.monotonic() + seconds
            while True:
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                if not self._conn.poll(left):
                    self.kill()
                    return ("fault", f"no decision within the time limit of {seconds:g} s")
                reply = self._conn.recv()
                if reply[0] != "compiling":
                    return reply
                began = time.monotonic()
                if not self._conn.poll(MAKE_SECONDS):
                    self.kill()
                    return ("fault", f"a kernel did not compile within {MAKE_SECONDS:g} s")
                self._conn.recv()
                if deadline is not None:
                    deadline += time.monotonic() - began
        except (EOFError, OSError, BrokenPipeError):
            code = self._process.exitcode if self._process is not None else None
            if self._process is not None:
                self._process.join(KILL_SECONDS)
                code = self._process.exitcode
            self.kill()
            return ("fault", f"its process ended (exit code {code})")

    def make(self, entrant: str | bytes, seed: int, name: str, rules: Rules) -> str | None:
        """Make the entrant's agent in the process (starting one if needed, warmed up on `rules`); the reason it
        could not, or None."""
        self.made = (entrant, seed, name, rules)
        if not self.alive:
            self._start()
        reply = self._ask(("make", entrant, seed, name, rules), MAKE_SECONDS)
        return None if reply[0] == "made" else str(reply[1])

    def act(self, state: State, mask: np.ndarray, obs: np.ndarray | None, seconds: float | None
            ) -> tuple[Any, float | str]:
        """One decision: (the agent's answer, its thinking seconds), or (None, the fault's reason)."""
        reply = self._ask(("act", state, mask, obs), seconds)
        if reply[0] == "acted":
            return reply[1], reply[2]
        return None, str(reply[1])


class HostedPlayer:
    """An entrant asked one decision at a time in its own process, within `seconds` per decision (None: no limit).
    After a timeout or the death of the process, the agent is made again in a new process for the next game."""

    needs_observation = True

    def __init__(self, process: AgentProcess, seconds: float | None, error: str | None = None):
        self.process = process
        self.seconds = seconds
        self.error = error

    def decide(self, state: State, games: np.ndarray, mask: np.ndarray, obs: np.ndarray | None,
               clock: Any) -> Decisions:
        actions = np.zeros(len(games), dtype=np.int64)
        faults: dict[int, str] = {}
        thinking = 0.0
        for i, game in enumerate(games):
            if self.error is None and not self.process.alive and self.process.made is not None:
                self.error = self.process.make(*self.process.made)
            if self.error is not None:
                faults[i] = self.error
                continue
            chosen, spent = self.process.act(state.take([game]), mask[i], None if obs is None else obs[i],
                                             self.seconds)
            if chosen is None:
                faults[i] = _short(str(spent))
                continue
            thinking += float(spent)
            one, fault = check_actions(chosen, mask[i:i + 1])
            if fault:
                faults[i] = fault[0]
            else:
                actions[i] = one[0]
        return Decisions(actions, faults, thinking)


#: Agent processes of this process, by entrant: reused from unit to unit, so each starts once per worker.
_PROCESSES: dict[tuple[str, str], AgentProcess] = {}


def agent_process(key: tuple[str, str]) -> AgentProcess:
    """The agent process kept for an entrant (its name and what it is), made on first use."""
    if key not in _PROCESSES:
        _PROCESSES[key] = AgentProcess()
    return _PROCESSES[key]


def release_processes(kill: bool = False) -> None:
    """End every agent process of this process: asked to stop, or killed at once (`kill`, on an interrupt)."""
    for process in list(_PROCESSES.values()):
        process.kill() if kill else process.stop()
    _PROCESSES.clear()


# Before a process's exit joins its child processes (multiprocessing's exit function, which a pool's workers run
# too), its agent processes are ended: they wait for decisions that will not come.
multiprocessing.util.Finalize(None, release_processes, args=(True,), exitpriority=10)
