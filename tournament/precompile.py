"""Compile every numba kernel ahead of time: one short game per standard variant and compiled agent.

The kernels are compiled on first use and kept in numba's disk cache (next to the sources, or in
`NUMBA_CACHE_DIR`). `precompile` plays, for each standard variant, one game with each built-in agent that runs
compiled code, at a tiny fixed budget, so that every kernel a game, a tournament or the app needs is compiled and
cached once: after `pip install`, or in a container build (`kingdomino compile`). Items already in the cache load in
a fraction of a second.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from agents import load, supports
from kingdomino_env import core
from kingdomino_env.compilation import watch_compiles
from kingdomino_env.rules import Rules

from .standard import VARIANTS

#: The built-in agents that run compiled code, at budgets that keep a warm-up game short. Search agents compile the
#: same kernels at any budget.
AGENT_SPECS: tuple[str, ...] = ("random", "greedy", "gprd", "heuristic", "mc:p4", "mcts:p4", "csearch:p4",
                                "az:4", "azmc:4")


@dataclass(frozen=True)
class Item:
    """One warm-up game: `spec` plays every seat of a game of standard variant `variant`."""

    variant: str
    spec: str

    @property
    def rules(self) -> Rules:
        return VARIANTS[self.variant].rules

    def __str__(self) -> str:
        return f"{self.variant} · {self.spec}"


@dataclass(frozen=True)
class Compiled:
    """What one item cost: wall seconds in all, and the seconds and count of the compiles within them."""

    item: Item
    seconds: float
    compile_seconds: float
    compiles: int


def items(variants: tuple[str, ...] | None = None, specs: tuple[str, ...] = AGENT_SPECS) -> list[Item]:
    """The warm-up games: every standard variant (or those named) with every agent of `specs` that plays it."""
    names = tuple(VARIANTS) if variants is None else variants
    unknown = [name for name in names if name not in VARIANTS]
    if unknown:
        raise ValueError(f"unknown variant(s) {', '.join(unknown)}; the standard variants are {', '.join(VARIANTS)}")
    return [Item(name, spec) for name in names for spec in specs if supports(spec, VARIANTS[name].rules)]


def play(item: Item, seed: int = 0) -> None:
    """One whole game of `item`, its agent at every seat."""
    agent = load(item.spec, seed=seed)
    state = core.new_games(item.rules, [seed])
    games = np.zeros(1, dtype=np.int64)
    while not state.is_over[0]:
        mask = core.legal_action_mask(state)
        obs = core.observe(state) if agent.needs_observation else None
        core.step(state, agent.act(state, games, mask, obs))


def precompile(todo: list[Item], on_begin: Callable[[Item], None] | None = None) -> Iterator[Compiled]:
    """Play each warm-up game in turn (calling `on_begin` before each); yield what each cost."""
    for item in todo:
        if on_begin is not None:
            on_begin(item)
        start = time.perf_counter()
        with watch_compiles(on_begin=lambda _: None) as clock:  # the caller shows the item being compiled
            play(item)
        yield Compiled(item, time.perf_counter() - start, clock.seconds, clock.compiles)
