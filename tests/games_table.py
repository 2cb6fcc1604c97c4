"""The one table of games the tests run through: every game and variant, each an id and its env keyword arguments
(`kingdomino_env.env(**GAMES[id])`, `Rules(**GAMES[id])`), as benchmarks/digests.py names them, and the helpers
that play them."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from kingdomino_env.rules import Rules

GAMES: dict[str, dict[str, Any]] = {
    "2p": dict(players=2),
    "3p": dict(players=3),
    "3p-36": dict(players=3, three_player_36=True),
    "4p": dict(players=4),
    "mighty-duel": dict(players=2, mighty_duel=True),
    "bonuses": dict(players=4, harmony=True, middle_kingdom=True),
    "quests": dict(players=3, quests=("lost_corner", "bleak_king")),
    "random-quests": dict(players=2, mighty_duel=True, random_quests=2),
    "queendomino-2p": dict(game="queendomino", players=2),
    "queendomino-3p": dict(game="queendomino", players=3),
    "queendomino-4p": dict(game="queendomino", players=4),
    "royal-wedding-3p": dict(game="royal_wedding", players=3),
    "royal-wedding-5p": dict(game="royal_wedding", players=5),
    "royal-wedding-8p": dict(game="royal_wedding", players=8),
    "royal-wedding-6p-teams": dict(game="royal_wedding", players=6, teams=True),
}
RULES: dict[str, Rules] = {name: Rules(**kwargs) for name, kwargs in GAMES.items()}
KINGDOMINO = [name for name, rules in RULES.items() if not rules.is_queendomino]
QUEENDOMINO = [name for name, rules in RULES.items() if rules.game == "queendomino"]
ROYAL_WEDDING = [name for name, rules in RULES.items() if rules.is_royal_wedding]

#: The PettingZoo and Gymnasium ids registered for each game.
AEC_IDS = {"kingdomino": "kingdomino/Kingdomino-v0", "queendomino": "kingdomino/Queendomino-v0",
           "royal_wedding": "kingdomino/RoyalWedding-v0"}
SOLO_IDS = {"kingdomino": "kingdomino/KingdominoSolo-v0", "queendomino": "kingdomino/QueendominoSolo-v0",
            "royal_wedding": "kingdomino/RoyalWeddingSolo-v0"}


def every_game(*names: str) -> pytest.MarkDecorator:
    """Parametrise a test's `game` argument over the table (or the named rows), one test id per game."""
    return pytest.mark.parametrize("game", list(names or GAMES))


def options(game: str) -> dict[str, Any]:
    """The env keyword arguments of a row, without `game` (for the game's registered id)."""
    return {k: v for k, v in GAMES[game].items() if k != "game"}


def play(env, seed: int, until: int | None = None, rng_seed: int = 0) -> list[int]:
    """Reset an AEC env with `seed` and play random legal actions (from the observation's mask) until the end or
    `until` actions; the actions."""
    rng = np.random.default_rng(rng_seed)
    env.reset(seed=seed)
    actions = []
    while not all(env.terminations.values()) and (until is None or len(actions) < until):
        obs = env.observe(env.agent_selection)
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        actions.append(action)
    return actions


def assert_same_state(a, b, context: str = "") -> None:
    """Every array of two core states is equal."""
    for name, value in a._arrays().items():
        np.testing.assert_array_equal(getattr(b, name), value, err_msg=f"{name} {context}")
