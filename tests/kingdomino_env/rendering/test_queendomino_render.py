"""Queendomino's renderings: the "ansi" text (`render`) and the "rgb_array" picture (`drawing`), on hand-built
positions and at every step of random games."""

from __future__ import annotations

import os

import numpy as np
import pygame
import pytest

from kingdomino_env import core
from kingdomino_env.games.queendomino.kernels import BUILD, DRAGON, KNIGHT_STEP
from kingdomino_env.rendering import pygame_drawing as drawing
from kingdomino_env.rendering import text as render
from kingdomino_env.rules import Rules
from tests.queendomino_positions import Q2, Q3, Q4, mover, paint, started

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # the "human" window

GUARDTOWER, STATUE = 19, 22  # 0-based tile ids of the shipped deck: 3 points, +2 towers; 5 points


def position():
    """Round 1, player to move p: towns at (7, 6) and (8, 6), wheat with a knight at (6, 7), 9 coins, 1 of 2
    knights unplaced, the Queen hosted by p, the Dragon out, slot 0 a Statue, slot 3 empty, 22 tiles in the pile."""
    state = started(Q2)
    p = mover(state)
    paint(state, p, {(6, 7): "W", (6, 8): "W1", (7, 6): "T", (8, 6): "T"})
    state.knight_board[0, p, 6, 7] = 1
    state.coins[0, p], state.knights[0, p], state.knights_owned[0, p] = 9, 1, 2
    state.queen[0] = p
    state.dragon[0] = False
    state.slots[0, 0], state.slots[0, 3] = STATUE, -1
    state.pile_pos[0] = 10
    return state, p


def cell_text(lines: list[str], row: int, col: int) -> str:
    """The 4-character cell (row, col) of a Queendomino kingdom's text."""
    line = next(x for x in lines if x.startswith(f"{row:>2}  "))
    return f"{line:<80}"[4 + 5 * col: 8 + 5 * col]


def test_ansi_shows_towns_buildings_knights_purses_queen_dragon_board_pile_and_lines():
    state, p = position()
    state.building_board[0, p, 7, 6] = GUARDTOWER
    state.towers[0, p] = 2
    text = render.ansi(state)
    lines = text.splitlines()
    assert lines[0] == f"Round 1/12 - place - player_{p} to move"
    kingdom = render.kingdom_text(state, 0, p)
    assert cell_text(kingdom, 7, 6) == "T a " and cell_text(kingdom, 8, 6) == "T   "
    assert cell_text(kingdom, 6, 7) == "W  k" and cell_text(kingdom, 6, 8) == "W1  "
    assert cell_text(kingdom, 6, 6) == "##  "
    assert "    a at (7, 6): Guardtower (tile 20): 3 points, +2 towers when built" in kingdom
    assert "  coins 9, knights 1 unplaced of 2, towers 2, hosts the Queen" in lines
    assert "  coins 7, knights 1 unplaced of 1, towers 0" in lines  # the other player
    assert f"Queen: hosted by player_{p}" in lines and "Dragon: out (it has burned a tile this round)" in lines
    assert "  0 (0 coins): Statue (tile 23): 5 points" in lines and "  3 (3 coins): empty" in lines
    tile = int(state.slots[0, 1])
    assert f"  1 (1 coin): {render.describe_building(Q2.building_deck, tile)}" in lines
    assert "building pile: 22 tiles left" in lines and "supply: 19 knights, 13 towers" in lines
    assert "current line:" in lines and "next line:" in lines
    for d in state.next_line[0]:
        assert any(line.startswith("  ") and f"#{d + 1} " in line for line in lines)
    state.queen[0], state.dragon[0] = -1, True
    text = render.ansi(state, names=["Ann", "Bob"])
    assert "Queen: nobody hosts her yet" in text and "Dragon: in its cave" in text and "hosts the Queen" not in text
    assert "Ann: " in text and "Bob: " in text


def test_building_effects_name_every_effect():
    deck = Q2.building_deck
    assert render.building_effects(deck, 16) == ["1 point per knight owned", "+1 knight when built",
                                                 "tax: +1 coin per knight owned"]
    assert render.building_effects(deck, 16, short=True) == ["1 per knight", "+1 knight", "tax +1 per knight"]
    assert render.building_effects(deck, 12) == ["2 points per forest territory"]
    assert render.building_effects(deck, 29) == ["+1 crown on its territory", "+1 tower when built"]
    assert render.building_effects(deck, 27, short=True) == ["2 pts", "tax +1 per tower"]


def changed(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    return (before != after).any(axis=2)


def inside(mask: np.ndarray, *rects: pygame.Rect) -> bool:
    """Every True pixel of `mask` lies in one of `rects`."""
    allowed = np.zeros_like(mask)
    for rect in rects:
        allowed[rect.top:rect.bottom, rect.left:rect.right] = True
    return not (mask & ~allowed).any()


@pytest.mark.parametrize("cell", [24, 40])
def test_rgb_array_changes_exactly_where_a_building_knight_or_tower_is_added(cell):
    state, p = position()
    layout = drawing.table_layout(state, cell)
    image = drawing.rgb_array(state, cell=cell)
    assert image.shape == (layout.size[1], layout.size[0], 3) and image.dtype == np.uint8
    origin = layout.kingdoms[p]
    town = drawing.cell_rect(origin, cell, 7, 6)
    state.building_board[0, p, 7, 6] = GUARDTOWER
    built = drawing.rgb_array(state, cell=cell)
    diff = changed(image, built)
    assert diff[town.top:town.bottom, town.left:town.right].sum() > cell and inside(diff, town)
    wheat = drawing.cell_rect(origin, cell, 6, 8)
    state.knight_board[0, p, 6, 8] = 1
    knighted = drawing.rgb_array(state, cell=cell)
    diff = changed(built, knighted)
    assert diff.sum() > 10 and inside(diff, wheat)
    state.towers[0, p] = 2
    towered = drawing.rgb_array(state, cell=cell)
    diff = changed(knighted, towered)
    purse = layout.purses[p]
    assert diff[town.top:town.bottom, town.left:town.right].sum() > 10 and diff[purse.top:purse.bottom,
                                                                              purse.left:purse.right].any()
    assert inside(diff, town, purse)


def test_rgb_array_shows_the_queen_the_dragon_and_the_board():
    state, p = position()
    layout = drawing.table_layout(state)
    image = drawing.rgb_array(state)
    state.queen[0] = 1 - p
    moved = changed(image, drawing.rgb_array(state))
    assert all(moved[r.top:r.bottom, r.left:r.right].any() for r in layout.purses)
    assert inside(moved, *layout.purses)
    before = drawing.rgb_array(state)
    state.dragon[0] = True
    dragon = changed(before, drawing.rgb_array(state))
    assert dragon.any() and inside(dragon, layout.dragon.inflate(0, 2 * layout.dragon.h))
    before = drawing.rgb_array(state)
    state.slots[0, 3] = GUARDTOWER
    slot = changed(before, drawing.rgb_array(state))
    assert slot.sum() > 50 and inside(slot, layout.slots[3])


def biased_actions(state: core.State, rng: np.random.Generator) -> np.ndarray:
    """A random legal action, preferring knights, builds and the Dragon over PASS (to reach every step)."""
    rules = state.rules
    legal = np.flatnonzero(core.legal_action_mask(state)[0])
    optional = legal[(legal >= rules.first_knight_action) & (legal < rules.pass_action)]
    pool = optional if len(optional) and rng.random() < 0.7 else legal
    return np.array([rng.choice(pool)])


@pytest.mark.parametrize("rules", [Q2, Q3, Q4], ids=["2p", "3p", "4p"])
def test_every_step_of_a_game_renders(rules):
    state = core.new_games(rules, [5])
    rng = np.random.default_rng(5)
    size = drawing.table_size(state, 16)
    phases = set()
    while True:
        phases.add(int(state.phase[0]))
        text = render.ansi(state)
        assert "builders' board" in text and "Dragon: " in text
        assert drawing.rgb_array(state, cell=16).shape == (size[1], size[0], 3)
        if state.is_over[0]:
            break
        core.step(state, biased_actions(state, rng))
    assert phases == {core.PICK, core.PLACE, KNIGHT_STEP, BUILD, DRAGON, core.OVER}
    assert "game over" in render.ansi(state) and state.building_board[0].max() >= 0


def test_royal_wedding_text_names_teams_and_boxes():
    rules = Rules(game="royal_wedding", players=6, teams=True)
    state = core.new_games(rules, [1])
    text = render.ansi(state, names=["Ann", "Bob", "Cy", "Di", "Ed", "Flo"])
    assert "Team 1: Ann & Bob: 2 points" in text and "Team 3: Ed & Flo: 2 points" in text
    mover = int(state.current_player[0])
    assert f"to move (team {mover // 2 + 1})" in text.splitlines()[0]
    line = [d for d in state.next_line[0] if d >= 0]
    assert all(f"#Q{d - 47} " in text for d in line), "the starting line comes from Queendomino's box"
    assert render.domino_text(rules, 0) == "K1" and render.domino_text(rules, 95) == "Q48"
    assert render.domino_text(Rules(game="queendomino"), 5) == "6"


def test_the_human_viewer_shrinks_tables_of_many_kingdoms():
    rules = Rules(game="royal_wedding", players=8)
    state = core.new_games(rules, [2])
    viewer = drawing.Viewer(cell=32)
    viewer.show(state)
    assert pygame.display.get_surface().get_size() == drawing.table_size(state, 24)
    viewer.close()
