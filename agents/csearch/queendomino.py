"""The compiled search (`search`) for Queendomino and the Royal Wedding: the same open-loop tree, the same PUCT
selection and the same final utilities, over Queendomino's core kernels (`q_legal_mask`, `q_step`).

What differs from Kingdomino's search:

* A sampled world reorders both hidden orders (`sample_hidden`): the dominoes not yet drawn (in the Royal Wedding,
  each box's among that box's positions of the deck, as `agents.determinise` does) and the building tiles not yet
  drawn from the pile. The real orders are never read. Every simulation samples a world of its own.
* The optional steps of a king's turn (knights, build, the Dragon) are decisions of the tree like placements and
  picks; a step with one legal action (a PASS alone) is played without making a node.
* Priors: placements and picks as in Kingdomino (`evaluate.domino_logits`, with the variant's domino tables); every
  optional action gets the same prior.
* Leaves are valued by a playout (`playout`), which takes the share `Params.playout_mix` of their value (all of
  it by default: `PLAYOUT_MIX`), and by the score lead, which takes the rest. The core keeps each kingdom's score
  as if the game ended now (wealth, territories with the buildings' crowns, buildings, the Queen); a kingdom's lead
  utility is sigmoid((own - best other) / value_scale). No network is read.
* A playout plays every seat by Full Greedy's compiled choices, the core's own (`queendomino.greedy`): the greedy
  placements and picks (`place_pick`); a knight or a build when, tried on a copy, it raises the mover's score now
  (`rising_choice`: the largest rise; among equal rises the one that leaves more coins); the Dragon never sent.

The player axis is the kingdom axis: in the Royal Wedding's team games a seat's kingdom is seat >> shift, and
utilities are per kingdom, so the two seats of a team share their values.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from kingdomino_env.core import State
from kingdomino_env.games.board import OVER, PICK, PLACE
from kingdomino_env.games.dominoes import N_DOMINOES
from kingdomino_env.games.queendomino.game import queen_box_positions
from kingdomino_env.games.queendomino.greedy import place_pick, rising_choice
from kingdomino_env.games.queendomino.kernels import DRAGON, N_TILES, q_legal_mask, q_step
from kingdomino_env.games.records import (
    QueendominoArrays,
    QueendominoGreedyArrays,
    QueendominoMaskArrays,
    QueendominoVariant,
)

from .evaluate import domino_logits, lead_utilities, terminal_outcome, terminal_utilities
from .search import ROOT, _copy_game, _copy_into, _select, backup, child_or_new, mix_in_final, shuffle_unseen

#: The share of a playout in leaf values unless the agent names one: the playout alone measured stronger against
#: `mc` than half playout, half score lead (the agents docs, "csearch in Queendomino and the Royal Wedding").
PLAYOUT_MIX = 1.0
#: The longest action path a simulation can take from the root (a whole game has fewer steps).
MAX_DEPTH = 2048


class Position(NamedTuple):
    """What a search of one Queendomino game reads, the arrays as plain tuples in `QueendominoArrays`' order (the
    types the core's kernels are compiled for, so that they are not compiled again): root, the game's arrays (batch
    1); scratch, a copy it plays simulations on, and mask_view and greedy_view, the scratch's arrays the legal mask
    and the greedy placements read; trial, a second copy where playouts try optional actions; constants,
    `State.constants`; boxes (deck size,) int64: the box of each deck position (ids 48 * box .. 48 * box + 47)."""

    root: tuple
    scratch: tuple
    mask_view: tuple
    greedy_view: tuple
    trial: tuple
    constants: tuple
    boxes: np.ndarray


def position(game: State) -> Position:
    """The `Position` of the one-game Queendomino state `game`."""
    rules = game.rules
    root = tuple(game.arrays)
    scratch, trial = (tuple(np.array(a, copy=True) for a in root) for _ in range(2))
    named = QueendominoArrays(*scratch)
    mask_view, greedy_view = (tuple(getattr(named, name) for name in record._fields)
                              for record in (QueendominoMaskArrays, QueendominoGreedyArrays))
    boxes = (queen_box_positions(rules.line_size).astype(np.int64) if rules.two_boxes
             else np.zeros(rules.deck_size, dtype=np.int64))
    return Position(root, scratch, mask_view, greedy_view, trial, game.constants, boxes)


@njit(cache=True)
def _copy_queendomino(dst, src):
    """Copy a one-game Queendomino record into another of the same shapes."""
    _copy_game(dst, src)
    _copy_into(dst.coins, src.coins)
    _copy_into(dst.knights, src.knights)
    _copy_into(dst.knights_owned, src.knights_owned)
    _copy_into(dst.towers, src.towers)
    _copy_into(dst.knight_board, src.knight_board)
    _copy_into(dst.building_board, src.building_board)
    _copy_into(dst.queen, src.queen)
    _copy_into(dst.dragon, src.dragon)
    _copy_into(dst.slots, src.slots)
    _copy_into(dst.pile, src.pile)
    _copy_into(dst.pile_pos, src.pile_pos)
    _copy_into(dst.placed, src.placed)
    _copy_into(dst.knight_done, src.knight_done)


@njit(cache=True)
def sample_hidden(deck, drawn, boxes, pile, pile_pos):
    """Replace, in place, the undrawn dominoes of `deck` (each box's among that box's positions, `Position.boxes`)
    and the undrawn tiles of `pile` by uniformly random orders of what has not been seen."""
    pool = np.zeros(max(N_DOMINOES, N_TILES), dtype=np.int64)
    for box in range(boxes.max() + 1):
        shuffle_unseen(deck, drawn, box * N_DOMINOES, N_DOMINOES, np.flatnonzero(boxes == box), pool)
    shuffle_unseen(pile, pile_pos, 0, N_TILES, np.arange(pile.shape[0]), pool)


@njit(cache=True)
def _logits(st, v, kingdom, actions, n_legal, logits):
    """Fill logits[i] for the legal actions actions[:n_legal] of the player to move (kingdom `kingdom`)."""
    phase = st.phase[0]
    if phase == PLACE or phase == PICK:
        domino = st.cur_line[0, st.order_slot[0, st.turn[0]]] if phase == PLACE else -1
        domino_logits(st.terrain[0, kingdom], st.next_line[0], domino, v.domino_terrain, v.domino_crowns, v.n_place,
                      actions, n_legal, logits)
    else:
        logits[:n_legal] = 0.0


@njit(cache=True)
def simulate(pos, tree, sims, params, root_action):
    """Run `sims` simulations from the `Position` `pos` into `tree` (`search.Tree`) with the settings `params`
    (`search.Params`: c_puct, margin_weight, margin_softness, value_scale are read); root_action: the legal root
    action every simulation takes (-1: the one PUCT selects). Returns the number run (fewer when the tree is
    full)."""
    st = QueendominoArrays(*pos.root)
    sc = QueendominoArrays(*pos.scratch)
    v = QueendominoVariant(*pos.constants)
    n_actions = v.pass_action + 1
    kingdoms = st.terrain.shape[1]
    mask = np.zeros((1, n_actions), dtype=np.bool_)
    logits = np.zeros(n_actions)
    actions = np.zeros(n_actions, dtype=np.int64)
    act = np.zeros(1, dtype=np.int64)
    status = np.zeros(1, dtype=np.int8)
    path = np.zeros(MAX_DEPTH, dtype=np.int64)
    u = np.zeros(kingdoms)
    lead = np.zeros(kingdoms)
    played = np.zeros(kingdoms)
    no_crowns = np.zeros(kingdoms, dtype=np.int64)
    mover = np.int64(st.order_player[0, st.turn[0]] >> v.shift)
    done = 0
    for _ in range(sims):
        if tree.size[0] + 1 >= tree.visits.shape[0]:
            break
        _copy_queendomino(sc, st)
        sample_hidden(sc.deck[0], sc.drawn[0], pos.boxes, sc.pile[0], sc.pile_pos[0])
        node = ROOT
        depth = 0
        path[0] = 0
        while sc.phase[0] != OVER:
            q_legal_mask(pos.mask_view, pos.constants, mask)
            n_legal = np.int64(0)
            for a in range(n_actions):
                if mask[0, a]:
                    actions[n_legal] = a
                    n_legal += 1
            if depth == 0 and root_action >= 0:
                act[0] = root_action
            elif n_legal == 1:
                act[0] = actions[0]
                q_step(pos.scratch, pos.constants, act, status)
                continue
            else:
                kingdom = sc.order_player[0, sc.turn[0]] >> v.shift
                _logits(sc, v, kingdom, actions, n_legal, logits)
                act[0] = _select(tree, node, actions, n_legal, logits, kingdom, n_actions, params.c_puct)
            q_step(pos.scratch, pos.constants, act, status)
            depth += 1
            node, made = child_or_new(tree, node, act[0], n_actions)
            path[depth] = node
            if made:
                break
        if sc.phase[0] == OVER:
            terminal_utilities(sc.scores[0], sc.largest[0], no_crowns, params.margin_weight, params.margin_softness,
                               u)
            win, margin = terminal_outcome(sc.scores[0], sc.largest[0], no_crowns, mover)
        else:
            mix = params.playout_mix
            lead_utilities(sc.scores[0], params.value_scale, u, lead)
            win, margin = u[mover], lead[mover]
            if mix > 0:
                playout(pos, mask, status)
                win, margin = mix_in_final(sc.scores[0], sc.largest[0], no_crowns, mover, mix, params, played, u,
                                           win, margin)
        backup(tree, path, depth, u, win, margin)
        done += 1
    return done


@njit(cache=True, inline="always")
def playout(pos, mask, status):
    """Play the scratch game of `pos` to its end, every seat by the compiled Full Greedy choices of the module
    docstring (ties split at random); mask (1, n_actions) bool and status (1,) int8 are scratch. Returns whether
    every action was legal (it stops at the first that is not)."""
    sc = QueendominoArrays(*pos.scratch)
    v = QueendominoVariant(*pos.constants)
    act = np.zeros(1, dtype=np.int64)
    games = np.zeros(1, dtype=np.int64)
    u = np.zeros(1)
    gains = np.zeros(mask.shape[1], dtype=np.int64)
    coins = np.zeros(mask.shape[1], dtype=np.int64)
    actions = np.zeros(mask.shape[1], dtype=np.int64)
    while sc.phase[0] != OVER:
        phase = sc.phase[0]
        if phase == PLACE or phase == PICK:
            u[0] = np.random.random()
            place_pick(pos.greedy_view, pos.constants, games, False, u, act)
        elif phase == DRAGON:
            act[0] = v.pass_action
        else:
            act[0] = _rising_option(pos, v, mask, status, gains, coins, actions)
        if q_step(pos.scratch, pos.constants, act, status) > 0:
            return False
    return True


@njit(cache=True, inline="always")
def _rising_option(pos, v, mask, status, gains, coins, actions):
    """At a knight or build step of the scratch game: Full Greedy's choice (the core's `rising_choice`) among the
    legal actions, each tried on `pos.trial`; PASS when none raises the mover's score. gains, coins, actions
    (n_actions,) int64 are scratch."""
    sc = QueendominoArrays(*pos.scratch)
    trial = QueendominoArrays(*pos.trial)
    p = sc.order_player[0, sc.turn[0]] >> v.shift
    q_legal_mask(pos.mask_view, pos.constants, mask)
    act = np.zeros(1, dtype=np.int64)
    n = 0
    for a in range(v.pass_action):
        if not mask[0, a]:
            continue
        _copy_queendomino(trial, sc)
        act[0] = a
        q_step(pos.trial, pos.constants, act, status)
        gains[n] = np.int64(trial.scores[0, p]) - np.int64(sc.scores[0, p])
        coins[n] = trial.coins[0, p]
        actions[n] = a
        n += 1
    k = rising_choice(gains, coins, n, np.random.random())
    return actions[k] if k >= 0 else v.pass_action
