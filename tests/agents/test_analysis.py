"""Move advice and game analysis: estimates per legal action, best first, deterministic with a seed, in every variant
of the three games; whole games analysed from records and files; bad specs and files refused."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents import AgentSpecError, load, registry, supports
from agents.advice import ActionEstimate, Advisor, advise, default_spec
from agents.analysis import (
    AnalysisInputError,
    analyse_file,
    analyse_games_file,
    analyse_record,
    analyse_save,
    read_record,
)
from agents.az.files import SHIPPED_QUEEN
from kingdomino_env import core
from kingdomino_env.record import make_record, replay
from kingdomino_env.rules import Rules
from tests.variants import KINGDOMINO_VARIANTS

OTHER_GAMES = {
    "queendomino-2p": Rules(2, game="queendomino"),
    "queendomino-4p": Rules(4, game="queendomino"),
    "royal-wedding-3p": Rules(3, game="royal_wedding"),
    "royal-wedding-8p": Rules(8, game="royal_wedding"),
    "royal-wedding-teams": Rules(6, game="royal_wedding", teams=True),
}


def position(rules: Rules, seed: int, steps: int) -> core.State:
    """A game after `steps` random actions."""
    state = core.new_games(rules, [seed])
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        core.step(state, core.random_legal_actions(core.legal_action_mask(state), rng))
    return state


def greedy_record(rules: Rules, seed: int, actions: int | None = None) -> dict:
    """The record of a game played by Full Greedy for every seat (to its end, or its first `actions` actions)."""
    state = core.new_games(rules, [seed])
    greedy, played = load("greedy", 0), []
    while not state.is_over[0] and (actions is None or len(played) < actions):
        action = int(greedy.act(state, np.zeros(1, dtype=np.int64), core.legal_action_mask(state), None)[0])
        core.step(state, [action])
        played.append(action)
    return make_record(state, 0, played)


def replayed(record: dict, actions: int) -> core.State:
    """The position of `record` after its first `actions` actions."""
    state, _ = replay({**{k: v for k, v in record.items() if k != "scores"}, "actions": record["actions"][:actions]})
    return state


def check_estimates(state: core.State, estimates: list[ActionEstimate]) -> None:
    legal = np.flatnonzero(core.legal_action_mask(state)[0])
    assert sorted(e.action for e in estimates) == legal.tolist()
    for e in estimates:
        assert 0.0 <= e.win_probability <= 1.0 and np.isfinite(e.margin) and e.visits >= 0


@pytest.mark.parametrize("spec", ["mc:p60", "az:32", "azmc:64"])
def test_estimates_cover_the_legal_actions_best_first_and_repeat_with_a_seed(spec):
    state = position(Rules(2), 5, 9)
    estimates = advise(state, 0, spec, seed=3)
    check_estimates(state, estimates)
    if spec.startswith("mc"):
        keys = [(e.win_probability, e.margin) for e in estimates]
        assert keys == sorted(keys, reverse=True)
        assert all(e.visits == estimates[0].visits >= 1 for e in estimates)
    else:
        visits = [e.visits for e in estimates]
        assert visits == sorted(visits, reverse=True) and sum(visits) == int(spec.partition(":")[2])
        assert load(spec, seed=3).act(state, np.zeros(1, dtype=np.int64), core.legal_action_mask(state),
                                      None)[0] == estimates[0].action
    assert advise(state, 0, spec, seed=3) == estimates


@pytest.mark.parametrize("spec", ["mc:p20", "az:64", "az:1", "azmc:64"])
def test_the_move_that_wins_the_game_is_best_and_certain(spec):
    """Seed 84's last move between greedy players: one of three placements wins, the others lose (checked here)."""
    record = greedy_record(Rules(2), 84)
    state = replayed(record, len(record["actions"]) - 1)
    legal = np.flatnonzero(core.legal_action_mask(state)[0])
    after = state.take(np.zeros(legal.size, dtype=np.int64))
    core.step(after, legal)
    mover = int(state.current_player[0])
    outcome = dict(zip(legal.tolist(), core.win_shares(after)[:, mover].tolist(), strict=True))
    assert sorted(outcome.values()) == [0.0, 0.0, 1.0]
    estimates = advise(state, 0, spec, seed=0)
    assert {e.action: e.win_probability for e in estimates} == outcome  # az:1 values the unvisited ones exactly
    if spec != "az:1":
        assert outcome[estimates[0].action] == 1.0


@pytest.mark.parametrize("rules", [*KINGDOMINO_VARIANTS.values(), *OTHER_GAMES.values()],
                         ids=[*KINGDOMINO_VARIANTS, *OTHER_GAMES])
def test_the_default_advisor_advises_in_every_variant(rules):
    state = position(rules, 2, 2 * rules.kings + 3)
    spec = default_spec(rules)
    csearch = rules.mighty_duel or (rules.game, rules.players) in (("queendomino", 2), ("royal_wedding", 4))
    assert spec == ("csearch" if csearch else "mc" if rules.is_queendomino else "az")
    estimates = advise(state, 0, {"az": "az:16", "csearch": "csearch:p200", "mc": "mc:p40"}[spec], seed=1)
    check_estimates(state, estimates)


def test_team_estimates_are_the_mover_teams():
    """At the last decision of a team game, an action that ends the game is estimated by its exact outcome for the
    mover's team: its share of the victory and its margin."""
    rules = Rules(6, game="royal_wedding", teams=True)
    record = greedy_record(rules, 4)
    state = replayed(record, len(record["actions"]) - 1)
    mover = int(state.current_player[0])
    ending = 0
    for e in advise(state, 0, "mc:p10", seed=0):
        after = state.copy()
        core.step(after, [e.action])
        if after.is_over[0]:
            ending += 1
            assert e.win_probability == core.win_shares(after)[0, mover]
            assert e.margin == core.rewards(after, "margin")[0, mover]
            team = [seat for seat in range(rules.players) if rules.seat_kingdoms[seat] == rules.seat_kingdoms[mover]]
            assert len(team) == 2 and core.win_shares(after)[0, team[0]] == core.win_shares(after)[0, team[1]]
    assert ending >= 1


@pytest.mark.parametrize("spec, message", [
    ("greedy", "cannot advise"), ("heuristic", "cannot advise"), ("az:0", "policy alone"), ("nope", "unknown"),
])
def test_specs_that_cannot_advise_are_refused_naming_the_advisors(spec, message):
    with pytest.raises(AgentSpecError, match=message) as refused:
        advise(position(Rules(2), 0, 4), 0, spec)
    if message != "unknown":
        named = str(refused.value).split("advisors: ")[1]
        assert [form.split("[")[0] for form in named.split(", ")] == ["mc", "csearch", "csearch-margin", "az", "azmc"]


def test_a_network_of_another_game_cannot_advise_and_bad_arguments_are_refused():
    royal_wedding = position(Rules(4, game="royal_wedding"), 0, 4)
    with pytest.raises(AgentSpecError, match="plays every Queendomino variant.*4-player Royal Wedding"):
        advise(royal_wedding, 0, f"az:{SHIPPED_QUEEN['queendomino']}")
    state = position(Rules(2), 0, 4)
    with pytest.raises(ValueError, match="seconds"):
        advise(state, 0, "mc:p10", seconds=0)
    with pytest.raises(ValueError, match="game must be"):
        advise(state, 1, "mc:p10")
    with pytest.raises(ValueError, match="other|plays"):
        Advisor(Rules(3), "mc:p10").advise(state)
    finished = position(Rules(2), 0, Rules(2).max_actions)
    with pytest.raises(ValueError, match="over"):
        advise(finished, 0, "mc:p10")


def test_a_game_analysis_lists_every_decision_with_a_choice():
    record = greedy_record(Rules(2), 7)
    analysis = analyse_record(record, "mc:p30", seed=2, game=4)
    state = replayed(record, 0)
    choices = []
    for i, action in enumerate(record["actions"]):
        if core.legal_action_mask(state)[0].sum() > 1:
            choices.append((i, int(state.current_player[0])))
        core.step(state, [action])
    assert [(d.index, d.player) for d in analysis.decisions] == choices
    data = analysis.to_json()
    assert set(data) == {"game", "agent", "seats", "decisions"} and data["game"] == 4 and data["agent"] == "mc:p30"
    assert data["seats"] == [] and analysis.seat_name(1) == "player 1"
    for d, row in zip(analysis.decisions, data["decisions"], strict=True):
        assert set(row) == {"index", "player", "played", "best", "win_probability", "loss"}
        assert row["played"] == record["actions"][d.index] and row["best"] == d.estimates[0].action
        played = next(e for e in d.estimates if e.action == d.played)
        assert row["loss"] == max(0.0, d.win_probability - played.win_probability) >= 0
        assert 0 <= row["win_probability"] <= 1
    json.dumps(data)
    assert analyse_record(record, "mc:p30", seed=2, game=4).to_json() == data
    mistakes = analysis.mistakes(3)
    assert [m.loss for m in mistakes] == sorted((d.loss for d in analysis.decisions if d.loss > 0),
                                                reverse=True)[:3]
    series = analysis.win_series()
    assert sorted(series) == [0, 1]
    assert sum(len(i) for i, _ in series.values()) == len(analysis.decisions)


def test_an_unfinished_game_of_the_royal_wedding_is_analysed():
    rules = Rules(4, game="royal_wedding")
    record = greedy_record(rules, 1, actions=12)
    analysis = analyse_record(record, seed=0, seconds=0.05)
    assert analysis.agent == "csearch" and analysis.decisions
    assert all(d.index < 12 for d in analysis.decisions)


def test_seats_are_named_as_given_with_their_index_where_two_share_a_name():
    record = greedy_record(Rules(4), 3, actions=6)
    analysis = analyse_record(record, "mc:p10", seed=0, seats=("greedy", "mc", "greedy", "random"))
    assert [analysis.seat_name(p) for p in range(4)] == ["greedy (seat 0)", "mc", "greedy (seat 2)", "random"]
    assert {row["seat"] for row in analysis.rows()} == {analysis.seat_name(d.player) for d in analysis.decisions}
    assert analysis.to_json()["seats"] == ["greedy", "mc", "greedy", "random"]
    for seats in (("a", "b"), ("a", "b", "c", 4)):
        with pytest.raises(ValueError, match="must name each of the game's 4 seats"):
            analyse_record(record, "mc:p10", seats=seats)


def write_games(tmp_path, records: list[dict]) -> str:
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps({"game": i, "record": r}) + "\n" for i, r in enumerate(records)))
    return str(path)


def test_games_files_and_saves_are_read_and_told_apart(tmp_path):
    first, second = greedy_record(Rules(2), 1, 10), greedy_record(Rules(2), 2, 10)
    games = write_games(tmp_path, [first, second])
    assert read_record(games, 1) == (second, False)
    save = tmp_path / "save.json"
    save.write_text(json.dumps({"format": "kingdomino-save/1", "name": "x", "record": first}, indent=1))
    assert read_record(save) == (first, True)
    assert analyse_games_file(games, 1, "mc:p10").game == 1
    assert analyse_save(save, "mc:p10").to_json() == analyse_file(games, 0, "mc:p10").to_json()
    with pytest.raises(AnalysisInputError, match="is a save"):
        analyse_games_file(save, 0, "mc:p10")
    with pytest.raises(AnalysisInputError, match="not a save"):
        analyse_save(games, "mc:p10")


@pytest.mark.parametrize("content, game, message", [
    (None, 0, "cannot read"),
    ("", 0, "empty"),
    ("not json\n", 0, "not JSON"),
    ('{"a": 1}\n', 0, "not a game"),
    ('{"record": {"format": "kingdomino-record/1"}}\n', 0, "does not replay"),
    ("GOOD", 3, r"has no game 3: it has 1 game \(0 to 0\)"),
    ("SAVE", 1, "holds one game"),
])
def test_bad_files_are_refused_with_a_reason(tmp_path, content, game, message):
    path = tmp_path / "games.jsonl"
    if content == "GOOD":
        write_games(tmp_path, [greedy_record(Rules(2), 1, 4)])
    elif content == "SAVE":
        path.write_text(json.dumps({"format": "kingdomino-save/1", "record": greedy_record(Rules(2), 1, 4)}))
    elif content is not None:
        path.write_text(content)
    with pytest.raises(AnalysisInputError, match=message):
        analyse_file(path, game, "mc:p10")


def test_a_folder_is_not_a_games_file(tmp_path):
    with pytest.raises(AnalysisInputError, match="not a regular file"):
        read_record(tmp_path)


def test_az_advises_where_its_network_plays():
    assert supports("az", Rules(2)) and default_spec(Rules(2)) == "az"
    assert default_spec(Rules(3, game="queendomino")) == "mc"
    assert default_spec(Rules(5, game="royal_wedding")) == "mc"


def test_csearch_advises_two_player_queendomino_and_the_four_player_royal_wedding():
    assert default_spec(Rules(2, game="queendomino")) == "csearch"
    assert default_spec(Rules(4, game="royal_wedding")) == "csearch"


def test_csearch_advises_the_mighty_duel_with_or_without_torch(monkeypatch):
    duel = Rules(2, mighty_duel=True)
    assert default_spec(duel) == "csearch" and default_spec(Rules(2, mighty_duel=True, harmony=True)) == "csearch"
    monkeypatch.setattr(registry, "has_torch", lambda: False)
    assert default_spec(duel) == "csearch"


def test_mc_advises_where_torch_is_missing(monkeypatch):
    monkeypatch.setattr(registry, "has_torch", lambda: False)
    assert default_spec(Rules(2)) == "mc"
    assert Advisor(Rules(2), seed=0).spec == "mc"
