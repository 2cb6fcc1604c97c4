"""Network inputs from core observations: per-kingdom planes, line slots and a global vector of fixed size.

Queendomino and the Royal Wedding have their own inputs (`queen_features`); `encode` serves every game.
The inputs do not depend on the player count or the line size, so one network shape serves 2, 3 and 4 players
and both 3-player rules of a board size; what differs between variants is told to the network as flags (players,
Mighty Duel, the older 3-player rule, Harmony, Middle Kingdom, the active quests). Everything is read from the
observation of the player to move (`core.observe`), which holds public information only: the order of the
undrawn dominoes is never an input.

* planes (B, P, 26, S, S): per kingdom, egocentric (the viewer first), its 9 observation planes, its score / 100
  on a constant plane, and the domino to place broadcast on 16 planes (zeros for the other kingdoms).
* lines (B, 2L, 20): the current line's slots then the next line's, each the domino's 16 features, its king
  (the viewer's, another player's), whether it has acted, and which line it is in.
* extras (B, 80): the 48 unseen flags, 4 counters, the scores (own, best and mean opponent, own - best opponent),
  17 quest flags and 7 variant flags.
"""

from __future__ import annotations

import numpy as np

from kingdomino_env.games.kingdomino.kernels import DOMINO_FEATURES, KINGDOM_PLANES
from kingdomino_env.games.kingdomino.quests import N_QUESTS
from kingdomino_env.rules import Rules

from .inputs import SCORE_SCALE, Inputs
from .queen_features import encode_queendomino

PLANES = KINGDOM_PLANES + 1 + DOMINO_FEATURES
SLOT_FEATURES = DOMINO_FEATURES + 4
VARIANT_FLAGS = 7
EXTRAS = 48 + 4 + 4 + N_QUESTS + VARIANT_FLAGS
__all__ = ["EXTRAS", "PLANES", "SCORE_SCALE", "SLOT_FEATURES", "Inputs", "encode", "variant_flags"]


def variant_flags(rules: Rules) -> np.ndarray:
    """(7,) players 2/3/4 one-hot, Mighty Duel, older 3-player rule, Harmony, Middle Kingdom."""
    return np.array([rules.players == 2, rules.players == 3, rules.players == 4, rules.mighty_duel,
                     rules.three_player_36, rules.harmony, rules.middle_kingdom], dtype=np.float32)


def encode(obs: np.ndarray, rules: Rules) -> Inputs:
    """Network inputs for observations (B, obs_size) of any variant (Queendomino's and the Royal Wedding's by
    `queen_features`)."""
    if rules.has_buildings:
        return encode_queendomino(obs, rules)
    layout = rules.observation_layout
    obs = np.asarray(obs, dtype=np.float32)
    b, p, s, line = obs.shape[0], rules.players, rules.frame, rules.line_size
    planes = np.zeros((b, p, PLANES, s, s), dtype=np.float32)
    planes[:, :, :KINGDOM_PLANES] = layout.kingdom_planes(obs)
    counters = obs[:, layout.counters]
    score_at = layout.feature("counters", "score_0")
    scores = counters[:, score_at:score_at + p]
    planes[:, :, KINGDOM_PLANES] = scores[:, :, None, None] / SCORE_SCALE
    planes[:, 0, KINGDOM_PLANES + 1:] = obs[:, layout.held][:, :, None, None]

    lines = np.zeros((b, 2, line, SLOT_FEATURES), dtype=np.float32)
    owner_at, acted = layout.feature("current_line", "owner_0"), layout.feature("current_line", "acted")
    for i, part in enumerate(("current_line", "next_line")):
        slots = layout.unpack(obs, part)
        lines[:, i, :, :DOMINO_FEATURES] = slots[:, :, :owner_at]
        owner = slots[:, :, owner_at:owner_at + p]
        lines[:, i, :, DOMINO_FEATURES] = owner[:, :, 0]
        lines[:, i, :, DOMINO_FEATURES + 1] = owner[:, :, 1:].sum(axis=2)
        lines[:, i, :, DOMINO_FEATURES + 2] = slots[:, :, acted]
        lines[:, i, :, DOMINO_FEATURES + 3] = i

    others = scores[:, 1:]
    best = others.max(axis=1)
    extras = np.zeros((b, EXTRAS), dtype=np.float32)
    extras[:, :48] = obs[:, layout.unseen]
    extras[:, 48:52] = counters[:, :score_at]
    extras[:, 52:56] = np.stack([scores[:, 0], best, others.mean(axis=1), scores[:, 0] - best], axis=1) / SCORE_SCALE
    if rules.has_quests:
        extras[:, 56:56 + N_QUESTS] = obs[:, layout.quests]
    extras[:, 56 + N_QUESTS:] = variant_flags(rules)
    return Inputs(planes, lines.reshape(b, 2 * line, SLOT_FEATURES), extras)
