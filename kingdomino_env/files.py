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
`FileCheckError` (a ValueError) naming the path, what it is and what is allowed.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path

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


class FileCheckError(ValueError):
    """A path that is not a regular file, or one larger than its reader takes, or one that cannot be read."""


def _kind(mode: int) -> str:
    """What a non-regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a special file"


def _checked(info: os.stat_result, path: str | os.PathLike, what: str, max_bytes: int) -> int:
    if not stat.S_ISREG(info.st_mode):
        raise FileCheckError(f"{what} {os.fspath(path)} is not a regular file: it is {_kind(info.st_mode)}")
    if info.st_size > max_bytes:
        raise FileCheckError(f"{what} {os.fspath(path)} has {info.st_size} bytes; at most {max_bytes} are read")
    return info.st_size


def check_regular_file(path: str | os.PathLike, what: str, max_bytes: int) -> int:
    """The size of `path` if it is a regular file (symbolic links followed) of at most `max_bytes`; FileCheckError
    naming `what` otherwise. Nothing is opened, so a FIFO or device is refused without blocking."""
    try:
        info = os.stat(path)
    except (OSError, ValueError) as err:  # ValueError: a NUL byte in the path
        raise FileCheckError(f"cannot read {what} {os.fspath(path)}: {getattr(err, 'strerror', None) or err}") from None
    return _checked(info, path, what, max_bytes)


def read_regular_file(path: str | os.PathLike, what: str, max_bytes: int) -> bytes:
    """The bytes of `path`, a regular file of at most `max_bytes` (see `check_regular_file`). The file is opened
    without blocking and checked again once open, so a FIFO put in its place meanwhile is refused, not waited on,
    and no more than `max_bytes` are read whatever it grows to."""
    check_regular_file(path, what, max_bytes)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        try:
            _checked(os.fstat(fd), path, what, max_bytes)
            chunks, size = [], 0
            while size <= max_bytes:
                chunk = os.read(fd, max_bytes + 1 - size)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
        finally:
            os.close(fd)
    except OSError as err:
        raise FileCheckError(f"cannot read {what} {os.fspath(path)}: {err.strerror or err}") from None
    if size > max_bytes:
        raise FileCheckError(f"{what} {os.fspath(path)} has more than {max_bytes} bytes; at most {max_bytes} are read")
    return b"".join(chunks)


__all__ = ["TEMP_SUFFIX", "FileCheckError", "check_regular_file", "read_regular_file", "write_atomic",
           "write_text_atomic"]
