"""kingdomino_env: exact Kingdomino rules on batched numpy state, as PettingZoo and Gymnasium environments.

`import kingdomino_env` registers the AEC env with PettingZoo, so that
`pettingzoo.make("aec", "kingdomino/Kingdomino-v0", players=2)` works (and `"kingdomino/Queendomino-v0"`,
`"kingdomino/RoyalWedding-v0"`), and the single-game env with Gymnasium:
`gymnasium.make("kingdomino/KingdominoSolo-v0")`, `"kingdomino/QueendominoSolo-v0"` and
`"kingdomino/RoyalWeddingSolo-v0"`
(`gymnasium.make_vec` gives the batched `KingdominoVectorEnv`).
"""

from __future__ import annotations

import gymnasium
import pettingzoo

from .core import State

# Imported through the public facade modules, so that `kingdomino_env.env` is the env() function (the facade module
# `kingdomino_env.env` is loaded first and the function then rebinds the name).
from .env import env, raw_env
from .gym_env import KingdominoSoloEnv
from .rules import Rules
from .vector_env import KingdominoVectorEnv

__all__ = ["KingdominoSoloEnv", "KingdominoVectorEnv", "Rules", "State", "env", "raw_env"]
__version__ = "0.1.0"

pettingzoo.register("aec", "kingdomino/Kingdomino-v0", entry_point="kingdomino_env.envs.aec:env")
pettingzoo.register("aec", "kingdomino/Queendomino-v0", entry_point="kingdomino_env.envs.aec:queendomino_env")
pettingzoo.register("aec", "kingdomino/RoyalWedding-v0", entry_point="kingdomino_env.envs.aec:royal_wedding_env")

# The single-game Gymnasium env; gymnasium.make_vec(..., num_envs=B) gives the batched KingdominoVectorEnv.
gymnasium.register(id="kingdomino/KingdominoSolo-v0", entry_point="kingdomino_env.envs.solo:KingdominoSoloEnv",
                   vector_entry_point="kingdomino_env.envs.vector:make_vector_env")
gymnasium.register(id="kingdomino/QueendominoSolo-v0", entry_point="kingdomino_env.envs.solo:KingdominoSoloEnv",
                   vector_entry_point="kingdomino_env.envs.vector:make_vector_env", kwargs={"game": "queendomino"})
gymnasium.register(id="kingdomino/RoyalWeddingSolo-v0", entry_point="kingdomino_env.envs.solo:KingdominoSoloEnv",
                   vector_entry_point="kingdomino_env.envs.vector:make_vector_env",
                   kwargs={"game": "royal_wedding", "players": 3})
