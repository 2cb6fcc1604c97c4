"""Scores: long names stay inside their panels; Rematch starts a new game with the same seats; the Dynasty
interlude can be saved and loaded."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from kingdomino_app import saves
from kingdomino_app.match import Match
from kingdomino_app.screens.menu import MenuScreen
from kingdomino_app.screens.play import PlayScreen
from kingdomino_app.screens.save import SaveScreen
from kingdomino_app.screens.scores import ScoresScreen, panel_rect
from kingdomino_app.seats import Seat
from kingdomino_app.ui import HEIGHT, WIDTH, Canvas
from kingdomino_env.rules import Rules

WINDOW = pygame.Rect(0, 0, WIDTH, HEIGHT)
LONG_NAMES = ("WWWWWWWWWWWWWWWW", "Maximilian-Alexa", "MMMMMMMMMMMMMMMM", "Bartholomew Jr.X")


def finish(match: Match, seed: int = 0) -> Match:
    """Play the game in progress to its end: humans at random, agents as they choose."""
    rng = np.random.default_rng(seed)
    while not match.game_over:
        if match.human_to_move():
            match.play(int(rng.choice(np.flatnonzero(match.mask()))))
        else:
            match.play_agent()
    return match


def drawn(driver) -> list[tuple[str, pygame.Rect]]:
    canvas = Canvas(driver.surface)
    driver.app.screen.draw(canvas)
    return list(zip(canvas.texts, canvas.rects, strict=True))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_long_names_stay_inside_their_panels_and_apart(driver, players):
    seats = [Seat(name) for name in LONG_NAMES[:players]]
    rules = Rules(players=players, harmony=True, mighty_duel=players == 2, random_quests=2)
    match = finish(Match(seats, rules, dynasty=True, seed=players), seed=players)
    driver.app.show_scores(match)
    texts = drawn(driver)
    assert all(WINDOW.contains(r) for _, r in texts)
    overlaps = [(a, b) for i, (a, ra) in enumerate(texts) for b, rb in texts[i + 1:] if ra.colliderect(rb)]
    assert not overlaps
    panels = [panel_rect(p, players) for p in range(players)]
    inside = [(t, r) for t, r in texts if any(r.colliderect(panel) for panel in panels)]
    assert all(any(panel.contains(r) for panel in panels) for _, r in inside), "no text crosses a panel's edge"
    for panel, name in zip(panels, LONG_NAMES, strict=False):
        head = "".join(t for t, r in texts if panel.contains(r) and r.bottom <= panel.y + 52 and t != "Winner!")
        assert head == name, "the whole name, shrunk or wrapped to its panel, never cut"


def test_rematch_starts_a_new_game_with_the_same_seats_and_options(driver):
    seats = [Seat("Ann"), Seat("Greedy", "greedy"), Seat("Random", "random")]
    rules = Rules(players=3, harmony=True, random_quests=2)
    match = finish(Match(seats, rules, seed=5))
    driver.app.show_scores(match)
    assert {"Rematch", "New Game", "Analysis", "Back"} == set(driver.buttons())
    driver.click("Rematch")
    screen = driver.app.screen
    assert isinstance(screen, PlayScreen) and screen.match is not match
    rematch = screen.match
    assert rematch.seats == seats and rematch.rules == rules and not rematch.dynasty
    assert rematch.seed == 6, "a fixed app seed gives the next seed (reproducible)"
    assert not rematch.game_over and rematch.game_number == 1


def test_rematch_without_a_fixed_seed_deals_a_new_game(driver):
    driver.app.seed = None
    match = finish(Match([Seat("Greedy", "greedy"), Seat("Random", "random")], Rules(), dynasty=True, seed=5))
    match.next_game()
    finish(match)
    match.next_game()
    finish(match)
    driver.app.show_scores(match)
    driver.click("Rematch")
    rematch = driver.app.screen.match
    assert rematch.dynasty and rematch.game_number == 1 and rematch.seed != 5


def test_the_dynasty_interlude_can_be_saved_and_loaded(driver):
    seats = [Seat("Ann"), Seat("Greedy", "greedy")]
    match = finish(Match(seats, Rules(), dynasty=True, seed=8))
    driver.app.show_scores(match)
    assert isinstance(driver.app.screen, ScoresScreen)
    assert {"Next Game (2/3)", "Save & Quit", "Analysis", "Back"} == set(driver.buttons())
    driver.click("Save & Quit")
    assert isinstance(driver.app.screen, SaveScreen)
    driver.click("Save & Quit")
    assert isinstance(driver.app.screen, MenuScreen)
    [info] = saves.list_saves(driver.app.saves_dir)
    loaded = Match.from_save(saves.read(info.path))
    assert loaded.game_over and not loaded.match_over and loaded.game_number == 1
    assert loaded.record() == match.record() and loaded.seats == seats
    loaded.next_game()
    assert loaded.game_number == 2 and not loaded.game_over
