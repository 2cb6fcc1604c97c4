"""The documentation site's pages and API reference: a picture on every environment page, environment tables
with a header row, and Args sections on the entry points the API pages render as parameter tables."""

from __future__ import annotations

import importlib.util
import inspect
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import agents
import kingdomino_env
import tournament
from kingdomino_env import core, record
from kingdomino_env.rules import Rules

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
ENV_PAGES = sorted((DOCS / "environments").glob("*.md"))
#: The most a page's picture may weigh.
MAX_PICTURE_BYTES = 200_000

#: The public entry points whose parameters the API pages show as a table (the docstring's Args section).
ENTRY_POINTS = (
    kingdomino_env.env, kingdomino_env.raw_env, kingdomino_env.KingdominoSoloEnv, kingdomino_env.KingdominoVectorEnv,
    kingdomino_env.raw_env.reset, kingdomino_env.KingdominoVectorEnv.reset, kingdomino_env.KingdominoVectorEnv.step,
    Rules, Rules.make, Rules.place_action, Rules.pick_action, Rules.describe_action, Rules.from_dict,
    core.new_games, core.init, core.deal, core.legal_action_mask, core.step, core.observe, core.rewards, core.ranks,
    core.win_shares, core.random_legal_actions, core.score_breakdown, record.make_record, record.replay,
    agents.load, agents.check_supports, agents.supports, agents.Agent.act, agents.Budget,
    tournament.TournamentConfig, tournament.run_tournament, tournament.write_all, tournament.check_out_dir,
)


def _load_image_script():
    path = DOCS / "images" / "make_env_images.py"
    module = sys.modules.get("make_env_images")
    if module is None:
        spec = importlib.util.spec_from_file_location("make_env_images", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("page", ENV_PAGES, ids=lambda p: p.name)
def test_every_environment_page_opens_with_a_picture(page: Path):
    lines = page.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# ")
    opening = "\n".join(lines[1:8])
    found = re.search(r"!\[[^\]]+\]\(([^)\s]+\.(?:png|gif))\)", opening)
    assert found, f"{page.name} has no picture under its title"
    picture = (page.parent / found.group(1)).resolve()
    assert picture.is_file(), f"{page.name}: {picture} is missing"
    assert picture.read_bytes().startswith((b"\x89PNG", b"GIF8"))
    assert picture.stat().st_size < MAX_PICTURE_BYTES


def test_every_picture_the_script_draws_is_on_a_page():
    script = _load_image_script()
    shown = "".join(page.read_text(encoding="utf-8") for page in ENV_PAGES)
    assert [p.name for p in script.PICTURES if f"images/{p.name}" not in shown] == []


def test_the_picture_script_draws_the_same_picture_every_run():
    script = _load_image_script()
    picture = next(p for p in script.PICTURES if p.name == "env_kingdomino.png")
    first, second = np.asarray(script.draw(picture)), np.asarray(script.draw(picture))
    assert first.ndim == 3 and first.shape[2] == 3 and first.std() > 0
    assert np.array_equal(first, second)


@pytest.mark.parametrize("page", ENV_PAGES, ids=lambda p: p.name)
def test_environment_tables_have_a_header_row(page: Path):
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    lines = text.splitlines()
    empty = [i + 1 for i, line in enumerate(lines[:-1])
             if re.fullmatch(r"\s*\|[\s|]*\|\s*", line) and re.fullmatch(r"\s*\|[\s|:-]+\|\s*", lines[i + 1])]
    assert empty == [], f"{page.relative_to(DOCS)}: tables with an empty header row at lines {empty}"


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda e: e.__qualname__)
def test_entry_points_document_their_parameters(entry):
    doc = inspect.getdoc(entry) or ""
    assert "\nArgs:\n" in doc, f"{entry.__qualname__}'s docstring has no Args section"
    function = entry.__init__ if inspect.isclass(entry) else entry
    names = [name for name, p in inspect.signature(function).parameters.items()
             if name not in ("self", "cls") and p.kind is not p.VAR_POSITIONAL]
    args = doc.split("\nArgs:\n", 1)[1]
    missing = [name for name in names if not re.search(rf"^\s+\**{name}( \([^)]*\))?:", args, flags=re.M)]
    assert missing == [], f"{entry.__qualname__}'s Args section leaves out {missing}"
