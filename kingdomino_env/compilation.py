"""Watching numba compile the kernels.

Every kernel is compiled on its first call with a new set of argument types and then kept in numba's disk cache,
so a fresh process with an empty cache spends seconds compiling before its first game. `watch_compiles` measures
that time (a tournament takes it out of its time per move) and tells a display when a compile begins and ends (the
command line shows what it is preparing). Loading a kernel from the disk cache is not a compile.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from numba.core import event

#: The numba event fired around each compile, nested when a kernel compiles the kernels it calls.
COMPILE_EVENT = "numba:compile"


class CompileClock(event.Listener):
    """Seconds spent in outermost compiles while installed, and callbacks at their start and end.

    `on_begin(name)` gets the qualified name of the kernel being compiled.
    """

    def __init__(self, on_begin: Callable[[str], None] | None = None, on_end: Callable[[], None] | None = None):
        self.seconds = 0.0
        self.compiles = 0
        self._depth = 0
        self._began = 0.0
        self._on_begin = on_begin
        self._on_end = on_end

    def on_start(self, ev: event.Event) -> None:
        self._depth += 1
        if self._depth > 1:
            return
        self._began = time.perf_counter()
        if self._on_begin is not None:
            self._on_begin(ev.data["dispatcher"].py_func.__qualname__)

    def on_end(self, ev: event.Event) -> None:
        self._depth -= 1
        if self._depth > 0:
            return
        self.seconds += time.perf_counter() - self._began
        self.compiles += 1
        if self._on_end is not None:
            self._on_end()


@contextmanager
def watch_compiles(on_begin: Callable[[str], None] | None = None,
                   on_end: Callable[[], None] | None = None) -> Iterator[CompileClock]:
    """A `CompileClock` listening to every compile inside the block (any thread)."""
    clock = CompileClock(on_begin, on_end)
    with event.install_listener(COMPILE_EVENT, clock):
        yield clock
