"""The value network of the compiled search, run in numba from exported weights (no torch at play time).

For each kingdom k: h_k = relu(b1 + sum of W1's rows at its sparse indices + dense_k @ Wd), the first layer (a
sum of one row per filled square, so it costs a few hundred additions). A network without the board's squares has
a W1 of one (zero) row and reads the dense features only. Its inputs are those of one game (`inputs.Inputs`, named
in its file: Kingdomino's by default); it reads as many of their dense features as Wd has rows (Kingdomino: all, or
those before the draft's). The kingdom's value reads
x = [h_k, max over the other kingdoms of h_j (elementwise), global_k]: z = relu(x @ W2 + b2), then
(win logit, margin / MARGIN_UNIT) = z @ W3 + b3. Its utility (as the search's final utilities):
(1 - margin_weight) * sigmoid(win logit) + margin_weight * (1 + tanh(margin / margin_softness)) / 2.

`training.csearch_net` defines the same network in torch, trains it and writes these weights.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit

from kingdomino_env.files import check_regular_file
from kingdomino_env.rules import Rules

from .evaluate import utility
from .inputs import BY_NAME, KINGDOMINO, Inputs, inputs_of

#: Points the margin output is scaled by.
MARGIN_UNIT = 50.0
#: Format name written in the weights file.
FORMAT = "kingdomino-rl csearch value network"
VERSION = 1


class Weights(NamedTuple):
    """The network's parameters as float64 arrays (numba reads them by name): w1 (sparse + 1, H) with a zero
    padding row last, or (1, H), zero, in a network without the board's squares; wd (D, H) for the first D dense
    features of its inputs (Kingdomino: all, or those before the draft's); b1 (H,),
    w2 (2H + global, H2), b2 (H2,), w3 (H2, 2), b3 (2,)."""

    w1: np.ndarray
    wd: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    w3: np.ndarray
    b3: np.ndarray

    @property
    def reads_squares(self) -> bool:
        """Whether the network reads the board's squares (its first layer has a row per square and kind)."""
        return self.w1.shape[0] > 1


def empty_weights(frame: int, hidden: int = 32, hidden2: int = 32, squares: bool = True, dense: int | None = None,
                  inputs: Inputs = KINGDOMINO) -> Weights:
    """Zero weights of the network's shapes for a frame of S x S squares and a game's `inputs` (a network that
    values every position alike); without `squares`, of a network that reads no board squares; reading the first
    `dense` dense features (all by default)."""
    dense = len(inputs.dense) if dense is None else dense
    return Weights(np.zeros((inputs.sparse_size(frame) + 1 if squares else 1, hidden)), np.zeros((dense, hidden)),
                   np.zeros(hidden), np.zeros((2 * hidden + len(inputs.globals), hidden2)), np.zeros(hidden2),
                   np.zeros((hidden2, 2)), np.zeros(2))


@njit(cache=True, inline="always")
def forward(w, indices, dense, glob, out):
    """out (K, 2): each kingdom's (win logit, margin / MARGIN_UNIT) from its inputs (`features.game_features`)."""
    kingdoms = indices.shape[0]
    hidden = w.b1.shape[0]
    h = np.empty((kingdoms, hidden))
    for k in range(kingdoms):
        for j in range(hidden):
            h[k, j] = w.b1[j]
        for i in range(indices.shape[1] if w.w1.shape[0] > 1 else 0):
            row = indices[k, i]
            if row == w.w1.shape[0] - 1:
                break
            for j in range(hidden):
                h[k, j] += w.w1[row, j]
        for f in range(dense.shape[1]):
            x = dense[k, f]
            if x != 0.0:
                for j in range(hidden):
                    h[k, j] += x * w.wd[f, j]
        for j in range(hidden):
            h[k, j] = max(h[k, j], 0.0)
    x = np.empty(2 * hidden + glob.shape[1])
    z = np.empty(w.b2.shape[0])
    for k in range(kingdoms):
        for j in range(hidden):
            x[j] = h[k, j]
            best = -1e30 if kingdoms > 1 else 0.0
            for o in range(kingdoms):
                if o != k and h[o, j] > best:
                    best = h[o, j]
            x[hidden + j] = best
        for g in range(glob.shape[1]):
            x[2 * hidden + g] = glob[k, g]
        for j in range(z.shape[0]):
            z[j] = w.b2[j]
        for i in range(x.shape[0]):
            xi = x[i]
            if xi != 0.0:
                for j in range(z.shape[0]):
                    z[j] += xi * w.w2[i, j]
        for o in range(2):
            acc = w.b3[o]
            for j in range(z.shape[0]):
                acc += max(z[j], 0.0) * w.w3[j, o]
            out[k, o] = acc


@njit(cache=True, inline="always")
def utilities_from(out, margin_weight, margin_softness, u):
    """u[k]: kingdom k's utility from the network's outputs `out` (K, 2)."""
    for k in range(out.shape[0]):
        u[k] = utility(1.0 / (1.0 + np.exp(-out[k, 0])), out[k, 1] * MARGIN_UNIT, margin_weight, margin_softness)


@njit(cache=True, inline="always")
def outcome_of(out, k):
    """(win probability, margin in points) of kingdom k from the network's outputs `out` (K, 2)."""
    return 1.0 / (1.0 + np.exp(-out[k, 0])), out[k, 1] * MARGIN_UNIT


#: Where the shipped value networks are, by (frame, players).
MODELS = Path(__file__).resolve().parent.parent / "models"


def shipped_weights(rules: Rules) -> Path | None:
    """The shipped value network for the variant's game, frame and player count, or None where there is none."""
    size = f"{rules.frame}_{rules.players}p"
    path = MODELS / f"csearch_{size if rules.game == 'kingdomino' else rules.game + '_' + size}.npz"
    return path if path.is_file() else None


def save_weights(path: str | Path, weights: Weights, meta: dict) -> Path:
    """Write `weights` and `meta` to one .npz file; the path written. meta holds the frame and players it plays,
    the game whose inputs it reads (`inputs`, a name of `inputs.BY_NAME`; Kingdomino's where it is missing), what it
    was trained on, and optionally the share of a Full Greedy playout in leaf values it plays best with
    (`playout_mix`, from 0 to 1; read by `agent.CompiledSearchAgent`)."""
    path = Path(path)
    header = json.dumps({"format": FORMAT, "version": VERSION, **meta})
    arrays = {name: np.asarray(value, dtype=np.float32) for name, value in weights._asdict().items()}
    with open(path, "wb") as f:
        np.savez_compressed(f, meta=np.array(header), **arrays)
    return path


#: The most bytes a value network file may hold unpacked (the shipped ones hold well under a megabyte).
MAX_WEIGHTS_BYTES = 64 << 20


def check_npz(path: Path, what: str, max_bytes: int) -> None:
    """ValueError unless `path` is a regular file holding an .npz archive of at most `max_bytes` unpacked: checked
    before anything is read, so that a folder, a FIFO or a file declaring huge arrays fails at once."""
    check_regular_file(path, what, 2 * max_bytes + (1 << 20))  # packed: at most the arrays and the archive's headers
    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(entry.file_size for entry in archive.infolist())
    except (OSError, zipfile.BadZipFile) as err:
        raise ValueError(f"{path} is not {what}: {err}") from None
    if unpacked > max_bytes:
        raise ValueError(f"{path} unpacks to {unpacked} bytes; {what} holds at most {max_bytes}")


def load_weights(path: str | Path) -> tuple[Weights, dict]:
    """(weights, meta) from a file `save_weights` wrote; ValueError naming what is wrong otherwise."""
    path = Path(path)
    check_npz(path, "a csearch value network", MAX_WEIGHTS_BYTES)
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            arrays = {name: np.ascontiguousarray(data[name], dtype=np.float64) for name in Weights._fields}
    except (OSError, ValueError, KeyError, json.JSONDecodeError) as err:
        raise ValueError(f"{path} is not a csearch value network: {err}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        found = meta.get("format") if isinstance(meta, dict) else meta
        raise ValueError(f"{path} is not a csearch value network (format {found!r})")
    if not all(isinstance(meta.get(key), int) and meta[key] > 0 for key in ("frame", "players")):
        raise ValueError(f"{path}: its metadata must give the frame and players as whole numbers, got "
                         f"{meta.get('frame')!r} and {meta.get('players')!r}")
    mix = meta.get("playout_mix", 0.0)
    if isinstance(mix, bool) or not isinstance(mix, (int, float)) or not 0.0 <= mix <= 1.0:
        raise ValueError(f"{path}: its playout_mix must be a number from 0 to 1, got {mix!r}")
    named = meta.get("inputs", KINGDOMINO.name)
    inputs = BY_NAME.get(named) if isinstance(named, str) else None
    if inputs is None:
        raise ValueError(f"{path}: its inputs must be one of {', '.join(BY_NAME)}, got {meta.get('inputs')!r}")
    weights = Weights(**arrays)
    hidden, hidden2 = weights.b1.shape[0], weights.b2.shape[0]
    widths = inputs.dense_widths
    if weights.wd.ndim != 2 or weights.wd.shape[0] not in widths:
        raise ValueError(f"{path}: weights wd have shape {weights.wd.shape}, expected "
                         f"{' or '.join(f'({w}, {hidden})' for w in widths[::-1])} ({inputs.name}'s dense features)")
    expected = empty_weights(int(meta["frame"]), hidden, hidden2, squares=weights.reads_squares,
                             dense=weights.wd.shape[0], inputs=inputs)
    for name, want, got in zip(Weights._fields, expected, weights, strict=True):
        if want.shape != got.shape:
            raise ValueError(f"{path}: weights {name} have shape {got.shape}, expected {want.shape}")
    if (weights.w1[-1] != 0).any():
        raise ValueError(f"{path}: the padding row of w1 must be zero")
    return weights, meta


def check_plays(meta: dict, rules: Rules, name: str) -> None:
    """ValueError unless the network of metadata `meta` values positions of `rules`: its game's inputs, frame and
    player count."""
    game = meta.get("inputs", KINGDOMINO.name)
    if game != inputs_of(rules).name:
        raise ValueError(f"{name}: its value network reads {game} positions, not {rules.title_in_text}'s")
    if meta["frame"] != rules.frame or meta["players"] != rules.players:
        raise ValueError(f"{name}: its value network was trained for {meta['players']}-player games on a "
                         f"{meta['frame']}x{meta['frame']} frame, not {rules.players}-player games on a "
                         f"{rules.frame}x{rules.frame} frame")
