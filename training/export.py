"""`python -m training.export CHECKPOINT.zip DEST.zip`: a checkpoint as a small file to ship or share.

A MaskablePPO checkpoint carries the optimizer's state (Adam's two moments: twice the weights) for resuming
training; an agent only needs the weights. The export keeps the policy and a fresh optimizer, so it loads as
usual (`MaskablePPO.load`, `agents.load("ppo:DEST.zip")`) at about a third of the size.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def export(checkpoint: str | Path, dest: str | Path) -> Path:
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(checkpoint, device="cpu")
    policy = model.policy
    policy.optimizer = policy.optimizer_class(policy.parameters(), **policy.optimizer_kwargs)
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    model.save(dest)
    return dest


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkpoint")
    parser.add_argument("dest")
    args = parser.parse_args(argv)
    path = export(args.checkpoint, args.dest)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
