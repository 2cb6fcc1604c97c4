"""`load(spec)`: agent spec strings to agents, the one entry point that tournaments, training and the CLI use.

Grammar: ``random`` | ``greedy`` | ``gprd`` | ``heuristic`` | ``mc[:BUDGET]`` | ``mcts[:BUDGET]`` | ``ppo`` |
``ppo:PATH``, where BUDGET is seconds per move (``0.5``, ``0.5s``) or playouts per move (``p200``).
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Agent
from .baselines import GreedyAgent, RandomAgent
from .budget import BUDGET_GRAMMAR, Budget
from .flat_mc import FlatMonteCarloAgent
from .heuristic import HeuristicAgent
from .ppo import SHIPPED_MODEL, PPOAgent
from .uct import UCTAgent

#: Seconds per move of `mc` and `mcts` without a budget.
DEFAULT_BUDGET = Budget(seconds=0.5)

#: The valid specs, as shown in errors and `kingdomino agents`.
SPECS: dict[str, str] = {
    "random": "uniformly random legal moves",
    "greedy": "Full Greedy (Gedda et al. 2018): maximise the score now, draft the domino that scores most now",
    "gprd": "greedy placement, random draft (Gedda et al.'s GPRD)",
    "heuristic": "greedy on score + room to grow + reachable bonuses - dead squares",
    "mc[:BUDGET]": f"flat Monte Carlo MCE-FG/R, Full Greedy playouts (default {DEFAULT_BUDGET} s/move)",
    "mcts[:BUDGET]": f"UCT over determinised worlds, Full Greedy playouts (default {DEFAULT_BUDGET} s/move)",
    "ppo": "the shipped MaskablePPO policy",
    "ppo:PATH": "a MaskablePPO policy saved by sb3-contrib (.zip)",
}

_SIMPLE: dict[str, Callable[[int | None], Agent]] = {
    "random": lambda seed: RandomAgent(seed),
    "greedy": lambda seed: GreedyAgent(seed),
    "gprd": lambda seed: GreedyAgent(seed, random_draft=True),
    "heuristic": lambda seed: HeuristicAgent(seed),
}


class AgentSpecError(ValueError):
    """A spec that names no agent, or an agent that cannot be made (bad budget, missing model)."""


def valid_specs() -> str:
    return ", ".join(SPECS) + f"; BUDGET = {BUDGET_GRAMMAR}"


def load(spec: str, seed: int | None = None) -> Agent:
    """The agent a spec names, seeded with `seed` (None: fresh entropy); its `name` is the spec as given."""
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError(f"an agent spec must be a non-empty string, got {spec!r}; valid: {valid_specs()}")
    spec = spec.strip()
    kind, _, arg = spec.partition(":")
    kind = kind.lower()
    if kind in _SIMPLE:
        if arg:
            raise AgentSpecError(f"agent {kind!r} takes no argument, got {spec!r}; valid: {valid_specs()}")
        agent = _SIMPLE[kind](seed)
    elif kind in ("mc", "mcts"):
        try:
            budget = Budget.parse(arg) if arg else DEFAULT_BUDGET
        except ValueError as err:
            raise AgentSpecError(f"{spec!r}: {err}") from None
        maker = FlatMonteCarloAgent if kind == "mc" else UCTAgent
        agent = maker(budget, seed=seed)
    elif kind == "ppo":
        if not arg and not SHIPPED_MODEL.is_file():
            raise AgentSpecError(f"the shipped PPO policy {SHIPPED_MODEL} is missing (a damaged install?); "
                                 "load a trained one with 'ppo:path/to/model.zip'")
        try:
            agent = PPOAgent(arg or SHIPPED_MODEL)
        except ValueError as err:
            raise AgentSpecError(f"{spec!r}: {err}") from None
    else:
        raise AgentSpecError(f"unknown agent spec {spec!r}; valid: {valid_specs()}")
    agent.name = spec
    return agent
