"""Each stored playthrough is what the current code plays: regenerate it in memory and compare, line by line."""

import difflib

import pytest

from tests.playthroughs.generate import COMMAND, PLAYTHROUGHS, path, playthrough


@pytest.mark.parametrize("name", list(PLAYTHROUGHS))
def test_playthrough_matches_the_stored_file(name):
    stored = path(name).read_text()
    fresh = playthrough(*PLAYTHROUGHS[name])
    if fresh != stored:
        diff = list(difflib.unified_diff(stored.splitlines(), fresh.splitlines(), f"stored {path(name).name}",
                                         "played now", lineterm="", n=2))
        shown = "\n".join(diff[:60]) + (f"\n... {len(diff) - 60} more diff lines" if len(diff) > 60 else "")
        pytest.fail(f"the playthrough {name} differs from {path(name)}:\n{shown}\n\nIf the change is intended, "
                    f"regenerate the files with `{COMMAND}` (or `{COMMAND} {name}`) and commit the diff.")


def test_every_stored_playthrough_is_listed():
    stored = {p.stem for p in path("x").parent.glob("*.txt")}
    assert stored == set(PLAYTHROUGHS), "remove stored playthroughs no longer generated, or list them in PLAYTHROUGHS"
