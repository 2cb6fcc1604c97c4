"""`AgentSpecError`, in a module of its own so that the registry and the outside-agent resolver (`external`) both
raise it without importing each other."""

from __future__ import annotations


class AgentSpecError(ValueError):
    """A spec that names no agent, an agent that cannot be made (bad budget, missing model), or an agent that
    cannot play the variant asked of it."""
