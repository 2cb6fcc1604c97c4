"""kingdomino_env: exact Kingdomino rules on batched numpy state, as PettingZoo and Gymnasium environments.

`import kingdomino_env` registers the AEC env with PettingZoo, so that
`pettingzoo.make("aec", "kingdomino/Kingdomino-v0", players=2)` works (and `"kingdomino/Queendomino-v0"`,
`"kingdomino/RoyalWedding-v0"`), and the single-game env with Gymnasium:
`gymnasium.make("kingdomino/KingdominoSolo-v0")`, `"kingdomino/QueendominoSolo-v0"` and
`"kingdomino/RoyalWeddingSolo-v0"`
(`gymnasium.make_vec` gives the batched `KingdominoVectorEnv`).

The rules (`core`, `rules`, `record`, `observation`, `games`) need neither library: each registration is made only
where its library is installed, and the envs (`env`, `raw_env`, `KingdominoSoloEnv`, `KingdominoVectorEnv`) are
imported when first asked for, so that asking for one without PettingZoo and Gymnasium is what raises.
"""

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .compilation import install_first_use_log
from .core import State
from .rules import Rules

if TYPE_CHECKING:
    from .env import env, raw_env
    from .gym_env import KingdominoSoloEnv
    from .vector_env import KingdominoVectorEnv

__all__ = ["KingdominoSoloEnv", "KingdominoVectorEnv", "Rules", "State", "env", "raw_env"]
__version__ = "0.1.0"

#: Names of the envs imported on first use.
_ENVS = ("KingdominoSoloEnv", "KingdominoVectorEnv", "env", "raw_env")
#: The libraries the envs need; the rules need neither.
_ENV_LIBRARIES = ("gymnasium", "pettingzoo")


class _Package(ModuleType):
    """This package's module type: the name `env` is always the env() function, never the facade module
    `kingdomino_env.env` of the same name, which Python binds here whenever that module is first imported."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "env" and isinstance(value, ModuleType):
            value = value.env
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
install_first_use_log()


def __getattr__(name: str) -> Any:
    """The envs, imported on first use through their public modules; without PettingZoo or Gymnasium installed,
    an ImportError that says so."""
    if name not in _ENVS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        if name == "KingdominoSoloEnv":
            from .gym_env import KingdominoSoloEnv as value
        elif name == "KingdominoVectorEnv":
            from .vector_env import KingdominoVectorEnv as value
        else:
            from .env import env, raw_env
            value = env if name == "env" else raw_env
    except ModuleNotFoundError as error:
        if error.name not in _ENV_LIBRARIES:
            raise
        raise ImportError(f"kingdomino_env.{name} needs {error.name}, which is not installed (pip install "
                          f"'gymnasium>=1.0' 'pettingzoo>=1.25'); the rules (kingdomino_env.core, "
                          f"kingdomino_env.rules) work without it") from error
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_ENVS))


def _installed(name: str) -> ModuleType | None:
    """The library `name`, or None where it or the other env library is not installed (any other import error is
    raised)."""
    try:
        return import_module(name)
    except ModuleNotFoundError as error:
        if error.name not in _ENV_LIBRARIES:
            raise
        return None


if (pettingzoo := _installed("pettingzoo")) is not None:
    pettingzoo.register("aec", "kingdomino/Kingdomino-v0", entry_point="kingdomino_env.envs.aec:env")
    pettingzoo.register("aec", "kingdomino/Queendomino-v0", entry_point="kingdomino_env.envs.aec:queendomino_env")
    pettingzoo.register("aec", "kingdomino/RoyalWedding-v0", entry_point="kingdomino_env.envs.aec:royal_wedding_env")

if (gymnasium := _installed("gymnasium")) is not None:
    # The single-game Gymnasium env; gymnasium.make_vec(..., num_envs=B) gives the batched KingdominoVectorEnv.
    gymnasium.register(id="kingdomino/KingdominoSolo-v0", entry_point="kingdomino_env.envs.solo:KingdominoSoloEnv",
                       vector_entry_point="kingdomino_env.envs.vector:make_vector_env")
    gymnasium.register(id="kingdomino/QueendominoSolo-v0", entry_point="kingdomino_env.envs.solo:KingdominoSoloEnv",
                       vector_entry_point="kingdomino_env.envs.vector:make_vector_env", kwargs={"game": "queendomino"})
    gymnasium.register(id="kingdomino/RoyalWeddingSolo-v0", entry_point="kingdomino_env.envs.solo:KingdominoSoloEnv",
                       vector_entry_point="kingdomino_env.envs.vector:make_vector_env",
                       kwargs={"game": "royal_wedding", "players": 3})
