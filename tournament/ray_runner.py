"""Tournaments on Ray: the work units of `run_tournament` as Ray tasks, on this machine or on a cluster.

`run_tournament(config, ray=True)` (local Ray, or the cluster named by `RAY_ADDRESS`) or `ray="ray://HOST:10001"`
plays the same work units as `--workers`, each a Ray task seeded by (seed, unit), and gathers them in unit order,
so results equal those of `workers=1`. The config and every model file an entrant needs (its `az` network or
`ppo` policy, the shipped ones included) are put in Ray's object store once; a worker process writes each file it
is sent to its node's temporary folder the first time and loads agents from there, so a cluster node needs neither
the files nor the paths of the machine that started the tournament. A task whose worker process dies is retried
(`retries` times); units are pure functions of (config, unit), so a retried unit plays the same games.

Needs the `scale` extra (`pip install -e ".[scale]"`); nothing outside the Ray modules imports Ray.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import ray

from agents import Agent, load
from agents.az.files import shipped_network
from agents.registry import AZ_SEARCHES, parse_spec

from .config import TournamentConfig
from .play import UnitResult, play_unit
from .ray_init import init_ray

#: Plays one work unit: (config, unit, agent loader) -> its results; `play_unit` unless a test injects faults.
UnitPlayer = Callable[[TournamentConfig, int, Callable[[str, int], Agent]], UnitResult]
#: A shipped model file: (content digest, file suffix, object-store reference to its bytes).
Shipped = tuple[str, str, "ray.ObjectRef"]
#: How often a unit whose worker process died is played again.
DEFAULT_RETRIES = 3
#: Model files already written on this node by this worker process: digest -> path.
_LOCAL_FILES: dict[str, Path] = {}


def _model_file(spec: str, config: TournamentConfig) -> Path | None:
    """The model file the agent of `spec` reads in `config`'s variant (the shipped one when none is named)."""
    parsed = parse_spec(spec)
    if parsed.kind in AZ_SEARCHES:
        return parsed.model if parsed.model is not None else shipped_network(config.rules)
    if parsed.kind == "ppo":
        return parsed.model
    return None


def ship_models(config: TournamentConfig) -> dict[str, Shipped]:
    """Put each entrant's model file in the object store once: spec -> (digest, suffix, reference)."""
    shipped: dict[str, Shipped] = {}
    by_digest: dict[str, ray.ObjectRef] = {}
    for spec in config.specs:
        path = _model_file(spec, config)
        if path is None:
            continue
        data = Path(path).expanduser().read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        if digest not in by_digest:
            by_digest[digest] = ray.put(data)
        shipped[spec] = (digest, Path(path).suffix, by_digest[digest])
    return shipped


def _local_file(digest: str, suffix: str, ref: ray.ObjectRef) -> Path:
    """The shipped file `digest` on this node: fetched from the object store and written once per process."""
    if digest in _LOCAL_FILES and _LOCAL_FILES[digest].is_file():
        return _LOCAL_FILES[digest]
    folder = Path(tempfile.gettempdir()) / "kingdomino-ray-models"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{digest}{suffix}"
    if not path.is_file():
        temporary = folder / f".{digest}.{os.getpid()}.tmp"
        temporary.write_bytes(ray.get(ref))
        os.replace(temporary, path)
    _LOCAL_FILES[digest] = path
    return path


def _loader(shipped: dict[str, Shipped]) -> Callable[[str, int], Agent]:
    """`agents.load`, reading shipped model files from this node; the agent keeps the spec it was entered as."""

    def make(spec: str, seed: int) -> Agent:
        if spec not in shipped:
            return load(spec, seed=seed)
        agent = load(parse_spec(spec).with_model(_local_file(*shipped[spec])), seed=seed)
        agent.name = spec
        return agent

    return make


@ray.remote(num_cpus=1)
def _unit_task(config: TournamentConfig, unit: int, shipped: dict[str, Shipped], player: UnitPlayer) -> UnitResult:
    """One work unit on a Ray worker (config and shipped files arrive through the object store)."""
    return player(config, unit, _loader(shipped))


def play_units(config: TournamentConfig, address: str | None = None, progress: Callable[[int], None] | None = None,
               retries: int = DEFAULT_RETRIES, player: UnitPlayer = play_unit) -> list[UnitResult]:
    """Every work unit of `config` as a Ray task (retried `retries` times if its worker dies), in unit order;
    `progress(games)` after each unit finishes."""
    if not isinstance(retries, int) or isinstance(retries, bool) or retries < 0:
        raise ValueError(f"retries must be an integer of at least 0, got {retries!r}")
    init_ray(address)
    config_ref = ray.put(config)
    shipped = ship_models(config)
    task = _unit_task.options(max_retries=retries, retry_exceptions=False)
    pending = {task.remote(config_ref, unit, shipped, player): unit for unit in range(config.n_units)}
    results: list[UnitResult] = []
    while pending:
        done, _ = ray.wait(list(pending), num_returns=1)
        for ref in done:
            del pending[ref]
            result = ray.get(ref)
            results.append(result)
            if progress:
                progress(len(result.games))
    return sorted(results, key=lambda r: r.unit)
