"""`agents.check_supports` / `agents.supports`: which variants a spec plays, known before any game, cheaply."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile

import pytest

import agents
from agents import AgentSpecError, check_supports, supports
from agents.model_file import ModelShape
from kingdomino_env.observation import observation_size
from kingdomino_env.rules import Rules

SHIPPED_PLAYS = "2-player games without quests on the 5x5 grid (observation 1680, 329 actions)"


def box_model(path, obs: int, actions: int):
    """A zip with the "data" member SB3 writes for a Box observation space (the weights are never read)."""
    data = {"observation_space": {":type:": "<class 'gymnasium.spaces.box.Box'>", "_shape": [obs]},
            "action_space": {":type:": "<class 'gymnasium.spaces.discrete.Discrete'>", "n": str(actions)}}
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("data", json.dumps(data))
    return path


def dict_model(path, rules: Rules):
    """As `box_model`, for the Dict space {"observation", "action_mask"} (SB3 writes its spaces as text)."""
    n, obs = rules.n_actions, observation_size(rules)
    spaces = f"{{'action_mask': Box(0, 1, ({n},), int8), 'observation': Box(0.0, inf, ({obs},), float32)}}"
    data = {"observation_space": {":type:": "<class 'gymnasium.spaces.dict.Dict'>", "spaces": spaces,
                                  "_shape": None},
            "action_space": {":type:": "<class 'gymnasium.spaces.discrete.Discrete'>", "n": n}}
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("data", json.dumps(data))
    return path


@pytest.mark.parametrize("rules", [Rules(2), Rules(2, harmony=True, middle_kingdom=True)])
def test_the_shipped_policy_supports_two_player_games_without_quests(rules):
    check_supports("ppo", rules)
    assert supports("ppo", rules)


@pytest.mark.parametrize(("rules", "game"), [
    (Rules(3), "3-player game without quests"),
    (Rules(4), "4-player game"),
    (Rules(2, mighty_duel=True), "Mighty Duel game"),
    (Rules(3, three_player_36=True), "36 dominoes"),
    (Rules(2, quests=("lost_corner",)), "2-player game with quests"),
    (Rules(2, random_quests=2), "2-player game with quests"),
])
def test_the_shipped_policy_refuses_other_variants_naming_what_it_plays(rules, game):
    assert not supports("ppo", rules)
    with pytest.raises(AgentSpecError) as err:
        check_supports("ppo", rules)
    assert f"ppo plays {SHIPPED_PLAYS}" in str(err.value)
    assert game in str(err.value)


def test_a_dict_space_model_plays_the_variant_of_its_shapes(tmp_path):
    rules = Rules(3, random_quests=1)
    path = dict_model(tmp_path / "three.zip", rules)
    assert supports(f"ppo:{path}", Rules(3, quests=("lost_corner",)))
    assert not supports(f"ppo:{path}", Rules(3))
    assert "3-player games with quests on the 5x5 grid" in agents.supported_variants(f"ppo:{path}")
    assert supports(f"ppo:{tmp_path / 'three'}", rules)  # SB3's implied ".zip"


def test_a_model_of_no_variant_says_so(tmp_path):
    path = box_model(tmp_path / "odd.zip", 10, 7)
    with pytest.raises(AgentSpecError, match=r"plays no Kingdomino, Queendomino or Royal Wedding variant "
                                             r"\(observation 10, 7 actions\)"):
        check_supports(f"ppo:{path}", Rules(2))


def write_zip(path, member: str, payload: bytes):
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(member, payload)
    return path


@pytest.mark.parametrize(("make", "reason"), [
    (lambda p: p.write_bytes(b"not a zip at all"), "not a zip file"),
    (lambda p: write_zip(p, "policy.pth", b""), "without the 'data' member"),
    (lambda p: write_zip(p, "data", b"\xff\xfe{"), "not JSON"),
    (lambda p: write_zip(p, "data", b"[1, 2]"), "not a JSON object"),
    (lambda p: write_zip(p, "data", b'{"observation_space": {"_shape": [-3]}, "action_space": {"n": 5}}'),
     "Discrete action space"),
    (lambda p: write_zip(p, "data", b'{"observation_space": {"_shape": [9]}, "action_space": {"n": "1e400"}}'),
     "Discrete action space"),
])
def test_a_corrupt_model_file_is_refused_with_the_reason(tmp_path, make, reason):
    path = tmp_path / "bad.zip"
    make(path)
    for rules in (Rules(2), Rules(4)):
        with pytest.raises(AgentSpecError, match=reason):
            check_supports(f"ppo:{path}", rules)
        assert not supports(f"ppo:{path}", rules)


@pytest.mark.parametrize("spec", ["ppo:/no/such/model", "nobody", "", "mc:zz", "random:3"])
def test_invalid_specs_are_refused(spec):
    with pytest.raises(AgentSpecError):
        check_supports(spec, Rules(2))
    assert not supports(spec, Rules(2))


def test_a_changed_model_file_is_read_again(tmp_path):
    two, four = ModelShape.of(Rules(2)), ModelShape.of(Rules(4))
    path = box_model(tmp_path / "m.zip", two.observation, two.actions)
    assert supports(f"ppo:{path}", Rules(2))
    before = path.stat().st_mtime_ns
    box_model(path, four.observation, four.actions)
    os.utime(path, ns=(before + 10**9, before + 10**9))
    assert supports(f"ppo:{path}", Rules(4)) and not supports(f"ppo:{path}", Rules(2))


def test_checking_imports_no_torch():
    code = ("import sys, agents; from kingdomino_env.rules import Rules; "
            "assert not agents.supports('ppo', Rules(3)); agents.check_supports('ppo', Rules(2)); "
            "assert 'torch' not in sys.modules and 'sb3_contrib' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
