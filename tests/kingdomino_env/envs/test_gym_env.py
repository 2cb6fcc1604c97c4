"""KingdominoSoloEnv: bad options and calls. What the single-game env does in every game is in
test_every_game.py."""

from __future__ import annotations

import pytest

import kingdomino_env  # noqa: F401  (registers the env)
from kingdomino_env.gym_env import KingdominoSoloEnv

ENV_ID = "kingdomino/KingdominoSolo-v0"


@pytest.mark.parametrize(("options", "message"), [
    ({"opponents": ["random"]}, "one game takes one opponents entry"),
    ({"opponents": "alphazero"}, "unknown opponent 'alphazero'"),
    ({"players": 4, "opponents": ("random",)}, "lists 1 opponents; a 4-player game has 3"),
    ({"learner_seat": 2}, "learner_seat must be"),
    ({"illegal_reward": "lose"}, "illegal_reward must be a number"),
    ({"render_mode": "human"}, "unknown render_mode 'human'"),
    ({"reward": "points"}, "unknown reward 'points'"),
])
def test_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        KingdominoSoloEnv(**options)


def test_bad_calls():
    env = KingdominoSoloEnv()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    with pytest.raises(ValueError, match="reset takes no options"):
        env.reset(options={"record": {}})
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action must be an integer"):
        env.step(1.0)
