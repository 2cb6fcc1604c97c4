"""What only Queendomino has in the training envs: the waiting slots' pass in self-play and the vector env's
errors about Queendomino's actions and options. What every game does is in test_every_game.py."""

from __future__ import annotations

import numpy as np
import pytest

import kingdomino_env  # noqa: F401  (registers the envs)
from kingdomino_env import core
from kingdomino_env.vector_env import KingdominoVectorEnv


def test_self_play_waiting_slots_pass_with_the_discard_id_not_the_game_pass():
    """A waiting slot's pass is the discard id, never Queendomino's own PASS action."""
    vec = KingdominoVectorEnv(2, self_play=True, game="queendomino", players=3)
    assert vec.pass_action == vec.rules.discard_action != vec.rules.pass_action


def test_vector_env_errors_as_in_kingdomino():
    vec = KingdominoVectorEnv(2, self_play=True, game="queendomino")
    vec.reset(seed=0)
    masks = vec.action_masks()
    actions = core.random_legal_actions(masks, np.random.default_rng(0))
    waiting = int(np.flatnonzero(~vec._info()["to_move"])[0])
    bad = actions.copy()
    bad[waiting] = vec.rules.pass_action  # the game's PASS is not the waiting slots' pass
    with pytest.raises(ValueError, match=f"must send the pass action {vec.pass_action}"):
        vec.step(bad)
    with pytest.raises(ValueError, match="actions must be 4 integers"):
        vec.step(actions.astype(float))
    with pytest.raises(ValueError, match="Queendomino has no option harmony"):
        KingdominoVectorEnv(2, game="queendomino", harmony=True)
    with pytest.raises(ValueError, match="game must be one of"):
        KingdominoVectorEnv(2, game="queendom")

