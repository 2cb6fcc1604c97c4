"""Seats at the table: a named human or an agent, and the agent that plays a seat. No pygame.

A seat's `kind` is "human" or an agent spec (`random`, `greedy`, `mcts`, `ppo`, or any spec `agents.load`
understands, such as `mcts:1.0`). `make_agent` loads agents through `agents.load`. `STRENGTHS` names five levels
of play, each an agent spec chosen by the strengths measured in the agents docs.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any, Protocol

import agents

HUMAN = "human"
#: The levels of play offered for a seat, weakest first, each an agent spec, by the strengths the agents docs
#: measure: GPRD beats random players but loses to Full Greedy; Full Greedy beats random players in most games; flat
#: Monte Carlo (`mc`) beats Full Greedy players in most games, and at equal time `az` is not clearly ahead of it in
#: any variant, nor `azmc` in most ("Where az stands"), so Expert is `mc` with a second a move and plays every
#: variant. Master is the compiled search, ahead of `mc` and `az` at equal time in 2-player Kingdomino and ahead
#: of `mc` in Queendomino and the Royal Wedding ("Where csearch stands"); it plays every variant.
STRENGTHS: dict[str, str] = {"Easy": "gprd", "Medium": "greedy", "Hard": "mc:0.25s", "Expert": "mc:1s",
                             "Master": "csearch:1s"}
#: The seat kinds the New Game screen cycles through: a human, the levels of play, then every agent by name.
KINDS: tuple[str, ...] = (HUMAN, *STRENGTHS.values(), "random", "heuristic", "mc", "mcts", "az", "azmc", "csearch",
                          "csearch-margin", "ppo")
#: Default names of agent seats.
AGENT_NAMES: dict[str, str] = {"random": "Random", "greedy": "Greedy", "gprd": "GPRD", "mcts": "MCTS",
                               "ppo": "PPO", "mc": "Monte Carlo", "heuristic": "Heuristic",
                               "az": "AlphaZero", "azmc": "AlphaZero MC", "csearch": "Compiled search",
                               "csearch-margin": "Margin search"}
#: The longest name a player types for a seat.
MAX_NAME = 16
#: The longest seat name a save may hold: a typed name plus the " 2".." 4" that tells equal names apart.
MAX_SEAT_NAME = MAX_NAME + 2
#: The longest agent spec a seat may name (a `ppo:PATH` holds a path).
MAX_KIND = 4096


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
        """The seat of a save's `{"name": str, "kind": str}`; ValueError says what is wrong. The kind is not
        checked against the agents here (`saves.check` does that for the save's variant)."""
        if not isinstance(data, dict) or set(data) != {"name", "kind"}:
            raise ValueError(f"a seat must be {{'name': str, 'kind': str}}, got {shorten(repr(data))}")
        name, kind = data["name"], data["kind"]
        if not isinstance(name, str) or not isinstance(kind, str):
            raise ValueError(f"a seat's name and kind must be strings, got {shorten(repr(data))}")
        if not 0 < len(name) <= MAX_SEAT_NAME or not visible(name):
            raise ValueError(f"a seat's name must be 1 to {MAX_SEAT_NAME} visible characters, "
                             f"got {shorten(repr(name))}")
        if not 0 < len(kind) <= MAX_KIND or not visible(kind):
            raise ValueError(f"a seat's kind must be 'human' or an agent spec, got {shorten(repr(kind))}")
        return cls(name, kind)


def visible(text: str) -> bool:
    """Whether `text` can be drawn as a label: no control characters or lone surrogates, and at least one letter,
    mark, digit, punctuation or symbol (a text of only spaces or zero-width characters draws as nothing)."""
    categories = [unicodedata.category(ch) for ch in text]
    return all(c not in ("Cc", "Cs") for c in categories) and any(c[0] in "LMNPS" for c in categories)


def printable(text: str) -> str:
    """`text` with control characters and lone surrogates shown as "?" ("?" for a text that draws as nothing), so
    that a file name or any other text from outside can always be drawn."""
    text = "".join("?" if unicodedata.category(ch) in ("Cc", "Cs") else ch for ch in text)
    return text if visible(text) else "?"


def shorten(text: str, limit: int = 80) -> str:
    """`text` cut to `limit` characters, ending in "..." when cut (for values quoted in error messages)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def kind_label(kind: str) -> str:
    """What a seat of `kind` is called on a button: "Human", "Expert: mc:1s" (a level of play), "Agent: mcts"."""
    if kind == HUMAN:
        return "Human"
    level = next((name for name, spec in STRENGTHS.items() if spec == kind), None)
    return f"{level}: {kind}" if level is not None else f"Agent: {kind}"


def default_name(kind: str, seat: int) -> str:
    """The name a seat gets unless the player types one: "Player 2", or the agent's name."""
    if kind == HUMAN:
        return f"Player {seat + 1}"
    if agents.is_external(kind) and ".py:" in kind:  # a file's agent goes by its attribute, not its path
        return kind.rpartition(":")[2].rpartition(".")[2][:MAX_NAME] or kind[:MAX_NAME]
    return AGENT_NAMES.get(kind.partition(":")[0].lower(), kind[:MAX_NAME])


def parse_seat(text: str, seat: int) -> Seat:
    """A seat from the command line: ``human``, ``human:NAME``, or an agent spec (``greedy``, ``mcts:0.5``)."""
    kind, _, arg = text.strip().partition(":")
    if not kind:
        raise ValueError(f"empty seat {text!r}; use human, human:NAME or an agent spec")
    if kind.lower() == HUMAN:
        name = arg.strip()[:MAX_NAME]
        return Seat(name if visible(name) else default_name(HUMAN, seat), HUMAN)
    return Seat(default_name(text.strip(), seat), text.strip())


def distinct_names(seats: list[Seat]) -> list[Seat]:
    """The seats with a number added to a name already taken ("Greedy", "Greedy 2"), each within MAX_NAME."""
    out: list[Seat] = []
    for seat in seats:
        name, k = seat.name, 2
        while name in [s.name for s in out]:
            suffix = f" {k}"
            name, k = seat.name[: MAX_NAME - len(suffix)].rstrip() + suffix, k + 1
        out.append(Seat(name, seat.kind))
    return out


def make_agent(spec: str, seed: int | None = None) -> SeatAgent:
    """The agent `spec` names (`agents.load`), seeded; raises AgentUnavailable with a readable reason."""
    try:
        return agents.load(spec, seed=seed)
    except ValueError as err:
        raise AgentUnavailable(str(err)) from None


__all__ = ["AGENT_NAMES", "HUMAN", "KINDS", "MAX_KIND", "MAX_NAME", "MAX_SEAT_NAME", "STRENGTHS", "AgentUnavailable",
           "Seat", "SeatAgent", "default_name", "kind_label", "make_agent", "parse_seat", "printable", "shorten",
           "visible"]
