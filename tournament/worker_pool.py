"""Spawned worker processes that end with the process that started them.

A `ProcessPoolExecutor`'s workers outlive their parent when it is stopped without running its clean-up: killed
(`kill`, a job scheduler's SIGTERM, an out-of-memory kill) rather than interrupted with Ctrl-C, which reaches the
whole process group. A worker busy with a long task (a self-play batch, a tournament unit) would then play on for
minutes with no one to read its result. `spawn_pool`'s workers each run a watcher thread that ends the worker as soon
as its parent is gone (the worker's parent process id changes), within `WATCH_SECONDS`.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

#: How often a worker checks that its parent is still there.
WATCH_SECONDS = 0.5
#: The exit status of a worker ended because its parent was gone.
ORPHAN_EXIT = 3


def watch_parent(parent: int) -> None:
    """End this process (exit status ORPHAN_EXIT) once its parent `parent` is gone; run in a daemon thread."""
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(ORPHAN_EXIT)


def _start_worker(parent: int, initializer: Callable[[], None] | None) -> None:
    threading.Thread(target=watch_parent, args=(parent,), name="watch-parent", daemon=True).start()
    if initializer is not None:
        initializer()


def spawn_pool(workers: int, initializer: Callable[[], None] | None = None) -> ProcessPoolExecutor:
    """A pool of `workers` spawned processes (each runs `initializer` first, a picklable module-level function)
    that end with this process, however it ends."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker,
                               initargs=(os.getpid(), initializer))


def quiet_worker() -> None:
    """A worker's initializer: one thread for numeric libraries; Ctrl-C is the parent's to handle (it ends the
    workers, `end_pool`), so a worker never dies halfway through writing to the pool's queues."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def end_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once: its workers are killed and pending tasks dropped."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        if process.is_alive():
            process.kill()
    pool.shutdown(wait=False, cancel_futures=True)
