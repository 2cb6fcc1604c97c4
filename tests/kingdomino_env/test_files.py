"""Atomic writes: the target is replaced whole or not at all, with the user's normal file mode. Checked reads: only
a regular file within its size limit is read; a FIFO, folder or oversized file is refused at once."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from kingdomino_env.files import FileCheckError, check_regular_file, read_regular_file, write_atomic, write_text_atomic


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


def test_a_regular_file_within_its_limit_is_read_whole(tmp_path: Path):
    path = tmp_path / "deck.csv"
    path.write_bytes(b"x" * 100)
    assert check_regular_file(path, "a deck", 100) == 100
    assert read_regular_file(path, "a deck", 100) == b"x" * 100


@pytest.mark.parametrize("reader", [check_regular_file, read_regular_file])
def test_fifos_folders_missing_and_oversized_files_are_refused_without_blocking(tmp_path: Path, reader):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # opening it for reading would wait for a writer forever
    fifo_message = r"a deck .*pipe is not a regular file: it is a FIFO \(named pipe\)"
    with pytest.raises(FileCheckError, match=fifo_message) as err:
        reader(fifo, "a deck", 100)
    assert (err.value.kind, err.value.size, err.value.reason) == ("a FIFO (named pipe)", None, None)
    with pytest.raises(FileCheckError, match="is not a regular file: it is a folder"):
        reader(tmp_path, "a deck", 100)
    with pytest.raises(FileCheckError, match="cannot read a deck .*nope") as err:
        reader(tmp_path / "nope", "a deck", 100)
    assert err.value.kind is None and err.value.size is None and "No such file" in err.value.reason
    big = tmp_path / "big"
    big.write_bytes(b"x" * 101)
    with pytest.raises(FileCheckError, match="has 101 bytes; at most 100 are read") as err:
        reader(big, "a deck", 100)
    assert err.value.size == 101 and err.value.kind is None
    assert issubclass(FileCheckError, ValueError)
