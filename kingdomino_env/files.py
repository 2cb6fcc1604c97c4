"""Atomic file writes, so that nothing a user saved is ever lost or left half-written; checked reads of the files
users name, so that no path can hang or exhaust a reader.

`write_atomic(target, write)` lets `write` fill a new temporary file beside `target`, syncs it to disk and renames
it over `target` (`os.replace`): a reader, or a crash at any moment, finds the old file or the new one, never a
part. The temporary file is created with mode 0o666, so the umask gives it (and the target) the user's normal
mode, as `open` would. Game saves, tournament results, exported policies and training checkpoints all write
through it.

`check_regular_file(path, what, max_bytes)` and `read_regular_file(path, what, max_bytes)` are the one check every
loader of a user's path makes before reading: the path must be a regular file (a folder, FIFO, socket or device is
refused without being opened, so a FIFO cannot block the reader) of at most `max_bytes`; anything else raises
`FileCheckError` (a ValueError) naming the path, what it is and what is allowed. They live in
`games.checked_files`, below the games (which read building decks through them), and are re-exported here.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path

from .games.checked_files import FileCheckError, check_regular_file, read_regular_file

#: The suffix of temporary files unless a writer needs another (SB3 wants ".zip").
TEMP_SUFFIX = ".tmp"


def _create_temporary(directory: Path, prefix: str, suffix: str) -> Path:
    """A new empty file `directory/PREFIX<random>SUFFIX`, made with mode 0o666 less the umask."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    while True:
        path = directory / f"{prefix}{secrets.token_hex(8)}{suffix}"
        try:
            os.close(os.open(path, flags, 0o666))
            return path
        except FileExistsError:
            continue


def _sync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(target: str | Path, write: Callable[[Path], object], prefix: str | None = None,
                 suffix: str = TEMP_SUFFIX) -> Path:
    """Fill `target` through `write(temporary_path)` and a rename; the temporary file goes if anything fails.

    prefix: the temporary file's name start (default ".TARGETNAME-"); suffix: its end (".tmp")."""
    target = Path(target)
    temporary = _create_temporary(target.parent, f".{target.name}-" if prefix is None else prefix, suffix)
    try:
        write(temporary)
        _sync(temporary)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return target


def write_text_atomic(target: str | Path, text: str, prefix: str | None = None) -> Path:
    """Write `text` (UTF-8) to `target` atomically (see `write_atomic`)."""
    return write_atomic(target, lambda path: path.write_text(text, encoding="utf-8"), prefix)


__all__ = ["TEMP_SUFFIX", "FileCheckError", "check_regular_file", "read_regular_file", "write_atomic",
           "write_text_atomic"]
