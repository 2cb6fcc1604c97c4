"""Agents for Kingdomino and Queendomino: baselines, search and trained policies behind one interface.

`agents.load(spec)` makes an agent from a spec string (see `registry`); every agent is a batched
`kingdomino_env.policies.Policy` (`act(state, games, mask, obs)`) and also plays in an AEC env (`act(env) -> int`).
`agents.check_supports(spec, rules)` raises `AgentSpecError` (and `agents.supports` returns False) when a spec is bad or
its agent cannot play the variant; both are cheap (no model is loaded).
"""

from __future__ import annotations

from .base import Agent
from .budget import Budget
from .registry import SPECS, AgentSpecError, check_supports, load, supported_variants, supports, valid_specs

__all__ = ["SPECS", "Agent", "AgentSpecError", "Budget", "check_supports", "load", "supported_variants", "supports",
           "valid_specs"]
