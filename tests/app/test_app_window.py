"""The resizable window: the logical picture scaled and centred, mouse positions mapped back, an opening size that
fits the desktop; and long names and texts on the play screen stay inside their boxes."""

from __future__ import annotations

import pygame
import pytest

from kingdomino_app.match import Match
from kingdomino_app.screens import play
from kingdomino_app.seats import Seat
from kingdomino_app.ui import HEIGHT, WIDTH
from kingdomino_app.window import (
    ALLOW_HEADLESS,
    display_problem,
    fit_window,
    letterbox,
    no_display_message,
    to_logical,
    to_logical_event,
)
from kingdomino_env.rules import Rules


def test_letterbox_keeps_the_shape_and_centres():
    assert letterbox((WIDTH, HEIGHT)) == (0, 0, WIDTH, HEIGHT)
    assert letterbox((640, 400)) == (0, 0, 640, 400)
    assert letterbox((1366, 768)) == (68, 0, 1229, 768), "bars left and right"
    assert letterbox((1280, 1000)) == (0, 100, 1280, 800), "bars above and below"
    assert letterbox((0, 0)) == (0, 0, 0, 0)


@pytest.mark.parametrize("window", [(1280, 800), (640, 400), (1366, 768), (1000, 900), (3840, 2160)])
def test_mouse_positions_map_back_to_logical_coordinates(window):
    x, y, w, h = letterbox(window)
    assert to_logical((x, y), window) == (0, 0)
    right, bottom = to_logical((x + w - 1, y + h - 1), window)
    assert WIDTH - 3 <= right <= WIDTH - 1 and HEIGHT - 3 <= bottom <= HEIGHT - 1
    cx, cy = to_logical((x + w / 2, y + h / 2), window)
    assert abs(cx - WIDTH // 2) <= 1 and abs(cy - HEIGHT // 2) <= 1
    if x > 0:
        assert to_logical((x - 5, y), window)[0] < 0, "a click on a bar is on nothing"


def test_mouse_events_are_mapped_others_pass_through():
    event = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(683, 384), button=1)
    mapped = to_logical_event(event, (1366, 768))
    assert mapped.pos == to_logical((683, 384), (1366, 768)) and mapped.button == 1
    key = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a)
    assert to_logical_event(key, (1366, 768)) is key


def test_the_window_opens_at_a_size_that_fits_the_desktop():
    assert fit_window(None) == (WIDTH, HEIGHT)
    assert fit_window((2560, 1440)) == (WIDTH, HEIGHT), "never larger than the logical picture"
    w, h = fit_window((1366, 768))
    assert w <= 0.9 * 1366 and h <= 0.9 * 768 and abs(w / h - WIDTH / HEIGHT) < 0.01
    assert fit_window((300, 200)) >= (640, 400)


@pytest.mark.parametrize("players", [2, 4])
def test_long_names_stay_inside_their_boxes_on_the_play_screen(driver, players):
    names = ["W" * 16, "M" * 16, "Wm" * 8, "QW" * 8][:players]
    seats = [Seat(names[0])] + [Seat(n, "greedy") for n in names[1:]]
    match = Match(seats, Rules(players=players, random_quests=2), seed=4, agent_factory=driver.app.agent_factory)
    driver.app.show_play(match)
    driver.frame()
    while not match.placing:
        match.play(int(next(a for a in range(match.mask().size) if match.mask()[a])))
        driver.frame()
    driver.frame()
    drawn = [(d.value, d.rect) for d in driver.app.drawn]
    screen = pygame.Rect(0, 0, WIDTH, HEIGHT)
    for value, rect in drawn:
        assert screen.contains(rect), (value, rect)
        if rect.left < play.FOCUS_ORIGIN[0] - 20:
            assert rect.right <= play.LEFT_X + play.LEFT_WIDTH, (value, rect)
        elif rect.left < play.RIGHT_X - 10 and rect.top > 50:
            assert rect.right <= play.RIGHT_X, (value, rect)
    header = [rect for value, rect in drawn if rect.bottom < 60 and rect.left < WIDTH - 320]
    for i, a in enumerate(header):
        for b in header[i + 1:]:
            assert not a.colliderect(b), "the header texts do not overlap"
    assert any(value.endswith("...") for value, _ in drawn), "a long name was shortened"


def test_a_window_nobody_can_see_is_named_before_it_opens():
    assert display_problem({"SDL_VIDEODRIVER": "dummy", "DISPLAY": ":0"}, "linux") == \
        "the video driver SDL_VIDEODRIVER=dummy shows no window"
    assert "offscreen" in display_problem({"SDL_VIDEODRIVER": "offscreen"}, "darwin")
    assert display_problem({}, "linux") == "there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)"
    assert display_problem({"DISPLAY": ":0"}, "linux") is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux") is None
    assert display_problem({"SDL_VIDEODRIVER": "kmsdrm"}, "linux") is None, "a driver named on purpose is trusted"
    assert display_problem({}, "win32") is None and display_problem({}, "darwin") is None
    assert display_problem({"SDL_VIDEODRIVER": "dummy", ALLOW_HEADLESS: "1"}, "linux") is None, "the opt-out"
    assert ALLOW_HEADLESS in no_display_message("there is no display")
