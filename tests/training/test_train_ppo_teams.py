"""Training on the Royal Wedding in teams: a smoke run trains a team policy (both seats of the learner's team),
evaluates it as a whole team, and the saved policy plays exactly the variant it was trained for."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("sb3_contrib")

from agents import check_supports, supports  # noqa: E402
from kingdomino_env.rules import Rules  # noqa: E402
from tournament import TournamentConfig, run_tournament  # noqa: E402
from training.evaluate import evaluate  # noqa: E402
from training.evaluate import main as evaluate_main  # noqa: E402
from training.train_ppo import TrainConfig, parse_args, train  # noqa: E402

TEAMS6 = Rules(game="royal_wedding", players=6, teams=True)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("royal")
    config = TrainConfig(game="royal_wedding", players=6, teams=True, timesteps=256, imitation_games=2,
                         imitation_epochs=1, games=4, n_steps=32, batch_size=64, n_epochs=1, eval_every=256,
                         eval_games=3, snapshot_every=256, hidden=32, out=str(out), seed=1)
    return config, train(config)


def test_a_team_run_trains_evaluates_and_saves_a_policy_of_its_variant(trained):
    config, model_path = trained
    assert config.rules == TEAMS6
    saved = json.loads((model_path.parent / "config.json").read_text())
    assert (saved["game"], saved["players"], saved["teams"]) == ("royal_wedding", 6, True)
    rows = (model_path.parent / "eval.csv").read_text().splitlines()
    assert rows[0].startswith("timesteps,win_rate") and len(rows) >= 3
    check_supports(f"ppo:{model_path}", TEAMS6)
    assert not supports(f"ppo:{model_path}", Rules(game="royal_wedding", players=8, teams=True))
    assert not supports(f"ppo:{model_path}", Rules(game="royal_wedding", players=6))


def test_evaluation_seats_the_policy_as_a_team_as_a_tournament_does(trained, capsys):
    _, model_path = trained
    result = evaluate(model_path, "random", games=3, rules=TEAMS6, seed=5)
    tournament = run_tournament(TournamentConfig(agents=(f"ppo=ppo:{model_path}", "opponent=random"), rules=TEAMS6,
                                                 games=3, seed=5))
    assert all(game.seats[0::2] == game.seats[1::2] for game in tournament.games)
    assert result.win_rate == tournament.agents["ppo"]["win_rate"]
    evaluate_main([str(model_path), "--vs", "random", "--games", "3", "--game", "royal_wedding", "--players", "6",
                   "--teams", "--seed", "5"])
    assert f"win rate {result.win_rate:.1%}" in capsys.readouterr().out


def test_flags_name_the_game_and_teams_and_bad_variants_are_refused(capsys):
    config = parse_args(["--game", "royal_wedding", "--players", "8", "--teams"])
    assert config.rules == Rules(game="royal_wedding", players=8, teams=True)
    with pytest.raises(SystemExit):
        parse_args(["--game", "royal_wedding", "--players", "7", "--teams"])
    assert "teams are a Royal Wedding option" in capsys.readouterr().err
