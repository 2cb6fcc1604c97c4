"""`load(spec)`: agent spec strings to agents, the one entry point that tournaments, training and the CLI use;
`check_supports(spec, rules)` / `supports(spec, rules)`: whether a spec's agent can play a variant, asked cheaply
before a game starts: random, greedy, gprd, mc and mcts play every Kingdomino variant, Queendomino and the Royal
Wedding (teams too); heuristic plays every Kingdomino variant but neither Queendomino nor the Royal Wedding (its
board evaluation knows no towns, buildings, knights, towers, coins, Queen or Dragon); csearch plays them all, with a
PATH (a value network) trained on the variant's game, frame and player count, or the heuristic's leaf values in
Kingdomino variants only; az and azmc play
every Kingdomino variant with the shipped network of its board size and player count, and every Queendomino and Royal
Wedding variant with the shipped network of its game, or any variant a given network file was trained for (the
game and board size are read from the file's metadata); a trained ppo policy plays the variant whose shapes it was
trained for; an outside agent (a Python object named by module or file, or an installed package's entry point) is
taken to play every variant (it is not asked in advance; the tournament referee forfeits one that fails in play).

Grammar: ``random`` | ``greedy`` | ``gprd`` | ``heuristic`` | ``mc[:BUDGET]`` | ``mcts[:BUDGET]`` |
``csearch[:BUDGET[:PATH]]`` | ``csearch-margin[:BUDGET[:PATH]]`` | ``ppo`` |
``ppo:PATH`` | ``az[:SEARCH][:PATH]`` | ``azmc[:SEARCH][:PATH]``, where BUDGET is seconds per move (``0.5``,
``0.5s``) or playouts per move (``p200``), and SEARCH is simulations per move (``200``, ``p200``; ``0`` = the
network's policy alone) or seconds per move (``0.5``, ``0.5s``). `az` and `azmc` without PATH use the shipped network
for the game's variant; they differ in their search (`AZ_SEARCHES`). `csearch` values its leaves by the shipped
value network of the variant's game, frame and player count, or by the network file PATH, mixed with greedy
playouts; where no network is shipped, by the heuristic (Kingdomino, also with PATH ``heuristic``) or by the
playouts alone (Queendomino and the Royal Wedding); `csearch-margin` is the same search weighing the margin more
(`CSEARCH_KINDS`).

Outside agents (`external`), tried after the registered kinds above, which keep precedence: ``NAME`` or
``NAME:ARG``, an agent kind an installed package adds through the entry point group ``kingdomino.agents``
(``name = module:attr``; with ARG its object is called with ARG first); ``PATH.py:ATTR``, an object in a Python file;
``MODULE:ATTR``, an object in a module importable from the current folder or `sys.path`. ATTR may be dotted. The
object is an `Agent` subclass, a factory returning an `Agent`, an `Agent` instance (copied per load) or a policy
``policy(observation, action_mask) -> int``. A spec that names a module or file runs its code when it is checked or
loaded, as unpickling would: use only specs from trusted sources.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import util
from pathlib import Path

from kingdomino_env.files import FileCheckError, check_regular_file
from kingdomino_env.rules import Rules

from . import external
from .az import files as az_files
from .az.agent import DEFAULT_SIMULATIONS as AZ_DEFAULT_SIMULATIONS
from .az.agent import AZAgent
from .az.search import SearchConfig
from .base import Agent
from .baselines import GreedyAgent, RandomAgent
from .budget import BUDGET_GRAMMAR, MAX_PLAYOUTS, MAX_SECONDS, Budget, parse_count
from .csearch import network
from .csearch.agent import CompiledSearchAgent
from .csearch.network import MAX_WEIGHTS_BYTES
from .csearch.settings import MARGIN_SEEKING
from .errors import AgentSpecError
from .external import ExternalSpec
from .flat_mc import FlatMonteCarloAgent
from .heuristic import HeuristicAgent
from .model_file import ModelShape, describe_variant, read_model_shape, variants_text
from .ppo import SHIPPED_MODEL, PPOAgent, resolve_model_path
from .uct import UCTAgent

#: `az`'s search budget grammar.
AZ_GRAMMAR = (f"SIMS (e.g. 200 or p200, simulations per move, 0 to {MAX_PLAYOUTS:_}; 0 = the policy alone) or SECONDS "
              f"(e.g. 0.5 or 0.5s, time per move, at most {MAX_SECONDS:g})")

#: Seconds per move of `mc` and `mcts` without a budget.
DEFAULT_BUDGET = Budget(seconds=0.5)
#: The searches over an `az` network, by spec kind: `az` grows a tree whose leaves the network values (mixed with a
#: heuristic playout); `azmc` grows none: the network's policy proposes the candidates of Gumbel AlphaZero's root and
#: Full Greedy playouts in sampled worlds judge them, so one network pass a move buys many cheap playouts.
AZ_SEARCHES: dict[str, SearchConfig] = {"az": SearchConfig(),
                                        "azmc": SearchConfig(leaves="playout", playout="greedy")}
#: The compiled searches, by spec kind, and the `CompiledSearchAgent` settings each names: `csearch` plays to win;
#: `csearch-margin` weighs the margin more (`MARGIN_SEEKING`), for the largest wins against weaker players.
CSEARCH_KINDS: dict[str, dict[str, float]] = {"csearch": {}, "csearch-margin": MARGIN_SEEKING}
#: Playouts per move of `azmc` without a budget.
AZMC_DEFAULT_SIMULATIONS = 1000
_AZ_DEFAULTS = {"az": AZ_DEFAULT_SIMULATIONS, "azmc": AZMC_DEFAULT_SIMULATIONS}

#: The valid specs, as shown in errors and `kingdomino agents`.
SPECS: dict[str, str] = {
    "random": "uniformly random legal moves",
    "greedy": "Full Greedy (Gedda et al. 2018): maximise the score now, draft the domino that scores most now",
    "gprd": "greedy placement, random draft (Gedda et al.'s GPRD)",
    "heuristic": "greedy on score + room to grow + reachable bonuses - dead squares",
    "mc[:BUDGET]": f"flat Monte Carlo MCE-FG/R, Full Greedy playouts (default {DEFAULT_BUDGET} s/move)",
    "mcts[:BUDGET]": f"UCT over determinised worlds, Full Greedy playouts (default {DEFAULT_BUDGET} s/move)",
    "csearch[:BUDGET[:PATH]]": "compiled PUCT over sampled worlds, leaves valued half by a small value network "
                               "(the shipped one, PATH, or 'heuristic'), half by a Full Greedy playout (pN: N "
                               f"simulations; default {DEFAULT_BUDGET} s/move; every game)",
    "csearch-margin[:BUDGET[:PATH]]": "csearch weighing the margin more: it plays for the largest win, not only "
                                      "the surest",
    "ppo": "the shipped MaskablePPO policy",
    "ppo:PATH": "a MaskablePPO policy saved by sb3-contrib (.zip)",
    "az[:SEARCH][:PATH]": "tree search (Gumbel root) guided by a policy/value network (the shipped one for the "
                          f"variant, or PATH; default {AZ_DEFAULT_SIMULATIONS} simulations/move; all three games)",
    "azmc[:SEARCH][:PATH]": "the az network's policy proposes 16 moves, Full Greedy playouts judge them by "
                            f"sequential halving (default {AZMC_DEFAULT_SIMULATIONS} playouts/move; all three games)",
    "MODULE:ATTR": "your own agent: an Agent subclass, factory, instance or policy(observation, action_mask) in a "
                   "module importable from the current folder or sys.path (its code runs: trusted sources only)",
    "PATH.py:ATTR": "the same, in a Python file",
}

_SIMPLE: dict[str, Callable[[int | None], Agent]] = {
    "random": lambda seed: RandomAgent(seed),
    "greedy": lambda seed: GreedyAgent(seed),
    "gprd": lambda seed: GreedyAgent(seed, random_draft=True),
    "heuristic": lambda seed: HeuristicAgent(seed),
}


#: What the agents that play through the core's rules and policies (random, greedy, gprd, mc, mcts) play.
ALL_VARIANTS = "every Kingdomino variant, Queendomino and the Royal Wedding (teams too)"
#: What the heuristic agent plays: its evaluation kernel scores Kingdomino boards only.
HEURISTIC_VARIANTS = ("every Kingdomino variant, not Queendomino or the Royal Wedding (its evaluation kernel scores "
                      "Kingdomino's territories, room and bonuses only: it cannot value towns, buildings, knights, "
                      "towers, coins, the Queen or the Dragon, nor choose the knight, build and Dragon steps)")
#: What `az` plays.
AZ_VARIANTS = ("every Kingdomino variant (a network per board size and player count), every Queendomino variant and "
               "every Royal Wedding variant (a network per game)")
#: csearch's PATH that asks for the heuristic's leaf values.
HEURISTIC_LEAVES = "heuristic"
#: The agents that play Kingdomino variants only, and what they play.
KINGDOMINO_ONLY = {"heuristic": HEURISTIC_VARIANTS}
#: What csearch plays: every game without a PATH; with one, a value network file the variants it was trained for,
#: the heuristic's leaf values Kingdomino's.
CSEARCH_VARIANTS = (f"{ALL_VARIANTS}; with a PATH, a value network file the variant it was trained for, "
                    f"{HEURISTIC_LEAVES} Kingdomino variants")
#: The specs besides az that play Queendomino and the Royal Wedding, for the Kingdomino-only agents' refusals.
QUEENDOMINO_SPECS = "random, greedy, gprd, mc[:BUDGET], mcts[:BUDGET] or a ppo:PATH trained on that variant"


#: The registered kinds, which take precedence over outside agents' specs.
REGISTERED_KINDS: tuple[str, ...] = (*_SIMPLE, "mc", "mcts", *CSEARCH_KINDS, "ppo", *AZ_SEARCHES)


def valid_specs() -> str:
    return ", ".join(SPECS) + f"; BUDGET = {BUDGET_GRAMMAR}; SEARCH = {AZ_GRAMMAR}"


@dataclass(frozen=True)
class ParsedSpec:
    """A checked spec: its kind ("random", ..., "ppo", "az", "azmc", or `external.PYTHON` / `external.ENTRY_POINT`
    for an outside agent), the search budget of mc/mcts/csearch (and az's or azmc's seconds per move), az's or azmc's
    simulations per move, the model file of ppo, az or azmc (None: the shipped network for the variant), and an
    outside agent's module or file, attribute and ARG."""

    spec: str
    kind: str
    budget: Budget | None = None
    model: Path | None = None
    simulations: int | None = None
    external: ExternalSpec | None = None

    @property
    def model_file(self) -> Path | None:
        """The file the spec names for its agent to read: a ppo or az model, a csearch value network; None where it
        names none (the shipped network, or csearch's heuristic leaves)."""
        if self.kind in CSEARCH_KINDS and str(self.model) == HEURISTIC_LEAVES:
            return None
        return self.model

    def with_model(self, path: str | Path) -> str:
        """The spec of the same agent (kind and search budget) reading its model file at `path` (ppo, az, azmc, and
        csearch's value network)."""
        if self.kind == "ppo":
            return f"ppo:{path}"
        if self.kind in CSEARCH_KINDS:
            budget = self.spec.partition(":")[2].partition(":")[0]
            return f"{self.kind}:{budget or self.budget}:{path}"
        if self.kind not in AZ_SEARCHES:
            raise ValueError(f"{self.spec} reads no model file")
        if self.budget is not None and self.budget.seconds is not None:
            return f"{self.kind}:{self.budget.seconds}s:{path}"
        return f"{self.kind}:{self.simulations}:{path}"


def _az_budget(text: str) -> tuple[int | None, Budget | None] | None:
    """`"200"`, `"p200"` -> (200 simulations, None) (`"0"`: the policy alone); `"0.5"`, `"0.5s"` -> (None, 0.5
    seconds); None if `text` is no budget; ValueError for a bad number of seconds."""
    raw = text.strip().lower()
    digits = raw.removeprefix("p")
    if digits.isascii() and digits.isdigit():
        return parse_count(digits, "simulations per move", low=0), None
    try:
        seconds = float(raw.removesuffix("s"))
    except ValueError:
        return None
    return None, Budget(seconds=seconds)


def _parse_az(spec: str, kind: str, arg: str) -> ParsedSpec:
    """`az` or `azmc` (`kind`) with its argument: [SEARCH][:PATH]."""
    default = _AZ_DEFAULTS[kind]
    if not arg and ":" not in spec:
        return ParsedSpec(spec, kind, simulations=default)
    if not arg:
        raise AgentSpecError(f"{spec!r}: give {kind}, or {kind}:SEARCH, {kind}:PATH or {kind}:SEARCH:PATH "
                             f"(SEARCH = {AZ_GRAMMAR})")
    head, _, tail = arg.partition(":")
    try:
        search = _az_budget(head) if head else None
    except ValueError as err:
        raise AgentSpecError(f"{spec!r}: {err}") from None
    path = tail if search is not None else arg
    simulations, budget = search if search is not None else (default, None)
    if kind == "azmc" and simulations == 0:
        raise AgentSpecError(f"{spec!r}: azmc judges moves by playouts and needs at least 1; for the network's "
                             "policy alone use az:0")
    if not path:
        return ParsedSpec(spec, kind, budget=budget, simulations=simulations)
    try:
        az_files.read_info(path)
    except ValueError as err:
        raise AgentSpecError(f"{spec!r}: {err} ({kind} takes [SEARCH][:PATH], SEARCH = {AZ_GRAMMAR})") from None
    return ParsedSpec(spec, kind, budget=budget, simulations=simulations, model=Path(path).expanduser())


def parse_spec(spec: str) -> ParsedSpec:
    """Check `spec`'s grammar (and that a ppo model file exists) without making the agent; AgentSpecError if bad."""
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError(f"an agent spec must be a non-empty string, got {spec!r}; valid: {valid_specs()}")
    spec = spec.strip()
    kind, _, arg = spec.partition(":")
    kind = kind.lower()
    if kind in _SIMPLE:
        if arg:
            raise AgentSpecError(f"agent {kind!r} takes no argument, got {spec!r}; valid: {valid_specs()}")
        return ParsedSpec(spec, kind)
    if kind in ("mc", "mcts", *CSEARCH_KINDS):
        arg, _, path = arg.partition(":") if kind in CSEARCH_KINDS else (arg, "", "")
        try:
            budget = Budget.parse(arg) if arg else DEFAULT_BUDGET
        except ValueError as err:
            raise AgentSpecError(f"{spec!r}: {err}") from None
        if path and path != HEURISTIC_LEAVES and not Path(path).expanduser().exists():
            raise AgentSpecError(f"{spec!r}: no value network file {path} (or give '{HEURISTIC_LEAVES}')")
        if path and path != HEURISTIC_LEAVES:
            try:
                check_regular_file(Path(path).expanduser(), "the value network file", MAX_WEIGHTS_BYTES)
            except FileCheckError as err:
                raise AgentSpecError(f"{spec!r}: {err}") from None
        return ParsedSpec(spec, kind, budget=budget, model=Path(path).expanduser() if path else None)
    if kind == "ppo":
        if not arg and not SHIPPED_MODEL.is_file():
            raise AgentSpecError(f"the shipped PPO policy {SHIPPED_MODEL} is missing (a damaged install?); "
                                 "load a trained one with 'ppo:path/to/model.zip'")
        try:
            return ParsedSpec(spec, kind, model=resolve_model_path(arg) if arg else SHIPPED_MODEL)
        except ValueError as err:
            raise AgentSpecError(f"{spec!r}: {err}") from None
    if kind in AZ_SEARCHES:
        return _parse_az(spec, kind, arg)
    outside = external.parse_external(spec)
    if outside is not None:
        return ParsedSpec(spec, outside.kind, external=outside)
    close = difflib.get_close_matches(kind, [*REGISTERED_KINDS, *external.entry_points()], n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise AgentSpecError(f"unknown agent spec {spec!r}; valid: {valid_specs()}{hint}")


def is_external(spec: str) -> bool:
    """Whether `spec` names an outside agent (``MODULE:ATTR``, ``PATH.py:ATTR`` or an installed package's entry
    point, with or without ``:ARG``), as `parse_spec` reads it; registered kinds keep precedence. Cheap: the grammar
    and the installed packages' metadata decide; no module is imported and no agent file is run."""
    if not isinstance(spec, str):
        return False
    spec = spec.strip()
    return spec.partition(":")[0].lower() not in REGISTERED_KINDS and external.is_external_form(spec)


def _model_shape(parsed: ParsedSpec) -> ModelShape:
    assert parsed.model is not None
    try:
        return read_model_shape(parsed.model)
    except ValueError as err:
        raise AgentSpecError(f"{parsed.spec!r}: {parsed.model} is not a MaskablePPO model: {err}") from None


def supported_variants(spec: str) -> str:
    """The variants a spec plays, in words (for errors and `kingdomino agents`).

    Args:
        spec: An agent spec.

    Raises:
        AgentSpecError: The spec is bad.
    """
    parsed = parse_spec(spec)
    if parsed.external is not None:
        return external.EXTERNAL_VARIANTS
    if parsed.kind in KINGDOMINO_ONLY:
        return KINGDOMINO_ONLY[parsed.kind]
    if parsed.kind in CSEARCH_KINDS:
        return CSEARCH_VARIANTS
    if parsed.kind in AZ_SEARCHES:
        return AZ_VARIANTS if parsed.model is None else az_files.read_info(parsed.model).describe()
    if parsed.kind != "ppo":
        return ALL_VARIANTS
    return variants_text(_model_shape(parsed))


def check_supports(spec: str, rules: Rules) -> None:
    """Check, before a game, that a spec is valid and its agent can play a variant.

    Cheap: no agent is made, no model is loaded and torch is not imported (a ppo model's shapes are read from its
    file and compared with the core's observation size and action count for `rules`). An outside agent's spec is
    resolved (its module imported, its file run) and its object checked, then taken to play every variant.

    Args:
        spec: An agent spec.
        rules: The variant to play.

    Raises:
        AgentSpecError: The spec is invalid or its agent cannot play `rules`; the message names the variants it
            plays. An outside agent's: its module does not import, its file does not load, its attribute is missing
            or it names an object of the wrong kind.
        TypeError: `rules` is not a `Rules`.
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a kingdomino_env.rules.Rules, got {type(rules).__name__}")
    parsed = parse_spec(spec)
    if parsed.external is not None:
        external.check_spec(parsed.external, parsed.spec, REGISTERED_KINDS)
        return
    if parsed.kind in KINGDOMINO_ONLY and rules.has_buildings:
        raise AgentSpecError(f"{parsed.spec} plays {KINGDOMINO_ONLY[parsed.kind]}; for {rules.title_in_text} use "
                             f"az, {QUEENDOMINO_SPECS}")
    if parsed.kind in CSEARCH_KINDS and parsed.model is not None:
        _check_csearch_leaves(parsed, rules)
    if parsed.kind in AZ_SEARCHES:
        _check_az(parsed, rules)
        return
    if parsed.kind != "ppo":
        return
    shape = _model_shape(parsed)
    if shape != ModelShape.of(rules):
        raise AgentSpecError(f"{parsed.spec} plays {variants_text(shape)}; this game is a "
                             f"{describe_variant(rules, 'game')} ({ModelShape.of(rules)})")


def _check_az(parsed: ParsedSpec, rules: Rules) -> None:
    path = parsed.model if parsed.model is not None else az_files.shipped_network(rules)
    try:
        info = az_files.read_info(path)
    except ValueError as err:
        raise AgentSpecError(f"{parsed.spec}: {err}" + ("" if parsed.model else " (a damaged install?)")) from None
    if not info.plays(rules):
        raise AgentSpecError(f"{parsed.spec}: the network {path} plays {info.describe()}; this game is a "
                             f"{describe_variant(rules, 'game')}")


def _check_csearch_leaves(parsed: ParsedSpec, rules: Rules) -> None:
    """AgentSpecError unless csearch's PATH values positions of `rules`: the heuristic's values Kingdomino's, a value
    network file those of the game, frame and player count it was trained for."""
    if str(parsed.model) == HEURISTIC_LEAVES:
        if rules.has_buildings:
            raise AgentSpecError(f"{parsed.spec}: the heuristic values Kingdomino positions only; for "
                                 f"{rules.title_in_text} use {parsed.kind}[:BUDGET] without a PATH, or a value "
                                 f"network trained on it")
        return
    try:
        network.check_plays(network.load_weights(parsed.model)[1], rules, parsed.spec)
    except ValueError as err:
        raise AgentSpecError(str(err)) from None


def _csearch(parsed: ParsedSpec, seed: int | None) -> Agent:
    assert parsed.budget is not None
    settings = CSEARCH_KINDS[parsed.kind]
    if parsed.model is None or str(parsed.model) == HEURISTIC_LEAVES:
        return CompiledSearchAgent(parsed.budget, seed=seed, shipped=parsed.model is None, **settings)
    try:
        return CompiledSearchAgent(parsed.budget, seed=seed, weights=parsed.model, **settings)
    except ValueError as err:
        raise AgentSpecError(f"{parsed.spec!r}: {err}") from None


def supports(spec: str, rules: Rules) -> bool:
    """Whether a spec is valid and its agent can play a variant (`check_supports` without the error).

    Args:
        spec: An agent spec.
        rules: The variant to play.
    """
    try:
        check_supports(spec, rules)
    except AgentSpecError:
        return False
    return True


def has_torch() -> bool:
    """Whether torch (the `train` extra) is installed: `az`, `azmc` and `ppo` need it to think."""
    return util.find_spec("torch") is not None


def load(spec: str, seed: int | None = None) -> Agent:
    """The agent a spec names.

    Args:
        spec: An agent spec such as `"greedy"`, `"mc:0.5"`, `"az:p400"` or `"bots:MyAgent"` (`valid_specs()` lists
            them).
        seed: Seeds the agent's randomness; None for fresh entropy.

    Returns:
        The agent; its `name` is the spec as given.

    Raises:
        AgentSpecError: A bad spec, or `az`, `azmc` or `ppo` without torch; an outside agent whose module does not
            import, whose object is of the wrong kind, or whose constructor or factory fails or returns no `Agent`.
    """
    parsed = parse_spec(spec)
    if parsed.external is not None:
        return external.load_spec(parsed.external, parsed.spec, seed, REGISTERED_KINDS)
    if (parsed.kind in AZ_SEARCHES or parsed.kind == "ppo") and not has_torch():
        raise AgentSpecError(f"{parsed.spec!r}: {parsed.kind} needs torch, which is not installed: "
                             "pip install 'kingdomino-rl[train]'")
    if parsed.kind in _SIMPLE:
        agent = _SIMPLE[parsed.kind](seed)
    elif parsed.kind in CSEARCH_KINDS:
        agent = _csearch(parsed, seed)
    elif parsed.kind in ("mc", "mcts"):
        assert parsed.budget is not None
        agent = (FlatMonteCarloAgent if parsed.kind == "mc" else UCTAgent)(parsed.budget, seed=seed)
    elif parsed.kind in AZ_SEARCHES:
        agent = AZAgent(simulations=parsed.simulations, seconds=parsed.budget and parsed.budget.seconds,
                        network=parsed.model, seed=seed, config=AZ_SEARCHES[parsed.kind])
    else:
        assert parsed.model is not None
        try:
            agent = PPOAgent(parsed.model)
        except ValueError as err:
            raise AgentSpecError(f"{parsed.spec!r}: {err}") from None
    agent.name = parsed.spec
    return agent
