"""The OpenSpiel games: loading, parameters, metadata, OpenSpiel's random simulation test and the chance nodes."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'kingdomino-rl[openspiel]')")

import kingdomino_env.openspiel  # noqa: E402,F401  (registers the games)
from kingdomino_env import core  # noqa: E402
from kingdomino_env.openspiel.deal import DOMINO, KING, ORDER, TILE  # noqa: E402
from kingdomino_env.rules import Rules  # noqa: E402

SIMULATED = [
    "python_kingdomino",
    "python_kingdomino(players=3)",
    "python_kingdomino(players=4)",
    "python_kingdomino(mighty_duel=True,harmony=True,middle_kingdom=True,random_quests=2)",
    "python_queendomino",
    "python_royal_wedding(players=4)",
    "python_royal_wedding(players=6,teams=True)",
]


@pytest.mark.parametrize("name", SIMULATED)
def test_random_sim_test_passes(name):
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=1, serialize=True, verbose=False)


def play_randomly(state, seed: int, until=None):
    """Play chance and players uniformly at random (seeded) to the end, or until `until(state)` holds."""
    rng = np.random.default_rng(seed)
    while not state.is_terminal() and not (until and until(state)):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize(("name", "rules"), [
    ("python_kingdomino", Rules()),
    ("python_kingdomino(players=4,harmony=True)", Rules(4, harmony=True)),
    ("python_kingdomino(quests=lost_corner+bleak_king)", Rules(quests=("lost_corner", "bleak_king"))),
    ("python_queendomino(players=3)", Rules(3, game="queendomino")),
    ("python_royal_wedding(players=8,teams=True)", Rules(8, game="royal_wedding", teams=True)),
])
def test_parameters_make_our_rules_and_metadata(name, rules):
    game = pyspiel.load_game(name)
    assert game.rules == rules
    assert game.num_players() == rules.players
    assert game.num_distinct_actions() == rules.n_actions
    assert game.max_game_length() == rules.max_actions
    assert game.max_chance_outcomes() == max(rules.n_domino_ids, rules.players, 32 if rules.is_queendomino else 0)
    assert game.min_utility() == pytest.approx(-1 / (rules.kingdoms - 1))
    assert game.max_utility() == 1.0
    game_type = game.get_type()
    assert game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.information == pyspiel.GameType.Information.PERFECT_INFORMATION


@pytest.mark.parametrize(("name", "message"), [
    ("python_kingdomino(players=5)", "python_kingdomino: players must be 2, 3 or 4, got 5"),
    ("python_kingdomino(quests=lost_corner+nope)", "unknown quests ['nope']"),
    ("python_kingdomino(players=3,mighty_duel=True)", "mighty_duel is a 2-player variant"),
    ("python_royal_wedding(players=4,teams=True)", "teams are a Royal Wedding option for 6 or 8 players"),
    ("python_royal_wedding(players=2)", "players must be 3 to 8"),
    ("python_queendomino(buildings=/no/such/file.csv)", "python_queendomino:"),
])
def test_bad_parameters_say_what_is_allowed(name, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        pyspiel.load_game(name)


def test_unknown_parameters_are_refused():
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'harmony'. Available parameters are: buildings"):
        pyspiel.load_game("python_queendomino(harmony=True)")
    with pytest.raises(ValueError, match="python_kingdomino has no parameter colour; its parameters: players"):
        kingdomino_env.openspiel.KingdominoGame({"colour": 1})


def test_deal_is_chance_nodes_with_uniform_outcomes():
    state = pyspiel.load_game("python_kingdomino").new_initial_state()
    seen = []
    for position in range(4):
        assert state.is_chance_node()
        assert state.next_reveal.kind == DOMINO and state.next_reveal.index == position
        outcomes = state.chance_outcomes()
        assert [o for o, _ in outcomes] == sorted(set(range(48)) - set(seen))
        assert all(p == pytest.approx(1 / (48 - position)) for _, p in outcomes)
        seen.append(outcomes[-1][0])
        state.apply_action(outcomes[-1][0])
    assert state.next_reveal.kind == ORDER
    assert len(state.chance_outcomes()) == 6  # the orders of kings 0, 0, 1, 1
    state.apply_action(0)
    assert state.current_player() in (0, 1)
    assert sorted(state.core_state().next_line[0].tolist()) == sorted(seen)


def test_queendomino_reveals_the_board_and_a_first_player():
    state = pyspiel.load_game("python_queendomino").new_initial_state()
    kinds = []
    while state.is_chance_node():
        kinds.append(state.next_reveal.kind)
        state.apply_action(state.chance_outcomes()[0][0])
    assert kinds == [DOMINO] * 4 + [TILE] * 6 + [ORDER]
    assert state.core_state().first_kings[0].tolist() == [0, 1, 1, 0]


def test_four_player_king_order_is_revealed_king_by_king():
    state = pyspiel.load_game("python_kingdomino(players=4)").new_initial_state()
    for _ in range(4):
        state.apply_action(state.chance_outcomes()[0][0])
    for king in range(4):
        assert state.next_reveal.kind == KING and state.next_reveal.index == king
        assert [o for o, _ in state.chance_outcomes()] == list(range(king, 4))
        state.apply_action(king)
    assert state.core_state().first_kings[0].tolist() == [0, 1, 2, 3]


@pytest.mark.parametrize("name", ["python_kingdomino(players=3)", "python_queendomino"])
def test_the_next_line_is_revealed_only_after_the_action_that_ends_a_round(name):
    state = pyspiel.load_game(name).new_initial_state()
    revealed = 0
    pending_seen = 0
    rng = np.random.default_rng(5)
    while not state.is_terminal():
        if state.is_chance_node():
            if state.next_reveal.kind == DOMINO:
                revealed += 1
            if state.pending_action is not None:
                pending_seen += 1
                # the round-ending action waits for the reveals: the core still shows the position before it
                before = state.observed_core()
                assert core.legal_action_mask(before)[0, state.pending_action]
            state.apply_action(state.chance_outcomes()[int(rng.integers(len(state.chance_outcomes())))][0])
        else:
            game = state.core_state()
            assert int(game.drawn[0]) == revealed  # exactly the dominoes the core has drawn are known
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert pending_seen > 0
    assert revealed == state.core_state().rules.deck_size


def test_illegal_actions_and_outcomes_are_refused():
    state = pyspiel.load_game("python_kingdomino").new_initial_state()
    state.apply_action(7)
    with pytest.raises(ValueError, match="chance outcome 7 is not possible for the domino reveal #1"):
        state.apply_action(7)
    play_randomly(state, 0, until=lambda s: not s.is_chance_node())
    with pytest.raises(ValueError, match="illegal action 0 for player"):
        state.apply_action(0)


@pytest.mark.parametrize(("name", "kind", "count"), [
    ("python_kingdomino", DOMINO, 48),
    ("python_kingdomino", ORDER, None),
    ("python_kingdomino(players=3)", KING, 3),
    ("python_kingdomino(random_quests=2)", "quest", None),
    ("python_queendomino", TILE, 32),
])
def test_text_of_chance_outcomes_that_do_not_exist_is_refused(name, kind, count):
    """action_to_string of a chance outcome outside its reveal's ids, or where no chance node is, raises a
    ValueError that says which outcomes exist (never an IndexError or a made-up text)."""
    state = play_randomly(pyspiel.load_game(name).new_initial_state(), 0,
                          until=lambda s: s.next_reveal is not None and s.next_reveal.kind == kind)
    assert state.next_reveal.kind == kind
    top = count if count is not None else max(o for o, _ in state.chance_outcomes()) + 1
    for outcome in (-1, top + 100, 10**9):
        with pytest.raises(ValueError, match=f"chance outcome {outcome} does not exist for the {kind} reveal "
                                             r"#\d+; its outcomes are 0\.\."):
            state.action_to_string(pyspiel.PlayerId.CHANCE, outcome)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, state.chance_outcomes()[0][0])
    play_randomly(state, 0, until=lambda s: s.is_player_node())
    with pytest.raises(ValueError, match=r"chance outcome 0 does not exist here: this is no chance node \(player"):
        state.action_to_string(pyspiel.PlayerId.CHANCE, 0)
    play_randomly(state, 0)
    with pytest.raises(ValueError, match="no chance node \\(the game is over\\)"):
        state.action_to_string(pyspiel.PlayerId.CHANCE, 0)


def test_observations_come_from_the_core():
    game = pyspiel.load_game("python_queendomino")
    state = play_randomly(game.new_initial_state(), 3, until=lambda s: s.move_number() > 30 and s.is_player_node())
    game_state = state.core_state()
    for player in range(2):
        expected = core.observe(game_state, np.array([player]))[0]
        np.testing.assert_array_equal(state.observation_tensor(player), expected)
        assert state.observation_string(player) == str(state)
    assert state.information_state_string(0) == " ".join(map(str, state.history()))
    assert f"{game_state.rules.describe_action(state.legal_actions()[0])}" == state.action_to_string(
        state.legal_actions()[0])


def test_clones_are_independent():
    state = play_randomly(pyspiel.load_game("python_kingdomino").new_initial_state(), 1,
                          until=lambda s: s.move_number() > 20 and s.is_player_node())
    clone = state.clone()
    text = str(state)
    play_randomly(clone, 2)
    assert str(state) == text and not state.is_terminal()
    assert clone.is_terminal()
