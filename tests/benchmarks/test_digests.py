"""benchmarks.digests: every game variant, agent and output is covered, and the digests are reproducible."""

from __future__ import annotations

import re

from benchmarks import digests
from tests.games_table import RULES


def test_digests_cover_every_variant_and_repeat_exactly():
    first = digests.digests(games=1)
    for name in digests.VARIANTS:
        for kind in ("observation", "render", "record"):
            assert f"{kind}/{name}" in first
        for agent in digests.AGENTS:
            assert f"games/{name}/{agent}" in first
    assert "tournament" in first
    assert all(re.fullmatch(r"[0-9a-f]{64}", value) for value in first.values())
    assert digests.digests(games=1) == first


def test_game_digest_depends_on_the_games_played():
    rules = digests.VARIANTS["2p"]
    assert digests.game_digest(rules, "random", 1) != digests.game_digest(rules, "random", 2)


def test_the_digests_and_the_tests_play_the_same_table_of_games():
    assert digests.VARIANTS == RULES and list(digests.VARIANTS) == list(RULES)
