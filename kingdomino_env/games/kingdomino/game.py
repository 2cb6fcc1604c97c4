"""Kingdomino's rules over the batched state: deal, new games, legal actions, steps, observations, ranking keys and
score breakdowns. Use them through `kingdomino_env.core` (or `Rules.engine`), which picks the game from the rules.

Turn structure: in the starting round (round 0) the kings pick from the first line in a random order
(`first_kings`). In each later round the kings act in the order of their dominoes in the current line (lowest
number first): the owner places the domino under that king (phase PLACE), then picks from the next line (phase
PICK). In the last round there is no next line, so kings only place. In 3-player games the unpicked domino of
each line is discarded. A placement is a discard only when no legal placement exists.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..board import PICK, PLACE
from ..dominoes import CASTLE, N_DOMINOES, TERRAINS
from ..records import MaskArrays, MoverArrays, ObserveArrays
from ..state import State, illegal_actions
from . import greedy, kernels
from . import quests as quest_defs

if TYPE_CHECKING:
    from ...rules import Rules

PHASE_NAMES = {PICK: "pick", PLACE: "place"}


def deal(rules: Rules, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(deck, first_kings): a shuffled deck (D dominoes, 0-based ids in draw order) and the kings' starting-round
    order. In 2-player games D = 24 of the 48, as the rulebook's random removal of half the dominoes."""
    deck = rng.permutation(N_DOMINOES)[: rules.deck_size]
    kings = np.repeat(np.arange(rules.players), rules.kings_per_player)
    return deck.astype(np.int8), rng.permutation(kings).astype(np.int8)


def deal_quests(rules: Rules, rng: np.random.Generator) -> np.ndarray:
    """One game's active quests: `rules.random_quests` distinct quests drawn from `rng`, or the variant's fixed
    quests (or none), which draw nothing.

    Args:
        rules: The variant.
        rng: The generator that dealt the game (call this after `deal`).

    Returns:
        `(17,)` bool flags in `quests.QUESTS` order.
    """
    if rules.random_quests:
        out = np.zeros(quest_defs.N_QUESTS, dtype=np.bool_)
        out[rng.choice(quest_defs.N_QUESTS, size=rules.random_quests, replace=False)] = True
        return out
    return quest_defs.flags(rules.quests)


def deal_games(rules: Rules, rngs: Sequence[np.random.Generator]) -> State:
    """One new game per generator: `deal`, then `deal_quests`, from that generator."""
    dealt = [deal(rules, rng) for rng in rngs]
    quests = np.zeros((len(rngs), quest_defs.N_QUESTS), dtype=np.bool_)
    for i, rng in enumerate(rngs):
        quests[i] = deal_quests(rules, rng)
    decks = np.array([d for d, _ in dealt], dtype=np.int8).reshape(len(dealt), rules.deck_size)
    kings = np.array([k for _, k in dealt], dtype=np.int8).reshape(len(dealt), rules.kings)
    return init(rules, decks, kings, quests)


def _quest_flags(rules: Rules, quests: np.ndarray | Sequence[Sequence[str]] | None, b: int) -> np.ndarray:
    """(B, 17) bool quest flags from `init`'s argument (flags, or quest names per game) or the fixed quests."""
    if quests is None:
        if rules.random_quests:
            raise ValueError(f"rules draw {rules.random_quests} random quests per game: pass quests (B, 17) "
                             "flags or names per game (see deal_quests)")
        return np.tile(quest_defs.flags(rules.quests), (b, 1))
    if not isinstance(quests, np.ndarray):
        rows = [quest_defs.flags(names) for names in quests]
        quests = np.array(rows, dtype=np.bool_).reshape(len(rows), quest_defs.N_QUESTS)
    if quests.shape != (b, quest_defs.N_QUESTS) or quests.dtype != np.bool_:
        raise ValueError(f"quests must be ({b}, {quest_defs.N_QUESTS}) bool flags, got {quests.dtype} {quests.shape}")
    counts = quests.sum(axis=1)
    if rules.random_quests and (counts != rules.random_quests).any():
        raise ValueError(f"each game must have {rules.random_quests} quests, got {sorted(set(counts.tolist()))}")
    if not rules.random_quests and (quests != quest_defs.flags(rules.quests)).any():
        raise ValueError(f"quests must be the variant's fixed quests {list(rules.quests)} in every game")
    return quests.copy()


def init(rules: Rules, decks: np.ndarray, first_kings: np.ndarray,
         quests: np.ndarray | Sequence[Sequence[str]] | None = None, buildings: np.ndarray | None = None) -> State:
    """B new games from explicit decks (B, D) of 0-based domino ids and king orders (B, K) of player indices.
    quests: each game's active quests, as (B, 17) bool flags or a list of names per game (needed only with
    `rules.random_quests`). Kingdomino has no buildings."""
    if buildings is not None:
        raise ValueError("Kingdomino has no buildings")
    decks = np.asarray(decks)
    first_kings = np.asarray(first_kings)
    b = decks.shape[0] if decks.ndim == 2 else -1
    if decks.shape != (b, rules.deck_size):
        raise ValueError(f"decks must have shape (B, {rules.deck_size}), got {decks.shape}")
    if first_kings.shape != (b, rules.kings):
        raise ValueError(f"first_kings must have shape ({b}, {rules.kings}), got {first_kings.shape}")
    if decks.size and (decks.min() < 0 or decks.max() >= N_DOMINOES):
        raise ValueError(f"deck entries must be domino ids 0..{N_DOMINOES - 1}")
    if any(len(np.unique(d)) != rules.deck_size for d in decks):
        raise ValueError("a deck holds the same domino twice")
    kings = np.repeat(np.arange(rules.players), rules.kings_per_player)
    if not (np.sort(first_kings, axis=1) == kings).all():
        raise ValueError(f"first_kings must be an ordering of the kings {kings.tolist()} (player of each king)")
    s, n_line, players = rules.frame, rules.line_size, rules.players
    quest_flags = _quest_flags(rules, quests, b)
    terrain = np.zeros((b, players, s, s), dtype=np.int8)
    terrain[:, :, rules.castle, rules.castle] = CASTLE
    next_line = np.sort(decks[:, :n_line], axis=1).astype(np.int8)
    return State(
        rules=rules,
        terrain=terrain,
        crowns=np.zeros_like(terrain),
        bbox=np.full((b, players, 4), rules.castle, dtype=np.int8),
        deck=decks.astype(np.int8),
        drawn=np.full(b, n_line, dtype=np.int16),
        cur_line=np.full((b, n_line), -1, dtype=np.int8),
        cur_owner=np.full((b, n_line), -1, dtype=np.int8),
        next_line=next_line,
        next_owner=np.full((b, n_line), -1, dtype=np.int8),
        first_kings=first_kings.astype(np.int8),
        order_player=first_kings.astype(np.int8),
        order_slot=np.full((b, rules.kings), -1, dtype=np.int8),
        turn=np.zeros(b, dtype=np.int8),
        round=np.zeros(b, dtype=np.int8),
        phase=np.full(b, PICK, dtype=np.int8),
        scores=np.zeros((b, players), dtype=np.int16),
        largest=np.zeros((b, players), dtype=np.int8),
        total_crowns=np.zeros((b, players), dtype=np.int8),
        discarded=np.zeros((b, players), dtype=np.int8),
        n_steps=np.zeros(b, dtype=np.int16),
        quests=quest_flags,
    )


def legal_action_mask(state: State, out: np.ndarray) -> np.ndarray:
    kernels.legal_mask(state.arrays_for(MaskArrays), state.constants, out)
    return out


def step(state: State, actions: np.ndarray) -> State:
    status = np.empty(state.batch_size, dtype=np.int8)
    n_illegal = kernels.step(state.arrays, state.constants, actions, status)
    if n_illegal:
        raise illegal_actions(state, actions, status, PHASE_NAMES, "phase")
    return state


def observe(state: State, viewer: np.ndarray, out: np.ndarray) -> np.ndarray:
    r = state.rules
    bad = kernels.observe(state.arrays_for(ObserveArrays), state.constants, viewer, out)
    if bad:
        raise ValueError(f"viewer must hold player indices in 0..{r.players - 1}, got {sorted(set(viewer.tolist()))}")
    if r.has_quests:
        out[:, r.observation_layout.quests] = state.quests
    return out


def greedy_actions(state: State, games: np.ndarray, rng: np.random.Generator, random_draft: bool = False
                   ) -> np.ndarray:
    """(len(games),) Full Greedy actions (GPRD with `random_draft`) for the player to move; -1 where over."""
    games = np.asarray(games, dtype=np.int64)
    out = np.empty(games.shape[0], dtype=np.int64)
    greedy.greedy_actions(state.arrays_for(MoverArrays), state.constants, games, random_draft,
                          rng.random(games.shape[0]), out)
    return out


def rank_keys(state: State) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(B, P) scores, largest territories and crowns: Kingdomino ranks by score, then largest territory, then
    crowns."""
    return state.scores, state.largest, state.total_crowns


def score_breakdown(state: State, game: int, player: int) -> dict:
    """One kingdom's score, itemised: {"territories": [{"terrain", "squares", "crowns", "points"}, ...] (largest
    points first), "harmony", "middle_kingdom", "total", "largest", "crowns"}, plus "quests": {name: points} when the
    variant has quests (a Harmony or Middle Kingdom quest reads 0 when the same base option is on: its points are
    under the option)."""
    r = state.rules
    terrain, crowns = state.terrain[game, player], state.crowns[game, player]
    labels = np.zeros((r.frame, r.frame), dtype=np.int32)
    stack = np.zeros(r.frame * r.frame, dtype=np.int64)

    def points(harmony: bool, middle: bool) -> int:
        v = r.constants._replace(harmony=harmony, middle_kingdom=middle)
        return int(kernels.score_board(terrain, crowns, v, labels, stack)[0])

    base = points(False, False)
    territories = []
    for label in range(1, labels.max() + 1):
        cells = labels == label
        squares, crown_count = int(cells.sum()), int(crowns[cells].sum())
        territories.append({"terrain": TERRAINS[int(terrain[cells][0]) - 1], "squares": squares,
                            "crowns": crown_count, "points": squares * crown_count})
    territories.sort(key=lambda t: (-t["points"], -t["squares"]))
    harmony = points(True, False) - base if r.harmony else 0
    middle = points(False, True) - base if r.middle_kingdom else 0
    out = {"territories": territories, "harmony": harmony, "middle_kingdom": middle,
           "total": base + harmony + middle, "largest": int(state.largest[game, player]),
           "crowns": int(state.total_crowns[game, player])}
    if r.has_quests:
        out["quests"] = _quest_breakdown(state, game, player)
        out["total"] += sum(out["quests"].values())
    return out


def _quest_breakdown(state: State, game: int, player: int) -> dict[str, int]:
    """{name: points} of each active quest of one kingdom, as `kernels.board_points` counts them."""
    r = state.rules
    labels = np.zeros((r.frame, r.frame), dtype=np.int32)
    stack = np.zeros(r.frame * r.frame, dtype=np.int64)
    points = np.zeros(quest_defs.N_QUESTS, dtype=np.int64)
    kernels.quest_scores(state.terrain[game, player], state.crowns[game, player], r.grid, labels, stack, points)
    counted_by_option = {quest_defs.HARMONY: r.harmony, quest_defs.MIDDLE_KINGDOM: r.middle_kingdom}
    return {quest_defs.QUESTS[q]: 0 if counted_by_option.get(q, False) else int(points[q])
            for q in np.flatnonzero(state.quests[game])}
