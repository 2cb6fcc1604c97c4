"""The batched Gymnasium vector env at its public path; the implementation is `kingdomino_env.envs.vector`."""

from __future__ import annotations

from .envs.vector import KingdominoVectorEnv, make_vector_env

__all__ = ["KingdominoVectorEnv", "make_vector_env"]
