"""`CompiledSearchAgent`: the compiled search with a budget per move, for every game and variant (Kingdomino's
one `search.simulate` over each game's compiled kernels)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from kingdomino_env import core
from kingdomino_env.core import State

from ..base import Agent
from ..budget import Budget
from ..heuristic_kernel import DEFAULT_WEIGHTS
from ..kingdomino_endgame import final_round_actions
from ..playout import check_playout
from . import games, network, search
from .evaluate import MARGIN_SOFTNESS

#: Settings that value the margin alone, squashed gently (`margin_weight`, `margin_softness`), so that the search
#: plays for the largest win it can find rather than the surest (the `csearch-margin` spec).
MARGIN_SEEKING = {"margin_weight": 1.0, "margin_softness": 100.0}
#: Simulations run between two looks at the clock under a time budget.
CHUNK = 64
#: Simulations run in one compiled call under a simulation budget (any budget, however large, runs in such calls).
CHUNK_PLAYOUTS = 1 << 20
#: The share of a Full Greedy playout in leaf values where neither the agent nor its network names one.
DEFAULT_PLAYOUT_MIX = 0.5
#: Each hidden order of a game and the array counting its entries already seen: positions from that count on are
#: not compared when deciding whether a kept subtree still holds a position.
HIDDEN_ORDERS = {"deck": "drawn", "pile": "pile_pos"}
#: The most nodes of a subtree kept from one move's search for the next decision of the same player.
KEPT_NODES = 1 << 13
#: Sampled worlds a search shares among the root's actions (`search.Worlds`).
SHARED_WORLDS = 256
#: How a search's move is chosen among the root's legal actions: the most visited (`visits`), or the best mean
#: utility among those with at least MEAN_CHOICE_SHARE of the most visits (`mean`).
CHOICES = ("visits", "mean")
MEAN_CHOICE_SHARE = 0.5
#: How the root's simulations are shared among its actions: PUCT's selection (`puct`), or sequential halving
#: (`halving`: every legal action gets the same simulations, then the better half by mean utility goes on, round
#: after round, and the move is the best mean of the last round).
ROOTS = ("puct", "halving")
#: Simulations given to each finalist at a time while sequential halving's last round runs to a deadline.
FINAL_STEP = 8


class CompiledSearchAgent(Agent):
    """Open-loop PUCT over sampled worlds, compiled; plays the root's most visited legal action. In Queendomino and
    the Royal Wedding (`games`) leaves are valued by a compiled greedy playout (mixed with the score lead for
    a `playout_mix` below 1), with no network, and every simulation samples its own world.

    budget: simulations (`Budget(playouts=N)`) or seconds per move. weights: a value network file
    (`network.save_weights`) valuing the leaves; shipped: without one, value them by the shipped network of each
    game's frame and player count where there is one; otherwise the heuristic values them. max_nodes: the tree's
    room (a search stops early when it is full). playout_mix: the share of a Full Greedy playout in leaf values;
    None: the one the network's file names (`playout_mix` in its metadata), else DEFAULT_PLAYOUT_MIX (in
    Queendomino and the Royal Wedding, `games.QUEENDOMINO_PLAYOUT_MIX`).
    Decisions with a single legal action are played at once. When a player decides twice in a row with no domino
    drawn in between (a turn's placement, then its pick), the second search goes on from the subtree of the action
    the first chose (the same positions, so its statistics still hold); `reuse=False` starts every search afresh.
    worlds: the sampled worlds the root's actions share, the k-th simulation through each in this search playing
    the k-th world (common random numbers, as `mc`'s actions share theirs); 0: every simulation samples a world of
    its own.
    playout: the playout policy, `greedy` (Full Greedy) or `heuristic` (the heuristic agent's moves, Full Greedy's
    in the last round). choice: how the move is chosen from the root's statistics (`CHOICES`). root: how the root's
    simulations are shared among its actions (`ROOTS`).
    endgame: play Kingdomino's last round exactly (`kingdomino_endgame`: once the last line is picked, every
    placement left is solved), without searching; the search's playouts play it exactly too, and a leaf in it is
    valued by that exact playout alone.
    margin_weight, margin_softness: a kingdom's utility is (1 - margin_weight) * its win share + margin_weight *
    (1 + tanh(margin / margin_softness)) / 2, the margin in points over the best other kingdom. The defaults play
    to win; `MARGIN_SEEKING` weighs the margin more, for the largest wins against weaker players.
    """

    def __init__(self, budget: Budget, seed: int | None = None, name: str | None = None,
                 weights: str | Path | None = None, shipped: bool = False, c_puct: float = 1.5,
                 margin_weight: float = 0.25, margin_softness: float = MARGIN_SOFTNESS, value_scale: float = 8.0,
                 playout_mix: float | None = None, max_nodes: int = 1 << 18, reuse: bool = True,
                 worlds: int = SHARED_WORLDS, playout: str = "greedy", choice: str = "visits", root: str = "puct",
                 endgame: bool = True):
        if isinstance(worlds, bool) or not isinstance(worlds, (int, np.integer)) or worlds < 0:
            raise ValueError(f"worlds must be a whole number of shared worlds, 0 or more (0: a world per "
                             f"simulation), not {worlds!r}")
        if not _is_number(margin_weight) or not 0 <= margin_weight <= 1:
            raise ValueError(f"margin_weight must be a share from 0 to 1, not {margin_weight!r}")
        if playout_mix is not None and (not _is_number(playout_mix) or not 0 <= playout_mix <= 1):
            raise ValueError(f"playout_mix must be a share from 0 to 1 (or None: the network's or the game's "
                             f"default), not {playout_mix!r}")
        if not _is_number(margin_softness) or not 0 < margin_softness < math.inf:
            raise ValueError(f"margin_softness must be a positive number of points, not {margin_softness!r}")
        if choice not in CHOICES:
            raise ValueError(f"choice must be one of {', '.join(CHOICES)}, not {choice!r}")
        if root not in ROOTS:
            raise ValueError(f"root must be one of {', '.join(ROOTS)}, not {root!r}")
        if not isinstance(endgame, bool):
            raise ValueError(f"endgame must be True or False, not {endgame!r}")
        self.endgame = endgame
        self.choice = choice
        self.halving = root == "halving"
        self.budget = budget
        self.net, self.meta = network.load_weights(weights) if weights is not None else (None, {})
        self.shipped = shipped and weights is None
        self._shipped: dict[tuple[str, int, int], tuple[network.Weights, dict] | None] = {}
        self.playout_mix = playout_mix
        self.params = search.Params(c_puct, margin_weight, margin_softness, value_scale, False,
                                    DEFAULT_PLAYOUT_MIX if playout_mix is None else playout_mix,
                                    check_playout(playout) == "heuristic", endgame)
        self.rng = np.random.default_rng(seed)
        self.name = name or f"csearch:{budget}"
        self.max_nodes = max_nodes
        self.trees: dict[int, search.Tree] = {}
        self.reuse = reuse
        self.worlds = worlds
        self._kept: dict[int, tuple[State, search.Subtree]] = {}
        self.simulations = 0

    def _tree(self, kingdoms: int) -> search.Tree:
        if kingdoms not in self.trees:
            self.trees[kingdoms] = search.new_tree(self.max_nodes, kingdoms)
        return self.trees[kingdoms]

    def _leaves(self, state: State) -> tuple[search.Params, network.Weights]:
        """The search settings and value network for `state`'s variant (a dummy network with the heuristic)."""
        rules = state.rules
        net, meta = self.net, self.meta
        if net is not None and rules.has_buildings:
            raise ValueError(f"{self.name}: value networks value Kingdomino positions only; in {rules.title} the "
                             f"search values its leaves by greedy playouts and the score lead (play it without a "
                             f"network file)")
        if self.shipped:
            key = (rules.game, rules.frame, rules.players)
            if key not in self._shipped:
                path = network.shipped_weights(rules)
                self._shipped[key] = network.load_weights(path) if path is not None else None
            net, meta = self._shipped[key] or (None, {})
        if net is None:
            own = self.playout_mix is not None or not rules.has_buildings
            return (self.params if own else self.params._replace(playout_mix=games.QUEENDOMINO_PLAYOUT_MIX),
                    network.empty_weights(rules.frame, 1, 1))
        if meta["frame"] != rules.frame or meta["players"] != rules.players:
            raise ValueError(f"{self.name}: its value network was trained for {meta['players']}-player games on "
                             f"a {meta['frame']}x{meta['frame']} frame, not {rules.players}-player games on a "
                             f"{rules.frame}x{rules.frame} frame")
        mix = self.playout_mix if self.playout_mix is not None else meta.get("playout_mix", DEFAULT_PLAYOUT_MIX)
        return self.params._replace(network=True, playout_mix=mix), net

    def act_batch(self, state: State, games: np.ndarray, mask: np.ndarray, obs: np.ndarray | None) -> np.ndarray:
        out = mask.argmax(axis=1).astype(np.int64)
        exact = self._exact(state, games)
        for i in np.flatnonzero(mask.sum(axis=1) > 1):
            game = int(games[i])
            if exact[i] >= 0:
                out[i] = exact[i]
                self._kept.pop(game, None)
                continue
            one = state.take([game])
            out[i] = self._choose(*self._root_search(one, game), one, mask[i])
            if self.reuse:
                self._keep(one, game, out[i])
        return out

    def _exact(self, state: State, games: np.ndarray) -> np.ndarray:
        """(len(games),) the exact best action where a game places in its last round and `endgame` is on, else -1."""
        games = np.asarray(games, dtype=np.int64)
        return final_round_actions(state, games) if self.endgame else np.full(games.size, -1, dtype=np.int64)

    def root_visits(self, state: State, game: int) -> np.ndarray:
        """(n_actions,) the visits of each root action in a search for the player to move in game `game` (going on
        from the subtree kept for that game where it holds this position)."""
        tree, _ = self._root_search(state.take([game]), game)
        visits = np.zeros(state.rules.n_actions, dtype=np.int64)
        search.root_visits(tree, visits.shape[0], visits)
        return visits

    def _root_search(self, one: State, game: int) -> tuple[search.Tree, np.ndarray | None]:
        """`_search` of the one-game state `one`, game `game` of the caller's batch (going on from the subtree kept
        for that game where it holds this position)."""
        kept = self._kept.pop(game, None)
        start = kept[1] if kept is not None and _same_position(kept[0], one) else None
        return self._search(one, *self._leaves(one), self.budget, start)

    def _choose(self, tree: search.Tree, finalists: np.ndarray | None, one: State, legal: np.ndarray) -> int:
        """The move taken from the root of `tree`, searched from the one-game state `one` whose legal actions are
        `legal` (n_actions,): the best mean among `finalists` where sequential halving named them, else as
        `choice` says."""
        n = one.rules.n_actions
        visits, means = np.zeros(n, dtype=np.int64), np.zeros(n)
        search.root_visits(tree, n, visits)
        visits[~legal] = -1
        if finalists is None and self.choice == "visits":
            return int(np.argmax(visits))
        search.root_means(tree, n, int(one.current_kingdom[0]), means)
        if finalists is not None:
            return int(finalists[np.argmax(means[finalists])])
        means[visits < MEAN_CHOICE_SHARE * visits.max()] = -np.inf
        return int(np.argmax(means))

    def _keep(self, one: State, game: int, action: int) -> None:
        """Keep the last search's subtree of `action` for game `game`'s next decision, if the same player makes it
        before a domino is drawn."""
        after = one.copy()
        core.step(after, [action])
        if after.is_over[0] or after.drawn[0] != one.drawn[0] or after.current_player[0] != one.current_player[0]:
            return
        kingdoms = one.terrain.shape[1]
        sub = search.new_subtree(min(KEPT_NODES, self.max_nodes // 2), kingdoms)
        search.keep_subtree(self._tree(kingdoms), action, one.rules.n_actions, sub)
        if sub.size[0] > 0:
            self._kept[game] = (after, sub)

    def estimate(self, state: State, game: int, seconds: float | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Search game `game` of `state` (this agent's budget, or `seconds`) and return, for each legal action of
        the player to move, best first (the move the agent would make: the exact one in the last round with
        `endgame`, else the one it would make from that search; then most visits, then the higher win share): the
        actions, the mover's mean win share and margin over the simulations through each (leaf values as the search
        values them), and their visits. An action the search did not visit gets the means over all its simulations
        (its visits stay 0)."""
        budget = self.budget if seconds is None else Budget(seconds=seconds)
        one = state.take([game])
        mask = core.legal_action_mask(one)[0]
        legal = np.flatnonzero(mask)
        tree, finalists = self._search(one, *self._leaves(state), budget)
        n = state.rules.n_actions
        visits, win, margin = np.zeros(n, dtype=np.int64), np.zeros(n), np.zeros(n)
        search.root_visits(tree, n, visits)
        search.root_outcomes(tree, n, win, margin)
        exact = self._exact(state, np.array([game]))[0]
        chosen = int(exact) if exact >= 0 else self._choose(tree, finalists, one, mask)
        legal = legal[np.lexsort((-win[legal], -visits[legal], legal != chosen))]
        return legal, win[legal], margin[legal], visits[legal]

    def _search(self, game: State, params: search.Params, net: network.Weights, budget: Budget,
                start: search.Subtree | None = None) -> tuple[search.Tree, np.ndarray | None]:
        """The tree of a search from the one-game state `game` with `budget`, going on from `start` if given, and
        the actions of sequential halving's last round (None under PUCT)."""
        tree = self._tree(game.terrain.shape[1])
        n = game.rules.n_actions
        if start is None:
            search.reset_tree(tree)
        else:
            search.restore_subtree(tree, start, n)
        search.seed(int(self.rng.integers(2**31)))
        simulate = self._simulator(game, tree, params, net)
        left = budget.playouts
        start_time = time.perf_counter()
        deadline = start_time + budget.seconds if budget.seconds is not None else None

        def run(sims: int, action: int = -1) -> bool:
            """Run up to `sims` simulations (through root action `action` unless -1); whether all of them ran."""
            ran = simulate(sims, action)
            self.simulations += ran
            return ran == sims

        if self.halving:
            return tree, self._halve(game, tree, run, budget.playouts, start_time, deadline)
        while left is None or left > 0:
            chunk = CHUNK if left is None else min(left, CHUNK_PLAYOUTS)
            if not run(chunk) or (deadline is not None and time.perf_counter() >= deadline):
                break
            if left is not None:
                left -= chunk
        return tree, None

    def _simulator(self, game: State, tree: search.Tree, params: search.Params, net: network.Weights
                   ) -> Callable[[int, int], int]:
        """simulate(sims, action) -> simulations run: the compiled search of the one-game state `game` into `tree`
        (its root already reset or restored), for the game's rules."""
        pos = search.position(game)
        worlds = search.new_worlds(self.worlds, pos)
        search.root_visits(tree, pos.n_actions, worlds.base)
        search.sample_worlds(pos, worlds)
        return lambda sims, action: search.simulate(pos, tree, sims, params, DEFAULT_WEIGHTS, net, worlds, action)

    def _halve(self, game: State, tree: search.Tree, run, playouts: int | None, start_time: float,
               deadline: float | None) -> np.ndarray:
        """Sequential halving over the legal root actions of the one-game state `game`, with `playouts`
        simulations or until `deadline` (a search started at `start_time`): each round raises every
        action still in to the same number of simulations (its share of the budget, one more at least) and keeps
        the better half by the mover's mean utility. A round's share is what is left of the budget over the rounds
        left (under a time budget: the time left at the pace so far, a first simulation per action setting it, and
        the last round goes on until the deadline). Returns the actions of the last round played."""
        alive = np.flatnonzero(core.legal_action_mask(game)[0])
        n = game.rules.n_actions
        kingdom = int(game.current_kingdom[0])
        own = np.zeros(n, dtype=np.int64)
        means = np.zeros(n)

        def top_up(target: int) -> bool:
            """Raise every action in `alive` to `target` simulations; whether the budget and the tree allowed it."""
            for a in alive:
                need = int(target - own[a])
                if need > 0:
                    if deadline is not None and time.perf_counter() >= deadline:
                        return False
                    own[a] = target
                    if not run(need, int(a)):
                        return False
            return True

        if not top_up(1):
            return alive
        rounds = max(1, int(np.ceil(np.log2(alive.size))))
        target = 0
        for r in range(rounds):
            spent = int(own.sum())
            left = playouts - spent if deadline is None else (
                spent * (deadline - time.perf_counter()) / max(time.perf_counter() - start_time, 1e-9))
            target += max(1, int(left / (rounds - r) / alive.size))
            if not top_up(target):
                return alive
            while r == rounds - 1 and deadline is not None and time.perf_counter() < deadline:
                target += FINAL_STEP
                if not top_up(target):
                    return alive
            search.root_means(tree, n, kingdom, means)
            alive = alive[np.argsort(-means[alive], kind="stable")][:(alive.size + 1) // 2]
        return alive


def _same_position(a: State, b: State) -> bool:
    """Whether the one-game states `a` and `b` are the same position of the same variant, as far as the player to
    move can see (the entries of a hidden order not yet drawn, `HIDDEN_ORDERS`, are not compared)."""
    if a.rules != b.rules:
        return False
    for name, array in a._arrays().items():
        other = getattr(b, name)
        if name in HIDDEN_ORDERS:
            seen = int(getattr(a, HIDDEN_ORDERS[name])[0])
            array, other = array[:, :seen], other[:, :seen]
        if not np.array_equal(array, other):
            return False
    return True


def _is_number(value: object) -> bool:
    """Whether `value` is a real number (not a bool)."""
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
