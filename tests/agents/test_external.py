"""Outside agents: specs naming a Python object (``MODULE:ATTR``, ``PATH.py:ATTR``) or an installed package's entry
point, objects given directly, and a clear `AgentSpecError` for each kind of bad input."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import sys

import numpy as np
import pytest

import agents
import kingdomino_env
from agents import AgentSpecError, PolicyAgent, is_external, load
from agents.baselines import GreedyAgent
from agents.external import ENTRY_POINT, PYTHON, agent_from_object, check_entrant_object
from agents.flat_mc import FlatMonteCarloAgent
from agents.registry import check_supports, parse_spec, supported_variants, supports
from kingdomino_env.rules import Rules
from tests.external_bots import install_plugin, load_in_this_process, use_bots
from tests.variants import play_aec

EVERY_GAME = (Rules(2), Rules(4), Rules(2, mighty_duel=True), Rules(3, game="queendomino"),
              Rules(8, game="royal_wedding", teams=True))


@pytest.fixture
def bots(tmp_path, monkeypatch):
    """bots.py in the current folder; its module, imported."""
    use_bots(tmp_path, monkeypatch)
    check_supports("bots:FirstLegal", Rules())
    return sys.modules["bots"]


def message(spec: str, rules: Rules | None = None) -> str:
    """The AgentSpecError that checking `spec` raises (and `supports` is False for it)."""
    with pytest.raises(AgentSpecError) as err:
        check_supports(spec, rules or Rules())
    assert not supports(spec, rules or Rules())
    assert "Traceback" not in str(err.value)
    return str(err.value)


def load_message(spec: str) -> str:
    with pytest.raises(AgentSpecError) as err:
        load(spec, seed=1)
    assert "Traceback" not in str(err.value)
    return str(err.value)


# Happy paths.

def test_a_module_agent_from_the_current_folder_plays_a_whole_game(bots):
    agent = load("bots:FirstLegal", seed=1)
    assert isinstance(agent, bots.FirstLegal) and agent.seed == 1 and agent.name == "bots:FirstLegal"
    play_aec(kingdomino_env.env(players=2), agent, seed=3)
    assert isinstance(load("bots:LastLegal"), bots.LastLegal), "a constructor without seed gets no argument"


def test_a_file_agent_plays_a_whole_game_and_pickles_by_reference(tmp_path, monkeypatch):
    path = use_bots(tmp_path, monkeypatch)
    spec = f"{path}:FirstLegal"
    agent = load(spec, seed=2)
    assert agent.seed == 2 and agent.name == spec and "bots" not in sys.modules
    play_aec(kingdomino_env.env(players=3), agent, seed=4)
    module = type(agent).__module__
    assert module.startswith("kingdomino_agent_") and len(module) == len("kingdomino_agent_") + 12
    assert sys.modules[module].FirstLegal is type(agent)
    copied = pickle.loads(pickle.dumps(agent))
    assert type(copied) is type(agent) and copied.seed == 2
    assert type(load("bots.py:FirstLegal")) is type(agent), "a relative path loads the same file once"
    monkeypatch.setenv("HOME", str(tmp_path))
    assert type(load("~/bots.py:FirstLegal")) is type(agent), "~ is expanded"


def test_a_policy_plays_a_whole_game_on_copies_of_the_env_observation_and_int8_mask():
    env = kingdomino_env.env(players=2)
    seen = []

    def policy(observation, action_mask):
        seen.append((observation.copy(), action_mask.copy()))
        choice = np.flatnonzero(action_mask)[-1]
        observation[:] = -1
        action_mask[:] = 0
        return choice

    agent = agent_from_object(policy, seed=0, name="mine")
    assert isinstance(agent, PolicyAgent) and agent.needs_observation and agent.name == "mine"
    env.reset(seed=5)
    for name in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = agent.act(env)
        obs, mask = seen[-1]
        assert obs.dtype == np.float32 and mask.dtype == np.int8
        np.testing.assert_array_equal(obs, observation["observation"])
        np.testing.assert_array_equal(mask, observation["action_mask"])
        assert action == np.flatnonzero(env.observe(name)["action_mask"])[-1]
        env.step(action)
    assert env.unwrapped.state.is_over[0] and len(seen) > 20


def test_a_policy_a_factory_an_instance_and_a_dotted_attribute_by_spec(bots):
    policy = load("bots:first_legal")
    assert isinstance(policy, PolicyAgent) and policy.policy is bots.first_legal
    play_aec(kingdomino_env.env(players=2), policy, seed=1)
    made = load("bots:make", seed=7)
    assert isinstance(made, bots.FirstLegal) and made.seed == 7 and made.name == "bots:make"
    first, second = load("bots:INSTANCE"), load("bots:INSTANCE")
    assert isinstance(first, bots.FirstLegal) and first.seed == 5
    assert first is not second and first is not bots.INSTANCE, "each load gets its own copy"
    assert first.name == "bots:INSTANCE" and bots.INSTANCE.name == "agent"
    assert load("bots:Maker.make", seed=3).seed == 3


def test_outside_agents_play_every_variant_and_say_so(bots, tmp_path):
    for spec in ("bots:FirstLegal", "bots:first_legal", "bots:make", "bots:INSTANCE", f"{tmp_path}/bots.py:make"):
        for rules in EVERY_GAME:
            check_supports(spec, rules)
            assert supports(spec, rules)
        assert "any variant" in supported_variants(spec)


def test_registered_kinds_keep_precedence_over_modules(tmp_path, monkeypatch):
    use_bots(tmp_path, monkeypatch)
    (tmp_path / "mc.py").write_text("from bots import FirstLegal as Agent05\n")
    monkeypatch.setitem(sys.modules, "mc", None)
    del sys.modules["mc"]
    assert isinstance(load("mc:0.5"), FlatMonteCarloAgent)
    assert not is_external("mc:0.5") and parse_spec("mc:0.5").kind == "mc"
    assert "mc" not in sys.modules


@pytest.mark.parametrize(("spec", "external"), [
    ("bots:FirstLegal", True), ("pkg.mod:Cls.make", True), ("a/b/bots.py:FirstLegal", True), ("/x/y.py:f", True),
    ("greedy", False), ("mc:0.5", False), ("ppo:model.zip", False), ("az:200", False), ("random:Foo", False),
    ("grredy", False), ("bots", False), ("bots:", False), ("bots:1x", False), ("csearh:0.5", False),
])
def test_is_external_follows_the_grammar_of_parse_spec(tmp_path, monkeypatch, spec, external):
    use_bots(tmp_path, monkeypatch)
    assert is_external(spec) is external
    try:
        kind = parse_spec(spec).kind
    except AgentSpecError:
        kind = None
    if kind is not None:
        assert (kind in (PYTHON, ENTRY_POINT)) is external


def test_entry_point_kinds_with_and_without_an_argument(tmp_path, monkeypatch):
    install_plugin(tmp_path, monkeypatch)
    assert is_external("first") and is_external("sized:big") and not is_external("greedy")
    first = load("first", seed=4)
    assert type(first).__name__ == "FirstLegal" and first.seed == 4 and first.name == "first"
    assert parse_spec("first").kind == ENTRY_POINT
    play_aec(kingdomino_env.env(players=2), first, seed=2)
    sized = load("sized:big", seed=6)
    assert sized.arg == "big" and sized.seed == 6 and sized.name == "sized:big"
    assert isinstance(load("greedy"), GreedyAgent), "a registered kind is not replaced by an entry point"
    for rules in EVERY_GAME:
        assert supports("first", rules) and supports("sized:x", rules)
    assert message("sized:") == "agent spec 'sized:': give sized or sized:ARG (the entry point 'sized' of an " \
                                "installed package)"
    assert "TypeError" in load_message("first:extra")


def test_objects_given_directly_are_described_and_made():
    from agents.baselines import RandomAgent

    def first_legal(observation, action_mask):
        return int(np.flatnonzero(action_mask)[0])

    def make(seed=None):
        return RandomAgent(seed)

    assert check_entrant_object(GreedyAgent) == "Agent subclass agents.baselines.GreedyAgent"
    assert check_entrant_object(GreedyAgent(1)).startswith("Agent instance of agents.baselines.GreedyAgent")
    assert check_entrant_object(first_legal).startswith("policy ")
    assert check_entrant_object(make).startswith("factory ")
    instance = GreedyAgent(1)
    instance.name = "mine"
    copied = agent_from_object(instance, seed=0)
    assert isinstance(copied, GreedyAgent) and copied is not instance and copied.name == "mine"
    assert agent_from_object(GreedyAgent, seed=1, name="g").name == "g"
    assert isinstance(agent_from_object(make, seed=1), RandomAgent)
    for wrong in (5, dict, np):
        with pytest.raises(AgentSpecError, match="give an agents.Agent subclass"):
            check_entrant_object(wrong)


# Bad input: one test per kind.

def test_a_module_that_does_not_exist_is_named_with_its_error(bots):
    text = message("nosuchmodule:Agent")
    assert text.startswith("unknown agent spec 'nosuchmodule:Agent'")
    assert "module 'nosuchmodule' does not import (ModuleNotFoundError: No module named 'nosuchmodule')" in text
    assert "did you mean" not in text


def test_a_module_that_fails_at_import_is_named_with_its_error_and_line(bots, tmp_path):
    (tmp_path / "boom.py").write_text("import numpy\n\nVALUE = 1 / 0\n")
    text = message("boom:Agent")
    assert text.startswith("agent spec 'boom:Agent': module 'boom' does not import: ZeroDivisionError: division by "
                           "zero"), text
    assert f"{tmp_path / 'boom.py'}, line 3" in text
    (tmp_path / "helper.py").write_text("import nosuchdependency\n")
    text = message("helper:Agent")
    assert "module 'helper' does not import: ModuleNotFoundError: No module named 'nosuchdependency'" in text
    assert not text.startswith("unknown"), "the module exists; its import is what fails"


def test_a_syntax_error_in_a_file_names_the_file_and_line(tmp_path):
    path = tmp_path / "broken.py"
    path.write_text("import numpy\n\ndef f(:\n    pass\n")
    text = message(f"{path}:f")
    assert f"{path} does not load: SyntaxError" in text and f"({path}, line 3)" in text


def test_a_missing_attribute_suggests_the_closest_public_name(bots, tmp_path):
    text = message("bots:FirstLegl")
    assert text == "agent spec 'bots:FirstLegl': module 'bots' has no attribute 'FirstLegl'; did you mean 'FirstLegal'?"
    assert "did you mean 'make'" in message("bots:Maker.mak")
    assert "has no attribute 'Zzz'" in message(f"{tmp_path}/bots.py:Zzz") and "did you mean" not in message(
        "bots:Zzz")


def test_a_missing_file_is_named(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = message("nowhere/bots.py:FirstLegal")
    assert text == (f"agent spec 'nowhere/bots.py:FirstLegal': the Python file nowhere/bots.py (in the current folder "
                    f"{tmp_path}) does not exist")
    (tmp_path / "folder.py").mkdir()
    assert "folder.py" in message(f"{tmp_path}/folder.py:X") and "is not a file" in message("folder.py:X")
    os.mkfifo(tmp_path / "pipe.py")
    assert "is not a file" in message("pipe.py:X")


@pytest.mark.parametrize(("attr", "what"), [
    ("NUMBER", "an object of type int, not callable: 5 (int)"),
    ("NotAnAgent", "a class that is not an agents.Agent subclass (bots.NotAnAgent)"),
    ("helpers", "a module (json)"),
    ("Agent", "an abstract Agent subclass (agents.base.Agent: it does not implement act_batch)"),
])
def test_an_object_of_the_wrong_kind_is_refused(bots, attr, what):
    assert message(f"bots:{attr}") == (f"agent spec 'bots:{attr}' names {what}; give an agents.Agent subclass or "
                                       "instance, a factory returning an Agent, or a policy(observation, "
                                       "action_mask) -> int")


@pytest.mark.parametrize(("spec", "close"), [("grredy", "greedy"), ("csearh:0.5", "csearch"),
                                             ("grredy:Foo", "greedy"), ("mcst", "mcts")])
def test_a_mistyped_registered_kind_suggests_it(bots, spec, close):
    text = message(spec)
    assert text.startswith(f"unknown agent spec {spec!r}") and text.endswith(f"; did you mean {close!r}?"), text


def test_a_factory_that_returns_no_agent_is_refused_when_loaded(bots):
    check_supports("bots:make_nothing", Rules())  # the factory is not called before the game
    assert load_message("bots:make_nothing") == ("agent spec 'bots:make_nothing': the factory bots.make_nothing "
                                                 "returned None (NoneType), not an agents.Agent")


@pytest.mark.parametrize(("attr", "error", "text"), [
    ("policy_text", TypeError, "its policy returned '3' (str); it must return an action id, an int"),
    ("policy_bool", TypeError, "its policy returned True (bool)"),
    ("policy_far", ValueError, "its policy returned action 1000000, outside 0 to "),
    ("policy_illegal", ValueError, "which is not legal here"),
])
def test_a_policy_that_returns_no_legal_action_id_fails_when_it_acts_naming_the_agent(bots, attr, error, text):
    agent = load(f"bots:{attr}")
    env = kingdomino_env.env(players=2)
    env.reset(seed=1)
    with pytest.raises(error) as err:
        agent.act(env)
    assert str(err.value).startswith(f"agent 'bots:{attr}': ") and text in str(err.value)


def test_numpy_integers_are_action_ids(bots):
    agent = agents.load("bots:first_legal")
    env = kingdomino_env.env(players=2)
    env.reset(seed=1)
    assert agent.act(env) == int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])


def test_a_spawned_process_resolves_specs_from_the_current_folder(tmp_path, monkeypatch):
    """A spawned process (a tournament's worker) inherits the current folder and finds `bots` there without the
    parent having resolved it; a file's objects come back by reference where the parent resolved the same spec."""
    path = use_bots(tmp_path, monkeypatch)
    file_spec = f"{path}:FirstLegal"
    here = load(file_spec)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        name, module, _ = pool.apply(load_in_this_process, ("bots:FirstLegal",))
        assert (name, module) == ("FirstLegal", "bots")
        name, module, agent = pool.apply(load_in_this_process, (file_spec,))
    assert module == type(here).__module__ and type(agent) is type(here) and agent.seed == 9
