"""`python -m training.az_publish RUN NAME`: ship a training run's network and record as the shipped run NAME.

Copies `RUN/latest.az` over `agents/models/az_NAME.az`, and `RUN/log.csv`, `RUN/eval.csv`, `RUN/config.json`,
`RUN/learning_curve.png` and, where the run has them, `RUN/ladder.json` and `RUN/ladder.png` over
`docs/az/log_NAME.csv`, `eval_NAME.csv`, `config_NAME.json`, `learning_curve_NAME.png`, `ladder_NAME.json` and
`ladder_NAME.png` (see `az_runs`), after checking that the network plays what the shipped run NAME plays (the first
network of a run NAME has no shipped file to replace). The network's entry in `agents/models/manifest.json`
(`agents.manifest`) gets its new digest, size and training counters, and no rating (the ratings measured the
network it replaces: rate the new one with `kingdomino rate`). The run's checkpoints stay in RUN: none is
committed. Commit the files written: the next run (`resume_from: NAME`) goes on from them on any clone.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from agents.az.files import NetworkInfo, read_info
from agents.manifest import MANIFEST, ModelEntry, load_manifest, sha256_of, write_manifest
from kingdomino_env.files import write_atomic

from .az_runs import NAMES, ShippedRun


def publish(run: Path, name: str) -> list[Path]:
    """Copy the run's files over the shipped run `name`'s; the files written. ValueError if the run's network
    does not play the shipped network's variant or a file is missing."""
    shipped = ShippedRun(name)
    run = Path(run)
    latest = run / "latest.az"
    new = read_info(latest)
    if not shipped.plays(new):
        raise ValueError(f"{latest} plays {new.describe()}; the shipped {name} network plays {shipped.describe()}")
    pairs = [(latest, shipped.network), (run / "log.csv", shipped.log), (run / "eval.csv", shipped.evals),
             (run / "config.json", shipped.config), (run / "learning_curve.png", shipped.curve)]
    missing = [str(source) for source, _ in pairs if not source.is_file()]
    if missing:
        raise ValueError(f"the run lacks {', '.join(missing)}")
    pairs += [(source, target) for source, target in ((run / "ladder.json", shipped.ladder),
                                                      (run / "ladder.png", shipped.ladder_plot)) if source.is_file()]
    for source, target in pairs:
        write_atomic(target, lambda tmp, source=source: shutil.copyfile(source, tmp))
    written = [target for _, target in pairs]
    manifest = shipped.network.parent / MANIFEST.name
    if manifest.is_file():
        update_manifest(manifest, shipped.network, new, name)
        written.append(manifest)
    return written


def update_manifest(manifest: Path, network: Path, info: NetworkInfo, name: str) -> None:
    """Give the manifest's entry of the shipped network `network` (made if missing) the file's digest and size, the
    counters of its metadata `info`, and no ratings (they were measured on the network it replaced)."""
    entries = load_manifest(manifest)
    path = f"agents/models/{network.name}"
    old = next((entry for entry in entries if entry.path == path), None)
    trained = {**(old.trained if old else {}), "trainer": "training.train_az", "run": f"the shipped az run {name}",
               "variants": info.trained.get("variants"), "iterations": info.trained.get("iteration"),
               "selfplay_games": info.trained.get("games"), "training_steps": info.trained.get("steps")}
    if "core_hours" in info.trained:
        trained["selfplay_core_hours"] = info.trained["core_hours"]
    entry = ModelEntry(path=path, shipped=True, sha256=sha256_of(network), bytes=network.stat().st_size,
                       kind="az network", specs=["az", "azmc"], plays=info.describe(), trained=trained, ratings=[])
    write_manifest([entry if e.path == path else e for e in entries] + ([] if old else [entry]), manifest)


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m training.az_publish`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("run", type=Path, help="the training run's folder (train_az's OUT)")
    parser.add_argument("name", choices=sorted(NAMES), help="the shipped run to overwrite")
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        written = publish(args.run, args.name)
    except (OSError, ValueError) as err:
        parser.error(str(err))
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
