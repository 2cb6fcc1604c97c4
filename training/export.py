"""`python -m training.export CHECKPOINT.zip DEST.zip`: a checkpoint as a small file to ship or share.

A MaskablePPO checkpoint carries the optimizer's state (Adam's two moments: twice the weights) for resuming
training; an agent only needs the weights. The export keeps the policy and a fresh optimizer, so it loads as
usual (`MaskablePPO.load`, `agents.load("ppo:DEST.zip")`) at about a third of the size. The checkpoint is checked
before anything loads (it must be a MaskablePPO zip), and DEST is written to a temporary file beside it, then
renamed, so an existing DEST is replaced whole or not at all.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from agents.model_file import read_model_shape
from agents.ppo import resolve_model_path
from kingdomino_env.files import write_atomic


def export(checkpoint: str | Path, dest: str | Path) -> Path:
    """Write `checkpoint`'s policy with a fresh optimizer to `dest`; ValueError if the checkpoint is no model."""
    source = resolve_model_path(checkpoint)
    try:
        read_model_shape(source)
    except ValueError as err:
        raise ValueError(f"{source} is not a MaskablePPO model: {err}") from None
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(source, device="cpu")
    policy = model.policy
    policy.optimizer = policy.optimizer_class(policy.parameters(), **policy.optimizer_kwargs)
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    return write_atomic(dest, model.save, suffix=".zip")


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m training.export`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkpoint", help="a MaskablePPO checkpoint (.zip) to export")
    parser.add_argument("dest", help="the file to write (a .zip; replaced whole if it exists)")
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    if Path(args.dest).is_dir():
        parser.error(f"{args.dest} is a folder; give the file to write, e.g. {Path(args.dest) / 'model.zip'}")
    try:
        path = export(args.checkpoint, args.dest)
    except (ValueError, OSError) as err:
        parser.error(str(err))
    print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
