"""Hints: the advisor thinks in a worker while frames go on, and only ever a legal action of the position on the
table is outlined and listed (a hint computed for an earlier position is dropped)."""

from __future__ import annotations

import threading
import time

import numpy as np
import pygame

from agents.advice import ActionEstimate, Advisor
from agents.analysis import GameAnalysis
from kingdomino_app import hints, placement
from kingdomino_app.app import App
from kingdomino_app.hints import WARM_UP_SECONDS, Hint, HintAdvisor, action_text, estimate_text, win_interval
from kingdomino_app.match import Match
from kingdomino_app.screens.play import FOCUS_ORIGIN, HINT_COLOUR, RIGHT_X, PlayScreen, focus_cell_rect
from kingdomino_app.seats import Seat
from kingdomino_env.rendering import pygame_drawing as drawing
from kingdomino_env.rules import Rules, square_name
from tests.app.driver import Driver
from tests.app.textfit import misfits


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
    assert f"1. {action_text(screen.match, hint.best)}" in texts
    assert f"Hint (mc, {hint.visits} playouts a move):" in texts, "the playouts behind the estimates are shown"
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
    best = screen.estimate_lines(hint)[0]
    drawn = next(d for d in driver.app.drawn if len(d.value) > 8 and best.startswith(d.value))
    assert drawn.rect.x > RIGHT_X, "no room in the left column: the hint is in the right one"
    alone = pygame.Surface(drawn.rect.size)
    rect = drawing.text(alone, drawn.value, (0, 0), 18, HINT_COLOUR, True)
    assert gold_pixels(driver.surface, drawn.rect) == gold_pixels(alone, rect) > 0, "nothing is drawn over the hint"


def test_estimates_carry_their_uncertainty():
    """A few playouts give a wide interval (the 50% / 100% of a short search in a large game say so), many a narrow
    one; the text says what the estimate rests on."""
    low, high = win_interval(0.5, 2)
    assert low < 0.1 and high > 0.9
    low, high = win_interval(1.0, 1)
    assert 0.1 < low < 0.3 and high == 1.0
    low, high = win_interval(0.62, 1000)
    assert 0.58 < low < 0.62 < high < 0.66
    assert win_interval(0.3, 0) == (0.0, 1.0)
    assert estimate_text(ActionEstimate(5, 1.0, 17.8, 1)) == "100% to win (21%-100% over 1 playout), margin +17.8"
    assert estimate_text(ActionEstimate(5, 0.5, 1.2, 2), "simulations") == \
        "50% to win (9%-91% over 2 simulations), margin +1.2"
    assert estimate_text(ActionEstimate(5, 0.5, 1.2, 40), count=False) == "50% to win (35%-65%), margin +1.2"
    assert "a guess: no simulations" in estimate_text(ActionEstimate(5, 0.4, 0.0, 0), "simulations")
    flat = Hint((1, 0), (ActionEstimate(1, 0.5, 1, 7), ActionEstimate(2, 0.4, 0, 7)), "mc")
    assert flat.visits == 7 and flat.unit == "playouts"
    tree = Hint((1, 0), (ActionEstimate(1, 0.5, 1, 70), ActionEstimate(2, 0.4, 0, 9)), "az:50")
    assert tree.visits is None and tree.unit == "simulations"


def test_a_queendomino_hint_shows_how_sure_it_is(tmp_path):
    driver, screen = hint_driver(tmp_path, Rules(game="queendomino"), seconds=0.1)
    driver.key(pygame.K_h)
    hint = screen.current_hint()
    assert hint is not None
    texts = driver.frame()
    low, high = win_interval(hint.estimates[0].win_probability, hint.estimates[0].visits)
    shown = " ".join(texts)
    assert f"({low:.0%}-{high:.0%}" in shown, "the best action's interval is shown"
    assert f"{hint.visits} playout" in shown, "and the playouts it rests on"
    assert not misfits(driver.app.drawn)


class GatedAdvisor(Advisor):
    """An advisor whose making waits for `gate` (a slow first load), counting the advisors made."""

    gate = threading.Event()
    made: list[str] = []

    def __init__(self, rules, spec=None, seed=None):
        assert self.gate.wait(30)
        self.made.append(rules.game)
        super().__init__(rules, spec, seed)


def test_the_hint_engine_is_prepared_while_the_player_reads_the_board(tmp_path, monkeypatch):
    """The advisor is made and warmed up in a worker as soon as the human's game opens, with a status line while
    it loads; the first hint then makes nothing more."""
    monkeypatch.setattr(hints, "Advisor", GatedAdvisor)
    GatedAdvisor.gate.clear()
    GatedAdvisor.made.clear()
    driver = Driver(App(saves_dir=tmp_path, pace=0, seed=3, hint_spec="mc", hint_seconds=0.05, prepare_hints=True))
    match = Match([Seat("Ann"), Seat("Greedy", "greedy")], Rules(), seed=5, agent_factory=driver.app.agent_factory)
    driver.app.show_play(match)
    screen = driver.app.screen
    texts = driver.frame(settle=False)
    assert any(t.startswith("Preparing the hint engine... ") for t in texts), texts
    assert screen.preparing_hints() and not driver.app.hints.ready(match.rules)
    GatedAdvisor.gate.set()
    texts = driver.frame()
    assert not any(t.startswith("Preparing the hint engine") for t in texts), "the status goes once it is ready"
    assert driver.app.hints.ready(match.rules) and GatedAdvisor.made == ["kingdomino"]
    while not match.human_to_move() or match.forced_action() is not None:
        driver.frame(dt=1.0)
    driver.key(pygame.K_h)
    assert screen.current_hint() is not None
    assert GatedAdvisor.made == ["kingdomino"], "the first hint used the prepared advisor"


def test_no_hint_engine_is_prepared_without_a_human(tmp_path, monkeypatch):
    monkeypatch.setattr(hints, "Advisor", GatedAdvisor)
    GatedAdvisor.made.clear()
    driver = Driver(App(saves_dir=tmp_path, pace=0, seed=3, hint_spec="mc", prepare_hints=True))
    match = Match([Seat("A", "random"), Seat("B", "random")], Rules(), seed=5, agent_factory=driver.app.agent_factory)
    driver.app.show_play(match)
    screen = driver.app.screen
    driver.frame(settle=False)
    assert screen.prepare_job is None and GatedAdvisor.made == []


def test_a_hint_names_its_squares_as_the_board_labels_them(tmp_path):
    """"row R, column C" in a hint is the row labelled R left of the large kingdom and the column labelled C above
    it, where the best placement is outlined."""
    driver, screen = hint_driver(tmp_path, Rules(), seconds=0.05)
    match, rng = screen.match, np.random.default_rng(0)
    while not (match.human_to_move() and match.placing and not placement.must_discard(match.mask(), match.rules)):
        if match.human_to_move():
            driver.human_turn(rng, use_keys=False)
        else:
            driver.frame(dt=1.0)
    driver.key(pygame.K_h)
    hint = screen.current_hint()
    assert hint is not None and hint.best < match.rules.n_place_actions
    texts = driver.frame()
    cell, _ = divmod(hint.best, 4)
    row, col = divmod(cell, match.rules.frame)
    assert any(f"at row {row + 1}, column {col + 1}, second half " in t for t in texts)
    square = focus_cell_rect(match.rules.frame, row, col, match.rules)
    assert screen.hint_rects(hint.best)[0].contains(square)
    drawn = driver.app.drawn
    left, top = FOCUS_ORIGIN
    assert any(d.value == str(row + 1) and d.rect.right <= left and abs(d.rect.centery - square.centery) <= 1
               for d in drawn), "the row's label is left of the square"
    assert any(d.value == str(col + 1) and d.rect.bottom <= top and abs(d.rect.centerx - square.centerx) <= 1
               for d in drawn), "the column's label is above it"
    labels = [d for d in drawn if d.value.isdigit() and d.rect.right <= FOCUS_ORIGIN[0]
              and FOCUS_ORIGIN[1] <= d.rect.centery]
    assert sorted(int(d.value) for d in labels if d.rect.x > 340) == list(range(1, match.rules.frame + 1))


def test_every_move_text_names_squares_one_way():
    """The app's move texts are the rules' (`Rules.describe_action`, which the CLI's analysis prints too), with the
    app's domino names: one convention, counted from 1."""
    match = Match([Seat("Ann"), Seat("Bob")], Rules(), seed=2)
    rules = match.rules
    while not match.placing:
        match.play(int(np.flatnonzero(match.mask())[0]))
    for action in np.flatnonzero(match.mask()[: rules.n_place_actions])[:20]:
        row, col = divmod(int(action) // 4, rules.frame)
        text = action_text(match, int(action))
        assert text == "P" + rules.describe_action(int(action), match.domino_name(match.held_domino))[1:]
        assert f" at {square_name(row, col)}, " in text and square_name(row, col) == f"row {row + 1}, column {col + 1}"
    analysis = GameAnalysis(0, "mc", rules, ())
    assert analysis.label(rules.place_action(3, 4, 3)) == "place at row 4, column 5, second half north [127]"
    pick = rules.pick_action(1)
    assert analysis.label(pick) == f"pick line position 2 [{pick}]"
