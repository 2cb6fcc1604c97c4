"""Game analysis: replay a recorded game and ask an advisor (`advice`) about every decision that had a choice.

For each decision with more than one legal action, the advisor estimates every legal action from the position
before the move; the decision's `win_probability` is the mover's estimated chance of winning with the advisor's
best action, and its `loss` the chance the played move gave away: best's estimate minus played's. The estimates
are noisy (sampled worlds, a finite budget): with `az`, whose best action is the most visited one rather than the
one with the highest mean, played's estimate can exceed best's; such a loss is clipped to 0.

Records come from a tournament's games.jsonl (one JSON object a line, the record under "record"; see
`tournament.outputs`) or a play-app save (`"format": "kingdomino-save/1"`, the game in progress under "record";
see `kingdomino_app.saves`): `read_record` tells them apart, `analyse_file` analyses either.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kingdomino_env import core
from kingdomino_env.files import FileCheckError, read_regular_file
from kingdomino_env.record import RecordError, replay
from kingdomino_env.rules import Rules

from .advice import ActionEstimate, Advisor

#: The format of a play-app save file (`kingdomino_app.saves.FORMAT`).
SAVE_FORMAT = "kingdomino-save/1"
#: Files larger than this are refused unread (a tournament's games.jsonl of thousands of games stays below).
MAX_FILE_BYTES = 256 << 20


class AnalysisInputError(ValueError):
    """A file or record that holds no game to analyse (missing, not a games.jsonl or save, game out of range)."""


@dataclass(frozen=True)
class Decision:
    """One decision with a choice: its position in the record's actions, the seat that moved, the action played,
    the advisor's best action, the mover's estimated win probability before the move (with the best action), the
    win probability the played move lost (>= 0), and every legal action's estimate, best first."""

    index: int
    player: int
    played: int
    best: int
    win_probability: float
    loss: float
    estimates: tuple[ActionEstimate, ...] = field(repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "player": self.player, "played": self.played, "best": self.best,
                "win_probability": self.win_probability, "loss": self.loss}


@dataclass(frozen=True)
class GameAnalysis:
    """The decisions of one game as an advisor (`agent`, a spec) saw them; `game` numbers the game (its line in a
    games.jsonl, 0 for a save); `seats` names each seat as the file does (empty where it names none)."""

    game: int
    agent: str
    rules: Rules
    decisions: tuple[Decision, ...]
    seats: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """{"game", "agent", "seats", "decisions": [{"index", "player", "played", "best", "win_probability",
        "loss"}]}; "seats" lists the seats' names ([] where the file names none), "player" is a seat index."""
        return {"game": self.game, "agent": self.agent, "seats": list(self.seats),
                "decisions": [d.to_json() for d in self.decisions]}

    def seat_name(self, player: int) -> str:
        """How tables and graphs name a seat: its name in the file ("greedy"), with the seat's index where another
        seat has the same name ("greedy (seat 1)"), or "player 1" where the file names no seats."""
        if not self.seats:
            return f"player {player}"
        name = self.seats[player]
        return name if self.seats.count(name) == 1 else f"{name} (seat {player})"

    def win_series(self) -> dict[int, tuple[list[int], list[float]]]:
        """Per seat, (indices of its decisions, its estimated win probability before each): a graph's lines."""
        series: dict[int, tuple[list[int], list[float]]] = {p: ([], []) for p in range(self.rules.players)}
        for d in self.decisions:
            series[d.player][0].append(d.index)
            series[d.player][1].append(d.win_probability)
        return series

    def mistakes(self, k: int = 5) -> list[Decision]:
        """The `k` decisions that lost the most win probability, largest loss first (ties: earlier first); only
        decisions that lost something."""
        if not isinstance(k, int) or k < 0:
            raise ValueError(f"k must be a non-negative integer, got {k!r}")
        lost = [d for d in self.decisions if d.loss > 0]
        return sorted(lost, key=lambda d: (-d.loss, d.index))[:k]

    def label(self, action: int) -> str:
        """An action's readable label with its id, e.g. "place (4, 5) east [87]"."""
        return f"{self.rules.describe_action(action)} [{action}]"

    def rows(self) -> list[dict[str, Any]]:
        """One row per decision for a table: index, player (the seat's index), seat (its name, `seat_name`), the
        played and best moves as labels, win probability and loss."""
        return [{"index": d.index, "player": d.player, "seat": self.seat_name(d.player), "played": self.label(d.played),
                 "best": self.label(d.best), "win_probability": d.win_probability, "loss": d.loss}
                for d in self.decisions]

    def plot(self, ax: Any = None) -> Any:
        """Draw each seat's estimated win probability before its moves, by move index, on a matplotlib axes (a new
        figure's when None), each line labelled with the seat's name (`seat_name`); returns the figure."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(9, 4))
        for player, (indices, wins) in self.win_series().items():
            if indices:
                ax.plot(indices, wins, marker=".", label=self.seat_name(player).replace("$", r"\$"))
        ax.set_xlabel("move (index in the record's actions)")
        ax.set_ylabel("estimated win probability")
        ax.set_ylim(0, 1)
        ax.set_title(f"game {self.game}, analysed by {self.agent}")
        ax.legend(loc="best")
        return ax.figure


def _decision(index: int, player: int, played: int, estimates: list[ActionEstimate]) -> Decision:
    best = estimates[0]
    played_estimate = next(e for e in estimates if e.action == played)
    loss = max(0.0, best.win_probability - played_estimate.win_probability)
    return Decision(index, player, played, best.action, best.win_probability, loss, tuple(estimates))


def analyse_record(record: Any, spec: str | None = None, *, seconds: float | None = None, seed: int | None = 0,
                   game: int = 0, progress: Callable[[int, int], None] | None = None,
                   seats: Sequence[str] = ()) -> GameAnalysis:
    """Analyse every decision with more than one legal action of a game record (finished or not).

    Args:
        record: A game record (`kingdomino_env.record`), finished or not.
        spec: The advisor; None for the strongest that plays the variant (see `advice.default_spec`).
        seconds: Search time per decision, replacing the advisor's budget; None keeps the budget.
        seed: The seed of the advisor's search.
        game: The number written in the result (a games.jsonl line).
        progress: Called as `progress(done, total)` after each decision.
        seats: The seats' names, one per seat; empty for "player 0", "player 1", ...

    Returns:
        The decisions, each with the advisor's best move, win probability and loss.

    Raises:
        RecordError: The record does not replay.
        AgentSpecError: The spec cannot advise this game.
        ValueError: `seats` does not name every seat of the game once.
    """
    _, actions = replay(record)
    state, _ = replay({**{key: value for key, value in record.items() if key != "scores"}, "actions": []})
    seats = tuple(seats)
    if seats and (len(seats) != state.rules.players or not all(isinstance(name, str) for name in seats)):
        raise ValueError(f"seats must name each of the game's {state.rules.players} seats with a string, "
                         f"got {list(seats)!r}")
    advisor = Advisor(state.rules, spec, seed)
    choices = []
    for index, action in enumerate(actions):
        if core.legal_action_mask(state)[0].sum() > 1:
            choices.append((index, state.copy()))
        core.step(state, [action])
    decisions = []
    for index, position in choices:
        estimates = advisor.advise(position, 0, seconds=seconds)
        decisions.append(_decision(index, int(position.current_player[0]), actions[index], estimates))
        if progress is not None:
            progress(len(decisions), len(choices))
    return GameAnalysis(game, advisor.spec, state.rules, tuple(decisions), seats)


def _read_bytes(path: Path) -> bytes:
    try:
        return read_regular_file(path, "the games file", MAX_FILE_BYTES)
    except FileCheckError as err:
        raise AnalysisInputError(f"{err}; give a games.jsonl or a save file") from None


def _json(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as err:
        raise AnalysisInputError(f"{where} is not JSON ({str(err)[:120]}); give a games.jsonl written by "
                                 "`kingdomino tournament --out` or a save of the play app") from None


def read_record(path: str | Path, game: int = 0) -> tuple[dict[str, Any], bool]:
    """The record of game `game` of a tournament's games.jsonl (its line `game`), or of the game in progress of
    a play-app save (`game` must be 0), and whether the file was a save. AnalysisInputError says what is wrong."""
    entry, is_save = _read_entry(Path(path), game)
    return entry["record"], is_save


def _read_entry(path: Path, game: int) -> tuple[dict[str, Any], bool]:
    """The JSON object holding game `game` (a games.jsonl line, or the whole save) with a "record" object in it,
    and whether the file was a save."""
    if not isinstance(game, int) or game < 0:
        raise AnalysisInputError(f"the game number must be a non-negative integer, got {game!r}")
    try:
        text = _read_bytes(path).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise AnalysisInputError(f"{path} is not UTF-8 text; give a games.jsonl or a save file") from None
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise AnalysisInputError(f"{path} is empty; give a games.jsonl or a save file")
    try:
        whole = json.loads(text)
    except (ValueError, RecursionError):
        whole = None  # several JSON lines: a games.jsonl
    if isinstance(whole, dict) and whole.get("format") == SAVE_FORMAT:
        if game != 0:
            raise AnalysisInputError(f"{path} is a save: it holds one game in progress (game 0), not game {game}")
        if not isinstance(whole.get("record"), dict):
            raise AnalysisInputError(f"{path} is a save without a game record")
        return whole, True
    if game >= len(lines):
        raise AnalysisInputError(f"{path} has no game {game}: it has {len(lines)} game"
                                 f"{'s' if len(lines) != 1 else ''} (0 to {len(lines) - 1})")
    entry = _json(lines[game], f"line {game} of {path}")
    if not isinstance(entry, dict) or not isinstance(entry.get("record"), dict):
        raise AnalysisInputError(f"line {game} of {path} is not a game: expected a JSON object with a \"record\" "
                                 "(a games.jsonl written by `kingdomino tournament --out`) or a save of the play app")
    return entry, False


def _seat_names(entry: dict[str, Any], where: str) -> tuple[str, ...]:
    """The seats' names of a games.jsonl line ("seats": the entrants' names) or a save ("seats": objects with a
    "name"), () where it has no "seats"; AnalysisInputError, naming `where`, for seats that are not a list of
    names."""
    seats = entry.get("seats")
    if seats is None:
        return ()
    names = [seat.get("name") if isinstance(seat, dict) else seat for seat in seats] if isinstance(seats, list) else []
    if not names or not all(isinstance(name, str) for name in names):
        raise AnalysisInputError(f"{where} has \"seats\" that are not a list of names ({str(seats)[:80]}); give a "
                                 "games.jsonl written by `kingdomino tournament --out` or a save of the play app")
    return tuple(names)


def _analyse_file(path: str | Path, game: int, spec: str | None, want_save: bool | None, options: dict[str, Any]
                  ) -> GameAnalysis:
    entry, is_save = _read_entry(Path(path), game)
    if want_save is not None and is_save != want_save:
        raise AnalysisInputError(f"{path} is a save of the play app, not a games.jsonl; use analyse_save" if is_save
                                 else f"{path} is not a save of the play app (format {SAVE_FORMAT!r}); for a "
                                 "games.jsonl use analyse_games_file")
    where = f"{path}" if is_save else f"line {game} of {path}"
    seats = _seat_names(entry, where)
    record = entry["record"]
    try:
        if seats:
            start, _ = replay({**{key: value for key, value in record.items() if key != "scores"}, "actions": []})
            if len(seats) != start.rules.players:
                raise AnalysisInputError(f"{where} names {len(seats)} seats, but its game has {start.rules.players}")
        return analyse_record(record, spec, game=game, seats=seats, **options)
    except RecordError as err:
        raise AnalysisInputError(f"game {game} of {path} does not replay: {err}") from None


def analyse_file(path: str | Path, game: int = 0, spec: str | None = None, **options: Any) -> GameAnalysis:
    """Analyse game `game` of a games.jsonl, or the game in progress of a save (see `read_record`); `options` go
    to `analyse_record`. AnalysisInputError for a file or record that holds no game."""
    return _analyse_file(path, game, spec, None, options)


def analyse_games_file(path: str | Path, game: int = 0, spec: str | None = None, **options: Any) -> GameAnalysis:
    """Analyse game `game` (its line, from 0) of a tournament's games.jsonl (see `analyse_file`)."""
    return _analyse_file(path, game, spec, False, options)


def analyse_save(path: str | Path, spec: str | None = None, **options: Any) -> GameAnalysis:
    """Analyse the game in progress (or just finished) of a play-app save file (see `analyse_file`)."""
    return _analyse_file(path, 0, spec, True, options)
