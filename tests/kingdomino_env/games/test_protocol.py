"""The game protocol: every game behind one `Game`, its observation declared once as named blocks, and the
boundaries that keep the games pure (they import nothing above `games/`; `core` and the envs never name a game)."""

import re
from pathlib import Path

import numpy as np
import pytest

from kingdomino_env import core
from kingdomino_env.games import records
from kingdomino_env.games.blocks import Block, BlockLayout
from kingdomino_env.games.protocol import Game
from kingdomino_env.games.records import KingdominoArrays, QueendominoArrays, QueendominoVariant, Variant
from kingdomino_env.rules import ENGINES, GAMES, Rules
from tests.games_table import RULES
from tests.test_import_cycles import ROOT, imported_modules, module_files

#: What counts as asking which game is played.
GAME_BRANCH = re.compile(r"is_queendomino|is_royal_wedding|\.teams\b|game ==|game !=")


def test_every_game_has_an_engine():
    assert set(ENGINES) == set(GAMES)
    for name, engine in ENGINES.items():
        assert isinstance(engine, Game)
        assert Rules(game=name, players=3).engine is engine
    assert ENGINES["royal_wedding"] is ENGINES["queendomino"]


@pytest.mark.parametrize("rules", RULES.values(), ids=RULES.keys())
def test_observations_fit_their_declared_blocks(rules):
    """Every observation of seeded random games has the declared size and lies within the declared bounds, and every
    block's slice is contiguous and in declaration order."""
    layout = rules.observation_layout
    high = layout.bounds()
    starts = [layout.slices[block.name].start for block in layout.blocks]
    assert starts == sorted(starts) and layout.slices[layout.blocks[-1].name].stop == layout.size
    state = core.new_games(rules, [3, 4])
    rng = np.random.default_rng(0)
    seen = np.zeros(layout.size, dtype=bool)
    while not state.is_over.all():
        for viewer in range(rules.players):
            obs = core.observe(state, np.full(state.batch_size, viewer))
            assert obs.shape == (state.batch_size, layout.size)
            assert (obs >= 0).all() and (obs <= high).all()
            seen |= (obs != 0).any(axis=0)
        core.step(state, core.random_legal_actions(core.legal_action_mask(state), rng))
    for name in ("kingdoms", "current_line", "counters"):  # the blocks every game fills
        assert seen[layout.slices[name]].any()


@pytest.mark.parametrize("rules", RULES.values(), ids=RULES.keys())
def test_the_kernels_write_the_named_features_where_the_blocks_declare_them(rules):
    """The observation kernels compute their own offsets: named features read through the declared blocks hold what
    the state says (the round, the viewer's own score, the domino the viewer must place)."""
    layout = rules.observation_layout
    score, round_ = layout.feature("counters", "score_0"), layout.feature("counters", "round")
    present = layout.feature("held", "present")
    state = core.new_games(rules, [5, 6])
    rng = np.random.default_rng(1)
    for _ in range(3 * rules.kings):
        for viewer in range(rules.players):
            obs = core.observe(state, np.full(2, viewer))
            counters, held = layout.unpack(obs, "counters"), layout.unpack(obs, "held")
            assert np.allclose(counters[:, round_], state.round / rules.rounds)
            assert (counters[:, score] == state.scores[:, rules.seat_kingdoms[viewer]]).all()
            placing = (state.phase == core.PLACE) & (state.current_player == viewer)
            assert (held[:, present] == placing).all()
        core.step(state, core.random_legal_actions(core.legal_action_mask(state), rng))


def test_a_feature_is_found_by_name():
    layout = Rules(3).observation_layout
    counters = layout.shape("counters")
    assert counters == (7,) and layout.feature("counters", "score_0") == 4
    assert layout.unpack(np.arange(layout.size, dtype=np.float32)[None], "kingdoms").shape == (1, 3, 9, 9, 9)
    with pytest.raises(ValueError, match="no entry 'score_9'.*round"):
        layout.feature("counters", "score_9")
    with pytest.raises(AttributeError, match="no observation block 'planes'; blocks: kingdoms, current_line"):
        _ = layout.planes


def test_blocks_refuse_a_bad_declaration():
    with pytest.raises(ValueError, match="2 names for an axis of 3"):
        Block("b", (3,), ("a", "b"))
    with pytest.raises(ValueError, match="bounds for unknown entries"):
        Block("b", (2,), ("a", "b"), highs={"c": 3.0})
    with pytest.raises(ValueError, match="names repeat"):
        BlockLayout((Block("b", (1,)), Block("b", (2,))))


def test_games_import_nothing_above_them():
    files = module_files()
    above = {name for name in files
             if name.startswith("kingdomino_env") and not name.startswith("kingdomino_env.games")}
    for name, path in files.items():
        if name.startswith("kingdomino_env.games"):
            assert not imported_modules(name, path, set(files)) & above, f"{name} imports above games/"


def test_core_and_envs_never_name_a_game():
    paths = [ROOT / "kingdomino_env" / "core.py", *sorted((ROOT / "kingdomino_env" / "envs").glob("*.py"))]
    branches = [f"{path.relative_to(ROOT)}:{i}" for path in paths
                for i, line in enumerate(Path(path).read_text().splitlines(), 1) if GAME_BRANCH.search(line)]
    assert branches == []


@pytest.mark.parametrize("rules", [Rules(2), Rules(game="queendomino"),
                                   Rules(game="royal_wedding", players=6, teams=True)])
def test_the_kernels_records_follow_the_state_fields(rules):
    """Kernels read a state's arrays by the record's names from a tuple in the state's field order: both orders agree,
    and so do the variant's constants and its rules."""
    state = core.new_games(rules, [1])
    names = tuple(state._arrays())
    record = KingdominoArrays if names == KingdominoArrays._fields else QueendominoArrays
    assert record._fields == names and len(state.arrays) == len(names)
    assert all(a is b for a, b in zip(state.arrays, state._arrays().values(), strict=True))
    v = (QueendominoVariant if rules.has_buildings else Variant)(*state.constants)
    assert (v.grid, v.rounds, v.line, v.n_place) == (rules.grid, rules.rounds, rules.line_size, rules.n_place_actions)
    if rules.has_buildings:
        assert (v.players, v.shift, v.first_knight, v.pass_action) == (
            rules.players, int(rules.teams), rules.first_knight_action, rules.pass_action)
        assert (v.building_table == rules.building_deck.table).all()


@pytest.mark.parametrize("rules, record", [
    (Rules(2), records.MaskArrays), (Rules(2), records.MoverArrays), (Rules(2), records.ObserveArrays),
    (Rules(game="queendomino"), records.QueendominoMaskArrays),
    (Rules(game="queendomino"), records.QueendominoGreedyArrays),
    (Rules(game="queendomino"), records.QueendominoObserveArrays)])
def test_a_kernels_record_holds_the_state_arrays_it_names(rules, record):
    """A kernel's record is a subset of the state's arrays in the state's order, built once per state."""
    state = core.new_games(rules, [1])
    names = tuple(state._arrays())
    assert list(record._fields) == [n for n in names if n in record._fields]
    arrays = state.arrays_for(record)
    assert all(a is getattr(state, n) for a, n in zip(arrays, record._fields, strict=True))
    assert state.arrays_for(record) is arrays
    assert not any(a is b for a, b in zip(state.copy().arrays_for(record), arrays, strict=True))


def test_a_kernels_record_names_only_state_arrays():
    with pytest.raises(ValueError, match=r"KingdominoArrays has no arrays \['coins'\]"):
        records.arrays_of("Bad", KingdominoArrays, "terrain coins")
