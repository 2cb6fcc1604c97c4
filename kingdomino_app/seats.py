"""Seats at the table: a named human or an agent, and the agent that plays a seat. No pygame.

A seat's `kind` is "human" or an agent spec (`random`, `greedy`, `mcts`, `ppo`, or any spec `agents.load`
understands, such as `mcts:1.0`). `make_agent` loads agents through `agents.load`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import agents

HUMAN = "human"
#: The seat kinds the New Game screen cycles through.
KINDS: tuple[str, ...] = (HUMAN, "random", "greedy", "mcts", "ppo")
#: Default names of agent seats.
AGENT_NAMES: dict[str, str] = {"random": "Random", "greedy": "Greedy", "gprd": "GPRD", "mcts": "MCTS",
                               "ppo": "PPO", "mc": "Monte Carlo", "heuristic": "Heuristic"}
MAX_NAME = 16


class AgentUnavailable(ValueError):
    """An agent spec that names no agent, or an agent that cannot be made here (no model, no agents package)."""


class SeatAgent(Protocol):
    """What the app needs of an agent: a legal action id for the player to move in an AEC env."""

    def act(self, env: Any) -> int: ...


@dataclass(frozen=True)
class Seat:
    name: str
    kind: str = HUMAN

    @property
    def is_human(self) -> bool:
        return self.kind == HUMAN

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "kind": self.kind}

    @classmethod
    def from_dict(cls, data: Any) -> Seat:
        if not isinstance(data, dict) or not isinstance(data.get("name"), str) or not isinstance(data.get("kind"),
                                                                                                  str):
            raise ValueError(f"a seat must be {{'name': str, 'kind': str}}, got {data!r}")
        if not data["name"].strip() or not data["kind"].strip():
            raise ValueError(f"a seat needs a name and a kind, got {data!r}")
        return cls(data["name"], data["kind"])


def default_name(kind: str, seat: int) -> str:
    """The name a seat gets unless the player types one: "Player 2", or the agent's name."""
    if kind == HUMAN:
        return f"Player {seat + 1}"
    return AGENT_NAMES.get(kind.partition(":")[0].lower(), kind)


def parse_seat(text: str, seat: int) -> Seat:
    """A seat from the command line: ``human``, ``human:NAME``, or an agent spec (``greedy``, ``mcts:0.5``)."""
    kind, _, arg = text.strip().partition(":")
    if not kind:
        raise ValueError(f"empty seat {text!r}; use human, human:NAME or an agent spec")
    if kind.lower() == HUMAN:
        return Seat((arg.strip() or default_name(HUMAN, seat))[:MAX_NAME], HUMAN)
    return Seat(default_name(text.strip(), seat), text.strip())


def make_agent(spec: str, seed: int | None = None) -> SeatAgent:
    """The agent `spec` names (`agents.load`), seeded; raises AgentUnavailable with a readable reason."""
    try:
        return agents.load(spec, seed=seed)
    except ValueError as err:
        raise AgentUnavailable(str(err)) from None


__all__ = ["AGENT_NAMES", "HUMAN", "KINDS", "AgentUnavailable", "Seat", "SeatAgent",
           "default_name", "make_agent", "parse_seat"]
