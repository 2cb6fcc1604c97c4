"""`TournamentConfig`, `run_tournament` and `check_out_dir` refuse bad input before any game is played."""

from __future__ import annotations

import pytest

from tournament import TournamentConfig, check_out_dir, run_tournament, write_all
from tournament.config import MAX_GAMES


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"agents": ("ppo", "greedy"), "players": 3}, "ppo plays 2-player games without quests"),
    ({"agents": ("me=ppo", "greedy"), "mighty_duel": True}, "agent 'me': ppo plays"),
    ({"agents": ("random", "greedy"), "games": MAX_GAMES + 1}, f"from 1 to {MAX_GAMES} games"),
    ({"agents": ("random", "greedy"), "games": True}, "games must be an integer"),
    ({"agents": ("random", "greedy"), "seed": 2**63}, "seed must be an integer from 0"),
    ({"agents": "random,greedy"}, "agents must be a sequence"),
    ({"agents": ("random", 3)}, "an entrant is an agent spec"),
    ({"agents": ("x=", "greedy")}, "entrant 'x' has no agent spec"),
    ({"agents": ("random", "greedy"), "lineups": ()}, "at least one lineup"),
])
def test_config_refuses_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        TournamentConfig(**kwargs)


@pytest.mark.parametrize("workers", [0, -1, 10**9, 1.5, True])
def test_run_tournament_refuses_bad_worker_counts(workers):
    with pytest.raises(ValueError, match="workers must be an integer from 1 to"):
        run_tournament(TournamentConfig(agents=("random", "greedy"), games=2), workers=workers)


def test_units_are_computed_once_and_agree_with_the_schedule():
    config = TournamentConfig(agents=("random", "greedy", "gprd"), players=3, games=300, unit_games=20)
    units = config.units()
    assert [deal for unit in units for deal in unit] == config.schedule()
    assert config.n_units == len(units)
    firsts = [config.first_match(u) for u in range(config.n_units)]
    assert firsts[0] == 0 and firsts[1] == sum(6 for _ in units[0])


def test_check_out_dir(tmp_path):
    assert check_out_dir(tmp_path / "a" / "b").is_dir()
    (tmp_path / "file").write_text("keep")
    with pytest.raises(ValueError, match="is a file"):
        check_out_dir(tmp_path / "file")
    with pytest.raises(ValueError, match="cannot create the folder"):
        check_out_dir(tmp_path / "file" / "sub")
    (tmp_path / "c" / "results.json").mkdir(parents=True)
    with pytest.raises(ValueError, match="is a folder"):
        check_out_dir(tmp_path / "c")
    assert (tmp_path / "file").read_text() == "keep"


def test_write_all_leaves_no_temporary_files(tmp_path):
    result = run_tournament(TournamentConfig(agents=("random", "greedy"), games=2, seed=3))
    paths = write_all(result, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in paths)
