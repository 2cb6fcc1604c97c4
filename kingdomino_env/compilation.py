"""Watching numba compile the kernels.

Every kernel is compiled on its first call with a new set of argument types and then kept in numba's disk cache,
so a fresh process with an empty cache spends seconds compiling before its first game. `watch_compiles` measures
that time (a tournament takes it out of its time per move) and tells a display when a compile begins and ends (the
command line shows what it is preparing). Loading a kernel from the disk cache is not a compile.

numba keeps a cached kernel while its own source file is unchanged, but a kernel's machine code also holds the
kernels and constants it takes from other files. So that no process runs a kernel compiled from older sources (a
`git pull` in an editable install), importing this module stamps every cached kernel of `KERNEL_PACKAGES` with a
digest of all their sources: a change to any of their files recompiles them on their next use.

`install_first_use_log` (called when `kingdomino_env` is imported) makes the first use say what it does: when a
compile of the project's kernels runs longer than `FIRST_USE_SECONDS`, the logger `kingdomino_env.compilation` warns
once per process that kernels are being compiled and where `kingdomino compile` comes in. A display that shows
compiles itself (`watch_compiles` with `on_begin`) silences it while installed. To hide it:
`logging.getLogger("kingdomino_env.compilation").setLevel(logging.ERROR)`.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from numba.core import caching, event

#: The numba event fired around each compile, nested when a kernel compiles the kernels it calls.
COMPILE_EVENT = "numba:compile"
#: Seconds an outermost compile runs before the first-use log says so.
FIRST_USE_SECONDS = 2.0
#: The packages whose kernels the first-use log speaks of.
PROJECT_PACKAGES = ("kingdomino_env", "agents", "tournament", "training", "kingdomino_app")

#: The packages that hold numba kernels: their cached kernels carry the digest of all their sources.
KERNEL_PACKAGES = ("kingdomino_env", "agents")

logger = logging.getLogger(__name__)


def sources_digest(folders: Iterable[Path]) -> str:
    """A digest of every Python source under `folders`: their paths within each folder and their contents."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def kernel_sources_digest() -> str:
    """`sources_digest` of the `KERNEL_PACKAGES` as installed (read once per process)."""
    return _packages_digest(KERNEL_PACKAGES)


@functools.cache
def _packages_digest(packages: tuple[str, ...]) -> str:
    folders = []
    for name in packages:
        spec = importlib.util.find_spec(name)
        folders += [Path(p) for p in (spec.submodule_search_locations or ())] if spec is not None else []
    return sources_digest(folders)


def _stamped(locator: type) -> type:
    """A numba cache locator like `locator`, for kernels of `KERNEL_PACKAGES` only, whose cache is fresh while
    `kernel_sources_digest` is unchanged (numba's own is fresh while the kernel's file is)."""

    class Stamped(locator):  # type: ignore[misc, valid-type]
        @classmethod
        def from_function(cls, py_func: Callable[..., Any], py_file: str) -> Any:
            if (getattr(py_func, "__module__", "") or "").split(".")[0] not in KERNEL_PACKAGES:
                return None
            return super().from_function(py_func, py_file)

        def get_source_stamp(self) -> Any:
            return "kingdomino-rl sources", kernel_sources_digest()

    Stamped.__name__ = Stamped.__qualname__ = f"Stamped{locator.__name__}"
    return Stamped


def install_stamped_locators() -> bool:
    """Put the stamped locators of the project's kernels before numba's own (in numba's order), once; False where
    this numba keeps its locators elsewhere (its own stamps then apply)."""
    def named(name: str) -> Any:
        return getattr(caching, name, None) or getattr(caching, "_" + name, None)

    classes = getattr(named("CacheImpl"), "_locator_classes", None)
    bases = [named(name) for name in ("UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator")]
    if not isinstance(classes, list) or None in bases:
        return False
    if not any(c.__name__.startswith("Stamped") for c in classes):
        classes[:0] = [_stamped(base) for base in bases]
    return True


install_stamped_locators()


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


class FirstUseLog(event.Listener):
    """Warns once, through `logger`, when an outermost compile of a kernel from `packages` passes `seconds`.

    A timer warns while the compile is still running; a compile that ends past `seconds` before the timer ran
    warns at its end. Silent while `shown_elsewhere` is positive (a display shows compiles itself).
    """

    def __init__(self, seconds: float = FIRST_USE_SECONDS, packages: tuple[str, ...] = PROJECT_PACKAGES):
        self.seconds = seconds
        self.packages = packages
        self.shown_elsewhere = 0
        self.logged = False
        self._depth = 0
        self._began = 0.0
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()

    def _ours(self, ev: event.Event) -> bool:
        module = getattr(ev.data["dispatcher"].py_func, "__module__", "") or ""
        return module.split(".")[0] in self.packages

    def on_start(self, ev: event.Event) -> None:
        self._depth += 1
        if self._depth > 1 or self.logged or self.shown_elsewhere or not self._ours(ev):
            return
        self._began = time.perf_counter()
        self._timer = threading.Timer(self.seconds, self._log)
        self._timer.daemon = True
        self._timer.start()

    def on_end(self, ev: event.Event) -> None:
        self._depth -= 1
        if self._depth > 0 or self._timer is None:
            return
        self._timer.cancel()
        self._timer = None
        if time.perf_counter() - self._began >= self.seconds:
            self._log()

    def _log(self) -> None:
        with self._lock:
            if self.logged or self.shown_elsewhere:
                return
            self.logged = True
        logger.warning("Compiling numba kernels on their first use in this environment; numba caches them, so "
                       "later processes load them at once. `kingdomino compile` compiles every kernel ahead of "
                       "time.")


#: The process's first-use log, installed by `install_first_use_log`.
FIRST_USE_LOG = FirstUseLog()
_installed = False


def install_first_use_log() -> None:
    """Listen for long compiles of the project's kernels for the rest of the process (once; later calls do
    nothing)."""
    global _installed
    if not _installed:
        event.register(COMPILE_EVENT, FIRST_USE_LOG)
        _installed = True


@contextmanager
def watch_compiles(on_begin: Callable[[str], None] | None = None,
                   on_end: Callable[[], None] | None = None) -> Iterator[CompileClock]:
    """A `CompileClock` listening to every compile inside the block (any thread)."""
    clock = CompileClock(on_begin, on_end)
    shown = on_begin is not None
    FIRST_USE_LOG.shown_elsewhere += shown
    try:
        with event.install_listener(COMPILE_EVENT, clock):
            yield clock
    finally:
        FIRST_USE_LOG.shown_elsewhere -= shown
