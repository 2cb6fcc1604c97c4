"""Work off the UI thread: a `Job` runs one function in a daemon thread, a `LazyAgent` is made on first use. No pygame.

The play screen starts a job for an agent's move (on a copy of the env) or for loading the agents (torch for
`ppo` takes seconds), keeps drawing and handling events, and takes the result when it is done. A job's `token`
says which position it was started for; a result whose token is no longer current is dropped, never applied.
"""

from __future__ import annotations

import copy
import threading
import time
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from .seats import SeatAgent

T = TypeVar("T")


class Job(Generic[T]):
    """`fn()` running in a daemon thread; `done`, then `result` (or `error`, the exception it raised)."""

    def __init__(self, token: Hashable, fn: Callable[[], T], label: str = ""):
        self.token = token
        self.label = label
        self.started = time.monotonic()
        self.result: T | None = None
        self.error: BaseException | None = None
        self._fn = fn
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"kingdomino-{label or 'job'}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self.result = self._fn()
        except BaseException as err:  # noqa: BLE001 - handed to the UI thread, which reports it
            self.error = err
        finally:
            self._done.set()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block up to `timeout` seconds for the job to finish; True once it has."""
        return self._done.wait(timeout)

    def elapsed(self) -> float:
        """Seconds since the job started."""
        return time.monotonic() - self.started


class LazyAgent:
    """An agent made by `factory(spec, seed)` on first use, so that a slow load happens in a worker thread."""

    def __init__(self, spec: str, seed: int | None, factory: Callable[[str, int | None], SeatAgent]):
        self.spec = spec
        self.seed = seed
        self._factory = factory
        self._agent: SeatAgent | None = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._agent is not None

    def load(self) -> SeatAgent:
        """The agent, made now if it was not yet (thread-safe: it is made once)."""
        with self._lock:
            if self._agent is None:
                self._agent = self._factory(self.spec, self.seed)
            return self._agent

    def act(self, env: Any) -> int:
        return int(self.load().act(env))

    def warm(self, env: Any) -> None:
        """Load the agent, then let a copy of it act once on `env` (a copy of the game the caller gives away), so
        that its compiled kernels (and its network's first inference) load now rather than in its first move; the
        agent itself, its random state included, is untouched. An agent that cannot be copied is only loaded."""
        agent = self.load()
        try:
            twin = copy.deepcopy(agent)
        except Exception:  # noqa: BLE001 - e.g. an agent holding a lock or a thread: it warms up in its first move
            return
        twin.act(env)


def lazy(factory: Callable[[str, int | None], SeatAgent]) -> Callable[[str, int | None], LazyAgent]:
    """A factory of `LazyAgent`s over `factory`: making a seat's agent costs nothing until it is loaded."""

    def make(spec: str, seed: int | None = None) -> LazyAgent:
        return LazyAgent(spec, seed, factory)

    return make


def is_loaded(agent: SeatAgent) -> bool:
    """Whether `agent` is ready to act at once (any agent but a `LazyAgent` not loaded yet)."""
    return not isinstance(agent, LazyAgent) or agent.loaded


__all__ = ["Job", "LazyAgent", "is_loaded", "lazy"]
