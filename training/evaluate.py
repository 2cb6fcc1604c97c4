"""`python -m training.evaluate model.zip --vs greedy --games 1000`: a trained policy against a baseline.

The games are a tournament (`tournament.run_tournament`) between the policy and the opponent, in the duplicate
format with seats rotated, so the figures are exactly those of `kingdomino tournament --agents
ppo:model.zip,greedy` with the same seed and game count. `--game queendomino` / `--game royal_wedding` (with
`--teams` for 6 or 8 players) evaluate policies trained on those games; in team games the policy plays as a whole
team (both seats of a team) against teams of the opponent, and its win rate is its team's.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from kingdomino_env.rules import Rules
from tournament.config import TournamentConfig
from tournament.runner import run_tournament


@dataclass
class Evaluation:
    games: int
    win_rate: float
    win_rate_ci: tuple[float, float]
    mean_margin: float
    mean_score: float

    def line(self, opponent: str) -> str:
        low, high = self.win_rate_ci
        return (f"{self.games} games vs {opponent}: win rate {self.win_rate:.1%} (95% CI {low:.1%}-{high:.1%}), "
                f"mean margin {self.mean_margin:+.2f}, mean score {self.mean_score:.1f}")


def evaluate(model_path: str | Path, opponent: str = "greedy", games: int = 1000, rules: Rules | None = None,
             seed: int = 0, workers: int = 1) -> Evaluation:
    """Play the policy at `model_path` against `opponent` (an agent spec) in the variant `rules` (by default the
    basic 2-player game) and return its statistics."""
    config = TournamentConfig(agents=(f"ppo=ppo:{model_path}", f"opponent={opponent}"),
                              rules=Rules() if rules is None else rules, games=games, seed=seed)
    stats = run_tournament(config, workers=workers).agents["ppo"]
    return Evaluation(stats["games"], stats["win_rate"], tuple(stats["win_rate_ci"]), stats["mean_margin"],
                      stats["mean_score"])


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """One flag per `Rules` option (`Rules.options()`, with its help text): a bool is a flag, a list of names one
    comma-separated value, any other option takes its value; `rules_from_arguments` reads them back."""
    for o in Rules.options():
        flag = "--" + o.name.replace("_", "-")
        text = o.help[:1].lower() + o.help[1:].rstrip(".")
        if o.type is bool:
            parser.add_argument(flag, action="store_true", help=f"{text} (default: off)")
        elif isinstance(o.default, tuple):
            parser.add_argument(flag, default="", help=f"comma-separated {text} (default: none)")
        elif o.default is None:
            parser.add_argument(flag, default=None, help=f"{text} (default: none)")
        else:
            parser.add_argument(flag, type=type(o.default), default=o.default, help=f"{text} (default: %(default)s)")


def add_tournament_arguments(parser: argparse.ArgumentParser, games: int) -> None:
    """--games (default `games`), --seed and --workers of a tournament between two agents."""
    parser.add_argument("--games", type=_game_count, default=games,
                        help="games to play at least, as a tournament rounds them (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and agents (default: %(default)s)")
    parser.add_argument("--workers", type=int, default=1, help="tournament worker processes (default: %(default)s)")


def _game_count(text: str) -> int:
    """A --games value: a whole number, at least 1."""
    try:
        games = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number of games, got {text!r}") from None
    if games < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {games}")
    return games


def rules_from_arguments(args: argparse.Namespace) -> Rules:
    """The `Rules` of the flags `add_rules_arguments` added (ValueError for a refused variant)."""
    options = {}
    for o in Rules.options():
        value = getattr(args, o.name)
        options[o.name] = tuple(v.strip() for v in value.split(",") if v.strip()) if isinstance(o.default, tuple) \
            else value
    return Rules.make(**options)


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m training.evaluate`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", help="a MaskablePPO .zip (or ppo:PATH's PATH) to evaluate")
    parser.add_argument("--vs", default="greedy", help="opponent agent spec (see agents.load) (default: %(default)s)")
    add_rules_arguments(parser)
    add_tournament_arguments(parser, games=1000)
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        rules = rules_from_arguments(args)
        result = evaluate(args.model, args.vs, args.games, rules, args.seed, args.workers)
    except ValueError as err:
        parser.error(str(err))
    print(result.line(args.vs))


if __name__ == "__main__":
    main()
