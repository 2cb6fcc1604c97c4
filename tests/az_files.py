"""Test helpers: az network files written without torch (valid metadata, placeholder weights of the right sizes)."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

from agents.az.files import PARAMETER_BYTES, tensor_sizes

TINY = {"channels": 8, "blocks": 1, "hidden": 16}


def placeholder_weights(game: str = "kingdomino", config: dict[str, int] | None = None) -> bytes:
    """A weights.pt laid out as torch lays one out (data.pkl, one data/N entry per tensor) with the declared
    network's tensor sizes, holding zeros and no real pickle: it passes every check made without torch, and torch
    cannot load it."""
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        archive.writestr("archive/data.pkl", b"placeholder")
        for i, size in enumerate(tensor_sizes(game, config or TINY)):
            archive.writestr(f"archive/data/{i}", bytes(PARAMETER_BYTES * size))
    return data.getvalue()


def meta(frame: int = 9, **changes) -> dict:
    """A valid meta.json of a tiny network, with `changes` applied."""
    data = {"format": "kingdomino-az", "version": 1, "frame": frame, "players": [2], "config": dict(TINY),
            "trained": {}}
    data.update(changes)
    return data


def write_archive(path: Path, meta: dict | bytes | None, weights: bytes | None = None, placeholder: bool = True
                  ) -> Path:
    """A zip archive with the given meta.json (a dict is dumped as JSON) and weights.pt: `weights`, else (with
    `placeholder`) placeholder weights of the declared network, else none."""
    if weights is None and placeholder:
        declared = meta if isinstance(meta, dict) else {}
        config = declared.get("config")
        fits = isinstance(config, dict) and all(isinstance(config.get(k), int) and 0 < config[k] <= 64
                                                for k in TINY)
        game = declared.get("game", "kingdomino")
        weights = placeholder_weights(game if isinstance(game, str) and game in ("queendomino", "royal_wedding")
                                      else "kingdomino", config if fits else TINY)
    with zipfile.ZipFile(path, "w") as archive:
        if meta is not None:
            archive.writestr("meta.json", json.dumps(meta) if isinstance(meta, dict) else meta)
        if weights is not None:
            archive.writestr("weights.pt", weights)
    return path
