"""The standard variants of `kingdomino rate`, their anchor pools and the frozen anchor ratings.

A standard rating puts an agent on one fixed Elo scale per variant: it plays a fixed set of deals (a published seed
per variant) against every anchor of the variant, and its rating is fitted against the anchors' frozen ratings
(`tournament.data/standard_anchors.json`, computed once by `python -m tournament.calibrate`). Anchors play at a
fixed number of playouts or simulations per move (`pN`), never at a time budget, so their strength does not depend
on the machine.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from kingdomino_env.files import read_regular_file
from kingdomino_env.rules import Rules

#: The agent every scale is pinned to, and its rating.
PIN_AGENT = "greedy"
#: The most bytes an anchor table or rating card may hold when read.
MAX_JSON_BYTES = 10**7
#: Format of the anchor table file.
TABLE_FORMAT = "kingdomino-anchors/1"
#: The shipped anchor table (package data).
TABLE_PATH = Path(__file__).parent / "data" / "standard_anchors.json"


@dataclass(frozen=True)
class Variant:
    """A standard variant.

    Attributes:
        name: Its name on the command line.
        description: One line for `--help`.
        rules: The game and options every game is played with.
        anchors: The anchor specs, weakest first (calibration plays neighbours in this order).
        seed: Seed of the rating deals (and of the agents' seeds) of `kingdomino rate`.
        calibration_seed: Seed of the calibration games between anchors.
    """

    name: str
    description: str
    rules: Rules
    anchors: tuple[str, ...]
    seed: int
    calibration_seed: int


_KINGDOM = ("random", "gprd", "greedy", "heuristic", "mc:p100")
_BUILDINGS = ("random", "gprd", "greedy")

VARIANTS: dict[str, Variant] = {v.name: v for v in (
    Variant("duel", "Kingdomino Mighty Duel: 2 players, 7x7 kingdoms, all 48 dominoes, Harmony and Middle Kingdom.",
            Rules(players=2, mighty_duel=True, harmony=True, middle_kingdom=True), _KINGDOM + ("csearch:p200",),
            1001, 2001),
    Variant("2p", "Kingdomino, 2 players, 5x5 kingdoms, Harmony and Middle Kingdom.",
            Rules(players=2, harmony=True, middle_kingdom=True), _KINGDOM + ("csearch:p400",), 1002, 2002),
    Variant("3p", "Kingdomino, 3 players, 5x5 kingdoms, Harmony and Middle Kingdom.",
            Rules(players=3, harmony=True, middle_kingdom=True), _KINGDOM + ("csearch:p200",), 1003, 2003),
    Variant("4p", "Kingdomino, 4 players, 5x5 kingdoms, Harmony and Middle Kingdom.",
            Rules(players=4, harmony=True, middle_kingdom=True), _KINGDOM + ("csearch:p200",), 1004, 2004),
    Variant("queendomino-2p", "Queendomino, 2 players (7x7 kingdoms, two kings each), the shipped building deck.",
            Rules(game="queendomino", players=2), _BUILDINGS + ("mc:p30", "csearch:p50"), 1005, 2005),
    Variant("royal-wedding-4p", "The Royal Wedding, 4 players (7x7 kingdoms, both boxes), no teams.",
            Rules(game="royal_wedding", players=4), _BUILDINGS + ("csearch:p60",), 1006, 2006),
)}


class UnknownVariantError(ValueError):
    """A variant name that is not a standard variant."""


def variant(name: str) -> Variant:
    """The standard variant `name`; UnknownVariantError naming the close matches and every variant otherwise."""
    if name in VARIANTS:
        return VARIANTS[name]
    close = difflib.get_close_matches(str(name), list(VARIANTS), n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise UnknownVariantError(f"unknown variant {name!r}; {hint}the standard variants are {', '.join(VARIANTS)}")


def anchor_name(spec: str) -> str:
    """An anchor's entrant name: its spec with ':' written '-' (entrant names take no ':')."""
    return spec.replace(":", "-")


def read_json(path: str | Path, what: str, max_bytes: int = MAX_JSON_BYTES) -> Any:
    """A JSON file a user names (an anchor table, a rating card): a regular file within `max_bytes`, of UTF-8 JSON;
    ValueError naming it and what is wrong otherwise (a folder or FIFO is refused without being opened)."""
    try:
        return json.loads(read_regular_file(path, what, max_bytes).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as err:
        raise ValueError(f"{what} {path} is not JSON: {err}") from None


def read_table(path: str | Path | None = None) -> dict[str, Any]:
    """The anchor table (the shipped one by default): {"format", "pin", "variants": {name: entry}}."""
    if path is None:
        table = json.loads(resources.files("tournament").joinpath("data/standard_anchors.json").read_text(
            encoding="utf-8"))
    else:
        table = read_json(path, "the anchor table")
    if not isinstance(table, dict) or table.get("format") != TABLE_FORMAT:
        found = table.get("format") if isinstance(table, dict) else type(table).__name__
        raise ValueError(f"{path or TABLE_PATH} is not an anchor table (format {found!r}, expected "
                         f"{TABLE_FORMAT!r})")
    return table


@lru_cache(maxsize=1)
def _shipped_table() -> dict[str, Any]:
    return read_table()


def anchor_entry(name: str, table: dict[str, Any] | None = None) -> dict[str, Any]:
    """The frozen calibration of variant `name`; ValueError when the table has none yet."""
    table = _shipped_table() if table is None else table
    entry = table["variants"].get(name)
    if entry is None:
        raise ValueError(f"variant {name!r} has no frozen anchor ratings yet: run `python -m tournament.calibrate "
                         f"--variant {name}` first")
    return entry


def anchor_ratings(name: str, table: dict[str, Any] | None = None) -> dict[str, float]:
    """{anchor spec: frozen rating} of variant `name`."""
    return {spec: float(v["rating"]) for spec, v in anchor_entry(name, table)["anchors"].items()}


def table_digest(name: str, table: dict[str, Any] | None = None) -> str:
    """A digest of variant `name`'s frozen anchors and ratings: two cards with the same digest share one scale."""
    entry = anchor_entry(name, table)
    frozen = {"rules": entry["rules"], "anchors": {s: v["rating"] for s, v in entry["anchors"].items()}}
    return "sha256:" + hashlib.sha256(json.dumps(frozen, sort_keys=True).encode()).hexdigest()[:16]
