"""Agents for Kingdomino: baselines, search and trained policies behind one interface.

`agents.load(spec)` makes an agent from a spec string (see `registry`); every agent is a batched
`kingdomino_env.policies.Policy` (`act(state, games, mask, obs)`) and also plays in an AEC env (`act(env) -> int`).
"""

from __future__ import annotations

from .base import Agent
from .budget import Budget
from .registry import SPECS, AgentSpecError, load, valid_specs

__all__ = ["SPECS", "Agent", "AgentSpecError", "Budget", "load", "valid_specs"]
