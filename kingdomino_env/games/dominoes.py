"""The 48 Kingdomino dominoes and the 48 Queendomino dominoes, loaded from the CSVs shipped with the package.

Each CSV (`games/data/kingdomino_dominoes.csv`, `games/data/queendomino_dominoes.csv`) lists each domino's number
and its two squares' terrain and crowns; its square order defines a domino's "first square" in the action layout. The
Kingdomino table was checked against seven public implementations (see the README's "Sources"); the Queendomino
table's totals match its rulebook's component table (`data/README` of the shared data).

Terrain codes: 0 empty, 1..6 Kingdomino's terrains, 7 the castle, 8 Queendomino's town (a new code, so that
Kingdomino's codes, boards and observations stay as they are).
"""

from __future__ import annotations

import csv
from importlib import resources

import numpy as np

#: Terrain names, indexed by terrain code minus one (code 0 is an empty square, 7 the castle).
TERRAINS: tuple[str, ...] = ("wheat", "forest", "lake", "grassland", "swamp", "mine")
EMPTY = 0
CASTLE = 7
#: Queendomino's town (the red construction square).
TOWN = 8
#: Terrain names of Queendomino, indexed by code minus one (codes 1..6 as Kingdomino's, 7 castle, 8 town).
QUEEN_TERRAINS: tuple[str, ...] = (*TERRAINS, "castle", "town")
N_DOMINOES = 48


def terrain_code(name: str) -> int:
    """The terrain code of a terrain name of either game (wheat 1 ... mine 6, town 8)."""
    if name == "castle" or name not in QUEEN_TERRAINS:
        allowed = [t for t in QUEEN_TERRAINS if t != "castle"]
        raise ValueError(f"unknown terrain {name!r}; allowed: {', '.join(allowed)}")
    return QUEEN_TERRAINS.index(name) + 1


def _load(filename: str = "kingdomino_dominoes.csv") -> tuple[np.ndarray, np.ndarray]:
    terrain = np.zeros((N_DOMINOES, 2), dtype=np.int8)
    crowns = np.zeros((N_DOMINOES, 2), dtype=np.int8)
    text = resources.files("kingdomino_env").joinpath(f"games/data/{filename}").read_text()
    rows = list(csv.DictReader(text.splitlines()))
    if len(rows) != N_DOMINOES:
        raise RuntimeError(f"domino table has {len(rows)} rows, expected {N_DOMINOES}")
    for row in rows:
        i = int(row["number"]) - 1
        for square in (0, 1):
            terrain[i, square] = terrain_code(row[f"terrain{square + 1}"])
            crowns[i, square] = int(row[f"crowns{square + 1}"])
    terrain.flags.writeable = False
    crowns.flags.writeable = False
    return terrain, crowns


#: DOMINO_TERRAIN[i, s]: terrain code (1..6) of square s (0 = first) of domino number i + 1.
#: DOMINO_CROWNS[i, s]: crowns on that square.
DOMINO_TERRAIN, DOMINO_CROWNS = _load()
#: The same for the 48 Queendomino dominoes (town squares have code TOWN = 8).
QUEEN_DOMINO_TERRAIN, QUEEN_DOMINO_CROWNS = _load("queendomino_dominoes.csv")


def describe(number: int, queendomino: bool = False) -> str:
    """A short text for domino `number` (1..48), e.g. ``'#19 wheat*1|forest'`` (of the Queendomino box with
    `queendomino`)."""
    i = number - 1
    table, crowns = (QUEEN_DOMINO_TERRAIN, QUEEN_DOMINO_CROWNS) if queendomino else (DOMINO_TERRAIN, DOMINO_CROWNS)
    parts = []
    for s in (0, 1):
        name = QUEEN_TERRAINS[table[i, s] - 1]
        stars = int(crowns[i, s])
        parts.append(name + (f"*{stars}" if stars else ""))
    return f"#{number} " + "|".join(parts)
