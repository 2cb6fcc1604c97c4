"""Training data of `az` networks: positions from self-play (search targets) or from Full Greedy games (the warm
start), and the replay buffer that holds them.

A position is the observation of the player to move (float16; the network's inputs are encoded from it per
batch, `agents.az.features.encode`), which of the run's variants it was played in, its legal mask (packed bits),
the policy target (the root's visit shares, or the teacher's action) and the value targets seen from the mover:
each kingdom's share of the win and margin (own score minus the best other), egocentric (the mover's first). A
kingdom is a player's, or a team's in the Royal Wedding's team games.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields

import numpy as np

from kingdomino_env import core
from kingdomino_env.core import State
from kingdomino_env.policies import greedy_actions
from kingdomino_env.rules import Rules


@dataclass
class Positions:
    """N positions: obs (N, O) f16, variant (N,) i8, mask (N, ceil(A / 8)) packed u8, policy (N, A) f16,
    win (N, K) f32, margin (N, K) f32 (K kingdoms)."""

    obs: np.ndarray
    variant: np.ndarray
    mask: np.ndarray
    policy: np.ndarray
    win: np.ndarray
    margin: np.ndarray

    def __len__(self) -> int:
        return self.obs.shape[0]

    def take(self, index: np.ndarray) -> Positions:
        return Positions(*(getattr(self, f.name)[index] for f in fields(self)))

    @staticmethod
    def concat(parts: list[Positions]) -> Positions:
        return Positions(*(np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(Positions)))

    def unpacked_mask(self, n_actions: int) -> np.ndarray:
        return np.unpackbits(self.mask, axis=1, count=n_actions).astype(bool)

    def save(self, path: str) -> None:
        np.savez(path, **{f.name: getattr(self, f.name) for f in fields(self)})

    @staticmethod
    def load(path: str) -> Positions:
        with np.load(path) as data:
            return Positions(*(data[f.name] for f in fields(Positions)))


class Recorder:
    """Collects the decisions of a batch of games, then their value targets once the games are over."""

    def __init__(self, state: State, variant: np.ndarray):
        self.state = state
        self.variant = variant
        self.rows: list[tuple[np.ndarray, ...]] = []

    def record(self, games: np.ndarray, mask: np.ndarray, policy: np.ndarray) -> None:
        """Keep the positions of `games` (their player to move) with their legal masks and policy targets."""
        state = self.state
        obs = core.observe(state.take(games))
        self.rows.append((games, state.current_player[games], obs.astype(np.float16), np.packbits(mask, axis=1),
                          policy.astype(np.float16)))

    def positions(self) -> Positions:
        """Every recorded position with its value targets (the games must be over)."""
        state = self.state
        rules = state.rules
        first_seats = [rules.kingdom_seats(k)[0] for k in range(rules.kingdoms)]
        win = core.win_shares(state)[:, first_seats]
        margin = core.rewards(state, "margin")[:, first_seats]
        games, movers, obs, masks, policy = (np.concatenate(c) for c in zip(*self.rows, strict=True))
        own = np.asarray(rules.seat_kingdoms)[movers]
        kingdoms = (own[:, None] + np.arange(rules.kingdoms)[None]) % rules.kingdoms
        return Positions(obs, self.variant[games].astype(np.int8), masks, policy,
                         np.take_along_axis(win[games], kingdoms, axis=1).astype(np.float32),
                         np.take_along_axis(margin[games], kingdoms, axis=1).astype(np.float32))


def new_games(variants: list[Rules], games: int, rng: np.random.Generator) -> tuple[list[State], list[np.ndarray]]:
    """`games` new games spread evenly over `variants` (one state per variant), seeded from `rng`."""
    counts = np.bincount(rng.integers(len(variants), size=games), minlength=len(variants))
    states, variant_ids = [], []
    for v, (rules, count) in enumerate(zip(variants, counts, strict=True)):
        if count:
            states.append(core.new_games(rules, rng.integers(2**63, size=count)))
            variant_ids.append(np.full(count, v))
    return states, variant_ids


#: (state, games with a choice, their legal masks) -> (actions to play, policy targets (n, A)).
Decide = Callable[[State, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


def play_games(variants: list[Rules], games: int, rng: np.random.Generator, decide: Decide) -> Positions:
    """Play `games` games spread over `variants`, all of a variant at once: forced moves are played, every other
    decision is made by `decide` and recorded with its policy target."""
    parts = []
    for state, variant in zip(*new_games(variants, games, rng), strict=True):
        recorder = Recorder(state, variant)
        while not state.is_over.all():
            live = np.flatnonzero(~state.is_over)
            mask = core.legal_action_mask(state)[live]
            actions = np.zeros(state.batch_size, dtype=np.int64)
            actions[live] = mask.argmax(axis=1)
            choice = mask.sum(axis=1) > 1
            if choice.any():
                played, targets = decide(state, live[choice], mask[choice])
                recorder.record(live[choice], mask[choice], targets)
                actions[live[choice]] = played
            core.step(state, actions)
        parts.append(recorder.positions())
    return Positions.concat(parts)


def greedy_positions(variants: list[Rules], games: int, seed: int, explore: float = 0.1) -> Positions:
    """Positions of Full Greedy self-play (a share `explore` of random moves, so states off its path are seen
    too), each labelled with the greedy action and the game's outcome: the warm start's data."""
    rng = np.random.default_rng(seed)

    def decide(state: State, games: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        teacher = greedy_actions(state, games, rng)
        target = np.zeros(mask.shape, dtype=np.float32)
        target[np.arange(games.size), teacher] = 1
        played = np.where(rng.random(games.size) < explore, core.random_legal_actions(mask, rng), teacher)
        return played, target

    return play_games(variants, games, rng, decide)


class ReplayBuffer:
    """The last `capacity` positions (oldest dropped first)."""

    def __init__(self, capacity: int):
        self.capacity = capacity
        self.data: Positions | None = None

    def add(self, positions: Positions) -> None:
        data = positions if self.data is None else Positions.concat([self.data, positions])
        self.data = data.take(np.arange(max(0, len(data) - self.capacity), len(data)))

    def __len__(self) -> int:
        return 0 if self.data is None else len(self.data)

    def sample(self, size: int, rng: np.random.Generator) -> Positions:
        assert self.data is not None
        return self.data.take(rng.integers(len(self.data), size=size))
