"""The 48 Kingdomino dominoes, loaded from the CSV shipped with the package.

The CSV (`data/kingdomino_dominoes.csv`) lists each domino's number and its two squares' terrain and crowns; its
square order defines a domino's "first square" in the action layout. It was checked against seven public
implementations (see the README's "Sources").
"""

from __future__ import annotations

import csv
from importlib import resources

import numpy as np

#: Terrain names, indexed by terrain code minus one (code 0 is an empty square, 7 the castle).
TERRAINS: tuple[str, ...] = ("wheat", "forest", "lake", "grassland", "swamp", "mine")
EMPTY = 0
CASTLE = 7
N_DOMINOES = 48


def _load() -> tuple[np.ndarray, np.ndarray]:
    terrain = np.zeros((N_DOMINOES, 2), dtype=np.int8)
    crowns = np.zeros((N_DOMINOES, 2), dtype=np.int8)
    text = resources.files("kingdomino_env").joinpath("data/kingdomino_dominoes.csv").read_text()
    rows = list(csv.DictReader(text.splitlines()))
    if len(rows) != N_DOMINOES:
        raise RuntimeError(f"domino table has {len(rows)} rows, expected {N_DOMINOES}")
    for row in rows:
        i = int(row["number"]) - 1
        for square in (0, 1):
            terrain[i, square] = TERRAINS.index(row[f"terrain{square + 1}"]) + 1
            crowns[i, square] = int(row[f"crowns{square + 1}"])
    terrain.flags.writeable = False
    crowns.flags.writeable = False
    return terrain, crowns


#: DOMINO_TERRAIN[i, s]: terrain code (1..6) of square s (0 = first) of domino number i + 1.
#: DOMINO_CROWNS[i, s]: crowns on that square.
DOMINO_TERRAIN, DOMINO_CROWNS = _load()


def describe(number: int) -> str:
    """A short text for domino `number` (1..48), e.g. ``'#19 wheat*1|forest'``."""
    i = number - 1
    parts = []
    for s in (0, 1):
        name = TERRAINS[DOMINO_TERRAIN[i, s] - 1]
        stars = int(DOMINO_CROWNS[i, s])
        parts.append(name + (f"*{stars}" if stars else ""))
    return f"#{number} " + "|".join(parts)
