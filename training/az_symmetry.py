"""The eight symmetries of a kingdom, for augmenting training positions: `az`'s planes and actions, and the
sparse squares the csearch value network reads.

A kingdom lives in an S x S frame with its castle at the centre, and no rule of Kingdomino, Queendomino or the
Royal Wedding depends on the kingdom's orientation: placement, scoring, both bonuses, every quest (its lines run
in all four directions) and the buildings read only adjacency and the N x N bound. So rotating or reflecting the
frame about the castle (the dihedral group of the square, 8 elements) maps a position to one of equal value whose
best moves are the mapped moves. Training on a random symmetry of each position gives the network eight times the
data it would otherwise see, as AlphaGo Zero did on Go's board.

Symmetry k (0..7) rotates by k % 4 quarter turns, then transposes when k >= 4. It acts on a position's kingdom
planes (`transform_planes`), on the action layout (`action_sources`): a placement's first square moves with
the frame and its direction turns with it; in Queendomino a build's square moves too; every other action
(discard, picks, knights on the placed domino's squares, Dragon, PASS) stays; and on sparse square indices
(`sparse_maps`). A kingdom's value does not depend on another kingdom's orientation either, so each kingdom of a
position may take a symmetry of its own.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from kingdomino_env.rules import DIRECTIONS, Rules

N_SYMMETRIES = 8


def transform_planes(planes: np.ndarray, k: int) -> np.ndarray:
    """Symmetry `k` of arrays whose last two axes are an S x S frame."""
    out = np.rot90(planes, k % 4, axes=(-2, -1))
    return out.swapaxes(-1, -2) if k >= 4 else out


def _square_sources(s: int, k: int) -> np.ndarray:
    """(S^2,) for each square of the transformed frame, the square of the original it shows."""
    return transform_planes(np.arange(s * s).reshape(s, s), k).reshape(-1)


def _direction_sources(k: int) -> np.ndarray:
    """(4,) for each direction after symmetry `k`, the original direction it comes from."""
    sources = np.zeros(4, dtype=np.int64)
    for d, (dr, dc) in enumerate(DIRECTIONS):
        grid = np.zeros((3, 3), dtype=np.int64)
        grid[1 + dr, 1 + dc] = 1
        r, c = np.argwhere(transform_planes(grid, k))[0]
        sources[DIRECTIONS.index((int(r) - 1, int(c) - 1))] = d
    return sources


def sparse_maps(s: int, kinds: int) -> np.ndarray:
    """(8, S^2 * kinds + 1): for each symmetry, where each sparse index (r * S + c) * kinds + kind of a square of
    an S x S frame goes; the padding index (the last) stays."""
    maps = np.empty((N_SYMMETRIES, s * s * kinds + 1), dtype=np.int64)
    for k in range(N_SYMMETRIES):
        goes_to = np.empty(s * s, dtype=np.int64)
        goes_to[_square_sources(s, k)] = np.arange(s * s)
        maps[k, :-1] = (goes_to[:, None] * kinds + np.arange(kinds)[None, :]).reshape(-1)
        maps[k, -1] = s * s * kinds
    return maps


@lru_cache(maxsize=64)
def action_sources(rules: Rules, k: int) -> np.ndarray:
    """(A,) for each action id after symmetry `k`, the original action it comes from: a policy or legal mask over
    the action layout maps as ``new = old[..., action_sources(rules, k)]``."""
    if not 0 <= k < N_SYMMETRIES:
        raise ValueError(f"symmetry must be 0..{N_SYMMETRIES - 1}, got {k}")
    s = rules.frame
    squares, directions = _square_sources(s, k), _direction_sources(k)
    sources = np.arange(rules.n_actions)
    sources[:rules.n_place_actions] = (squares[:, None] * 4 + directions[None, :]).reshape(-1)
    if rules.has_buildings:
        builds = rules.first_build_action + np.arange(rules.first_dragon_action - rules.first_build_action)
        slot, square = np.divmod(builds - rules.first_build_action, s * s)
        sources[builds] = rules.first_build_action + slot * s * s + squares[square]
    sources.flags.writeable = False
    return sources


def augment(planes: np.ndarray, policy: np.ndarray, mask: np.ndarray, rules: Rules, symmetries: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Planes (B, K, C, S, S), policy targets (B, A) and legal masks (B, A) of B positions of `rules`, each under
    its own symmetry (B,) in 0..7 (every kingdom of a position under the same one)."""
    planes, policy, mask = planes.copy(), policy.copy(), mask.copy()
    for k in np.unique(symmetries):
        rows = np.flatnonzero(symmetries == k)
        sources = action_sources(rules, int(k))
        planes[rows] = transform_planes(planes[rows], int(k))
        policy[rows] = policy[rows][:, sources]
        mask[rows] = mask[rows][:, sources]
    return planes, policy, mask
