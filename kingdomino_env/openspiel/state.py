"""The OpenSpiel state of one game: the core game plus the chance nodes of its deal and its reveals.

Players' actions are the core's action ids. Chance nodes come whenever the core would draw something: the deal
(the starting line, the Builders' Board, random quests, the starting-round king order) and, after the action
that ends a round, the dominoes of the next line and the building tiles that refill the Builders' Board. That
action is held back (`pending`) while its reveals are made and applied to the core once they are known, so the
player who ends a round acts without seeing the line drawn after it. How many positions an action draws is
learnt by stepping a copy of the core, so the rules stay in the core.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pyspiel

from kingdomino_env import core, record
from kingdomino_env.games.kingdomino.quests import QUESTS
from kingdomino_env.rendering.text import ansi, domino_description
from kingdomino_env.rules import Rules, short_repr

from .deal import DOMINO, KING, ORDER, TILE, Deal, Reveal, initial_reveals, king_orders


class KingdominoState(pyspiel.State):
    """One game of a `python_kingdomino`, `python_queendomino` or `python_royal_wedding` game."""

    def __init__(self, game: pyspiel.Game, rules: Rules):
        super().__init__(game)
        self.rules = rules
        self._deal = Deal(rules)
        self._reveals = initial_reveals(rules)
        self._core: core.State | None = None
        self._pending: int | None = None
        self._actions: list[int] = []
        self._text: str | None = None
        self._player = pyspiel.PlayerId.CHANCE

    # OpenSpiel's interface.
    def current_player(self) -> int:
        return self._player

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._player or player < 0:
            return []
        return np.flatnonzero(core.legal_action_mask(self._core)[0]).tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self._reveals:
            return []
        outcomes = self._deal.outcomes(self._reveals[0])
        return [(o, 1.0 / len(outcomes)) for o in outcomes]

    def _apply_action(self, action: int) -> None:
        self._text = None
        if self._reveals:
            self._deal.apply(self._reveals[0], int(action))
            self._reveals.pop(0)
            if not self._reveals:
                self._after_reveals()
        else:
            self._play(int(action))
        if self._reveals:
            self._player = pyspiel.PlayerId.CHANCE
        elif self._core.is_over[0]:
            self._player = pyspiel.PlayerId.TERMINAL
        else:
            self._player = int(self._core.current_player[0])

    def _action_to_string(self, player: int, action: int) -> str:
        """The text of a player's action, or of a chance outcome at this chance node; ValueError for a chance outcome
        asked for where no chance node is, or outside the ids its reveal can take."""
        if player == pyspiel.PlayerId.CHANCE:
            if not self._reveals:
                where = "the game is over" if self.is_terminal() else f"player {self._player} is to act"
                raise ValueError(f"chance outcome {action} does not exist here: this is no chance node ({where}); "
                                 "chance outcomes have text at chance nodes only")
            reveal = self._reveals[0]
            count = self._deal.outcome_ids(reveal)
            if not 0 <= action < count:
                raise ValueError(f"chance outcome {action} does not exist for the {reveal.kind} reveal "
                                 f"#{reveal.index}; its outcomes are 0..{count - 1} (possible now: "
                                 f"{short_repr(self._deal.outcomes(reveal))})")
            return self._outcome_text(reveal, action)
        return self.rules.describe_action(action)

    def is_terminal(self) -> bool:
        return self._player == pyspiel.PlayerId.TERMINAL

    def returns(self) -> list[float]:
        """The core's "outcome" rewards at the end (zero-sum; a sole winner gets +1), zeros before. The core gives
        float32; these are the exact fractions (denominators divide w (K - 1) for w winners of K kingdoms) as
        floats, so that they sum to 0 as closely as float64 allows."""
        if not self.is_terminal():
            return [0.0] * self.rules.players
        denominator = self.rules.kingdoms * (self.rules.kingdoms - 1)
        return [float(Fraction(float(v)).limit_denominator(denominator)) for v in core.rewards(self._core)[0]]

    def __str__(self) -> str:
        """The table as text (our "ansi" render); during the deal, what has been revealed."""
        if self._text is None:
            if self._core is None:
                self._text = "Dealing. " + self._deal_text()
            else:
                self._text = ansi(self._core)
                if self._pending is not None:
                    self._text += (f"\n{self.rules.describe_action(self._pending)} played; revealing "
                                   + ", ".join(f"{r.kind} {r.index}" for r in self._reveals))
        return self._text

    # Our additions.
    @property
    def next_reveal(self) -> Reveal | None:
        """At a chance node, what its outcome reveals (kind and deck, pile or king position); None elsewhere."""
        return self._reveals[0] if self._reveals else None

    @property
    def pending_action(self) -> int | None:
        """The player's action held back while the reveals it causes are made (None otherwise)."""
        return self._pending

    def core_state(self) -> core.State:
        """A copy of the core game (a batch of one) at this decision or terminal node, for our agents."""
        if self._reveals:
            raise ValueError("this is a chance node: the core game is complete only at decision and terminal nodes")
        return self._core.copy()

    def observed_core(self) -> core.State | None:
        """The core game as the players see it (the state itself, not a copy: read it, do not step it): at a chance
        node after a round-ending action, the position before that action (it is applied once the line it draws
        is revealed); None during the deal."""
        return self._core

    def record(self) -> dict[str, Any]:
        """Our game record (`kingdomino_env.record`) of the game so far, at a decision or terminal node. Deck and
        pile positions not revealed yet hold placeholders (the unrevealed ids, ascending): they play no part in
        the game so far, and a finished game has revealed every domino it used."""
        return record.make_record(self.core_state(), 0, self._actions)

    # Internals.
    def _play(self, action: int) -> None:
        mask = core.legal_action_mask(self._core)[0]
        if not 0 <= action < mask.size or not mask[action]:
            legal = np.flatnonzero(mask).tolist()
            raise ValueError(f"illegal action {action} for player {self.current_player()}; legal: {legal[:20]}"
                             + (f" and {len(legal) - 20} more" if len(legal) > 20 else ""))
        trial = core.step(self._core.copy(), [action])
        self._actions.append(action)
        dominoes = range(int(self._core.drawn[0]), int(trial.drawn[0]))
        tiles = range(int(self._core.pile_pos[0]), int(trial.pile_pos[0])) if self.rules.has_buildings else ()
        if not dominoes and not tiles:
            self._core = trial
            return
        self._pending = action
        self._reveals = [Reveal(DOMINO, i) for i in dominoes] + [Reveal(TILE, i) for i in tiles]

    def _after_reveals(self) -> None:
        if self._core is None:
            self._core = self._deal.start()
            return
        self._core.deck[0] = self._deal.full_deck()
        if self.rules.has_buildings:
            self._core.pile[0] = self._deal.full_pile()
        core.step(self._core, [self._pending])
        self._pending = None

    def _outcome_text(self, reveal: Reveal, outcome: int) -> str:
        if reveal.kind == DOMINO:
            return f"deck {reveal.index}: {domino_description(self.rules, outcome)}"
        if reveal.kind == TILE:
            return f"pile {reveal.index}: tile {outcome + 1} {self.rules.building_deck.names[outcome]}"
        if reveal.kind == ORDER:
            return f"king order {list(king_orders(self.rules)[outcome])}"
        if reveal.kind == KING:
            return f"king {reveal.index}: player_{outcome}"
        return f"quest {QUESTS[outcome]}"

    def _deal_text(self) -> str:
        deal = self._deal
        parts = [f"line: {[domino_description(self.rules, d) for d in deal.deck if d >= 0]}"]
        if self.rules.has_buildings:
            parts.append(f"board: {[int(t) + 1 for t in deal.pile if t >= 0]}")
        if deal.quests:
            parts.append(f"quests: {[QUESTS[q] for q in deal.quests]}")
        if deal.kings:
            parts.append(f"kings: {deal.kings}")
        return "; ".join(parts)
