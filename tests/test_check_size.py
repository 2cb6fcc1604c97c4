"""The CI size check (`.ci/check_size.py`): the real tree passes; a list with a large file outside agents/models/ or
too many bytes in all fails, naming the files and their sizes."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / ".ci" / "check_size.py"


@pytest.fixture(scope="module")
def check_size():
    spec = importlib.util.spec_from_file_location("check_size", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_real_tree_is_within_the_limits(check_size):
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    files = check_size.tracked_files(ROOT)
    assert len(files) > 100 and check_size.problems(files) == []
    assert sum(size for _, size in files) <= 20 * check_size.MIB, "the tracked tree is to stay under 20 MiB"
    done = subprocess.run([sys.executable, str(SCRIPT), str(ROOT)], capture_output=True, text=True)
    assert done.returncode == 0 and "repository size check:" in done.stdout


def test_a_large_file_outside_the_models_fails_with_its_name_and_size(check_size):
    mib = check_size.MIB
    files = [("agents/models/big.az", 3 * mib), ("docs/az/checkpoints/2p/iter_0022.az", 3 * mib),
             ("training/runs/data_1.npz", 2 * mib + 1), ("README.md", 2 * mib)]
    found = check_size.problems(files)
    assert len(found) == 2 and found[0].startswith("docs/az/checkpoints/2p/iter_0022.az: 3.00 MiB, over the 2 MiB")
    assert found[1].startswith("training/runs/data_1.npz: 2.00 MiB")
    assert not any("agents/models/big.az:" in line or line.startswith("README.md") for line in found)


def test_a_tree_over_the_total_fails_naming_its_largest_files(check_size):
    mib = check_size.MIB
    files = [(f"agents/models/net_{i}.az", 2 * mib) for i in range(13)]
    found = check_size.problems(files)
    assert found == [found[0]] and found[0].startswith("the 13 tracked files hold 26.00 MiB, over the 25 MiB allowed")
    assert "agents/models/net_0.az (2.00 MiB)" in found[0]
    assert check_size.problems(files[:12]) == []


def test_the_script_fails_on_a_repository_over_the_limits(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "data_0.npz").write_bytes(b"\0" * (3 << 20))
    subprocess.run(["git", "-C", str(tmp_path), "add", "data_0.npz"], check=True)
    done = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 1 and "data_0.npz: 3.00 MiB, over the 2 MiB" in done.stderr
