"""Test-session settings: how `pytest -n` (pytest-xdist) shares the tests between its workers."""

import inspect

import pytest


def _uses_ray(item: pytest.Item) -> bool:
    """Whether the test's module imports Ray (its tests start a local Ray cluster)."""
    module = getattr(item, "module", None)
    return inspect.ismodule(getattr(module, "ray", None))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Keep each file's tests on one worker (its module fixtures are built once), and the files that use Ray on
    one worker together, so that two Ray clusters never compete for the machine's cores."""
    for item in items:
        item.add_marker(pytest.mark.xdist_group("ray" if _uses_ray(item) else str(item.path)))


@pytest.fixture
def wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    """The `kingdomino` command's consoles 200 columns wide. Rich reads COLUMNS when a console is made, at import,
    so the runner's COLUMNS alone does not reach them; a test worker without a terminal would get 80 columns."""
    from kingdomino_cli import analyse, main

    for module in (main, analyse):
        monkeypatch.setattr(module.console, "width", 200)
