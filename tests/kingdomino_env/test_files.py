"""Atomic writes: the target is replaced whole or not at all, with the user's normal file mode."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from kingdomino_env.files import write_atomic, write_text_atomic


def test_a_write_replaces_the_target_whole_and_leaves_no_temporary_file(tmp_path: Path):
    target = tmp_path / "save.json"
    target.write_text("old")
    assert write_text_atomic(target, "new") == target
    assert target.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]


def test_a_failed_write_keeps_the_old_file_and_removes_its_temporary(tmp_path: Path):
    target = tmp_path / "model.zip"
    target.write_text("old")
    seen: list[Path] = []

    def half_write(temporary: Path) -> None:
        seen.append(temporary)
        temporary.write_text("half")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        write_atomic(target, half_write, suffix=".zip")
    assert target.read_text() == "old"
    assert seen and seen[0].parent == tmp_path and seen[0].suffix == ".zip" and not seen[0].exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.zip"]


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_files_get_the_users_normal_mode(tmp_path: Path, umask: int):
    old = os.umask(umask)
    try:
        path = write_text_atomic(tmp_path / "results.json", "{}", prefix=".custom-")
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
