"""`TournamentConfig`, `run_tournament` and `check_out_dir` refuse bad input before any game is played."""

from __future__ import annotations

import io
import pickle

import pytest

from kingdomino_env.rules import Rules
from tournament import TournamentConfig, check_out_dir, run_tournament, write_all
from tournament.config import MAX_GAMES


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"agents": ("ppo", "greedy"), "rules": Rules(3)}, "ppo plays 2-player games without quests"),
    ({"agents": ("me=ppo", "greedy"), "rules": Rules(mighty_duel=True)}, "agent 'me': ppo plays"),
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
    config = TournamentConfig(agents=("random", "greedy", "gprd"), rules=Rules(3), games=300, unit_games=20)
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


def test_the_config_holds_one_rules_and_reads_its_variant_from_it():
    rules = Rules(players=4, harmony=True, random_quests=2)
    config = TournamentConfig(agents=("random", "greedy"), rules=rules, games=4, seed=2)
    assert config.rules is rules and config.players == 4
    assert TournamentConfig(agents=("random", "greedy")).rules == Rules()
    with pytest.raises(AttributeError):
        config.players = 3
    saved = config.to_dict()
    assert saved["players"] == 4 and saved["rules"] == rules.to_dict()
    assert all(len(lineup) == 4 for lineup in config.table_lineups())
    deck, kings, quests, buildings = config.deal(0)
    assert len(deck) == rules.deck_size and len(kings) == rules.kings and quests.sum() == 2 and buildings is None


def test_a_config_travels_to_workers_whole():
    config = TournamentConfig(agents=("random", "greedy"), rules=Rules(2, mighty_duel=True, random_quests=1), games=2)
    copy = pickle.loads(pickle.dumps(config))
    assert copy.rules == config.rules and copy.to_dict() == config.to_dict()
    for got, expected in zip(copy.deal(1)[:3], config.deal(1)[:3], strict=True):
        assert (got == expected).all()


def test_a_config_pickles_alike_while_its_schedule_is_cached_meanwhile():
    """Workers are sent the config by a feeder thread while the main thread may fill its cached schedule in."""
    config = TournamentConfig(agents=("random", "greedy", "mc:p20"), rules=Rules(3), games=30, seed=4)

    class FillingPickler(pickle.Pickler):
        def reducer_override(self, obj: object) -> object:
            if obj is config.rules:
                config.units()
            return NotImplemented

    buffer = io.BytesIO()
    FillingPickler(buffer).dump(config)
    copy = pickle.loads(buffer.getvalue())
    assert copy.units() == config.units() and copy.to_dict() == config.to_dict()
