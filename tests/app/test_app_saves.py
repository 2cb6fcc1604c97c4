"""Saves: the file format, atomic writes, never overwriting unasked, every field checked, bad saves (and things
that are not save files) listed with a clear reason while the good ones still load, the autosave, and the Load
screen keeping its texts inside their boxes."""

from __future__ import annotations

import json
import os
import stat
import threading
import time
from pathlib import Path

import numpy as np
import pygame
import pytest

from kingdomino_app import saves
from kingdomino_app.app import App
from kingdomino_app.match import Match
from kingdomino_app.screens.load import LIST_TOP, MESSAGE_RECT, LoadScreen, row_rect
from kingdomino_app.screens.play import PlayScreen
from kingdomino_app.seats import AgentUnavailable, Seat
from kingdomino_app.ui import HEIGHT, WIDTH
from kingdomino_env import core, record
from kingdomino_env.rendering import pygame_drawing as drawing
from kingdomino_env.rules import Rules
from tests.app.driver import Driver


def played_match(actions: int = 10, dynasty: bool = False, seed: int = 3) -> Match:
    match = Match([Seat("Ann"), Seat("Greedy", "greedy")], Rules(), dynasty=dynasty, seed=seed)
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

    real_write_text = Path.write_text

    def half_write(path: Path, text: str, *args, **kwargs) -> int:
        real_write_text(path, text[: len(text) // 2], *args, **kwargs)
        raise OSError("disk full")

    monkeypatch.setattr(Path, "write_text", half_write)
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
    assert isinstance(driver.app.screen, PlayScreen)
    written = sorted(p.name for p in driver.app.saves_dir.glob("*")) if driver.app.saves_dir.exists() else []
    assert written in ([], [saves.AUTOSAVE_FILE]), "no save but the autosave"


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


# Every field is checked: bad saves are listed with their reason and never stop the listing.
def edited_save(tmp_path, name: str, edit) -> None:
    """Write a good save's content, changed by `edit(data)`, to `tmp_path/name` as a hand-edited file would be."""
    data = played_match(8).to_save("edited")
    edit(data)
    (tmp_path / name).write_text(json.dumps(data))


def test_integers_too_big_for_int64_are_listed_with_the_others(tmp_path):
    saves.write(tmp_path, played_match(6).to_save("good one"))
    edited_save(tmp_path, "action.json", lambda d: d["record"]["actions"].__setitem__(3, 10**30))
    edited_save(tmp_path, "seed.json", lambda d: d.__setitem__("seed", 10**30))
    edited_save(tmp_path, "dynasty.json", lambda d: d.__setitem__("dynasty", {"games": 10**30, "finished": []}))
    edited_save(tmp_path, "rules.json", lambda d: d["record"]["rules"].__setitem__("players", 10**30))
    listed = {s.path.name: s for s in saves.list_saves(tmp_path)}
    assert listed["good-one.json"].error is None
    assert "the game in progress is not a valid game record" in listed["action.json"].error
    assert "seed must be an integer from 0 to 9223372036854775805" in listed["seed.json"].error
    assert "a dynasty has 3 games" in listed["dynasty.json"].error
    assert "the game in progress is not a valid game record" in listed["rules.json"].error


def test_a_negative_seed_is_refused_with_the_valid_range(tmp_path):
    data = played_match(4).to_save("x")
    for seed in (-5, saves.MAX_SEED + 1, True, 1.0, "3", None):
        data["seed"] = seed
        with pytest.raises(saves.SaveError, match=r"the save's seed must be an integer from 0 to \d+, got "):
            saves.check(data)
    data["seed"] = saves.MAX_SEED
    resumed = Match.from_save(saves.check(data))
    assert resumed.seed == saves.MAX_SEED and resumed.record() == data["record"]
    edited_save(tmp_path, "minus.json", lambda d: d.__setitem__("seed", -5))
    [info] = saves.list_saves(tmp_path)
    assert info.data is None and "seed must be an integer from 0 to" in info.error and "got -5" in info.error


@pytest.mark.parametrize(("name", "message"), [
    ("", "1 to 18 visible characters"), ("A" * 19, "1 to 18 visible characters"),
    ("\u200b", "visible characters"), ("Ann\x00", "visible characters"), (["Ann"], "must be strings")])
def test_seat_names_are_checked(name, message):
    data = played_match(4).to_save("x")
    data["seats"][0]["name"] = name
    with pytest.raises(saves.SaveError, match=message):
        saves.check(data)


def test_names_and_dates_that_cannot_be_drawn_are_refused():
    data = played_match(4).to_save("x")
    for key, value in [("name", "\u200b\u00ad"), ("name", "x" * 81), ("name", "a\ud800"), ("saved_at", "\x07"),
                       ("saved_at", "9" * 65), ("saved_at", 20250314)]:
        bad = dict(data, **{key: value})
        with pytest.raises(saves.SaveError, match="visible characters"):
            saves.check(bad)
    assert saves.check(dict(data, name="A" * 80, saved_at="last Friday")).name == "A" * 80


def test_a_save_whose_ppo_seat_cannot_play_a_three_player_game_says_why(tmp_path):
    match = Match([Seat("Ann"), Seat("Greedy", "greedy"), Seat("Random", "random")], Rules(3), seed=5)
    data = match.to_save("three")
    data["seats"][2] = {"name": "PPO", "kind": "ppo"}
    saves.write(tmp_path, played_match(4).to_save("good one"))
    (tmp_path / "three.json").write_text(json.dumps(data))
    listed = {s.path.name: s for s in saves.list_saves(tmp_path)}
    assert listed["good-one.json"].error is None
    error = listed["three.json"].error
    assert error.startswith("seat 3 (PPO) cannot play this game: ") and "3-player" in error, error
    data["seats"][2]["kind"] = "mcts:fast"
    with pytest.raises(saves.SaveError, match="seat 3 .* cannot play this game: 'mcts:fast'"):
        saves.check(data)


def test_any_error_reading_one_file_is_listed_as_its_reason(tmp_path, monkeypatch):
    saves.write(tmp_path, played_match(4).to_save("good one"))
    (tmp_path / "boom.json").write_text("{}")
    real_read = saves.read

    def read(path):
        if path.name == "boom.json":
            raise RuntimeError("unexpected")
        return real_read(path)

    monkeypatch.setattr(saves, "read", read)
    listed = {s.path.name: s for s in saves.list_saves(tmp_path)}
    assert listed["good-one.json"].error is None
    assert listed["boom.json"].error == "cannot read the save (RuntimeError: unexpected)"


def test_json_that_python_cannot_hold_is_a_save_error(tmp_path):
    (tmp_path / "digits.json").write_text('{"seed": ' + "9" * 5000 + "}")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "latin1.json").write_bytes(b'{"name": "caf\xe9"}')
    good = played_match(4).to_save("bom")
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(good).encode())
    for name, message in [("digits.json", "not valid JSON"), ("deep.json", "not valid JSON"),
                          ("latin1.json", "not UTF-8 text")]:
        with pytest.raises(saves.SaveError, match=message):
            saves.read(tmp_path / name)
    assert saves.read(tmp_path / "bom.json").name == "bom", "a byte order mark from an editor is fine"


# The saves folder: only regular files of sane size are read; temporary files do not pile up; normal modes.
def list_in_thread(directory, timeout: float = 30.0) -> list[saves.SaveInfo]:
    """`list_saves` in a thread, so that a regression that blocks fails the test instead of hanging it."""
    result: list[list[saves.SaveInfo]] = []
    thread = threading.Thread(target=lambda: result.append(saves.list_saves(directory)), daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), "list_saves blocked"
    return result[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_folder_or_device_named_json_is_refused_without_blocking(tmp_path):
    saves.write(tmp_path, played_match(4).to_save("good one"))
    os.mkfifo(tmp_path / "x.json")
    (tmp_path / "folder.json").mkdir()
    if os.path.exists("/dev/zero"):
        (tmp_path / "zero.json").symlink_to("/dev/zero")
    (tmp_path / "huge.json").write_bytes(b" " * (saves.MAX_BYTES + 1))
    listed = {s.path.name: s for s in list_in_thread(tmp_path)}
    assert listed["good-one.json"].error is None
    assert listed["x.json"].error == "it is a FIFO (named pipe), not a save file"
    assert listed["folder.json"].error == "it is a folder, not a save file"
    if "zero.json" in listed:
        assert listed["zero.json"].error == "it is a device, not a save file"
    limit = saves.MAX_BYTES
    assert listed["huge.json"].error == f"the file has {limit + 1} bytes; a save has at most {limit}"


def test_a_bad_file_name_is_shown_drawable(tmp_path):
    (tmp_path / "bad\nname\x07.json").write_text("[]")
    [info] = saves.list_saves(tmp_path)
    assert info.name == "bad?name?" and info.error == "a save must be a JSON object, got list"


def test_stale_temporary_files_are_removed_and_fresh_ones_kept(tmp_path):
    saves.write(tmp_path, played_match(4).to_save("good one"))
    stale, fresh, folder = (tmp_path / ".saving-dead.tmp", tmp_path / ".saving-live.tmp",
                            tmp_path / ".saving-dir.tmp")
    stale.write_text("{")
    fresh.write_text("{")
    folder.mkdir()
    old = time.time() - saves.STALE_SECONDS - 5
    os.utime(stale, (old, old))
    os.utime(folder, (old, old))
    assert [s.name for s in saves.list_saves(tmp_path)] == ["good one"]
    assert not stale.exists() and fresh.exists() and folder.is_dir()
    os.utime(fresh, (old, old))
    saves.write(tmp_path, played_match(4).to_save("second"))
    assert not fresh.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [".saving-dir.tmp", "good-one.json", "second.json"]


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_save_files_get_the_users_normal_mode(tmp_path, umask):
    old = os.umask(umask)
    try:
        path = saves.write(tmp_path, played_match(4).to_save("moded"))
        auto = saves.write_autosave(tmp_path, played_match(4).to_save("Autosave"))
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    assert stat.S_IMODE(auto.stat().st_mode) == 0o666 & ~umask


# The autosave.
def test_the_autosave_is_listed_first_and_can_be_replaced_and_cleared(tmp_path):
    saves.write(tmp_path, played_match(4).to_save("older"))
    auto = played_match(6).to_save("Autosave")
    auto["saved_at"] = "2000-01-01T00:00:00+00:00"
    path = saves.write_autosave(tmp_path, auto)
    assert path == tmp_path / saves.AUTOSAVE_FILE and saves.slug("_autosave") != "_autosave"
    saves.write(tmp_path, played_match(4).to_save("newer"))
    listed = saves.list_saves(tmp_path)
    assert [(s.name, s.autosave) for s in listed] == [("Autosave", True), ("newer", False), ("older", False)]
    replaced = played_match(10).to_save("Autosave")
    saves.write_autosave(tmp_path, replaced)
    assert saves.read(path).record == replaced["record"]
    bad = dict(replaced, seed=-1)
    with pytest.raises(saves.SaveError):
        saves.write_autosave(tmp_path, bad)
    assert saves.read(path).record == replaced["record"], "a refused autosave leaves the last one"
    saves.clear_autosave(tmp_path)
    saves.clear_autosave(tmp_path)
    assert [s.autosave for s in saves.list_saves(tmp_path)] == [False, False]


def test_a_broken_autosave_is_listed_first_with_its_reason(tmp_path):
    saves.write(tmp_path, played_match(4).to_save("good one"))
    (tmp_path / saves.AUTOSAVE_FILE).write_text('{"format": "kingdomino-save/1"')
    listed = saves.list_saves(tmp_path)
    assert listed[0].autosave and listed[0].name == saves.AUTOSAVE_TITLE and "not valid JSON" in listed[0].error
    assert listed[1].error is None


def test_the_autosave_is_offered_first_on_the_load_screen_and_continues(driver):
    saves.write(driver.app.saves_dir, played_match(4).to_save("older"))
    match = played_match(9)
    saves.write_autosave(driver.app.saves_dir, match.to_save("Autosave"))
    texts = driver.click("Load Game")
    screen = driver.app.screen
    assert isinstance(screen, LoadScreen) and screen.selected == 0 and screen.saves[0].autosave
    assert texts.index(saves.AUTOSAVE_TITLE) < texts.index("older")
    assert f"Ann, Greedy  -  {match.progress()}" in texts
    driver.click("Continue Game")
    assert isinstance(driver.app.screen, PlayScreen)
    assert driver.app.screen.match.record() == match.record()


def test_a_dynasty_saved_between_games_resumes_at_the_finished_game(tmp_path):
    match = played_match(48, dynasty=True)
    assert match.game_over and not match.match_over
    path = saves.write(tmp_path, match.to_save("interlude"))
    data = saves.read(path)
    assert data.finished == [] and data.progress == "Game 1/3, Game over"
    resumed = Match.from_save(data)
    assert resumed.game_over and resumed.record() == match.record() and resumed.standing() == match.standing()
    resumed.next_game()
    assert resumed.game_number == 2 and resumed.finished == [match.record()]
    rng = np.random.default_rng(1)
    while not resumed.game_over:
        resumed.play(int(rng.choice(np.flatnonzero(resumed.mask()))))
    second = saves.read(saves.write(tmp_path, resumed.to_save("interlude 2")))
    assert len(second.finished) == 1 and second.state.is_over[0]
    assert Match.from_save(second).game_number == 2


# The Load screen keeps every text inside the window and reports what stops a Continue.
def drawn_rects(monkeypatch, driver) -> list[tuple[str, pygame.Rect]]:
    """Draw a frame and return every text drawn with its rect."""
    drawn: list[tuple[str, pygame.Rect]] = []
    real_text = drawing.text

    def text(surface, value, *args, **kwargs):
        rect = real_text(surface, value, *args, **kwargs)
        drawn.append((value, rect))
        return rect

    monkeypatch.setattr(drawing, "text", text)
    driver.frame()
    monkeypatch.setattr(drawing, "text", real_text)
    return drawn


def test_long_errors_and_names_stay_inside_their_boxes(tmp_path, monkeypatch):
    def failing_agent(spec, seed):
        raise AgentUnavailable("unknown agent spec " + "'very-long-agent-spec-name' " * 20 + "; valid: " +
                               ", ".join(["random", "greedy", "gprd", "heuristic", "mc", "mcts", "ppo"] * 8))

    directory = tmp_path / "saves"
    saves.write(directory, played_match(4).to_save("W" * 80))
    (directory / ("long-file-name-" * 12 + ".json")).write_text(json.dumps({"format": "x" * 5000}))
    edited_save(directory, "w.json", lambda d: d.__setitem__("saved_at", "W" * 64))
    driver = Driver(App(saves_dir=directory, pace=0, seed=11, agent_factory=failing_agent))
    driver.click("Load Game")
    screen = driver.app.screen
    driver.click_at(row_rect(next(i for i, s in enumerate(screen.saves) if s.error is None)).center)
    driver.click("Continue Game")
    assert isinstance(driver.app.screen, LoadScreen) and screen.error.startswith("Cannot continue: unknown agent")
    drawn = drawn_rects(monkeypatch, driver)
    window = pygame.Rect(0, 0, WIDTH, HEIGHT)
    for value, rect in drawn:
        assert window.contains(rect), (value, rect)
    rows = [row_rect(i) for i in range(len(screen.saves))]
    in_rows = [(v, r) for v, r in drawn if r.top >= LIST_TOP and r.bottom <= rows[-1].bottom + 1 and r.x >= 120]
    for value, rect in in_rows:
        assert any(row.contains(rect) for row in rows), (value, rect)
    message = [(v, r) for v, r in drawn if r.colliderect(MESSAGE_RECT)]
    assert message and all(r.right <= MESSAGE_RECT.right for _, r in message) and len(message) <= 2
    assert message[0][0].startswith("Cannot continue: unknown agent spec") and message[-1][0].endswith("...")
    driver.click("Back")


def queendomino_save(actions: int = 20) -> dict:
    """A good save's content whose record is a Queendomino game (as a script or a later app might write)."""
    rules = Rules(game="queendomino", players=2)
    state = core.new_games(rules, [7])
    rng = np.random.default_rng(7)
    played = []
    for _ in range(actions):
        action = core.random_legal_actions(core.legal_action_mask(state), rng)
        core.step(state, action)
        played.append(int(action[0]))
    data = played_match(4).to_save("queen")
    data["record"] = record.make_record(state, 0, played)
    assert record.replay(data["record"])[0].rules == rules
    return data


def test_a_queendomino_save_is_checked_written_and_listed_like_a_kingdomino_one(tmp_path):
    data = queendomino_save()
    checked = saves.check(data)
    assert checked.state.rules == Rules(game="queendomino", players=2)
    assert int(checked.state.n_steps[0]) == 20
    saves.write(tmp_path, data)
    saves.write(tmp_path, played_match(4).to_save("good one"))
    listed = {s.path.name: s for s in saves.list_saves(tmp_path)}
    assert listed["good-one.json"].error is None and listed["queen.json"].error is None
    assert listed["queen.json"].data.state.rules.is_queendomino


def test_a_queendomino_save_whose_agent_cannot_play_it_says_why(tmp_path):
    data = queendomino_save()
    data["seats"][1] = {"name": "Heuristic", "kind": "heuristic"}
    with pytest.raises(saves.SaveError, match=r"seat 2 \(Heuristic\) cannot play this game"):
        saves.check(data)
    (tmp_path / "queen.json").write_text(json.dumps(data))
    (info,) = saves.list_saves(tmp_path)
    assert info.data is None and "cannot play this game" in info.error


def test_the_load_screen_continues_a_queendomino_save(driver):
    driver.app.saves_dir.mkdir(parents=True)
    data = queendomino_save()
    (driver.app.saves_dir / "queen.json").write_text(json.dumps(data))
    texts = driver.click("Load Game")
    screen = driver.app.screen
    assert isinstance(screen, LoadScreen) and screen.selected == 0
    assert "queen" in texts and not any(t.startswith("Cannot load") for t in texts)
    driver.click("Continue Game")
    play = driver.app.screen
    assert isinstance(play, PlayScreen) and play.match.rules.is_queendomino
    assert play.match.record()["actions"][:20] == data["record"]["actions"]
