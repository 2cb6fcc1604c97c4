"""Queendomino's and the Royal Wedding's rules over the batched state: their state, deal, new games, legal
actions, steps, observations, ranking keys and score breakdowns. Use them through `kingdomino_env.core` (or
`Rules.engine`), which picks the game from the rules. The rules are those
of `shared/specs/queendomino.md` (see `kernels`): a king's turn is PLACE, then the optional KNIGHTS, BUILD and
DRAGON steps (each offered only when an action other than PASS is legal), then PICK (not in the last round).

The Royal Wedding's deck is one draw order of the 96 domino ids (0-47 Kingdomino's box, 48-95 Queendomino's) in
which the lines alternate boxes, the starting line from Queendomino's (`royal_deck`); its records keep each box's
own order (`split_royal_deck`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import make_dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..board import OVER, PICK, PLACE, _scan
from ..dominoes import CASTLE, N_DOMINOES, QUEEN_TERRAINS
from ..records import QUEENDOMINO_ARRAYS, QueendominoMaskArrays, QueendominoObserveArrays
from ..state import State, illegal_actions
from . import kernels
from .kernels import BUILD, DRAGON, KNIGHT_STEP, N_TILES, SLOTS

if TYPE_CHECKING:
    from ...rules import Rules

PHASE_NAMES = {PICK: "pick", PLACE: "place", KNIGHT_STEP: "knights", BUILD: "build", DRAGON: "dragon", OVER: "over"}
START_COINS = 7
START_KNIGHTS = 1


QState = make_dataclass("QState", [(name, np.ndarray, None) for name in QUEENDOMINO_ARRAYS], bases=(State,))
QState.__module__ = __name__
QState.__doc__ = """B Queendomino games: `State`'s arrays (the P axis is one kingdom each), then those
`records.QUEENDOMINO_ARRAYS` names, batch axis first:

coins, knights (unplaced), knights_owned (placed or not), towers: (B, K). knight_board: (B, K, S, S) knights
on each square; building_board: (B, K, S, S) tile id (0-based) on each town square, -1 none. queen: (B,) the
kingdom hosting the Queen, -1 nobody. The player axis of every array is the kingdom axis (K = `rules.kingdoms`:
one kingdom per team of two in the Royal Wedding's team games); owners and the turn order hold seats.
dragon: (B,) bool, the Dragon is in its cave. slots: (B, 6) tile id on each Builders' Board slot (slot k
costs k), -1 empty. pile: (B, 32) tile ids in draw order; pile_pos: (B,) tiles drawn from it so far. placed:
(B, 4) r, c, r2, c2 of the domino placed this turn (-1 after a discard). knight_done: (B, 2) bool, the first
/ second square of that domino got a knight this turn.
`phase` also takes KNIGHT_STEP, BUILD and DRAGON; `scores` are the scores as if the game ended now.
"""


def deal(rules: Rules, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(deck, first_kings, pile): all 48 dominoes shuffled (0-based ids in draw order), the starting-round king
    order (2 players: a random player A, then A, B, B, A; else a random order of the kings) and the 32
    building tiles shuffled (0-based ids in pile order). The Royal Wedding shuffles Kingdomino's box, then
    Queendomino's, each on its own, and deals them as `royal_deck`."""
    if rules.is_royal_wedding:
        kingdomino_box = rng.permutation(N_DOMINOES)
        queen_box = rng.permutation(N_DOMINOES)
        deck = royal_deck(kingdomino_box, queen_box, rules.line_size)
    else:
        deck = rng.permutation(N_DOMINOES).astype(np.int8)
    if rules.players == 2:
        a = int(rng.integers(2))
        kings = np.array([a, 1 - a, 1 - a, a], dtype=np.int8)
    else:
        kings = rng.permutation(rules.players).astype(np.int8)
    pile = rng.permutation(N_TILES).astype(np.int8)
    return deck, kings, pile


def queen_box_positions(line: int) -> np.ndarray:
    """(96,) bool: the positions of the Royal Wedding's draw order that hold Queendomino's box. Lines of `line`
    alternate boxes, the starting line from Queendomino's; the one statement of that rule (the deal, `init`'s check
    and the search agents' determinisation read it)."""
    return (np.arange(2 * N_DOMINOES) // line) % 2 == 0


def royal_deck(kingdomino_box: np.ndarray | Sequence[int], queen_box: np.ndarray | Sequence[int], line: int
               ) -> np.ndarray:
    """The Royal Wedding's draw order (96 ids) from each box's own order (0-based numbers 0..47 of that box):
    Queendomino's box (ids 48..95) on `queen_box_positions`, Kingdomino's on the others."""
    queen = queen_box_positions(line)
    deck = np.empty(2 * N_DOMINOES, dtype=np.int8)
    deck[queen] = np.asarray(queen_box, dtype=np.int64) + N_DOMINOES
    deck[~queen] = np.asarray(kingdomino_box, dtype=np.int64)
    return deck


def split_royal_deck(deck: np.ndarray | Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Inverse of `royal_deck`: (Kingdomino's box, Queendomino's box), each its 0-based numbers in draw order."""
    deck = np.asarray(deck, dtype=np.int64)
    return deck[deck < N_DOMINOES], deck[deck >= N_DOMINOES] - N_DOMINOES


def init(rules: Rules, decks: np.ndarray, first_kings: np.ndarray, quests: None = None,
         buildings: np.ndarray | None = None) -> QState:
    """B new games from explicit decks (B, 48) of domino ids, king orders (B, K) and building piles `buildings`
    (B, 32) of tile ids (0-based, required); the first six tiles of a pile fill slots 0..5. Royal Wedding decks are
    (B, 96) draw orders whose lines alternate boxes as `royal_deck` deals them. Queendomino has no quests."""
    if buildings is None or quests is not None:
        raise ValueError("Queendomino games need buildings (B, 32) pile orders and take no quests")
    decks, first_kings, piles = np.asarray(decks), np.asarray(first_kings), np.asarray(buildings)
    b = decks.shape[0] if decks.ndim == 2 else -1
    if decks.shape != (b, rules.deck_size):
        raise ValueError(f"decks must have shape (B, {rules.deck_size}), got {decks.shape}")
    if first_kings.shape != (b, rules.kings):
        raise ValueError(f"first_kings must have shape ({b}, {rules.kings}), got {first_kings.shape}")
    if piles.shape != (b, N_TILES):
        raise ValueError(f"building piles must have shape ({b}, {N_TILES}), got {piles.shape}")
    for name, arr, size in (("deck", decks, rules.n_domino_ids), ("building pile", piles, N_TILES)):
        if any(sorted(row.tolist()) != list(range(size)) for row in arr):
            raise ValueError(f"each {name} must hold the ids 0..{size - 1} once each")
    if rules.is_royal_wedding:
        if ((decks >= N_DOMINOES) != queen_box_positions(rules.line_size)).any():
            raise ValueError("a Royal Wedding deck must alternate boxes line by line, the starting line from "
                             f"Queendomino's (ids {N_DOMINOES}..{2 * N_DOMINOES - 1}), the next from Kingdomino's "
                             f"(ids 0..{N_DOMINOES - 1}); build it with royal_deck")
    if rules.players == 2:
        ok = all(k[0] == k[3] and k[1] == k[2] and k[0] != k[1] for k in first_kings.tolist())
        if not ok:
            raise ValueError("2-player Queendomino's first_kings must be A, B, B, A (player A picks first, then B "
                             "twice, then A), e.g. [0, 1, 1, 0] or [1, 0, 0, 1]")
    elif not (np.sort(first_kings, axis=1) == np.arange(rules.players)).all():
        raise ValueError(f"first_kings must be an ordering of the players 0..{rules.players - 1}")
    s, line, kingdoms = rules.frame, rules.line_size, rules.kingdoms
    terrain = np.zeros((b, kingdoms, s, s), dtype=np.int8)
    terrain[:, :, rules.castle, rules.castle] = CASTLE
    state = QState(
        rules=rules, terrain=terrain, crowns=np.zeros_like(terrain),
        bbox=np.full((b, kingdoms, 4), rules.castle, dtype=np.int8), deck=decks.astype(np.int8),
        drawn=np.full(b, line, dtype=np.int16), cur_line=np.full((b, line), -1, dtype=np.int8),
        cur_owner=np.full((b, line), -1, dtype=np.int8), next_line=np.sort(decks[:, :line], axis=1).astype(np.int8),
        next_owner=np.full((b, line), -1, dtype=np.int8), first_kings=first_kings.astype(np.int8),
        order_player=first_kings.astype(np.int8), order_slot=np.full((b, rules.kings), -1, dtype=np.int8),
        turn=np.zeros(b, dtype=np.int8), round=np.zeros(b, dtype=np.int8), phase=np.full(b, PICK, dtype=np.int8),
        scores=np.full((b, kingdoms), START_COINS // 3, dtype=np.int16), largest=np.zeros((b, kingdoms), dtype=np.int8),
        total_crowns=np.zeros((b, kingdoms), dtype=np.int8), discarded=np.zeros((b, kingdoms), dtype=np.int8),
        n_steps=np.zeros(b, dtype=np.int16), quests=np.zeros((b, 17), dtype=np.bool_),
        coins=np.full((b, kingdoms), START_COINS, dtype=np.int32),
        knights=np.full((b, kingdoms), START_KNIGHTS, dtype=np.int8),
        knights_owned=np.full((b, kingdoms), START_KNIGHTS, dtype=np.int8),
        towers=np.zeros((b, kingdoms), dtype=np.int8),
        knight_board=np.zeros_like(terrain), building_board=np.full_like(terrain, -1),
        queen=np.full(b, -1, dtype=np.int8), dragon=np.ones(b, dtype=np.bool_),
        slots=piles[:, :SLOTS].astype(np.int8), pile=piles.astype(np.int8), pile_pos=np.full(b, SLOTS, dtype=np.int8),
        placed=np.full((b, 4), -1, dtype=np.int8), knight_done=np.zeros((b, 2), dtype=np.bool_),
    )
    return state


def deal_games(rules: Rules, rngs: Sequence[np.random.Generator]) -> QState:
    """One new game per generator, each dealt by `deal`."""
    dealt = [deal(rules, rng) for rng in rngs]
    b = len(dealt)
    return init(rules, np.array([d[0] for d in dealt], dtype=np.int8).reshape(b, rules.deck_size),
                np.array([d[1] for d in dealt], dtype=np.int8).reshape(b, rules.kings),
                buildings=np.array([d[2] for d in dealt], dtype=np.int8).reshape(b, N_TILES))


def legal_action_mask(state: QState, out: np.ndarray) -> np.ndarray:
    kernels.q_legal_mask(state.arrays_for(QueendominoMaskArrays), state.constants, out)
    return out


def step(state: QState, actions: np.ndarray) -> QState:
    status = np.empty(state.batch_size, dtype=np.int8)
    n_illegal = kernels.q_step(state.arrays, state.constants, actions, status)
    if n_illegal:
        raise illegal_actions(state, actions, status, PHASE_NAMES, "step")
    return state


def observe(state: QState, viewer: np.ndarray, out: np.ndarray) -> np.ndarray:
    if kernels.q_observe(state.arrays_for(QueendominoObserveArrays), state.constants, viewer, out):
        r = state.rules
        raise ValueError(f"viewer must hold player indices in 0..{r.players - 1}, got {sorted(set(viewer.tolist()))}")
    return out


def rank_keys(state: QState) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(B, K) scores, largest territories and a crowns key of zeros: Queendomino has no crown tie-break."""
    return state.scores, state.largest, np.zeros_like(state.scores)


def rescore(state: QState, game: int, kingdom: int) -> tuple[int, int, int]:
    """(score, largest territory, crowns) of one kingdom computed afresh by the scoring kernel."""
    r = state.rules
    s = r.frame
    k = kingdom
    points, largest, crowns = kernels.q_score(
        state.terrain[game, k], state.crowns[game, k], state.bbox[game, k], state.building_board[game, k],
        int(state.coins[game, k]), int(state.knights_owned[game, k]), int(state.towers[game, k]),
        bool(state.queen[game] == k), r.building_deck.table, np.zeros((s, s), dtype=np.int32),
        np.zeros(s * s, dtype=np.int64), np.zeros((s, s), dtype=np.int64), np.zeros(9, dtype=np.int64))
    return int(points), int(largest), int(crowns)


def score_breakdown(state: QState, game: int, kingdom: int) -> dict:
    """One kingdom's score (a team's, in team games), itemised: {"wealth", "territories": [{"terrain", "squares",
    "crowns" (on the dominoes and buildings), "queen" (she sits there), "points"}], "buildings": [{"tile", "name",
    "points"}], "queen": the points she adds, "total", "largest"}. The Queen sits on the host's largest territory, among
    equally large ones the first that scores most."""
    r = state.rules
    deck = r.building_deck
    table = deck.table
    terrain, board = state.terrain[game, kingdom], state.building_board[game, kingdom]
    ecrowns = state.crowns[game, kingdom].copy()
    ecrowns[board >= 0] += table[board[board >= 0], 0]
    labels = np.zeros((r.frame, r.frame), dtype=np.int32)
    _scan(terrain, ecrowns, labels, np.zeros(r.frame * r.frame, dtype=np.int64))
    territories = []
    for label in range(1, labels.max() + 1):
        cells = labels == label
        squares, crowns = int(cells.sum()), int(ecrowns[cells].sum())
        territories.append({"terrain": QUEEN_TERRAINS[int(terrain[cells][0]) - 1], "squares": squares,
                            "crowns": crowns, "queen": False, "points": squares * crowns})
    queen = 0
    if state.queen[game] == kingdom and territories:
        largest = max(t["squares"] for t in territories)
        host = max((t for t in territories if t["squares"] == largest), key=lambda t: t["points"])
        host["queen"] = True
        queen = largest
    counts = {name: sum(t["terrain"] == name for t in territories) for name in QUEEN_TERRAINS}
    buildings = []
    for row, col in zip(*np.nonzero(board >= 0), strict=True):
        tile = int(board[row, col])
        per = deck.points_per[tile]
        points = int(table[tile, 1])
        if per.startswith("territory:"):
            points *= counts[per.split(":")[1]]
        elif per == "knight":
            points *= int(state.knights_owned[game, kingdom])
        elif per == "tower":
            points *= int(state.towers[game, kingdom])
        buildings.append({"tile": tile + 1, "name": deck.names[tile], "square": (int(row), int(col)),
                          "points": points})
    territories.sort(key=lambda t: (-t["points"], -t["squares"]))
    wealth = int(state.coins[game, kingdom]) // 3
    total = wealth + sum(t["points"] for t in territories) + queen + sum(b["points"] for b in buildings)
    return {"wealth": wealth, "territories": territories, "queen": queen, "buildings": buildings, "total": total,
            "largest": int(state.largest[game, kingdom])}
