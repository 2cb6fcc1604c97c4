"""Network inputs for Queendomino and the Royal Wedding, from their core observations (read through
`rules.observation_layout`, by block and feature name).

As for Kingdomino (`features`), the shapes depend on neither the player count, the line size nor the board size,
so one network shape serves every variant of both games; the variant is told as flags (players 2..8, teams, the
Royal Wedding). Kingdoms are egocentric (the viewer's first; a team's shared kingdom in team games) and everything
is public information: the unseen dominoes and building tiles are inputs as sets, never their draw order.

* planes (B, K, 49, S, S): per kingdom its 11 observation planes, its score / 100, its 17 kingdom features (coins,
  knights, towers, the Queen, the effects of its buildings, scaled) on constant planes; the viewer's kingdom also
  gets the domino to place (18 planes) and the two squares of the domino it placed this turn (the knight step's
  targets).
* lines (B, 2L, 23): the current line's slots then the next line's: the domino's 18 features, its king (the
  viewer's, its teammate's, another player's), whether it has acted, and which line it is in.
* extras (B, 267): unseen flags of both boxes (96: Kingdomino's box 0-47, Queendomino's 48-95), the building pile
  (32), 11 counters, the scores (own, best and mean other, own - best other), the Builders' Board (6 x 18, at
  `BOARD_AT`, which the build and Dragon heads also read), the domino placed this turn (7) and 9 variant flags.
"""

from __future__ import annotations

import numpy as np

from kingdomino_env.games.dominoes import N_DOMINOES
from kingdomino_env.games.queendomino.kernels import (
    KNIGHT_SUPPLY,
    N_TILES,
    Q_DOMINO_FEATURES,
    Q_KINGDOM_FEATURES,
    Q_KINGDOM_PLANES,
    Q_PLACED_FEATURES,
    Q_TILE_FEATURES,
    SLOTS,
    TOWER_SUPPLY,
)
from kingdomino_env.rules import Rules

from .inputs import SCORE_SCALE, Inputs

#: Divisors of the 17 kingdom features (`observation.Q_KINGDOM_FEATURE_NAMES`): coins, knights, towers, points.
KINGDOM_FEATURE_SCALE = np.array([10, 5, 5, 5, 1, 10] + [5] * 9 + [3, 3], dtype=np.float32)
#: Divisors of a Builders' Board slot's 18 features (`observation.Q_TILE_FEATURE_NAMES`).
TILE_FEATURE_SCALE = np.array([1, 3, 10] + [1] * 10 + [3, 3, 1, 1, 5], dtype=np.float32)
#: Plane indices in a kingdom's block.
SCORE_PLANE = Q_KINGDOM_PLANES
FEATURE_PLANES = SCORE_PLANE + 1
HELD_PLANES = FEATURE_PLANES + Q_KINGDOM_FEATURES
MARK_PLANES = HELD_PLANES + Q_DOMINO_FEATURES
PLANES = MARK_PLANES + 2
SLOT_FEATURES = Q_DOMINO_FEATURES + 5
#: 2..8 players one-hot, teams, the Royal Wedding.
VARIANT_FLAGS = 9
UNSEEN = 2 * N_DOMINOES
COUNTERS = 11
BOARD_AT = UNSEEN + N_TILES + COUNTERS + 4
BOARD_FEATURES = SLOTS * Q_TILE_FEATURES
EXTRAS = BOARD_AT + BOARD_FEATURES + Q_PLACED_FEATURES + VARIANT_FLAGS


def variant_flags(rules: Rules) -> np.ndarray:
    """(9,) players 2..8 one-hot, teams, the Royal Wedding."""
    flags = np.zeros(VARIANT_FLAGS, dtype=np.float32)
    flags[rules.players - 2] = 1
    flags[7], flags[8] = rules.shared_kingdoms, rules.two_boxes
    return flags


def encode_queendomino(obs: np.ndarray, rules: Rules) -> Inputs:
    """Network inputs for observations (B, obs_size) of a Queendomino or Royal Wedding variant."""
    layout = rules.observation_layout
    obs = np.asarray(obs, dtype=np.float32)
    b, k, s, line = obs.shape[0], rules.kingdoms, rules.frame, rules.line_size
    counters = obs[:, layout.counters]
    score_at = layout.feature("counters", "score_0")
    scores = counters[:, score_at:]
    kingdom_features = layout.unpack(obs, "kingdom_features") / KINGDOM_FEATURE_SCALE
    planes = np.zeros((b, k, PLANES, s, s), dtype=np.float32)
    planes[:, :, :Q_KINGDOM_PLANES] = layout.kingdom_planes(obs)
    planes[:, :, SCORE_PLANE] = scores[:, :, None, None] / SCORE_SCALE
    planes[:, :, FEATURE_PLANES:HELD_PLANES] = kingdom_features[:, :, :, None, None]
    planes[:, 0, HELD_PLANES:MARK_PLANES] = obs[:, layout.held][:, :, None, None]
    placed = obs[:, layout.placed]
    row_at = layout.feature("placed", "row")
    games = np.flatnonzero(placed[:, layout.feature("placed", "present")] > 0)
    squares = np.rint(placed[games, row_at:row_at + 4] * (s - 1)).astype(np.int64)
    for j in range(2):
        planes[games, 0, MARK_PLANES + j, squares[:, 2 * j], squares[:, 2 * j + 1]] = 1

    lines = np.zeros((b, 2, line, SLOT_FEATURES), dtype=np.float32)
    teammates = len(rules.kingdom_seats(0))
    seat_at, acted = layout.feature("current_line", "seat_0"), layout.feature("current_line", "acted")
    for i, part in enumerate(("current_line", "next_line")):
        slots = layout.unpack(obs, part)
        owner = slots[:, :, seat_at:seat_at + rules.players]
        lines[:, i, :, :Q_DOMINO_FEATURES] = slots[:, :, :seat_at]
        lines[:, i, :, Q_DOMINO_FEATURES] = owner[:, :, 0]
        lines[:, i, :, Q_DOMINO_FEATURES + 1] = owner[:, :, 1:teammates].sum(axis=2)
        lines[:, i, :, Q_DOMINO_FEATURES + 2] = owner[:, :, teammates:].sum(axis=2)
        lines[:, i, :, Q_DOMINO_FEATURES + 3] = slots[:, :, acted]
        lines[:, i, :, Q_DOMINO_FEATURES + 4] = i

    others = scores[:, 1:]
    best = others.max(axis=1)
    extras = np.zeros((b, EXTRAS), dtype=np.float32)
    unseen_at = 0 if rules.two_boxes else N_DOMINOES  # Queendomino's own box holds ids 48-95 of the two
    extras[:, unseen_at:unseen_at + rules.n_domino_ids] = obs[:, layout.unseen]
    at = UNSEEN
    extras[:, at:at + N_TILES] = obs[:, layout.pile]
    at += N_TILES
    extras[:, at:at + COUNTERS] = counters[:, :score_at] / np.array([1] * 9 + [KNIGHT_SUPPLY, TOWER_SUPPLY])
    at += COUNTERS
    extras[:, at:at + 4] = np.stack([scores[:, 0], best, others.mean(axis=1), scores[:, 0] - best],
                                    axis=1) / SCORE_SCALE
    board = layout.unpack(obs, "board") / TILE_FEATURE_SCALE
    extras[:, BOARD_AT:BOARD_AT + BOARD_FEATURES] = board.reshape(b, BOARD_FEATURES)
    at = BOARD_AT + BOARD_FEATURES
    extras[:, at:at + Q_PLACED_FEATURES] = placed
    extras[:, at + Q_PLACED_FEATURES:] = variant_flags(rules)
    return Inputs(planes, lines.reshape(b, 2 * line, SLOT_FEATURES), extras)
