"""Checks of training configs, key by key: each key's type and range, in messages that name the key and what it may
hold, so a bad config fails before any work starts (nothing trained, nothing written).

A check is a function of the key's name and value that raises `ConfigError` (a ValueError); `check_values` runs a
table of them over a config's values. `integer`, `number`, `boolean`, `choice`, `text`, `texts` and `optional` make
the checks; `check_out_folder` checks where a run writes, and `read_config` reads a JSON config file (a regular file
of at most `MAX_CONFIG_BYTES` holding an object).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kingdomino_env.files import FileCheckError, read_regular_file
from kingdomino_env.rules import short_repr

#: The largest seed a run takes (numpy's generators take any such integer).
MAX_SEED = 2**63 - 1
#: The largest config file read.
MAX_CONFIG_BYTES = 1 << 20

Check = Callable[[str, Any], None]


class ConfigError(ValueError):
    """A config key whose value has the wrong type or lies outside its range, or a config file that cannot be read."""


def integer(low: int, high: int) -> Check:
    """An integer (not a bool) from `low` to `high`."""
    def check(name: str, value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ConfigError(f"{name} must be an integer from {low} to {high}, got {short_repr(value)}")
    return check


def number(low: float, high: float, above: bool = False) -> Check:
    """A finite number (an integer or a float, not a bool) from `low` (or, with `above`, greater than `low`) to
    `high`."""
    def check(name: str, value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
                or not (low < value if above else low <= value) or value > high:
            start = f"greater than {low:g}" if above else f"from {low:g}"
            raise ConfigError(f"{name} must be a number {start} {'and at most' if above else 'to'} {high:g}, got "
                              f"{short_repr(value)}")
    return check


def boolean(name: str, value: Any) -> None:
    """true or false."""
    if not isinstance(value, bool):
        raise ConfigError(f"{name} must be true or false, got {short_repr(value)}")


def choice(*options: str) -> Check:
    """One of `options`."""
    def check(name: str, value: Any) -> None:
        if not isinstance(value, str) or value not in options:
            raise ConfigError(f"{name} must be one of {', '.join(options)}, got {short_repr(value)}")
    return check


def text(name: str, value: Any) -> None:
    """A non-empty string."""
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{name} must be a non-empty string, got {short_repr(value)}")


def texts(most: int) -> Check:
    """A list of at most `most` non-empty strings."""
    def check(name: str, value: Any) -> None:
        if not isinstance(value, list) or len(value) > most \
                or not all(isinstance(v, str) and v.strip() for v in value):
            raise ConfigError(f"{name} must be a list of at most {most} non-empty strings, got {short_repr(value)}")
    return check


def optional(inner: Check) -> Check:
    """None (JSON null), or what `inner` allows."""
    def check(name: str, value: Any) -> None:
        if value is not None:
            try:
                inner(name, value)
            except ConfigError as err:
                allowed, got, value_text = str(err).rpartition(", got ")
                raise ConfigError(f"{allowed} or null{got}{value_text}" if got else str(err)) from None
    return check


def check_out_folder(name: str, value: Any) -> None:
    """A folder a run may write into: an existing folder, or a path whose nearest existing ancestor is a folder
    that can be written (the run makes the rest); never an existing file."""
    text(name, value)
    path = Path(value).expanduser()
    if path.exists() and not path.is_dir():
        raise ConfigError(f"{name} {value!r} is an existing file, not a folder; give a folder (made if missing)")
    ancestor = path if path.exists() else next((p for p in path.absolute().parents if p.exists()), None)
    if ancestor is None or not ancestor.is_dir():
        raise ConfigError(f"{name} {value!r} lies under {ancestor}, which is not a folder; give a folder (made if "
                          "missing)")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise ConfigError(f"{name} {value!r}: the folder {ancestor} cannot be written")


def check_values(values: dict[str, Any], checks: dict[str, Check]) -> None:
    """Run each check of `checks` on its key's value in `values` (keys absent from `values` are not checked)."""
    for name, check in checks.items():
        if name in values:
            check(name, values[name])


def read_config(path: str | os.PathLike) -> dict[str, Any]:
    """The JSON object of the config file at `path`; ConfigError naming the file and what is wrong otherwise."""
    try:
        raw = read_regular_file(path, "the config file", MAX_CONFIG_BYTES)
    except FileCheckError as err:
        raise ConfigError(str(err)) from None
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as err:
        raise ConfigError(f"the config file {os.fspath(path)} is not UTF-8 text ({err.reason})") from None
    except (ValueError, RecursionError) as err:
        raise ConfigError(f"the config file {os.fspath(path)} is not JSON ({str(err)[:120]})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"the config file {os.fspath(path)} must hold a JSON object of config keys, got "
                          f"{type(data).__name__}")
    return data
