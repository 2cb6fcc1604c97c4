"""Move advice: every legal action of the player to move with the mover's estimated chance of winning and final
margin, best first, from a search agent (`mc`, `az`, `azmc` or `csearch`).

`advise(state, game)` answers for one position; `Advisor` keeps one agent (and its network) for many positions,
which is what game analysis uses. The estimates are the search's own statistics: `mc`'s mean win share and margin
of its playouts per action (all actions played out in the same sampled worlds), `az`'s mean win probability and
margin of the simulations through each root action (network value mixed with a playout), `azmc`'s of the playouts
of each candidate it judged (the others valued once, like `az`'s unvisited actions), `csearch`'s mean win share and
margin of the simulations through each root action (its leaf values mixed with a playout; an unvisited action gets
the means of all its simulations). A shared
victory counts as its share (`core.win_shares`); in team games the estimates are the mover's team's. With a seed
and a budget in playouts or simulations, the advice is deterministic; a budget in seconds depends on the machine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kingdomino_env.core import State
from kingdomino_env.rules import Rules

from . import registry
from .az.agent import AZAgent
from .budget import check_seconds
from .csearch.agent import CompiledSearchAgent
from .flat_mc import FlatMonteCarloAgent
from .registry import AgentSpecError, check_supports, load, parse_spec, supports

#: The spec kinds that can advise (they report per-action estimates).
ADVISOR_KINDS = ("mc", "az", "azmc", *registry.CSEARCH_KINDS)
#: How the advising specs are written, for errors: the registry's own forms of `ADVISOR_KINDS`.
ADVISOR_SPECS = ", ".join(form for form in registry.SPECS if re.split(r"[\[:]", form)[0] in ADVISOR_KINDS) + \
    " (az with SEARCH >= 1 simulation)"
#: The games whose shipped az network is the default advisor; in the others `mc` is (at equal time their shipped
#: networks are not clearly ahead of it: the agents docs, "Where az stands").
AZ_ADVISES: frozenset[str] = frozenset({"kingdomino"})
#: The (game, frame, players) of the variants whose default advisor is `csearch`: where it measured clearly stronger
#: than the other advisors at equal time, the Mighty Duel's 7x7 kingdoms for 2 players (with its shipped network,
#: against `az`), 2-player Queendomino and the 4-player Royal Wedding (against `mc`; the agents docs, "Where csearch
#: stands" and "csearch in Queendomino and the Royal Wedding"). On 5x5 kingdoms it was not clearly ahead of `az`,
#: and `az` stays.
CSEARCH_ADVISES: frozenset[tuple[str, int, int]] = frozenset(
    {("kingdomino", 13, 2), ("queendomino", 13, 2), ("royal_wedding", 13, 4)})


@dataclass(frozen=True)
class ActionEstimate:
    """One legal action: the mover's estimated probability of winning (in [0, 1]) and expected final margin (own
    score minus the best other kingdom's, points) if they play it, and the playouts or simulations behind it."""

    action: int
    win_probability: float
    margin: float
    visits: int


def default_spec(rules: Rules) -> str:
    """The strongest advisor measured for `rules`: `csearch` in the `CSEARCH_ADVISES` variants (the Mighty Duel,
    2-player Queendomino and the 4-player Royal Wedding), else `az` (its shipped network) in the `AZ_ADVISES` games
    (Kingdomino), `mc` in the others (the other Queendomino and Royal Wedding variants), and `mc` wherever torch,
    which `az` needs, is not installed."""
    if (rules.game, rules.frame, rules.players) in CSEARCH_ADVISES and supports("csearch", rules):
        return "csearch"
    use_az = rules.game in AZ_ADVISES and registry.has_torch() and supports("az", rules)
    return "az" if use_az else "mc"


def check_advisor(spec: str, rules: Rules) -> str:
    """`spec`, checked: a valid spec of an advising kind that plays `rules`; AgentSpecError otherwise."""
    parsed = parse_spec(spec)
    if parsed.kind not in ADVISOR_KINDS:
        raise AgentSpecError(f"{parsed.spec!r} cannot advise (it reports no estimates per action); advisors: "
                             f"{ADVISOR_SPECS}")
    if parsed.kind == "az" and parsed.budget is None and parsed.simulations == 0:
        raise AgentSpecError(f"{parsed.spec!r} plays the network's policy alone and estimates nothing; advisors: "
                             f"{ADVISOR_SPECS}")
    check_supports(parsed.spec, rules)
    return parsed.spec


def _check_seconds(seconds: float | None) -> None:
    if seconds is not None:
        check_seconds(seconds, "seconds per decision")


class Advisor:
    """One advising agent for the games of `rules`: `spec` (None: `default_spec`), seeded with `seed`."""

    def __init__(self, rules: Rules, spec: str | None = None, seed: int | None = None):
        self.rules = rules
        self.spec = check_advisor(default_spec(rules) if spec is None else spec, rules)
        agent = load(self.spec, seed)
        assert isinstance(agent, FlatMonteCarloAgent | AZAgent | CompiledSearchAgent)
        self.agent = agent

    def advise(self, state: State, game: int = 0, *, seconds: float | None = None) -> list[ActionEstimate]:
        """Every legal action of the player to move in game `game` of `state`, best first; `seconds` replaces the
        spec's budget. ValueError for another variant, a game out of range or over."""
        if not isinstance(state, State):
            raise TypeError(f"state must be a kingdomino_env.core.State, got {type(state).__name__}")
        if state.rules != self.rules:
            raise ValueError(f"this advisor plays {self.rules}, not {state.rules}")
        if not (isinstance(game, int) and 0 <= game < state.batch_size):
            raise ValueError(f"game must be an index 0..{state.batch_size - 1} of the state's batch, got {game!r}")
        if state.is_over[game]:
            raise ValueError(f"game {game} is over: there is no move to advise")
        _check_seconds(seconds)
        actions, wins, margins, visits = self.agent.estimate(state, game, seconds)
        return [ActionEstimate(int(a), float(w), float(m), int(v))
                for a, w, m, v in zip(actions, wins, margins, visits, strict=True)]


def advise(state: State, game: int = 0, spec: str | None = None, *, seconds: float | None = None,
           seed: int | None = None) -> list[ActionEstimate]:
    """Every legal action of the player to move in game `game` of `state`, best first, as the advisor `spec`
    (None: `default_spec`) estimates them with its budget (or `seconds` per decision). AgentSpecError for a spec
    that cannot advise or play the variant."""
    if not isinstance(state, State):
        raise TypeError(f"state must be a kingdomino_env.core.State, got {type(state).__name__}")
    return Advisor(state.rules, spec, seed).advise(state, game, seconds=seconds)
