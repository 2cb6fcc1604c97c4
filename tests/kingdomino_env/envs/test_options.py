"""The `Rules` options in one place: `Rules.options()` lists them, `Rules.make` turns `rules=` or option keywords
into a variant (refusing both, or an unknown option), and every adapter takes either form, with the same game."""

from __future__ import annotations

import inspect
from dataclasses import fields

import gymnasium
import numpy as np
import pettingzoo
import pytest

import kingdomino_env
from kingdomino_env import core
from kingdomino_env.envs.aec import queendomino_env, raw_env, royal_wedding_env
from kingdomino_env.envs.solo import KingdominoSoloEnv
from kingdomino_env.envs.vector import KingdominoVectorEnv
from kingdomino_env.rules import GAMES, Rules

VARIANTS = [
    {"players": 3, "harmony": True, "middle_kingdom": True},
    {"players": 2, "mighty_duel": True, "random_quests": 2},
    {"players": 3, "three_player_36": True, "quests": ("lost_corner", "bleak_king")},
    {"players": 3, "game": "queendomino"},
    {"players": 6, "game": "royal_wedding", "teams": True},
]


def test_options_list_every_field_with_its_default_help_and_games():
    options = Rules.options()
    assert [o.name for o in options] == [f.name for f in fields(Rules)]
    assert all(getattr(Rules(), o.name) == o.default for o in options if o.name != "players")
    assert all(o.help.endswith(".") and len(o.help) > 10 for o in options)
    assert all(set(o.games) <= set(GAMES) and o.games for o in options)
    assert {o.name for o in options if o.games == ("kingdomino",)} == {
        "mighty_duel", "harmony", "middle_kingdom", "three_player_36", "quests", "random_quests"}


def test_make_builds_or_passes_rules_through():
    rules = Rules(3, harmony=True)
    assert Rules.make(rules) is rules
    assert Rules.make(players=3, harmony=True) == rules
    assert Rules.make() == Rules()


def test_make_refuses_an_unknown_option_naming_the_close_match_and_the_allowed_ones():
    with pytest.raises(ValueError) as err:
        Rules.make(players=2, harmonie=True)
    message = str(err.value)
    assert "unknown rules option 'harmonie' (did you mean 'harmony'?)" in message
    assert message.endswith("allowed: " + ", ".join(o.name for o in Rules.options()))
    with pytest.raises(ValueError, match="unknown rules option 'colour'; allowed: players"):
        Rules.make(colour="red")


def test_make_refuses_rules_and_options_together():
    with pytest.raises(ValueError, match="give either rules= or the options harmony, players, not both"):
        Rules.make(Rules(2), players=2, harmony=True)
    with pytest.raises(ValueError, match="rules must be a Rules or None"):
        Rules.make({"players": 2})


def test_a_bad_option_keyword_is_refused_by_every_adapter():
    for make in (raw_env, kingdomino_env.env, KingdominoSoloEnv, KingdominoVectorEnv):
        with pytest.raises(ValueError, match="did you mean 'mighty_duel'"):
            make(mighty_dual=True)
    with pytest.raises(ValueError, match="not both"):
        raw_env(rules=Rules(2), players=2)


def first_observations(env) -> list[np.ndarray]:
    env.reset(seed=7)
    return [env.observe(agent)["observation"] for agent in env.possible_agents]


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_an_adapter_built_from_rules_equals_one_built_from_keywords(options):
    rules = Rules(**options)
    for a, b in ((raw_env(rules=rules), raw_env(**options)),
                 (kingdomino_env.env(rules), kingdomino_env.env(**options))):
        assert a.unwrapped.rules == b.unwrapped.rules == rules
        assert all(np.array_equal(x, y) for x, y in zip(first_observations(a), first_observations(b), strict=True))
    solo = [KingdominoSoloEnv(rules=rules, opponents="greedy"), KingdominoSoloEnv(opponents="greedy", **options)]
    assert solo[0].rules == solo[1].rules == rules
    assert np.array_equal(solo[0].reset(seed=3)[0], solo[1].reset(seed=3)[0])
    vector = [KingdominoVectorEnv(3, rules=rules), KingdominoVectorEnv(3, **options)]
    assert vector[0].rules == vector[1].rules == rules
    assert np.array_equal(vector[0].reset(seed=5)[0], vector[1].reset(seed=5)[0])


def test_the_registry_entry_points_take_rules_or_keywords():
    queen = Rules(3, game="queendomino")
    royal = Rules(5, game="royal_wedding")
    made = pettingzoo.make("aec", "kingdomino/Queendomino-v0", rules=queen)
    assert made.unwrapped.rules == queen and made.unwrapped.metadata["name"] == "queendomino_v0"
    assert queendomino_env(players=3).unwrapped.rules == queendomino_env(rules=queen).unwrapped.rules == queen
    assert royal_wedding_env().unwrapped.rules == Rules(3, game="royal_wedding")
    assert royal_wedding_env(rules=royal).unwrapped.rules == royal_wedding_env(players=5).unwrapped.rules == royal
    assert gymnasium.make("kingdomino/KingdominoSolo-v0", rules=Rules(4)).unwrapped.rules == Rules(4)
    vec = gymnasium.make_vec("kingdomino/KingdominoSolo-v0", num_envs=2, rules=Rules(2, harmony=True))
    assert vec.rules == Rules(2, harmony=True) and vec.num_envs == 2


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_every_adapter_deals_a_seed_as_deal_game_does(options):
    rules = Rules(**options)
    env = raw_env(rules=rules)
    env.reset(seed=11)
    dealt = core.deal_game(rules, np.random.default_rng(11))
    vector = KingdominoVectorEnv(2, rules=rules, self_play=True)
    vector.reset(seed=[11, 12])
    for state in (env.state, vector.state.take([0])):
        assert np.array_equal(state.deck, dealt.deck) and np.array_equal(state.first_kings, dealt.first_kings)
        assert np.array_equal(state.quests, dealt.quests)
    second = core.deal_game(rules, np.random.default_rng(12))
    assert np.array_equal(vector.state.deck[1], second.deck[0])


def test_no_adapter_lists_more_than_fifteen_parameters():
    for function in (raw_env.__init__, KingdominoSoloEnv.__init__, KingdominoVectorEnv.__init__):
        assert len(inspect.signature(function).parameters) <= 15, function
