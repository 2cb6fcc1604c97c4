"""What the deal of a game leaves to chance, one reveal at a time, for the OpenSpiel games.

The core deals a whole game at once (`core.deal`): the deck's draw order, the starting-round king order, the
Builders' Board pile (Queendomino) and the random quests. OpenSpiel wants each of these as a chance node at the
moment it becomes known, so a `Deal` holds what has been revealed so far and lists, for a reveal, the outcomes
still possible. Every outcome is equally likely, which matches the core's shuffles: a uniform permutation revealed
position by position gives each position a uniform choice among the ids not yet revealed (in the Royal Wedding,
among those of the box that position is drawn from).

A `Deal` also completes the unrevealed positions with placeholders (the ids not yet revealed, ascending), so that
the core can hold a full deck and pile: the core reads a position only when it draws it, and the adapter reveals
every position before the core draws it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from kingdomino_env import core
from kingdomino_env.games.dominoes import N_DOMINOES
from kingdomino_env.games.kingdomino.quests import N_QUESTS
from kingdomino_env.rules import Rules

#: Kinds of reveal. DOMINO: the domino at a deck position; TILE: the building tile at a pile position; ORDER: the
#: whole starting-round king order (2 players, where players hold several kings); KING: the player of one king of
#: that order (3 players or more); QUEST: one random quest.
DOMINO, TILE, ORDER, KING, QUEST = "domino", "tile", "order", "king", "quest"
#: Tiles in the core's building pile (Queendomino's 32 buildings).
N_TILES = 32


@dataclass(frozen=True)
class Reveal:
    """One chance node: what is revealed (`kind`) and where (a deck or pile position, a king's index)."""

    kind: str
    index: int


@cache
def deck_pools(rules: Rules) -> tuple[np.ndarray, ...]:
    """The domino ids each deck position may hold: those of the box it is drawn from (`Rules.deck_boxes`; all 48 but
    in the Royal Wedding)."""
    boxes = [np.arange(N_DOMINOES * box, N_DOMINOES * (box + 1)) for box in range(int(rules.deck_boxes.max()) + 1)]
    return tuple(boxes[box] for box in rules.deck_boxes)


@cache
def king_orders(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """2 players: every starting-round king order the core accepts (Kingdomino: the 6 orders of kings 0, 0, 1, 1;
    Queendomino: A, B, B, A for either A), found by asking `core.init`, which holds the rule."""
    orders = []
    deck = Deal(rules).full_deck()
    for order in itertools.product(range(rules.players), repeat=rules.kings):
        try:
            start_core(rules, deck, np.array(order), np.arange(N_QUESTS) < rules.random_quests, np.arange(N_TILES))
        except ValueError:
            continue
        orders.append(order)
    return tuple(orders)


def start_core(rules: Rules, deck: np.ndarray, kings: np.ndarray, quests: np.ndarray, pile: np.ndarray
               ) -> core.State:
    """A core game (batch of one) from a full deck, king order, quest flags and building pile."""
    return core.init(rules, deck[None], kings[None], quests[None] if rules.random_quests else None,
                     pile[None] if rules.has_buildings else None)


def initial_reveals(rules: Rules) -> list[Reveal]:
    """The chance nodes before the first move: the starting line, the Builders' Board (Queendomino), the random
    quests, then the starting-round king order."""
    out = [Reveal(DOMINO, i) for i in range(rules.line_size)]
    if rules.has_buildings:
        out += [Reveal(TILE, i) for i in range(6)]
    out += [Reveal(QUEST, i) for i in range(rules.random_quests)]
    if rules.players == 2:
        out.append(Reveal(ORDER, 0))
    else:
        out += [Reveal(KING, i) for i in range(rules.kings)]
    return out


@dataclass
class Deal:
    """What chance has revealed so far: deck and pile positions (-1 unrevealed), king order, quests."""

    rules: Rules
    deck: np.ndarray = field(init=False)
    pile: np.ndarray = field(init=False)
    kings: list[int] = field(default_factory=list)
    quests: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.deck = np.full(self.rules.deck_size, -1, dtype=np.int64)
        self.pile = np.full(N_TILES if self.rules.has_buildings else 0, -1, dtype=np.int64)

    def outcomes(self, reveal: Reveal) -> list[int]:
        """The outcome ids still possible for `reveal`, ascending: domino ids, tile ids, indices into
        `king_orders`, players or quest indices."""
        if reveal.kind == DOMINO:
            pool = deck_pools(self.rules)[reveal.index]
            return np.setdiff1d(pool, self.deck).tolist()
        if reveal.kind == TILE:
            return np.setdiff1d(np.arange(N_TILES), self.pile).tolist()
        if reveal.kind == ORDER:
            return list(range(len(king_orders(self.rules))))
        if reveal.kind == KING:
            return sorted(set(range(self.rules.players)) - set(self.kings))
        return sorted(set(range(N_QUESTS)) - set(self.quests))

    def outcome_ids(self, reveal: Reveal) -> int:
        """How many outcome ids a reveal of this kind has (possible or not any more): ids are 0..that - 1."""
        if reveal.kind == DOMINO:
            return self.rules.n_domino_ids
        if reveal.kind == TILE:
            return N_TILES
        if reveal.kind == ORDER:
            return len(king_orders(self.rules))
        if reveal.kind == KING:
            return self.rules.players
        return N_QUESTS

    def apply(self, reveal: Reveal, outcome: int) -> None:
        """Record `outcome` for `reveal`; ValueError when it is not among `outcomes(reveal)`."""
        possible = self.outcomes(reveal)
        if outcome not in possible:
            raise ValueError(f"chance outcome {outcome} is not possible for the {reveal.kind} reveal "
                             f"#{reveal.index}; possible: {possible}")
        if reveal.kind == DOMINO:
            self.deck[reveal.index] = outcome
        elif reveal.kind == TILE:
            self.pile[reveal.index] = outcome
        elif reveal.kind == ORDER:
            self.kings = list(king_orders(self.rules)[outcome])
        elif reveal.kind == KING:
            self.kings.append(outcome)
        else:
            self.quests.append(outcome)

    def full_deck(self) -> np.ndarray:
        """The deck with every unrevealed position holding a placeholder from its pool (ascending, unused ids)."""
        deck = self.deck.copy()
        pools = deck_pools(self.rules)
        used = set(deck[deck >= 0].tolist())
        for pos in np.flatnonzero(deck < 0):
            deck[pos] = next(d for d in pools[pos].tolist() if d not in used)
            used.add(int(deck[pos]))
        return deck

    def full_pile(self) -> np.ndarray:
        """The building pile with every unrevealed position holding an unrevealed tile (ascending)."""
        pile = self.pile.copy()
        if pile.size:
            pile[pile < 0] = np.setdiff1d(np.arange(N_TILES), self.pile)
        return pile

    def quest_flags(self) -> np.ndarray:
        flags = np.zeros(N_QUESTS, dtype=bool)
        flags[self.quests] = True
        return flags

    def start(self) -> core.State:
        """The core game once the initial reveals are done."""
        return start_core(self.rules, self.full_deck(), np.array(self.kings), self.quest_flags(), self.full_pile())
