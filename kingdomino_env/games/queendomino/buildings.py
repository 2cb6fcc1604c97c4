"""Queendomino's 32 building tiles as pure data, loaded from a CSV (the shipped one or a corrected one).

The shipped file (`games/data/queendomino_buildings.csv`) has the end-game figures of one source and **provisional**
immediate and ongoing effects (`knights`, `towers`, `tax_bonus`; see the shared data README): whoever owns the
tiles can correct it, and `Rules(game="queendomino", buildings=PATH)` plays with the corrected file. No rule reads
a tile's name: the engine sees only the numeric table `BuildingDeck.table`.

Columns (a header row, then one row per tile; other columns, such as `name_source` and `effects_source`, are
ignored): `tile` (1..32, each once), `name`, `crowns` (0..9, crowns the tile adds to its town territory),
`points` (0..99), `points_per` (empty: fixed points; `territory:T`: per separate territory of terrain T;
`knight`: per knight owned; `tower`: per tower), `knights` (0..22, taken from the supply when built), `towers`
(0..15, placed when built), `tax_bonus` (empty, `knight` or `tower`: extra coins at each tax collection).
A file is a regular file of at most `MAX_BYTES` (a FIFO or device is refused unopened) and no field is longer than
`MAX_FIELD` characters (`MAX_NAME` for a tile's name, which the app shows).
"""

from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass
from functools import cached_property
from importlib import resources

import numpy as np

from ..checked_files import FileCheckError, read_regular_file
from ..dominoes import QUEEN_TERRAINS, terrain_code

N_TILES = 32
#: Columns of `BuildingDeck.table`.
CROWNS, POINTS, PER_KIND, PER_TERRAIN, KNIGHTS, TOWERS, TAX = range(7)
#: `points_per` kinds (column PER_KIND).
PER_FIXED, PER_TERRITORY, PER_KNIGHT, PER_TOWER = range(4)
#: `tax_bonus` values (column TAX).
TAX_NONE, TAX_KNIGHT, TAX_TOWER = range(3)

#: The largest buildings file read (the shipped one is under 2 KB).
MAX_BYTES = 64 * 1024
#: The longest field of a buildings file, and the longest tile name.
MAX_FIELD = 200
MAX_NAME = 40
REQUIRED = ("tile", "name", "crowns", "points", "points_per", "knights", "towers", "tax_bonus")
_RANGES = {"crowns": 9, "points": 99, "knights": 22, "towers": 15}
_BUILDING_TERRAINS = tuple(t for t in QUEEN_TERRAINS if t != "castle")
_PER_ALLOWED = ("'' (fixed points), " + ", ".join(f"'territory:{t}'" for t in _BUILDING_TERRAINS)
                + ", 'knight', 'tower'")


@dataclass(frozen=True, eq=False)
class BuildingDeck:
    """The 32 tiles: `names` (for display only) and `table` (32, 7) int64, columns CROWNS, POINTS, PER_KIND,
    PER_TERRAIN (terrain code for PER_TERRITORY, else 0), KNIGHTS, TOWERS, TAX; row i is tile number i + 1."""

    names: tuple[str, ...]
    table: np.ndarray
    source: str

    @cached_property
    def points_per(self) -> tuple[str, ...]:
        """Each tile's `points_per` text, as in the CSV."""
        out = []
        for kind, terrain in self.table[:, [PER_KIND, PER_TERRAIN]]:
            out.append(("", f"territory:{QUEEN_TERRAINS[terrain - 1] if terrain else ''}", "knight", "tower")[kind])
        return tuple(out)


def _field_int(value: str, field: str, where: str) -> int:
    high = _RANGES[field]
    text = value.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 3 or int(text) > high:
        raise ValueError(f"{where}: field '{field}' is {value!r}; allowed: an integer in 0..{high}")
    return int(text)


def parse(text: str, source: str) -> BuildingDeck:
    """The deck described by CSV `text` (`source` names it in messages); ValueError naming the row, the field and
    what is allowed for anything malformed."""
    reader = csv.DictReader(io.StringIO(text))
    try:
        return _parse(reader, source)
    except csv.Error as err:  # a field past the csv module's own limit, a NUL byte
        raise ValueError(f"{source}: line {reader.line_num} is not CSV the deck reader takes ({err}); allowed: fields "
                         f"of at most {MAX_FIELD} characters") from None


def _parse(reader: csv.DictReader, source: str) -> BuildingDeck:
    header = reader.fieldnames or []
    long = next((c for c in header if len(c) > MAX_FIELD), None)
    if long is not None:
        raise ValueError(f"{source}: a header column has {len(long)} characters; allowed: at most {MAX_FIELD}")
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise ValueError(f"{source}: the header lacks column(s) {missing}; required: {', '.join(REQUIRED)}")
    table = np.zeros((N_TILES, 7), dtype=np.int64)
    names = [""] * N_TILES
    seen: set[int] = set()
    rows = 0
    for row in reader:
        rows += 1
        where = f"{source}: row {rows} (line {reader.line_num})"
        if None in row or any(row[c] is None for c in REQUIRED):
            raise ValueError(f"{where}: it has {len(header)} columns in the header but a different number here")
        long = next((c for c in header if len(row[c] or "") > MAX_FIELD), None)
        if long is not None:
            raise ValueError(f"{where}: field '{long}' has {len(row[long])} characters; allowed: at most {MAX_FIELD}")
        tile = row["tile"].strip()
        if not (tile.isascii() and tile.isdigit()) or len(tile) > 2 or not 1 <= int(tile) <= N_TILES:
            raise ValueError(f"{where}: field 'tile' is {row['tile']!r}; allowed: an integer in 1..{N_TILES}")
        i = int(tile) - 1
        if i in seen:
            raise ValueError(f"{where}: field 'tile' is {i + 1}, which an earlier row has; allowed: each of "
                             f"1..{N_TILES} once")
        seen.add(i)
        names[i] = row["name"].strip()
        if len(names[i]) > MAX_NAME:
            raise ValueError(f"{where}: field 'name' has {len(names[i])} characters; allowed: a name of at most "
                             f"{MAX_NAME}")
        for field, column in (("crowns", CROWNS), ("points", POINTS), ("knights", KNIGHTS), ("towers", TOWERS)):
            table[i, column] = _field_int(row[field], field, where)
        per = row["points_per"].strip()
        if per == "":
            table[i, PER_KIND] = PER_FIXED
        elif per in ("knight", "tower"):
            table[i, PER_KIND] = PER_KNIGHT if per == "knight" else PER_TOWER
        elif per.startswith("territory:") and per[len("territory:"):] in _BUILDING_TERRAINS:
            table[i, PER_KIND] = PER_TERRITORY
            table[i, PER_TERRAIN] = terrain_code(per[len("territory:"):])
        else:
            raise ValueError(f"{where}: field 'points_per' is {row['points_per']!r}; allowed: {_PER_ALLOWED}")
        tax = row["tax_bonus"].strip()
        if tax not in ("", "knight", "tower"):
            raise ValueError(f"{where}: field 'tax_bonus' is {row['tax_bonus']!r}; allowed: '' (none), 'knight', "
                             "'tower'")
        table[i, TAX] = ("", "knight", "tower").index(tax)
    if rows != N_TILES or len(seen) != N_TILES:
        raise ValueError(f"{source}: {rows} tile rows; allowed: exactly {N_TILES} rows, tiles 1..{N_TILES} once each")
    table.flags.writeable = False
    return BuildingDeck(names=tuple(names), table=table, source=source)


def load(path: str | os.PathLike | None = None) -> BuildingDeck:
    """The shipped deck (path None) or the deck of the CSV file at `path` (ValueError if unreadable or malformed)."""
    if path is None:
        text = resources.files("kingdomino_env").joinpath("games/data/queendomino_buildings.csv").read_text()
        return parse(text, "queendomino_buildings.csv")
    try:
        text = read_regular_file(path, "the buildings file", MAX_BYTES).decode("utf-8-sig")
    except FileCheckError as err:
        raise ValueError(f"buildings file {os.fspath(path)!r} cannot be read: {err}") from None
    except UnicodeDecodeError as err:
        raise ValueError(f"buildings file {os.fspath(path)!r} cannot be read: it is not UTF-8 text ({err.reason} at "
                         f"byte {err.start})") from None
    return parse(text, os.fspath(path))
