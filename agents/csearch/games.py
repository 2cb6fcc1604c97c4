"""What the compiled search (`search.simulate`) does differently per game: its priors, the scratch its leaves
need, and the value of an unfinished leaf. Each is a table of numba kernels by state record class, called through
`games.compiled.by_game`, so that `simulate` is one loop for every game.

Priors are `priors`' logits, with each game's domino tables.

Kingdomino: a leaf is valued by the value network (when the search is given one) or the heuristic
(`evaluate.leaf_utilities`), mixed with a playout by Full Greedy (or the heuristic's moves before the last round)
that plays the last round exactly with `endgame`; a leaf in its last round is valued by that exact playout alone.

Queendomino and the Royal Wedding: a leaf is valued by the value network (when the search is given one) or the
score lead (the core keeps each kingdom's score as if the game ended now; a kingdom's lead utility is
sigmoid((own - best other) / value_scale)), mixed with a playout by Full Greedy's compiled choices, the core's own
(`queendomino.greedy`): the greedy placements and picks (`place_pick`); a knight or a build when, tried on a copy
of the game, it raises the mover's score now (`rising_choice`: the largest rise; among equal rises the one that
leaves more coins); the Dragon never sent.

A network reads the game's inputs (`inputs.features`) in every game (`network_value`).

A leaf kernel plays its playout on the scratch game itself and returns the mover's (win share, margin), the
kingdoms' utilities in u, and the share of the finished playout still to be mixed in (`search.mix_in_final`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kingdomino_env.games import compiled
from kingdomino_env.games.board import OVER, PICK, PLACE
from kingdomino_env.games.dominoes import DOMINO_CROWNS, DOMINO_TERRAIN
from kingdomino_env.games.kingdomino import greedy as kingdomino_greedy
from kingdomino_env.games.queendomino.greedy import place_pick, rising_choice
from kingdomino_env.games.queendomino.kernels import DRAGON
from kingdomino_env.games.records import (
    KingdominoArrays,
    MoverArrays,
    QueendominoArrays,
    QueendominoGreedyArrays,
)

from ..heuristic_kernel import heuristic_action, heuristic_scratch
from ..kingdomino_endgame import final_round_action, placing_in_final_round
from . import inputs, priors
from .evaluate import lead_utilities, leaf_utilities
from .network import forward, outcome_of, utilities_from

#: The share of a playout in Queendomino's leaf values unless the agent names one: the playout alone measured
#: stronger against `mc` than half playout, half score lead (the research notes, "csearch in Queendomino and the
#: Royal Wedding").
QUEENDOMINO_PLAYOUT_MIX = 1.0
#: Game 0 of a one-game record, and Full Greedy's draft by scores: typed constants rather than the literals 0 and
#: False, for which numba would compile the core's kernels once more.
ONE_GAME = np.int64(0)
SCORED_DRAFT = np.bool_(False)
#: Kingdomino's (ids, 2) domino terrain and crowns tables, C-ordered for the priors' kernels.
_DT = np.ascontiguousarray(DOMINO_TERRAIN)
_DC = np.ascontiguousarray(DOMINO_CROWNS)


@njit(cache=True)
def _network_space(st, v, net):
    """The scratch of a network's leaf values: the features' scratch (`inputs.feature_work`), then the network's
    inputs (indices, dense, glob) and outputs for every kingdom."""
    kingdoms = st.terrain.shape[1]
    s = st.terrain.shape[2]
    return (inputs.feature_work(st, v), np.zeros((kingdoms, s * s), dtype=np.int64),
            np.zeros((kingdoms, net.wd.shape[0])), np.zeros((kingdoms, net.w2.shape[0] - 2 * net.b1.shape[0])),
            np.zeros((kingdoms, 2)))


@njit(cache=True)
def network_value(st, v, space, net, params, mover, u):
    """The mover's (win share, margin) by the value network `net` from the one-game record `st`, the kingdoms'
    utilities in u; `space` is `_network_space`'s."""
    work, indices, dense, glob, outputs = space
    inputs.features(st, v, work, indices, dense, glob)
    forward(net, indices, dense, glob, outputs)
    utilities_from(outputs, params.margin_weight, params.margin_softness, u)
    return outcome_of(outputs, mover)


@njit(cache=True)
def _kingdomino_space(st, v, net):
    """The scratch of Kingdomino's leaves: Full Greedy's, the heuristic's, the heuristic leaf values' and the
    network's (`_network_space`), and the step's (`compiled.new_work`)."""
    s = st.terrain.shape[2]
    return (kingdomino_greedy.greedy_scratch(s, v.line), heuristic_scratch(s, v.line),
            np.zeros((3, s * s + 1), dtype=np.int64), _network_space(st, v, net), compiled.new_work(st, v))


@njit(cache=True)
def _kingdomino_leaf(st, trial, v, space, params, heuristic, net, mover, u, lead):
    """A Kingdomino leaf's (win, margin, share of the playout still to mix in); see the module docstring."""
    greedy_work, heuristic_work, heuristic_space, network_space, step_work = space
    labels, stack, cells, best_picks = greedy_work
    mix = 1.0 if params.endgame and placing_in_final_round(st, ONE_GAME) else params.playout_mix
    win, margin = 0.0, 0.0
    if mix < 1:
        if params.network:
            win, margin = network_value(st, v, network_space, net, params, mover, u)
        else:
            leaf_utilities(st, v, heuristic, params.value_scale, labels, stack, heuristic_space, u, lead)
            win, margin = u[mover], lead[mover]
    if mix > 0:
        view = compiled.project(st, MoverArrays)
        while st.phase[0] != OVER:
            if params.endgame and placing_in_final_round(st, ONE_GAME):
                a = final_round_action(st, v, ONE_GAME)
            elif params.heuristic_playout and st.next_line[0, 0] >= 0:
                a = heuristic_action(view, v, ONE_GAME, heuristic, np.random.random(), heuristic_work)
            else:
                a = kingdomino_greedy.greedy_action(view, v, ONE_GAME, SCORED_DRAFT, np.random.random(), labels, stack,
                                                    cells, best_picks)
            compiled.step(st, v, a, step_work)
    return win, margin, mix


@njit(cache=True, inline="always")
def _moving_domino(st):
    """The domino the player to move places, or -1 when it picks."""
    return st.cur_line[0, st.order_slot[0, st.turn[0]]] if st.phase[0] == PLACE else -1


@njit(cache=True)
def _kingdomino_priors(st, v, weights, held, actions, n_legal, logits):
    """Kingdomino's priors (`priors.domino_logits` with Kingdomino's domino tables)."""
    k = compiled.kingdom_to_move(st, v)
    priors.domino_logits(st.terrain[0, k], st.bbox[0, k], v.grid, st.next_line[0], _moving_domino(st), _DT, _DC,
                         v.n_place, weights, held, actions, n_legal, logits)


@njit(cache=True)
def _kingdomino_prior_features(st, v, held, actions, n_legal, out):
    """The features Kingdomino's priors weigh (`priors.domino_features`)."""
    k = compiled.kingdom_to_move(st, v)
    priors.domino_features(st.terrain[0, k], st.bbox[0, k], v.grid, st.next_line[0], _moving_domino(st), _DT, _DC,
                           v.n_place, held, actions, n_legal, out)


@njit(cache=True)
def _queendomino_space(st, v, net):
    """The scratch of Queendomino's leaves: the game index list of the greedy (game 0), the step's arrays,
    `rising_option`'s (a mask, per-action gains, coins and actions), the greedy's tie-break draw and action, and the
    network's (`_network_space`)."""
    n_actions = v.pass_action + 1
    rising = (np.zeros((1, n_actions), dtype=np.bool_), np.zeros(n_actions, dtype=np.int64),
              np.zeros(n_actions, dtype=np.int64), np.zeros(n_actions, dtype=np.int64))
    return (np.zeros(1, dtype=np.int64), compiled.new_work(st, v), rising, np.zeros(1), np.zeros(1, dtype=np.int64),
            _network_space(st, v, net))


@njit(cache=True)
def _queendomino_leaf(st, trial, v, space, params, heuristic, net, mover, u, lead):
    """A Queendomino leaf's (win, margin, share of the playout still to mix in); see the module docstring."""
    first_game, step_work, rising, u_draw, act, network_space = space
    mix = params.playout_mix
    win, margin = 0.0, 0.0
    if mix < 1:
        if params.network:
            win, margin = network_value(st, v, network_space, net, params, mover, u)
        else:
            lead_utilities(st.scores[0], params.value_scale, u, lead)
            win, margin = u[mover], lead[mover]
    if mix > 0:
        greedy_view = compiled.as_tuple(compiled.project(st, QueendominoGreedyArrays))
        constants = compiled.as_tuple(v)
        while st.phase[0] != OVER:
            phase = st.phase[0]
            if phase == PLACE or phase == PICK:
                u_draw[0] = np.random.random()
                place_pick(greedy_view, constants, first_game, SCORED_DRAFT, u_draw, act)
                a = act[0]
            elif phase == DRAGON:
                a = v.pass_action
            else:
                a = rising_option(st, trial, v, step_work, rising)
            compiled.step(st, v, a, step_work)
    return win, margin, mix


@njit(cache=True)
def rising_option(st, trial, v, step_work, rising):
    """At a knight or build step: Full Greedy's choice (the core's `rising_choice`) among the legal actions, each
    tried on the copy `trial`; PASS when none raises the mover's score. step_work: `compiled.new_work`'s; rising:
    (mask, gains, coins, actions) scratch."""
    mask, gains, coins, actions = rising
    p = compiled.kingdom_to_move(st, v)
    compiled.legal_mask(st, v, mask)
    n = 0
    for a in range(v.pass_action):
        if not mask[0, a]:
            continue
        compiled.copy_state(trial, st)
        compiled.step(trial, v, a, step_work)
        gains[n] = np.int64(trial.scores[0, p]) - np.int64(st.scores[0, p])
        coins[n] = trial.coins[0, p]
        actions[n] = a
        n += 1
    k = rising_choice(gains, coins, n, np.random.random())
    return actions[k] if k >= 0 else v.pass_action


@njit(cache=True)
def _queendomino_priors(st, v, weights, held, actions, n_legal, logits):
    """Placements and picks as in Kingdomino, with the variant's domino tables; in an optional step, the pass
    feature's weight for passing and nothing for the rest."""
    phase = st.phase[0]
    if phase == PLACE or phase == PICK:
        k = compiled.kingdom_to_move(st, v)
        priors.domino_logits(st.terrain[0, k], st.bbox[0, k], v.grid, st.next_line[0], _moving_domino(st),
                             v.domino_terrain, v.domino_crowns, v.n_place, weights, held, actions, n_legal, logits)
    else:
        priors.pass_logits(actions, n_legal, v.pass_action, weights, logits)


@njit(cache=True)
def _queendomino_prior_features(st, v, held, actions, n_legal, out):
    """The features Queendomino's priors weigh."""
    phase = st.phase[0]
    if phase == PLACE or phase == PICK:
        k = compiled.kingdom_to_move(st, v)
        priors.domino_features(st.terrain[0, k], st.bbox[0, k], v.grid, st.next_line[0], _moving_domino(st),
                               v.domino_terrain, v.domino_crowns, v.n_place, held, actions, n_legal, out)
    else:
        priors.pass_features(actions, n_legal, v.pass_action, out)


#: `(st, v, net) -> space`: the scratch a search's leaves need, made once per `simulate` call.
leaf_space = compiled.by_game({KingdominoArrays: _kingdomino_space, QueendominoArrays: _queendomino_space},
                              "leaf_space")
#: `(st, trial, v, space, params, heuristic, net, mover, u, lead) -> (win, margin, mix)`: an unfinished leaf's value.
leaf_value = compiled.by_game({KingdominoArrays: _kingdomino_leaf, QueendominoArrays: _queendomino_leaf},
                              "leaf_value")
#: `(st, v, weights, held, actions, n_legal, logits)`: the prior logits of the legal actions actions[:n_legal]
#: (`priors`: weights (`priors.FEATURES`,), held (`priors.TERRAIN_CODES`,) bool scratch).
prior_logits = compiled.by_game({KingdominoArrays: _kingdomino_priors, QueendominoArrays: _queendomino_priors},
                                "prior_logits")
#: `(st, v, held, actions, n_legal, out)`: out[i] (`priors.FEATURES`,), the features of actions[:n_legal] that
#: `prior_logits` weighs.
prior_features = compiled.by_game({KingdominoArrays: _kingdomino_prior_features,
                                   QueendominoArrays: _queendomino_prior_features}, "prior_features")
