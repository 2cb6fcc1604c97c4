"""How the test session shares tests between pytest-xdist workers (`tests/conftest.py`)."""

import re
from pathlib import Path

import pytest

from tests.conftest import uses_ray

pytest_plugins = ["pytester"]

TESTS = Path(__file__).parent


def test_the_files_that_import_ray_are_found():
    found = {p.relative_to(TESTS).as_posix() for p in TESTS.rglob("test_*.py") if uses_ray(p)}
    assert found == {"training/test_ray_selfplay.py", "training/test_rllib_selfplay.py", "tournament/test_ray_init.py",
                     "tournament/test_ray_tournament.py"}


def test_each_file_runs_on_one_worker_and_the_ray_files_on_one_together(pytester: pytest.Pytester):
    pytester.makeconftest((TESTS / "conftest.py").read_text(encoding="utf-8"))
    body = "import pytest\n\n@pytest.mark.parametrize('i', range(6))\ndef test_it(i):\n    pass\n"
    ray = 'import pytest\n\nray = pytest.importorskip("ray")\n\n' + body.split("\n\n", 1)[1]
    pytester.makepyfile(test_a=body, test_b=body, test_c=body, test_ray_a=ray, test_ray_b=ray)
    result = pytester.runpytest_subprocess("-p", "xdist", "-n", "2", "--dist", "loadfile", "-v")
    result.assert_outcomes(passed=30)
    workers: dict[str, set[str]] = {}
    for worker, name in re.findall(r"\[(gw\d)\].*PASSED (test_\w+)\.py::", result.stdout.str()):
        workers.setdefault(name, set()).add(worker)
    assert sorted(workers) == ["test_a", "test_b", "test_c", "test_ray_a", "test_ray_b"]
    assert all(len(w) == 1 for w in workers.values())
    assert workers["test_ray_a"] == workers["test_ray_b"]


def test_the_session_also_runs_without_xdist(pytester: pytest.Pytester):
    pytester.makeconftest((TESTS / "conftest.py").read_text(encoding="utf-8"))
    pytester.makepyfile(test_a="def test_it():\n    pass\n")
    pytester.runpytest_subprocess("-p", "no:xdist").assert_outcomes(passed=1)
