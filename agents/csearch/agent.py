"""`CompiledSearchAgent`: the compiled search with a budget per move, for every game and variant (Kingdomino's
one `search.simulate` over each game's compiled kernels)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from kingdomino_env import core
from kingdomino_env.core import State

from ..base import Agent
from ..budget import MAX_PLAYOUTS, Budget
from ..heuristic_kernel import DEFAULT_WEIGHTS
from ..kingdomino_endgame import final_round_actions
from . import games, network, priors, search
from .inputs import inputs_of
from .settings import DEFAULT_PLAYOUT_MIX, HAND_PRIORS, MARGIN_SEEKING, Settings

__all__ = ["MARGIN_SEEKING", "CompiledSearchAgent", "Settings"]

#: Simulations run between two looks at the clock under a time budget.
CHUNK = 64
#: Simulations run in one compiled call under a simulation budget (any budget, however large, runs in such calls).
CHUNK_PLAYOUTS = 1 << 20
#: Each hidden order of a game and the array counting its entries already seen: positions from that count on are
#: not compared when deciding whether a kept subtree still holds a position.
HIDDEN_ORDERS = {"deck": "drawn", "pile": "pile_pos"}
#: The most nodes of a subtree kept from one move's search for the next decision of the same player.
KEPT_NODES = 1 << 13
#: Under `choice="mean"`, the share of the most visits a root action needs to be chosen by its mean utility.
MEAN_CHOICE_SHARE = 0.5
#: Simulations given to each finalist at a time while sequential halving's last round runs to a deadline.
FINAL_STEP = 8


class CompiledSearchAgent(Agent):
    """Open-loop PUCT over sampled worlds, compiled; plays the root's most visited legal action. Leaves are valued
    as `games` says: a value network (reading the game's `inputs`) or, without one, the heuristic (Kingdomino) or
    the score lead (Queendomino, the Royal Wedding), mixed with a compiled playout.

    budget: simulations (`Budget(playouts=N)`) or seconds per move. weights: a value network file
    (`network.save_weights`) valuing the leaves; shipped: without one, value them by the shipped network of each
    game's frame and player count where there is one; otherwise the heuristic values them. settings: how it
    searches (`Settings`), with the fields named in `options` changed (`CompiledSearchAgent(budget, worlds=0)`).
    Decisions with a single legal action are played at once.
    """

    def __init__(self, budget: Budget, seed: int | None = None, name: str | None = None,
                 weights: str | Path | None = None, shipped: bool = False, settings: Settings | None = None,
                 **options: object):
        self.settings = settings = Settings.of(settings, **options)
        self.budget = budget
        self.net, self.meta = network.load_weights(weights) if weights is not None else (None, {})
        self.shipped = shipped and weights is None
        self._shipped: dict[tuple[str, int, int], tuple[network.Weights, dict] | None] = {}
        self.params = search.Params(settings.c_puct, settings.margin_weight, settings.margin_softness,
                                    settings.value_scale, False,
                                    DEFAULT_PLAYOUT_MIX if settings.playout_mix is None else settings.playout_mix,
                                    settings.playout == "heuristic", settings.endgame)
        #: The weights of the priors' features (`priors.FEATURES`) it searches with (`Settings`' priors).
        self.prior_weights = (priors.HAND_WEIGHTS if settings.priors == HAND_PRIORS
                              else priors.load(settings.priors)[0])
        self.rng = np.random.default_rng(seed)
        self.name = name or f"csearch:{budget}"
        self.trees: dict[int, search.Tree] = {}
        self._kept: dict[int, tuple[State, search.Subtree]] = {}
        self.simulations = 0

    def _tree(self, kingdoms: int) -> search.Tree:
        if kingdoms not in self.trees:
            self.trees[kingdoms] = search.new_tree(self.settings.max_nodes, kingdoms)
        return self.trees[kingdoms]

    def _leaves(self, state: State) -> tuple[search.Params, network.Weights]:
        """The search settings and value network for `state`'s variant (a dummy network where none values the
        leaves: the heuristic's in Kingdomino, the score lead's in Queendomino and the Royal Wedding)."""
        rules = state.rules
        net, meta = self.net, self.meta
        if self.shipped:
            key = (rules.game, rules.frame, rules.players)
            if key not in self._shipped:
                path = network.shipped_weights(rules)
                self._shipped[key] = network.load_weights(path) if path is not None else None
            net, meta = self._shipped[key] or (None, {})
        if net is None:
            own = self.settings.playout_mix is not None or not rules.has_buildings
            return (self.params if own else self.params._replace(playout_mix=games.QUEENDOMINO_PLAYOUT_MIX),
                    network.empty_weights(rules.frame, 1, 1, inputs=inputs_of(rules)))
        network.check_plays(meta, rules, self.name)
        mix = self.settings.playout_mix
        if mix is None:
            mix = meta.get("playout_mix", DEFAULT_PLAYOUT_MIX)
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
            if self.settings.reuse:
                self._keep(one, game, out[i])
        return out

    def _exact(self, state: State, games: np.ndarray) -> np.ndarray:
        """(len(games),) the exact best action where a game places in its last round and `endgame` is on, else -1."""
        games = np.asarray(games, dtype=np.int64)
        return final_round_actions(state, games) if self.settings.endgame else np.full(games.size, -1, dtype=np.int64)

    def root_visits(self, state: State, game: int) -> np.ndarray:
        """(n_actions,) the visits of each root action in a search for the player to move in game `game` (going on
        from the subtree kept for that game where it holds this position)."""
        tree, _ = self._root_search(state.take([game]), game)
        visits = np.zeros(state.rules.n_actions, dtype=np.int64)
        search.root_visits(tree, visits.shape[0], visits)
        return visits

    def playout_outcomes(self, state: State, game: int, count: int) -> tuple[np.ndarray, np.ndarray]:
        """(win shares, margins) (K,): each kingdom's mean over `count` of this agent's leaf playouts from game
        `game` of `state` (unfinished), each in a world of its own; what a value network trained on them (as
        `training.csearch_net` can) learns to give in their place."""
        if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or not 1 <= count <= MAX_PLAYOUTS:
            raise ValueError(f"count must be a whole number from 1 to {MAX_PLAYOUTS} playouts, got {count!r}")
        if isinstance(game, bool) or not isinstance(game, (int, np.integer)) or not 0 <= game < state.batch_size:
            raise ValueError(f"game must be one of the state's games, 0 to {state.batch_size - 1}, got {game!r}")
        one = state.take([game])
        if one.is_over[0]:
            raise ValueError(f"game {game} is over: playouts start from an unfinished game")
        params, net = self._leaves(one)
        kingdoms = one.terrain.shape[1]
        win, margin = np.zeros(kingdoms), np.zeros(kingdoms)
        search.seed(int(self.rng.integers(2**31 - 1)))
        search.playout_outcomes(search.position(one), params._replace(playout_mix=1.0), DEFAULT_WEIGHTS, net, count,
                                win, margin)
        return win, margin

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
        if finalists is None and self.settings.choice == "visits":
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
        sub = search.new_subtree(min(KEPT_NODES, self.settings.max_nodes // 2), kingdoms)
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

        if self.settings.root == "halving":
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
        worlds = search.new_worlds(self.settings.worlds, pos)
        search.root_visits(tree, pos.n_actions, worlds.base)
        search.sample_worlds(pos, worlds)
        weights = self.prior_weights
        return lambda sims, action: search.simulate(pos, tree, sims, params, DEFAULT_WEIGHTS, net, weights, worlds,
                                                    action)

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
