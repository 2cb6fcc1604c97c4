"""Hand-built Queendomino positions for the rule tests, and positions of Full Greedy games."""

from __future__ import annotations

import numpy as np

from kingdomino_env import core
from kingdomino_env.games.dominoes import TOWN
from kingdomino_env.games.queendomino.game import QState
from kingdomino_env.games.queendomino.kernels import BUILD, KNIGHT_STEP
from kingdomino_env.policies import greedy_actions
from kingdomino_env.rules import Rules

Q2 = Rules(game="queendomino", players=2)
Q3 = Rules(game="queendomino", players=3)
Q4 = Rules(game="queendomino", players=4)
CODES = {"W": 1, "F": 2, "L": 3, "G": 4, "S": 5, "M": 6, "T": TOWN}


def started(rules: Rules, seed: int = 0) -> QState:
    """A game after its starting round: the first king of round 1 is to place."""
    state = core.new_games(rules, [seed])
    while state.phase[0] == core.PICK:
        core.step(state, [int(np.flatnonzero(core.legal_action_mask(state)[0])[0])])
    return state


def mover(state: QState) -> int:
    return int(state.current_player[0])


def paint(state: QState, player: int, cells: dict[tuple[int, int], str]) -> None:
    """Put squares on a kingdom: {(row, col) of the frame: terrain letter + optional crowns, e.g. "G3"}, growing its
    bounding box and rescoring it."""
    from kingdomino_env.games.queendomino import game as queendomino

    for (r, c), text in cells.items():
        state.terrain[0, player, r, c] = CODES[text[0]]
        state.crowns[0, player, r, c] = int(text[1:] or 0)
        box = state.bbox[0, player]
        box[:] = (min(box[0], r), max(box[1], r), min(box[2], c), max(box[3], c))
    rescore(state, player)
    assert queendomino.rescore(state, 0, player)[0] == state.scores[0, player]


def rescore(state: QState, player: int) -> None:
    from kingdomino_env.games.queendomino import game as queendomino

    state.scores[0, player], state.largest[0, player], state.total_crowns[0, player] = queendomino.rescore(
        state, 0, player)


def give_domino(state: QState, number: int) -> None:
    """The king to move holds domino `number` (1..48) of the Queendomino box."""
    turn = int(state.turn[0])
    state.cur_line[0, state.order_slot[0, turn]] = number - 1


def at_step(state: QState, phase: int) -> None:
    """Put the player to move at an optional step of its turn, after a discard (no knights)."""
    state.phase[0] = phase
    state.placed[0] = -1


def legal(state: QState) -> set[int]:
    return {int(a) for a in np.flatnonzero(core.legal_action_mask(state)[0])}


def act(state: QState, action: int) -> None:
    assert action in legal(state), (action, state.rules.describe_action(action), sorted(legal(state))[:20])
    core.step(state, [action])


def play_random(rules: Rules, seeds: list[int], action_seed: int) -> tuple[QState, list[np.ndarray]]:
    """Random legal games to the end, checking the mask at every step (a live game has a legal action, a finished
    one none, an optional step is offered only with an action other than PASS); the final state and every step's
    actions."""
    state = core.new_games(rules, seeds)
    rng = np.random.default_rng(action_seed)
    actions = []
    while not state.is_over.all():
        mask = core.legal_action_mask(state)
        live = ~state.is_over
        assert mask[live].any(axis=1).all(), "a live game has no legal action"
        assert not mask[~live].any(), "a finished game has legal actions"
        optional = live & (state.phase >= 3)
        assert mask[optional, :rules.pass_action].any(axis=1).all()
        acts = core.random_legal_actions(mask, rng)
        actions.append(acts)
        core.step(state, acts)
    return state, actions


def knight_and_build_steps(seeds: range | list[int]):
    """Every knight and build step with a choice in Full Greedy games of the 5-player Royal Wedding's deals
    `seeds` (Full Greedy seeded with the deal's seed)."""
    for seed in seeds:
        state = core.new_games(Rules(game="royal_wedding", players=5), [seed])
        rng = np.random.default_rng(seed)
        while not state.is_over[0]:
            if state.phase[0] in (KNIGHT_STEP, BUILD) and core.legal_action_mask(state)[0].sum() > 1:
                yield state.copy()
            core.step(state, greedy_actions(state, np.arange(1), rng))
