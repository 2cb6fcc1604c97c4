"""Learned priors for the compiled search: the weights of `agents.csearch.priors`' action features fitted to the
root visits of deeper searches.

    python -m training.csearch_priors collect --variant duel --games 100 --simulations 800 --out visits.npz
    python -m training.csearch_priors fit --variant duel --data visits*.npz --out priors.json

`collect` plays games by `CompiledSearchAgent` (the shipped value network, the given priors) at `--simulations` a
decision and keeps, for every decision searched (more than one legal action, not the last round that the search
plays exactly), each legal action's prior features and root visits. The first `OPENING_MOVES` decisions of a game
are drawn in proportion to the visits, so that games differ. Ctrl-C writes the games that finished.

`fit` finds the weights whose softmax over each decision's legal actions is closest to the visits' shares (cross
entropy, convex in the weights), from the hand-set weights, on every game but a tenth held out. It reports the
held-out cross entropy and the mean prior of the most visited action, for the hand-set and the fitted weights, and
writes the fitted weights with those figures (`priors.save`). `CompiledSearchAgent(..., priors=PATH)` searches with
them.
"""

from __future__ import annotations

import argparse
import glob
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from agents.budget import Budget
from agents.csearch import network, priors, search
from agents.csearch.agent import CompiledSearchAgent
from kingdomino_env import core
from kingdomino_env.files import write_atomic
from kingdomino_env.rules import Rules
from training.csearch_net import OPENING_MOVES, VARIANTS, SelfplayInterrupted, check_counts_and_out, play_games

#: The most bytes a visits file may hold unpacked.
MAX_DATA_BYTES = 1 << 30
#: The largest value each count option takes.
MAX_COUNTS = {"games": 10**6, "simulations": 10**7}
#: The share of games `fit` holds out to measure the weights.
HELD_OUT_SHARE = 0.1
#: Passes of L-BFGS over the data (the loss is convex in the weights; it settles in far fewer).
FIT_STEPS = 200


@dataclass
class Visits:
    """The searched decisions of some games: features (M, F) f32, one row per legal action of each decision
    (`priors.FEATURES`), visits (M,) f32 its root visits, decision (M,) int64 the decision it belongs to (0 to D - 1,
    in order); game (D,) int64 the game of each decision (unique across files: seed * 2**20 + game number)."""

    features: np.ndarray
    visits: np.ndarray
    decision: np.ndarray
    game: np.ndarray

    def save(self, path: Path) -> None:
        write_atomic(path, lambda temporary: np.savez_compressed(temporary, **self.__dict__), suffix=".npz")

    @classmethod
    def load(cls, paths: list[Path]) -> Visits:
        """The decisions of several files in order; ValueError naming a file that is not such data."""
        parts = []
        for path in paths:
            network.check_npz(path, "csearch root visits", MAX_DATA_BYTES)
            try:
                with np.load(path, allow_pickle=False) as stored:
                    part = cls(*(stored[name] for name in cls.__dataclass_fields__))
            except (OSError, ValueError, KeyError) as err:
                raise ValueError(f"{path} is not csearch root visits: {err}") from None
            rows, decisions = part.visits.shape[0], part.game.shape[0]
            if (part.features.shape != (rows, len(priors.FEATURES)) or part.decision.shape != (rows,)
                    or part.game.ndim != 1 or rows == 0
                    or np.any(np.diff(part.decision) < 0) or part.decision[0] != 0
                    or part.decision[-1] != decisions - 1 or np.any(part.visits < 0)):
                raise ValueError(f"{path} is damaged: it must hold features ({rows}, {len(priors.FEATURES)}), "
                                 f"visits and decisions ({rows},) in order from 0, and a game per decision")
            parts.append(part)
        offsets = np.cumsum([0] + [p.game.shape[0] for p in parts[:-1]])
        return cls(np.concatenate([p.features for p in parts]), np.concatenate([p.visits for p in parts]),
                   np.concatenate([p.decision + o for p, o in zip(parts, offsets, strict=True)]),
                   np.concatenate([p.game for p in parts]))

    def subset(self, decisions: np.ndarray) -> Visits:
        """The decisions `decisions` (a bool mask over them), renumbered from 0."""
        rows = decisions[self.decision]
        renumber = np.cumsum(decisions) - 1
        return Visits(self.features[rows], self.visits[rows], renumber[self.decision[rows]], self.game[decisions])


def collect(rules: Rules, games: int, simulations: int, seed: int, agent_priors: str = "hand",
            progress: bool = False) -> Visits:
    """The searched decisions of `games` games of `rules` played by `CompiledSearchAgent` at `simulations` a
    decision (shipped value network, priors `agent_priors`). Ctrl-C after a game has finished raises
    `SelfplayInterrupted` holding the finished games' decisions."""
    agent = CompiledSearchAgent(Budget(playouts=simulations), seed=seed, shipped=True, priors=agent_priors)
    rng = np.random.default_rng(seed)
    return play_games(games, lambda number: _game_rows(agent, rules, rng, seed * 2**20 + number), _as_visits,
                      progress, "decisions")


def _game_rows(agent: CompiledSearchAgent, rules: Rules, rng: np.random.Generator, game_id: int
               ) -> list[tuple[np.ndarray, np.ndarray, int]]:
    """(features, visits, game) of each searched decision of one game."""
    state = core.new_games(rules, [int(rng.integers(2**62))])
    weights = agent.prior_weights
    actions = np.zeros(rules.n_actions, dtype=np.int64)
    logits = np.zeros(rules.n_actions)
    features = np.zeros((rules.n_actions, len(priors.FEATURES)))
    rows = []
    while not state.is_over[0]:
        mask = core.legal_action_mask(state)
        if mask[0].sum() == 1 or agent._exact(state, np.zeros(1, dtype=np.int64))[0] >= 0:
            action = int(agent.act(state, np.zeros(1, dtype=np.int64), mask, None)[0])
        else:
            visits = agent.root_visits(state, 0)
            n = search.root_priors(search.position(state), weights, actions, logits, features)
            rows.append((features[:n].astype(np.float32), visits[actions[:n]].astype(np.float32), game_id))
            if len(rows) <= OPENING_MOVES:
                action = int(rng.choice(actions[:n], p=rows[-1][1] / rows[-1][1].sum()))
            else:
                action = int(actions[np.argmax(rows[-1][1])])
        core.step(state, [action])
    return rows


def _as_visits(rows: list[tuple[np.ndarray, np.ndarray, int]]) -> Visits:
    return Visits(np.concatenate([r[0] for r in rows]), np.concatenate([r[1] for r in rows]),
                  np.repeat(np.arange(len(rows)), [r[1].shape[0] for r in rows]),
                  np.array([r[2] for r in rows], dtype=np.int64))


def cross_entropy(data: Visits, weights: torch.Tensor) -> torch.Tensor:
    """The mean over decisions of the cross entropy of the visits' shares against the softmax of the weighted
    features over each decision's legal actions."""
    features = torch.as_tensor(data.features, dtype=torch.float64)
    visits = torch.as_tensor(data.visits, dtype=torch.float64)
    decision = torch.as_tensor(data.decision)
    decisions = data.game.shape[0]
    logits = features @ weights
    top = torch.zeros(decisions, dtype=torch.float64).scatter_reduce(0, decision, logits, "amax", include_self=False)
    sums = torch.zeros(decisions, dtype=torch.float64).index_add(0, decision, torch.exp(logits - top[decision]))
    log_prior = logits - top[decision] - torch.log(sums[decision])
    totals = torch.zeros(decisions, dtype=torch.float64).index_add(0, decision, visits)
    return -(visits / totals[decision] * log_prior).sum() / decisions


def chosen_prior(data: Visits, weights: np.ndarray) -> float:
    """The mean over decisions of the prior (the softmax of the weighted features) of the most visited action."""
    logits = data.features.astype(np.float64) @ weights
    decisions = data.game.shape[0]
    top = np.full(decisions, -np.inf)
    np.maximum.at(top, data.decision, logits)
    share = np.exp(logits - top[data.decision])
    total = np.zeros(decisions)
    np.add.at(total, data.decision, share)
    order = np.lexsort((-data.visits, data.decision))
    first = order[np.r_[True, data.decision[order][1:] != data.decision[order][:-1]]]
    return float(np.mean(share[first] / total[data.decision[first]]))


def fit(data: Visits, seed: int = 0) -> tuple[np.ndarray, dict]:
    """(fitted weights, figures): weights fitted on all games but `HELD_OUT_SHARE` of them (drawn by `seed`), and
    the held-out cross entropy and chosen prior (`chosen_prior`) of the hand-set and the fitted weights."""
    games = np.unique(data.game)
    rng = np.random.default_rng(seed)
    held = rng.choice(games, size=max(1, int(round(games.size * HELD_OUT_SHARE))), replace=False)
    if held.size == games.size:
        raise ValueError(f"the data holds {games.size} game(s): fitting needs at least two, one to hold out")
    held_mask = np.isin(data.game, held)
    train, test = data.subset(~held_mask), data.subset(held_mask)
    weights = torch.tensor(priors.HAND_WEIGHTS, dtype=torch.float64, requires_grad=True)
    optimiser = torch.optim.LBFGS([weights], max_iter=FIT_STEPS, line_search_fn="strong_wolfe")

    def closure() -> torch.Tensor:
        optimiser.zero_grad()
        loss = cross_entropy(train, weights)
        loss.backward()
        return loss

    optimiser.step(closure)
    fitted = np.clip(weights.detach().numpy(), -priors.MAX_WEIGHT, priors.MAX_WEIGHT)
    with torch.no_grad():
        figures = {
            "games": int(games.size), "decisions": int(data.game.shape[0]), "held_out_games": int(held.size),
            "held_out_cross_entropy": {
                "hand": float(cross_entropy(test, torch.as_tensor(priors.HAND_WEIGHTS))),
                "fitted": float(cross_entropy(test, torch.as_tensor(fitted)))},
            "held_out_chosen_prior": {"hand": chosen_prior(test, priors.HAND_WEIGHTS),
                                      "fitted": chosen_prior(test, fitted)},
        }
    return fitted, figures


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m training.csearch_priors` (subcommands collect, fit)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True, help="what to do")
    variant = {"choices": list(VARIANTS), "default": "duel", "help": "the variant (default: %(default)s)"}
    play = sub.add_parser("collect", help="play games and keep every searched decision's root visits",
                          description="Play games and keep every searched decision's root visits.")
    play.add_argument("--variant", **variant)
    play.add_argument("--games", type=int, default=100, help="games to play (default: %(default)s)")
    play.add_argument("--simulations", type=int, default=800, help="simulations a decision (default: %(default)s)")
    play.add_argument("--priors", default="hand",
                      help="the priors the searches use: hand or a priors file (default: %(default)s)")
    play.add_argument("--seed", type=int, default=0, help="seed of the deals and the searches (default: %(default)s)")
    play.add_argument("--out", type=Path, required=True, help="the visits file to write (.npz)")
    learn = sub.add_parser("fit", help="fit the priors' weights to root visits",
                           description="Fit the priors' weights to root visits.")
    learn.add_argument("--variant", **variant)
    learn.add_argument("--data", nargs="+", required=True, help="visits files (glob patterns allowed)")
    learn.add_argument("--seed", type=int, default=0, help="seed of the held-out games (default: %(default)s)")
    learn.add_argument("--out", type=Path, required=True, help="the priors file to write (.json)")
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    check_counts_and_out(parser, args, MAX_COUNTS)
    try:
        if args.command == "collect":
            _collect(args)
        else:
            _fit(args)
    except ValueError as err:
        parser.error(str(err))
    except KeyboardInterrupt:
        sys.exit(130)


def _collect(args: argparse.Namespace) -> None:
    rules = VARIANTS[args.variant]
    CompiledSearchAgent(Budget(playouts=1), priors=args.priors)
    try:
        data = collect(rules, args.games, args.simulations, args.seed, args.priors, progress=True)
    except SelfplayInterrupted as stop:
        stop.data.save(args.out)
        print(f"interrupted: kept {stop.games} finished game(s), {stop.data.game.shape[0]} decisions -> {args.out}")
        sys.exit(130)
    data.save(args.out)
    print(f"{args.games} games, {data.game.shape[0]} decisions -> {args.out}")


def _fit(args: argparse.Namespace) -> None:
    paths = sorted({Path(p) for pattern in args.data for p in (glob.glob(pattern) or [pattern])})
    data = Visits.load(paths)
    weights, figures = fit(data, args.seed)
    meta = {"variant": args.variant, "data": [p.name for p in paths], **figures}
    priors.save(args.out, weights, meta)
    ce, chosen = figures["held_out_cross_entropy"], figures["held_out_chosen_prior"]
    print(f"{figures['decisions']} decisions of {figures['games']} games; held out {figures['held_out_games']}: "
          f"cross entropy {ce['hand']:.4f} hand, {ce['fitted']:.4f} fitted; prior of the most visited action "
          f"{chosen['hand']:.3f} hand, {chosen['fitted']:.3f} fitted -> {args.out}")
    for name, w in zip(priors.FEATURES, weights.tolist(), strict=True):
        print(f"  {name:>14} {w:+.3f}")


if __name__ == "__main__":
    main()
