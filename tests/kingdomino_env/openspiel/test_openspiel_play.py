"""Whole OpenSpiel games: OpenSpiel's MCTS bot against our greedy agent, and OpenSpiel games replayed as our records."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'kingdomino-rl[openspiel]')")

from open_spiel.python.algorithms import mcts  # noqa: E402

import agents  # noqa: E402
import kingdomino_env.openspiel  # noqa: E402,F401  (registers the games)
from kingdomino_env import core, record  # noqa: E402
from kingdomino_env.games.kingdomino.quests import QUESTS  # noqa: E402
from kingdomino_env.openspiel.deal import DOMINO, KING, ORDER, QUEST, TILE, king_orders  # noqa: E402
from tests.kingdomino_env.openspiel.test_openspiel_games import play_randomly  # noqa: E402


def test_mcts_bot_plays_a_whole_game_against_greedy():
    game = pyspiel.load_game("python_kingdomino")
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng)
    greedy = agents.load("greedy", seed=0)
    state = game.new_initial_state()
    moves = {0: 0, 1: 0}
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        player = state.current_player()
        if player == 0:
            action = bot.step(state)
        else:
            position = state.core_state()
            action = int(greedy.act(position, np.zeros(1, dtype=np.int64), core.legal_action_mask(position), None)[0])
        assert action in state.legal_actions()
        moves[player] += 1
        state.apply_action(action)
    assert moves[0] == moves[1] == 24  # two kings each, one pick and one placement per king per line
    returns = state.returns()
    assert sum(returns) == 0 and max(returns) == 1.0
    assert returns == core.rewards(state.core_state())[0].tolist()


def record_from_history(game, history):
    """Our record of an OpenSpiel game, built from its chance outcomes and actions alone (replayed on a fresh state
    only to learn what each chance node revealed)."""
    rules = game.rules
    state = game.new_initial_state()
    deck = np.full(rules.deck_size, -1)
    pile = np.full(32, -1)
    kings, quests, actions = [], [], []
    for action in history:
        reveal = state.next_reveal
        if reveal is None:
            actions.append(action)
        elif reveal.kind == DOMINO:
            deck[reveal.index] = action
        elif reveal.kind == TILE:
            pile[reveal.index] = action
        elif reveal.kind == ORDER:
            kings = list(king_orders(rules)[action])
        elif reveal.kind == KING:
            kings.append(action)
        else:
            assert reveal.kind == QUEST
            quests.append(action)
        state.apply_action(action)
    out = {"format": record.FORMAT, "rules": rules.to_dict(), "deck": [int(d) + 1 for d in deck],
           "first_kings": kings, "actions": actions}
    if rules.is_queendomino:
        out["game"] = rules.game
        unseen = sorted(set(range(32)) - set(pile.tolist()))
        pile[pile < 0] = unseen  # tiles never revealed play no part in the game
        out["buildings"] = [int(t) + 1 for t in pile]
    if rules.random_quests:
        out["quests"] = [name for i, name in enumerate(QUESTS) if i in quests]
    return out


@pytest.mark.parametrize(("name", "seed"), [
    ("python_kingdomino", 0),
    ("python_kingdomino(players=3,random_quests=2)", 1),
    ("python_queendomino(players=3)", 2),
])
def test_openspiel_game_replays_as_our_record(name, seed):
    game = pyspiel.load_game(name)
    state = play_randomly(game.new_initial_state(), seed)
    final = state.core_state()
    game_record = record_from_history(game, state.history())
    replayed, actions = record.replay(game_record)
    assert actions == [step.action for step in state.full_history() if step.player >= 0]
    assert replayed.scores[0].tolist() == final.scores[0].tolist()
    assert core.rewards(replayed)[0].tolist() == pytest.approx(state.returns())
    assert record.replay(state.record())[0].scores[0].tolist() == final.scores[0].tolist()


def test_royal_wedding_game_record_replays():
    state = play_randomly(pyspiel.load_game("python_royal_wedding(players=6,teams=True)").new_initial_state(), 4)
    replayed, actions = record.replay(state.record())
    assert replayed.scores[0].tolist() == state.core_state().scores[0].tolist()
    assert len(actions) == len([step for step in state.full_history() if step.player >= 0])
