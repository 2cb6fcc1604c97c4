"""kingdomino_env: exact Kingdomino rules on batched numpy state, as PettingZoo and Gymnasium environments.

`import kingdomino_env` registers the AEC env with PettingZoo, so that
`pettingzoo.make("aec", "kingdomino/Kingdomino-v0", players=2)` works.
"""

from __future__ import annotations

import pettingzoo

from .core import State
from .env import env, raw_env
from .rules import Rules

__all__ = ["Rules", "State", "env", "raw_env"]
__version__ = "0.1.0"

pettingzoo.register("aec", "kingdomino/Kingdomino-v0", entry_point="kingdomino_env.env:env")
