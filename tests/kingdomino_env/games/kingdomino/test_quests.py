"""Quests: each quest on hand-built kingdoms, random games against an independent rescoring, dealing, records,
observations, envs and rendering."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import kingdomino_env
from kingdomino_env import core, record
from kingdomino_env.games.dominoes import CASTLE, TERRAINS
from kingdomino_env.games.kingdomino.quests import QUESTS
from kingdomino_env.observation import ObservationLayout, observation_size
from kingdomino_env.policies import greedy_actions
from kingdomino_env.rendering import text as render
from kingdomino_env.rules import Rules
from kingdomino_env.vector_env import KingdominoVectorEnv
from tests.boards import placing_state, score

ALL = Rules(2, quests=QUESTS)


def quest_breakdown(text: str, rules: Rules = ALL) -> dict[str, int]:
    state = placing_state(rules, 1, kingdom=text)
    return core.score_breakdown(state, 0, 0)["quests"]


# Independent scoring, written from the quest texts and the readings of kingdomino_env.games.kingdomino.quests.
def _windows(crowned: np.ndarray) -> list[frozenset]:
    """Every 3 crowned squares in a row, column or diagonal."""
    s = crowned.shape[0]
    out = []
    for r, c in itertools.product(range(s), range(s)):
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            cells = [(r + k * dr, c + k * dc) for k in range(3)]
            if all(0 <= a < s and 0 <= b < s and crowned[a, b] for a, b in cells):
                out.append(frozenset(cells))
    return out


def _most_lines(windows: list[frozenset]) -> int:
    """The largest set of windows pairwise sharing at most one square (exhaustive search)."""
    if not windows:
        return 0
    first, rest = windows[0], windows[1:]
    take = 1 + _most_lines([w for w in rest if len(w & first) <= 1])
    return max(take, _most_lines(rest))


def _territories(terrain: np.ndarray, crowns: np.ndarray) -> list[tuple[int, int, int]]:
    """(terrain, squares, crowns) of every territory."""
    seen = np.zeros(terrain.shape, dtype=bool)
    out = []
    for r0, c0 in zip(*np.nonzero((terrain > 0) & (terrain != CASTLE)), strict=True):
        if seen[r0, c0]:
            continue
        todo, cells = [(r0, c0)], []
        seen[r0, c0] = True
        while todo:
            r, c = todo.pop()
            cells.append((r, c))
            for a, b in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if 0 <= a < terrain.shape[0] and 0 <= b < terrain.shape[1] and not seen[a, b] and (
                        terrain[a, b] == terrain[r0, c0]):
                    seen[a, b] = True
                    todo.append((a, b))
        out.append((int(terrain[r0, c0]), len(cells), sum(int(crowns[a, b]) for a, b in cells)))
    return out


def independent_quest(name: str, terrain: np.ndarray, crowns: np.ndarray, rules: Rules) -> int:
    n, k = rules.grid, rules.castle
    rows, cols = np.nonzero(terrain)
    top, bottom, left, right = rows.min(), rows.max(), cols.min(), cols.max()
    full = bottom - top + 1 == n and right - left + 1 == n
    corners = {(top, left), (top, right), (bottom, left), (bottom, right)} if full else set()
    if name.startswith("local_business_"):
        t = TERRAINS.index(name.removeprefix("local_business_")) + 1
        return 5 * int((terrain[k - 1:k + 2, k - 1:k + 2] == t).sum())
    if name.startswith("four_corners_"):
        t = TERRAINS.index(name.removeprefix("four_corners_")) + 1
        return 5 * sum(terrain[r, c] == t for r, c in corners)
    if name == "harmony":
        return 5 if len(rows) == n * n else 0
    if name == "middle_kingdom":
        half = (n - 1) // 2
        return 10 if full and (top, left) == (k - half, k - half) else 0
    if name == "lost_corner":
        return 20 if (k, k) in corners else 0
    if name == "folie_des_grandeurs":
        return 10 * _most_lines(_windows(crowns > 0))
    return 10 * sum(t <= 4 and size >= 5 and crowns_ == 0 for t, size, crowns_ in _territories(terrain, crowns))


def independent_score(state: core.State, game: int, player: int) -> int:
    r = state.rules
    terrain, crowns = state.terrain[game, player], state.crowns[game, player]
    points = score(terrain, crowns, r)[0]
    for q in np.flatnonzero(state.quests[game]):
        if (QUESTS[q] == "harmony" and r.harmony) or (QUESTS[q] == "middle_kingdom" and r.middle_kingdom):
            continue
        points += independent_quest(QUESTS[q], terrain, crowns, r)
    return points


# Each quest on hand-built kingdoms.
def test_local_business_counts_the_8_squares_around_the_castle():
    q = quest_breakdown("""
        L . . . .
        . W F . .
        . W ## L .
        . M M2 W .
        . . . . M
    """)
    assert [q[f"local_business_{t}"] for t in TERRAINS] == [15, 5, 5, 0, 0, 10]


def test_four_corners_need_an_n_by_n_kingdom_and_skip_gaps():
    q = quest_breakdown("""
        W . . . F
        . . . . .
        . . ## . .
        . . . . .
        W . . . .
    """)
    assert [q[f"four_corners_{t}"] for t in TERRAINS] == [10, 5, 0, 0, 0, 0]
    narrow = quest_breakdown("""
        W . . .
        . . . .
        . . ## .
        . . . .
        W . . W
    """)
    assert all(narrow[f"four_corners_{t}"] == 0 for t in TERRAINS)


def test_lost_corner():
    corner = """
        ## W W W W
        W . . . .
        W . . . .
        W . . . .
        W . . . F
    """
    q = quest_breakdown(corner)
    assert q["lost_corner"] == 20 and q["four_corners_wheat"] == 10 and q["four_corners_forest"] == 5
    assert quest_breakdown(corner.replace("W . . . F", ". . . . .").replace("W . . . .\n        W . . . .\n",
                                                                          "W . . . .\n", 1))["lost_corner"] == 0
    assert quest_breakdown("## W\nW W")["lost_corner"] == 0
    assert quest_breakdown(". . . . .\n. . . . .\n. . ## . .\n. . . . .\nW . . . W")["lost_corner"] == 0


def test_harmony_and_middle_kingdom_quests_score_as_the_base_bonuses():
    full = "\n".join(["W W W W W"] * 2 + ["W W ## W W"] + ["W W W W W"] * 2)
    q = quest_breakdown(full)
    assert q["harmony"] == 5 and q["middle_kingdom"] == 10
    gap = full.replace("W W W W W", "W W W W .", 1)
    assert quest_breakdown(gap)["harmony"] == 0 and quest_breakdown(gap)["middle_kingdom"] == 10


def test_folie_des_grandeurs_counts_lines_sharing_at_most_one_square():
    assert quest_breakdown("W1 W1 W1 W1 W1\n. . ## . .")["folie_des_grandeurs"] == 20
    assert quest_breakdown("W1 W1 W1 W1 .\n. . ## . .")["folie_des_grandeurs"] == 10
    assert quest_breakdown("W1 W1 . W1 W1\n. . ## . .")["folie_des_grandeurs"] == 0
    assert quest_breakdown("""
        W1 F1 L1 .
        G1 S1 . .
        M1 . ## .
    """)["folie_des_grandeurs"] == 30


def test_bleak_king_counts_crownless_territories_of_5_of_the_four_terrains():
    assert quest_breakdown("""
        W W W W W
        F1 F F F F
        S S ## G G
        L L L L G
        G G G G G
    """)["bleak_king"] == 20
    assert quest_breakdown("S S S S S\n. . ## . .")["bleak_king"] == 0


@pytest.mark.parametrize("kingdom", [
    "W1 W1 W1 W1 W1\n. . ## . .",
    "## W W W W\nW . . . .\nW . . . .\nW . . . .\nW . . . F",
    "W W W W W\nF1 F F F F\nS S ## G G\nL L L L G\nG G G G G",
    "L . . . .\n. W F . .\n. W ## L .\n. M M2 W .\n. . . . M",
])
def test_breakdown_matches_the_independent_scoring(kingdom):
    state = placing_state(ALL, 1, kingdom=kingdom)
    q = core.score_breakdown(state, 0, 0)["quests"]
    assert q == {name: independent_quest(name, state.terrain[0, 0], state.crowns[0, 0], ALL) for name in QUESTS}


def test_a_placement_scores_the_active_quests():
    rules = Rules(2, quests=("bleak_king", "local_business_wheat"))
    state = placing_state(rules, 1, kingdom="W W W ##")
    core.step(state, [rules.place_action(3, 1, 0)])
    assert state.scores[0, 0] == 10 + 5
    items = core.score_breakdown(state, 0, 0)
    assert items["quests"] == {"local_business_wheat": 5, "bleak_king": 10} and items["total"] == 15


def test_a_quest_and_the_same_base_option_count_once():
    gaps = "\n".join(["W1 W W . ."] + ["W W W W W"] + ["W W ## W W"] + ["W W W W W"] * 2)
    rules = Rules(2, harmony=True, middle_kingdom=True, quests=("harmony", "middle_kingdom"))
    state = placing_state(rules, 1, kingdom=gaps)
    core.step(state, [rules.place_action(2, 5, 0)])
    items = core.score_breakdown(state, 0, 0)
    assert state.scores[0, 0] == items["total"] == 24 + 5 + 10
    assert items["harmony"] == 5 and items["middle_kingdom"] == 10
    assert items["quests"] == {"harmony": 0, "middle_kingdom": 0}


# Rules.
def test_rules_validate_quests():
    assert len(QUESTS) == len(set(QUESTS)) == 17
    assert Rules(2, quests=["lost_corner"]).quests == ("lost_corner",)
    with pytest.raises(ValueError, match="valid quests: local_business_wheat"):
        Rules(2, quests=("lost_corners",))
    with pytest.raises(ValueError, match="sequence of quest names"):
        Rules(2, quests="lost_corner")
    with pytest.raises(ValueError, match="not repeat"):
        Rules(2, quests=("harmony", "harmony"))
    with pytest.raises(ValueError, match="0..17"):
        Rules(2, random_quests=18)
    with pytest.raises(ValueError, match="not both"):
        Rules(2, quests=("harmony",), random_quests=1)


def test_rules_dict_round_trip_and_old_dicts():
    for rules in (Rules(3, quests=("bleak_king", "harmony")), Rules(4, random_quests=2), Rules(2)):
        assert Rules.from_dict(rules.to_dict()) == rules
    assert "quests" not in Rules(2).to_dict() and "random_quests" not in Rules(2).to_dict()
    assert Rules.from_dict({"players": 2, "mighty_duel": False, "harmony": False, "middle_kingdom": False,
                            "three_player_36": False, "grid": 5}) == Rules(2)


# Random games.
def play_out(state: core.State, rng: np.random.Generator, greedy: bool = False) -> list[list[int]]:
    actions: list[list[int]] = [[] for _ in range(state.batch_size)]
    while not state.is_over.all():
        if greedy:
            step = greedy_actions(state, np.arange(state.batch_size), rng)
        else:
            step = core.random_legal_actions(core.legal_action_mask(state), rng)
        for g in np.flatnonzero(~state.is_over):
            actions[g].append(int(step[g]))
        core.step(state, step)
    return actions


@pytest.mark.parametrize("rules, greedy", [
    (Rules(2, random_quests=2), False),
    (Rules(4, random_quests=17, harmony=True), False),
    (Rules(2, mighty_duel=True, random_quests=5), False),
    (Rules(3, quests=("folie_des_grandeurs", "lost_corner", "four_corners_mine", "bleak_king")), True),
])
def test_random_games_score_as_the_independent_rescoring(rules, greedy):
    state = core.new_games(rules, range(12))
    play_out(state, np.random.default_rng(1), greedy)
    for g, p in itertools.product(range(state.batch_size), range(rules.players)):
        assert state.scores[g, p] == independent_score(state, g, p)
        assert core.score_breakdown(state, g, p)["total"] == state.scores[g, p]


def test_random_quests_are_dealt_from_the_seed_after_the_deck():
    rules = Rules(2, random_quests=2)
    a, b = core.new_games(rules, [5, 5, 6, 7]), core.new_games(Rules(2), [5, 5, 6, 7])
    assert (a.quests.sum(axis=1) == 2).all() and (a.quests[0] == a.quests[1]).all()
    np.testing.assert_array_equal(a.deck, b.deck)
    np.testing.assert_array_equal(a.first_kings, b.first_kings)
    assert not b.quests.any()
    drawn = {tuple(np.flatnonzero(row)) for row in core.new_games(rules, range(60)).quests}
    assert len(drawn) > 20
    fixed = core.new_games(Rules(2, quests=("lost_corner",)), [0, 1])
    assert fixed.quests.sum() == 2 and fixed.quests[:, QUESTS.index("lost_corner")].all()


def test_init_checks_quests():
    rules = Rules(2, random_quests=2)
    deck, kings = core.deal(rules, np.random.default_rng(0))
    with pytest.raises(ValueError, match="random quests"):
        core.init(rules, deck[None], kings[None])
    with pytest.raises(ValueError, match="must have 2 quests"):
        core.init(rules, deck[None], kings[None], [["harmony"]])
    state = core.init(rules, deck[None], kings[None], [["harmony", "bleak_king"]])
    assert QUESTS[int(np.flatnonzero(state.quests[0])[0])] == "harmony"
    with pytest.raises(ValueError, match="fixed quests"):
        core.init(Rules(2, quests=("harmony",)), deck[None], kings[None], [["bleak_king"]])


# Records.
def test_records_round_trip_with_quests():
    rules = Rules(2, random_quests=3)
    state = core.new_games(rules, [3])
    actions = play_out(state, np.random.default_rng(2))[0]
    rec = record.make_record(state, 0, actions)
    assert rec["format"] == "kingdomino-record/1" and len(rec["quests"]) == 3
    assert rec["rules"]["random_quests"] == 3
    again, _ = record.replay(rec)
    np.testing.assert_array_equal(again.quests, state.quests)
    np.testing.assert_array_equal(again.scores, state.scores)
    for bad, match in ((rec["quests"][:2], "do not match"), (["nope", "harmony", "lost_corner"], "invalid"),
                       ("harmony", "list of quest names")):
        with pytest.raises(record.RecordError, match=match):
            record.replay({**rec, "quests": bad})
    with pytest.raises(record.RecordError, match="no 'quests'"):
        record.replay({k: v for k, v in rec.items() if k != "quests"})


def test_records_without_quests_keep_their_format_and_reject_a_quest_key():
    state = core.new_games(Rules(2), [4])
    actions = play_out(state, np.random.default_rng(3))[0]
    rec = record.make_record(state, 0, actions)
    assert "quests" not in rec and "quests" not in rec["rules"]
    assert record.replay(rec)[0].scores.tolist() == state.scores.tolist()
    with pytest.raises(record.RecordError, match="rules have none"):
        record.replay({**rec, "quests": []})
    fixed = Rules(2, quests=("bleak_king",))
    fixed_state = core.new_games(fixed, [4])
    fixed_rec = record.make_record(fixed_state, 0, [])
    assert fixed_rec["quests"] == ["bleak_king"]
    assert record.replay({k: v for k, v in fixed_rec.items() if k != "quests"})[0].quests.sum() == 1


# Observations, envs, rendering.
def test_observation_appends_the_quest_flags_only_with_quests():
    assert observation_size(Rules(2)) == 1680
    assert ObservationLayout(Rules(2)).quests == slice(1680, 1680)
    rules = Rules(2, random_quests=2)
    layout = ObservationLayout(rules)
    assert layout.size == 1680 + 17 and layout.quests == slice(1680, 1697)
    state = core.new_games(rules, range(4))
    obs = core.observe(state)
    np.testing.assert_array_equal(obs[:, layout.quests], state.quests.astype(np.float32))
    plain = core.observe(core.new_games(Rules(2), range(4)))
    np.testing.assert_array_equal(obs[:, :1680], plain)


def test_envs_take_quest_options():
    env = kingdomino_env.env(random_quests=2, render_mode="ansi")
    env.reset(seed=9)
    state = env.unwrapped.state
    np.testing.assert_array_equal(state.quests, core.new_games(Rules(2, random_quests=2), [9]).quests)
    assert env.observe("player_0")["observation"].shape == (1697,)
    text = env.render()
    assert "quests:" in text and all(name in text for name in QUESTS if state.quests[0, QUESTS.index(name)])
    assert "quests" in env.unwrapped.record()
    vec = KingdominoVectorEnv(3, quests=("bleak_king",), players=3)
    obs, _ = vec.reset(seed=1)
    assert obs.shape == (3, observation_size(vec.rules)) and vec.state.quests.sum() == 3


def test_ansi_without_quests_lists_none():
    assert "quests" not in render.ansi(core.new_games(Rules(2), [0]))
