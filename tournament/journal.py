"""A tournament's folder while it plays: its config, and its games as their work units finish, so that nothing
finished is lost when it is interrupted and `--resume` plays only what is missing.

The folder holds:

* tournament.json: {"format": 1, "config": `TournamentConfig.to_json()`, "model_files": {entrant: {"file",
  "sha256"}}}, written before the first game; "model_files" lists the model files the entrants' specs name (a
  csearch value network, an az or ppo model), so that a resume whose entrant would read another file than the one
  that played its finished games is refused (folders written without it resume unchecked);
* games.jsonl: one line per game (as in the final results), appended as each work unit finishes;
* units.jsonl: one line per finished work unit, {"unit", "first_game", "games", "seconds", "moves"} (each entrant's
  thinking time and moves), appended after the unit's games, so a unit listed there has all its games on disk.

Games of a unit that is not listed in units.jsonl (the process stopped while writing them) are dropped on resume
and played again; a unit is a pure function of the config and its index, so it plays the same games.
"""

from __future__ import annotations

import json
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from agents.manifest import is_sha256, sha256_of
from agents.registry import parse_spec
from kingdomino_env.files import FileCheckError, read_regular_file, write_text_atomic

from .config import TournamentConfig
from .play import GameResult, UnitResult, first_game, unit_plan
from .referee import Forfeit

#: The files of a tournament folder that this module writes.
CONFIG_NAME, GAMES_NAME, UNITS_NAME = "tournament.json", "games.jsonl", "units.jsonl"
#: The version of tournament.json's layout.
FORMAT = 1
#: The most bytes each file of a tournament folder may hold when it is read back: tournament.json is a small config,
#: games.jsonl at most `config.MAX_GAMES` games of some kilobytes each, units.jsonl a line per unit.
MAX_BYTES = {CONFIG_NAME: 10**6, GAMES_NAME: 4 * 10**9, UNITS_NAME: 10**8}


class JournalError(ValueError):
    """A folder that cannot hold or resume this tournament; the message says what differs or is damaged."""


def game_from_dict(line: dict[str, Any]) -> GameResult:
    """A games.jsonl line (`GameResult.to_dict`, with its "game" index) as a `GameResult`.

    Raises:
        KeyError, TypeError, ValueError: The line is not such a game.
    """
    forfeit = line.get("forfeit")
    return GameResult(
        deal=int(line["deal"]), seats=tuple(str(s) for s in line["seats"]),
        scores=tuple(int(s) for s in line["scores"]), ranks=tuple(int(r) for r in line["ranks"]),
        record=dict(line["record"]), largest=tuple(int(v) for v in line.get("largest", ())),
        crowns=tuple(int(v) for v in line.get("crowns", ())), match=line.get("match"),
        match_game=line.get("match_game"),
        forfeit=None if forfeit is None else Forfeit(int(forfeit["seat"]), str(forfeit["agent"]),
                                                     str(forfeit["reason"])))


def _read(path: Path) -> str:
    """A file of a tournament folder as text: a regular file within `MAX_BYTES` (a folder, FIFO or device is
    refused without being opened), of UTF-8; JournalError naming it otherwise."""
    try:
        return read_regular_file(path, f"the tournament file {path.name}", MAX_BYTES[path.name]).decode("utf-8")
    except FileCheckError as err:
        raise JournalError(str(err)) from None
    except UnicodeDecodeError as err:
        raise JournalError(f"{path} is not text (UTF-8): {err}") from None


def _lines(path: Path) -> tuple[list[tuple[int, Any]], bool]:
    """The JSON lines of a file as (line number, value), and whether its last line was cut short (a write that
    was interrupted: no newline at its end, dropped). A damaged line elsewhere raises JournalError."""
    if not path.exists() and not path.is_symlink():
        return [], False
    text = _read(path)
    raw = text.split("\n")
    cut = raw[-1] != ""
    out = []
    for number, line in enumerate(raw[:-1], start=1):
        try:
            out.append((number, json.loads(line)))
        except (json.JSONDecodeError, RecursionError) as err:
            raise JournalError(f"{path} line {number} is damaged (not JSON: {err}); the folder cannot be resumed "
                               "as it is") from None
    return out, cut


def model_files(config: TournamentConfig) -> dict[str, dict[str, str]]:
    """Each entrant's model file that its spec names, with the file's SHA-256: entrant name -> {"file", "sha256"}."""
    files = {}
    for name, spec in zip(config.names, config.specs, strict=True):
        path = None if name in config.objects else parse_spec(spec).model_file
        if path is not None:
            files[name] = {"file": str(path), "sha256": sha256_of(path)}
    return files


def _is_model_files(recorded: object) -> bool:
    """Whether tournament.json's model_files has the shape `model_files` writes."""
    return isinstance(recorded, dict) and all(
        isinstance(entry, dict) and isinstance(entry.get("file"), str) and is_sha256(entry.get("sha256"))
        for entry in recorded.values())


def _changed_files(then: dict[str, dict[str, str]], now: dict[str, dict[str, str]]) -> list[str]:
    """What differs between the model files recorded when a tournament started and those its entrants read now."""
    changed = []
    for name, was in then.items():
        file = now.get(name)
        if file is None or file["sha256"] != was["sha256"]:
            changed.append(f"{name}'s model file {was['file']} holds other bytes than when the tournament "
                           f"started (SHA-256 {was['sha256'][:12]}... then, "
                           f"{'none' if file is None else file['sha256'][:12] + '...'} now)")
    return changed


@dataclass
class Journal:
    """The folder of one tournament: where its finished units go, and those it holds already (`done`)."""

    folder: Path
    config: TournamentConfig
    done: dict[int, UnitResult] = field(default_factory=dict)

    @staticmethod
    def holds_tournament(folder: str | Path) -> bool:
        """Whether a folder holds a tournament's games or config."""
        folder = Path(folder).expanduser()
        return (folder / CONFIG_NAME).exists() or (folder / GAMES_NAME).exists()

    @classmethod
    def create(cls, folder: str | Path, config: TournamentConfig) -> Journal:
        """Start the folder of a new tournament, an existing folder that `outputs.check_out_dir` accepted.

        Raises:
            JournalError: The folder holds a tournament already (it is never overwritten).
        """
        folder = Path(folder).expanduser()
        if cls.holds_tournament(folder):
            raise JournalError(f"{folder} holds a tournament already; resume it with --resume {folder} "
                               "(run_tournament(..., resume=True)), or give another folder")
        stored = {"format": FORMAT, "config": config.to_json(), "model_files": model_files(config)}
        write_text_atomic(folder / CONFIG_NAME, json.dumps(stored, indent=1) + "\n")
        for name in (GAMES_NAME, UNITS_NAME):
            (folder / name).write_text("", encoding="utf-8")
        return cls(folder, config)

    @staticmethod
    def read_config(folder: str | Path) -> TournamentConfig:
        """The config stored in a tournament folder.

        Raises:
            JournalError: The folder holds no tournament, or its tournament.json is damaged.
        """
        path = Path(folder).expanduser() / CONFIG_NAME
        try:
            return TournamentConfig.from_json(Journal._stored(folder)["config"])
        except (ValueError, TypeError) as err:
            raise JournalError(f"{path} does not make a tournament: {err}") from None

    @staticmethod
    def _stored(folder: str | Path) -> dict[str, Any]:
        """A tournament folder's tournament.json: its config (`TournamentConfig.to_json`) and model files."""
        folder = Path(folder).expanduser()
        path = folder / CONFIG_NAME
        if not folder.is_dir():
            raise JournalError(f"{folder} is not a folder; give the --out folder of a tournament")
        if not path.exists() and not path.is_symlink():
            raise JournalError(f"{folder} is not a tournament folder: it has no {CONFIG_NAME} (written by "
                               "`kingdomino tournament --out` when a tournament starts)")
        try:
            data = json.loads(_read(path))
        except (json.JSONDecodeError, RecursionError) as err:
            raise JournalError(f"{path} is damaged (not JSON: {err})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("config"), dict):
            raise JournalError(f"{path} is not a tournament config of format {FORMAT}")
        return data

    @classmethod
    def open(cls, folder: str | Path, config: TournamentConfig | None = None, check_files: bool = True) -> Journal:
        """A tournament folder to resume, with the units it holds already; `config`, when given, must be the one
        stored there. Lines of units that did not finish are dropped (they are played again). check_files: refuse
        a folder whose entrants' model files hold other bytes now than when it started.

        Raises:
            JournalError: No tournament there, another config (naming what differs), changed model files, or damaged
                files.
        """
        folder = Path(folder).expanduser()
        if config is None:
            config = cls.read_config(folder)
        stored = cls._stored(folder)
        theirs, mine = stored["config"], config.to_json()
        if mine != theirs:
            differ = [f"{key}: {mine[key]!r:.80} here, {theirs.get(key)!r:.80} there" for key in mine
                      if mine[key] != theirs.get(key)]
            raise JournalError(f"{folder} holds another tournament ({'; '.join(differ)})")
        recorded = stored.get("model_files")
        if recorded is not None and not _is_model_files(recorded):
            raise JournalError(f"{folder / CONFIG_NAME} is damaged: model_files must map each entrant's name to "
                               f'{{"file": PATH, "sha256": 64 hex digits}}, got {recorded!r:.120}')
        changed = _changed_files(recorded, model_files(config)) if check_files and recorded else []
        if changed:
            raise JournalError(f"{folder} cannot be resumed: {'; '.join(changed)}. Its finished games were played "
                               "with the file as it was: put that file back, or play a new tournament in another "
                               "folder")
        journal = cls(folder, config)
        journal._read()
        return journal

    def _read(self) -> None:
        config = self.config
        units, _ = _lines(self.folder / UNITS_NAME)
        finished: dict[int, dict[str, Any]] = {}
        for number, line in units:
            try:
                unit = int(line["unit"])
                valid = (0 <= unit < config.n_units and unit not in finished
                         and set(line["seconds"]) <= set(config.names) and set(line["moves"]) <= set(config.names))
            except (KeyError, TypeError, ValueError):
                valid = False
            if not valid:
                raise JournalError(f"{self.folder / UNITS_NAME} line {number} is not a finished unit of this "
                                   f"tournament: {json.dumps(line)[:120]}")
            finished[unit] = line
        games, _ = _lines(self.folder / GAMES_NAME)
        by_index: dict[int, GameResult] = {}
        for number, line in games:
            try:
                index = int(line["game"])
                by_index[index] = game_from_dict(line)
            except (KeyError, TypeError, ValueError, AttributeError) as err:
                raise JournalError(f"{self.folder / GAMES_NAME} line {number} is not a game: {err!r:.120}") from None
        for unit, line in sorted(finished.items()):
            plan = unit_plan(config, unit)
            first = first_game(config, unit)
            held = []
            for offset, planned in enumerate(plan):
                game = by_index.get(first + offset)
                if game is None:
                    raise JournalError(f"{self.folder / GAMES_NAME} lacks game {first + offset}, which "
                                       f"{UNITS_NAME} lists as played: the folder is damaged")
                if (game.deal, game.seats) != (planned.deal, planned.seats):
                    raise JournalError(f"game {first + offset} in {self.folder / GAMES_NAME} is deal {game.deal} "
                                       f"with seats {list(game.seats)}; this tournament plays deal {planned.deal} "
                                       f"with seats {list(planned.seats)} there")
                held.append(game)
            self.done[unit] = UnitResult(unit, held, {k: float(v) for k, v in line["seconds"].items()},
                                         {k: int(v) for k, v in line["moves"].items()})
        self._rewrite()

    def _rewrite(self) -> None:
        """Keep only the finished units' lines, so that appending goes on from whole lines."""
        games = [game_line(first_game(self.config, u) + i, g) for u, r in sorted(self.done.items())
                 for i, g in enumerate(r.games)]
        write_text_atomic(self.folder / GAMES_NAME, "".join(json.dumps(g) + "\n" for g in games))
        write_text_atomic(self.folder / UNITS_NAME,
                          "".join(json.dumps(unit_line(self.config, r)) + "\n" for _, r in sorted(self.done.items())))

    def append(self, result: UnitResult) -> None:
        """Add a finished unit: its games, then its line in units.jsonl, each flushed to disk."""
        first = first_game(self.config, result.unit)
        with (self.folder / GAMES_NAME).open("a", encoding="utf-8") as f:
            f.write("".join(json.dumps(game_line(first + i, g)) + "\n" for i, g in enumerate(result.games)))
            _sync(f)
        with (self.folder / UNITS_NAME).open("a", encoding="utf-8") as f:
            f.write(json.dumps(unit_line(self.config, result)) + "\n")
            _sync(f)
        self.done[result.unit] = result


@contextmanager
def uninterrupted() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back while the block runs (in the main thread, where the platform can), so that a
    unit is either wholly on disk and counted, or not at all; a signal that came meanwhile acts after the block."""
    held = (signal.SIGINT, signal.SIGTERM)
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def game_line(index: int, game: GameResult) -> dict[str, Any]:
    """A game's line of games.jsonl."""
    return {"game": index, **game.to_dict()}


def unit_line(config: TournamentConfig, result: UnitResult) -> dict[str, Any]:
    """A finished unit's line of units.jsonl."""
    return {"unit": result.unit, "first_game": first_game(config, result.unit), "games": len(result.games),
            "seconds": result.seconds, "moves": result.moves}


def _sync(f: IO[str]) -> None:
    f.flush()
    os.fsync(f.fileno())
