"""What an installed package needs besides its code: the shipped training configs and networks are declared
package data, and they are found through the installed packages, not through the source tree or the working
folder."""

from __future__ import annotations

import fnmatch
import json
import tomllib
from importlib import resources
from pathlib import Path

import pytest

import agents
import training
from agents.az import files as az_files

ROOT = Path(__file__).resolve().parents[2]


def package_data() -> dict[str, list[str]]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]


@pytest.mark.parametrize(("package", "folder", "suffix"), [("training", "configs", ".json"),
                                                           ("agents", "models", ".az"),
                                                           ("agents", "models", ".npz")])
def test_every_shipped_file_is_declared_package_data(package, folder, suffix):
    patterns = package_data()[package]
    shipped = sorted(p for p in (ROOT / package / folder).iterdir() if p.name.endswith(suffix))
    assert shipped
    for path in shipped:
        assert any(fnmatch.fnmatch(f"{folder}/{path.name}", pattern) for pattern in patterns), path


def test_shipped_configs_load_by_name_from_the_installed_package(tmp_path, monkeypatch):
    """From any working folder, `--config az_2p` (or its path as `--help` names it) reads the packaged file."""
    from training.train_az import load_config, shipped_configs

    monkeypatch.chdir(tmp_path)
    folder = resources.files("training").joinpath("configs")
    assert Path(str(folder)).parent == Path(training.__file__).parent
    names = shipped_configs()
    assert names == sorted(p.stem for p in (ROOT / "training" / "configs").glob("*.json"))
    for name in names:
        packaged = json.loads(folder.joinpath(f"{name}.json").read_text())
        assert load_config(name) == load_config(f"{name}.json") == load_config(f"training/configs/{name}.json") \
            == packaged
    with pytest.raises(ValueError, match="no config file az_9p, and no shipped config of that name; shipped: az_2p"):
        load_config("az_9p")


def test_shipped_networks_are_found_in_the_installed_package(tmp_path, monkeypatch):
    from training.az_runs import NAMES, ShippedRun

    monkeypatch.chdir(tmp_path)
    models = Path(str(resources.files("agents").joinpath("models")))
    assert models == Path(agents.__file__).parent / "models" == az_files.MODELS
    for name in NAMES:
        assert ShippedRun(name).network.parent == models and ShippedRun(name).network.is_file()
