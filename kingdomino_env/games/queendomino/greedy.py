"""Full Greedy for Queendomino: one-step lookahead on the core's own score, for every step of a king's turn.

`policies.GreedyPolicy` (and `policies.greedy_actions`) dispatch here when `rules.game == "queendomino"`. Every
choice is judged by the core: placements by the scoring kernel `kernels.q_score` (wealth, territories with the
buildings' crowns, buildings, the Queen "as if the game ended now"), the optional steps by applying each legal
action to a copy of the game with `game.step` and reading the score it leaves; legality always comes from the
core's mask. No rule is re-implemented here. The compiled choices (`place_pick`, `rising_choice`) also drive the
playouts of the compiled search. The choices:

* PLACE: the placement after which the score is highest; discard only when no placement is legal.
* KNIGHTS: put a knight when it pays, i.e. when the tax it collects raises the score now (the wealth, 1 point per
  3 coins); on the square whose tax is larger (the larger territory). Else PASS.
* BUILD: buy the affordable tile, on the open town square, after which the score is highest (its points, crowns,
  knights, towers and the Queen they may win, minus the wealth its price costs), if that beats the score now.
  Else PASS. Among equal gains, the knight with the larger tax and the build that leaves more coins
  (`rising_choice`).
* DRAGON: the best-placed opponent (highest score; the first in seat order after the mover on a tie) is the
  threat. For each tile on the board, its gain is what that opponent's score would rise by if they built it now
  on their best open town square, paying its price (the core's mask says which they can afford). Burn the tile
  of largest gain when the gain exceeds `COIN_WORTH` (1 point: what the coin the Dragon costs is counted as
  worth to us, a third of a point of wealth plus what it could buy); else PASS.
* PICK: the domino whose best placement on the current kingdom scores most now (Kingdomino's Full Greedy).

GPRD (`random_draft=True`): greedy placement, a uniformly random legal action in every other step (PASS included).
Ties are broken uniformly at random with the policy's generator, so a seed fixes the play.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board import (
    ALL_PLACEMENTS,
    OVER,
    PICK,
    PLACE,
    lift_domino,
    placements_of,
    put_squares,
    random_open_pick,
    sample_legal,
)
from ..records import QueendominoGreedyArrays, QueendominoVariant
from ..state import State
from . import game
from .kernels import BUILD, DRAGON, KNIGHT_STEP, q_score

#: What one coin is counted as worth, in points, when deciding to spend it on the Dragon.
COIN_WORTH = 1
#: `place_pick`'s mark for a game at an optional step (KNIGHTS, BUILD, DRAGON), decided in Python on copies.
OPTIONAL = -2


@njit(cache=True)
def _best_placement(st, v, b, p, domino, u, labels, stack, ecrowns, counts, cells, best_actions):
    """(action, score) of the placement of `domino` on kingdom p of game b after which `q_score` is highest, ties
    split by u in [0, 1); (discard action, current score) when no placement is legal. The board is restored before
    returning."""
    terrain = st.terrain[b, p]
    crowns = st.crowns[b, p]
    bbox = st.bbox[b, p]
    buildings = st.building_board[b, p]
    coins = st.coins[b, p]
    knights_owned = st.knights_owned[b, p]
    towers = st.towers[b, p]
    host = st.queen[b] == p
    table = v.building_table
    dt = v.domino_terrain
    dc = v.domino_crowns
    s = terrain.shape[0]
    n_place = s * s * 4
    t1 = dt[domino, 0]
    t2 = dt[domino, 1]
    cells[:] = False
    n_legal = placements_of(terrain, bbox, t1, t2, v.grid, cells, ALL_PLACEMENTS)
    if n_legal == 0:
        points, _, _ = q_score(terrain, crowns, bbox, buildings, coins, knights_owned, towers, host, table, labels,
                               stack, ecrowns, counts)
        return n_place, points
    best = -1
    n_best = 0
    saved = bbox.copy()
    for a in range(n_place):
        if not cells[a]:
            continue
        cell, d = divmod(a, 4)
        r, c = divmod(cell, s)
        r2 = r + (1 if d == 1 else (-1 if d == 3 else 0))
        c2 = c + (1 if d == 0 else (-1 if d == 2 else 0))
        put_squares(terrain, crowns, bbox, t1, dc[domino, 0], t2, dc[domino, 1], r, c, r2, c2)
        points, _, _ = q_score(terrain, crowns, bbox, buildings, coins, knights_owned, towers, host, table, labels,
                               stack, ecrowns, counts)
        lift_domino(terrain, crowns, bbox, saved, r, c, r2, c2)
        if points > best:
            best = points
            n_best = 0
        if points == best:
            best_actions[n_best] = a
            n_best += 1
    return best_actions[min(int(u * n_best), n_best - 1)], best


@njit(cache=True)
def place_pick(arrays, constants, games, random_draft, u, out):
    """Greedy PLACE and PICK actions for the player to move in each of `games` (see the module docstring); -1
    where over, OPTIONAL where the game is at an optional step. Ties are split by u[i] in [0, 1). The mover's
    kingdom is its seat >> shift (see `kernels`). arrays, constants: the plain tuples
    `State.arrays_for(QueendominoGreedyArrays)` and `State.constants`."""
    st = QueendominoGreedyArrays(*arrays)
    v = QueendominoVariant(*constants)
    terrain, cur_line, next_line = st.terrain, st.cur_line, st.next_line
    next_owner, order_player, order_slot = st.next_owner, st.order_player, st.order_slot
    turn, phase = st.turn, st.phase
    s = terrain.shape[2]
    n_place = v.n_place
    line = v.line
    labels = np.zeros((s, s), dtype=np.int32)
    stack = np.zeros(s * s, dtype=np.int64)
    ecrowns = np.zeros((s, s), dtype=np.int8)
    counts = np.zeros(9, dtype=np.int64)
    cells = np.zeros(n_place, dtype=np.bool_)
    best_actions = np.zeros(n_place, dtype=np.int64)
    best_picks = np.zeros(line, dtype=np.int64)
    for i in range(games.shape[0]):
        b = games[i]
        out[i] = -1
        ph = phase[b]
        if ph == OVER:
            continue
        if ph != PLACE and ph != PICK:
            out[i] = OPTIONAL
            continue
        p = order_player[b, turn[b]] >> v.shift
        if ph == PLACE:
            domino = cur_line[b, order_slot[b, turn[b]]]
            out[i], _ = _best_placement(st, v, b, p, domino, u[i], labels, stack, ecrowns, counts, cells,
                                        best_actions)
            continue
        if random_draft:
            out[i] = random_open_pick(next_line, next_owner, b, u[i], n_place)
            continue
        best = -1
        n_best = 0
        for j in range(line):
            if next_line[b, j] < 0 or next_owner[b, j] >= 0:
                continue
            _, points = _best_placement(st, v, b, p, next_line[b, j], 0.0, labels, stack, ecrowns, counts, cells,
                                        best_actions)
            if points > best:
                best = points
                n_best = 0
            if points == best:
                best_picks[n_best] = j
                n_best += 1
        out[i] = n_place + 1 + best_picks[min(int(u[i] * n_best), n_best - 1)]


@njit(cache=True)
def rising_choice(gains, coins, n, u):
    """Full Greedy's knight or build among n candidates (the legal actions of a KNIGHTS or BUILD step, each tried
    on a copy of the game): the index in [0, n) of the one whose score rise gains[i] is largest; among equal rises
    the one that leaves the mover the most coins (coins[i], after it); among those the one u in [0, 1) picks, in
    candidate order. -1 (PASS) when no rise is positive."""
    best_gain = 0
    best_coins = -1
    n_ties = 0
    for i in range(n):
        if gains[i] <= 0 or gains[i] < best_gain or (gains[i] == best_gain and coins[i] < best_coins):
            continue
        if gains[i] > best_gain or coins[i] > best_coins:
            n_ties = 0
        best_gain = gains[i]
        best_coins = coins[i]
        n_ties += 1
    k = min(int(u * n_ties), n_ties - 1)
    for i in range(n):
        if n_ties and gains[i] == best_gain and coins[i] == best_coins:
            if k == 0:
                return i
            k -= 1
    return -1


@njit(cache=True)
def _rising_choices(rows, gains, coins, u, best):
    """best[g] = the candidate index of game g's `rising_choice`, -1 for PASS, for the candidates of `rows` (their
    games, in increasing order) with their rises `gains` and coins after `coins`; u: one draw per game."""
    start = 0
    while start < rows.shape[0]:
        end = start + 1
        while end < rows.shape[0] and rows[end] == rows[start]:
            end += 1
        k = rising_choice(gains[start:end], coins[start:end], end - start, u[rows[start]])
        best[rows[start]] = start + k if k >= 0 else -1
        start = end


def greedy_actions(state: State, games: np.ndarray, rng: np.random.Generator, random_draft: bool = False
                   ) -> np.ndarray:
    """(len(games),) Queendomino Full Greedy actions (GPRD with `random_draft`) for the player to move; -1 where
    over. See the module docstring for the choices."""
    games = np.asarray(games, dtype=np.int64)
    out = np.empty(games.shape[0], dtype=np.int64)
    place_pick(state.arrays_for(QueendominoGreedyArrays), state.constants, games, random_draft,
               rng.random(games.shape[0]), out)
    rest = np.flatnonzero(out == OPTIONAL)
    if rest.size:
        sub = state.take(games[rest])
        mask = _mask(sub)
        if random_draft:
            picked = np.empty(rest.size, dtype=np.int64)
            sample_legal(mask, rng.random(rest.size), picked)
            out[rest] = picked
        else:
            out[rest] = _optional_steps(sub, mask, rng)
    return out


def _mask(state: State) -> np.ndarray:
    """(B, n_actions) the legal actions of every game of `state`."""
    return game.legal_action_mask(state, np.empty((state.batch_size, state.rules.n_actions), dtype=np.bool_))


def _best_per_game(rows: np.ndarray, keys: tuple[np.ndarray, ...], n_games: int) -> tuple[np.ndarray, np.ndarray]:
    """For candidate rows (game index of each candidate) and sort keys (most significant last, as np.lexsort),
    (has, best): whether each game has a candidate and the index of its best candidate."""
    best = np.full(n_games, -1, dtype=np.int64)
    if rows.size:
        order = np.lexsort(keys + (rows,))
        grouped = rows[order]
        last = np.append(grouped[1:] != grouped[:-1], True)  # the last candidate of each game has its largest key
        best[grouped[last]] = order[last]
    return best >= 0, best


def _gains(state: State, rows: np.ndarray, actions: np.ndarray, kingdom: np.ndarray
           ) -> tuple[np.ndarray, State]:
    """Score change of `kingdom[i]` when game rows[i] of `state` takes actions[i], on copies; and those copies."""
    trial = state.take(rows)
    game.step(trial, np.ascontiguousarray(actions, dtype=np.int64))
    idx = np.arange(rows.size)
    return trial.scores[idx, kingdom].astype(np.int64) - state.scores[rows, kingdom].astype(np.int64), trial


def _optional_steps(sub: State, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Greedy actions of games all at an optional step (KNIGHTS, BUILD or DRAGON), judged on copies."""
    r = sub.rules
    n = sub.batch_size
    out = np.full(n, r.pass_action, dtype=np.int64)
    kingdom = sub.current_kingdom
    phase = sub.phase
    # KNIGHTS and BUILD: every legal non-PASS action of the mover, applied to a copy.
    own = np.isin(phase, (KNIGHT_STEP, BUILD))
    u = np.zeros(n)
    u[own] = rng.random(np.count_nonzero(own))
    rows, acts = np.nonzero(mask[:, :r.pass_action] & own[:, None])
    if rows.size:
        gain, trial = _gains(sub, rows, acts, kingdom[rows])
        coins = trial.coins[np.arange(rows.size), kingdom[rows]].astype(np.int64)
        best = np.full(n, -1, dtype=np.int64)
        _rising_choices(np.ascontiguousarray(rows), gain, coins, u, best)
        chosen = best >= 0
        out[chosen] = acts[best[chosen]]
    # DRAGON: the best-placed opponent's gain from building each tile now, on copies where they build.
    dragon = np.flatnonzero(phase == DRAGON)
    if dragon.size:
        out[dragon] = _dragon_actions(sub, dragon, kingdom[dragon], mask, rng)
    return out


def _dragon_actions(sub: State, games: np.ndarray, kingdom: np.ndarray, mask: np.ndarray,
                    rng: np.random.Generator) -> np.ndarray:
    """The DRAGON choice (module docstring) for `games` of `sub`, whose movers play `kingdom`."""
    r = sub.rules
    kingdoms = r.kingdoms
    out = np.full(games.size, r.pass_action, dtype=np.int64)
    # The best-placed opponent: highest score, the first in seat order after the mover on a tie (in team games
    # the best-placed other team, seen through its first seat).
    others = (kingdom[:, None] + np.arange(1, kingdoms)[None, :]) % kingdoms
    threat = others[np.arange(games.size), np.argmax(sub.scores[games[:, None], others], axis=1)]
    their = sub.take(games)
    first_seat = np.array([r.kingdom_seats(k)[0] for k in range(kingdoms)])
    their.order_player[np.arange(games.size), their.turn.astype(np.int64)] = first_seat[threat]
    their.phase[:] = BUILD
    their_mask = _mask(their)
    rows, acts = np.nonzero(their_mask[:, r.first_build_action:r.first_dragon_action])
    if rows.size == 0:
        return out
    gain, _ = _gains(their, rows, acts + r.first_build_action, threat[rows])
    slot = acts // (r.frame * r.frame)
    has, best = _best_per_game(rows, (rng.random(rows.size), gain), games.size)
    burn = has & (gain[np.maximum(best, 0)] > COIN_WORTH)
    burn_action = r.first_dragon_action + slot[np.maximum(best, 0)]
    burn &= mask[games, burn_action]
    out[burn] = burn_action[burn]
    return out
