"""Text stays inside its box: `wrap`, `elide`, `Canvas.fitted`, `Canvas.wrapped` and button labels."""

from __future__ import annotations

import pygame
from hypothesis import given, settings
from hypothesis import strategies as st

from kingdomino_app.ui import Button, Canvas, elide, line_height, wrap
from kingdomino_env.rendering import pygame_drawing as drawing

LONG_ERROR = ("Cannot continue: unknown agent spec 'ppo:/home/someone/a/very/long/path/to/a/model/that/does/not/"
              "exist/anywhere/on/this/machine.zip'; valid: random, greedy, gprd, heuristic, mc[:BUDGET], "
              "mcts[:BUDGET], ppo, ppo:PATH; BUDGET = seconds (0.5, 0.5s) or playouts (p200)")

texts = st.text(st.characters(min_codepoint=32, max_codepoint=0x24F), max_size=120)


@settings(max_examples=60, deadline=None)
@given(value=texts, width=st.integers(40, 600), size=st.sampled_from([18, 22, 28]))
def test_every_wrapped_line_fits_and_no_text_is_lost(value, width, size):
    lines = wrap(value, width, size)
    assert all(drawing.font(size).size(line)[0] <= width for line in lines if len(line) > 1)
    assert "".join(lines).replace(" ", "") == value.replace(" ", "")


@settings(max_examples=60, deadline=None)
@given(value=texts, width=st.integers(40, 600), size=st.sampled_from([18, 26, 32]), bold=st.booleans())
def test_elided_text_fits_and_keeps_its_start(value, width, size, bold):
    cut = elide(value, width, size, bold)
    if cut == value:
        assert drawing.font(size, bold).size(value)[0] <= width
    else:
        assert cut.endswith("...") and value.startswith(cut[:-3].rstrip())
        assert drawing.font(size, bold).size(cut)[0] <= width or cut == "..."


def test_a_long_error_wraps_inside_its_box_and_is_cut_to_the_lines_allowed():
    canvas = Canvas(pygame.Surface((1280, 800)))
    box = pygame.Rect(60, 600, 700, 3 * line_height(22))
    bottom = canvas.wrapped(LONG_ERROR, box, 22, max_lines=3)
    assert len(canvas.texts) == 3 and canvas.texts[-1].endswith("...")
    assert bottom <= box.bottom and all(box.contains(r) for r in canvas.rects)
    canvas = Canvas(pygame.Surface((1280, 800)))
    canvas.wrapped(LONG_ERROR, pygame.Rect(60, 600, 700, 10), 22)
    assert " ".join(canvas.texts).replace(" ", "") == LONG_ERROR.replace(" ", ""), "no max_lines: all of it"


def test_fitted_text_and_button_labels_stay_inside():
    canvas = Canvas(pygame.Surface((1280, 800)))
    rect = canvas.fitted("W" * 40, (100, 50), 200, 32, bold=True, anchor="midleft")
    assert rect.w <= 200 and canvas.texts == [elide("W" * 40, 200, 32, True)] and canvas.rects == [rect]
    button = Button("Agent: " + "x" * 60, pygame.Rect(600, 180, 260, 50), lambda: None, size=26)
    canvas.button(button)
    assert button.rect.contains(canvas.rects[-1]) and canvas.texts[-1].endswith("...")
