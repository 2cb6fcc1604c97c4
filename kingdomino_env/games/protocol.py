"""What a game provides: the one interface through which `core`, the envs and the agents play every game.

Each game's package (`games.kingdomino`, `games.queendomino`) builds one `Game` from its pure modules; `Rules.engine`
picks it once from the variant, and `kingdomino_env.core` forwards to it without asking which game it is. The
Royal Wedding is a variant of Queendomino's game. A game imports nothing above `games/`: it reads the variant
through the `Rules` object it is handed (sizes, options, `constants`).

A new game implements every field below and adds its name to `rules.GAMES` (see the documentation's "adding a
game" guide).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .blocks import Block
from .compiled import CompiledGame
from .state import State

if TYPE_CHECKING:
    from ..rules import Rules


@dataclass(frozen=True)
class Game:
    """One game's rules as functions over a batched `State` (B games of one variant, batch axis first).

    Attributes:
        name: The `Rules.game` value of the game's base variant.
        has_buildings: Kingdoms have Queendomino's economy (coins, knights, towers, buildings, the Queen, the
            Dragon) and its optional steps.
        crown_tiebreak: Crowns break a tie of score and largest territory.
        deal: `deal(rules, rng) -> tuple`: one game's deal arrays, in `init`'s argument order (deck, first_kings,
            then the game's extras).
        deal_games: `deal_games(rules, rngs) -> State`: one new game per generator, each dealt by `deal` (and its
            quests drawn after it), so a seed names a game.
        init: `init(rules, decks, first_kings, quests, buildings) -> State`: B games from explicit deals, checked
            (ValueError names what is wrong).
        legal_action_mask: `legal_action_mask(state, out) -> out`: `(B, n_actions)` bool.
        step: `step(state, actions) -> state`, in place; raises `IllegalActionError`.
        observe: `observe(state, viewer, out) -> out`: `(B, obs_size)` float32 seen by `viewer[b]`; raises
            ValueError on a bad viewer.
        rank_keys: `rank_keys(state) -> (scores, largest, crowns)`, `(B, K)` each: the keys the game ranks
            kingdoms by.
        score_breakdown: `score_breakdown(state, game, kingdom) -> dict`: one kingdom's score itemised.
        greedy_actions: `greedy_actions(state, games, rng, random_draft) -> (len(games),)`: Full Greedy's actions
            (GPRD's with `random_draft`).
        observation: `observation(rules) -> tuple[Block, ...]`: the named blocks of the observation vector, in
            order (`blocks.Block`).
        compiled: The game's compiled kernels over one game (`compiled.CompiledGame`), for compiled callers such
            as a search.
    """

    name: str
    has_buildings: bool
    crown_tiebreak: bool
    deal: Callable[[Rules, np.random.Generator], tuple[np.ndarray, ...]]
    deal_games: Callable[[Rules, Sequence[np.random.Generator]], State]
    init: Callable[..., State]
    legal_action_mask: Callable[[State, np.ndarray], np.ndarray]
    step: Callable[[State, np.ndarray], State]
    observe: Callable[[State, np.ndarray, np.ndarray], np.ndarray]
    rank_keys: Callable[[State], tuple[np.ndarray, np.ndarray, np.ndarray]]
    score_breakdown: Callable[[State, int, int], dict[str, Any]]
    greedy_actions: Callable[[State, np.ndarray, np.random.Generator, bool], np.ndarray]
    observation: Callable[[Rules], tuple[Block, ...]]
    compiled: CompiledGame
