"""kingdomino_env.rendering.pygame_drawing: the table as an array and in a window, geometry helpers, the lines
and kingdoms."""

from __future__ import annotations

import numpy as np
import pygame

from kingdomino_env import Rules, core
from kingdomino_env.rendering import pygame_drawing as drawing


def played(rules: Rules, actions: int, seed: int = 0) -> core.State:
    state = core.new_games(rules, [seed])
    rng = np.random.default_rng(seed)
    for _ in range(actions):
        core.step(state, core.random_legal_actions(core.legal_action_mask(state), rng))
    return state


def test_rgb_array_is_the_table_picture():
    state = played(Rules(3), 30)
    image = drawing.rgb_array(state, names=["A", "B", "C"])
    width, height = drawing.table_size(state)
    assert image.shape == (height, width, 3) and image.dtype == np.uint8
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 20
    later = played(Rules(3), 31)
    assert not np.array_equal(image, drawing.rgb_array(later, names=["A", "B", "C"]))
    duel = drawing.rgb_array(played(Rules(2, mighty_duel=True), 10), cell=16)
    assert duel.shape == drawing.table_size(played(Rules(2, mighty_duel=True), 0), 16)[::-1] + (3,)


def test_castle_and_terrain_colours_are_drawn_where_the_state_says():
    state = played(Rules(2), 12)
    cell = 24
    image = drawing.rgb_array(state, cell=cell)
    s = state.rules.frame
    for p in range(2):
        x0 = cell + p * (s * cell + cell)
        for r in range(s):
            for c in range(s):
                t = int(state.terrain[0, p, r, c])
                if t in (1, 2, 3, 4, 5, 6):
                    y, x = 2 * cell + r * cell + cell // 3, x0 + c * cell + 2
                    assert tuple(image[y, x]) == drawing.TERRAIN_COLOURS[t], (p, r, c, t)


def test_viewer_shows_the_table_in_a_window():
    state = played(Rules(2), 6)
    viewer = drawing.Viewer(cell=20)
    viewer.show(state, names=["A", "B"])
    assert pygame.display.get_surface().get_size() == drawing.table_size(state, 20)
    viewer.show(played(Rules(2), 7))
    viewer.close()
    pygame.display.init()
    pygame.display.set_mode((1280, 800))


def test_geometry_helpers_invert_each_other():
    origin, cell = (100, 50), 30
    for r, c in [(0, 0), (4, 4), (8, 3)]:
        rect = drawing.cell_rect(origin, cell, r, c)
        assert drawing.cell_at(origin, cell, 9, rect.center) == (r, c)
    assert drawing.cell_at(origin, cell, 9, (99, 60)) is None
    assert drawing.cell_at(origin, cell, 9, (100 + 9 * 30, 60)) is None
    assert drawing.domino_cells(3, 3, 3) == ((3, 3), (2, 3))
    assert drawing.slot_rect((0, 0), 40, 2, 10).topleft == (0, 100)


def test_kingdom_window_holds_the_kingdom_and_open_cells_the_bound():
    state = played(Rules(2), 40, seed=4)
    n = state.rules.grid
    for p in range(2):
        top, left = drawing.kingdom_window(state, 0, p)
        filled = np.argwhere(state.terrain[0, p] > 0)
        assert (filled[:, 0] >= top).all() and (filled[:, 0] < top + n).all()
        assert (filled[:, 1] >= left).all() and (filled[:, 1] < left + n).all()
        room = drawing.open_cells(state, 0, p)
        assert room[filled[:, 0], filled[:, 1]].all()
        rows, cols = np.nonzero(room)
        assert rows.max() - rows.min() < 2 * n - 1


def test_placed_slots_follow_the_turn():
    state = played(Rules(4), 4)
    assert drawing.placed_slots(state, 0) == set()
    core.step(state, [int(np.flatnonzero(core.legal_action_mask(state)[0])[0])])
    assert state.phase[0] == core.PICK
    assert drawing.placed_slots(state, 0) == {int(state.order_slot[0, 0])}


def test_every_square_domino_and_king_draws():
    surface = pygame.Surface((400, 200))
    for t in range(8):
        drawing.draw_square(surface, (t * 40, 0, 40, 40), t, t % 4, player=1)
    for d in range(4):
        rect = drawing.draw_domino(surface, (100 + d * 10, 100), 30, 48, d, number_badge=True)
        assert rect.size in ((60, 30), (30, 60))
    for p in range(4):
        drawing.draw_king(surface, (20 + 40 * p, 160), 36, p)
    assert surface.get_at((20, 160))[:3] == drawing.PLAYER_COLOURS[0]


def ink_box(surface: pygame.Surface, rect: pygame.Rect) -> tuple[int, pygame.Rect | None]:
    """How many pixels of `rect` are ink, and their bounding box."""
    pixels = pygame.surfarray.array3d(surface.subsurface(rect)).transpose(1, 0, 2)
    ys, xs = np.nonzero((pixels == drawing.INK).all(axis=2))
    if not len(ys):
        return 0, None
    return len(ys), pygame.Rect(xs.min(), ys.min(), xs.max() - xs.min() + 1, ys.max() - ys.min() + 1)


def test_domino_numbers_are_large_and_tell_26_from_28():
    cell = 44  # the play screen's lines
    pictures = {}
    for number in (26, 28):
        surface = pygame.Surface((2 * cell + 10, cell + 10))
        surface.fill(drawing.BACKGROUND)
        whole = drawing.draw_domino(surface, (5, 5), cell, number, number_badge=True)
        badge = drawing.draw_number_badge(surface, number, (whole.right - 2, whole.bottom - 2),
                                          drawing.badge_size(cell))
        assert whole.contains(badge) and badge.h >= cell * 0.4
        count, digits = ink_box(surface, badge.inflate(-4, -4))
        assert digits is not None and digits.h >= cell * 0.3, "digits at least 30% of a square tall"
        pictures[number] = pygame.surfarray.array3d(surface.subsurface(badge))
    assert (pictures[26] != pictures[28]).any(axis=2).sum() >= 20
    for cell in (16, 24):  # the env's rgb_array sizes keep a badge inside the domino
        surface = pygame.Surface((2 * cell, cell))
        whole = drawing.draw_domino(surface, (0, 0), cell, 48, number_badge=True)
        badge = drawing.draw_number_badge(surface, 48, (whole.right - 2, whole.bottom - 2), drawing.badge_size(cell))
        assert whole.contains(badge)


def test_kingdomino_table_layout_has_no_queendomino_parts():
    for rules in (Rules(2), Rules(4), Rules(2, mighty_duel=True)):
        state = played(rules, 6)
        layout = drawing.table_layout(state, 24)
        s = rules.frame
        assert layout.kingdoms == tuple((24 + p * (s * 24 + 24), 48) for p in range(rules.players))
        assert layout.purses == () and layout.slots == () and layout.board is None and layout.dragon is None
        assert layout.size == drawing.table_size(state, 24)
