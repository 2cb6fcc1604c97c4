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
data window anew (see `training.csearch_net`). `keep_network` (`csearch_net keep NAME`) writes both files from a
run's newest network and lists it in the model manifest (`agents/models/manifest.json`, marked not shipped).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from agents.budget import MAX_PLAYOUTS
from agents.manifest import MANIFEST, ModelEntry, load_manifest, sha256_of, write_manifest
from agents.manifest import ROOT as MANIFEST_ROOT
from kingdomino_env.files import check_regular_file, write_atomic, write_text_atomic
from kingdomino_env.rules import Rules
from training.config_check import Check, ConfigError, integer, number

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
#: The largest counter or setting a kept network may record (a run of this size would take years on one core).
MAX_SETTING = 10**7
#: The largest share of self-play decisions that may be fast searches whose positions are not kept.
MAX_FAST_SHARE = 0.95


class OptionalSetting(NamedTuple):
    """A loop setting a kept network records only where it is not its default: the default, the check of its
    values (`training.config_check`) and what it does."""

    default: int | float
    check: Check
    about: str


#: The loop settings a kept network records where they are not their defaults.
OPTIONAL_SETTINGS = {
    "playouts": OptionalSetting(
        0, integer(0, MAX_PLAYOUTS),
        "playouts self-play plays from every position, whose mean outcome the networks learn (0: each game's outcome)"),
    "fast_share": OptionalSetting(
        0.0, number(0, MAX_FAST_SHARE),
        "the share of self-play decisions (after the opening) searched with --fast-simulations only, whose positions "
        "are not kept: more games for the same compute (KataGo's playout-cap randomisation)"),
    "fast_simulations": OptionalSetting(
        0, integer(0, MAX_PLAYOUTS), "simulations of those fast searches, fewer than --simulations"),
    "past_share": OptionalSetting(
        0.0, number(0, 1),
        "the share of self-play games in which one seat, drawn at random, is played by an earlier network of the run, "
        "drawn at random"),
}
#: What a kept network's name may be: lower-case letters, digits and underscores, a letter or digit first.
KEPT_NAME = re.compile(r"[a-z0-9][a-z0-9_]{0,63}")
#: The longest `about` text a kept network's metadata may hold.
MAX_ABOUT = 2000
#: The trainer that writes the networks kept here.
KEPT_TRAINER = "training.csearch_net loop"


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
    if not isinstance(settings, dict) or not set(LOOP_SETTINGS) <= set(settings) <= {*LOOP_SETTINGS,
                                                                                     *OPTIONAL_SETTINGS}:
        raise ValueError(f"{meta_path} is damaged: settings must give {', '.join(LOOP_SETTINGS)} (and may give "
                         f"{', '.join(OPTIONAL_SETTINGS)}), got {settings!r}")
    for key, value in {**counts, **settings}.items():
        if key in OPTIONAL_SETTINGS:
            wrong = optional_setting_error(key, value)
        elif isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SETTING:
            wrong = f"{key} must be a whole number from 1 to {MAX_SETTING}, got {value!r}"
        else:
            wrong = None
        if wrong:
            raise ValueError(f"{meta_path} is damaged: {wrong}")
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


def optional_setting_error(key: str, value: object, name: str | None = None) -> str | None:
    """What is wrong with `value` as the optional loop setting `key`, called `name` (default: `key`) in the
    message; None where nothing is."""
    try:
        OPTIONAL_SETTINGS[key].check(name or key, value)
    except ConfigError as err:
        return str(err)
    return None


def _recorded_settings(settings: dict[str, int | float]) -> dict[str, int | float]:
    """The loop settings a kept network records: every one of `LOOP_SETTINGS`, the optional ones not at their
    defaults."""
    optional = {key: settings[key] for key, setting in OPTIONAL_SETTINGS.items()
                if settings.get(key, setting.default) != setting.default}
    return {**{key: settings[key] for key in LOOP_SETTINGS}, **optional}


def variant_phrase(rules: Rules) -> str:
    """The variant as a kept network's texts name it ("Queendomino, 2 players", "Kingdomino with 5x5 kingdoms, 2
    players, basic rules")."""
    if rules.has_buildings:
        return f"{rules.title_in_text}, {rules.players} players"
    bonuses = " and ".join(name for name, on in (("Harmony", rules.harmony), ("Middle Kingdom", rules.middle_kingdom))
                           if on) or "basic rules"
    board = f"{rules.title} with {rules.grid}x{rules.grid} kingdoms"
    if rules.mighty_duel:
        return f"{board} (Mighty Duel, {bonuses}), {rules.players} players"
    return f"{board}, {rules.players} players, {bonuses}"


def keep_network(name: str, source: Path, variant: str, rules: Rules, settings: dict[str, int], about: str = "",
                 folder: Path = KEPT, manifest: Path = MANIFEST, root: Path = MANIFEST_ROOT) -> KeptNetwork:
    """Keep the network `source` (a net_K.npz a loop of `variant` wrote, `settings` its loop's) as
    `folder/csearch_NAME.npz` with its metadata beside it, and list it in the model manifest (its entry replaced
    where one exists, its ratings dropped with a changed file; paths relative to `root`); the kept network. Refused
    with a ValueError, before anything is written: a name that is not one, an `about` over `MAX_ABOUT` characters,
    a network file that is not one (damaged, a folder, a FIFO), a network without the loop's counters
    or of another variant, or one that would replace a kept network of another variant or a later one."""
    if not KEPT_NAME.fullmatch(name):
        raise ValueError(f"a kept network's name is lower-case letters, digits and underscores (a letter or digit "
                         f"first, at most 64), got {name!r}")
    if len(about) > MAX_ABOUT:
        raise ValueError(f"--about is {len(about)} characters long; at most {MAX_ABOUT} are allowed")
    from agents.csearch import network as csearch_network

    weights, meta = csearch_network.load_weights(source)
    counts = {key: meta.get(key) for key in ("iteration", "selfplay_games")}
    if any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in counts.values()):
        raise ValueError(f"{source} gives no iteration and self-play games in its metadata (got {counts}): keep a "
                         "net_K.npz that a loop wrote")
    if meta.get("variant", variant) != variant:
        raise ValueError(f"{source} is a network of {meta.get('variant')}, not of the run's variant {variant}")
    if (folder / f"csearch_{name}.json").is_file():
        held = kept_network(name, folder)
        if held.variant != variant or held.iteration > counts["iteration"]:
            raise ValueError(f"{folder / f'csearch_{name}.npz'} already keeps net_{held.iteration} of {held.variant}; "
                             f"net_{counts['iteration']} of {variant} would replace it: give another name")
    network, record = folder / f"csearch_{name}.npz", folder / f"csearch_{name}.json"
    where = variant_phrase(rules)
    text = about or (f"{where[0].upper()}{where[1:]}: net_{counts['iteration']} of the {name} run, after "
                     f"{counts['selfplay_games']} self-play games in all; its loop's latest settings: "
                     f"{settings['simulations']} simulations a decision ({settings['games']} games an iteration), "
                     f"trained on the games of the last {settings['window']} iterations (--window {settings['window']})"
                     + (f", to the mean outcome of {settings['playouts']} playouts from each position."
                        if settings.get("playouts") else ".")
                     + (f" {settings['fast_share']:.0%} of its self-play decisions were searched with "
                        f"{settings['fast_simulations']} simulations and not kept." if settings.get("fast_share")
                        else "")
                     + (f" An earlier network played one seat in {settings['past_share']:.0%} of its games."
                        if settings.get("past_share") else "")
                     + (" It reads each kingdom's squares as well as its dense features." if weights.reads_squares
                        else ""))
    entries = load_manifest(manifest)
    path, record_path = (f.resolve().relative_to(root.resolve()).as_posix() for f in (network, record))
    write_atomic(network, lambda tmp: shutil.copyfile(source, tmp), suffix=".npz")
    write_text_atomic(record, json.dumps({
        "format": KEPT_FORMAT, "version": 1, "network": network.name, "trainer": KEPT_TRAINER, "run": name,
        "variant": variant, **counts, "settings": _recorded_settings(settings), "about": text},
        indent=2) + "\n")
    kept = kept_network(name, folder)
    digest = sha256_of(network)
    previous = next((e for e in entries if e.path == path), None)
    entry = ModelEntry(
        path=path, shipped=False, sha256=digest, bytes=network.stat().st_size, kind="csearch value network",
        specs=[f"csearch:BUDGET:{path}"],
        plays=f"not shipped: the leaves of csearch's search in {where}, where a spec names its path",
        trained={"trainer": KEPT_TRAINER, "run": name, "variant": variant, "iterations": kept.iteration,
                 "selfplay_games": kept.selfplay_games, "settings": kept.settings,
                 "metadata": record_path,
                 "resume": f"python -m training.csearch_net loop --resume {name} --iterations N"},
        ratings=previous.ratings if previous is not None and previous.sha256 == digest else [])
    write_manifest([entry if e.path == path else e for e in entries] + ([] if previous else [entry]), manifest)
    return kept
