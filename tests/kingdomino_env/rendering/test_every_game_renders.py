"""Every game of the table (tests/games_table.py) renders: the envs' "ansi", "rgb_array" and "human" modes, and the
picture's table of kingdoms, purses and builders' board."""

from __future__ import annotations

import os

import gymnasium
import numpy as np
import pygame

import kingdomino_env
from kingdomino_env import core
from kingdomino_env.rendering import pygame_drawing as drawing
from tests.games_table import GAMES, RULES, SOLO_IDS, every_game, options, play

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # the "human" window


@every_game()
def test_the_envs_render_in_every_mode(game):
    """What PettingZoo's render_test checks (a str, a uint8 RGB array, None from a window), and the text's parts,
    the picture's size and colours and the window's size; the single-game env renders too."""
    rules = RULES[game]
    text = kingdomino_env.env(render_mode="ansi", **GAMES[game])
    play(text, seed=4, until=30)
    ansi = text.render()
    assert isinstance(ansi, str) and "Round" in ansi and "##" in ansi
    assert "player_0" in ansi and f"player_{rules.players - 1}" in ansi
    assert ("builders' board (slot k costs k coins):" in ansi) == rules.has_buildings
    assert ("Dragon: " in ansi and "coins" in ansi) == rules.has_buildings
    picture = kingdomino_env.env(render_mode="rgb_array", **GAMES[game])
    play(picture, seed=4, until=30)
    image = picture.render()
    width, height = drawing.table_size(picture.unwrapped.state)
    assert image.shape == (height, width, 3) and image.dtype == np.uint8
    colours = (image[..., 0].astype(np.uint32) << 16) | (image[..., 1].astype(np.uint32) << 8) | image[..., 2]
    assert len(np.unique(colours)) > 5
    human = kingdomino_env.env(render_mode="human", **GAMES[game])
    play(human, seed=1, until=3)
    assert human.render() is None
    cell = 32 if rules.kingdoms <= drawing.KINGDOMS_PER_ROW else 24
    assert pygame.display.get_surface().get_size() == drawing.table_size(human.unwrapped.state, cell)
    human.close()
    solo = gymnasium.make(SOLO_IDS[rules.game], render_mode="ansi", **options(game))
    solo.reset(seed=0)
    assert "player_0" in solo.render()
    solo = gymnasium.make(SOLO_IDS[rules.game], render_mode="rgb_array", **options(game))
    solo.reset(seed=0)
    frame = solo.render()
    assert frame.ndim == 3 and frame.shape[2] == 3


@every_game()
def test_the_table_draws_every_kingdom_in_rows(game):
    """Kingdoms in rows of KINGDOMS_PER_ROW, none overlapping, each castle in its first player's colour; purses
    and the builders' board only with buildings; everything inside the picture."""
    rules = RULES[game]
    state = core.new_games(rules, [3])
    rng = np.random.default_rng(3)
    for _ in range(6 * rules.players):
        core.step(state, core.random_legal_actions(core.legal_action_mask(state), rng))
    layout = drawing.table_layout(state, 16)
    frame = rules.frame * 16
    rects = [pygame.Rect(origin, (frame, frame)) for origin in layout.kingdoms]
    assert len(rects) == rules.kingdoms
    assert len(layout.purses) == (rules.kingdoms if rules.has_buildings else 0)
    assert len(layout.slots) == (len(state.slots[0]) if rules.has_buildings else 0)
    assert len({r.y for r in rects}) == -(-rules.kingdoms // drawing.KINGDOMS_PER_ROW)
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    whole = pygame.Rect((0, 0), layout.size)
    assert all(whole.contains(r) for r in rects + list(layout.purses) + list(layout.slots))
    image = drawing.rgb_array(state, cell=16)
    assert image.shape == (layout.size[1], layout.size[0], 3)
    for k, rect in enumerate(rects):
        castle = drawing.cell_rect(rect.topleft, 16, rules.castle, rules.castle)
        colour = drawing.PLAYER_COLOURS[rules.kingdom_seats(k)[0]]
        pixels = image[castle.top:castle.bottom, castle.left:castle.right].reshape(-1, 3)
        assert (pixels == colour).all(axis=1).any()
