"""Where training runs write, and the kept networks runs resume from.

A run folder holds what a training run makes as it goes: self-play data, data windows, replay buffers, checkpoints.
None of it belongs in the repository, so the default run folder lies outside the checkout:
`$KINGDOMINO_RUNS/NAME`, else `$XDG_DATA_HOME/kingdomino-rl/runs/NAME`, else
`~/.local/share/kingdomino-rl/runs/NAME` (`default_run_dir`). Every trainer also takes `--run-dir` (or its older
`--out`, or a positional folder) to put a run anywhere else.

A kept network (`training/kept/csearch_NAME.npz`, with `csearch_NAME.json` beside it) is the newest network of a
`training.csearch_net loop` run that is not shipped, with what the loop needs to go on from it: its variant, its
iteration and self-play game counters, and the settings the run was played with. `csearch_net loop --resume NAME`
starts a run folder from it; the self-play data the network was trained on is not kept, so the resumed run plays its
data window anew (see `training.csearch_net`).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kingdomino_env.files import check_regular_file

#: The variable that names the folder of every run folder.
RUNS_VARIABLE = "KINGDOMINO_RUNS"
#: The kept networks and their metadata.
KEPT = Path(__file__).resolve().parent / "kept"
#: Format name of a kept network's metadata file.
KEPT_FORMAT = "kingdomino-rl kept network"
#: The most bytes a kept network's metadata file may hold.
MAX_KEPT_BYTES = 1 << 20
#: The loop settings a kept network records, with their types.
LOOP_SETTINGS = ("games", "simulations", "window", "epochs")


def runs_root() -> Path:
    """The folder default run folders go in: `$KINGDOMINO_RUNS`, else `$XDG_DATA_HOME/kingdomino-rl/runs` (an
    absolute XDG_DATA_HOME only, as the XDG specification asks), else `~/.local/share/kingdomino-rl/runs`."""
    chosen = os.environ.get(RUNS_VARIABLE, "")
    if chosen:
        return Path(chosen).expanduser()
    data = os.environ.get("XDG_DATA_HOME", "")
    base = Path(data) if data and Path(data).is_absolute() else Path.home() / ".local" / "share"
    return base / "kingdomino-rl" / "runs"


def default_run_dir(name: str) -> Path:
    """The default folder of the run `name` (see `runs_root`)."""
    if not name or "/" in name or name in (".", ".."):
        raise ValueError(f"a run name is one folder name, got {name!r}")
    return runs_root() / name


def check_run_dir(path: Path) -> Path:
    """`path` if a run may write there: an existing folder, or a path whose nearest existing ancestor is a folder (the
    run makes the rest); ValueError saying what is in the way otherwise. Nothing is made or removed."""
    path = Path(path).expanduser()
    if path.exists() and not path.is_dir():
        raise ValueError(f"{path} is a file, not a run folder; give a folder (made if missing)")
    ancestor = next((p for p in path.absolute().parents if p.exists()), None)
    if not path.exists() and (ancestor is None or not ancestor.is_dir()):
        raise ValueError(f"{path} lies under {ancestor}, which is a file, not a folder; give a folder (made if "
                         "missing)")
    return path


@dataclass(frozen=True)
class KeptNetwork:
    """A kept network of a csearch run: its file and the counters and settings its run goes on with."""

    name: str
    network: Path
    variant: str
    iteration: int
    selfplay_games: int
    settings: dict[str, int]
    about: str


def kept_names(folder: Path = KEPT) -> list[str]:
    """The names of the kept networks (`csearch_NAME.json` in `folder`)."""
    return sorted(p.stem.removeprefix("csearch_") for p in folder.glob("csearch_*.json"))


def kept_network(name: str, folder: Path = KEPT) -> KeptNetwork:
    """The kept network `name`, its metadata checked against the network file's own; ValueError naming the file and
    what is wrong (an unknown name lists the kept ones)."""
    meta_path, network = folder / f"csearch_{name}.json", folder / f"csearch_{name}.npz"
    if not meta_path.is_file():
        raise ValueError(f"no kept network named {name!r}; kept: {', '.join(kept_names(folder)) or 'none'}")
    check_regular_file(meta_path, "a kept network's metadata", MAX_KEPT_BYTES)
    try:
        meta: Any = json.loads(meta_path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"{meta_path} is damaged: not JSON ({err})") from None
    if not isinstance(meta, dict) or meta.get("format") != KEPT_FORMAT:
        raise ValueError(f"{meta_path} is damaged: not the metadata of a kept network (format {KEPT_FORMAT!r})")
    counts = {key: meta.get(key) for key in ("iteration", "selfplay_games")}
    settings = meta.get("settings")
    if not isinstance(settings, dict) or set(settings) != set(LOOP_SETTINGS):
        raise ValueError(f"{meta_path} is damaged: settings must give {', '.join(LOOP_SETTINGS)}, got "
                         f"{settings!r}")
    for key, value in {**counts, **settings}.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{meta_path} is damaged: {key} must be a whole number of at least 1, got {value!r}")
    if not isinstance(meta.get("variant"), str) or not isinstance(meta.get("about", ""), str):
        raise ValueError(f"{meta_path} is damaged: variant must be a variant's name, got {meta.get('variant')!r}")
    from agents.csearch import network as csearch_network

    stored = csearch_network.load_weights(network)[1]
    for key, value in counts.items():
        if stored.get(key) != value:
            raise ValueError(f"{meta_path} gives {key} {value}, but {network} itself {stored.get(key)!r}: the "
                             "metadata and the network do not belong together")
    return KeptNetwork(name, network, meta["variant"], counts["iteration"], counts["selfplay_games"],
                       dict(settings), meta.get("about", ""))
