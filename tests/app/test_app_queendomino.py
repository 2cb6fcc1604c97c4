"""Queendomino and the Royal Wedding through the screens: New Game's game choice, the knight, build and Dragon steps
with what each costs or brings shown before it is played (read from the core), a whole game with Save & Quit, Load
and the Scores breakdown, and a 6-player team game resumed from its autosave after a crash."""

from __future__ import annotations

import json
import re
import threading

import numpy as np
import pygame
import pytest

import agents
from kingdomino_app import builders_board, saves
from kingdomino_app.app import App
from kingdomino_app.match import Match
from kingdomino_app.saves import AUTOSAVE_FILE, progress_text
from kingdomino_app.screens import play
from kingdomino_app.screens.load import row_rect
from kingdomino_app.screens.new_game import NewGameScreen
from kingdomino_app.screens.play import PlayScreen, board_slot_rect
from kingdomino_app.screens.save import SaveScreen
from kingdomino_app.screens.scores import ScoresScreen
from kingdomino_app.seats import KINDS, Seat
from kingdomino_app.ui import HEIGHT, WIDTH, Canvas
from kingdomino_env import core
from kingdomino_env.games.queendomino.kernels import BUILD, DRAGON, KNIGHT_STEP
from kingdomino_env.record import replay
from kingdomino_env.rendering import pygame_drawing as drawing
from kingdomino_env.rendering.text import building_effects
from kingdomino_env.rules import Rules
from tests.app.driver import Driver
from tests.app.test_app_thinking import gated_app
from tests.app.textfit import misfits, too_small

WINDOW = pygame.Rect(0, 0, WIDTH, HEIGHT)


def drawn(driver) -> list[tuple[str, pygame.Rect]]:
    canvas = Canvas(driver.surface)
    driver.app.screen.draw(canvas)
    return list(zip(canvas.texts, canvas.rects, strict=True))


def play_human(driver, rng, stop) -> int:
    """The human's turns through the screens (clicks and keys in turn) until `stop(match)` or the game's end."""
    turns = 0
    while isinstance(driver.app.screen, PlayScreen) and not stop(driver.app.screen.match):
        match = driver.app.screen.match
        assert match.human_to_move()
        driver.human_turn(rng, use_keys=turns % 2 == 1)
        turns += 1
    return turns


def human_at(match: Match, phase: int, rng, ready=lambda m: True) -> None:
    """Play (the human at random, agents as they choose) until the human is to move in `phase` and `ready`."""
    while not (match.human_to_move() and match.phase == phase and ready(match)):
        assert not match.game_over, "the game ended first"
        if match.human_to_move():
            match.play(int(rng.choice(np.flatnonzero(match.mask()))))
        else:
            match.play_agent()


def queen_match(driver, seed: int = 2, players: int = 2) -> Match:
    seats = [Seat("Ann")] + [Seat(f"Greedy {i}", "greedy") for i in range(1, players)]
    match = Match(seats, Rules(game="queendomino", players=players), seed=seed,
                  agent_factory=driver.app.agent_factory)
    return match


def test_new_game_offers_the_three_games_and_only_agents_that_can_play_them(driver):
    driver.click("New Game")
    screen = driver.app.screen
    assert isinstance(screen, NewGameScreen)
    texts = driver.click("Queendomino")
    assert screen.rules() == Rules(game="queendomino", players=2)
    assert "Dynasty: Off" in texts and "Harmony: Off" not in texts and "Quests: Off" not in texts
    for seat in range(2):
        seen = set()
        for _ in range(2 * len(KINDS)):
            screen.cycle_kind(seat)
            seen.add(screen.kinds[seat])
        assert all(kind == "human" or agents.supports(kind, screen.rules()) for kind in seen)
        assert seen == {k for k in KINDS if k == "human" or agents.supports(k, screen.rules())}
    texts = driver.click("Royal Wedding")
    assert screen.players == 3 and [f"{n} players" for n in range(3, 9)] == [
        label for label in driver.buttons() if label.endswith("players")]
    assert not driver.buttons()["Teams: Off"].enabled
    driver.click("6 players")
    texts = driver.click("Teams: Off")
    assert screen.rules() == Rules(game="royal_wedding", players=6, teams=True)
    assert texts.count("Team 2") == 2 and "Teams: On" in texts
    assert all(WINDOW.contains(r) for _, r in drawn(driver))
    driver.click("7 players")
    assert not screen.rules().teams
    driver.click("Kingdomino")
    assert screen.players == 4 and screen.rules() == Rules(players=4)


def test_the_knight_step_shows_each_squares_tax_then_sends_the_chosen_knight(driver):
    rng = np.random.default_rng(0)
    match = queen_match(driver)
    human_at(match, KNIGHT_STEP, rng, lambda m: len(m.knight_squares()) == 2)
    driver.app.show_play(match)
    kingdom = match.kingdom_of(match.mover)
    taxes = [match.preview(match.rules.knight_action(i)).coins for i in (0, 1)]
    texts = driver.frame()
    assert any(t.startswith("First square") and t.endswith(f": tax +{taxes[0]} coin{'s' * (taxes[0] != 1)}")
               for t in texts)
    assert any(t.startswith("Second square") and f": tax +{taxes[1]} coin" in t for t in texts)
    assert not driver.buttons()["Send knight"].enabled and driver.buttons()["Done"].enabled
    assert not [t for t in texts if t.endswith("...") and "Board" not in t], "the step's lines fit"
    second = match.placed_cells()[1]
    driver.click_at(play.focus_cell_rect(match.rules.frame, *second, match.rules).center)
    before = int(match.state.coins[0, kingdom])
    driver.click(f"Send knight (+{taxes[1]} coin{'s' * (taxes[1] != 1)})")
    assert int(match.state.coins[0, kingdom]) == before + taxes[1]
    assert int(match.state.knight_board[0, kingdom, second[0], second[1]]) >= 1
    assert match.moves[-1].describe(match.names) == f"Ann sent a knight: +{taxes[1]} coin{'s' * (taxes[1] != 1)}"


def test_building_shows_the_cost_with_the_queens_discount_and_the_effects(driver):
    rng = np.random.default_rng(1)
    match = queen_match(driver, seed=5)
    human_at(match, BUILD, rng, lambda m: any(k >= 1 for k in m.buildable_slots()))
    kingdom = match.kingdom_of(match.mover)
    match.state.queen[0] = kingdom  # the human hosts the Queen: the core takes 1 coin off
    slot = max(match.buildable_slots())
    driver.app.show_play(match)
    tile = match.slot_tile(slot)
    deck = match.rules.building_deck
    texts = driver.click_at(board_slot_rect(slot).center)
    assert f"{deck.names[tile]}: costs {slot - 1} coin{'s' * (slot != 2)} ({slot} - 1, the Queen's discount)." \
        in texts
    assert not [t for t in texts if t.endswith("...") and t.startswith(("Build", "Effects", "Click", "The"))]
    effects = [t for t in texts if t.startswith("Effects: ")]
    assert effects and effects[0].startswith("Effects: ")
    row, col = match.build_squares(slot)[0]
    before = int(match.state.coins[0, kingdom])
    driver.click_at(play.focus_cell_rect(match.rules.frame, row, col, match.rules).center)
    assert int(match.state.building_board[0, kingdom, row, col]) == tile
    assert int(match.state.coins[0, kingdom]) == before - (slot - 1)


def test_the_dragon_burns_the_chosen_tile_and_done_passes(driver):
    rng = np.random.default_rng(2)
    match = queen_match(driver, seed=7)
    human_at(match, DRAGON, rng)
    driver.app.show_play(match)
    kingdom = match.kingdom_of(match.mover)
    slot = match.dragon_slots()[0]
    texts = driver.click_at(board_slot_rect(slot).center)
    name = match.rules.building_deck.names[match.slot_tile(slot)]
    assert f"Burn {name} (slot {slot}) for 1 coin?" in texts
    assert "Send the Dragon confirms; another tile changes the choice." in texts
    before = int(match.state.coins[0, kingdom])
    driver.click("Send the Dragon")
    assert match.slot_tile(slot) == -1 and int(match.state.coins[0, kingdom]) == before - 1
    assert not bool(match.state.dragon[0])
    human_at(match, KNIGHT_STEP, rng)
    steps = int(match.state.n_steps[0])
    driver.frame()
    driver.click("Done")
    assert match.record()["actions"][steps] == match.rules.pass_action


def test_a_whole_queendomino_game_through_the_screens_with_save_load_and_scores(driver):
    rng = np.random.default_rng(3)
    driver.click("New Game")
    driver.click("Queendomino")
    driver.click("3 players")
    screen = driver.app.screen
    driver.click_at(screen.fields[0].rect.center)
    driver.clear_and_type("Alice")
    driver.click_at((5, 5))
    driver.click("Start Game")
    match = driver.app.screen.match
    assert match.rules == Rules(game="queendomino", players=3) and match.names == ["Alice", "Greedy", "Random"]
    texts = driver.frame()
    assert "Builders' Board (26 left)" in texts and "Dragon: in cave" in texts and "Queen: free" in texts
    play_human(driver, rng, lambda m: int(m.state.round[0]) >= 5 and m.human_to_move() and m.phase == 0)
    saved = match.record()
    driver.click("Save & Quit")
    driver.clear_and_type("Queen night")
    driver.click("Save & Quit")
    data = json.loads((driver.app.saves_dir / "queen-night.json").read_text())
    assert data["record"] == saved and data["record"]["game"] == "queendomino"
    texts = driver.click("Load Game")
    assert "Alice, Greedy, Random  -  Queendomino, " + progress_text(match.state) in texts
    driver.click_at(row_rect(0).center)
    driver.click("Continue Game")
    resumed = driver.app.screen.match
    assert resumed.record()["actions"][:len(saved["actions"])] == saved["actions"]
    play_human(driver, rng, lambda m: False)
    assert isinstance(driver.app.screen, ScoresScreen)
    state = resumed.state
    assert state.is_over[0]
    texts = driver.frame()
    for k in range(3):
        items = core.score_breakdown(state, 0, k)
        assert f"Score: {items['total']}" in texts and items["total"] == int(state.scores[0, k])
        assert f"Wealth: {int(state.coins[0, k])} coin{'s' * (int(state.coins[0, k]) != 1)} = {items['wealth']}" \
            in texts
        assert f"Territories: {sum(t['points'] for t in items['territories'])}" in texts
    assert sum(t.startswith("Buildings: ") for t in texts) == 3 and sum(t.startswith("Largest") for t in texts) == 3
    winners = [resumed.names[k] for k, r in enumerate(core.ranks(state)[0]) if r == 0]
    assert any(t.startswith("Winner: " + winners[0]) or t.startswith("Shared victory") for t in texts)
    assert replay(resumed.record())[0].scores.tolist() == state.scores.tolist()
    assert not (driver.app.saves_dir / AUTOSAVE_FILE).exists(), "a finished game leaves no autosave"


def test_a_six_player_team_game_survives_a_crash_and_finishes(tmp_path):
    rng = np.random.default_rng(4)
    driver = Driver(App(saves_dir=tmp_path / "saves", pace=0, seed=12))
    driver.click("New Game")
    driver.click("Royal Wedding")
    driver.click("6 players")
    driver.click("Teams: Off")
    driver.app.screen.set_kind(3, "random")  # mcts would think for seconds a move
    driver.click("Start Game")
    screen = driver.app.screen
    assert isinstance(screen, PlayScreen)
    match = screen.match
    assert match.rules == Rules(game="royal_wedding", players=6, teams=True)
    names = match.names
    human_turns = play_human(driver, rng, lambda m: int(m.state.round[0]) >= 4 and m.human_to_move())
    assert human_turns >= 4
    texts = driver.frame()
    assert f"Up next: {names[0]} (team 1 with {names[1]})" in texts
    assert f"Team 1: {names[0]} & {names[1]}" in texts
    assert f"{names[2]} & {names[3]}: {int(match.state.scores[0, 1])}" in texts
    assert any(t.startswith("Queen: ") for t in texts) and any(t.startswith("Dragon: ") for t in texts)
    assert all(WINDOW.contains(r) for _, r in drawn(driver))
    saved = match.record()

    crashed = Driver(App(saves_dir=tmp_path / "saves", pace=0, seed=12))  # the first app died here
    texts = crashed.click("Load Game")
    assert "Unfinished game (autosave)" in texts
    crashed.click("Continue Game")
    resumed = crashed.app.screen.match
    assert resumed.rules.teams and resumed.record()["actions"][:len(saved["actions"])] == saved["actions"]
    play_human(crashed, rng, lambda m: False)
    assert isinstance(crashed.app.screen, ScoresScreen)
    texts = crashed.frame()
    state = resumed.state
    for k in range(3):
        title = f"Team {k + 1}: {names[2 * k]} & {names[2 * k + 1]}"
        assert title in texts and f"Score: {int(state.scores[0, k])}" in texts
    kingdom_ranks = [int(r) for r in core.ranks(state)[0][::2]]
    assert resumed.ranks() == kingdom_ranks
    assert all(WINDOW.contains(r) for _, r in drawn(crashed))


@pytest.mark.parametrize(("players", "teams"), [(8, False), (8, True), (5, False)])
def test_many_kingdoms_stay_readable_and_inside_their_columns(driver, monkeypatch, players, teams):
    seats = [Seat("W" * 16)] + [Seat("M" * 16, "random") for _ in range(players - 1)]
    rules = Rules(game="royal_wedding", players=players, teams=teams)
    match = Match(seats, rules, seed=3, agent_factory=driver.app.agent_factory)
    rng = np.random.default_rng(5)
    human_at(match, core.PLACE, rng, lambda m: int(m.state.round[0]) >= 3)
    driver.app.show_play(match)
    texts = drawn(driver)
    for value, rect in texts:
        assert WINDOW.contains(rect), (value, rect)
        if rect.left < play.FOCUS_ORIGIN[0] - 20:
            assert rect.right <= play.LEFT_X + play.LEFT_WIDTH, (value, rect)
        elif rect.left < play.RIGHT_X - 10 and rect.top > 50:
            assert rect.right <= play.RIGHT_X, (value, rect)
    boxes = [play.queen_thumbnail(rules.grid, i, rules.kingdoms - 1)[0] for i in range(rules.kingdoms - 1)]
    assert all(WINDOW.contains(b) for b in boxes)
    assert not any(a.colliderect(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    assert min(play.queen_thumbnail(rules.grid, i, rules.kingdoms - 1)[1] for i in range(rules.kingdoms - 1)) >= 20
    while not match.game_over:
        if match.human_to_move():
            match.play(int(rng.choice(np.flatnonzero(match.mask()))))
        else:
            match.play_agent()
    driver.app.show_scores(match)
    texts = drawn(driver)
    assert all(WINDOW.contains(r) for _, r in texts)
    assert sum(t.startswith("Score: ") for t, _ in texts) == rules.kingdoms


def test_the_window_keeps_answering_while_a_royal_wedding_agent_thinks(tmp_path):
    gate, gated = threading.Event(), {}
    app = gated_app(tmp_path, gate, gated)
    driver = Driver(app)
    seats = [Seat("Slow", "greedy")] + [Seat(f"Ann {i}") for i in range(1, 6)]
    match = Match(seats, Rules(game="royal_wedding", players=6, teams=True), seed=3,
                  agent_factory=app.agent_factory)
    while match.human_to_move():
        match.play(int(np.flatnonzero(match.mask())[0]))
    app.show_play(match)
    for _ in range(5):
        texts = driver.frame(dt=0.1, settle=False)
    assert not gate.is_set() and app.screen.thinking(), "frames return while the agent is still thinking"
    assert "Slow (greedy) is thinking..." in texts
    driver.key(pygame.K_ESCAPE, settle=False)
    assert isinstance(app.screen, SaveScreen)
    driver.key(pygame.K_ESCAPE, settle=False)
    before = int(match.state.n_steps[0])
    gate.set()
    driver.frame()
    assert int(match.state.n_steps[0]) > before and match.moves[before].player == 0


def test_a_royal_wedding_dynasty_is_saved_between_games_and_goes_on(driver):
    rng = np.random.default_rng(6)
    seats = [Seat("Ann"), Seat("Bo", "random"), Seat("Cy", "greedy")]
    match = Match(seats, Rules(game="royal_wedding", players=3), dynasty=True, seed=8,
                  agent_factory=driver.app.agent_factory)
    while not match.game_over:
        if match.human_to_move():
            match.play(int(rng.choice(np.flatnonzero(match.mask()))))
        else:
            match.play_agent()
    driver.app.show_play(match)
    texts = driver.frame()
    assert isinstance(driver.app.screen, ScoresScreen)
    assert any(t.startswith("Dynasty after 1 of 3 games: Ann ") for t in texts)
    driver.click("Save & Quit")
    driver.clear_and_type("RW dynasty")
    driver.click("Save & Quit")
    texts = driver.click("Load Game")
    assert "Ann, Bo, Cy  -  Royal Wedding, Game 1/3, Game over" in texts
    driver.click("Continue Game")
    assert isinstance(driver.app.screen, ScoresScreen)
    driver.click("Next Game (2/3)")
    resumed = driver.app.screen.match
    assert isinstance(driver.app.screen, PlayScreen) and resumed.game_number == 2
    assert resumed.results[0].scores == tuple(int(v) for v in match.state.scores[0])
    assert resumed.results[0].crowns == (0, 0, 0), "Queendomino's rules break ties on the largest territory only"


def test_browse_dominoes_shows_the_box_of_the_chosen_game(driver):
    driver.click("New Game")
    driver.click("Queendomino")
    texts = driver.click("Browse Dominoes")
    assert "Queendomino's dominoes" in texts and "Town" in texts
    driver.click("Back")
    driver.click("Royal Wedding")
    texts = driver.click("Browse Dominoes")
    assert "Kingdomino's dominoes" in texts and "Town" not in texts
    texts = driver.click("Show Queendomino's box")
    assert "Queendomino's dominoes" in texts and "Show Kingdomino's box" in driver.buttons()


def test_a_build_that_wins_the_queen_says_so_before_it_is_played(driver):
    rng = np.random.default_rng(9)
    match = queen_match(driver, seed=4)

    def wins_queen(m: Match) -> bool:
        return any(m.preview(m.rules.build_action(k, *m.build_squares(k)[0])).queen_after
                   and int(m.state.queen[0]) != m.kingdom_of(m.mover) for k in m.buildable_slots())

    human_at(match, BUILD, rng, wins_queen)
    kingdom = match.kingdom_of(match.mover)
    slot = next(k for k in match.buildable_slots()
                if match.preview(match.rules.build_action(k, *match.build_squares(k)[0])).queen_after)
    driver.app.show_play(match)
    texts = driver.click_at(board_slot_rect(slot).center)
    assert "Click a green town square to build it (it brings you the Queen)." in texts
    driver.click_at(play.focus_cell_rect(match.rules.frame, *match.build_squares(slot)[0], match.rules).center)
    assert int(match.state.queen[0]) == kingdom
    texts = driver.frame()
    assert "Queen: Ann" in texts


def test_a_royal_wedding_save_with_the_wrong_seats_is_listed_with_a_clear_reason(tmp_path):
    match = Match([Seat(f"P{i}") for i in range(6)], Rules(game="royal_wedding", players=6, teams=True), seed=1)
    for _ in range(10):
        match.play(int(np.flatnonzero(match.mask())[0]))
    data = match.to_save("teams")
    saves.write(tmp_path, data)
    five = dict(data, seats=data["seats"][:5])
    (tmp_path / "five.json").write_text(json.dumps(five))
    nine = dict(data, seats=data["seats"] + [data["seats"][0]] * 3)
    (tmp_path / "nine.json").write_text(json.dumps(nine))
    listed = {info.path.name: info for info in saves.list_saves(tmp_path)}
    assert listed["teams.json"].error is None
    assert listed["teams.json"].progress.startswith("Royal Wedding in teams, Round ")
    assert listed["five.json"].error == "the save has 5 seats for a 6-player game"
    assert listed["nine.json"].error == "the save's seats must be a list of 2 to 8 seats"


def test_royal_wedding_labels_stand_beside_their_dominoes(driver):
    rules = Rules(players=8, game="royal_wedding")
    match = Match([Seat("Ann")] + [Seat(f"Random {i}", "random") for i in range(1, 8)], rules, seed=2,
                  agent_factory=driver.app.agent_factory)
    while not match.human_to_move() or int(match.state.round[0]) < 2:
        match.play(int(match.mask().nonzero()[0][0]))
    driver.app.show_play(match)
    driver.frame()
    lay = play.layout(rules)
    origins = (play.CURRENT_ORIGIN, play.NEXT_ORIGIN)
    slots = [drawing.slot_rect(origin, lay.line_cell, i, lay.line_gap) for origin in origins
             for i in range(rules.line_size)]
    labels = [d.rect for d in driver.app.drawn if re.fullmatch(r"[QK]\d+", d.value)]
    assert len(labels) >= rules.line_size, "the next line's dominoes are labelled"
    assert not any(label.colliderect(slot) for label in labels for slot in slots), "no label covers a domino"


def test_building_cards_are_readable(driver):
    """Every tile's card on the Builders' Board shows its name and its effects at a readable size (a card with no
    room for all its effects counts them at that size, the hover box tells them whole)."""
    match = queen_match(driver)
    deck = match.rules.building_deck
    rect = board_slot_rect(0)
    whole = 0
    for tile in range(len(deck.names)):
        state = match.state.copy()
        state.slots[0, 0] = tile
        canvas = Canvas(pygame.Surface((WIDTH, HEIGHT)))
        builders_board.draw_slot(canvas, state, 0, rect, play.BOARD_CELL)
        cost, *texts = canvas.drawn
        assert cost.value == "0" and not misfits(canvas.drawn)
        split = next(i for i in range(len(texts) + 1) if " ".join(d.value for d in texts[:i]) == deck.names[tile])
        name, effects = texts[:split], texts[split:]
        shown = " ".join(d.value for d in effects)
        full = ", ".join(building_effects(deck, tile, short=True))
        assert shown in (full, f"{len(building_effects(deck, tile))} effects"), (deck.names[tile], shown)
        whole += shown == full
        assert not too_small(name, builders_board.SLOT_TEXT_MIN), deck.names[tile]
        assert not too_small(effects, 16), f"{deck.names[tile]}: {too_small(effects, 16)}"
    assert whole >= len(deck.names) - 4, "all but the tiles of three effects show them whole"
