"""Tournaments on Ray: the work units of `run_tournament` as Ray tasks, on this machine or on a cluster.

`run_tournament(config, ray=True)` (local Ray, or the cluster named by `RAY_ADDRESS`) or `ray="ray://HOST:10001"`
plays the same work units as `--workers`, each a Ray task seeded by (seed, unit), and gathers them in unit order,
so results equal those of `workers=1`. The config and every model file an entrant needs (its `az` network or
`ppo` policy, the shipped ones included, and the value network file a `csearch` spec names) are put in Ray's
object store once; a worker process writes each file it
is sent to its node's temporary folder the first time and loads agents from there, so a cluster node needs neither
the files nor the paths of the machine that started the tournament. Outside agents travel the same way: the file of
a ``PATH.py:ATTR`` spec, and the file of a ``MODULE:ATTR`` spec's module where that module is a single file (a
package's modules, and entry points, must be installed on every node). A task whose worker process dies is retried
(`retries` times); units are pure functions of (config, unit), so a retried unit plays the same games.

Needs the `scale` extra (`pip install -e ".[scale]"`); nothing outside the Ray modules imports Ray.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import ray

from agents.az.files import shipped_network
from agents.external import parse_external
from agents.registry import AZ_SEARCHES, parse_spec

from .config import TournamentConfig
from .play import UnitResult, play_unit
from .ray_init import init_ray

#: Plays one work unit: (config, unit, localise=spec -> spec on this node) -> its results; `play_unit` unless a
#: test injects faults.
UnitPlayer = Callable[..., UnitResult]
#: A shipped model file: (content digest, file suffix, object-store reference to its bytes, the entrant's spec
#: without its path, which the node's copy's path completes: the node parses no spec naming a file it lacks).
Shipped = tuple[str, str, "ray.ObjectRef", str]
#: How often a unit whose worker process died is played again.
DEFAULT_RETRIES = 3
#: An outside agent's source file: (digest, name to write it under, object-store reference, its spec's form,
#: ATTR).
Source = tuple[str, str, "ray.ObjectRef", str, str]
#: Model files already written on this node by this worker process: digest -> path.
_LOCAL_FILES: dict[str, Path] = {}


def _model_file(spec: str, config: TournamentConfig) -> Path | None:
    """The model file the agent of `spec` reads in `config`'s variant (the shipped one when none is named)."""
    parsed = parse_spec(spec)
    if parsed.kind in AZ_SEARCHES and parsed.model is None:
        return shipped_network(config.rules)
    return parsed.model_file


def ship_models(config: TournamentConfig) -> dict[str, Shipped]:
    """Put each entrant's model file in the object store once: spec -> (digest, suffix, reference)."""
    shipped: dict[str, Shipped] = {}
    by_digest: dict[str, ray.ObjectRef] = {}
    for name, spec in zip(config.names, config.specs, strict=True):
        if name in config.objects:
            continue
        path = _model_file(spec, config)
        if path is None:
            continue
        data = Path(path).expanduser().read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        if digest not in by_digest:
            by_digest[digest] = ray.put(data)
        shipped[spec] = (digest, Path(path).suffix, by_digest[digest], parse_spec(spec).with_model(""))
    return shipped


def _source_file(spec: str) -> tuple[Path, str, str] | None:
    """The file to ship for an outside agent's spec, the name to write it under on a node, and its spec's form;
    None for other specs, and for a module that is not a single file."""
    parsed = parse_external(spec)
    if parsed is None or parsed.kind != "python":
        return None
    if parsed.form == "file":
        path = Path(parsed.source).expanduser().resolve()
        return path, path.name, parsed.form
    top = parsed.source.split(".")[0]
    if top != parsed.source:
        return None
    found = importlib.util.find_spec(top)
    if found is None or found.origin is None or found.submodule_search_locations is not None \
            or not found.origin.endswith(".py"):
        return None
    return Path(found.origin), f"{top}.py", parsed.form


def ship_sources(config: TournamentConfig) -> dict[str, Source]:
    """Put each outside agent's source file in the object store once: spec -> `Source`."""
    shipped: dict[str, Source] = {}
    for name, spec in zip(config.names, config.specs, strict=True):
        found = None if name in config.objects else _source_file(spec)
        if found is None:
            continue
        path, name, form = found
        data = path.read_bytes()
        attr = spec.rpartition(":")[2]
        shipped[spec] = (hashlib.sha256(data).hexdigest(), name, ray.put(data), form, attr)
    return shipped


def local_file(digest: str, suffix: str, ref: ray.ObjectRef, folder_name: str = "kingdomino-ray-models") -> Path:
    """The shipped file `digest` on this node: fetched from the object store and written once per process, as
    DIGEST+SUFFIX, or (a suffix that starts with "/") as DIGEST/NAME."""
    if digest in _LOCAL_FILES and _LOCAL_FILES[digest].is_file():
        return _LOCAL_FILES[digest]
    folder = Path(tempfile.gettempdir()) / folder_name
    path = folder / f"{digest}{suffix}"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.is_file():
        temporary = path.parent / f".{digest}.{os.getpid()}.tmp"
        temporary.write_bytes(ray.get(ref))
        os.replace(temporary, path)
    _LOCAL_FILES[digest] = path
    return path


def _localiser(shipped: dict[str, Shipped], sources: dict[str, Source]) -> Callable[[str], str]:
    """The spec an entrant's agent is made from on this node: its shipped model file or source file written
    here (a module's folder goes first on `sys.path`)."""

    def localise(spec: str) -> str:
        if spec in sources:
            digest, name, ref, form, attr = sources[spec]
            path = local_file(digest, f"/{name}", ref, "kingdomino-ray-agents")
            if form == "file":
                return f"{path}:{attr}"
            if str(path.parent) not in sys.path:
                sys.path.insert(0, str(path.parent))
            return spec
        if spec not in shipped:
            return spec
        digest, suffix, ref, head = shipped[spec]
        return f"{head}{local_file(digest, suffix, ref)}"

    return localise


@ray.remote(num_cpus=1)
def _unit_task(config: TournamentConfig, unit: int, shipped: dict[str, Shipped], sources: dict[str, Source],
               player: UnitPlayer) -> UnitResult:
    """One work unit on a Ray worker (config and shipped files arrive through the object store)."""
    return player(config, unit, localise=_localiser(shipped, sources))


def play_units(config: TournamentConfig, address: str | None = None, progress: Callable[[int], None] | None = None,
               retries: int = DEFAULT_RETRIES, player: UnitPlayer = play_unit,
               finished: Callable[[UnitResult], None] | None = None,
               units: list[int] | None = None) -> list[UnitResult]:
    """Work units of `config` (all, or `units`) as Ray tasks (retried `retries` times if its worker dies), in unit
    order; `finished(result)` and `progress(games)` after each unit finishes. An interrupt cancels the units not
    finished."""
    if not isinstance(retries, int) or isinstance(retries, bool) or retries < 0:
        raise ValueError(f"retries must be an integer of at least 0, got {retries!r}")
    init_ray(address)
    config_ref = ray.put(config)
    shipped, sources = ship_models(config), ship_sources(config)
    task = _unit_task.options(max_retries=retries, retry_exceptions=False)
    todo = range(config.n_units) if units is None else units
    pending = {task.remote(config_ref, unit, shipped, sources, player): unit for unit in todo}
    results: list[UnitResult] = []
    try:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                del pending[ref]
                result = ray.get(ref)
                results.append(result)
                if finished:
                    finished(result)
                if progress:
                    progress(len(result.games))
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    return sorted(results, key=lambda r: r.unit)
