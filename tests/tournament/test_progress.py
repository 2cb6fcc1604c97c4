"""tournament.progress: the progress lines of scripted tournaments."""

from __future__ import annotations

import io

import pytest

from tournament.progress import GamesProgress


def test_a_line_about_every_tenth_and_one_at_the_end():
    stream = io.StringIO()
    progress = GamesProgress(100, "match", stream=stream)
    for _ in range(25):
        progress(4)
    lines = stream.getvalue().splitlines()
    assert [line.split(",")[0] for line in lines] == [f"match: {n}/100 games" for n in (12, 20, 32, 40, 52, 60, 72,
                                                                                          80, 92, 100)]
    assert lines[-1].endswith(" s")


def test_a_resumed_tournament_counts_the_games_on_disk_first():
    stream = io.StringIO()
    progress = GamesProgress(20, "ladder", stream=stream)
    progress(14)
    progress(6)
    assert [line.split(",")[0] for line in stream.getvalue().splitlines()] == ["ladder: 14/20 games",
                                                                              "ladder: 20/20 games"]


@pytest.mark.parametrize("total", [0, -3, 2.5, "10", True, None])
def test_a_total_that_is_no_number_of_games_is_refused(total):
    with pytest.raises(ValueError, match="total must be a whole number of at least 1, got "):
        GamesProgress(total, "x")


@pytest.mark.parametrize("lines", [0, -1, 1.5, "10"])
def test_a_line_count_that_is_no_whole_number_is_refused(lines):
    with pytest.raises(ValueError, match="lines must be a whole number of at least 1, got "):
        GamesProgress(10, "x", lines=lines)
