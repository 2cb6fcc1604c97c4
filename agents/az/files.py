"""Network files of `az` agents: a zip archive holding `meta.json` (what the network plays, its shape, how it
was trained) and `weights.pt` (a torch state dict). The metadata is read without torch, so an agent spec can be
checked against a variant before any network is loaded.

meta.json: {"format": "kingdomino-az", "version": 1, "game": "kingdomino" | "queendomino" | "royal_wedding",
"frame": S, "players": [2, ...] (the player counts it was trained for), "config": {"channels", "blocks",
"hidden"}, "observation": [[block, shape, entry names], ...], "trained": {...free-form: variants, games, steps}}. A
file without "game" is a Kingdomino network. "observation" is the observation layout the network was trained on
(`ObservationLayout.signature()` of its game's variant for its frame and first player count, `trained_variant`); a
file whose layout differs from this version's is refused, since its inputs would be misread. Files without it
were written before the layout was recorded, on the layout of this version.
A Kingdomino network plays every Kingdomino variant of its frame (5x5 kingdoms: S = 9; the Mighty Duel: S = 13);
the shipped ones are chosen by frame and player count (`SHIPPED`). A Queendomino or Royal Wedding network plays
every variant of its game, whatever the frame (its layers are convolutions and pooled vectors; `frame` is the one
it was trained on); the shipped ones are chosen by game (`SHIPPED_QUEEN`).

`read_info` checks the whole file before any network is built, still without torch: the file must be a regular
file of at most `MAX_FILE_BYTES`; its declared architecture (game, channels, blocks, hidden) fixes the network's
tensors (`tensor_sizes`), which must hold at most `MAX_PARAMETERS` numbers; and weights.pt, a torch archive
(a zip of data.pkl and one data/N entry per tensor), must be intact (every entry's checksum) and store exactly those
tensors' sizes. So a file declaring an absurd architecture fails before anything is allocated, and a file whose
weights are damaged or of another architecture fails when its spec is checked, before any game starts.
`load_network` then compares each stored tensor's name and shape with the declared network's before building it.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from kingdomino_env.files import FileCheckError, check_regular_file, write_atomic
from kingdomino_env.rules import GAME_TITLES, GAMES, Rules, short_repr

FORMAT = "kingdomino-az"
VERSION = 1
SUFFIX = ".az"
MODELS = Path(__file__).resolve().parent.parent / "models"
#: The shipped networks, by (frame, players).
SHIPPED: dict[tuple[int, int], Path] = {
    (9, 2): MODELS / "az_2p.az",
    (9, 3): MODELS / "az_3p.az",
    (9, 4): MODELS / "az_4p.az",
    (13, 2): MODELS / "az_duel.az",
}
#: The shipped networks of Queendomino and the Royal Wedding, by game.
SHIPPED_QUEEN: dict[str, Path] = {
    "queendomino": MODELS / "az_queendomino_2p.az",
    "royal_wedding": MODELS / "az_royal_wedding_4p.az",
}
#: The games whose networks play only the frame they were trained on (shipped by frame and player count,
#: `SHIPPED`); a network of another game plays every variant of its game (`SHIPPED_QUEEN`).
FRAME_BOUND: frozenset[str] = frozenset({"kingdomino"})
#: The player counts each game allows (a network's "players" must be among them).
GAME_PLAYERS: dict[str, tuple[int, ...]] = {"kingdomino": (2, 3, 4), "queendomino": (2, 3, 4),
                                            "royal_wedding": (3, 4, 5, 6, 7, 8)}
_MAX_META = 1 << 20
#: The largest network file read (the shipped ones are about a megabyte).
MAX_FILE_BYTES = 256 << 20
#: The most numbers (float32 parameters) a network file's declared architecture may hold.
MAX_PARAMETERS = MAX_FILE_BYTES // 4
#: Bytes per stored parameter (float32).
PARAMETER_BYTES = 4
_STORAGE = re.compile(r"(?:^|/)data/(\d+)$")


@dataclass(frozen=True)
class NetworkInfo:
    """A network file's metadata."""

    frame: int
    players: tuple[int, ...]
    config: dict[str, int]
    trained: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    game: str = "kingdomino"

    def plays(self, rules: Rules) -> bool:
        """Whether the network plays `rules`: a variant of its game (of a `FRAME_BOUND` game, with the same
        frame)."""
        return rules.game == self.game and (self.game not in FRAME_BOUND or rules.frame == self.frame)

    def describe(self) -> str:
        players = "/".join(str(p) for p in self.players)
        if self.game not in FRAME_BOUND:
            return f"every {GAME_TITLES[self.game]} variant (trained for {players} players)"
        board = {9: "5x5 kingdoms", 13: "7x7 kingdoms (Mighty Duel)"}.get(self.frame, f"a {self.frame}-square frame")
        return f"{GAME_TITLES[self.game]} with {board} (trained for {players} players)"


def shipped_network(rules: Rules) -> Path:
    """The shipped network for a variant."""
    return SHIPPED[(rules.frame, rules.players)] if rules.game in FRAME_BOUND else SHIPPED_QUEEN[rules.game]


def _check_meta(meta: Any, path: Path) -> NetworkInfo:
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ValueError(f"{path} is not an az network file (meta.json lacks format {FORMAT!r})")
    if meta.get("version") != VERSION:
        raise ValueError(f"{path}: az network format version {meta.get('version')!r}; this version reads {VERSION}")
    game, frame, players, config = (meta.get("game", "kingdomino"), meta.get("frame"), meta.get("players"),
                                    meta.get("config"))
    if game not in GAMES:
        raise ValueError(f"{path}: game must be one of {', '.join(GAMES)}, got {game!r}")
    if frame not in (9, 13):
        raise ValueError(f"{path}: frame must be 9 or 13, got {frame!r}")
    allowed = GAME_PLAYERS[game]
    if not isinstance(players, list) or not players or any(p not in allowed for p in players):
        raise ValueError(f"{path}: players must be a non-empty list of {', '.join(map(str, allowed))} "
                         f"({Rules(game=game, players=allowed[0]).title_in_text}), got {players!r}")
    keys = ("channels", "blocks", "hidden")
    if not isinstance(config, dict) or any(not isinstance(config.get(k), int) or not 0 < config[k] <= 1024
                                           for k in keys):
        raise ValueError(f"{path}: config must give channels, blocks and hidden as integers in 1..1024")
    trained = meta.get("trained", {})
    trained = trained if isinstance(trained, dict) else {}
    info = NetworkInfo(frame, tuple(players), {k: config[k] for k in keys}, trained, game)
    if "observation" in meta:
        _check_layout(meta["observation"], info, path)
    return info


def trained_variant(game: str, frame: int, players: int) -> Rules:
    """The variant whose observation layout a network file records: its game, with `players` players, on its frame
    (a Kingdomino network of the 13-square frame plays the Mighty Duel)."""
    if game in FRAME_BOUND:
        return Rules(players=players, mighty_duel=frame == 13)
    return Rules(game=game, players=players)


def observation_signature(game: str, frame: int, players: int) -> list[list]:
    """The observation layout that a network of `game` on `frame` trained for `players` players reads."""
    return trained_variant(game, frame, players).observation_layout.signature()


def _check_layout(recorded: Any, info: NetworkInfo, path: Path) -> None:
    """Refuse a network trained on an observation layout other than this version's (its inputs would be misread)."""
    try:
        expected = observation_signature(info.game, info.frame, info.players[0])
    except ValueError as err:
        raise ValueError(f"{path}: its game, frame and players name no variant: {err}") from None
    if recorded == expected:
        return
    if not isinstance(recorded, list):
        raise ValueError(f"{path}: observation must be a list of [block, shape, names], got {type(recorded).__name__}")
    ours = [block[0] for block in expected]
    for i, block in enumerate(expected):
        theirs = recorded[i] if i < len(recorded) else None
        if theirs != block:
            found = short_repr(theirs[:2] if isinstance(theirs, list) else theirs)
            raise ValueError(f"{path}: the network was trained on another observation layout: block {i} is {found} "
                             f"in the file, {block[:2]} here (blocks here: {', '.join(ours)}); it cannot play with "
                             "this version's observations")
    raise ValueError(f"{path}: the network was trained on another observation layout: the file has "
                     f"{len(recorded)} blocks, this version {len(expected)} ({', '.join(ours)})")


def tensor_sizes(game: str, config: dict[str, int]) -> list[int]:
    """The number of parameters of each tensor of the network `config` (channels, blocks, hidden) declares for
    `game`, in no particular order: layer arithmetic without torch (a test holds it to `network.make_network`), so
    that a file's declared sizes are checked before a network is built."""
    from kingdomino_env.games.queendomino.kernels import Q_TILE_FEATURES

    from . import features, queen_features

    c, h, blocks = config["channels"], config["hidden"], config["blocks"]
    module = features if game in FRAME_BOUND else queen_features
    planes, slot, extras = module.PLANES, module.SLOT_FEATURES, module.EXTRAS

    def layer(inputs: int, outputs: int, kernel: int = 1) -> list[int]:
        return [inputs * outputs * kernel * kernel, outputs]  # weight, bias

    sizes = (layer(slot, h) + layer(h, h) + layer(h + extras, h) + layer(h, h) + layer(planes, c, 3) + layer(h, c)
             + layer(c, c, 3) * 2 * blocks + layer(c, 4) + layer(h + 2 * c, h) + layer(h, 1)
             + layer(2 * h + 2 * c, h) + layer(h, 1) + layer(h + 2 * c, h) + layer(h, 2))
    if game not in FRAME_BOUND:
        sizes += (layer(c, 1) + layer(c, c) + layer(Q_TILE_FEATURES + h + 2 * c, h) + layer(h, c) + layer(c, 1)
                  + layer(h + 2 * c, h) + layer(h, 1))
    return sizes


def _declared(info: NetworkInfo, path: Path) -> list[int]:
    """The declared network's tensor sizes; ValueError if they hold more than `MAX_PARAMETERS` numbers."""
    sizes = tensor_sizes(info.game, info.config)
    if sum(sizes) > MAX_PARAMETERS:
        config = ", ".join(f"{k} {v}" for k, v in info.config.items())
        raise ValueError(f"{path}: its config ({config}) declares a network of {sum(sizes)} parameters; an az network "
                         f"file holds at most {MAX_PARAMETERS}")
    return sizes


def _check_weights(data: bytes, sizes: list[int], path: Path) -> None:
    """ValueError unless `data` (weights.pt) is an intact torch archive storing tensors of exactly `sizes`."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as weights:
            damaged = weights.testzip()
            entries = weights.infolist()
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError) as err:
        raise ValueError(f"{path}: its weights.pt is not a torch weights archive ({err})") from None
    if damaged is not None:
        raise ValueError(f"{path}: its weights.pt is damaged (entry {damaged} fails its checksum)")
    if not any(e.filename.endswith("/data.pkl") or e.filename == "data.pkl" for e in entries):
        raise ValueError(f"{path}: its weights.pt is not a torch weights archive (no data.pkl)")
    stored = sorted(e.file_size for e in entries if _STORAGE.search(e.filename))
    expected = sorted(PARAMETER_BYTES * n for n in sizes)
    if stored != expected:
        raise ValueError(f"{path}: its weights.pt stores {len(stored)} tensors of {sum(stored)} bytes; its config "
                         f"declares {len(expected)} tensors of {sum(expected)} bytes (the weights are damaged or of "
                         "another network)")


@lru_cache(maxsize=64)
def _read_info(path: Path, mtime: float, size: int) -> NetworkInfo:
    try:
        with zipfile.ZipFile(path) as archive:
            entry = archive.getinfo("meta.json")
            if entry.file_size > _MAX_META:
                raise ValueError(f"{path}: meta.json is larger than {_MAX_META} bytes")
            meta = json.loads(archive.read(entry).decode("utf-8"))
            weights = archive.getinfo("weights.pt")
            info = _check_meta(meta, path)
            sizes = _declared(info, path)
            if weights.file_size > MAX_FILE_BYTES:
                raise ValueError(f"{path}: its weights.pt unpacks to {weights.file_size} bytes; an az network file "
                                 f"holds at most {MAX_FILE_BYTES}")
            data = archive.read(weights)
    except KeyError:
        raise ValueError(f"{path} is not an az network file (it needs meta.json and weights.pt)") from None
    except (zipfile.BadZipFile, UnicodeDecodeError, json.JSONDecodeError, OSError, RecursionError, EOFError,
            RuntimeError, NotImplementedError) as err:  # damaged, truncated, encrypted or oddly compressed
        raise ValueError(f"{path} is not an az network file: {err}") from None
    _check_weights(data, sizes, path)
    return info


def read_info(path: str | Path) -> NetworkInfo:
    """The metadata of the network file at `path`, its weights checked against it (cached per file version);
    ValueError if it is not an intact network file."""
    p = Path(path).expanduser()
    if not p.exists():
        raise ValueError(f"no az network file at {str(path)!r}")
    try:
        check_regular_file(p, "the az network file", MAX_FILE_BYTES)
    except FileCheckError as err:
        raise ValueError(str(err)) from None
    stat = p.stat()
    return _read_info(p.resolve(), stat.st_mtime, stat.st_size)


def save_network(path: str | Path, net: Any, players: list[int], trained: dict[str, Any] | None = None) -> None:
    """Write `net` (an `AZNet` or `QueenAZNet`) to `path` atomically."""
    import torch

    weights = io.BytesIO()
    torch.save(net.state_dict(), weights)
    players = sorted(players)
    meta = {"format": FORMAT, "version": VERSION, "game": net.game, "frame": net.frame, "players": players,
            "config": net.config.to_dict(), "observation": observation_signature(net.game, net.frame, players[0]),
            "trained": trained or {}}
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("meta.json", json.dumps(meta, indent=1))
        archive.writestr("weights.pt", weights.getvalue())
    write_atomic(Path(path), lambda tmp: tmp.write_bytes(data.getvalue()))


def load_network(path: str | Path) -> tuple[Any, NetworkInfo]:
    """(network in eval mode: `AZNet` or `QueenAZNet` by the file's game, its metadata) from a network file;
    ValueError if the file is not one."""
    import torch

    from .network import NetConfig, make_network

    info = read_info(path)
    with torch.device("meta"):  # the declared network's shapes, nothing allocated
        shapes = {name: tuple(t.shape) for name, t in
                  make_network(info.game, info.frame, NetConfig(**info.config)).state_dict().items()}
    try:
        with zipfile.ZipFile(Path(path).expanduser()) as archive:
            state = torch.load(io.BytesIO(archive.read("weights.pt")), map_location="cpu", weights_only=True)
    except Exception as err:  # torch raises many kinds for damaged weights
        raise ValueError(f"cannot load the az network {path}: {err}") from None
    stored = {name: tuple(t.shape) for name, t in state.items() if isinstance(t, torch.Tensor)} \
        if isinstance(state, dict) else {}
    if stored != shapes:
        wrong = sorted(set(shapes) ^ set(stored)) or sorted(k for k in shapes if shapes[k] != stored[k])
        name = wrong[0]
        raise ValueError(f"cannot load the az network {path}: its weights do not match its declared network (tensor "
                         f"{name!r}: {stored.get(name, 'missing')} stored, {shapes.get(name, 'none')} declared)")
    net = make_network(info.game, info.frame, NetConfig(**info.config))
    try:
        net.load_state_dict(state)
    except Exception as err:  # torch raises many kinds for mismatched weights
        raise ValueError(f"cannot load the az network {path}: {err}") from None
    net.eval()
    return net, info
