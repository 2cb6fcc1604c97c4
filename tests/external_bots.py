"""A researcher's own agents, written as `bots.py` into a test's folder, for the tests of outside agents (specs
``bots:ATTR`` and ``PATH.py:ATTR``, entrants given as objects, entry points)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

#: bots.py: one object of each kind a spec may name, and objects of the wrong kinds.
BOTS = '''
import json

import numpy as np

from agents import Agent


class FirstLegal(Agent):
    """Plays the first legal action."""

    def __init__(self, seed=None):
        self.seed = seed

    def act_batch(self, state, games, mask, obs):
        return np.argmax(mask, axis=1)


class LastLegal(Agent):
    """Plays the last legal action; takes no seed."""

    def act_batch(self, state, games, mask, obs):
        return mask.shape[1] - 1 - np.argmax(mask[:, ::-1], axis=1)


class Maker:
    @staticmethod
    def make(seed=None):
        return FirstLegal(seed)


class NotAnAgent:
    pass


def first_legal(observation, action_mask):
    return np.flatnonzero(action_mask)[0]


def make(seed=None):
    return FirstLegal(seed)


def make_nothing():
    return None


def policy_text(observation, action_mask):
    return "3"


def policy_bool(observation, action_mask):
    return True


def policy_far(observation, action_mask):
    return 10**6


def policy_illegal(observation, action_mask):
    return int(np.flatnonzero(action_mask == 0)[0])


INSTANCE = FirstLegal(seed=5)
NUMBER = 5
helpers = json
'''


def use_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str = BOTS) -> Path:
    """Write `bots.py` into `tmp_path` and make it the current folder; `sys.path` and the modules `bots` and `boom`
    are restored after the test (so each test imports its own)."""
    path = tmp_path / "bots.py"
    path.write_text(source)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    for name in ("bots", "boom"):
        monkeypatch.setitem(sys.modules, name, None)  # recorded, so the test's own import is dropped after it
        del sys.modules[name]
    return path


#: An installed package's agents: its module.
PLUGIN = '''
import numpy as np

from agents import Agent


class FirstLegal(Agent):
    def __init__(self, seed=None):
        self.seed = seed

    def act_batch(self, state, games, mask, obs):
        return np.argmax(mask, axis=1)


def sized(arg, seed=None):
    agent = FirstLegal(seed)
    agent.arg = arg
    return agent
'''
#: Its entry points: `first` (a class), `sized` (a factory that takes ARG) and `greedy` (hidden by the built-in).
PLUGIN_ENTRY_POINTS = """[kingdomino.agents]
first = kdplug_agents:FirstLegal
sized = kdplug_agents:sized
greedy = kdplug_agents:FirstLegal
"""


def install_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Install the package kdplug 1.2 (module kdplug_agents) into a folder put first on `sys.path`, as pip would
    leave it (a dist-info with METADATA and entry_points.txt), so `importlib.metadata` finds its entry points."""
    site = tmp_path / "site"
    dist = site / "kdplug-1.2.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: kdplug\nVersion: 1.2\n")
    (dist / "entry_points.txt").write_text(PLUGIN_ENTRY_POINTS)
    (site / "kdplug_agents.py").write_text(PLUGIN)
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.syspath_prepend(site)
    monkeypatch.setitem(sys.modules, "kdplug_agents", None)
    del sys.modules["kdplug_agents"]
    return site


def load_in_this_process(spec: str) -> tuple[str, str, object]:
    """`agents.load(spec, seed=9)` here: its class's name and module, and the agent (for a spawned process)."""
    import agents

    agent = agents.load(spec, seed=9)
    return type(agent).__name__, type(agent).__module__, agent if spec.endswith(".py:FirstLegal") else None
