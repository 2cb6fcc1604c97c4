"""Saved games: one JSON file per save in a directory, written atomically, checked on reading. No pygame.

File format (`kingdomino-save/1`); the game itself is a `kingdomino-record/1` record (`kingdomino_env.record`):

    {"format": "kingdomino-save/1",
     "name": "Friday night",                      # as the player typed it
     "saved_at": "2025-03-14T21:05:09+01:00",     # ISO 8601, local time
     "seats": [{"name": "Alice", "kind": "human"}, {"name": "Greedy", "kind": "greedy"}],
     "seed": 1234,                                # deals game k of the match with seed + k; seeds the agents
     "dynasty": null,                             # or {"games": 3, "finished": [records of the games played]}
     "record": {"format": "kingdomino-record/1", ...}}   # the game in progress

The directory is `~/.kingdomino/saves` unless an argument or `KINGDOMINO_SAVES` names another. A save is
written to a temporary file in the same directory and moved over the target with `os.replace`, so a save file is
always whole. Reading checks everything, replaying each record through the core: a corrupt or hand-edited file
raises SaveError with a readable reason, and `list_saves` lists it with that reason next to the good ones.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from kingdomino_env import core
from kingdomino_env.dynasty import DYNASTY_GAMES
from kingdomino_env.record import RecordError, replay

from .seats import Seat

FORMAT = "kingdomino-save/1"
ENV_VAR = "KINGDOMINO_SAVES"
_KEYS = {"format", "name", "saved_at", "seats", "seed", "dynasty", "record"}


class SaveError(ValueError):
    """A save file that cannot be read or does not describe a game that can continue."""


@dataclass
class SaveData:
    """A checked save: its fields, the seats, and the game state replayed from its record."""

    name: str
    saved_at: str
    seats: list[Seat]
    seed: int
    dynasty: bool
    finished: list[dict[str, Any]]
    record: dict[str, Any]
    state: core.State = field(repr=False)

    @property
    def progress(self) -> str:
        """Where the game stands, e.g. "Round 3/12", "Game 2/3, Round 1/6", "Starting round"."""
        return progress_text(self.state, len(self.finished) + 1, DYNASTY_GAMES if self.dynasty else 1)


@dataclass
class SaveInfo:
    """One entry of the Load screen: a good save (`data`) or a bad one (`error`)."""

    path: Path
    name: str
    saved_at: str
    players: list[str]
    progress: str
    error: str | None = None
    data: SaveData | None = None


def progress_text(state: core.State, game_number: int = 1, games: int = 1) -> str:
    """"Round 3/12" (round 0 is the "Starting round"; "Game over" at the end), prefixed "Game 2/3, " in a match."""
    if state.is_over[0]:
        where = "Game over"
    elif state.round[0] == 0:
        where = "Starting round"
    else:
        where = f"Round {int(state.round[0])}/{state.rules.rounds}"
    return f"Game {game_number}/{games}, {where}" if games > 1 else where


def default_dir() -> Path:
    """`$KINGDOMINO_SAVES`, or `~/.kingdomino/saves`."""
    return Path(os.environ.get(ENV_VAR) or Path.home() / ".kingdomino" / "saves").expanduser()


def slug(name: str) -> str:
    """The file stem of a save name: lower-case letters, digits and dashes."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:60] or "save"


def path_for(directory: Path | str, name: str) -> Path:
    return Path(directory) / f"{slug(name)}.json"


def now() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


def write(directory: Path | str, data: dict[str, Any], overwrite: bool = False) -> Path:
    """Write a save atomically to `path_for(directory, data["name"])`; FileExistsError unless `overwrite`."""
    check(data)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    target = path_for(directory, data["name"])
    if target.exists() and not overwrite:
        raise FileExistsError(f"a save named {data['name']!r} exists ({target.name})")
    fd, tmp = tempfile.mkstemp(prefix=".saving-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def _replayed(record: Any, what: str) -> core.State:
    try:
        state, _ = replay(record)
    except RecordError as err:
        raise SaveError(f"{what} is not a valid game record: {err}") from None
    return state


def check(data: Any) -> SaveData:
    """Check a save's content (replaying its records); SaveError says what is wrong."""
    if not isinstance(data, dict):
        raise SaveError(f"a save must be a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise SaveError(f"not a Kingdomino save (format {data.get('format')!r}, expected {FORMAT!r})")
    missing = _KEYS - set(data)
    if missing:
        raise SaveError(f"the save lacks {', '.join(sorted(missing))}")
    unknown = set(data) - _KEYS
    if unknown:
        raise SaveError(f"the save has unknown entries {', '.join(sorted(unknown))}")
    if not isinstance(data["name"], str) or not data["name"].strip():
        raise SaveError("the save's name must be a non-empty string")
    if not isinstance(data["saved_at"], str):
        raise SaveError("the save's date (saved_at) must be a string")
    if not isinstance(data["seed"], int) or isinstance(data["seed"], bool):
        raise SaveError("the save's seed must be an integer")
    if not isinstance(data["seats"], list):
        raise SaveError("the save's seats must be a list")
    try:
        seats = [Seat.from_dict(s) for s in data["seats"]]
    except ValueError as err:
        raise SaveError(f"the save's seats are invalid: {err}") from None
    state = _replayed(data["record"], "the game in progress")
    if len(seats) != state.rules.players:
        raise SaveError(f"the save has {len(seats)} seats for a {state.rules.players}-player game")
    dynasty, finished = data["dynasty"], []
    if dynasty is not None:
        if not isinstance(dynasty, dict) or set(dynasty) != {"games", "finished"}:
            raise SaveError("the save's dynasty must be null or {'games': 3, 'finished': [...]}")
        if dynasty["games"] != DYNASTY_GAMES or not isinstance(dynasty["finished"], list):
            raise SaveError(f"a dynasty has {DYNASTY_GAMES} games and a list of finished ones")
        finished = dynasty["finished"]
        if len(finished) >= DYNASTY_GAMES:
            raise SaveError(f"the dynasty lists {len(finished)} finished games of {DYNASTY_GAMES}")
        for k, rec in enumerate(finished):
            done = _replayed(rec, f"dynasty game {k + 1}")
            if not done.is_over[0] or done.rules != state.rules:
                raise SaveError(f"dynasty game {k + 1} is unfinished or of other rules than the game in progress")
    return SaveData(data["name"], data["saved_at"], seats, data["seed"], dynasty is not None, list(finished),
                    data["record"], state)


def read(path: Path | str) -> SaveData:
    """Read and check one save file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise SaveError(f"cannot read the file: {err}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise SaveError(f"the file is not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})") from None
    return check(data)


def list_saves(directory: Path | str) -> list[SaveInfo]:
    """Every save in `directory`, newest first; a bad one carries its error and the file name as its name."""
    directory = Path(directory)
    if not directory.is_dir():
        return []
    out = []
    for path in sorted(directory.glob("*.json")):
        try:
            data = read(path)
        except SaveError as err:
            out.append(SaveInfo(path, path.stem, _mtime(path), [], "", error=str(err)))
            continue
        out.append(SaveInfo(path, data.name, data.saved_at, [s.name for s in data.seats], data.progress, data=data))
    return sorted(out, key=lambda s: s.saved_at, reverse=True)


def _mtime(path: Path) -> str:
    return datetime.fromtimestamp(path.stat().st_mtime).astimezone().isoformat(timespec="seconds")


def display_date(saved_at: str) -> str:
    """"2025-03-14 21:05" from an ISO date (the text itself when it is not one)."""
    try:
        return datetime.fromisoformat(saved_at).strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return saved_at


__all__ = ["ENV_VAR", "FORMAT", "SaveData", "SaveError", "SaveInfo", "check", "default_dir", "display_date",
           "list_saves", "now", "path_for", "progress_text", "read", "slug", "write"]
