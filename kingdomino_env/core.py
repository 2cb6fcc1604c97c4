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
    """One game's deal from `rng`, in `init`'s argument order.

    In Kingdomino D = 24 of the 48 dominoes in 2-player games, as the rulebook's random removal of half of them;
    the quests are dealt next, by `deal_quests`.

    Args:
        rules: The variant.
        rng: The generator that deals the game.

    Returns:
        `(deck, first_kings)`: the deck's 0-based domino ids in draw order and the kings' starting-round order;
            Queendomino adds the building pile, `(deck, first_kings, pile)`.
    """
    return rules.engine.deal(rules, rng)


def init(rules: Rules, decks: np.ndarray, first_kings: np.ndarray,
         quests: np.ndarray | Sequence[Sequence[str]] | None = None, buildings: np.ndarray | None = None) -> State:
    """B new games from explicit decks and king orders.

    Args:
        rules: The variant.
        decks: `(B, D)` 0-based domino ids in draw order.
        first_kings: `(B, K)` the player of each king in the starting round's pick order.
        quests: Each game's active quests, as `(B, 17)` bool flags or a list of names per game; needed only with
            `rules.random_quests` (fixed quests default to the variant's).
        buildings: Queendomino's building piles, `(B, 32)` 0-based tile ids in draw order (required there,
            refused in Kingdomino).

    Returns:
        The new games, in the starting round's pick phase.
    """
    return rules.engine.init(rules, decks, first_kings, quests, buildings)


def new_games(rules: Rules, seeds: Sequence[int | None] | np.ndarray) -> State:
    """One new game per seed, so that a seed names a game.

    Args:
        rules: The variant.
        seeds: One seed per game: game b is dealt by `np.random.default_rng(seeds[b])` (`deal`, then the game's
            quests).

    Returns:
        A state of `len(seeds)` games.
    """
    return deal_games(rules, [np.random.default_rng(seed) for seed in seeds])


def deal_game(rules: Rules, rng: np.random.Generator) -> State:
    """A batch of one new game dealt from `rng`, as `new_games` deals each game from its seed's generator, so that
    one generator names one game in every adapter.

    Args:
        rules: The variant.
        rng: The generator that deals the game.

    Returns:
        A state of one game.
    """
    return rules.engine.deal_games(rules, [rng])


def deal_games(rules: Rules, rngs: Sequence[np.random.Generator]) -> State:
    """One new game per generator, in one batch.

    Args:
        rules: The variant.
        rngs: One generator per game: game b is dealt by `rngs[b]` as `deal_game` deals it.

    Returns:
        A state of `len(rngs)` games.
    """
    return rules.engine.deal_games(rules, rngs)


def legal_action_mask(state: State, out: np.ndarray | None = None) -> np.ndarray:
    """The legal actions of the player to move in each game.

    Args:
        state: The games.
        out: A `(B, n_actions)` bool array to write into; None for a new one.

    Returns:
        `(B, n_actions)` bool, True on each legal action (all False in a game that is over).
    """
    if out is None:
        out = np.empty((state.batch_size, state.rules.n_actions), dtype=np.bool_)
    return state.rules.engine.legal_action_mask(state, out)


def step(state: State, actions: np.ndarray | Sequence[int]) -> State:
    """Apply one action per game, in place; finished games ignore their action.

    Args:
        state: The games, changed in place.
        actions: One action id per game.

    Returns:
        `state` itself.

    Raises:
        ValueError: There is not exactly one action per game.
        IllegalActionError: Some action is not legal for the player to move; it names those games, which are left
            unchanged (the others' actions are applied).
    """
    actions = np.ascontiguousarray(actions, dtype=np.int64).reshape(-1)
    if actions.shape[0] != state.batch_size:
        raise ValueError(f"expected {state.batch_size} actions (one per game), got {actions.shape[0]}")
    return state.rules.engine.step(state, actions)


def observe(state: State, viewer: np.ndarray | None = None, out: np.ndarray | None = None) -> np.ndarray:
    """Each game's observation vector, from one player's seat.

    Args:
        state: The games.
        viewer: `(B,)` the player each game is seen by; None for the player to move.
        out: A `(B, obs_size)` float32 array to write into; None for a new one.

    Returns:
        `(B, obs_size)` float32, laid out as `rules.observation_layout` (`observation.ObservationLayout`) says.

    Raises:
        ValueError: `viewer` does not hold one player per game.
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
    """Competition ranks by the game's ranking rule: score, then largest territory, then crowns.

    Equal keys share a rank (a shared victory when several rank 0). Match totals (`dynasty`) are ranked by the
    same rule.

    Args:
        scores: `(..., P)` the scores.
        largest: `(..., P)` the largest territories.
        crowns: `(..., P)` the crowns.

    Returns:
        `(..., P)` ranks, 0 for the winner(s).
    """
    keys = [np.asarray(k, dtype=np.int64) for k in (scores, largest, crowns)]
    ahead = np.zeros(keys[0].shape + keys[0].shape[-1:], dtype=bool)  # [..., i, j]: j ranks ahead of i
    tied = np.ones_like(ahead)
    for key in keys:
        other, mine = key[..., None, :], key[..., :, None]
        ahead |= tied & (other > mine)
        tied &= other == mine
    return ahead.sum(axis=-1)


def rank_keys(state: State) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The keys the game ranks kingdoms by, in `rank_by`'s order.

    Args:
        state: The games.

    Returns:
        `(scores, largest, crowns)`, each `(B, K)`. Games without a crown tie-break (`rules.crown_tiebreak`:
            Queendomino, the Royal Wedding) give a crowns key of zeros.
    """
    return state.rules.engine.rank_keys(state)


def kingdom_ranks(state: State) -> np.ndarray:
    """The kingdoms' competition ranks (`rank_by` of `rank_keys`).

    Args:
        state: The games.

    Returns:
        `(B, K)` ranks, 0 for the winner(s).
    """
    return rank_by(*rank_keys(state))


def _per_seat(rules: Rules, per_kingdom: np.ndarray) -> np.ndarray:
    """(B, P) from (B, K): each seat gets its kingdom's value (the identity where every seat has its own)."""
    return per_kingdom[:, list(rules.seat_kingdoms)] if rules.shared_kingdoms else per_kingdom


def ranks(state: State) -> np.ndarray:
    """Each seat's competition rank (`kingdom_ranks`; in team games both seats get their team's rank).

    Args:
        state: The games.

    Returns:
        `(B, P)` ranks, 0 for the winner(s).
    """
    return _per_seat(state.rules, kingdom_ranks(state))


def seat_scores(state: State) -> np.ndarray:
    """Each seat's score: its kingdom's (its team's in team games).

    Args:
        state: The games.

    Returns:
        `(B, P)` scores.
    """
    return _per_seat(state.rules, state.scores)


def rewards(state: State, mode: str = "outcome") -> np.ndarray:
    """End-of-game rewards.

    In team games the rewards are computed over the K teams (their kingdoms) and both seats of a team get the
    team's reward.

    - `"outcome"`: zero-sum. With w winners among P players, each winner gets (P / w - 1) / (P - 1) and each
      loser -1 / (P - 1); so a sole winner gets +1, and in 2 players the loser gets -1 and a shared victory 0.
    - `"score"`: the final score.
    - `"margin"`: own score minus the best opponent's.

    Args:
        state: The games (finished).
        mode: One of `REWARD_MODES`.

    Returns:
        `(B, P)` float32 rewards.

    Raises:
        ValueError: `mode` is not one of `REWARD_MODES`.
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
    """Each player's share of the victory: 1 / w for each of w players ranked first, 0 for the others.

    In team games each seat gets its team's share of the victory among the teams.

    Args:
        state: The games (finished).

    Returns:
        `(B, P)` shares, summing to 1 in each game.
    """
    return _per_seat(state.rules, _kingdom_win_shares(state))


def random_legal_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per game.

    Args:
        mask: `(B, n_actions)` bool legal actions (`legal_action_mask`).
        rng: The generator to draw from.

    Returns:
        `(B,)` action ids, -1 for a row with no legal action.
    """
    out = np.empty(mask.shape[0], dtype=np.int64)
    board.sample_legal(mask, rng.random(mask.shape[0]), out)
    return out


def score_breakdown(state: State, game: int, player: int) -> dict:
    """One kingdom's score, itemised, as the game's scoring counts it.

    Args:
        state: The games.
        game: The game's index in the batch.
        player: The kingdom; in team games the team's kingdom (`rules.seat_kingdoms`).

    Returns:
        Kingdomino: `{"territories": [{"terrain", "squares", "crowns", "points"}, ...]` (largest points first),
            `"harmony", "middle_kingdom", "total", "largest", "crowns"}`, plus `"quests": {name: points}` for each
            active quest when the variant has quests (a Harmony or Middle Kingdom quest reads 0 when the same base
            option is on: its points are under the option). Queendomino: `{"wealth", "territories"` (with
            `"queen"`), `"queen", "buildings", "total", "largest"}` (`games.queendomino.game.score_breakdown`).
    """
    return state.rules.engine.score_breakdown(state, game, player)

