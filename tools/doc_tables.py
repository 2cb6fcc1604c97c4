"""The documentation's figures, generated from the committed result files.

    python -m tools.doc_tables            # rewrite every generated block, and the leaderboard page
    python -m tools.doc_tables --check    # exit 1 naming each page that is out of date

A generated block in README.md, training/kept/README.md or any page under docs/ sits between two markers:

    <!-- table: PATH [PATH ...] [kind=KIND] [OPTION=VALUE ...] -->
    ...the generated table...
    <!-- /table -->

PATHs are relative to the repository root and may be globs (sorted; each must match at least one file). The kind
of table is read from the first file's contents unless `kind=` names it; each kind has one renderer (see KINDS) and
its own options. Values with spaces are quoted, as in a shell. Everything between the markers is replaced, so no
figure in a generated block is typed by hand.

The leaderboard page (docs/leaderboard.md) is wholly generated from the rating cards by
`tournament.leaderboard`; this command rewrites it too, and `--check` compares it.
"""

from __future__ import annotations

import argparse
import csv
import glob
import json
import math
import os
import re
import shlex
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

START = re.compile(r"<!-- table: (.*?) -->")
END = "<!-- /table -->"

#: Where each kind of agent is described on the agents page (the heading's anchor).
AGENT_ANCHORS = {
    "random": "baselines-random-greedy-gprd-heuristic",
    "greedy": "baselines-random-greedy-gprd-heuristic",
    "gprd": "baselines-random-greedy-gprd-heuristic",
    "heuristic": "baselines-random-greedy-gprd-heuristic",
    "mc": "flat-monte-carlo-mc",
    "mcts": "uct-mcts",
    "ppo": "ppo",
    "az": "planning-agents-az",
    "azmc": "azmc-the-network-proposes-playouts-judge",
    "csearch": "compiled-search-csearch",
    "csearch-margin": "compiled-search-csearch",
}


#: The largest margin a `targets=` option may name, in points (no game's margin comes near it).
MAX_MARGIN_TARGET = 1000


class DocTableError(ValueError):
    """A generated block that cannot be made: a bad marker, a missing file, an unknown kind or option."""


@dataclass(frozen=True)
class Context:
    """What a renderer may need besides its files: the repository root and the page the block sits in."""

    root: Path
    page: Path

    def link(self, target: str) -> str:
        """A link from the page to `target` (a path relative to the root, optionally with #anchor)."""
        path, _, anchor = target.partition("#")
        rel = Path(os.path.relpath(self.root / path, self.page.parent)).as_posix()
        return rel + (f"#{anchor}" if anchor else "")


# ---------------------------------------------------------------------------------------------------------------
# Formatting


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(low: float, high: float) -> str:
    return f"{100 * low:.1f}–{100 * high:.1f}%"


def _signed(x: float | None, digits: int = 1) -> str:
    if x is None:
        return "–"
    text = f"{x:+.{digits}f}"
    return text.replace("-", "−")


def _ms(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    ms = seconds * 1000
    return f"{ms:.3g}" if ms < 100 else f"{ms:.0f}"


def _count(n: float) -> str:
    return f"{n:,.0f}" if float(n).is_integer() or abs(n) >= 100 else f"{n:,.1f}"


def _num(x: float, digits: int = 1) -> str:
    return f"{x:.{digits}f}".replace("-", "−")


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], align: str | None = None) -> list[str]:
    """A Markdown table; `align` has one letter per column, l or r."""
    align = align or "l" * len(header)
    rule = "|" + "|".join("---:" if a == "r" else "---" for a in align) + "|"
    return ["| " + " | ".join(header) + " |", rule] + ["| " + " | ".join(r) + " |" for r in rows]


def describe_rules(rules: dict[str, Any]) -> str:
    """A short name of a variant from its rules: "Mighty Duel, both bonuses", "Queendomino, 2 players"."""
    game = rules.get("game", "kingdomino")
    players = rules.get("players")
    if game == "queendomino":
        return f"Queendomino, {players} players"
    if game == "royal_wedding":
        return f"the Royal Wedding, {players} players" + (" in teams" if rules.get("teams") else "")
    bonuses = [b for b, key in (("Harmony", "harmony"), ("Middle Kingdom", "middle_kingdom")) if rules.get(key)]
    extra = "both bonuses" if len(bonuses) == 2 else (bonuses[0] if bonuses else "basic")
    if rules.get("mighty_duel"):
        return f"Mighty Duel, {extra}"
    if rules.get("three_player_36"):
        extra += ", 36 dominoes"
    return f"{players} players, {extra}"


def tournament_flags(rules: dict[str, Any]) -> str:
    """The `kingdomino tournament` / `kingdomino play` options of a variant."""
    game = rules.get("game", "kingdomino")
    flags = [] if game == "kingdomino" else [f"--game {game}"]
    flags.append(f"--players {rules['players']}")
    for key, flag in (("mighty_duel", "--mighty-duel"), ("harmony", "--harmony"),
                      ("middle_kingdom", "--middle-kingdom"), ("three_player_36", "--three-player-36"),
                      ("teams", "--teams")):
        if rules.get(key):
            flags.append(flag)
    return " ".join(flags)


VARIANT_RULES = {
    "duel": {"players": 2, "mighty_duel": True, "harmony": True, "middle_kingdom": True},
    "2p_bonuses": {"players": 2, "harmony": True, "middle_kingdom": True},
    "2p_basic": {"players": 2},
}


# ---------------------------------------------------------------------------------------------------------------
# Reading result files


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise DocTableError(f"{path}: not a readable JSON result file ({err})") from None


def _read_csv(path: Path) -> list[dict[str, str]]:
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            return list(csv.DictReader(handle))
    except (OSError, UnicodeDecodeError, csv.Error) as err:
        raise DocTableError(f"{path}: not a readable CSV result file ({err})") from None


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The JSON objects of a JSON-lines result file, one a line (blank lines skipped)."""
    try:
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise DocTableError(f"{path}: not a readable JSON-lines result file ({err})") from None
    if not all(isinstance(row, dict) for row in rows):
        raise DocTableError(f"{path}: every line of a JSON-lines result file must be a JSON object")
    return rows


@dataclass(frozen=True)
class Match:
    """One agent's figures in one result file of a match against fixed opponents."""

    hero: str
    opponent: str
    rules: dict[str, Any]
    games: int
    wins: float
    margin: float | None
    seconds: float | None
    opponent_seconds: float | None


def read_match(path: Path) -> Match:
    """A match result file, in any of the layouts the benchmark scripts wrote (DocTableError otherwise)."""
    data = _read_json(path)
    if not isinstance(data, dict):
        raise DocTableError(f"{path}: not a match result file")
    if "hero_figures" in data:
        f = data["hero_figures"]
        return Match(data["hero"], data["opponent"], data["rules"], f["games"], f["win_rate"] * f["games"],
                     f.get("mean_margin"), f.get("seconds_per_move"), data.get("opponent_seconds_per_move"))
    if "config" in data and "agents" in data:
        roles = list(data["config"]["agents"])
        hero, opponent = ("hero", "opponent") if "hero" in roles else (roles[0], roles[1])
        h, o = data["agents"][hero], data["agents"][opponent]
        return Match(data["config"]["agents"][hero], data["config"]["agents"][opponent], data["config"]["rules"],
                     h["games"], h["wins"], h.get("mean_margin"), h.get("seconds_per_move"),
                     o.get("seconds_per_move"))
    if {"hero", "opponent", "variant", "games", "wins"} <= set(data):
        if data["variant"] not in VARIANT_RULES:
            raise DocTableError(f"{path}: unknown variant {data['variant']!r}")
        return Match(data["hero"], data["opponent"], VARIANT_RULES[data["variant"]], data["games"], data["wins"],
                     data.get("mean_margin"), data.get("hero_s_per_move"), data.get("opp_s_per_move"))
    raise DocTableError(f"{path}: not a match result file (no hero_figures, config/agents or summary fields)")


# ---------------------------------------------------------------------------------------------------------------
# Renderers: one per kind of result file. Each takes the block's files, its options and the context.


def _only(paths: Sequence[Path], kind: str) -> Path:
    if len(paths) != 1:
        raise DocTableError(f"kind {kind} takes one file, got {len(paths)}")
    return paths[0]


def render_cards(paths: Sequence[Path], options: dict[str, str], ctx: Context) -> str:
    """Rating cards -> "which agent to use": the highest-rated card of each variant, its spec, rating and cost."""
    from tournament.standard import VARIANTS

    cards = [_read_card(p) for p in paths]
    leaderboard = options.get("leaderboard", "docs/leaderboard.md")
    agents_page = options.get("agents", "docs/agents.md")
    rows = []
    for name, variant in VARIANTS.items():
        rated = [c for c in cards if c["variant"] == name]
        if not rated:
            continue
        best = sorted(rated, key=lambda c: (-round(c["rating"]), c.get("seconds_per_move") or 0.0))[0]
        low, high = best["interval"]
        close = sorted((c for c in rated if c is not best and low <= c["rating"]), key=lambda c: -c["rating"])
        kind = best["spec"].split(":", 1)[0]
        links = [f"[leaderboard]({ctx.link(f'{leaderboard}#{name}')})"]
        if kind in AGENT_ANCHORS:
            links.append(f"[agent]({ctx.link(f'{agents_page}#{AGENT_ANCHORS[kind]}')})")
        rows.append([
            f"{describe_rules(best['rules'] | ({'game': variant.rules.game} if variant.rules.game else {}))} "
            f"(`{name}`)",
            f"`{best['spec']}`",
            f"{best['rating']:.0f} ({low:.0f} to {high:.0f})",
            _ms(best.get("seconds_per_move")),
            ", ".join(f"`{c['spec']}` {c['rating']:.0f}" for c in close) or "none",
            f"`{tournament_flags(best['rules'] | {'game': variant.rules.game})}`",
            " · ".join(links),
        ])
    lines = _table(["variant (`--variant`)", "strongest agent", "rating (95% interval)", "ms a move",
                    "others inside its interval", "play it with", "more"], rows, "lllrlll")
    return "\n".join(lines)


def _read_card(path: Path) -> dict[str, Any]:
    from tournament.rate import CARD_FORMAT
    from tournament.standard import VARIANTS, read_json

    try:
        card = read_json(path, "the rating card")
    except ValueError as err:
        raise DocTableError(str(err)) from None
    if not isinstance(card, dict) or card.get("format") != CARD_FORMAT:
        raise DocTableError(f"{path} is not a rating card (format {CARD_FORMAT!r})")
    if card.get("variant") not in VARIANTS:
        raise DocTableError(f"{path}: unknown variant {card.get('variant')!r}")
    return card


def render_ladder(paths: Sequence[Path], options: dict[str, str], ctx: Context) -> str:
    """A training ladder (ladder.json) -> its entrants' ratings, and its last-third trend when it has one."""
    data = _read_json(_only(paths, "ladder"))
    rows = []
    for e in sorted(data["entrants"], key=lambda e: (e["kind"] != "checkpoint", e.get("iteration") or 0)):
        name = f"iteration {e['iteration']}" if e["kind"] == "checkpoint" else f"`{e['spec']}`"
        before = _count(e["selfplay_games"]) if e.get("selfplay_games") is not None else "–"
        low, high = e["win_rate_ci"]
        rows.append([name, before, f"{_num(e['rating']['mu'])} ± {e['rating']['sigma']:.1f}", _count(e["games"]),
                     f"{_pct(e['win_rate'])} ({_ci(low, high)})", _signed(e.get("mean_margin"))])
    lines = _table(["entrant", "self-play games before it", "rating (openskill μ ± σ)", "games",
                    "win rate (95% interval)", "mean margin"], rows, "lrrrll")
    sims = data.get("simulations")
    lines += ["", f"{_count(data['games'])} games, {_count(data['games_per_table'])} a table; checkpoints at "
              + ("their policy alone (0 simulations)" if not sims else f"{sims} simulations a move") + "."]
    trend = data.get("last_third")
    if trend:
        lines[-1] += (f" Last third ({_count(trend['from_games'])} to {_count(trend['to_games'])} self-play games): "
                      f"a fitted change of {_signed(trend['change'])} ± {trend['change_sd']:.1f}, "
                      f"**{trend['verdict']}**.")
    return "\n".join(lines)


def render_ladder_trends(paths: Sequence[Path], options: dict[str, str], ctx: Context) -> str:
    """Several ladders with a last-third trend -> one row each: the networks, their ratings and the trend."""
    labels = _labels(options, len(paths))
    rows = []
    for i, path in enumerate(paths):
        data = _read_json(path)
        trend = data.get("last_third")
        if not trend:
            raise DocTableError(f"{path}: the ladder has no last_third trend")
        nets = [e for e in data["entrants"] if e["kind"] == "checkpoint"]
        mus = [e["rating"]["mu"] for e in nets]
        anchors = ", ".join(f"`{e['name']}` {_num(e['rating']['mu'])}" for e in data["entrants"]
                            if e["kind"] == "anchor")
        games = [e["selfplay_games"] for e in nets]
        rows.append([labels[i] if labels else describe_rules(data["rules"]),
                     f"{len(nets)} ({_count(min(games))} to {_count(max(games))})",
                     _count(data["games"]), f"{_num(min(mus))} to {_num(max(mus))}",
                     f"{_signed(trend['change'])} ± {trend['change_sd']:.1f}, {trend['verdict']}", anchors])
    return "\n".join(_table(["run", "networks (self-play games before them)", "games", "their ratings",
                             "trend over the last third", "anchors"], rows, "llrlll"))


def _labels(options: dict[str, str], n: int) -> list[str] | None:
    if "labels" not in options:
        return None
    labels = [label.strip() for label in options["labels"].split(";")]
    if len(labels) != n:
        raise DocTableError(f"labels= gives {len(labels)} labels for {n} rows (one per PATH, separated by ';')")
    return labels


def render_targets(paths: Sequence[Path], options: dict[str, str], ctx: Context) -> str:
    """Strength-target files (benchmarks.az_targets) -> one row per target row: agent, opponents, result."""
    wanted = [r for r in options.get("rows", "").split(",") if r]
    labels = _labels(options, len(wanted)) if wanted else None
    found: dict[str, tuple[Path, dict[str, Any]]] = {}
    order = []
    for path in paths:
        for name, row in _read_json(path).get("rows", {}).items():
            key = name if len(paths) == 1 else f"{path.stem}/{name}"
            found[key] = (path, row)
            found.setdefault(name, (path, row))
            order.append(key)
    missing = [r for r in wanted if r not in found]
    if missing:
        raise DocTableError(f"rows= names rows the files do not hold: {missing}; they hold {sorted(found)}")
    rows = []
    for i, key in enumerate(wanted or order):
        _, row = found[key]
        ours = row["ours"]
        low, high = ours["win_rate_ci"]
        rows.append([labels[i] if labels else describe_rules(row["rules"]), f"`{row['hero']}`",
                     row["opponents"].replace(" x ", " × "), row.get("target", "–"), _count(ours["games"]),
                     f"{_pct(ours['win_rate'])} ({_ci(low, high)})", _signed(ours.get("mean_margin")),
                     f"{_ms(ours.get('seconds_per_move'))} / {_ms(row.get('opponent_seconds_per_move'))}"])
    return "\n".join(_table(["variant", "agent", "against", "target", "games", "won (95% interval)", "margin",
                             "ms a move (agent / others)"], rows, "lllrrlrr"))


def _targets(options: dict[str, str], n: int) -> list[tuple[str, float]] | None:
    """`targets=` read as one (what, value) per row: ``85%`` a win rate, ``+80`` a mean margin in points."""
    if "targets" not in options:
        return None
    texts = [t.strip() for t in options["targets"].split(";")]
    if len(texts) != n:
        raise DocTableError(f"targets= gives {len(texts)} targets for {n} rows (one per PATH, separated by ';')")
    found = []
    for text in texts:
        what = "won" if text.endswith("%") else "margin"
        try:
            value = float(text.removesuffix("%"))
        except ValueError:
            value = math.nan
        if not (0 <= value <= 100 if what == "won" else text[:1] == "+" and value <= MAX_MARGIN_TARGET):
            raise DocTableError(f"targets=: {text!r} is neither a win rate from 0% to 100% such as 85% nor a margin "
                                f"from +0 to +{MAX_MARGIN_TARGET} points such as +80")
        found.append((what, value))
    return found


def _gap(target: tuple[str, float], win_rate: float, margin: float | None) -> tuple[str, str]:
    """A target's cell and its gap's cell: the measured figure less the target (points of win rate or margin)."""
    what, value = target
    if what == "won":
        return f"won ≥ {value:g}%", _gap_cell(100 * win_rate - value)
    return f"margin ≥ +{value:g}", "–" if margin is None else _gap_cell(margin - value)


def _gap_cell(gap: float) -> str:
    return f"{_signed(gap)} (met)" if gap >= 0 else f"{_signed(gap)} (missed)"


def render_match(paths: Sequence[Path], options: dict[str, str], ctx: Context) -> str:
    """Match result files -> one row per PATH (a glob's files pooled): games, won with a Wilson interval, margin;
    with `targets=`, a row per variant (or label) with its target and the measured figure less the target."""
    from tournament.stats import wilson_interval

    groups: list[list[Path]] = options["_groups"]  # type: ignore[assignment]
    labels = _labels(options, len(groups))
    targets = _targets(options, len(groups))
    rows = []
    for i, group in enumerate(groups):
        matches = [read_match(p) for p in group]
        games = sum(m.games for m in matches)
        wins = sum(m.wins for m in matches)
        low, high = wilson_interval(wins, games)
        margins = [(m.margin, m.games) for m in matches if m.margin is not None]
        margin = sum(x * g for x, g in margins) / sum(g for _, g in margins) if margins else None
        spm = [(m.seconds, m.games) for m in matches if m.seconds is not None]
        seconds = sum(x * g for x, g in spm) / sum(g for _, g in spm) if spm else None
        first = matches[0]
        per_file = " + ".join(_count(m.wins) for m in matches) + " of " if len(matches) > 1 else ""
        won = f"{_pct(wins / games)} ({_ci(low, high)})"
        if targets:
            label = labels[i] if labels else describe_rules(first.rules)
            rows.append([label, f"`{_short_spec(first.opponent)}`", _count(games), won, _signed(margin),
                         *_gap(targets[i], wins / games, margin)])
        else:
            label = labels[i] if labels else f"`{_short_spec(first.hero)}`"
            rows.append([label, f"`{_short_spec(first.opponent)}`", describe_rules(first.rules),
                         f"{per_file}{_count(games)}", won, _signed(margin), _ms(seconds)])
    if targets:
        return "\n".join(_table(["variant", "against", "games", "won (95% interval)", "margin", "target",
                                 "measured − target"], rows, "llrlrlr"))
    return "\n".join(_table(["agent", "against", "variant", "games won, of", "won (95% interval)", "margin",
                             "ms a move"], rows, "lllrlrr"))


def _short_spec(spec: str) -> str:
    """A spec as shown: a network file outside the repository by its name only."""
    head, sep, rest = spec.partition(" (")
    parts = head.split(":")
    parts = [Path(p).name if "/" in p and p.startswith("/") else p for p in parts]
    return ":".join(parts) + (sep + rest if sep else "")


def render_throughput(paths: Sequence[Path], options: dict[str, str], ctx: Context) -> str:
    """benchmarks/results/throughput.json -> the rules core's agent-steps a second, and the AEC envs' steps."""
    data = _read_json(_only(paths, "throughput"))
    part = options.get("part", "core")
    if part == "core":
        sizes = sorted({int(b) for per in data["core"].values() for b in per}, key=int)
        rows = [[players] + [_count(per[str(b)]["agent_steps_per_s"]) if str(b) in per else "–" for b in sizes]
                for players, per in data["core"].items()]
        lines = _table(["games at once →"] + [str(b) for b in sizes], rows, "l" + "r" * len(sizes))
        what = "agent-steps a second of the batched rules core, observations included, best of "
    elif part == "aec":
        rows = [[name, _count(v["steps_per_s"]), _count(v["games_per_s"])] for name, v in data["aec"].items()]
        lines = _table(["environment", "steps a second", "games a second"], rows, "lrr")
        what = "steps a second of one AEC env with random legal moves, best of "
    else:
        raise DocTableError(f"part={part!r}: throughput tables are part=core or part=aec")
    m = data["machine"]
    lines += ["", f"{what}{data['windows_per_measurement']} windows of {data['seconds_per_window']:g} s; "
              f"{m['cpu']}, {m['logical_cpus']} logical CPUs, pinned to one; Python {m['python']}, numba "
              f"{m['numba']}."]
    return "\n".join(lines)


def render_compile_time(paths: Sequence[Path], options: dict[str, str], ctx: Context) -> str:
    """benchmarks/results/compile_time.json -> seconds of a first game with an empty and a full numba cache."""
    data = _read_json(_only(paths, "compile_time"))
    rows = []
    for name, v in data["variants"].items():
        rows.append([name, f"{v['cold']['total_s']:.1f}", f"{v['cached']['total_s']:.1f}",
                     f"{v['first_tournament']['process_s']:.1f}" if "first_tournament" in v else "–",
                     f"{v['hint_cold']['hint_s']:.1f}" if "hint_cold" in v else "–",
                     f"{v['hint_cached']['hint_s']:.1f}" if "hint_cached" in v else "–"])
    lines = _table(["variant", "first game, empty cache (s)", "first game, cache full (s)",
                    "first tournament process (s)", "first hint, empty cache (s)", "first hint, cache full (s)"],
                   rows, "lrrrrr")
    load = f", load average {data['load_average']:.1f}" if "load_average" in data else ""
    lines += ["", f"Import and one game in a fresh process; {data['cpu_count']} CPUs{load}, Python {data['python']}, "
              f"{data['date'][:10]}."]
    if "check" in data:
        c = data["check"]
        lines += ["", f"The calibration kernel compiled in {c['calibration_s']:.2f} s; a cold first game took "
                  + ", ".join(f"{ratio:.1f} calibration compiles in {name} (limit {c['limits'][name]:g})"
                              for name, ratio in c["ratios"].items()) + "."]
    return "\n".join(lines)


def render_ray_scaling(paths: Sequence[Path], options: dict[str, str], ctx: Context) -> str:
    """benchmarks/results/ray_scaling.json -> tournaments, az self-play and PPO rollouts against workers."""
    data = _read_json(_only(paths, "ray_scaling"))
    rows = []
    for what, key, unit in (("tournament", "games_per_s", "games"), ("az self-play", "simulations_per_s",
                                                                     "simulations"),
                            ("PPO rollout", "steps_per_s", "env steps")):
        section = {"tournament": "tournament", "az self-play": "az_selfplay", "PPO rollout": "ppo_rollout"}[what]
        for r in data[section]:
            rows.append([what, str(r["workers"]), r["mode"], f"{_count(r[key])} {unit}/s"])
    m = data["machine"]
    return "\n".join(_table(["work", "workers", "mode", "throughput"], rows, "lrll") + [
        "", f"{m['cpu']}, {m['logical_cpus']} logical CPUs, Python {m['python']}."])


def _last_entries(paths: Sequence[Path], options: dict[str, str]) -> list[tuple[str, dict[str, str]]]:
    """(label, last row) of each training log: the label given, else the file name without its `log_` prefix."""
    labels = _labels(options, len(paths))
    entries = []
    for i, path in enumerate(paths):
        log = _read_csv(path)
        if not log:
            raise DocTableError(f"{path}: an empty training log")
        entries.append((labels[i] if labels else path.stem.removeprefix("log_"), log[-1]))
    return entries


def render_az_logs(paths: Sequence[Path], options: dict[str, str], ctx: Context) -> str:
    """az training logs (log_NAME.csv) -> one row per run: iterations, self-play games and core-hours."""
    rows = [[label, last["iteration"], _count(int(last["games"])),
             f"{float(last['core_hours']):.2f}" if last.get("core_hours") else "–"]
            for label, last in _last_entries(paths, options)]
    return "\n".join(_table(["run", "iterations", "self-play games", "self-play core-hours"], rows, "lrrr"))


def _csearch_log_row(path: Path, label: str) -> tuple[list[str], float]:
    """One csearch run's row from its log, and the self-play CPU seconds it records: `loop`'s JSON lines (one per
    network, the iteration that played and the games played by then) or the table of older runs (log_RUN.csv, one
    row per network, no CPU time)."""
    log = _read_jsonl(path) if path.suffix == ".jsonl" else _read_csv(path)
    if not log:
        raise DocTableError(f"{path}: an empty training log")
    last, cpu = log[-1], []
    if path.suffix == ".jsonl":
        cpu = [row["selfplay_cpu_seconds"] for row in log if row.get("selfplay_cpu_seconds") is not None]
        hours = "–" if not cpu else f"{sum(cpu) / 3600:.2f}" + (
            "" if len(cpu) == len(log) else f" ({len(cpu)} of {len(log)} iterations)")
        network, games = last["iteration"] + 1, last["selfplay_games"]
    else:
        hours, network, games = "–", last["iteration"], int(last["selfplay_games_before"])
    return [label, f"net_{network}", _count(games), f"{float(last['holdout_win_bce']):.4f}",
            f"{float(last['holdout_margin_mse']):.4f}", hours], sum(cpu)


def render_csearch_logs(paths: Sequence[Path], options: dict[str, str], ctx: Context) -> str:
    """csearch training logs -> one row per run (by run name, unless `labels` names them): its newest network, the
    self-play games before it, that network's held-out losses and the self-play CPU time the log records (`loop`
    records it per iteration), then the time all the logs record."""
    labels = _labels(options, len(paths))
    rows, seconds = zip(*(_csearch_log_row(path, labels[i] if labels else re.sub(r"_to_\d+$", "",
                                                                                path.stem.removeprefix("log_")))
                          for i, path in enumerate(paths)), strict=True)
    rows = list(rows) if labels else sorted(rows)
    lines = _table(["run", "newest network", "self-play games before it", "held-out win cross-entropy",
                    "held-out margin squared error", "self-play core-hours recorded"], rows, "llrrrr")
    return "\n".join([*lines, "", f"{sum(seconds) / 3600:.2f} self-play core-hours recorded in all."])


@dataclass(frozen=True)
class Kind:
    """A kind of result file: its renderer, the options it takes, and whether PATHs are pooled per token."""

    render: Callable[[Sequence[Path], dict[str, str], Context], str]
    options: tuple[str, ...] = ()
    grouped: bool = False


def render_csearch_speed(paths: Sequence[Path], options: dict[str, str], ctx: Context) -> str:
    """benchmarks/results/csearch_speed.json -> simulations a second and a move by variant and leaf valuation."""
    data = _read_json(_only(paths, "csearch_speed"))
    rows = [[f"`{row['variant']}`", row["leaves"] + (f" (`{row['network']}`)" if row["network"] else ""),
             _count(row["simulations_per_s"]), _count(row["simulations_per_move"]), _count(row["decisions"])]
            for row in data["rows"]]
    lines = _table(["variant", "leaves", "simulations a second", "simulations a move", "moves timed"], rows,
                   "llrrr")
    m, load = data["machine"], data["load_average_before"]
    return "\n".join([*lines, "", f"{_count(data['games'])} whole games a row at {data['seconds_per_move']:g} s a "
                       f"move, csearch in every seat; {m['cpu']}, pinned to one of {m['logical_cpus']} logical CPUs, "
                       f"load average {load[0]:.1f} before."])


def render_value_fit(paths: Sequence[Path], options: dict[str, str], ctx: Context) -> str:
    """A value-fit measurement (`training.value_fit`) -> one row per network (labelled by `labels`, else by its
    file's name), then the reference rows: errors against each position's outcome and the playouts' means."""
    data = _read_json(_only(paths, "value_fit"))
    nets = data["networks"]
    labels = _labels(options, len(nets)) or [f"`{Path(row['file']).name}`" for row in nets]

    def cells(row: dict[str, float]) -> list[str]:
        keys = ("win_mse_vs_outcome", "win_mse_vs_playouts", "margin_mae_vs_outcome", "margin_mae_vs_playouts")
        return [("–" if key not in row else f"{row[key]:.4f}" if key.startswith("win") else f"{row[key]:.1f}")
                for key in keys]

    rows = [[label, f"{'squares and dense' if row['squares'] else 'dense'} inputs, {row['target']} targets, "
             f"{_count(row['games']) + ' games' if row.get('games') else '–'}", *cells(row)]
            for label, row in zip(labels, nets, strict=True)]
    rows.append(["the data's mean (a constant)", "–", *cells(data["reference"]["constant"])])
    if "playouts" in data["reference"]:
        rows.append(["the playouts' means", "–", *cells(data["reference"]["playouts"])])
    lines = _table(["valued by", "trained on", "win MSE, outcome", "win MSE, playouts", "margin error, outcome",
                    "margin error, playouts"], rows, "llrrrr")
    return "\n".join([*lines, "", f"{_count(data['positions'])} held-out positions of {_count(data['games'])} "
                       "games; win MSE: mean squared error of the win probability; margin error: mean absolute "
                       "error in points."])


def render_priors_fit(paths: Sequence[Path], options: dict[str, str], ctx: Context) -> str:
    """Priors files (`training.csearch_priors fit`) -> one row each: its variant, the data it was fitted on, and the
    held-out cross entropy and prior of the most visited action with the hand-set and the fitted weights."""
    rows = []
    for path in paths:
        data = _read_json(path)
        ce, chosen = data["held_out_cross_entropy"], data["held_out_chosen_prior"]
        rows.append([f"`{data['variant']}`", _count(data["games"]), _count(data["decisions"]),
                     _count(data["held_out_games"]), f"{ce['hand']:.3f}", f"{ce['fitted']:.3f}",
                     f"{chosen['hand']:.3f}", f"{chosen['fitted']:.3f}"])
    return "\n".join(_table(["variant", "games", "decisions", "held out", "cross entropy: hand-set", "fitted",
                             "most visited's prior: hand-set", "fitted"], rows, "lrrrrrrr"))


def render_kept(paths: Sequence[Path], options: dict[str, str], ctx: Context) -> str:
    """Kept networks' metadata (training/kept/csearch_NAME.json) -> one row each: its run's variant, the network,
    the self-play games before it and the settings its run goes on with."""
    rows = []
    for path in paths:
        data = _read_json(path)
        settings = data["settings"]
        rows.append([f"`{data['run']}`", f"`{data['variant']}`", f"net_{data['iteration']}",
                     _count(data["selfplay_games"]), _count(settings["games"]), _count(settings["simulations"]),
                     f"{settings['window']} iterations", _count(settings["epochs"]),
                     f"mean of {settings['playouts']} playouts" if settings.get("playouts") else "outcome",
                     _variety(settings)])
    return "\n".join(_table(["NAME", "variant", "network", "self-play games before it", "games an iteration",
                             "simulations a decision", "data window", "epochs", "targets", "varied self-play"],
                             rows, "lllrrrlrll"))


def _variety(settings: dict[str, Any]) -> str:
    """How a kept network's run varies its self-play (`training.csearch_net.Variety`), or "–"."""
    parts = []
    if settings.get("fast_share"):
        parts.append(f"{_pct(settings['fast_share'])} of decisions at {_count(settings['fast_simulations'])} "
                     "simulations")
    if settings.get("past_share"):
        parts.append(f"an earlier network in {_pct(settings['past_share'])} of games")
    return "; ".join(parts) or "–"


KINDS: dict[str, Kind] = {
    "cards": Kind(render_cards, ("leaderboard", "agents")),
    "ladder": Kind(render_ladder),
    "ladder_trends": Kind(render_ladder_trends, ("labels",)),
    "targets": Kind(render_targets, ("rows", "labels")),
    "match": Kind(render_match, ("labels", "targets"), grouped=True),
    "throughput": Kind(render_throughput, ("part",)),
    "compile_time": Kind(render_compile_time),
    "ray_scaling": Kind(render_ray_scaling),
    "az_log": Kind(render_az_logs, ("labels",)),
    "csearch_log": Kind(render_csearch_logs, ("labels",)),
    "kept": Kind(render_kept),
    "value_fit": Kind(render_value_fit, ("labels",)),
    "csearch_speed": Kind(render_csearch_speed),
    "priors_fit": Kind(render_priors_fit),
}


def infer_kind(path: Path) -> str:
    """The kind of a result file, from its contents (DocTableError when no renderer knows it)."""
    if path.suffix == ".csv":
        header = _read_csv(path)[:1]
        columns = set(header[0]) if header else set()
        if {"iteration", "games", "positions", "policy_loss"} <= columns:
            return "az_log"
        if {"iteration", "selfplay_games_before"} <= columns:
            return "csearch_log"
    elif path.suffix == ".jsonl":
        first = _read_jsonl(path)[:1]
        if first and {"iteration", "selfplay_games", "holdout_win_bce"} <= set(first[0]):
            return "csearch_log"
    elif path.suffix == ".json":
        data = _read_json(path)
        if isinstance(data, dict):
            if str(data.get("format", "")).startswith("kingdomino-rating-card/"):
                return "cards"
            if data.get("format") == "kingdomino-rl kept network":
                return "kept"
            if data.get("format") == "kingdomino-rl csearch value fit":
                return "value_fit"
            if data.get("format") == "kingdomino-rl csearch priors":
                return "priors_fit"
            if "entrants" in data and "pairings" in data:
                return "ladder"
            if "rows" in data and "seconds_per_move" in data:
                return "csearch_speed"
            if "rows" in data:
                return "targets"
            if "core" in data and "aec" in data:
                return "throughput"
            if "variants" in data and "cpu_count" in data:
                return "compile_time"
            if "az_selfplay" in data:
                return "ray_scaling"
            if "hero_figures" in data or ("config" in data and "agents" in data) or "wins" in data:
                return "match"
    raise DocTableError(f"{path}: no renderer knows this result file; name one with kind=KIND "
                        f"(kinds: {', '.join(KINDS)})")


# ---------------------------------------------------------------------------------------------------------------
# Blocks and pages


def _expand(token: str, root: Path) -> list[Path]:
    pattern = str(root / token)
    if glob.has_magic(token):
        found = sorted(Path(p) for p in glob.glob(pattern))
    else:
        found = [root / token] if (root / token).exists() else []
    if not found:
        raise DocTableError(f"{token}: no such result file (paths are relative to the repository root)")
    if any(p.is_dir() for p in found):
        folder = next(p for p in found if p.is_dir())
        raise DocTableError(f"{token}: {folder} is a folder; name its files (e.g. {token.rstrip('/')}/*.json)")
    return found


def render_block(spec: str, ctx: Context) -> str:
    """The generated text of one block from its marker's arguments (DocTableError when it cannot be made)."""
    try:
        tokens = shlex.split(spec)
    except ValueError as err:
        raise DocTableError(f"unreadable marker arguments {spec!r}: {err}") from None
    options = dict(t.split("=", 1) for t in tokens if "=" in t)
    paths = [t for t in tokens if "=" not in t]
    if not paths:
        raise DocTableError(f"the marker {spec!r} names no result file")
    groups = [_expand(p, ctx.root) for p in paths]
    kind_name = options.pop("kind", None) or infer_kind(groups[0][0])
    if kind_name not in KINDS:
        raise DocTableError(f"unknown kind {kind_name!r}; kinds: {', '.join(KINDS)}")
    kind = KINDS[kind_name]
    unknown = sorted(set(options) - set(kind.options))
    if unknown:
        raise DocTableError(f"kind {kind_name} takes no option {', '.join(unknown)}; its options: "
                            f"{', '.join(kind.options) or 'none'}")
    if kind.grouped:
        options["_groups"] = groups  # type: ignore[assignment]
    try:
        return kind.render([p for g in groups for p in g], options, ctx)
    except (KeyError, TypeError, IndexError, ZeroDivisionError) as err:
        raise DocTableError(f"{', '.join(paths)} cannot be read as kind {kind_name}: missing or bad field "
                            f"{err}") from None


def regenerate(text: str, ctx: Context) -> str:
    """`text` with every generated block made afresh (DocTableError naming the page and line of a bad block)."""
    out, pos = [], 0
    for found in START.finditer(text):
        if found.start() < pos:
            continue
        line = text.count("\n", 0, found.start()) + 1
        end = text.find(END, found.end())
        nested = START.search(text, found.end(), end if end >= 0 else len(text))
        if end < 0 or nested:
            raise DocTableError(f"{ctx.page}:{line}: the block has no {END} before the next marker or the end")
        try:
            body = render_block(found.group(1), ctx)
        except DocTableError as err:
            raise DocTableError(f"{ctx.page}:{line}: {err}") from None
        out += [text[pos:found.end()], "\n", body, "\n"]
        pos = end
    out.append(text[pos:])
    return "".join(out)


#: Pages outside docs/ that may hold generated blocks, besides README.md.
OTHER_PAGES = ("training/kept/README.md",)


def pages(root: Path) -> list[Path]:
    """The pages that may hold generated blocks: README.md, `OTHER_PAGES` and every Markdown page under docs/."""
    found = [root / name for name in ("README.md", *OTHER_PAGES) if (root / name).is_file()]
    return found + sorted((root / "docs").rglob("*.md"))


def _leaderboard(root: Path) -> tuple[Path, str] | None:
    """The leaderboard page of `root` and its text made afresh from the cards, or None without cards."""
    from tournament import leaderboard

    cards = root / "docs" / "leaderboard" / "cards"
    if not cards.is_dir():
        return None
    page = root / "docs" / "leaderboard.md"
    plot = root / "docs" / "leaderboard" / "leaderboard.png"
    try:
        found = leaderboard.read_cards(cards)
    except ValueError as err:
        raise DocTableError(str(err)) from None
    link = Path(os.path.relpath(plot, page.parent)).as_posix() if found else None
    return page, leaderboard.render(found, link)


def stale_pages(root: Path = ROOT) -> list[Path]:
    """The pages whose generated blocks (or, for the leaderboard, whole text) differ from the result files."""
    stale = []
    for page in pages(root):
        text = page.read_text(encoding="utf-8")
        if START.search(text) and regenerate(text, Context(root, page)) != text:
            stale.append(page)
    board = _leaderboard(root)
    if board and (not board[0].is_file() or board[0].read_text(encoding="utf-8") != board[1]):
        stale.append(board[0])
    return stale


def write_pages(root: Path = ROOT) -> list[Path]:
    """Rewrite every page whose blocks are out of date, and the leaderboard page and plot; the paths written."""
    from kingdomino_env.files import write_text_atomic
    from tournament import leaderboard

    written = []
    for page in pages(root):
        text = page.read_text(encoding="utf-8")
        if START.search(text):
            new = regenerate(text, Context(root, page))
            if new != text:
                written.append(write_text_atomic(page, new))
    cards = root / "docs" / "leaderboard" / "cards"
    if cards.is_dir():
        try:
            written += leaderboard.build(cards, root / "docs" / "leaderboard.md",
                                         root / "docs" / "leaderboard" / "leaderboard.png")
        except ValueError as err:
            raise DocTableError(str(err)) from None
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m tools.doc_tables [--check] [--root DIR]`."""
    parser = argparse.ArgumentParser(prog="python -m tools.doc_tables", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 naming each page whose generated figures are out of date")
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository root (default: this checkout)")
    args = parser.parse_args(argv)
    try:
        if args.check:
            stale = stale_pages(args.root)
            for page in stale:
                print(f"out of date: {page.relative_to(args.root)} (run `python -m tools.doc_tables`)")
            return 1 if stale else 0
        for path in write_pages(args.root):
            print(f"wrote {Path(path).relative_to(args.root)}")
    except DocTableError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
