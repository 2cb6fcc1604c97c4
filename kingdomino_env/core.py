"""The batched rules core: pure game logic over numpy arrays with a leading batch axis.

A `State` holds B games of one variant (`Rules`). The functions here create games, list legal actions, apply one
action per game, score, rank and observe; no RL framework is imported. `step` updates the state in place (the
vector env steps thousands of games per call); use `State.copy()` to branch, as search agents do.

Turn structure: in the starting round (round 0) the kings pick from the first line in a random order
(`first_kings`). In each later round the kings act in the order of their dominoes in the current line (lowest
number first): the owner places the domino under that king (phase PLACE), then picks from the next line (phase
PICK). In the last round there is no next line, so kings only place. In 3-player games the unpicked domino of
each line is discarded. A placement is a discard only when no legal placement exists.

Queendomino (`Rules(game="queendomino")`): the same functions take its state (`games.queendomino.game.QState`, a `State`
with coins, knights, towers, buildings, the Queen, the Dragon and the Builders' Board) and dispatch to
`games.queendomino.game` / `games.queendomino.kernels`, which share the placement and territory kernels of
`games.board`; so does the Royal Wedding
(`Rules(game="royal_wedding")`), whose team games give two seats one kingdom: there the arrays with a player axis
are per kingdom (K = `rules.kingdoms`), owners and turns hold seats, and `ranks`, `rewards` and `win_shares` give
each seat its kingdom's result (`kingdom_ranks`, `seat_scores`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .games import board
from .games.board import OVER, PICK, PLACE
from .games.dominoes import CASTLE, N_DOMINOES, TERRAINS
from .games.kingdomino import kernels
from .games.kingdomino import quests as quest_defs
from .games.queendomino import game as _queen
from .games.state import IllegalActionError, State
from .observation import ObservationLayout, observation_size
from .rules import Rules

__all__ = [
    "OVER", "PICK", "PLACE", "IllegalActionError", "State", "deal", "deal_quests", "init", "new_games",
    "legal_action_mask", "step", "observe", "ranks", "kingdom_ranks", "rank_by", "rank_keys", "rewards", "REWARD_MODES",
    "random_legal_actions", "score_breakdown", "seat_scores", "win_shares",
]

REWARD_MODES = ("outcome", "score", "margin")


def deal(rules: Rules, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """Shuffle a deck (D dominoes, 0-based ids in draw order) and draw the kings' starting-round order.

    In 2-player games D = 24 of the 48, as the rulebook's random removal of half the dominoes. Queendomino:
    (deck, first_kings, building pile), see `games.queendomino.game.deal`.
    """
    if rules.is_queendomino:
        return _queen.deal(rules, rng)
    deck = rng.permutation(N_DOMINOES)[: rules.deck_size]
    kings = np.repeat(np.arange(rules.players), rules.kings_per_player)
    return deck.astype(np.int8), rng.permutation(kings).astype(np.int8)


def deal_quests(rules: Rules, rng: np.random.Generator) -> np.ndarray:
    """(17,) bool: one game's active quests. Draws `rules.random_quests` distinct quests from `rng` (call it
    after `deal`, with the same generator); fixed quests (or none) draw nothing, so games without random quests
    are dealt exactly as before quests existed."""
    if rules.random_quests:
        out = np.zeros(quest_defs.N_QUESTS, dtype=np.bool_)
        out[rng.choice(quest_defs.N_QUESTS, size=rules.random_quests, replace=False)] = True
        return out
    return quest_defs.flags(rules.quests)


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

    quests: each game's active quests, as (B, 17) bool flags or a list of names per game; needed only with
    `rules.random_quests` (fixed quests default to the variant's). buildings: Queendomino's building piles
    (B, 32) of 0-based tile ids in draw order (required there, refused in Kingdomino)."""
    if rules.is_queendomino:
        if buildings is None or quests is not None:
            raise ValueError("Queendomino games need buildings (B, 32) pile orders and take no quests")
        return _queen.init(rules, decks, first_kings, buildings)
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


def new_games(rules: Rules, seeds: Sequence[int | None] | np.ndarray) -> State:
    """One new game per seed; game b is dealt by `np.random.default_rng(seeds[b])` (`deal`, then
    `deal_quests`; Queendomino: `games.queendomino.game.deal`), so a seed names a game."""
    if rules.is_queendomino:
        return _queen.new_games(rules, seeds)
    rngs = [np.random.default_rng(seed) for seed in seeds]
    dealt = [deal(rules, rng) for rng in rngs]
    quests = np.zeros((len(rngs), quest_defs.N_QUESTS), dtype=np.bool_)
    for i, rng in enumerate(rngs):
        quests[i] = deal_quests(rules, rng)
    decks = np.array([d for d, _ in dealt], dtype=np.int8).reshape(len(dealt), rules.deck_size)
    kings = np.array([k for _, k in dealt], dtype=np.int8).reshape(len(dealt), rules.kings)
    return init(rules, decks, kings, quests)


def legal_action_mask(state: State, out: np.ndarray | None = None) -> np.ndarray:
    """(B, n_actions) bool: the legal actions of the player to move in each game (all False once over)."""
    if out is None:
        out = np.empty((state.batch_size, state.rules.n_actions), dtype=np.bool_)
    if state.rules.is_queendomino:
        return _queen.legal_action_mask(state, out)
    kernels.legal_mask(state.arrays, state.constants, out)
    return out


def step(state: State, actions: np.ndarray | Sequence[int]) -> State:
    """Apply one action per game, in place, and return the state; finished games ignore their action.

    Raises IllegalActionError (games left unchanged where the action was illegal, others applied) naming the
    games whose action is not legal for the player to move.
    """
    actions = np.asarray(actions, dtype=np.int64).reshape(-1)
    if actions.shape[0] != state.batch_size:
        raise ValueError(f"expected {state.batch_size} actions (one per game), got {actions.shape[0]}")
    if state.rules.is_queendomino:
        return _queen.step(state, actions)
    status = np.empty(state.batch_size, dtype=np.int8)
    n_illegal = kernels.step(state.arrays, state.constants, actions, status)
    if n_illegal:
        bad = np.flatnonzero(status != board.OK)
        phase_names = {PICK: "pick", PLACE: "place"}
        raise IllegalActionError(
            f"illegal action(s) in game(s) {bad.tolist()[:10]}: "
            + ", ".join(f"{int(actions[g])} in the {phase_names.get(int(state.phase[g]), '?')} phase"
                        for g in bad[:10]),
            bad,
        )
    return state


def observe(state: State, viewer: np.ndarray | None = None, out: np.ndarray | None = None) -> np.ndarray:
    """(B, obs_size) float32 observations, each game seen by viewer[b] (default: the player to move).

    Layout: `observation.ObservationLayout`.
    """
    r = state.rules
    if viewer is None:
        viewer = np.maximum(state.current_player, 0)
    viewer = np.asarray(viewer, dtype=np.int64).reshape(-1)
    if viewer.shape[0] != state.batch_size:
        raise ValueError(f"viewer must hold one player index per game ({state.batch_size}), got {viewer.shape[0]}")
    if out is None:
        out = np.empty((state.batch_size, observation_size(r)), dtype=np.float32)
    if r.is_queendomino:
        if _queen.observe(state, viewer, out):
            raise ValueError(f"viewer must hold player indices in 0..{r.players - 1}, "
                             f"got {sorted(set(viewer.tolist()))}")
        return out
    bad = kernels.observe(state.arrays, state.constants, viewer, out)
    if bad:
        raise ValueError(f"viewer must hold player indices in 0..{r.players - 1}, got {sorted(set(viewer.tolist()))}")
    if r.has_quests:
        out[:, ObservationLayout(r).quests] = state.quests
    return out


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
    order. Queendomino and the Royal Wedding have no crown tie-break, so their crowns key is all zeros."""
    crowns = np.zeros_like(state.scores) if state.rules.is_queendomino else state.total_crowns
    return state.scores, state.largest, crowns


def kingdom_ranks(state: State) -> np.ndarray:
    """(B, K) competition ranks of the kingdoms (`rank_by` of `rank_keys`: score, largest territory, then crowns
    in Kingdomino only)."""
    return rank_by(*rank_keys(state))


def _per_seat(rules: Rules, per_kingdom: np.ndarray) -> np.ndarray:
    """(B, P) from (B, K): each seat gets its kingdom's value (the identity outside team games)."""
    return per_kingdom[:, list(rules.seat_kingdoms)] if rules.teams else per_kingdom


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
    """One kingdom's score, itemised: its territories and the bonuses, as the scoring kernel counts them.

    Returns {"territories": [{"terrain", "squares", "crowns", "points"}, ...] (largest points first),
    "harmony": points, "middle_kingdom": points, "total": points, "largest": squares, "crowns": count}, plus
    "quests": {name: points} for each active quest when the variant has quests (a Harmony or Middle Kingdom
    quest reads 0 when the same base option is on: its points are under the option). Queendomino: see
    `games.queendomino.game.score_breakdown` (wealth, territories, Queen, buildings). `player` indexes kingdoms: in team
    games it is the team's kingdom (`rules.seat_kingdoms`).
    """
    r = state.rules
    if r.is_queendomino:
        return _queen.score_breakdown(state, game, player)
    terrain, crowns = state.terrain[game, player], state.crowns[game, player]
    labels = np.zeros((r.frame, r.frame), dtype=np.int32)
    stack = np.zeros(r.frame * r.frame, dtype=np.int64)

    def points(harmony: bool, middle: bool) -> int:
        return int(kernels.score_board(terrain, crowns, r.grid, harmony, middle, labels, stack)[0])

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

