"""The leaderboard page: shipped agents ranked per standard variant, from committed rating cards.

    python -m tournament.leaderboard        # docs/leaderboard/cards/*.json -> docs/leaderboard.md + its plot

Every figure on the page comes from a card (`kingdomino rate SPEC --variant V --out CARD.json`); the page lists
which shipped agents have no card yet rather than guessing their place.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agents import AgentSpecError, check_supports
from kingdomino_env.files import write_atomic, write_text_atomic

from .rate import CARD_FORMAT, MODE_GAMES, deals_per_anchor
from .standard import VARIANTS, read_json

DOCS = Path(__file__).resolve().parent.parent / "docs"
CARDS = DOCS / "leaderboard" / "cards"
PAGE = DOCS / "leaderboard.md"
PLOT = DOCS / "leaderboard" / "leaderboard.png"
#: Shipped agents the leaderboard wants in every variant they play, besides the variant's anchors (the shipped
#: agents at their standard budgets): the other search agents at their default budgets and the trained policies.
WANTED = ("mcts:p100", "az", "azmc", "ppo")


def wanted(variant: str) -> list[str]:
    """The specs the leaderboard wants in a variant: its anchors, then `WANTED` where they play it."""
    specs = list(VARIANTS[variant].anchors) + [s for s in WANTED if s not in VARIANTS[variant].anchors]
    return [s for s in specs if _plays(s, variant)]


def card_name(spec: str, variant: str) -> str:
    """The file name of a card in the cards folder."""
    safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in spec)
    return f"{variant}__{safe}.json"


def read_cards(folder: Path) -> list[dict[str, Any]]:
    """Every rating card in `folder` (ValueError naming a file that is not one)."""
    cards = []
    for path in sorted(folder.glob("*.json")):
        card = read_json(path, "the rating card")
        if not isinstance(card, dict) or card.get("format") != CARD_FORMAT:
            raise ValueError(f"{path} is not a rating card (format {CARD_FORMAT!r}); write one with `kingdomino rate "
                             "SPEC --variant V --out FILE.json`")
        if card.get("variant") not in VARIANTS:
            raise ValueError(f"{path}: unknown variant {card.get('variant')!r}")
        cards.append(card)
    return cards


def _plays(spec: str, variant: str) -> bool:
    try:
        check_supports(spec, VARIANTS[variant].rules)
    except AgentSpecError:
        return False
    return True


def _ms(card: dict[str, Any]) -> str:
    spm = card.get("seconds_per_move")
    return "–" if spm is None else f"{spm * 1000:.3g}"


def _range(values: list[float]) -> str:
    low, high = min(values), max(values)
    return f"{low:.1f}" if f"{low:.1f}" == f"{high:.1f}" else f"{low:.1f} to {high:.1f}"


def _wrap(lines: list[str]) -> list[str]:
    """Prose lines wrapped at 120 characters (tables, code, headings and pictures kept whole)."""
    out = []
    for line in lines:
        if len(line) <= 120 or line.startswith(("|", "#", "!", "```")):
            out.append(line)
        else:
            out += textwrap.wrap(line, 120, break_long_words=False, break_on_hyphens=False)
    return out


def _mode_line() -> str:
    by_players = sorted({v.rules.players: v for v in VARIANTS.values()}.items())
    parts = []
    for mode, games in MODE_GAMES.items():
        deals = ", ".join(f"{deals_per_anchor(v, mode)} with {p} players" for p, v in by_players)
        parts.append(f"{mode} mode plays {games} games against each anchor, rounded up to whole deals ({deals})")
    return "Modes: " + "; ".join(parts) + "."


def render(cards: Sequence[dict[str, Any]], plot_link: str | None) -> str:
    """The page's Markdown."""
    lines = [
        "# Leaderboard",
        "",
        "Shipped agents at fixed budgets, each rated on its variant's **standard scale**: an Elo scale on which Full "
        "Greedy (`greedy`) is 1000 and a 400-point lead means an expected score of 10 to 1 (a pairwise win counts "
        "1, a tie 0.5). Every figure here comes from a rating card in `docs/leaderboard/cards/`, written by "
        "`kingdomino rate`; the page is regenerated from them by `python -m tournament.leaderboard`.",
        "",
        "## How a rating is made",
        "",
        "`kingdomino rate SPEC --variant V` plays the agent against every anchor of the variant (from `random` up to "
        "a compiled search at a fixed number of simulations per move, so the anchors do not depend on the machine), "
        "on the variant's standard deals (a fixed seed per variant), duplicate format: every deal is played once "
        "with the agent in each seat; with more than two players the agent faces `players - 1` copies of one "
        "anchor. Each game gives one outcome per opponent seat. The rating is the maximum-likelihood one against the "
        "anchors' frozen ratings, with one virtual draw against Full Greedy as a weak prior (so an agent that wins "
        "or loses everything stays finite), and the interval is a 95% profile-likelihood interval. The outcomes of "
        "one multi-player game are counted as independent, so those intervals are somewhat too narrow.",
        "",
        "The anchors' ratings were fitted once, by `python -m tournament.calibrate`, from games between "
        "neighbouring anchors, and are frozen in `tournament/data/standard_anchors.json` (the games, seed, date, "
        "machine and load of each variant's calibration are recorded there). A card names the digest of the "
        "anchors it was rated against; cards with the same digest share one scale. Scales of different variants "
        "are not comparable. The table also keeps a digest of what the anchors make of a few fixed positions (their "
        "moves and, for the searches, their estimates): a test compares it with their play now, and when an "
        "anchor's play changes the variant is calibrated again and its cards rated anew.",
        "",
        _mode_line() + " Deal i is played against anchor i mod (number of anchors); quick mode's deals are the "
        "first of full mode's.",
        "",
    ]
    if cards:
        modes = sorted({c["mode"] for c in cards})
        cpus = sorted({str(c["machine"]["cpus"]) for c in cards})
        loads = [c["load"]["before"][0] for c in cards] + [c["load"]["after"][0] for c in cards]
        lines += [
            f"The cards below were made in {', '.join(modes)} mode, on {', '.join(cpus)}-core machine(s) "
            f"({', '.join(sorted({c['machine']['platform'] for c in cards}))}), one worker each, with a one-minute "
            f"load average of {_range(loads)} (the machine was shared): the ratings do not depend on it, the "
            "milliseconds per move do.",
            "",
        ]
    if plot_link and cards:
        lines += [f"![Standard ratings with 95% intervals, per variant]({plot_link})", ""]
    by_variant: dict[str, list[dict[str, Any]]] = {}
    for card in cards:
        by_variant.setdefault(card["variant"], []).append(card)
    for name, var in VARIANTS.items():
        rated = sorted(by_variant.get(name, []), key=lambda c: -c["rating"])
        lines += [f"## {name}", "", var.description, ""]
        if rated:
            lines += ["| rank | agent | rating | 95% interval | games | mode | ms a move | date |",
                      "|---:|---|---:|---|---:|---|---:|---|"]
            for rank, c in enumerate(rated, start=1):
                low, high = c["interval"]
                lines.append(f"| {rank} | `{c['spec']}` | {c['rating']:.0f} | {low:.0f} to {high:.0f} | {c['games']} "
                             f"| {c['mode']} | {_ms(c)} | {c['date'][:10]} |")
            anchors = rated[0]["anchors"]
            lines += ["", "Anchors (frozen ratings): " + ", ".join(
                f"`{a['anchor']}` {a['anchor_rating']:.0f}" for a in sorted(anchors, key=lambda a: a["anchor_rating"]))
                + f"; digest `{rated[0]['anchor_table_digest']}`, deal seed {rated[0]['seed']}."]
        else:
            lines.append("No card yet.")
        have = {c["spec"] for c in rated}
        missing = [s for s in wanted(name) if s not in have]
        if missing:
            lines += ["", "Not rated yet: " + ", ".join(f"`{s}`" for s in missing) + "."]
        lines.append("")
    lines += [
        "## Adding an agent",
        "",
        "```bash",
        "kingdomino rate SPEC --variant V --quick --out docs/leaderboard/cards/V__SPEC.json   # or full mode",
        "python -m tournament.leaderboard",
        "```",
        "",
        f"`--quick` plays {MODE_GAMES['quick']} games against each anchor (whole deals), full mode "
        f"{MODE_GAMES['full']}; name the card `VARIANT__SPEC.json`, with `:` written `-`. The same deterministic "
        "agent in the same mode gets the same card (timing and date aside), so a card can be checked by rating it "
        "again. Outside agents (`MODULE:ATTR`, `PATH.py:ATTR`) are rated the same way.",
        "",
    ]
    return "\n".join(_wrap(lines))


def draw(cards: Sequence[dict[str, Any]], path: Path) -> None:
    """One panel per variant with cards: each agent's rating and interval, the pin at 1000 marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    variants = [v for v in VARIANTS if any(c["variant"] == v for c in cards)]
    figure, axes = plt.subplots(len(variants), 1, figsize=(7, 1.2 + 0.45 * max(
        sum(c["variant"] == v for c in cards) for v in variants) * len(variants)), squeeze=False)
    for ax, name in zip(axes[:, 0], variants, strict=True):
        rated = sorted((c for c in cards if c["variant"] == name), key=lambda c: c["rating"])
        ys = range(len(rated))
        ratings = [c["rating"] for c in rated]
        errors = [[c["rating"] - c["interval"][0] for c in rated], [c["interval"][1] - c["rating"] for c in rated]]
        ax.errorbar(ratings, list(ys), xerr=errors, fmt="o", capsize=3)
        ax.axvline(1000, color="grey", linestyle=":", linewidth=1)
        ax.set_yticks(list(ys), [c["spec"] for c in rated])
        ax.set_title(name, fontsize=10, loc="left")
    axes[-1, 0].set_xlabel("standard rating (Full Greedy = 1000), 95% interval")
    figure.tight_layout()
    try:
        write_atomic(path, lambda temporary: figure.savefig(temporary, dpi=110, format="png"))
    finally:
        plt.close(figure)


def build(cards_dir: Path = CARDS, page: Path = PAGE, plot: Path = PLOT) -> list[Path]:
    """Regenerate the page (and its plot, when there are cards) from the cards; the paths written."""
    cards = read_cards(cards_dir)
    written = []
    link = None
    if cards:
        plot.parent.mkdir(parents=True, exist_ok=True)
        draw(cards, plot)
        written.append(plot)
        link = Path(*plot.resolve().relative_to(page.resolve().parent).parts).as_posix() \
            if plot.resolve().is_relative_to(page.resolve().parent) else str(plot)
    written.insert(0, write_text_atomic(page, render(cards, link)))
    return written


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m tournament.leaderboard`."""
    parser = argparse.ArgumentParser(prog="python -m tournament.leaderboard", description=__doc__.split("\n")[0])
    parser.add_argument("--cards", type=Path, default=CARDS,
                        help="The folder of rating cards (default: docs/leaderboard/cards).")
    parser.add_argument("--page", type=Path, default=PAGE, help="The Markdown page to write (default: "
                        "docs/leaderboard.md).")
    parser.add_argument("--plot", type=Path, default=PLOT, help="The PNG to draw (default: "
                        "docs/leaderboard/leaderboard.png).")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        written = build(args.cards, args.page, args.plot)
    except ValueError as err:
        parser.error(str(err))
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
