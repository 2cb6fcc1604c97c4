"""Joining Ray, shared by the Ray tournaments (`tournament.ray_runner`) and Ray training (`training.ray_selfplay`,
`training.rllib_selfplay`).

A cluster's workers get this project's packages from the machine that joins it (Ray's `py_modules`); they are
found by name, not imported, so that this module imports nothing from the packages above it (`training`).
Needs the `scale` extra.
"""

from __future__ import annotations

import os
from importlib.util import find_spec
from pathlib import Path

import ray

#: The packages a Ray worker may run: the env, the agents, tournaments and training.
SHIPPED_PACKAGES = ("kingdomino_env", "agents", "tournament", "training")


def package_folders(names: tuple[str, ...] = SHIPPED_PACKAGES) -> list[Path]:
    """The folder of each installed package of `names`, found without importing it."""
    folders = []
    for name in names:
        spec = find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            folders.append(Path(next(iter(spec.submodule_search_locations))))
    return folders


def init_ray(address: str | None = None, num_cpus: int | None = None) -> None:
    """Join Ray once per process: the cluster at `address` (``ray://HOST:10001``, ``HOST:6379`` or ``auto``), else
    the one `RAY_ADDRESS` names, else a Ray instance on this machine (a new one of `num_cpus` CPUs when given).

    Joining a cluster ships this project's packages to its nodes (Ray's `py_modules`), so only the dependencies
    (the `scale` and `train` extras) need installing there."""
    if ray.is_initialized():
        return
    target = address or os.environ.get("RAY_ADDRESS") or None
    if target is None:
        ray.init(address="local" if num_cpus else None, num_cpus=num_cpus, include_dashboard=False,
                 logging_level="warning")
        return
    ray.init(address=target, runtime_env={"py_modules": [str(p) for p in package_folders()]}, logging_level="warning")
