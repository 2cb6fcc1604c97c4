"""`python -m kingdomino_env`: a quick look at the engine: one game drawn as text, then a batch of games."""

from __future__ import annotations

import argparse
import time

import numpy as np

from . import core, render
from .policies import GreedyPolicy, RandomPolicy
from .rules import Rules


def play(rules: Rules, seeds: list[int], policies: list) -> core.State:
    """Play the games of `seeds` to the end, seat p acting with policies[p]."""
    state = core.new_games(rules, seeds)
    while not state.is_over.all():
        mask = core.legal_action_mask(state)
        mover = state.current_player
        actions = np.zeros(state.batch_size, dtype=np.int64)
        for seat, policy in enumerate(policies):
            games = np.flatnonzero(mover == seat)
            if games.size:
                actions[games] = policy.act(state, games, mask[games], None)
        core.step(state, actions)
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rules = Rules(args.players)
    policies = [GreedyPolicy(args.seed)] + [RandomPolicy(args.seed + p) for p in range(1, args.players)]
    names = ["greedy"] + [f"random_{p}" for p in range(1, args.players)]
    print(render.ansi(play(rules, [args.seed], policies), names=names))
    start = time.perf_counter()
    state = play(rules, list(range(args.seed, args.seed + args.games)), policies)
    elapsed = time.perf_counter() - start
    wins = core.ranks(state) == 0
    print(f"\n{args.games} games of {args.players} players in {elapsed:.2f} s")
    print(f"{'seat':<10}{'win rate':>10}{'mean score':>12}")
    for p, name in enumerate(names):
        print(f"{name:<10}{wins[:, p].mean():>10.1%}{state.scores[:, p].mean():>12.1f}")


if __name__ == "__main__":
    main()
