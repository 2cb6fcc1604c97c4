"""The analysis view: it opens for a finished game (from the Scores screen) and for a saved one (from Load Game),
computes in a worker with its progress shown, then graphs each player's win probability, lists the biggest
mistakes (a click goes to the move) and steps through the game with the board at each move."""

from __future__ import annotations

import time

import pygame

from kingdomino_app import saves
from kingdomino_app.app import App
from kingdomino_app.match import Match
from kingdomino_app.screens.analysis import AnalysisScreen
from kingdomino_app.screens.load import LoadScreen
from kingdomino_app.screens.scores import ScoresScreen
from kingdomino_app.seats import Seat
from kingdomino_env.rules import Rules
from tests.app.driver import Driver


def analysis_driver(tmp_path) -> Driver:
    return Driver(App(saves_dir=tmp_path / "saves", pace=0, seed=3, hint_spec="mc:p4", analysis_seconds=0.01))


def finished_game(driver: Driver, rules: Rules | None = None) -> Match:
    rules = rules or Rules()
    seats = [Seat("Random", "random")] + [Seat(f"Greedy {i}", "greedy") for i in range(1, rules.players)]
    match = Match(seats, rules, seed=6, agent_factory=driver.app.agent_factory)
    driver.app.show_play(match)
    while not isinstance(driver.app.screen, ScoresScreen):
        driver.frame()
    return match


def test_the_analysis_view_opens_for_a_finished_game_and_shows_progress_then_results(tmp_path):
    driver = analysis_driver(tmp_path)
    match = finished_game(driver)
    scores = driver.app.screen
    driver.click("Analysis", settle=False)
    screen = driver.app.screen
    assert isinstance(screen, AnalysisScreen) and screen.review.moves == len(match.record()["actions"])
    start = time.perf_counter()
    texts = driver.frame(settle=False)
    assert time.perf_counter() - start < 0.5, "a frame does not wait for the analysis"
    assert any(t.startswith("Analysing...") for t in texts)
    texts = driver.settle()
    analysis = screen.analysis
    assert analysis is not None and analysis.decisions
    assert "Biggest mistakes (click one to see it)" in texts and not any(t.startswith("Analysing") for t in texts)
    assert len(screen.mistakes) == min(5, len(analysis.mistakes(5)))
    if screen.mistakes:
        decision = screen.mistakes[0][0]
        driver.click_at(screen.mistake_rect(0).center)
        assert screen.step == decision.index
        texts = driver.frame()
        assert any(t.startswith(f"Move {decision.index + 1} of ") for t in texts)
    driver.key(pygame.K_HOME)
    assert screen.step == 0 and any(t.startswith("Move 1 of ") for t in driver.frame())
    driver.key(pygame.K_RIGHT)
    assert screen.step == 1
    driver.key(pygame.K_END)
    assert screen.step == screen.review.moves and any(t.startswith("End of the game") for t in driver.frame())
    driver.click("Back")
    assert driver.app.screen is scores


def test_the_analysis_view_opens_for_a_saved_game_and_leaving_it_stops_the_worker(tmp_path):
    driver = analysis_driver(tmp_path)
    match = Match([Seat("Ann"), Seat("Greedy", "greedy")], Rules(game="queendomino"), seed=2,
                  agent_factory=driver.app.agent_factory)
    for _ in range(14):
        match.play(int(match.mask().nonzero()[0][-1]))
    saves.write(driver.app.saves_dir, match.to_save("Queen game"))
    driver.app.show_load()
    driver.frame()
    assert isinstance(driver.app.screen, LoadScreen)
    driver.click("Analysis", settle=False)
    screen = driver.app.screen
    assert isinstance(screen, AnalysisScreen) and screen.review.moves == 14
    driver.key(pygame.K_END, settle=False)
    texts = driver.frame(settle=False)
    assert any(t.startswith("End of the game (14 moves)") for t in texts)
    job = screen.run.job
    driver.click("Back", settle=False)
    assert isinstance(driver.app.screen, LoadScreen)
    assert job.wait(30) and screen.run.error == "", "cancelled at the next decision, quietly"
