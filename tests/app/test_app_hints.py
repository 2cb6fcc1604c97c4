"""Hints: the advisor thinks in a worker while frames go on, and only ever a legal action of the position on the
table is outlined and listed (a hint computed for an earlier position is dropped)."""

from __future__ import annotations

import time

import numpy as np
import pygame

from agents.advice import Advisor
from kingdomino_app import hints
from kingdomino_app.app import App
from kingdomino_app.hints import WARM_UP_SECONDS, HintAdvisor, action_text, estimate_text
from kingdomino_app.match import Match
from kingdomino_app.screens.play import HINT_COLOUR, RIGHT_X, PlayScreen
from kingdomino_app.seats import Seat
from kingdomino_env.rendering import pygame_drawing as drawing
from kingdomino_env.rules import Rules
from tests.app.driver import Driver


def hint_driver(tmp_path, rules: Rules, seconds: float = 0.3) -> tuple[Driver, PlayScreen]:
    driver = Driver(App(saves_dir=tmp_path, pace=0, seed=3, hint_spec="mc", hint_seconds=seconds))
    seats = [Seat("Ann")] + [Seat(f"Greedy {i}", "greedy") for i in range(1, rules.players)]
    driver.app.show_play(Match(seats, rules, seed=5, agent_factory=driver.app.agent_factory))
    driver.frame()
    screen = driver.app.screen
    assert isinstance(screen, PlayScreen) and screen.match.human_to_move()
    return driver, screen


def test_a_hint_never_blocks_the_window_and_outlines_a_legal_action(tmp_path):
    driver, screen = hint_driver(tmp_path, Rules())
    frames, slowest, thinking = 0, 0.0, False
    driver.key(pygame.K_h, settle=False)
    assert screen.hint_job is not None and not driver.buttons()["Hint"].enabled
    while screen.hint_job is not None and frames < 10_000:
        start = time.perf_counter()
        texts = driver.frame(dt=0.01, settle=False)
        thinking = thinking or any(t.startswith("Hint: thinking") for t in texts)
        slowest = max(slowest, time.perf_counter() - start)
        frames += 1
        time.sleep(0.01)
    assert frames >= 5 and slowest < 0.25, (frames, slowest)
    assert thinking, "the window says the hint is on its way"
    hint = screen.current_hint()
    assert hint is not None and 1 <= len(hint.estimates) <= 3
    assert all(screen.match.mask()[e.action] for e in hint.estimates)
    texts = driver.frame()
    assert f"1. {action_text(screen.match, hint.best)}" in texts and "Hint (mc):" in texts
    rect = screen.hint_rects(hint.best)[0]
    assert tuple(driver.surface.get_at((rect.x + 1, rect.centery)))[:3] == HINT_COLOUR, "the best action is outlined"


def test_a_hint_for_an_earlier_position_is_dropped(tmp_path):
    driver, screen = hint_driver(tmp_path, Rules(), seconds=0.5)
    match = screen.match
    driver.key(pygame.K_h, settle=False)
    job = screen.hint_job
    before = match.position
    slot = next(i for i in range(4) if match.mask()[match.rules.pick_action(i)])
    driver.key(pygame.K_1 + slot, settle=False)
    assert match.position != before
    assert job is not None and job.wait(30)
    driver.frame()
    assert job.token[1] == before and screen.hint is None, "the hint for the earlier position was dropped"


def test_hints_in_queendomino_steps_are_legal(tmp_path):
    driver, screen = hint_driver(tmp_path, Rules(game="queendomino"), seconds=0.1)
    match = screen.match
    rng = np.random.default_rng(2)
    seen = set()
    for _ in range(12):
        if match.game_over:
            break
        if match.human_to_move() and match.forced_action() is None:
            driver.key(pygame.K_h)
            hint = screen.current_hint()
            assert screen.hint_error == ""
            assert hint is not None and all(match.mask()[e.action] for e in hint.estimates)
            assert screen.hint_rects(hint.best), "the best action shows somewhere"
            seen.add(match.phase)
            driver.human_turn(rng, use_keys=True)
        else:
            driver.frame()
    assert len(seen) >= 2, seen


def test_a_new_advisor_warms_up_before_its_first_timed_hint(monkeypatch):
    """The first search of a process loads kernels and the network; it must not eat the first hint's seconds."""
    calls: list[tuple[str, float | None]] = []

    class RecordingAdvisor(Advisor):
        def advise(self, state, game=0, *, seconds=None):
            calls.append((self.rules.game, seconds))
            return super().advise(state, game, seconds=seconds)

    monkeypatch.setattr(hints, "Advisor", RecordingAdvisor)
    advisor = HintAdvisor("mc:p8", seconds=0.05)
    kingdomino = Match([Seat("Ann"), Seat("Bob")], Rules(), seed=1)
    state = kingdomino.state.copy()
    before = state.copy()
    hint = advisor.advise(state, kingdomino.position)
    assert calls == [("kingdomino", WARM_UP_SECONDS), ("kingdomino", 0.05)]
    assert state.n_steps[0] == before.n_steps[0] and np.array_equal(state.next_owner, before.next_owner), \
        "the warm-up leaves the position as it was"
    assert kingdomino.mask()[hint.best]
    advisor.advise(state, kingdomino.position)
    assert calls[2:] == [("kingdomino", 0.05)], "a kept advisor needs no warm-up"
    queendomino = Match([Seat("Ann"), Seat("Bob")], Rules(game="queendomino"), seed=1)
    advisor.advise(queendomino.state.copy(), queendomino.position)
    assert calls[3:] == [("queendomino", WARM_UP_SECONDS), ("queendomino", 0.05)], "a new variant warms up again"
    calls.clear()
    HintAdvisor("mc:p8", seconds=None).advise(kingdomino.state.copy(), kingdomino.position)
    assert calls == [("kingdomino", None)], "a budget in playouts is not cut by loading: no warm-up"


def gold_pixels(surface: pygame.Surface, rect: pygame.Rect) -> int:
    """Pixels of exactly the hint's colour in `rect` (the solid ones of the best estimate's text)."""
    return sum(tuple(surface.get_at((x, y)))[:3] == HINT_COLOUR
               for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom))


def test_a_hint_over_the_kingdoms_stays_readable(tmp_path):
    """With eight kingdoms the left column has no room: the hint goes over the right column, on top of the
    kingdoms drawn there."""
    driver, screen = hint_driver(tmp_path, Rules(game="royal_wedding", players=8), seconds=0.05)
    driver.key(pygame.K_h)
    hint = screen.current_hint()
    assert hint is not None
    driver.frame()
    best = estimate_text(hint.estimates[0])
    drawn = next(d for d in driver.app.drawn if d.value == best)
    assert drawn.rect.x > RIGHT_X, "no room in the left column: the hint is in the right one"
    alone = pygame.Surface(drawn.rect.size)
    rect = drawing.text(alone, best, (0, 0), 18, HINT_COLOUR, True)
    assert gold_pixels(driver.surface, drawn.rect) == gold_pixels(alone, rect) > 0, "nothing is drawn over the hint"
