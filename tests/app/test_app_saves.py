"""Saves: the file format, atomic writes, never overwriting unasked, and bad saves listed with a clear reason
while the good ones still load."""

from __future__ import annotations

import json

import numpy as np
import pytest

from kingdomino_app import saves
from kingdomino_app.match import Match, Options
from kingdomino_app.screens.load import LoadScreen, row_rect
from kingdomino_app.screens.play import PlayScreen
from kingdomino_app.seats import Seat


def played_match(actions: int = 10, dynasty: bool = False, seed: int = 3) -> Match:
    match = Match([Seat("Ann"), Seat("Greedy", "greedy")], Options(dynasty=dynasty), seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(actions):
        match.play(int(rng.choice(np.flatnonzero(match.mask()))))
    return match


def test_save_file_format_and_round_trip(tmp_path):
    match = played_match()
    path = saves.write(tmp_path, match.to_save("My game!"))
    assert path == tmp_path / "my-game.json"
    data = json.loads(path.read_text())
    assert set(data) == {"format", "name", "saved_at", "seats", "seed", "dynasty", "record"}
    assert data["format"] == "kingdomino-save/1" and data["name"] == "My game!" and data["dynasty"] is None
    assert data["record"]["format"] == "kingdomino-record/1"
    loaded = saves.read(path)
    assert loaded.seats == match.seats and loaded.seed == match.seed and loaded.progress == match.progress()
    resumed = Match.from_save(loaded)
    assert resumed.record() == match.record()
    np.testing.assert_array_equal(resumed.state.scores, match.state.scores)


def test_writes_are_atomic_and_never_overwrite_unasked(tmp_path, monkeypatch):
    first = played_match(4)
    saves.write(tmp_path, first.to_save("game"))
    second = played_match(8)
    with pytest.raises(FileExistsError, match="a save named 'game' exists"):
        saves.write(tmp_path, second.to_save("game"))
    assert saves.read(tmp_path / "game.json").record == first.record()

    def broken_dump(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(saves.json, "dump", broken_dump)
    with pytest.raises(OSError, match="disk full"):
        saves.write(tmp_path, second.to_save("game"), overwrite=True)
    monkeypatch.undo()
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"], "no temporary file is left behind"
    assert saves.read(tmp_path / "game.json").record == first.record()
    saves.write(tmp_path, second.to_save("game"), overwrite=True)
    assert saves.read(tmp_path / "game.json").record == second.record()


def bad_saves(tmp_path) -> dict[str, str]:
    """Write one good save and several bad ones; returns file name -> expected part of the error."""
    good = played_match(12)
    saves.write(tmp_path, good.to_save("good one"))
    data = good.to_save("x")
    (tmp_path / "truncated.json").write_text(json.dumps(data)[:200])
    edited = json.loads(json.dumps(data))
    edited["record"]["actions"][5] = 0
    (tmp_path / "edited.json").write_text(json.dumps(edited))
    seats = json.loads(json.dumps(data))
    seats["seats"] = seats["seats"][:1]
    (tmp_path / "seats.json").write_text(json.dumps(seats))
    (tmp_path / "other.json").write_text(json.dumps({"hello": 1}))
    scores = played_match(48)
    finished = scores.to_save("done")
    finished["record"]["scores"][0] += 1
    (tmp_path / "scores.json").write_text(json.dumps(finished))
    (tmp_path / "notes.txt").write_text("not a save")
    return {
        "truncated.json": "the file is not valid JSON (line 1",
        "edited.json": "the game in progress is not a valid game record: record action #5 (0) is illegal",
        "seats.json": "the save has 1 seats for a 2-player game",
        "other.json": "not a Kingdomino save",
        "scores.json": "record scores",
    }


def test_bad_saves_are_listed_with_their_reason(tmp_path):
    expected = bad_saves(tmp_path)
    listed = {s.path.name: s for s in saves.list_saves(tmp_path)}
    assert set(listed) == set(expected) | {"good-one.json"}
    assert listed["good-one.json"].error is None and listed["good-one.json"].players == ["Ann", "Greedy"]
    for name, message in expected.items():
        assert listed[name].error is not None and message in listed[name].error, (name, listed[name].error)
        assert listed[name].data is None


def test_load_screen_shows_bad_saves_and_loads_the_good_one(driver):
    expected = bad_saves(driver.app.saves_dir)
    texts = driver.click("Load Game")
    screen = driver.app.screen
    assert isinstance(screen, LoadScreen) and len(screen.saves) == 6
    assert "good one" in texts and "Ann, Greedy  -  Round 2/6" in texts
    errors = [t for t in texts if t.startswith("Cannot load ")]
    assert len(errors) == len(expected)
    for name, message in expected.items():
        shown = next(i for i, t in enumerate(texts) if t.startswith(f"Cannot load {name}: "))
        assert message in " ".join(texts[shown:shown + 2]), (name, texts[shown:shown + 2])
    bad_index = next(i for i, s in enumerate(screen.saves) if s.error)
    good_index = next(i for i, s in enumerate(screen.saves) if s.error is None)
    driver.click_at(row_rect(bad_index).center)
    assert screen.selected == good_index, "a bad save cannot be selected"
    driver.click("Continue Game")
    assert isinstance(driver.app.screen, PlayScreen)
    assert driver.app.screen.match.names == ["Ann", "Greedy"]


def test_load_screen_without_saves(driver):
    texts = driver.click("Load Game")
    assert any(t.startswith("No saves yet in ") for t in texts)
    assert not driver.buttons()["Continue Game"].enabled


def test_save_screen_asks_before_replacing(driver):
    match = played_match(6)
    saves.write(driver.app.saves_dir, played_match(2).to_save("Derby"))
    driver.app.show_play(match)
    texts = driver.click("Save & Quit")
    assert "Name of Game" in texts and "Ann vs Greedy|" in texts
    driver.clear_and_type("Derby")
    texts = driver.click("Save & Quit")
    assert any("A save named like 'Derby' exists (derby.json)" in t for t in texts)
    assert len(saves.read(driver.app.saves_dir / "derby.json").record["actions"]) == 2
    driver.click("Replace & Quit")
    assert len(saves.read(driver.app.saves_dir / "derby.json").record["actions"]) == 6
    assert "Saved 'Derby'." in driver.frame()


def test_back_to_game_saves_nothing(driver):
    match = played_match(6)
    driver.app.show_play(match)
    driver.click("Save & Quit")
    driver.click("Back to Game")
    assert isinstance(driver.app.screen, PlayScreen) and not driver.app.saves_dir.exists()


def test_a_dynasty_continues_with_its_finished_games(driver):
    match = played_match(48, dynasty=True)
    assert match.game_over
    first = match.record()
    match.next_game()
    match.play(int(np.flatnonzero(match.mask())[0]))
    saves.write(driver.app.saves_dir, match.to_save("dyn"))
    data = json.loads((driver.app.saves_dir / "dyn.json").read_text())
    assert data["dynasty"] == {"games": 3, "finished": [first]}
    info = saves.list_saves(driver.app.saves_dir)[0]
    assert info.progress == "Game 2/3, Starting round"
    resumed = Match.from_save(info.data)
    assert resumed.game_number == 2 and resumed.finished == [first] and resumed.record() == match.record()
    assert resumed.results == match.results
