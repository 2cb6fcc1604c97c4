"""Joining a Ray cluster ships the project's packages, found without importing `training` (tournaments may not
import it); no Ray instance is started here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

import agents  # noqa: E402
import kingdomino_env  # noqa: E402
import tournament  # noqa: E402
from tournament import ray_init  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def test_package_folders_are_the_project_packages():
    import training

    assert ray_init.package_folders() == [Path(m.__file__).parent
                                          for m in (kingdomino_env, agents, tournament, training)]
    assert ray_init.package_folders(("no_such_package_here",)) == []


def test_finding_the_packages_imports_no_training():
    done = subprocess.run([sys.executable, "-c", "import sys; from tournament import ray_init, ray_runner; "
                           "folders = ray_init.package_folders(); "
                           "assert folders[-1].name == 'training', folders; "
                           "assert not [m for m in sys.modules if m.split('.')[0] == 'training'], 'imported'"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr


def test_joining_a_cluster_ships_the_packages(monkeypatch):
    calls = []
    monkeypatch.setattr(ray_init.ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray_init.ray, "init", lambda **kwargs: calls.append(kwargs))
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    ray_init.init_ray("ray://head:10001")
    assert calls[0]["address"] == "ray://head:10001"
    assert calls[0]["runtime_env"] == {"py_modules": [str(p) for p in ray_init.package_folders()]}
    monkeypatch.setenv("RAY_ADDRESS", "head:6379")
    ray_init.init_ray()
    assert calls[1]["address"] == "head:6379" and len(calls[1]["runtime_env"]["py_modules"]) == 4
    monkeypatch.delenv("RAY_ADDRESS")
    ray_init.init_ray(num_cpus=2)
    assert calls[2]["address"] == "local" and calls[2]["num_cpus"] == 2 and "runtime_env" not in calls[2]
