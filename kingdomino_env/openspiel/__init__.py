"""Kingdomino, Queendomino and the Royal Wedding as OpenSpiel games (needs the `openspiel` extra).

`import kingdomino_env.openspiel` registers `python_kingdomino`, `python_queendomino` and `python_royal_wedding`
with pyspiel, so that e.g. ``pyspiel.load_game("python_kingdomino(players=4)")`` works. See docs/openspiel.md.
"""

from __future__ import annotations

try:
    import pyspiel
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError("kingdomino_env.openspiel needs OpenSpiel: pip install 'kingdomino-rl[openspiel]' "
                      "(or pip install open_spiel)") from err

from .game import PARAMETERS, KingdominoGame, QueendominoGame, RoyalWeddingGame, game_type
from .state import KingdominoState

__all__ = ["PARAMETERS", "KingdominoGame", "KingdominoState", "QueendominoGame", "RoyalWeddingGame"]

for _cls in (KingdominoGame, QueendominoGame, RoyalWeddingGame):
    if game_type(_cls.game).short_name not in pyspiel.registered_names():
        pyspiel.register_game(game_type(_cls.game), _cls)
