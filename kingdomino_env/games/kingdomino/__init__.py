"""Kingdomino: its rules (`game`), numba kernels (`kernels`), the compiled Full Greedy (`greedy`), the quest cards
(`quests`) and its observation (`observation`), bound into one `Game` (`GAME`)."""

from ..protocol import Game
from . import compiled, game, observation

GAME = Game(
    name="kingdomino", has_buildings=False, crown_tiebreak=True, deal=game.deal, deal_games=game.deal_games,
    init=game.init, legal_action_mask=game.legal_action_mask, step=game.step, observe=game.observe,
    rank_keys=game.rank_keys, score_breakdown=game.score_breakdown, greedy_actions=game.greedy_actions,
    observation=observation.blocks, compiled=compiled.GAME,
)
