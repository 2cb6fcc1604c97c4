"""The shipped `az` runs: each shipped network with the committed record of the training that made it.

A shipped run NAME (`2p`, `3p`, `4p`, `duel`, `queendomino_2p`, `royal_wedding_4p`) is the network
`agents/models/az_NAME.az` plus, under `docs/az/`, its `log_NAME.csv` (a line per iteration), `eval_NAME.csv`
(checkpoints against fixed opponents), `config_NAME.json` (the configuration of its last run),
`learning_curve_NAME.png` and `ladder_NAME.json`/`.png` (the openskill ladder of its checkpoints against fixed
anchors, `az_ladder`). These files are all committed, so training accumulates from any clone: `train_az` with
`resume_from: NAME` starts from the shipped network, its iteration, game and compute counters and its logs (the new
lines are appended to them). Neither the runs' self-play data, replay buffers nor intermediate checkpoints are
committed: a resumed run starts with an empty replay buffer, and its ladder spans the shipped network and the new
checkpoints. `python -m training.az_publish RUN NAME` writes a finished run back over the shipped files and their
entry in the models' manifest (`agents.manifest`).
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path

from agents.az.files import FRAME_BOUND, MODELS, SHIPPED, SHIPPED_QUEEN, NetworkInfo
from kingdomino_env.files import check_regular_file, read_regular_file, write_atomic
from kingdomino_env.rules import short_repr

#: The committed record of the shipped runs.
DOCS = Path(__file__).resolve().parent.parent / "docs" / "az"
#: The most bytes a shipped run's config or log may hold.
MAX_RECORD_BYTES = 16 << 20
#: Shipped run names, by the network file they ship.
NAMES: dict[str, Path] = {path.stem.removeprefix("az_"): path
                          for path in [*SHIPPED.values(), *SHIPPED_QUEEN.values()]}


@dataclass(frozen=True)
class ShippedRun:
    """The files of one shipped run."""

    name: str

    def __post_init__(self) -> None:
        if self.name not in NAMES:
            raise ValueError(f"no shipped az run named {self.name!r}; shipped: {', '.join(NAMES)}")

    @property
    def network(self) -> Path:
        return MODELS / f"az_{self.name}.az"

    def _key(self) -> tuple[int, int] | str:
        """The shipped network's key: its (frame, players) in `SHIPPED`, or its game in `SHIPPED_QUEEN`."""
        shipped = NAMES[self.name]
        return next(key for table in (SHIPPED, SHIPPED_QUEEN) for key, path in table.items() if path == shipped)

    def plays(self, info: NetworkInfo) -> bool:
        """Whether the network `info` describes may ship as this run: a Kingdomino run's by frame and player count,
        a Queendomino or Royal Wedding run's by game."""
        key = self._key()
        if isinstance(key, str):
            return info.game == key
        frame, players = key
        return info.game in FRAME_BOUND and info.frame == frame and players in info.players

    def describe(self) -> str:
        """What this run's network plays, in words."""
        key = self._key()
        if isinstance(key, str):
            return NetworkInfo(0, (), {}, game=key).describe().partition(" (")[0]
        return NetworkInfo(key[0], (key[1],), {}).describe()

    @property
    def log(self) -> Path:
        return DOCS / f"log_{self.name}.csv"

    @property
    def evals(self) -> Path:
        return DOCS / f"eval_{self.name}.csv"

    @property
    def config(self) -> Path:
        return DOCS / f"config_{self.name}.json"

    @property
    def curve(self) -> Path:
        return DOCS / f"learning_curve_{self.name}.png"

    @property
    def ladder(self) -> Path:
        return DOCS / f"ladder_{self.name}.json"

    @property
    def ladder_plot(self) -> Path:
        return DOCS / f"ladder_{self.name}.png"

    def check_record(self) -> None:
        """ValueError naming the file and what is wrong where the committed record a resumed run reads is damaged:
        the configuration (an object whose `workers` is a whole number) and the log (numbers where `with_core_hours`
        reads them); a missing record is no error (an installed package has none)."""
        if self.config.is_file():
            try:
                config = json.loads(read_regular_file(self.config, "a shipped run's config", MAX_RECORD_BYTES))
            except (UnicodeDecodeError, json.JSONDecodeError) as err:
                raise ValueError(f"{self.config} is damaged: not JSON ({err})") from None
            workers = config.get("workers", 1) if isinstance(config, dict) else None
            if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
                raise ValueError(f"{self.config} is damaged: it must hold an object whose workers is a whole number "
                                 f"of at least 1, got {short_repr(config)}")
        if self.log.is_file():
            check_regular_file(self.log, "a shipped run's log", MAX_RECORD_BYTES)
            try:
                with_core_hours(read_rows(self.log), 1)
            except (ValueError, TypeError, csv.Error) as err:
                raise ValueError(f"{self.log} is damaged: {err}") from None


def read_rows(path: Path) -> list[dict[str, str]]:
    """The rows of a CSV log ([] if the file is missing)."""
    if not path.is_file():
        return []
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def with_core_hours(rows: list[dict[str, str]], workers: int) -> list[dict[str, str]]:
    """Log rows with a cumulative `core_hours` column (self-play core-hours so far): kept where a row has it, else
    the running sum of `selfplay_s` times `workers` (the self-play processes of the run that wrote the row)."""
    total = 0.0
    out = []
    for row in rows:
        if row.get("core_hours"):
            total = float(row["core_hours"])
        else:
            total += float(row.get("selfplay_s") or 0.0) * workers / 3600
        out.append({**row, "core_hours": f"{total:.3f}"})
    return out


def write_rows(path: Path, rows: list[dict[str, str]]) -> None:
    """Write CSV rows (the union of their keys, in first-seen order, as the header) atomically."""
    header = list(dict.fromkeys(key for row in rows for key in row))

    def write(tmp: Path) -> None:
        with tmp.open("w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=header)
            writer.writeheader()
            writer.writerows(rows)

    write_atomic(path, write)
