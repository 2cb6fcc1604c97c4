"""The single-game Gymnasium env at its public path; the implementation is `kingdomino_env.envs.solo`."""

from __future__ import annotations

from .envs.solo import KingdominoSoloEnv

__all__ = ["KingdominoSoloEnv"]
