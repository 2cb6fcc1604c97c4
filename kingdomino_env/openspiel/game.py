"""The three OpenSpiel games, their parameters and metadata, and their observer."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from kingdomino_env import core
from kingdomino_env.envs.aec import observation_space
from kingdomino_env.rules import RuleOption, Rules

from .deal import N_QUESTS, N_TILES, king_orders
from .state import KingdominoState

#: Separator of quest names in the `quests` parameter, e.g. ``quests=lost_corner+bleak_king``.
QUEST_SEPARATOR = "+"

#: Each game's player counts (the fewest is its default).
_PLAYERS = {"kingdomino": (2, 4), "queendomino": (2, 4), "royal_wedding": (3, 8)}


def _parameter_default(option: RuleOption, game: str) -> Any:
    """An option's default as an OpenSpiel parameter: a list of names as one string, no file as ""."""
    if option.name == "players":
        return _PLAYERS[game][0]
    if isinstance(option.default, tuple):
        return QUEST_SEPARATOR.join(option.default)
    return "" if option.default is None else option.default


#: Each game's parameters and their defaults: the `Rules` options that game takes.
PARAMETERS: dict[str, dict[str, Any]] = {
    game: {o.name: _parameter_default(o, game) for o in Rules.options() if game in o.games and o.name != "game"}
    for game in _PLAYERS}


def short_name(game: str) -> str:
    return f"python_{game}"


def _long_name(game: str) -> str:
    """The game's name as it reads at the start of a sentence ("The Royal Wedding")."""
    name = Rules(players=_PLAYERS[game][0], game=game).title_in_text
    return name[:1].upper() + name[1:]


def game_type(game: str) -> pyspiel.GameType:
    """Sequential, explicit chance, perfect information (every action and chance outcome is seen by all), zero-sum
    (the core's "outcome" rewards sum to 0 in every game), rewards at the end only."""
    low, high = _PLAYERS[game]
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"Python {_long_name(game)}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS[game],
    )


def rules_from_parameters(game: str, params: dict[str, Any]) -> Rules:
    """The `Rules` of `game` with OpenSpiel parameters `params`; ValueError naming the game and what is allowed."""
    unknown = sorted(set(params) - set(PARAMETERS[game]))
    if unknown:
        raise ValueError(f"{short_name(game)} has no parameter {', '.join(unknown)}; its parameters: "
                         f"{', '.join(PARAMETERS[game])}")
    options = {**PARAMETERS[game], **params}
    for o in Rules.options():
        value = options.get(o.name)
        if isinstance(o.default, tuple) and isinstance(value, str):
            options[o.name] = tuple(value.split(QUEST_SEPARATOR)) if value else ()
        elif o.default is None and o.name in options:
            options[o.name] = value or None
    try:
        return Rules.make(game=game, **options)
    except ValueError as err:
        raise ValueError(f"{short_name(game)}: {err}") from err


def game_info(rules: Rules) -> pyspiel.GameInfo:
    """Players, action ids (the core's layout), chance outcome ids, utilities and the longest game of `rules`."""
    chance = [rules.n_domino_ids, rules.players]
    if rules.has_buildings:
        chance.append(N_TILES)
    if rules.random_quests:
        chance.append(N_QUESTS)
    if rules.players == 2:
        chance.append(len(king_orders(rules)))
    return pyspiel.GameInfo(
        num_distinct_actions=rules.n_actions,
        max_chance_outcomes=max(chance),
        num_players=rules.players,
        min_utility=-1.0 / (rules.kingdoms - 1),
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=rules.max_actions,
    )


class KingdominoGame(pyspiel.Game):
    """`python_kingdomino`; `QueendominoGame` and `RoyalWeddingGame` differ only in `game`."""

    game = "kingdomino"

    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        self.rules = rules_from_parameters(self.game, params)
        super().__init__(game_type(self.game), game_info(self.rules), params)

    def new_initial_state(self) -> KingdominoState:
        return KingdominoState(self, self.rules)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict[str, Any] | None = None) -> KingdominoObserver:
        if params:
            raise ValueError(f"{short_name(self.game)} observers take no parameters, got {sorted(params)}")
        return KingdominoObserver(self.rules, bool(iig_obs_type and iig_obs_type.perfect_recall))


class QueendominoGame(KingdominoGame):
    game = "queendomino"


class RoyalWeddingGame(KingdominoGame):
    game = "royal_wedding"


class KingdominoObserver:
    """Observations from the core: the tensor is `core.observe` seen by the player (egocentric, the layout of
    `kingdomino_env.observation`), the string the table as text. With perfect recall (the information state) the
    string is the history of action and chance outcome ids, which every player sees, and there is no tensor."""

    def __init__(self, rules: Rules, perfect_recall: bool):
        self.rules = rules
        self.perfect_recall = perfect_recall
        size = 0 if perfect_recall else observation_space(rules).shape[0]
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: KingdominoState, player: int) -> None:
        if self.perfect_recall:
            return
        observed = state.observed_core()
        if observed is None:
            self.tensor.fill(0.0)
        else:
            core.observe(observed, np.array([player]), out=self.tensor[None])

    def string_from(self, state: KingdominoState, player: int) -> str:
        if self.perfect_recall:
            return " ".join(map(str, state.history()))
        return str(state)
