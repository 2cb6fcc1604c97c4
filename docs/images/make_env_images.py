"""Draw the picture at the top of each environment page (docs/environments/*.md) with the envs' own renderer.

    python docs/images/make_env_images.py            # rewrites docs/images/env_*.png

Each picture is a game of Full Greedy players (seeded, so the same every run) stopped part way, drawn by the env's
`render_mode="rgb_array"`. Needs the project installed (`pip install -e .`), pygame and Pillow (matplotlib's).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

import agents
import kingdomino_env

HERE = Path(__file__).resolve().parent
#: A picture larger than this is refused: the pages should load fast.
MAX_BYTES = 200_000


@dataclass(frozen=True)
class Picture:
    """One page's picture: the file, the env that draws it and how many actions its players take first."""

    name: str
    make_env: Callable[[], object]
    actions: int
    seed: int


def _aec(**options: object) -> Callable[[], object]:
    return lambda: kingdomino_env.env(render_mode="rgb_array", **options)


def _solo(**options: object) -> Callable[[], object]:
    return lambda: kingdomino_env.KingdominoSoloEnv(render_mode="rgb_array", opponents="greedy", **options)


PICTURES = (
    Picture("env_kingdomino.png", _aec(players=2), actions=36, seed=7),
    Picture("env_queendomino.png", _aec(game="queendomino", players=2), actions=60, seed=3),
    Picture("env_royal_wedding.png", _aec(game="royal_wedding", players=3), actions=70, seed=5),
    Picture("env_training.png", _solo(mighty_duel=True, harmony=True, middle_kingdom=True), actions=30, seed=11),
)


def _play_aec(env: object, actions: int, seed: int) -> np.ndarray:
    env.reset(seed=seed)
    agent = agents.load("greedy", seed=seed)
    for taken, _ in enumerate(env.agent_iter()):
        _, _, terminated, truncated, _ = env.last()
        if taken == actions or terminated or truncated:
            break
        env.step(agent.act(env))
    return env.render()


def _play_solo(env: object, actions: int, seed: int) -> np.ndarray:
    env.reset(seed=seed)
    agent = agents.load("greedy", seed=seed)
    for _ in range(actions):
        state = env.unwrapped.state
        mask = kingdomino_env.core.legal_action_mask(state)
        action = int(agent.act(state, np.zeros(1, dtype=np.int64), mask, None)[0])
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            break
    return env.render()


def draw(picture: Picture) -> Image.Image:
    """The picture's frame: its game played `actions` actions by Full Greedy players, rendered."""
    env = picture.make_env()
    play = _play_solo if isinstance(env, kingdomino_env.KingdominoSoloEnv) else _play_aec
    frame = play(env, picture.actions, picture.seed)
    env.close()
    return Image.fromarray(np.asarray(frame, dtype=np.uint8)).convert("RGB")


def write(picture: Picture, out_dir: Path) -> Path:
    """Draw `picture` into `out_dir` as a palette PNG (the renderer's flat colours need few)."""
    path = out_dir / picture.name
    draw(picture).quantize(colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        path, optimize=True)
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise SystemExit(f"{path} has {size} bytes; keep each picture under {MAX_BYTES}")
    return path


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="folder to write into (default: docs/images)")
    args = parser.parse_args(argv)
    if not args.out.is_dir():
        parser.error(f"--out: {args.out} is not a folder")
    for picture in PICTURES:
        print(write(picture, args.out))


if __name__ == "__main__":
    main()
