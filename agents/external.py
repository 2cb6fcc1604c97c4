"""Outside agents: specs that name a Python object of the researcher's own or of an installed package, resolved to
that object and made into an `Agent`; and the same for objects given directly (a tournament's entrants).

The registry's `parse_spec` tries these forms after its registered kinds (``mc:0.5`` stays Monte Carlo even where
a module ``mc`` exists), in this order:

* ``NAME`` or ``NAME:ARG``: the entry point NAME of the group ``kingdomino.agents`` of an installed package
  (``name = module:attr`` in its entry points); with ARG its object is called with ARG (a string) first;
* ``PATH.py:ATTR``: attribute ATTR of a Python file (relative to the current folder or absolute, ``~`` expanded),
  loaded once per process as the module ``kingdomino_agent_<12 hex digits of the SHA-256 of its resolved path>``,
  registered in `sys.modules`, so that its objects pickle by reference in any process that resolved the same spec
  (its folder is added to the end of `sys.path`, so it imports the modules beside it as a script would);
* ``MODULE:ATTR``: attribute ATTR of a dotted module importable from `sys.path` or the current folder (added to the
  end of `sys.path` when such a spec is resolved; spawned workers inherit both, so they find it too).

ATTR may be dotted (``bots:Bot.make``). The object may be an `Agent` subclass (made with ``seed=`` where its
constructor takes ``seed`` or ``**kwargs``, else with no argument), a factory (a callable with no required positional
argument, given ``seed=`` likewise) returning an `Agent`, an `Agent` instance (each load gets a deep copy), or a
policy ``policy(observation, action_mask) -> int`` (`PolicyAgent`). A callable that takes two positional arguments
is a policy, one that needs none a factory, one whose signature cannot be read a policy.

Resolving such a spec imports its module or runs its file, as unpickling would: use only specs from trusted sources.
"""

from __future__ import annotations

import copy
import difflib
import hashlib
import importlib
import inspect
import os
import sys
import threading
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import metadata, util
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from kingdomino_env import core
from kingdomino_env.core import State

from .base import Agent
from .errors import AgentSpecError

#: The entry point group through which installed packages add agent kinds.
ENTRY_POINT_GROUP = "kingdomino.agents"
#: The start of the module name a ``PATH.py`` file is loaded under.
FILE_MODULE_PREFIX = "kingdomino_agent_"
#: The spec kinds (`registry.ParsedSpec.kind`) of outside agents: a Python object named by module or file, and an
#: installed package's entry point.
PYTHON = "python"
ENTRY_POINT = "entry-point"
#: What an outside agent plays, in words: it is not asked in advance.
EXTERNAL_VARIANTS = "any variant it is asked to play (an outside agent is not checked before the game)"
#: What a spec or entrant may name.
OBJECT_KINDS = "an agents.Agent subclass or instance, a factory returning an Agent, or a policy(observation, " \
               "action_mask) -> int"

_MODULE, _FILE = "module", "file"
#: The files loaded so far, by the module name each was loaded under (for messages).
_FILES: dict[str, str] = {}
_FILE_LOCK = threading.Lock()


@dataclass(frozen=True)
class ExternalSpec:
    """An outside agent's spec, parsed by its grammar: its form ("module", "file" or "entry-point"), where its object
    lives (the module, the file as typed, or the entry point's name), the object's dotted attribute (empty for an
    entry point, whose value names it) and the ARG an entry point is called with (None: none)."""

    form: str
    source: str
    attr: str = ""
    arg: str | None = None

    @property
    def kind(self) -> str:
        """The spec kind: `ENTRY_POINT` or `PYTHON`."""
        return ENTRY_POINT if self.form == ENTRY_POINT else PYTHON


@dataclass(frozen=True)
class EntryPointAgent:
    """An agent kind an installed package adds: its name, the object its entry point names, its package and
    version."""

    name: str
    value: str
    package: str
    version: str


def entry_points() -> dict[str, metadata.EntryPoint]:
    """The entry points of `ENTRY_POINT_GROUP` by name (where two packages give one name, the first on `sys.path`).
    Reads the installed packages' metadata; imports nothing."""
    found: dict[str, metadata.EntryPoint] = {}
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(entry.name, entry)
    return found


def entry_point_agents() -> list[EntryPointAgent]:
    """The agent kinds installed packages add, by name (for `kingdomino agents`)."""
    out = []
    for name, entry in sorted(entry_points().items()):
        dist = entry.dist
        out.append(EntryPointAgent(name, entry.value, dist.name if dist else "?", dist.version if dist else "?"))
    return out


def _dotted(text: str) -> bool:
    return bool(text) and all(part.isidentifier() for part in text.split("."))


def _python_form(spec: str) -> ExternalSpec | None:
    """The ``PATH.py:ATTR`` or ``MODULE:ATTR`` that `spec` is by its grammar alone, or None."""
    head, sep, attr = spec.rpartition(":")
    if sep and head.endswith(".py") and _dotted(attr):
        return ExternalSpec(_FILE, head, attr)
    module, sep, attr = spec.partition(":")
    if sep and _dotted(module) and _dotted(attr):
        return ExternalSpec(_MODULE, module, attr)
    return None


def is_external_form(spec: str) -> bool:
    """Whether `spec` (registered kinds ruled out by the caller) is an outside agent's: a ``MODULE:ATTR`` or
    ``PATH.py:ATTR`` by its grammar, else an entry point's name (with or without ``:ARG``). Imports nothing."""
    return _python_form(spec) is not None or spec.partition(":")[0] in entry_points()


def parse_external(spec: str) -> ExternalSpec | None:
    """The outside agent `spec` names, or None if it names none (registered kinds ruled out by the caller).

    Cheap: nothing is imported or run; entry points are looked up by name and a ``PATH.py`` must be a file.

    Raises:
        AgentSpecError: An entry point's name with an empty ARG, or a ``PATH.py`` that is no file.
    """
    name, sep, arg = spec.partition(":")
    if name in entry_points():
        if sep and not arg:
            raise AgentSpecError(f"agent spec {spec!r}: give {name} or {name}:ARG (the entry point {name!r} of an "
                                 "installed package)")
        return ExternalSpec(ENTRY_POINT, name, arg=arg if sep else None)
    parsed = _python_form(spec)
    if parsed is not None and parsed.form == _FILE:
        path = Path(parsed.source).expanduser()
        if not path.is_file():
            where = "" if path.is_absolute() else f" (in the current folder {_current_folder() or '?'})"
            what = "is not a file" if path.exists() else "does not exist"
            raise AgentSpecError(f"agent spec {spec!r}: the Python file {parsed.source}{where} {what}")
    return parsed


def _current_folder() -> str | None:
    try:
        return os.getcwd()
    except OSError:
        return None


def _search_current_folder() -> None:
    """Add the current folder to the end of `sys.path` unless it is there already ('' counts)."""
    here = _current_folder()
    if here is None:
        return
    if not any(isinstance(entry, str) and os.path.abspath(entry or os.curdir) == here for entry in sys.path):
        sys.path.append(here)


def _shown(value: object, limit: int = 80) -> str:
    """`value`'s repr, cut to `limit` characters, and its type: for messages."""
    try:
        text = repr(value)
    except Exception:  # a repr that fails still leaves the type to name
        text = "?"
    text = text if len(text) <= limit else text[: limit - 3] + "..."
    return f"{text} ({type(value).__name__})"


def _error(err: BaseException) -> str:
    """An exception as one line: its type and message, and where it was raised outside this module's and
    importlib's frames (a syntax error: its file and line)."""
    if isinstance(err, SyntaxError):
        return f"{type(err).__name__}: {err.msg} ({err.filename}, line {err.lineno})"
    frames = [frame for frame in traceback.extract_tb(err.__traceback__)
              if frame.filename != __file__ and not frame.filename.startswith("<frozen")
              and f"{os.sep}importlib{os.sep}" not in frame.filename]
    where = f" ({frames[-1].filename}, line {frames[-1].lineno})" if frames else ""
    return f"{type(err).__name__}: {err}{where}"


def _import(name: str, spec: str, known: Iterable[str]) -> ModuleType:
    """Module `name` (searched for in the current folder too); AgentSpecError naming it and its error if it does not
    import, with the closest of `known` and the entry points' names where it does not exist."""
    _search_current_folder()
    if name not in sys.modules:
        importlib.invalidate_caches()
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name and (name == err.name or name.startswith(err.name + ".")):
            close = difflib.get_close_matches(name.split(".")[0].lower(), [*known, *entry_points()], n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise AgentSpecError(f"unknown agent spec {spec!r}: module {name!r} does not import ({_error(err)}); "
                                 f"MODULE must be importable from the current folder or sys.path{hint}") from None
        raise AgentSpecError(f"agent spec {spec!r}: module {name!r} does not import: {_error(err)}") from None
    except (Exception, SystemExit) as err:  # the module's own code failed: say how, without its traceback
        raise AgentSpecError(f"agent spec {spec!r}: module {name!r} does not import: {_error(err)}") from None


def _load_file(text: str, spec: str) -> ModuleType:
    """The Python file `text` as a module, loaded once per process under a name derived from its resolved path."""
    try:
        path = Path(text).expanduser().resolve(strict=True)
    except (OSError, RuntimeError):
        raise AgentSpecError(f"agent spec {spec!r}: the Python file {text} does not exist") from None
    name = FILE_MODULE_PREFIX + hashlib.sha256(os.fsencode(path)).hexdigest()[:12]
    with _FILE_LOCK:
        if name in sys.modules:
            return sys.modules[name]
        found = util.spec_from_file_location(name, path)
        if found is None or found.loader is None:
            raise AgentSpecError(f"agent spec {spec!r}: {text} cannot be loaded as Python")
        module = util.module_from_spec(found)
        sys.modules[name] = module
        if str(path.parent) not in sys.path:  # as for a script: the file imports the modules beside it
            sys.path.append(str(path.parent))
        try:
            found.loader.exec_module(module)
        except (Exception, SystemExit) as err:  # the file's own code failed: say how, without its traceback
            sys.modules.pop(name, None)
            raise AgentSpecError(f"agent spec {spec!r}: {text} does not load: {_error(err)}") from None
        _FILES[name] = str(path)
        return module


def _attribute(owner: object, dotted: str, spec: str, where: str) -> Any:
    """`owner`'s attribute `dotted`; AgentSpecError with the closest public name where one is missing."""
    obj = owner
    parts = dotted.split(".")
    for i, part in enumerate(parts):
        holder = where if i == 0 else f"{where} attribute {'.'.join(parts[:i])!r}"
        try:
            obj = getattr(obj, part)
        except AttributeError:
            try:
                names = [n for n in dir(obj) if not n.startswith("_")]
            except Exception:  # an object whose dir() fails has no names to suggest
                names = []
            close = difflib.get_close_matches(part, names, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise AgentSpecError(f"agent spec {spec!r}: {holder} has no attribute {part!r}{hint}") from None
        except Exception as err:  # a property or __getattr__ of the user's that raised
            raise AgentSpecError(f"agent spec {spec!r}: reading {part!r} of {holder} raised {_error(err)}") from None
    return obj


def resolve(parsed: ExternalSpec, spec: str, known: Iterable[str] = ()) -> Any:
    """The object an outside agent's spec names: imports its module or runs its file (once per process).

    Args:
        parsed: The spec, parsed (`parse_external`).
        spec: The spec as typed, for messages.
        known: The registered kinds, suggested where the module does not exist and its name is close to one.

    Raises:
        AgentSpecError: The module does not import, the file does not load, or the attribute is missing.
    """
    if parsed.form == _FILE:
        return _attribute(_load_file(parsed.source, spec), parsed.attr, spec, parsed.source)
    if parsed.form == _MODULE:
        return _attribute(_import(parsed.source, spec, known), parsed.attr, spec, f"module {parsed.source!r}")
    entry = entry_points().get(parsed.source)
    if entry is None:
        raise AgentSpecError(f"agent spec {spec!r}: no installed package gives the agent {parsed.source!r} now")
    module = _import(entry.module, spec, ())
    if not entry.attr:
        return module
    return _attribute(module, entry.attr, spec, f"module {entry.module!r} (entry point {entry.name} = {entry.value})")


def _qualified(obj: object) -> str:
    """`module.qualname` of a class or function (a ``PATH.py`` file's: ``PATH.py:qualname``)."""
    module = getattr(obj, "__module__", None)
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None) or type(obj).__name__
    if module in _FILES:
        return f"{_FILES[module]}:{name}"
    return f"{module}.{name}" if module else str(name)


def _signature(obj: Any) -> inspect.Signature | None:
    try:
        return inspect.signature(obj)
    except (TypeError, ValueError):
        return None


def _takes_seed(obj: Any) -> bool:
    """Whether calling `obj` accepts ``seed=`` (a parameter named seed, or ``**kwargs``)."""
    signature = _signature(obj)
    if signature is None:
        return False
    return any(p.kind is p.VAR_KEYWORD or (p.name == "seed" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))
               for p in signature.parameters.values())


def _positional(signature: inspect.Signature) -> tuple[int, float]:
    """How many positional arguments a call needs at least and takes at most."""
    params = signature.parameters.values()
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = sum(p.default is p.empty for p in positional)
    most = float("inf") if any(p.kind is p.VAR_POSITIONAL for p in params) else len(positional)
    return required, most


def _classify(obj: object, with_arg: bool) -> tuple[str | None, str]:
    """(kind, description) of an outside object: kind "class", "instance", "factory" or "policy", or None for an
    object of the wrong kind (then the description says what it is). `with_arg`: it is to be called with one ARG."""
    if isinstance(obj, Agent):
        return "instance", f"Agent instance of {_qualified(type(obj))}"
    if isinstance(obj, type):
        if not issubclass(obj, Agent):
            return None, f"a class that is not an agents.Agent subclass ({_qualified(obj)})"
        if inspect.isabstract(obj):
            return None, f"an abstract Agent subclass ({_qualified(obj)}: it does not implement act_batch)"
        return "class", f"Agent subclass {_qualified(obj)}"
    if isinstance(obj, ModuleType):
        return None, f"a module ({obj.__name__})"
    if not callable(obj):
        return None, f"an object of type {type(obj).__name__}, not callable: {_shown(obj)}"
    signature = _signature(obj)
    required, most = _positional(signature) if signature is not None else (0, float("inf"))
    if with_arg:
        if required <= 1 <= most:
            return "factory", f"factory {_qualified(obj)}"
        return None, f"a callable that cannot be called with one argument, ARG ({_qualified(obj)}{signature})"
    if signature is None:
        return "policy", f"policy {_qualified(obj)}"
    if required == 0:
        return "factory", f"factory {_qualified(obj)}"
    if required <= 2 <= most:
        return "policy", f"policy {_qualified(obj)}"
    return None, (f"a callable that is neither a factory (no required argument) nor a policy(observation, "
                  f"action_mask) ({_qualified(obj)}{signature})")


def _checked_kind(obj: object, label: str, arg: str | None = None) -> tuple[str, str]:
    kind, description = _classify(obj, arg is not None)
    if kind is None:
        raise AgentSpecError(f"{label} names {description}; give {OBJECT_KINDS}")
    if arg is not None and kind not in ("class", "factory"):
        raise AgentSpecError(f"{label}: its entry point names an {description}, which takes no ARG")
    return kind, description


def _make(obj: object, seed: int | None, name: str, label: str, arg: str | None = None) -> Agent:
    """The agent an outside object makes (see the module docstring), named `name`; `label` starts the messages."""
    kind, description = _checked_kind(obj, label, arg)
    if kind == "policy":
        agent: Any = PolicyAgent(obj, name)
    elif kind == "instance":
        try:
            agent = copy.deepcopy(obj)
        except Exception as err:  # an instance that cannot be copied cannot play several games apart
            raise AgentSpecError(f"{label}: the {description} cannot be copied: {_error(err)}") from None
    else:
        args = () if arg is None else (arg,)
        kwargs = {"seed": seed} if _takes_seed(obj) else {}
        try:
            agent = obj(*args, **kwargs)
        except Exception as err:  # the user's constructor or factory failed: say how, without its traceback
            raise AgentSpecError(f"{label}: making the agent with the {description} raised {_error(err)}") from None
        if not isinstance(agent, Agent):
            raise AgentSpecError(f"{label}: the {description} returned {_shown(agent)}, not an agents.Agent")
    agent.name = name
    return agent


def check_spec(parsed: ExternalSpec, spec: str, known: Iterable[str] = ()) -> str:
    """Resolve an outside agent's spec and check that it names an object of a right kind, without making the agent;
    its description. AgentSpecError if not (`resolve`'s, or an object of the wrong kind)."""
    obj = resolve(parsed, spec, known)
    return _checked_kind(obj, f"agent spec {spec!r}", parsed.arg)[1]


def load_spec(parsed: ExternalSpec, spec: str, seed: int | None = None, known: Iterable[str] = ()) -> Agent:
    """The agent an outside agent's spec names, named `spec`. AgentSpecError if it cannot be made."""
    obj = resolve(parsed, spec, known)
    return _make(obj, seed, spec, f"agent spec {spec!r}", parsed.arg)


def check_entrant_object(obj: object) -> str:
    """Check an object given directly as an agent (a tournament's entrant) and describe it, such as "Agent subclass
    bots.FirstLegal" or "policy bots.first_legal".

    Raises:
        AgentSpecError: `obj` is of none of the kinds an outside agent may be (the module docstring).
    """
    return _checked_kind(obj, f"the entrant {_shown(obj)}")[1]


def _default_name(obj: object) -> str:
    if isinstance(obj, Agent):
        return obj.name if obj.name != Agent.name else type(obj).__name__
    return str(getattr(obj, "__name__", type(obj).__name__))


def agent_from_object(obj: object, seed: int | None = None, name: str | None = None) -> Agent:
    """The agent an object given directly makes: an `Agent` subclass made (with ``seed=`` where it takes it), a
    factory called, an instance deep-copied, or a policy wrapped in a `PolicyAgent`.

    Args:
        obj: The object.
        seed: Seeds the agent where its constructor or factory takes ``seed``.
        name: The agent's name (None: an instance's own name, else the object's ``__name__``).

    Raises:
        AgentSpecError: `obj` is of the wrong kind, or its agent cannot be made.
    """
    name = _default_name(obj) if name is None else name
    return _make(obj, seed, name, f"agent {name!r}")


class PolicyAgent(Agent):
    """An agent that plays a plain function ``policy(observation, action_mask) -> int``, called once per game to
    decide, with copies of that game's rows so it cannot change the caller's arrays.

    observation: the mover's observation vector, float32 (`core.observe`, what the AEC env's ``observe`` gives the
    mover). action_mask: int8, 1 for each legal action (as the AEC env gives it). The return must be an integer
    (numpy integers too, not bool) naming a legal action; anything else raises an error that names the agent.
    """

    needs_observation = True

    def __init__(self, policy: Callable[[np.ndarray, np.ndarray], Any], name: str = "policy") -> None:
        self.policy = policy
        self.name = name

    def act_batch(self, state: State, games: np.ndarray, mask: np.ndarray, obs: np.ndarray | None) -> np.ndarray:
        if obs is None:
            obs = core.observe(state.take(games))
        out = np.empty(len(games), dtype=np.int64)
        for row in range(len(games)):
            legal = np.asarray(mask[row])
            choice = self.policy(np.array(obs[row], dtype=np.float32), np.array(legal, dtype=np.int8))
            out[row] = self._checked(choice, legal)
        return out

    def _checked(self, choice: object, legal: np.ndarray) -> int:
        """`choice` as an action id; TypeError or ValueError naming the agent if it is not a legal one."""
        if isinstance(choice, (bool, np.bool_)) or not isinstance(choice, (int, np.integer)):
            raise TypeError(f"agent {self.name!r}: its policy returned {_shown(choice)}; it must return an action "
                            "id, an int")
        action = int(choice)
        if not 0 <= action < len(legal):
            raise ValueError(f"agent {self.name!r}: its policy returned action {action}, outside 0 to "
                             f"{len(legal) - 1}")
        if not legal[action]:
            raise ValueError(f"agent {self.name!r}: its policy returned action {action}, which is not legal here "
                             "(its action_mask entry is 0)")
        return action
