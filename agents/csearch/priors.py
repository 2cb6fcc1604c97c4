"""The compiled search's priors over the legal actions: a logit per action, linear in a few features of the action
that cost some array reads each, so that every node of the search can have them.

A placement's features: the neighbours its two squares join (same terrain, or the castle), the crowns it lays next
to its own terrain, the crowns it lays apart from it, the empty squares beside it that it leaves with no empty
neighbour the frame still allows (holes no domino can fill), and how much it grows the kingdom's bounding box
(height plus width). The discard has a feature of its own. A pick's: the domino's crowns, its slot in the line
(0 first to 1 last, the order of the next round's turns) and how many of its two terrains the kingdom already
has. In Queendomino's optional steps, passing has a feature of its own and every other action none.

The logit is the dot product of the features (`FEATURES`, in that order) with a weight per feature. `HAND_WEIGHTS`
are set by hand; `load` reads weights fitted to searches' root visits (`training.csearch_priors fit` writes them).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
from numba import njit

from kingdomino_env.files import read_regular_file, write_text_atomic
from kingdomino_env.games.board import decode_placement
from kingdomino_env.games.dominoes import CASTLE, EMPTY

#: A placement's features, then the discard's, then a pick's, then Queendomino's pass (see the module docstring).
PLACEMENT_FEATURES = ("joins", "crowns_joined", "crowns_alone", "holes", "growth")
PICK_FEATURES = ("pick_crowns", "pick_slot", "pick_fits")
FEATURES = PLACEMENT_FEATURES + ("discard",) + PICK_FEATURES + ("pass",)
_HOLES = FEATURES.index("holes")
_DISCARD = FEATURES.index("discard")
_PICK = FEATURES.index("pick_crowns")
_FITS = FEATURES.index("pick_fits")
_PASS = FEATURES.index("pass")
#: The hand-set weights: half a logit per neighbour joined and per crown laid next to its own terrain, 0.3 per crown
#: of a picked domino, nothing else.
HAND_WEIGHTS = np.array([0.5, 0.5, 0, 0, 0, 0, 0.3, 0, 0, 0], dtype=np.float64)
#: What a priors file says it is (`save`, `load`).
FORMAT = "kingdomino-rl csearch priors"
#: The largest weight a priors file may hold: logits far beyond it would make every prior 0 or 1.
MAX_WEIGHT = 100.0
#: Room for every terrain code of both games in the scratch of the terrains a kingdom holds.
TERRAIN_CODES = 16
#: The largest priors file read (a few hundred bytes are expected).
MAX_FILE_BYTES = 1 << 16

_DR = np.array([0, 1, 0, -1], dtype=np.int64)
_DCOL = np.array([1, 0, -1, 0], dtype=np.int64)


@njit(cache=True, inline="always")
def _joins(terrain, r, c, t, skip_r, skip_c):
    """Neighbours of (r, c), other than (skip_r, skip_c), of terrain t or the castle."""
    s = terrain.shape[0]
    count = 0
    for d in range(4):
        r2 = r + _DR[d]
        c2 = c + _DCOL[d]
        if 0 <= r2 < s and 0 <= c2 < s and not (r2 == skip_r and c2 == skip_c):
            if terrain[r2, c2] == t or terrain[r2, c2] == CASTLE:
                count += 1
    return count


@njit(cache=True, inline="always")
def _open(terrain, a, b, r, c, r2, c2, lo_r, hi_r, lo_c, hi_c, n):
    """Whether (a, b) is an empty square, not (r, c) or (r2, c2), that a kingdom with rows lo_r..hi_r and columns
    lo_c..hi_c can still fill within an n x n frame."""
    s = terrain.shape[0]
    if not (0 <= a < s and 0 <= b < s) or (a == r and b == c) or (a == r2 and b == c2):
        return False
    if terrain[a, b] != EMPTY:
        return False
    return max(hi_r, a) - min(lo_r, a) < n and max(hi_c, b) - min(lo_c, b) < n


@njit(cache=True)
def _holes(terrain, bbox, n, r, c, r2, c2):
    """The empty squares beside (r, c) and (r2, c2), still fillable within the frame, that a domino there leaves
    with no open neighbour (`_open`)."""
    lo_r, hi_r = min(bbox[0], r, r2), max(bbox[1], r, r2)
    lo_c, hi_c = min(bbox[2], c, c2), max(bbox[3], c, c2)
    count = 0
    for side in range(2):
        sr, sc = (r, c) if side == 0 else (r2, c2)
        for d in range(4):
            a = sr + _DR[d]
            b = sc + _DCOL[d]
            if not _open(terrain, a, b, r, c, r2, c2, lo_r, hi_r, lo_c, hi_c, n):
                continue
            enclosed = True
            for e in range(4):
                if _open(terrain, a + _DR[e], b + _DCOL[e], r, c, r2, c2, lo_r, hi_r, lo_c, hi_c, n):
                    enclosed = False
                    break
            if enclosed:
                count += 1
    return count


@njit(cache=True, inline="always")
def placement_features(terrain, bbox, n, domino, dt, dc, action, holes):
    """The `PLACEMENT_FEATURES` of placing `domino` by placement `action` on the kingdom `terrain` with bounding
    box `bbox` in an n x n frame (holes counted only when `holes`, else 0)."""
    s = terrain.shape[0]
    t1, t2 = dt[domino, 0], dt[domino, 1]
    k1, k2 = dc[domino, 0], dc[domino, 1]
    r, c, r2, c2 = decode_placement(action, s)
    j1 = _joins(terrain, r, c, t1, r2, c2)
    j2 = _joins(terrain, r2, c2, t2, r, c)
    joined = k1 * min(j1, 1) + k2 * min(j2, 1)
    alone = k1 * (j1 == 0) + k2 * (j2 == 0)
    grown = (max(bbox[1], r, r2) - min(bbox[0], r, r2) + max(bbox[3], c, c2) - min(bbox[2], c, c2)
             - (bbox[1] - bbox[0] + bbox[3] - bbox[2]))
    return j1 + j2, joined, alone, _holes(terrain, bbox, n, r, c, r2, c2) if holes else 0, grown


@njit(cache=True)
def _terrains_held(terrain, held):
    """held[t]: whether the kingdom `terrain` has a square of terrain t."""
    held[:] = False
    for r in range(terrain.shape[0]):
        for c in range(terrain.shape[1]):
            held[terrain[r, c]] = True


@njit(cache=True, inline="always")
def pick_features(next_line, slot, dt, dc, held):
    """The `PICK_FEATURES` of picking slot `slot` of `next_line` for a kingdom holding the terrains `held`."""
    picked = next_line[slot]
    line = next_line.shape[0]
    fits = np.int64(held[dt[picked, 0]]) + np.int64(held[dt[picked, 1]])
    return dc[picked, 0] + dc[picked, 1], slot / max(line - 1, 1), fits


@njit(cache=True)
def domino_logits(terrain, bbox, n, next_line, domino, dt, dc, n_place, weights, held, actions, n_legal, logits):
    """logits[i] for actions[:n_legal]: the placements of `domino` (and the discard) on the kingdom `terrain` with
    bounding box `bbox` in an n x n frame, or, when domino is -1, the picks of `next_line`; dt, dc: the (ids, 2)
    terrain and crowns tables by domino id; weights (`FEATURES`,); held: (terrains,) bool scratch."""
    w = weights
    if domino >= 0:
        holes = w[_HOLES] != 0
        for i in range(n_legal):
            a = actions[i]
            if a == n_place:
                logits[i] = w[_DISCARD]
                continue
            f0, f1, f2, f3, f4 = placement_features(terrain, bbox, n, domino, dt, dc, a, holes)
            logits[i] = w[0] * f0 + w[1] * f1 + w[2] * f2 + w[3] * f3 + w[4] * f4
    else:
        if w[_FITS] != 0:
            _terrains_held(terrain, held)
        for i in range(n_legal):
            f0, f1, f2 = pick_features(next_line, actions[i] - n_place - 1, dt, dc, held)
            logits[i] = w[_PICK] * f0 + w[_PICK + 1] * f1 + w[_PICK + 2] * f2


@njit(cache=True)
def domino_features(terrain, bbox, n, next_line, domino, dt, dc, n_place, held, actions, n_legal, out):
    """out[i] (`FEATURES`,): the features of actions[:n_legal], as `domino_logits` weighs them."""
    out[:n_legal] = 0.0
    if domino >= 0:
        for i in range(n_legal):
            a = actions[i]
            if a == n_place:
                out[i, _DISCARD] = 1.0
                continue
            f = placement_features(terrain, bbox, n, domino, dt, dc, a, True)
            for j in range(len(PLACEMENT_FEATURES)):
                out[i, j] = f[j]
    else:
        _terrains_held(terrain, held)
        for i in range(n_legal):
            out[i, _PICK], out[i, _PICK + 1], out[i, _PICK + 2] = pick_features(next_line, actions[i] - n_place - 1,
                                                                                 dt, dc, held)


@njit(cache=True)
def pass_logits(actions, n_legal, pass_action, weights, logits):
    """logits[i] for the actions[:n_legal] of an optional step: the pass feature's weight for passing, else 0."""
    for i in range(n_legal):
        logits[i] = weights[_PASS] if actions[i] == pass_action else 0.0


@njit(cache=True)
def pass_features(actions, n_legal, pass_action, out):
    """out[i] (`FEATURES`,): the features of the actions[:n_legal] of an optional step."""
    out[:n_legal] = 0.0
    for i in range(n_legal):
        if actions[i] == pass_action:
            out[i, _PASS] = 1.0


def save(path: str | Path, weights: np.ndarray, meta: dict) -> Path:
    """Write `weights` (one per `FEATURES`) and `meta` (what they were fitted on) to the JSON file `path`."""
    weights = np.asarray(weights, dtype=np.float64)
    check_weights(weights, str(path))
    named = dict(zip(FEATURES, weights.tolist(), strict=True))
    return write_text_atomic(path, json.dumps({"format": FORMAT, "weights": named, **meta}, indent=1) + "\n")


def load(path: str | Path) -> tuple[np.ndarray, dict]:
    """(weights (`FEATURES`,), the file's other fields) of a priors file `save` wrote; ValueError naming the file and
    what is wrong with it (missing, a folder, too large, not such a file, a feature missing or unknown, a weight
    that is not a finite number or beyond `MAX_WEIGHT`)."""
    path = Path(path)
    try:
        stored = json.loads(read_regular_file(path, "a priors file", MAX_FILE_BYTES).decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"{path} is not a priors file: {err}") from None
    if not isinstance(stored, dict) or stored.get("format") != FORMAT or not isinstance(stored.get("weights"), dict):
        raise ValueError(f"{path} is not a priors file: it has no format {FORMAT!r} and weights")
    named = stored.pop("weights")
    missing = [f for f in FEATURES if f not in named]
    unknown = sorted(set(named) - set(FEATURES))
    if missing or unknown:
        raise ValueError(f"{path} is damaged: its weights must name exactly {', '.join(FEATURES)}"
                         + (f"; missing {', '.join(missing)}" if missing else "")
                         + (f"; unknown {', '.join(unknown)}" if unknown else ""))
    values = [named[f] for f in FEATURES]
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in values):
        raise ValueError(f"{path} is damaged: every weight must be a number")
    weights = np.array(values, dtype=np.float64)
    check_weights(weights, str(path))
    stored.pop("format")
    return weights, stored


def check_weights(weights: np.ndarray, where: str) -> None:
    """ValueError unless `weights` is one finite number per feature, each within `MAX_WEIGHT`."""
    if weights.shape != (len(FEATURES),):
        raise ValueError(f"{where}: priors need {len(FEATURES)} weights ({', '.join(FEATURES)}), "
                         f"not {weights.shape}")
    bad = [f"{name}={w}" for name, w in zip(FEATURES, weights.tolist(), strict=True)
           if not math.isfinite(w) or abs(w) > MAX_WEIGHT]
    if bad:
        raise ValueError(f"{where}: every prior weight must be a finite number from -{MAX_WEIGHT:g} to "
                         f"{MAX_WEIGHT:g}, not {', '.join(bad)}")
