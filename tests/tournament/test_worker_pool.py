"""Workers of `spawn_pool` end with their parent, even one killed without clean-up."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tournament.worker_pool import WATCH_SECONDS, spawn_pool

ROOT = Path(__file__).resolve().parents[2]

#: A parent that starts one worker, prints the worker's pid, then waits on a task that would run for a minute.
PARENT = """
import os, sys, time
from tournament.worker_pool import spawn_pool
pool = spawn_pool(1, os.getpid if len(sys.argv) > 1 else None)
print(pool.submit(os.getpid).result(), flush=True)
pool.submit(time.sleep, 60).result()
"""


def alive(pid: int) -> bool:
    """Whether process `pid` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
@pytest.mark.parametrize("initializer", [False, True])
def test_workers_end_when_their_parent_is_killed(initializer):
    parent = subprocess.Popen([sys.executable, "-c", PARENT, *(["init"] if initializer else [])], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)
    try:
        worker = int(parent.stdout.readline())
        time.sleep(2 * WATCH_SECONDS)
        assert alive(worker), "the worker should run while its parent does"
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 20 * WATCH_SECONDS
        while alive(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(worker), "the worker outlived its killed parent"
    finally:
        parent.kill()
        parent.wait(timeout=10)


def _double(x: int) -> int:
    return 2 * x


def test_pool_runs_tasks_and_initializer():
    with spawn_pool(2, _mark_started) as pool:
        assert list(pool.map(_double, range(5))) == [0, 2, 4, 6, 8]
        assert set(pool.map(_started, range(4))) == {True}


def _mark_started() -> None:
    os.environ["KINGDOMINO_TEST_WORKER_STARTED"] = "1"


def _started(_: int) -> bool:
    return os.environ.get("KINGDOMINO_TEST_WORKER_STARTED") == "1"
