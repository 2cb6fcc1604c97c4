"""Checked reads of the files users name: a regular file within a size limit, or `FileCheckError`.

Here, below the games, so that the games' loaders (a Queendomino building deck) use the same check as every other
loader; `kingdomino_env.files` re-exports it for the rest of the project.
"""

from __future__ import annotations

import os
import stat


class FileCheckError(ValueError):
    """A path that is not a regular file, or one larger than its reader takes, or one that cannot be read.

    Attributes:
        kind: What the path is instead of a regular file ("a folder", "a FIFO (named pipe)"), or None.
        size: The bytes it holds when it is too large, or None.
        reason: Why it could not be read otherwise (the system's words, or that it grew past the limit), or None.
    """

    def __init__(self, message: str, kind: str | None = None, size: int | None = None, reason: str | None = None):
        super().__init__(message)
        self.kind = kind
        self.size = size
        self.reason = reason


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
        kind = _kind(info.st_mode)
        raise FileCheckError(f"{what} {os.fspath(path)} is not a regular file: it is {kind}", kind=kind)
    if info.st_size > max_bytes:
        raise FileCheckError(f"{what} {os.fspath(path)} has {info.st_size} bytes; at most {max_bytes} are read",
                             size=info.st_size)
    return info.st_size


def check_regular_file(path: str | os.PathLike, what: str, max_bytes: int) -> int:
    """The size of `path` if it is a regular file (symbolic links followed) of at most `max_bytes`; FileCheckError
    naming `what` otherwise. Nothing is opened, so a FIFO or device is refused without blocking."""
    try:
        info = os.stat(path)
    except (OSError, ValueError) as err:  # ValueError: a NUL byte in the path
        reason = str(getattr(err, "strerror", None) or err)
        raise FileCheckError(f"cannot read {what} {os.fspath(path)}: {reason}", reason=reason) from None
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
        reason = str(err.strerror or err)
        raise FileCheckError(f"cannot read {what} {os.fspath(path)}: {reason}", reason=reason) from None
    if size > max_bytes:
        raise FileCheckError(f"{what} {os.fspath(path)} has more than {max_bytes} bytes; at most {max_bytes} are read",
                             reason=f"it grew past {max_bytes} bytes while it was read")
    return b"".join(chunks)
