"""The observation vector: its size in every game of the table; in Kingdomino, every block holds what the layout
documents."""

from __future__ import annotations

import numpy as np
import pytest

import kingdomino_env
from kingdomino_env import core
from kingdomino_env.games.dominoes import DOMINO_CROWNS, DOMINO_TERRAIN
from kingdomino_env.observation import ObservationLayout, layout, observation_size
from kingdomino_env.rules import Rules
from tests.games_table import GAMES, RULES, every_game


def domino_features(domino: int) -> list[float]:
    f = [0.0] * 16
    if domino < 0:
        return f
    f[0] = 1.0
    f[DOMINO_TERRAIN[domino, 0]] = 1.0
    f[7] = float(DOMINO_CROWNS[domino, 0])
    f[7 + DOMINO_TERRAIN[domino, 1]] = 1.0
    f[14] = float(DOMINO_CROWNS[domino, 1])
    f[15] = (domino + 1) / 48
    return f


def advance(state: core.State, n: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(n):
        core.step(state, core.random_legal_actions(core.legal_action_mask(state), rng))


@every_game()
def test_every_seat_observes_the_layouts_size(game):
    rules = RULES[game]
    size = layout(rules).size
    assert observation_size(rules) == size
    assert kingdomino_env.env(**GAMES[game]).observation_space("player_0")["observation"].shape == (size,)
    state = core.new_games(rules, [0, 1])
    assert core.observe(state).shape == (2, size)
    for seat in range(rules.players):
        assert core.observe(state, np.array([seat, seat])).shape == (2, size)
    with pytest.raises(ValueError, match="viewer"):
        core.observe(state, viewer=np.array([0, rules.players]))


@pytest.mark.parametrize("rules", [Rules(2), Rules(4), Rules(2, mighty_duel=True), Rules(3, three_player_36=True)])
def test_sizes(rules):
    layout = ObservationLayout(rules)
    p, s, line = rules.players, rules.frame, rules.line_size
    assert layout.size == observation_size(rules) == p * 9 * s * s + 2 * line * (17 + p) + 16 + 48 + 4 + p
    assert core.observe(core.new_games(rules, [0])).shape == (1, layout.size)


@pytest.mark.parametrize("steps", [0, 3, 9, 10, 25, 47, 48])
def test_blocks_match_the_state(steps):
    rules = Rules(2)
    layout = ObservationLayout(rules)
    state = core.new_games(rules, [13])
    advance(state, steps)
    mover = int(state.current_player[0])
    for viewer in (0, 1):
        obs = core.observe(state, np.array([viewer]))[0]
        for block, line, owner in ((layout.current_line, state.cur_line, state.cur_owner),
                                   (layout.next_line, state.next_line, state.next_owner)):
            slots = obs[block].reshape(rules.line_size, layout.slot_size)
            for i in range(rules.line_size):
                assert slots[i, :16].tolist() == pytest.approx(domino_features(int(line[0, i])))
                who = int(owner[0, i])
                expected_owner = [0.0, 0.0]
                if who >= 0 and not (block == layout.current_line and state.round[0] == 0):
                    expected_owner[(who - viewer) % 2] = 1.0
                assert slots[i, 16:18].tolist() == expected_owner
        held = obs[layout.held]
        if state.phase[0] == core.PLACE and mover == viewer:
            assert held.tolist() == pytest.approx(domino_features(int(state.held_domino[0])))
        else:
            assert not held.any()
        unseen = obs[layout.unseen]
        drawn = set(state.deck[0, : state.drawn[0]].tolist())
        assert [i for i in range(48) if unseen[i]] == [i for i in range(48) if i not in drawn]
        counters = obs[layout.counters]
        assert counters[0] == pytest.approx(state.round[0] / rules.rounds)
        assert counters[1:3].tolist() == [float(state.phase[0] == core.PICK), float(state.phase[0] == core.PLACE)]
        assert counters[3] == pytest.approx((24 - state.drawn[0]) / 24)
        assert counters[4:].tolist() == [state.scores[0, viewer], state.scores[0, 1 - viewer]]


def test_acted_flags_follow_the_turn():
    rules = Rules(4)
    layout = ObservationLayout(rules)
    state = core.new_games(rules, [2])
    advance(state, 4)  # starting round over: round 1, first king to place

    def acted() -> list[float]:
        return core.observe(state)[0][layout.current_line].reshape(4, layout.slot_size)[:, -1].tolist()

    assert acted() == [0, 0, 0, 0]
    advance(state, 1)  # first king placed, now picks
    assert acted() == [1, 0, 0, 0]
    advance(state, 1)  # first king picked; the second places
    assert acted() == [1, 0, 0, 0]
    advance(state, 2)
    assert acted() == [1, 1, 0, 0]
