"""The batched rules core: pure game logic over numpy arrays with a leading batch axis.

A `State` holds B games of one variant (`Rules`). The functions here create games, list legal actions, apply one
action per game, score, rank and observe; no RL framework is imported. `step` updates the state in place (the
vector env steps thousands of games per call); use `State.copy()` to branch, as search agents do.

Every game is played through the same functions: each forwards to the variant's rules engine, `rules.engine` (a
`games.protocol.Game`: Kingdomino's in `games.kingdomino`, Queendomino's and the Royal Wedding's in
`games.queendomino`). In the Royal Wedding's team games two seats share one kingdom: the arrays with a player axis
are per kingdom (K = `rules.kingdoms`), owners and turns hold seats, and `ranks`, `rewards` and `win_shares` give
each seat its kingdom's result (`kingdom_ranks`, `seat_scores`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .games import board
from .games.board import OVER, PICK, PLACE
from .games.kingdomino.game import deal_quests
from .games.state import IllegalActionError, State
from .rules import Rules

__all__ = [
    "OVER", "PICK", "PLACE", "IllegalActionError", "State", "deal", "deal_game", "deal_games", "deal_quests", "init",
    "new_games",
    "legal_action_mask", "step", "observe", "ranks", "kingdom_ranks", "rank_by", "rank_keys", "rewards", "REWARD_MODES",
    "random_legal_actions", "score_breakdown", "seat_scores", "win_shares",
]

REWARD_MODES = ("outcome", "score", "margin")


def deal(rules: Rules, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """One game's deal from `rng`, in `init`'s argument order: (deck, first_kings) of 0-based ids in draw order and
    the kings' starting-round order (Kingdomino: D = 24 of the 48 in 2-player games, as the rulebook's random
    removal of half the dominoes; then `deal_quests`); Queendomino adds the building pile (`deck, first_kings,
    pile`)."""
    return rules.engine.deal(rules, rng)


def init(rules: Rules, decks: np.ndarray, first_kings: np.ndarray,
         quests: np.ndarray | Sequence[Sequence[str]] | None = None, buildings: np.ndarray | None = None) -> State:
    """B new games from explicit decks (B, D) of 0-based domino ids and king orders (B, K) of player indices.

    quests: each game's active quests, as (B, 17) bool flags or a list of names per game; needed only with
    `rules.random_quests` (fixed quests default to the variant's). buildings: Queendomino's building piles
    (B, 32) of 0-based tile ids in draw order (required there, refused in Kingdomino)."""
    return rules.engine.init(rules, decks, first_kings, quests, buildings)


def new_games(rules: Rules, seeds: Sequence[int | None] | np.ndarray) -> State:
    """One new game per seed; game b is dealt by `np.random.default_rng(seeds[b])` (`deal`, then the game's
    quests), so a seed names a game."""
    return deal_games(rules, [np.random.default_rng(seed) for seed in seeds])


def deal_game(rules: Rules, rng: np.random.Generator) -> State:
    """A batch of one new game dealt from `rng` (as `new_games` deals each game from its seed's generator), so that
    one generator names one game in every adapter."""
    return rules.engine.deal_games(rules, [rng])


def deal_games(rules: Rules, rngs: Sequence[np.random.Generator]) -> State:
    """One new game per generator, game b dealt by `rngs[b]` as `deal_game` deals it, in one batch."""
    return rules.engine.deal_games(rules, rngs)


def legal_action_mask(state: State, out: np.ndarray | None = None) -> np.ndarray:
    """(B, n_actions) bool: the legal actions of the player to move in each game (all False once over)."""
    if out is None:
        out = np.empty((state.batch_size, state.rules.n_actions), dtype=np.bool_)
    return state.rules.engine.legal_action_mask(state, out)


def step(state: State, actions: np.ndarray | Sequence[int]) -> State:
    """Apply one action per game, in place, and return the state; finished games ignore their action.

    Raises IllegalActionError (games left unchanged where the action was illegal, others applied) naming the
    games whose action is not legal for the player to move.
    """
    actions = np.ascontiguousarray(actions, dtype=np.int64).reshape(-1)
    if actions.shape[0] != state.batch_size:
        raise ValueError(f"expected {state.batch_size} actions (one per game), got {actions.shape[0]}")
    return state.rules.engine.step(state, actions)


def observe(state: State, viewer: np.ndarray | None = None, out: np.ndarray | None = None) -> np.ndarray:
    """(B, obs_size) float32 observations, each game seen by viewer[b] (default: the player to move).

    Layout: `rules.observation_layout` (`observation.ObservationLayout`).
    """
    r = state.rules
    if viewer is None:
        viewer = np.maximum(state.current_player, 0)
    viewer = np.ascontiguousarray(viewer, dtype=np.int64).reshape(-1)
    if viewer.shape[0] != state.batch_size:
        raise ValueError(f"viewer must hold one player index per game ({state.batch_size}), got {viewer.shape[0]}")
    if out is None:
        out = np.empty((state.batch_size, r.observation_layout.size), dtype=np.float32)
    return r.engine.observe(state, viewer, out)


def rank_by(scores: np.ndarray, largest: np.ndarray, crowns: np.ndarray) -> np.ndarray:
    """(..., P) competition ranks, 0 = winner, from (..., P) scores, largest territories and crowns: by score,
    then largest territory, then crowns; equal keys share a rank (a shared victory when several rank 0). The
    ranking rule of the game, also applied to match totals (`dynasty`)."""
    keys = [np.asarray(k, dtype=np.int64) for k in (scores, largest, crowns)]
    ahead = np.zeros(keys[0].shape + keys[0].shape[-1:], dtype=bool)  # [..., i, j]: j ranks ahead of i
    tied = np.ones_like(ahead)
    for key in keys:
        other, mine = key[..., None, :], key[..., :, None]
        ahead |= tied & (other > mine)
        tied &= other == mine
    return ahead.sum(axis=-1)


def rank_keys(state: State) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(B, K) scores, largest territories and crowns of the kingdoms: the keys the game ranks by, in `rank_by`'s
    order. Games without a crown tie-break (`rules.crown_tiebreak`: Queendomino, the Royal Wedding) give a crowns
    key of zeros."""
    return state.rules.engine.rank_keys(state)


def kingdom_ranks(state: State) -> np.ndarray:
    """(B, K) competition ranks of the kingdoms (`rank_by` of `rank_keys`)."""
    return rank_by(*rank_keys(state))


def _per_seat(rules: Rules, per_kingdom: np.ndarray) -> np.ndarray:
    """(B, P) from (B, K): each seat gets its kingdom's value (the identity where every seat has its own)."""
    return per_kingdom[:, list(rules.seat_kingdoms)] if rules.shared_kingdoms else per_kingdom


def ranks(state: State) -> np.ndarray:
    """(B, P) each seat's competition rank (`kingdom_ranks`; in team games both seats get their team's rank)."""
    return _per_seat(state.rules, kingdom_ranks(state))


def seat_scores(state: State) -> np.ndarray:
    """(B, P) each seat's score: its kingdom's (its team's in team games)."""
    return _per_seat(state.rules, state.scores)


def rewards(state: State, mode: str = "outcome") -> np.ndarray:
    """(B, P) float32 end-of-game rewards.

    outcome: zero-sum; with w winners among P players, each winner gets (P / w - 1) / (P - 1) and each loser
    -1 / (P - 1). So a sole winner gets +1; in 2 players the loser gets -1 and a shared victory gives 0 to both.
    score: the final score. margin: own score minus the best opponent's score. In team games these are computed
    over the K teams (their kingdoms) and both seats of a team get the team's reward.
    """
    if mode not in REWARD_MODES:
        raise ValueError(f"unknown reward mode {mode!r}; allowed: {', '.join(REWARD_MODES)}")
    kingdoms = state.rules.kingdoms
    scores = state.scores.astype(np.float32)
    if mode == "score":
        out = scores
    elif mode == "margin":
        others = np.where(np.eye(kingdoms, dtype=bool)[None], -np.inf, scores[:, None, :])
        out = scores - others.max(axis=2)
    else:
        out = ((kingdoms * _kingdom_win_shares(state) - 1) / (kingdoms - 1)).astype(np.float32)
    return _per_seat(state.rules, out)


def _kingdom_win_shares(state: State) -> np.ndarray:
    winners = kingdom_ranks(state) == 0
    return winners / winners.sum(axis=1, keepdims=True)


def win_shares(state: State) -> np.ndarray:
    """(B, P) each player's share of the victory: 1 / w for each of w players ranked first, 0 for the others
    (in team games, each seat gets its team's share of the victory among the teams)."""
    return _per_seat(state.rules, _kingdom_win_shares(state))


def random_legal_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """(B,) one uniformly random legal action per row of `mask` (-1 for a row with none)."""
    out = np.empty(mask.shape[0], dtype=np.int64)
    board.sample_legal(mask, rng.random(mask.shape[0]), out)
    return out


def score_breakdown(state: State, game: int, player: int) -> dict:
    """One kingdom's score, itemised, as the game's scoring counts it. `player` indexes kingdoms: in team games
    it is the team's kingdom (`rules.seat_kingdoms`).

    Kingdomino: {"territories": [{"terrain", "squares", "crowns", "points"}, ...] (largest points first),
    "harmony", "middle_kingdom", "total", "largest", "crowns"}, plus "quests": {name: points} for each active quest
    when the variant has quests (a Harmony or Middle Kingdom quest reads 0 when the same base option is on: its
    points are under the option). Queendomino: {"wealth", "territories" (with "queen"), "queen", "buildings",
    "total", "largest"} (`games.queendomino.game.score_breakdown`).
    """
    return state.rules.engine.score_breakdown(state, game, player)

