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
from collections.abc import Callable
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
    games.jsonl, 0 for a save)."""

    game: int
    agent: str
    rules: Rules
    decisions: tuple[Decision, ...]

    def to_json(self) -> dict[str, Any]:
        """{"game", "agent", "decisions": [{"index", "player", "played", "best", "win_probability", "loss"}]}."""
        return {"game": self.game, "agent": self.agent, "decisions": [d.to_json() for d in self.decisions]}

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
        """One row per decision for a table: index, player, the played and best moves as labels, win probability
        and loss."""
        return [{"index": d.index, "player": d.player, "played": self.label(d.played), "best": self.label(d.best),
                 "win_probability": d.win_probability, "loss": d.loss} for d in self.decisions]

    def plot(self, ax: Any = None) -> Any:
        """Draw each player's estimated win probability before their moves, by move index, on a matplotlib axes
        (a new figure's when None); returns the figure."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(9, 4))
        for player, (indices, wins) in self.win_series().items():
            if indices:
                ax.plot(indices, wins, marker=".", label=f"player {player}")
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
                   game: int = 0, progress: Callable[[int, int], None] | None = None) -> GameAnalysis:
    """Analyse every decision with more than one legal action of a game record (finished or not) with the advisor
    `spec` (None: the strongest that plays the variant, see `advice.default_spec`), its budget per decision or
    `seconds`. `game` is the number written in the result; `progress(done, total)` is called after each decision.
    RecordError for a bad record, AgentSpecError for a spec that cannot advise this game."""
    _, actions = replay(record)
    state, _ = replay({**{key: value for key, value in record.items() if key != "scores"}, "actions": []})
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
    return GameAnalysis(game, advisor.spec, state.rules, tuple(decisions))


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
    path = Path(path)
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
        return whole["record"], True
    if game >= len(lines):
        raise AnalysisInputError(f"{path} has no game {game}: it has {len(lines)} game"
                                 f"{'s' if len(lines) != 1 else ''} (0 to {len(lines) - 1})")
    entry = _json(lines[game], f"line {game} of {path}")
    if not isinstance(entry, dict) or not isinstance(entry.get("record"), dict):
        raise AnalysisInputError(f"line {game} of {path} is not a game: expected a JSON object with a \"record\" "
                                 "(a games.jsonl written by `kingdomino tournament --out`) or a save of the play app")
    return entry["record"], False


def _analyse_file(path: str | Path, game: int, spec: str | None, want_save: bool | None, options: dict[str, Any]
                  ) -> GameAnalysis:
    record, is_save = read_record(path, game)
    if want_save is not None and is_save != want_save:
        raise AnalysisInputError(f"{path} is a save of the play app, not a games.jsonl; use analyse_save" if is_save
                                 else f"{path} is not a save of the play app (format {SAVE_FORMAT!r}); for a "
                                 "games.jsonl use analyse_games_file")
    try:
        return analyse_record(record, spec, game=game, **options)
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
