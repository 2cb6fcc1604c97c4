"""Test-session settings: how `pytest -n` (pytest-xdist) shares the tests between its workers."""

import re
from functools import cache
from pathlib import Path

import pytest

#: The scope of the test files that start a local Ray cluster: they run on one worker together.
RAY_SCOPE = "ray"

#: A test file that imports Ray (directly or through `pytest.importorskip`).
_IMPORTS_RAY = re.compile(r"^(import ray\b|from ray\b|\w+ = pytest\.importorskip\(\"ray\"\))", re.MULTILINE)


@cache
def uses_ray(path: Path) -> bool:
    """Whether the test file at `path` imports Ray (its tests start a local Ray cluster)."""
    return path.suffix == ".py" and bool(_IMPORTS_RAY.search(path.read_text(encoding="utf-8")))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """With `--dist loadfile` (the default in `pyproject.toml`): each file's tests on one worker, so that its module
    fixtures are built and its kernels compiled once, and the files that use Ray on one worker together, so that two
    Ray clusters never compete for the machine's cores. Other `--dist` modes are pytest-xdist's own."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class FileScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = super()._split_scope(nodeid)
            return RAY_SCOPE if uses_ray(config.rootpath / path) else path

    return FileScheduling(config, log)


@pytest.fixture
def wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    """The `kingdomino` command's consoles 200 columns wide. Rich reads COLUMNS when a console is made, at import,
    so the runner's COLUMNS alone does not reach them; a test worker without a terminal would get 80 columns."""
    from kingdomino_cli import analyse, main

    for module in (main, analyse):
        monkeypatch.setattr(module.console, "width", 200)
