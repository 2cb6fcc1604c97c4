"""Test-session settings: how `pytest -n` (pytest-xdist) shares the tests between its workers."""

import pytest

#: Test files that start a local Ray cluster: they run one after another on the same worker, so that two clusters
#: never compete for the machine's cores.
RAY_FILES = frozenset({"test_ray_selfplay.py", "test_rllib_selfplay.py", "test_ray_tournament.py",
                       "test_ray_init.py"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Keep each file's tests on one worker (its module fixtures are built once) and the Ray files together."""
    for item in items:
        group = "ray" if item.path.name in RAY_FILES else str(item.path)
        item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture
def wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    """The `kingdomino` command's consoles 200 columns wide. Rich reads COLUMNS when a console is made, at import,
    so the runner's COLUMNS alone does not reach them; a test worker without a terminal would get 80 columns."""
    from kingdomino_cli import analyse, main

    for module in (main, analyse):
        monkeypatch.setattr(module.console, "width", 200)
