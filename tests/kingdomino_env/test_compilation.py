"""Watching numba compile: outermost compiles are counted and timed, cache hits and calls are not."""

from __future__ import annotations

import logging

import numpy as np
from numba import njit
from numba.core import event

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
