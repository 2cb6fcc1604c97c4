"""Watching numba compile: outermost compiles are counted and timed, cache hits and calls are not."""

from __future__ import annotations

import numpy as np
from numba import njit

from kingdomino_env.compilation import watch_compiles


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
