"""Agents think and load in worker threads: frames go on meanwhile, Esc and closing the window still work, a result
for a position that is no longer current is dropped, and a failing agent shows an error instead of crashing."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pygame

from kingdomino_app.app import App
from kingdomino_app.match import Match
from kingdomino_app.screens.play import PlayScreen
from kingdomino_app.screens.quit import QuitScreen
from kingdomino_app.screens.save import SaveScreen
from kingdomino_app.seats import Seat
from kingdomino_app.thinking import Job, lazy
from kingdomino_env import core
from kingdomino_env.rules import Rules
from tests.app.driver import Driver

#: Seconds a blocked agent waits before giving up on its own (so that a failing test cannot hang).
GUARD = 10.0


class GatedAgent:
    """Plays the last legal action; its first move waits until `gate` is set."""

    def __init__(self, gate: threading.Event):
        self.gate = gate
        self.calls = 0
        self.envs: list[Any] = []

    def act(self, env: Any) -> int:
        self.calls += 1
        self.envs.append(env)
        if self.calls == 1:
            assert self.gate.wait(GUARD), "the test never opened the gate"
        return int(np.flatnonzero(core.legal_action_mask(env.unwrapped.state)[0])[-1])


def gated_app(tmp_path, gate: threading.Event, agents: dict[int, GatedAgent]) -> App:
    def factory(spec: str, seed: int | None) -> GatedAgent:
        agents[len(agents)] = GatedAgent(gate)
        return agents[len(agents) - 1]

    return App(tmp_path / "saves", pace=0, seed=1, agent_factory=factory)


def two_gated_agents(tmp_path) -> tuple[App, Driver, Match, threading.Event]:
    """An app playing two gated agents (seed 3), its first agent's move started and held at the gate."""
    gate = threading.Event()
    app = gated_app(tmp_path, gate, {})
    driver = Driver(app)
    match = Match([Seat("Slow", "greedy"), Seat("Slower", "random")], Rules(), seed=3,
                  agent_factory=app.agent_factory)
    app.show_play(match)
    driver.frame(settle=False)
    return app, driver, match, gate


def test_frames_go_on_while_an_agent_thinks_and_its_move_is_played_after(tmp_path):
    gate, agents = threading.Event(), {}
    app = gated_app(tmp_path, gate, agents)
    driver = Driver(app)
    match = Match([Seat("Slow", "greedy"), Seat("Ann")], Rules(), seed=3, agent_factory=app.agent_factory)
    while match.human_to_move():
        match.play(int(np.flatnonzero(match.mask())[0]))
    app.show_play(match)
    screen = app.screen
    for _ in range(5):
        texts = driver.frame(dt=0.1, settle=False)
    assert not gate.is_set() and screen.thinking(), "frames return while the agent is still thinking"
    assert "Slow (greedy) is thinking..." in texts and "greedy, thinking" in texts
    before = int(match.state.n_steps[0])
    assert agents[0].envs[0] is not match.env and agents[0].envs[0].unwrapped is not match.env.unwrapped, \
        "the agent thinks on a copy of the env"
    gate.set()
    driver.frame()
    assert int(match.state.n_steps[0]) > before
    assert match.moves[before].player == 0 and match.record()["actions"][before] == match.moves[before].action


def test_esc_and_closing_work_while_an_agent_thinks(tmp_path):
    app, driver, match, gate = two_gated_agents(tmp_path)
    play = app.screen
    assert play.thinking()
    driver.key(pygame.K_ESCAPE, settle=False)
    assert isinstance(app.screen, SaveScreen) and not gate.is_set()
    driver.key(pygame.K_ESCAPE, settle=False)
    assert app.screen is play
    driver.frame([pygame.event.Event(pygame.QUIT)], settle=False)
    assert isinstance(app.screen, QuitScreen) and app.running and not gate.is_set()
    driver.click("Cancel", settle=False)
    assert app.screen is play and play.thinking()
    gate.set()
    driver.frame()
    assert match.game_over, "the agents play on once the first move is done"


def test_a_result_for_an_old_position_is_dropped(tmp_path):
    app, driver, match, gate = two_gated_agents(tmp_path)
    first = int(np.flatnonzero(match.mask())[0])
    stale = int(np.flatnonzero(match.mask())[-1])
    assert first != stale
    match.play(first)
    gate.set()
    driver.frame()
    actions = match.record()["actions"]
    assert actions[0] == first, "the move computed for the old position was not played"
    assert match.game_over and len(match.moves) == len(actions)


def test_agents_load_in_the_background_with_progress(tmp_path):
    gate = threading.Event()
    made: list[str] = []

    def slow_factory(spec: str, seed: int | None) -> GatedAgent:
        assert gate.wait(GUARD)
        made.append(spec)
        opened = threading.Event()
        opened.set()
        return GatedAgent(opened)

    app = App(tmp_path, pace=0, seed=1, agent_factory=lazy(slow_factory))
    driver = Driver(app)
    match = Match([Seat("Ann"), Seat("PPO", "ppo")], Rules(), seed=2, agent_factory=app.agent_factory)
    assert made == [], "making the match loads nothing"
    app.show_play(match)
    texts = driver.frame(settle=False)
    assert any(t.startswith("Preparing PPO: loading and compiling... ") for t in texts)
    assert isinstance(app.screen.pending(), Job)
    gate.set()
    driver.frame()
    assert made == ["ppo"] and match.agents_loaded() and app.screen.pending() is None


def test_an_agent_that_fails_shows_an_error_and_the_game_is_kept(tmp_path):
    class Broken:
        def act(self, env: Any) -> int:
            raise RuntimeError("out of memory")

    app = App(tmp_path, pace=0, seed=1, agent_factory=lambda spec, seed: Broken())
    driver = Driver(app)
    match = Match([Seat("Bad", "greedy"), Seat("Worse", "random")], Rules(), seed=3,
                  agent_factory=app.agent_factory)
    app.show_play(match)
    texts = driver.frame()
    assert isinstance(app.screen, PlayScreen) and app.running
    assert any("could not move: out of memory" in t for t in texts)
    assert "Save & Quit" in driver.buttons()


def test_same_seed_gives_the_same_agent_game(tmp_path):
    records = []
    for run in range(2):
        app = App(tmp_path / str(run), pace=0, seed=5)
        driver = Driver(app)
        match = Match([Seat("G", "greedy"), Seat("M", "mcts:p20")], Rules(), seed=5,
                      agent_factory=app.agent_factory)
        app.show_play(match)
        driver.frame()
        assert match.game_over
        records.append(match.record())
    assert records[0] == records[1]


class CountingAgent:
    """Acts first legal; counts its own acts (a copy's acts are not its own)."""

    made = 0

    def __init__(self, gate: threading.Event):
        self.gate = gate
        self.acts = 0
        CountingAgent.made += 1

    def act(self, env: Any) -> int:
        assert self.gate.wait(GUARD)
        self.acts += 1
        return int(np.flatnonzero(core.legal_action_mask(env.unwrapped.state)[0])[0])

    def __deepcopy__(self, memo: dict) -> CountingAgent:
        twin = CountingAgent.__new__(CountingAgent)
        twin.gate, twin.acts = self.gate, 0
        return twin


def test_agents_warm_up_at_game_start_with_a_status(tmp_path):
    """While the agents load and compile (a copy of each kind acts once on a copy of the game) the table says what
    it prepares; the seat's own agent has not moved meanwhile, so seeded games stay the same."""
    gate = threading.Event()
    agents_made: list[CountingAgent] = []

    def factory(spec: str, seed: int | None) -> CountingAgent:
        agents_made.append(CountingAgent(gate))
        return agents_made[-1]

    app = App(tmp_path, pace=0, seed=1, agent_factory=lazy(factory))
    driver = Driver(app)
    match = Match([Seat("Ann"), Seat("Greedy", "greedy"), Seat("Other", "greedy")], Rules(players=3), seed=2,
                  agent_factory=app.agent_factory)
    app.show_play(match)
    texts = driver.frame(settle=False)
    assert any(t.startswith("Preparing Greedy: loading and compiling... ") for t in texts), texts
    before = match.record()["actions"]
    gate.set()
    driver.frame()
    assert match.agents_loaded() and len(agents_made) == 2
    assert not any(t.startswith("Preparing") for t in driver.frame())
    moved = len(match.record()["actions"]) - len(before)
    assert sum(a.acts for a in agents_made) == moved, "the warm-up acted with copies, not the seats' agents"
