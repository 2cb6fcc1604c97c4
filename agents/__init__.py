"""Agents for Kingdomino and Queendomino: baselines, search and trained policies behind one interface.

`agents.load(spec)` makes an agent from a spec string (see `registry`); every agent is a batched
`kingdomino_env.policies.Policy` (`act(state, games, mask, obs)`) and also plays in an AEC env (`act(env) -> int`).
`agents.check_supports(spec, rules)` raises `AgentSpecError` (and `agents.supports` returns False) when a spec is bad or
its agent cannot play the variant; both are cheap (no model is loaded). A spec may also name an outside agent, a
Python object of your own (``MODULE:ATTR``, ``PATH.py:ATTR``) or an installed package's (an entry point of the group
``kingdomino.agents``): `agents.is_external(spec)` says so, and `agents.external` resolves and wraps them. Such a spec
runs the code it names when it is checked or loaded: use only specs from trusted sources.
"""

from __future__ import annotations

from .base import Agent
from .budget import Budget
from .external import PolicyAgent
from .registry import (
    SPECS,
    AgentSpecError,
    check_supports,
    is_external,
    load,
    supported_variants,
    supports,
    valid_specs,
)

__all__ = ["SPECS", "Agent", "AgentSpecError", "Budget", "PolicyAgent", "check_supports", "is_external", "load",
           "supported_variants", "supports", "valid_specs"]
