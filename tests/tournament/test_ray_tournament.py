"""Tournaments on a local Ray instance (2 CPUs) give exactly the results of `--workers 1`, also when a worker dies."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from typer.testing import CliRunner  # noqa: E402

from agents.az.files import shipped_network  # noqa: E402
from agents.csearch.network import shipped_weights  # noqa: E402
from agents.ppo import SHIPPED_MODEL  # noqa: E402
from agents.registry import parse_spec  # noqa: E402
from kingdomino_cli.main import app  # noqa: E402
from kingdomino_env.rules import Rules  # noqa: E402
from tournament import TournamentConfig, run_tournament, write_all  # noqa: E402
from tournament.play import play_unit  # noqa: E402
from tournament.ray_runner import _localiser, init_ray, play_units, ship_models  # noqa: E402

runner = CliRunner(env={"COLUMNS": "200"})


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    """One Ray instance of 2 CPUs for the module."""
    init_ray(num_cpus=2)
    yield
    ray.shutdown()


def _without_timings(path: Path) -> dict:
    results = json.loads((path / "results.json").read_text())
    results.pop("seconds", None)
    for stats in results["agents"].values():
        stats.pop("seconds_per_move", None)
    return results


def _config() -> TournamentConfig:
    # az:2 searches with the shipped network: the file travels through the object store. Small units: 4 of them.
    return TournamentConfig(agents=("random", "greedy", "az:2"), rules=Rules(players=2), games=12, seed=5,
                            unit_games=4)


def test_cli_ray_equals_one_worker(tmp_path: Path) -> None:
    args = ["tournament", "--agents", "random,greedy,heuristic", "--games", "12", "--seed", "9", "--no-progress"]
    one = runner.invoke(app, [*args, "--workers", "1", "--out", str(tmp_path / "one")])
    assert one.exit_code == 0, one.output
    on_ray = runner.invoke(app, [*args, "--ray", "--out", str(tmp_path / "ray")])
    assert on_ray.exit_code == 0, on_ray.output
    assert _without_timings(tmp_path / "ray") == _without_timings(tmp_path / "one")
    assert (tmp_path / "ray" / "games.jsonl").read_bytes() == (tmp_path / "one" / "games.jsonl").read_bytes()
    assert {p.name for p in (tmp_path / "ray").iterdir()} == {p.name for p in (tmp_path / "one").iterdir()}


def test_ray_units_and_progress_equal_one_process(tmp_path: Path) -> None:
    config = _config()
    assert config.n_units > 2
    seen: list[int] = []
    on_ray = run_tournament(config, ray=True, progress=seen.append)
    local = run_tournament(config, workers=1)
    assert sum(seen) == config.total_games and len(seen) == config.n_units
    write_all(on_ray, tmp_path / "ray")
    write_all(local, tmp_path / "one")
    assert _without_timings(tmp_path / "ray") == _without_timings(tmp_path / "one")
    assert (tmp_path / "ray" / "games.jsonl").read_bytes() == (tmp_path / "one" / "games.jsonl").read_bytes()


def _dies_once(marker: Path, victim: int):
    """A unit player whose worker process exits abruptly the first time it is given unit `victim`."""

    def play(config: TournamentConfig, unit: int, **options):
        if unit == victim and not marker.exists():
            marker.write_text(str(os.getpid()))
            os._exit(1)
        return play_unit(config, unit, **options)

    return play


def test_dead_worker_is_retried_and_results_are_identical(tmp_path: Path) -> None:
    config = _config()
    marker = tmp_path / "killed"
    units = play_units(config, player=_dies_once(marker, victim=1), retries=2)
    assert marker.exists(), "the worker was never killed"
    assert int(marker.read_text()) != os.getpid()
    local = [play_unit(config, unit) for unit in range(config.n_units)]
    assert [u.unit for u in units] == list(range(config.n_units))
    assert [[g.to_dict() for g in u.games] for u in units] == [[g.to_dict() for g in u.games] for u in local]
    assert [u.moves for u in units] == [u.moves for u in local]


def test_without_retries_a_dead_worker_fails_the_tournament(tmp_path: Path) -> None:
    with pytest.raises(ray.exceptions.WorkerCrashedError):
        play_units(_config(), player=_dies_once(tmp_path / "killed", victim=0), retries=0)
    assert (tmp_path / "killed").exists()


@pytest.mark.parametrize("kind", ["az:2:", "ppo:", "csearch:p3:", "csearch-margin:0.1s:"])
def test_a_model_file_a_spec_names_is_shipped_and_read_from_the_node_copy(tmp_path: Path, kind: str) -> None:
    rules = Rules(players=2)
    original = {"az": shipped_network(rules), "ppo": SHIPPED_MODEL}.get(kind.split(":")[0], shipped_weights(rules))
    mine = tmp_path / f"mine{original.suffix}"
    mine.write_bytes(original.read_bytes())
    named = f"{kind}{mine}"
    config = TournamentConfig(agents=(f"a={named}", "b=csearch:p3", "c=csearch:0.1s:heuristic"), rules=rules,
                              games=2)
    shipped = ship_models(config)
    assert set(shipped) == {named}
    mine.unlink()
    local = _localiser(shipped, {})(named)
    copy = parse_spec(local).model_file
    assert local == f"{kind}{copy}" and copy.read_bytes() == original.read_bytes()


def test_models_are_shipped_once_and_read_from_the_node(tmp_path: Path) -> None:
    config = TournamentConfig(agents=("a=az:2", "b=az:3", "greedy"), rules=Rules(players=2), games=2)
    shipped = ship_models(config)
    assert set(shipped) == {"az:2", "az:3"}
    assert shipped["az:2"][0] == shipped["az:3"][0] and shipped["az:2"][2] == shipped["az:3"][2]
    network = shipped_network(Rules(players=2))
    elsewhere = tmp_path / "elsewhere.az"
    elsewhere.write_bytes(network.read_bytes())
    copy = tmp_path / "net.az"
    assert parse_spec("az:2").with_model(copy) == f"az:2:{copy}"
    assert parse_spec(f"az:0.25s:{elsewhere}").with_model(copy) == f"az:0.25s:{copy}"
    assert parse_spec(f"ppo:{SHIPPED_MODEL}").with_model(copy) == f"ppo:{copy}"
