"""The manifest of the model files: what each file is, which agents load it, what it was trained on and how strong
it measured.

`agents/models/manifest.json` lists every file in `agents/models/` (shipped with the package: the networks and the
policy that agent specs load) and the kept networks of unfinished training runs (`training/kept/`, in the
repository only, marked `"shipped": false`), each with its SHA-256 digest and size in bytes, so that a damaged or
swapped file is found (`check_files`). Paths are relative to the repository root (an installed package keeps the
`agents/models/` part of that layout). `trained` says what made a file (the run, its variants, iterations and
self-play games, from the file's own metadata and the committed training records); `ratings` gives its standard
ratings where a rating card measured one (`docs/leaderboard/cards/`: the variant, the spec rated, the rating and its
95% interval); a file without a rating card has none.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from kingdomino_env.files import read_regular_file, write_text_atomic

#: The folder of the shipped model files.
MODELS = Path(__file__).resolve().parent / "models"
#: The manifest file.
MANIFEST = MODELS / "manifest.json"
#: The folder the manifest's paths are relative to (the repository root, or site-packages for an install).
ROOT = MODELS.parent.parent
#: Format name and version of the manifest.
FORMAT = "kingdomino-rl model manifest"
VERSION = 1
#: What a listed file may be.
KINDS = ("az network", "csearch value network", "ppo policy", "training config")
#: The most bytes the manifest may hold.
MAX_MANIFEST_BYTES = 1 << 20
_DIGEST = re.compile(r"[0-9a-f]{64}")


def is_sha256(text: object) -> bool:
    """Whether `text` is a SHA-256 digest as `sha256_of` writes it: 64 lowercase hex digits."""
    return isinstance(text, str) and _DIGEST.fullmatch(text) is not None


@dataclass(frozen=True)
class ModelEntry:
    """One listed file: `path` (relative to the repository root), whether it ships, its digest and size, its kind,
    the agent specs that load it and what they play with it, how it was trained and its measured ratings."""

    path: str
    shipped: bool
    sha256: str
    bytes: int
    kind: str
    specs: list[str]
    plays: str
    trained: dict[str, Any]
    ratings: list[dict[str, Any]] = field(default_factory=list)


def sha256_of(path: str | Path) -> str:
    """The SHA-256 digest of a file, in hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _check_rating(where: str, rating: Any) -> None:
    """ValueError unless `rating` is an object of a variant, a spec, a rating and its interval around it."""
    if not isinstance(rating, dict) or not isinstance(rating.get("variant"), str) \
            or not isinstance(rating.get("spec"), str):
        raise ValueError(f"{where}: a rating must be an object with a variant and a spec, got {rating!r}")
    value, interval = rating.get("rating"), rating.get("interval")
    numbers = [value, *interval] if isinstance(interval, list) and len(interval) == 2 else []
    if not numbers or any(isinstance(n, bool) or not isinstance(n, int | float) for n in numbers) \
            or not numbers[1] <= value <= numbers[2]:
        raise ValueError(f"{where}: a rating must give a number and its [low, high] interval around it, got "
                         f"rating {value!r}, interval {interval!r}")


def parse_manifest(data: Any, where: str = "the manifest") -> list[ModelEntry]:
    """The entries of a manifest's JSON data; ValueError naming the entry and the key that is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise ValueError(f"{where} is not a model manifest (format {FORMAT!r}, version {VERSION})")
    models = data.get("models")
    if not isinstance(models, list):
        raise ValueError(f"{where}: models must be a list of entries")
    keys = set(ModelEntry.__dataclass_fields__)
    entries, seen = [], set()
    for i, raw in enumerate(models):
        name = raw.get("path") if isinstance(raw, dict) else None
        place = f"{where}, entry {i} ({name})"
        if not isinstance(raw, dict) or set(raw) != keys:
            found = sorted(raw) if isinstance(raw, dict) else raw
            raise ValueError(f"{place}: an entry has exactly the keys {', '.join(sorted(keys))}; got {found!r}")
        path = raw["path"]
        if not isinstance(path, str) or not path or path.startswith("/") or ".." in Path(path).parts:
            raise ValueError(f"{place}: path must be relative to the repository root, without '..'")
        if path in seen:
            raise ValueError(f"{place}: listed twice")
        seen.add(path)
        if not isinstance(raw["shipped"], bool) or raw["shipped"] != path.startswith("agents/models/"):
            raise ValueError(f"{place}: shipped must be true exactly for files in agents/models/")
        if not is_sha256(raw["sha256"]):
            raise ValueError(f"{place}: sha256 must be 64 lowercase hex digits, got {raw['sha256']!r}")
        if isinstance(raw["bytes"], bool) or not isinstance(raw["bytes"], int) or raw["bytes"] < 0:
            raise ValueError(f"{place}: bytes must be a whole number, got {raw['bytes']!r}")
        if raw["kind"] not in KINDS:
            raise ValueError(f"{place}: kind must be one of {', '.join(KINDS)}, got {raw['kind']!r}")
        if not isinstance(raw["specs"], list) or not all(isinstance(s, str) and s for s in raw["specs"]):
            raise ValueError(f"{place}: specs must be a list of agent specs")
        if not isinstance(raw["plays"], str) or not isinstance(raw["trained"], dict):
            raise ValueError(f"{place}: plays must be text and trained an object")
        if not isinstance(raw["ratings"], list):
            raise ValueError(f"{place}: ratings must be a list")
        for rating in raw["ratings"]:
            _check_rating(place, rating)
        entries.append(ModelEntry(**raw))
    return entries


def load_manifest(path: str | Path = MANIFEST) -> list[ModelEntry]:
    """The entries of the manifest file `path`, checked (`parse_manifest`); ValueError naming what is wrong."""
    text = read_regular_file(path, "a model manifest", MAX_MANIFEST_BYTES)
    try:
        data = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"{path} is not JSON: {err}") from None
    return parse_manifest(data, str(path))


def check_files(entries: list[ModelEntry], root: str | Path = ROOT, shipped_only: bool = False) -> list[str]:
    """What is wrong between the manifest and the files ([] when they agree): an entry whose file is missing or
    whose digest or size differ, and a file in `root`/agents/models/ that no entry lists (the manifest aside).
    `shipped_only`: check the shipped files alone (an installed package holds no kept networks)."""
    root = Path(root)
    problems = []
    for entry in entries:
        if shipped_only and not entry.shipped:
            continue
        path = root / entry.path
        if not path.is_file():
            problems.append(f"{entry.path}: listed, but there is no such file")
            continue
        size, digest = path.stat().st_size, sha256_of(path)
        if size != entry.bytes or digest != entry.sha256:
            problems.append(f"{entry.path}: {size} bytes with SHA-256 {digest}; the manifest lists {entry.bytes} "
                            f"bytes with SHA-256 {entry.sha256}")
    listed = {entry.path for entry in entries}
    models = root / "agents" / "models"
    for path in sorted(models.iterdir()) if models.is_dir() else []:
        relative = path.relative_to(root).as_posix()
        if path.name != MANIFEST.name and relative not in listed:
            problems.append(f"{relative}: in agents/models/ but not in the manifest")
    return problems


def write_manifest(entries: list[ModelEntry], path: str | Path = MANIFEST) -> None:
    """Write `entries` as the manifest file `path` (atomically), in a stable form."""
    data = {"format": FORMAT, "version": VERSION, "models": [asdict(entry) for entry in entries]}
    parse_manifest(json.loads(json.dumps(data)), str(path))
    write_text_atomic(path, json.dumps(data, indent=2) + "\n")
