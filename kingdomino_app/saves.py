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
written to a temporary file (`.saving-*.tmp`, with the user's normal file mode) in the same directory, synced,
and moved over the target with `os.replace`, so a save file is always whole; temporary files left by a killed
writer are removed once they are a minute old. Reading checks every field for type and range and replays each
record through the core: a corrupt, hand-edited or oversized file, anything in the folder that is not a regular
file, or a seat whose agent cannot play the save's game raises SaveError with a readable reason, and
`list_saves` lists it with that reason next to the good ones. Kingdomino, Queendomino and Royal Wedding games
(2-8 seats) are saved alike: the record names its game. The game in progress is also autosaved to
`_autosave.json` (a name no save name maps to), which `list_saves` lists first.
"""

from __future__ import annotations

import json
import os
import re
import stat
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import agents
from kingdomino_env import core
from kingdomino_env.dynasty import DYNASTY_GAMES
from kingdomino_env.files import TEMP_SUFFIX, FileCheckError, read_regular_file, write_text_atomic
from kingdomino_env.record import replay
from kingdomino_env.rules import Rules

from .seats import Seat, printable, shorten, visible

FORMAT = "kingdomino-save/1"
ENV_VAR = "KINGDOMINO_SAVES"
#: The autosave of the game in progress: its stem starts with "_", which `slug` never produces.
AUTOSAVE_FILE = "_autosave.json"
AUTOSAVE_TITLE = "Unfinished game (autosave)"
#: The name inside the autosave of a game never saved under a name (a named game's autosave keeps its name).
AUTOSAVE_NAME = "Autosave"
#: Save files larger than this are refused unread (a 4-player Dynasty takes a few kilobytes).
MAX_BYTES = 1 << 20
MAX_SAVE_NAME = 80
MAX_DATE = 64
#: The largest seed: game k of a match is dealt with seed + k (k < 3), which must stay a 64-bit integer.
MAX_SEED = 2**63 - DYNASTY_GAMES
#: A temporary file this old (seconds) was left by a writer that died.
STALE_SECONDS = 60.0
TEMP_PREFIX = ".saving-"
_KEYS = {"format", "name", "saved_at", "seats", "seed", "dynasty", "record"}
#: The most seats a save holds (the Royal Wedding's 8 players).
MAX_SEATS = 8


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
        """Where the game stands, e.g. "Round 3/12", "Game 2/3, Round 1/6", "Starting round"; other games than
        Kingdomino say which ("Queendomino, Round 3/12", "Royal Wedding in teams, Round 2/12")."""
        where = progress_text(self.state, len(self.finished) + 1, DYNASTY_GAMES if self.dynasty else 1)
        rules = self.state.rules
        return where if rules.title == Rules().title else f"{game_title(rules)}, {where}"


@dataclass
class SaveInfo:
    """One entry of the Load screen: a good save (`data`) or a bad one (`error`); `autosave` marks the autosave.
    Every text of an entry can be drawn (a bad file's name has its control characters shown as "?")."""

    path: Path
    name: str
    saved_at: str
    players: list[str]
    progress: str
    error: str | None = None
    data: SaveData | None = None
    autosave: bool = False


def game_title(rules: Rules) -> str:
    """"Kingdomino", "Queendomino", "Royal Wedding" or "Royal Wedding in teams"."""
    return rules.variant_title


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
    target = path_for(directory, data["name"])
    if os.path.lexists(target) and not overwrite:
        raise FileExistsError(f"a save named {data['name']!r} exists ({target.name})")
    return _write_atomic(target, data)


def write_autosave(directory: Path | str, data: dict[str, Any]) -> Path:
    """Write the autosave (`AUTOSAVE_FILE`) atomically, replacing the one before; `data` is checked like a save."""
    check(data)
    return _write_atomic(Path(directory) / AUTOSAVE_FILE, data)


def clear_autosave(directory: Path | str) -> None:
    """Remove the autosave if there is one (OSError if it is there and cannot be removed)."""
    try:
        (Path(directory) / AUTOSAVE_FILE).unlink()
    except FileNotFoundError:
        pass


def _write_atomic(target: Path, data: dict[str, Any]) -> Path:
    """Write `data` as JSON over `target` through a `.saving-*.tmp` file (`files.write_atomic`): a reader sees the
    old save or the new one, never a part, and the file gets the user's normal mode."""
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(target.parent)
    return write_text_atomic(target, json.dumps(data, indent=1, allow_nan=False), prefix=TEMP_PREFIX)


def remove_stale_temporaries(directory: Path | str, age: float = STALE_SECONDS) -> list[Path]:
    """Remove the temporary files (`.saving-*.tmp`) older than `age` seconds that killed writers left behind;
    returns those removed. A live writer's file is seconds old at most, so it is never touched."""
    removed = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    cutoff = time.time() - age
    for entry in entries:
        if not (entry.name.startswith(TEMP_PREFIX) and entry.name.endswith(TEMP_SUFFIX)):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and info.st_mtime < cutoff:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def _replayed(record: Any, what: str) -> core.State:
    """The state at the end of `record`; any error replaying it is a SaveError naming `what`."""
    try:
        state, _ = replay(record)
    except Exception as err:  # a record from a file: whatever it holds, the save is refused, never crashes
        raise SaveError(f"{what} is not a valid game record: {shorten(str(err), 300)}") from None
    return state


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(data: dict[str, Any], key: str, what: str, limit: int) -> str:
    value = data[key]
    if not isinstance(value, str) or not 0 < len(value) <= limit or not visible(value):
        raise SaveError(f"{what} must be a text of 1 to {limit} visible characters, got {shorten(repr(value))}")
    return value


def check(data: Any) -> SaveData:
    """Check every field of a save's content for type and range, replaying its records and checking that each
    agent seat can play the save's variant; SaveError says what is wrong."""
    if not isinstance(data, dict):
        raise SaveError(f"a save must be a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise SaveError(f"not a Kingdomino save (format {shorten(repr(data.get('format')))}, expected {FORMAT!r})")
    missing = _KEYS - set(data)
    if missing:
        raise SaveError(f"the save lacks {', '.join(sorted(missing))}")
    unknown = set(data) - _KEYS
    if unknown:
        raise SaveError(f"the save has unknown entries {shorten(', '.join(sorted(map(str, unknown))))}")
    name = _text(data, "name", "the save's name", MAX_SAVE_NAME)
    saved_at = _text(data, "saved_at", "the save's date (saved_at)", MAX_DATE)
    seed = data["seed"]
    if not _is_int(seed) or not 0 <= seed <= MAX_SEED:
        raise SaveError(f"the save's seed must be an integer from 0 to {MAX_SEED}, got {shorten(repr(seed))}")
    if not isinstance(data["seats"], list) or len(data["seats"]) > MAX_SEATS:
        raise SaveError(f"the save's seats must be a list of 2 to {MAX_SEATS} seats")
    try:
        seats = [Seat.from_dict(s) for s in data["seats"]]
    except ValueError as err:
        raise SaveError(f"the save's seats are invalid: {err}") from None
    state = _replayed(data["record"], "the game in progress")
    rules = state.rules
    if len(seats) != rules.players:
        raise SaveError(f"the save has {len(seats)} seats for a {rules.players}-player game")
    for i, seat in enumerate(seats):
        if seat.is_human or agents.is_external(seat.kind):  # an outside agent's code runs when its game starts,
            continue                                          # not when the saves are listed
        try:
            agents.check_supports(seat.kind, rules)
        except ValueError as err:
            raise SaveError(f"seat {i + 1} ({seat.name}) cannot play this game: {shorten(str(err), 300)}") from None
    dynasty, finished = data["dynasty"], []
    if dynasty is not None:
        if not isinstance(dynasty, dict) or set(dynasty) != {"games", "finished"}:
            raise SaveError("the save's dynasty must be null or {'games': 3, 'finished': [...]}")
        if not _is_int(dynasty["games"]) or dynasty["games"] != DYNASTY_GAMES or not isinstance(dynasty["finished"],
                                                                                                 list):
            raise SaveError(f"a dynasty has {DYNASTY_GAMES} games and a list of finished ones")
        finished = dynasty["finished"]
        if len(finished) >= DYNASTY_GAMES:
            raise SaveError(f"the dynasty lists {len(finished)} finished games of {DYNASTY_GAMES}")
        for k, rec in enumerate(finished):
            done = _replayed(rec, f"dynasty game {k + 1}")
            if not done.is_over[0] or done.rules != rules:
                raise SaveError(f"dynasty game {k + 1} is unfinished or of other rules than the game in progress")
    return SaveData(name, saved_at, seats, seed, dynasty is not None, list(finished), data["record"], state)


def read(path: Path | str) -> SaveData:
    """Read and check one save file: a regular file of at most MAX_BYTES (a FIFO, device or folder is refused
    without being read, so it cannot hang the caller)."""
    raw = _read_bytes(Path(path))
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as err:
        raise SaveError(f"the file is not UTF-8 text ({err.reason} at byte {err.start})") from None
    except json.JSONDecodeError as err:
        raise SaveError(f"the file is not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})") from None
    except (ValueError, RecursionError) as err:  # a number of thousands of digits; arrays nested too deep
        raise SaveError(f"the file is not valid JSON ({shorten(str(err) or type(err).__name__, 120)})") from None
    return check(data)


def _read_bytes(path: Path) -> bytes:
    """The bytes of a regular file of at most MAX_BYTES (`kingdomino_env.files.read_regular_file`, which neither
    blocks on a FIFO nor reads past the limit); SaveError, in the Load screen's words, for anything else."""
    try:
        return read_regular_file(path, "save", MAX_BYTES)
    except FileCheckError as err:
        if err.kind is not None:
            raise SaveError(f"it is {err.kind}, not a save file") from None
        if err.size is not None:
            raise SaveError(f"the file has {err.size} bytes; a save has at most {MAX_BYTES}") from None
        raise SaveError(f"cannot read the file: {err.reason}") from None


def list_saves(directory: Path | str) -> list[SaveInfo]:
    """Every save in `directory`: the autosave first, then newest first. Always returns: a file that cannot be
    read or checked, for whatever reason, is listed with its error (and its file name as its name) next to the
    good saves. Stale temporary files are removed on the way."""
    directory = Path(directory)
    remove_stale_temporaries(directory)
    try:
        names = sorted(entry.name for entry in os.scandir(directory) if entry.name.endswith(".json"))
    except OSError:
        return []
    out = [_info(directory / name) for name in names]
    out.sort(key=lambda s: s.saved_at, reverse=True)
    out.sort(key=lambda s: not s.autosave)
    return out


def _info(path: Path) -> SaveInfo:
    """The Load screen's entry for one file."""
    autosave = path.name == AUTOSAVE_FILE
    try:
        data = read(path)
    except Exception as err:  # anything a file holds is listed with its reason, never stops the listing
        reason = str(err) if isinstance(err, SaveError) else f"cannot read the save ({type(err).__name__}: {err})"
        name = AUTOSAVE_TITLE if autosave else shorten(printable(path.stem), MAX_SAVE_NAME)
        return SaveInfo(path, name, _mtime(path), [], "", error=shorten(printable(reason), 400), autosave=autosave)
    return SaveInfo(path, data.name, data.saved_at, [s.name for s in data.seats], data.progress, data=data,
                    autosave=autosave)


def _mtime(path: Path) -> str:
    try:
        return datetime.fromtimestamp(os.stat(path).st_mtime).astimezone().isoformat(timespec="seconds")
    except (OSError, ValueError, OverflowError):
        return ""


def display_date(saved_at: str) -> str:
    """"2025-03-14 21:05" from an ISO date (the text itself when it is not one)."""
    try:
        return datetime.fromisoformat(saved_at).strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return saved_at


__all__ = ["AUTOSAVE_FILE", "AUTOSAVE_NAME", "AUTOSAVE_TITLE", "ENV_VAR", "FORMAT", "MAX_BYTES", "MAX_SEATS",
           "MAX_SEED", "SaveData", "SaveError", "SaveInfo", "check", "clear_autosave", "default_dir", "display_date",
           "game_title", "list_saves", "now", "path_for", "progress_text", "read", "remove_stale_temporaries", "slug",
           "write", "write_autosave"]
