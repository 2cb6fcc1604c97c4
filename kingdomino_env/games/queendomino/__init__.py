"""Queendomino and the Royal Wedding: their rules (`game`), numba kernels (`kernels`), the compiled greedy
(`greedy`), the building tiles (`buildings`) and their observation (`observation`), bound into one `Game`
(`GAME`; the Royal Wedding is a variant of it)."""

from ..protocol import Game
from . import compiled, game, greedy, observation

GAME = Game(
    name="queendomino", has_buildings=True, crown_tiebreak=False, deal=game.deal, deal_games=game.deal_games,
    init=game.init, legal_action_mask=game.legal_action_mask, step=game.step, observe=game.observe,
    rank_keys=game.rank_keys, score_breakdown=game.score_breakdown, greedy_actions=greedy.greedy_actions,
    observation=observation.blocks, compiled=compiled.GAME,
)
