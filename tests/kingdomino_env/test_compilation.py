"""Watching numba compile: outermost compiles are counted and timed, cache hits and calls are not; and the
project's cached kernels go stale when any of its sources changes, not only their own file."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from numba import njit
from numba.core import event

from kingdomino_env import compilation
from kingdomino_env.compilation import COMPILE_EVENT, FIRST_USE_LOG, FirstUseLog, watch_compiles


def _fresh_kernels():
    """Two new kernels, the outer calling the inner, that no cache holds."""
    @njit
    def inner(x):
        return x + 1

    @njit
    def outer(x):
        return inner(x) * 2

    return inner, outer


def test_one_outermost_compile_is_counted_and_named_once():
    inner, outer = _fresh_kernels()
    began, ended = [], []
    with watch_compiles(began.append, lambda: ended.append(True)) as clock:
        assert outer(np.int64(3)) == 8
    assert clock.compiles == 1
    assert began == [outer.py_func.__qualname__]
    assert ended == [True]
    assert clock.seconds > 0


def test_calls_of_compiled_kernels_and_new_types_are_told_apart():
    _, outer = _fresh_kernels()
    outer(np.int64(1))
    with watch_compiles() as clock:
        outer(np.int64(2))
    assert clock.compiles == 0 and clock.seconds == 0.0
    with watch_compiles() as clock:
        outer(np.float64(2.0))
    assert clock.compiles == 1


def test_the_clock_stops_listening_after_its_block():
    _, outer = _fresh_kernels()
    with watch_compiles() as clock:
        pass
    outer(np.int64(1))
    assert clock.compiles == 0


def _first_use_log(seconds: float, ours: bool = True) -> FirstUseLog:
    """A first-use log for this test module's kernels (or for another package's only)."""
    return FirstUseLog(seconds, (__name__.split(".")[0],) if ours else ("no_such_package",))


def test_a_long_first_compile_is_logged_once(caplog):
    first_use = _first_use_log(0.0)
    caplog.set_level(logging.WARNING, logger="kingdomino_env.compilation")
    with event.install_listener(COMPILE_EVENT, first_use):
        _fresh_kernels()[1](np.int64(1))
        _fresh_kernels()[1](np.int64(1))
    warnings = [r for r in caplog.records if r.name == "kingdomino_env.compilation"]
    assert len(warnings) == 1
    assert warnings[0].levelno == logging.WARNING and "kingdomino compile" in warnings[0].getMessage()


def test_short_compiles_and_other_packages_kernels_are_not_logged(caplog):
    caplog.set_level(logging.WARNING, logger="kingdomino_env.compilation")
    for first_use in (_first_use_log(60.0), _first_use_log(0.0, ours=False)):
        with event.install_listener(COMPILE_EVENT, first_use):
            _fresh_kernels()[1](np.int64(1))
        assert not first_use.logged
    assert not [r for r in caplog.records if r.name == "kingdomino_env.compilation"]


def test_a_display_of_compiles_silences_the_first_use_log(caplog):
    first_use = _first_use_log(0.0)
    first_use.shown_elsewhere = 1
    caplog.set_level(logging.WARNING, logger="kingdomino_env.compilation")
    with event.install_listener(COMPILE_EVENT, first_use):
        _fresh_kernels()[1](np.int64(1))
    assert not first_use.logged and not caplog.records


def test_watch_compiles_with_a_display_silences_the_process_log_while_installed():
    before = FIRST_USE_LOG.shown_elsewhere
    with watch_compiles(lambda _: None):
        assert FIRST_USE_LOG.shown_elsewhere == before + 1
    with watch_compiles():
        assert FIRST_USE_LOG.shown_elsewhere == before
    assert FIRST_USE_LOG.shown_elsewhere == before


def test_importing_the_package_installs_the_process_log():
    import kingdomino_env  # noqa: F401

    assert FIRST_USE_LOG in event._registered[COMPILE_EVENT]


#: A process that imports the project's compilation module, counts the package `probe` among the kernel packages
#: when asked, and prints what the cached kernel `probe.caller.twice` returns.
_PROBE_RUN = """
import sys
import kingdomino_env.compilation as compilation
if sys.argv[1] == "stamped":
    compilation.KERNEL_PACKAGES += ("probe",)
from probe.caller import twice
print(twice())
"""


def _probe_package(root: Path, value: int) -> None:
    """The package `probe`: a kernel in caller.py calling one in callee.py that returns `value`."""
    package = root / "probe"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text("")
    (package / "callee.py").write_text(f"from numba import njit\n\n\n@njit(cache=True)\ndef value():\n"
                                       f"    return {value}\n")
    caller = package / "caller.py"
    if not caller.exists():
        caller.write_text(textwrap.dedent("""
            from numba import njit

            from .callee import value


            @njit(cache=True)
            def twice():
                return 2 * value()
            """))


@pytest.mark.parametrize("locators, after_the_change", [("stamped", 6), ("numba's own", 2)])
def test_a_change_in_another_file_recompiles_a_cached_kernel(tmp_path, locators, after_the_change):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(Path(compilation.__file__).parents[1])])}

    def run() -> int:
        done = subprocess.run([sys.executable, "-c", _PROBE_RUN, locators], env=env, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return int(done.stdout)

    _probe_package(tmp_path, 1)
    assert run() == 2
    _probe_package(tmp_path, 3)
    assert run() == after_the_change


def test_the_digest_covers_every_source_file_by_its_path_and_content(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "sub" / "b.py").write_text("y = 2\n")
    (tmp_path / "notes.txt").write_text("not a source")
    first = compilation.sources_digest([tmp_path])
    (tmp_path / "notes.txt").write_text("changed")
    assert compilation.sources_digest([tmp_path]) == first
    (tmp_path / "sub" / "b.py").write_text("y = 3\n")
    changed = compilation.sources_digest([tmp_path])
    (tmp_path / "sub" / "b.py").rename(tmp_path / "b.py")
    (tmp_path / "b.py").write_text("y = 3\n")
    assert len({first, changed, compilation.sources_digest([tmp_path])}) == 3


def test_the_project_kernels_carry_the_digest_and_other_kernels_numbas_stamp():
    from kingdomino_env.games.queendomino.kernels import q_observe

    stamp = q_observe._cache._impl.locator.get_source_stamp()
    assert stamp == ("kingdomino-rl sources", compilation.kernel_sources_digest())
    assert compilation.install_stamped_locators()

    @njit(cache=True)
    def elsewhere(x):
        return x

    assert not type(elsewhere._cache._impl.locator).__name__.startswith("Stamped")
