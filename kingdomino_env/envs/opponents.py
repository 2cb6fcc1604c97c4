"""Opponents for the training environments: who plays the seats that do not learn, and the loop that plays them.

An opponent is any `policies.Policy`. The spec strings name the reference policies: "random" (`RandomPolicy`),
"greedy" (Full Greedy, `GreedyPolicy`) and "gprd" (greedy placement, random draft). The `opponents` option of
the training environments is one of (in Queendomino too, where "greedy" and "gprd" play
`games.queendomino.greedy`'s choices):

* a spec or policy: it plays every opponent seat of every game;
* a tuple of P - 1 specs or policies: the seats learner + 1, learner + 2, ... (mod P) of every game;
* a list with one entry per game, each a spec, a policy or such a tuple ("a mix per game").

In the Royal Wedding's team games the learner is a team: both seats of the learner's team learn (they share the
policy), so a tuple lists P - 2 opponents, for the seats after the learner's team (2t + 2, 2t + 3, ... mod P).

Policies made from spec strings are owned by the environment: one instance per distinct spec, re-seeded from the
environment's seed on every seeded reset, so that runs are reproducible. Policy objects passed in are used as they
are (shared, never re-seeded): seed them yourself if they are random.

`Opponents.advance` plays the opponents of all games at once: while some game has an opponent to move, it gathers
those games, asks each policy for the actions of its games (one batched call per policy) and steps them together.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import core
from ..core import IllegalActionError, State
from ..policies import GreedyPolicy, Policy, RandomPolicy
from ..rules import Rules

#: The spec strings accepted for an opponent, and the policy each makes from a seed.
OPPONENT_SPECS: dict[str, Callable[[int | None], Policy]] = {
    "random": lambda seed: RandomPolicy(seed),
    "greedy": lambda seed: GreedyPolicy(seed),
    "gprd": lambda seed: GreedyPolicy(seed, random_draft=True),
}

OpponentSpec = str | Policy


def _describe(entry: Any) -> str:
    return repr(entry) if isinstance(entry, str) else type(entry).__name__


class Opponents:
    """The opponents of `num_games` games of `rules`, from an `opponents` option (see the module docstring)."""

    def __init__(self, rules: Rules, num_games: int, opponents: Any):
        self.rules = rules
        self.num_games = num_games
        self.policies: list[Policy] = []
        self.owned: list[int] = []  # indices of the policies made here from spec strings (re-seeded on reset)
        self._index: dict[Any, int] = {}
        per_game = opponents if isinstance(opponents, list) else [opponents] * num_games
        if len(per_game) != num_games:
            raise ValueError(f"opponents must be one spec or policy, or a list of one entry per game "
                             f"({num_games} games), got a list of {len(per_game)}")
        #: Seats of the learner per game: its team's two in team games (seats 2t and 2t + 1), else one.
        self.team_size = rules.players // rules.kingdoms
        n_opp = self.n_opponents = rules.players - self.team_size
        #: (B, n_opponents) policy index of the seats after the learner's (its team's) seats, in order.
        self.entries = np.empty((num_games, n_opp), dtype=np.int64)
        for b, entry in enumerate(per_game):
            if isinstance(entry, list | tuple):
                if len(entry) != n_opp:
                    seats = (f"the seats after the learner's team ({n_opp} of them)" if rules.shared_kingdoms
                             else f"seats learner + 1 .. learner + {n_opp}")
                    raise ValueError(f"opponents entry of game {b} lists {len(entry)} opponents; a {rules.players}-"
                                     f"player game has {n_opp} ({seats})")
                self.entries[b] = [self._policy_index(e) for e in entry]
            else:
                self.entries[b] = self._policy_index(entry)

    def _policy_index(self, entry: Any) -> int:
        if isinstance(entry, str):
            if entry not in OPPONENT_SPECS:
                raise ValueError(f"unknown opponent {entry!r}; allowed: {', '.join(map(repr, OPPONENT_SPECS))} "
                                 "or a Policy object (needs_observation and act(state, games, mask, obs))")
            key: Any = entry
        elif isinstance(entry, Policy):
            key = id(entry)
        else:
            raise ValueError(f"an opponent must be one of {', '.join(map(repr, OPPONENT_SPECS))} or a Policy "
                             f"object (needs_observation and act(state, games, mask, obs)), got {_describe(entry)}")
        if key not in self._index:
            self._index[key] = len(self.policies)
            if isinstance(entry, str):
                self.owned.append(len(self.policies))
                self.policies.append(OPPONENT_SPECS[entry](None))
            else:
                self.policies.append(entry)
        return self._index[key]

    def seed(self, seeds: Sequence[np.random.SeedSequence]) -> None:
        """Re-seed the policies made from spec strings, one child seed each (needs len(self.owned) seeds)."""
        for i, seed in zip(self.owned, seeds, strict=True):
            self.policies[i].rng = np.random.default_rng(seed)  # type: ignore[attr-defined]

    def table(self, learner_seat: np.ndarray, games: np.ndarray | None = None) -> np.ndarray:
        """(len(games), P) policy index of each seat of `games` (default all) given their learner seats (one per
        game); -1 marks the learner (both seats of its team in team games)."""
        entries = self.entries if games is None else self.entries[games]
        rows = np.arange(entries.shape[0])
        players = self.rules.players
        out = np.full((entries.shape[0], players), -1, dtype=np.int64)
        seat = np.asarray(learner_seat)
        last = seat - seat % self.team_size + self.team_size - 1  # the last seat of the learner's team
        for k in range(1, self.n_opponents + 1):
            out[rows, (last + k) % players] = entries[:, k - 1]
        return out

    def advance(self, state: State, table: np.ndarray) -> int:
        """Play the opponents (seats with table >= 0) until, in every game, a learner is to move or the game is
        over. Returns the number of actions taken."""
        games = np.arange(state.batch_size)
        taken = 0
        while True:
            player = state.current_player
            pid = np.where(player >= 0, table[games, np.maximum(player, 0)], -1)
            idx = np.flatnonzero(pid >= 0)
            if idx.size == 0:
                return taken
            sub = state if idx.size == state.batch_size else state.take(idx)
            mask = core.legal_action_mask(sub)
            actions = self._act(sub, pid[idx], mask)
            try:
                core.step(sub, actions)
            except IllegalActionError as err:
                bad = err.games
                raise IllegalActionError(
                    f"opponent {type(self.policies[pid[idx[bad[0]]]]).__name__} chose illegal action(s) in game(s) "
                    f"{idx[bad].tolist()[:10]}: {err}", idx[bad]) from err
            if sub is not state:
                state.put(idx, sub)
            taken += idx.size

    def _act(self, sub: State, pids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """One batched `act` call per policy present in `pids` (the policy of each game of `sub`)."""
        present = np.unique(pids)
        if present.size == 1:
            policy = self.policies[present[0]]
            obs = core.observe(sub) if policy.needs_observation else None
            return np.asarray(policy.act(sub, np.arange(sub.batch_size), mask, obs), dtype=np.int64)
        actions = np.empty(sub.batch_size, dtype=np.int64)
        for k in present:
            sel = np.flatnonzero(pids == k)
            policy = self.policies[k]
            obs = core.observe(sub.take(sel)) if policy.needs_observation else None
            actions[sel] = policy.act(sub, sel, mask[sel], obs)
        return actions
