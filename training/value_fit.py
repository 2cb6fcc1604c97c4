"""How closely csearch value networks predict positions they were not trained on: each game's outcome and, where
the data holds them, the mean outcome of the search's leaf playouts (`csearch_net selfplay --playouts`).

    python -m training.value_fit --variant duel --data held/*.npz --networks a.npz b.npz --out fit.json

Per network: the mean squared error of its win probability against each position's outcome (the win share the
kingdom got) and against the playouts' mean win share, and the mean absolute error of its margin in points
against each; every kingdom of every position counts once. The reference rows say how much there is to predict:
a constant (the data's mean) against each target, and the playouts' means themselves against the outcomes.
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
from pathlib import Path

import numpy as np
import torch

from agents.csearch import network
from agents.csearch.inputs import Inputs, inputs_of
from agents.manifest import sha256_of
from kingdomino_env.files import write_text_atomic

from .csearch_net import VARIANTS, Data, ValueNet

#: The format name of a measurement file (`tools.doc_tables` renders it).
FORMAT = "kingdomino-rl csearch value fit"


def predictions(weights: network.Weights, data: Data, frame: int, inputs: Inputs) -> tuple[np.ndarray, np.ndarray]:
    """(win probabilities, margins in points) (N, K) of the network `weights` on `data`, computed by its torch
    twin."""
    net = ValueNet(frame, hidden=weights.b1.shape[0], hidden2=weights.b2.shape[0], squares=weights.reads_squares,
                   dense=weights.wd.shape[0], inputs=inputs).double()
    net.load(weights)
    net.eval()
    with torch.no_grad():
        out = net(torch.from_numpy(data.indices.astype(np.int64)),
                  torch.from_numpy(np.ascontiguousarray(data.dense[:, :, :weights.wd.shape[0]])).double(),
                  torch.from_numpy(data.glob).double()).numpy()
    return 1.0 / (1.0 + np.exp(-out[..., 0])), out[..., 1] * network.MARGIN_UNIT


def _targets(data: Data) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(name, win shares, margins) of each target the data holds: the outcomes, and the playouts' means."""
    held = [("outcome", data.win, data.margin), ("playouts", data.playout_win, data.playout_margin)]
    return [(name, win, margin) for name, win, margin in held if win is not None]


def _errors(win: np.ndarray | None, margin: np.ndarray | None, data: Data) -> dict[str, float]:
    """The error figures of predictions (win, margin) against each of the data's targets; None: each target's own
    mean (a constant prediction)."""
    out = {}
    for name, target_win, target_margin in _targets(data):
        guess_win = np.full_like(target_win, target_win.mean()) if win is None else win
        guess_margin = np.full_like(target_margin, target_margin.mean()) if margin is None else margin
        out[f"win_mse_vs_{name}"] = float(((guess_win - target_win) ** 2).mean())
        out[f"margin_mae_vs_{name}"] = float(np.abs(guess_margin - target_margin).mean())
    return out


def measure(variant: str, data_files: list[Path], networks: list[Path]) -> dict:
    """The measurement file's content for networks of `variant` on the positions of `data_files`: the data, the
    reference rows and each network's errors. Every network and data file is checked (ValueError naming it)
    before any is measured."""
    rules = VARIANTS[variant]
    inputs = inputs_of(rules)
    loaded = [network.load_weights(path) for path in networks]
    for path, (_, meta) in zip(networks, loaded, strict=True):
        network.check_plays(meta, rules, str(path))
    data = Data.load(data_files, inputs)
    for path, (weights, _) in zip(networks, loaded, strict=True):
        if weights.wd.shape[0] > data.dense.shape[2]:
            raise ValueError(f"{path} reads {weights.wd.shape[0]} dense features a kingdom, the data holds "
                             f"{data.dense.shape[2]}: measure it on data of its feature set")
    reference = {"constant": _errors(None, None, data)}
    if data.playout_win is not None:
        reference["playouts"] = {"win_mse_vs_outcome": float(((data.playout_win - data.win) ** 2).mean()),
                                 "margin_mae_vs_outcome": float(np.abs(data.playout_margin - data.margin).mean())}
    rows = [{"file": str(path), "sha256": sha256_of(path), "games": meta.get("games"),
             "positions": meta.get("positions"), "squares": bool(meta.get("squares", False)),
             "target": meta.get("target", "outcome"), **_errors(*predictions(weights, data, rules.frame, inputs), data)}
            for path, (weights, meta) in zip(networks, loaded, strict=True)]
    return {"format": FORMAT, "variant": variant, "data": [p.name for p in data_files],
            "positions": int(data.win.shape[0]), "games": int(np.unique(data.game).size),
            "reference": reference, "networks": rows}


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m training.value_fit`."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=list(VARIANTS), default="duel", help="the variant (default: %(default)s)")
    parser.add_argument("--data", nargs="+", required=True,
                        help="self-play data files the networks were not trained on (glob patterns allowed)")
    parser.add_argument("--networks", nargs="+", type=Path, required=True, help="value network files to measure")
    parser.add_argument("--out", type=Path, default=None,
                        help="write the measurement to this JSON file too (default: print it only)")
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.out is not None and (args.out.is_dir() or not args.out.parent.is_dir()):
        parser.error(f"--out must be a file in an existing folder, got {args.out}")
    paths = sorted(Path(p) for pattern in args.data for p in glob.glob(str(pattern)))
    if not paths:
        parser.error(f"no data files match {' '.join(args.data)}")
    torch.set_num_threads(1)
    try:
        result = measure(args.variant, paths, args.networks)
    except ValueError as err:
        parser.error(str(err))
    except KeyboardInterrupt:
        sys.exit(130)
    text = json.dumps(result, indent=2) + "\n"
    if args.out is not None:
        write_text_atomic(args.out, text)
    print(text, end="")


if __name__ == "__main__":
    main()
