"""Numba compile time of a first game: what a fresh process pays before its first game of a variant is played.

    python -m benchmarks.compile_time                 # a few minutes; prints a table
    python -m benchmarks.compile_time --out benchmarks/results/compile_time.json

The kernels are compiled on first use and cached on disk (`cache=True`, next to the sources unless
`NUMBA_CACHE_DIR` is set). For each variant a fresh subprocess gets `NUMBA_CACHE_DIR` set to a new empty folder,
so nothing is cached, and times: the import of `kingdomino_env.core` (and `policies`), then one whole game played
with `core.new_games`, `legal_action_mask`, `observe`, `policies.greedy_actions` and `step` (the compiles happen
there). A second subprocess on the same, now filled, folder times the same with every kernel loaded from the cache.
For the variants in `COMMANDS`, a third fresh process with another empty cache runs what a new user types first,
`kingdomino tournament` with greedy against random, and its whole wall time (start, imports, compiles, both games,
the printed tables) is the "first tournament" figure. For the variants in `HINTS`, fresh processes time the play
app's first hint (`kingdomino_app.hints.HintAdvisor` at its default 1 s): pressed at once on an empty cache and on
a filled one, and pressed after the app's warm-up (`HintAdvisor.prepare`, which the app runs while the player
reads the board) on a filled cache. Each figure is the best of `--repeats` runs (the machine may be shared).

    python -m benchmarks.compile_time --check         # CI: cold first games against the limits; exit 1 past one

`--check` plays the first game of each variant of `CHECKED` (Kingdomino's kernels and Queendomino's, which the other
variants share) in a fresh process on an empty cache, and compiles a fixed calibration kernel (`calibration_kernel`,
never changed) the same way. A first game's cost is stated in calibration compiles, which scale with the machine's
speed as the kernels' compiles do, so the check means the same on a fast machine and a slow one; both are counted in
CPU seconds of their process (`time.process_time`), so that other work on the machine (CI compiles other kernels
beside it) does not bias the ratio;
past its variant's `LIMITS` the check fails, naming the variant and both figures.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

VARIANTS: dict[str, dict] = {
    "Kingdomino 2 players": {"players": 2},
    "Kingdomino 4 players": {"players": 4},
    "Mighty Duel": {"players": 2, "mighty_duel": True},
    "Queendomino 2 players": {"game": "queendomino", "players": 2},
    "Royal Wedding 8 players, teams": {"game": "royal_wedding", "players": 8, "teams": True},
}
#: The variants whose first `kingdomino tournament` is also timed, with the flags that select them.
COMMANDS: dict[str, list[str]] = {
    "Kingdomino 2 players": [],
    "Queendomino 2 players": ["--game", "queendomino"],
}
#: The variants whose play-app first hint is timed.
HINTS = ("Kingdomino 2 players", "Queendomino 2 players")
#: The tournament timed: greedy against random, the fewest games the schedule allows.
TOURNAMENT = ["tournament", "--agents", "greedy,random", "--games", "2", "--no-progress"]
ROOT = Path(__file__).resolve().parent.parent
#: The variants `--check` plays: one per set of kernels.
CHECKED = ("Kingdomino 2 players", "Queendomino 2 players")
#: `--check`'s limits: a cold first game's total seconds over the calibration kernel's compile seconds, measured in
#: the same run. Set from `benchmarks/results/compile_time.json` (`check` holds the ratios measured there) with room
#: for noise, so that a change that makes a first game's compile markedly slower fails where it is made.
LIMITS = {"Kingdomino 2 players": 15.0, "Queendomino 2 players": 15.0}


def play_first_game(variant: str) -> dict[str, float]:
    """In this process: import the core, play one seeded game of `variant` to its end; seconds of each part, and
    the CPU seconds of the whole (`cpu_s`)."""
    start, cpu = time.perf_counter(), time.process_time()
    import numpy as np

    from kingdomino_env import core, policies
    from kingdomino_env.rules import Rules
    imported = time.perf_counter()
    rules = Rules(**VARIANTS[variant])
    state = core.new_games(rules, [0])
    rng = np.random.default_rng(0)
    games = np.arange(1)
    steps = 0
    while not state.is_over.all():
        core.legal_action_mask(state)
        core.observe(state)
        core.step(state, policies.greedy_actions(state, games, rng))
        steps += 1
    done = time.perf_counter()
    return {"import_s": imported - start, "game_s": done - imported, "total_s": done - start, "steps": steps,
            "cpu_s": time.process_time() - cpu}


#: The terrain types `calibrate` compiles `calibration_kernel` for: one compile each, so that the calibration is
#: long enough for a steady figure.
CALIBRATION_TYPES = ("int8", "int16", "int32", "int64")


def calibration_kernel(terrain: np.ndarray, labels: np.ndarray, stack: np.ndarray) -> tuple[int, int]:
    """A fixed piece of board code (a flood fill over a square grid, tuples and array writes), compiled by `--check`
    to measure how fast this machine compiles: (territories, largest). Never change it: the limits are in its
    compile seconds."""
    s = terrain.shape[0]
    labels[:] = 0
    count = 0
    largest = 0
    for r0 in range(s):
        for c0 in range(s):
            t = terrain[r0, c0]
            if t == 0 or labels[r0, c0] != 0:
                continue
            count += 1
            labels[r0, c0] = count
            top = 0
            stack[top] = r0 * s + c0
            top += 1
            size = 0
            while top > 0:
                top -= 1
                r, c = divmod(stack[top], s)
                size += 1
                for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                    r2, c2 = r + dr, c + dc
                    if 0 <= r2 < s and 0 <= c2 < s and terrain[r2, c2] == t and labels[r2, c2] == 0:
                        labels[r2, c2] = count
                        stack[top] = r2 * s + c2
                        top += 1
            largest = max(largest, size)
    return count, largest


def calibrate() -> dict[str, float]:
    """In this process (on an empty cache): seconds, and CPU seconds, to compile and run `calibration_kernel` once."""
    import numpy as np
    from numba import njit
    start, cpu = time.perf_counter(), time.process_time()
    kernel = njit(cache=True)(calibration_kernel)
    terrain = np.random.default_rng(0).integers(0, 4, size=(9, 9))
    for dtype in CALIBRATION_TYPES:
        kernel(terrain.astype(dtype), np.zeros((9, 9), dtype=np.int32), np.zeros(81, dtype=np.int64))
    return {"compile_s": time.perf_counter() - start, "cpu_s": time.process_time() - cpu}


def first_hint(variant: str, warm_up: bool) -> dict[str, float]:
    """In this process: the play app's first hint on the opening position of `variant` (after its warm-up if
    `warm_up`); seconds of the import, the warm-up and the hint itself."""
    start = time.perf_counter()
    from kingdomino_app.hints import HintAdvisor
    from kingdomino_env import core
    from kingdomino_env.rules import Rules
    imported = time.perf_counter()
    state = core.new_games(Rules(**VARIANTS[variant]), [0])
    advisor = HintAdvisor()
    if warm_up:
        advisor.prepare(state)
    prepared = time.perf_counter()
    advisor.advise(state, (0, 0))
    done = time.perf_counter()
    return {"import_s": imported - start, "warm_up_s": prepared - imported, "hint_s": done - prepared}


def _child_env(cache_dir: str) -> dict[str, str]:
    """This environment with `cache_dir` as numba's cache and this tree first on the import path."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    return env


def _run_child(variant: str, cache_dir: str, mode: str = "--child") -> dict[str, float]:
    """Play the first game of `variant` (or with `mode` --hint-child / --warm-hint-child, time its first hint) in a
    fresh interpreter whose numba cache is `cache_dir`."""
    start = time.perf_counter()
    command = [sys.executable, "-m", "benchmarks.compile_time", mode, *([variant] if variant else [])]
    proc = subprocess.run(command, cwd=ROOT, env=_child_env(cache_dir), capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["process_s"] = wall
    return out


def _run_tournament(variant: str) -> float:
    """Wall seconds of a fresh `kingdomino tournament` of `variant` on an empty numba cache."""
    with tempfile.TemporaryDirectory(prefix="numba_cache_") as cache_dir:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "kingdomino_cli.main", *TOURNAMENT, *COMMANDS[variant]], cwd=ROOT,
                       env=_child_env(cache_dir), capture_output=True, text=True, check=True)
        return time.perf_counter() - start


def measure(variants: list[str], repeats: int) -> dict[str, dict[str, dict[str, float]]]:
    """{variant: {"cold": best timings with an empty cache, "cached": best timings with that cache filled}}."""
    results = {}
    for variant in variants:
        runs: dict[str, list[dict[str, float]]] = {"cold": [], "cached": []}
        for _ in range(repeats):
            with tempfile.TemporaryDirectory(prefix="numba_cache_") as cache_dir:
                runs["cold"].append(_run_child(variant, cache_dir))
                runs["cached"].append(_run_child(variant, cache_dir))
        results[variant] = {kind: {key: min(r[key] for r in rs) for key in rs[0]} for kind, rs in runs.items()}
        if variant in COMMANDS:
            results[variant]["first_tournament"] = {"process_s": min(_run_tournament(variant)
                                                                     for _ in range(repeats))}
        if variant in HINTS:
            results[variant].update(_measure_hints(variant, repeats))
        cold, cached = results[variant]["cold"], results[variant]["cached"]
        print(f"{variant}: cold {cold['total_s']:.1f} s, cached {cached['total_s']:.1f} s", file=sys.stderr)
    return results


def _measure_hints(variant: str, repeats: int) -> dict[str, dict[str, float]]:
    """Best timings of the first hint: at once on an empty cache, at once and after the warm-up on a filled one."""
    runs: dict[str, list[dict[str, float]]] = {"hint_cold": [], "hint_cached": [], "hint_after_warm_up": []}
    for _ in range(repeats):
        with tempfile.TemporaryDirectory(prefix="numba_cache_") as cache_dir:
            runs["hint_cold"].append(_run_child(variant, cache_dir, "--hint-child"))
            runs["hint_cached"].append(_run_child(variant, cache_dir, "--hint-child"))
            runs["hint_after_warm_up"].append(_run_child(variant, cache_dir, "--warm-hint-child"))
    return {kind: {key: min(r[key] for r in rs) for key in rs[0]} for kind, rs in runs.items()}


def calibration_seconds(repeats: int = 1) -> float:
    """The best of `repeats` compiles of `calibration_kernel` in CPU seconds, each in a fresh process on an empty
    cache."""
    runs = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory(prefix="numba_cache_") as cache_dir:
            runs.append(_run_child("", cache_dir, "--calibrate-child")["cpu_s"])
    return min(runs)


def check(limits: dict[str, float] = LIMITS, keep: Path | None = None) -> tuple[bool, str]:
    """Cold first games of `limits`' variants against their limits in calibration compiles: (all within, report).
    With `keep`, the kernels the games compiled are copied into that numba cache folder afterwards, for what runs
    next (a test suite) to load instead of compiling them again."""
    unit = calibration_seconds(3)
    ok = True
    lines = [f"calibration compile: {unit:.2f} CPU s"]
    for variant, limit in limits.items():
        with tempfile.TemporaryDirectory(prefix="numba_cache_") as cache_dir:
            cold = _run_child(variant, cache_dir)["cpu_s"]
            if keep is not None:
                shutil.copytree(cache_dir, keep, dirs_exist_ok=True)
        ratio = cold / unit
        within = ratio <= limit
        ok = ok and within
        lines.append(f"{variant}: cold first game {cold:.1f} CPU s = {ratio:.1f} calibration compiles "
                     f"(limit {limit:g}): " + ("ok" if within else "TOO SLOW"))
    return ok, "\n".join(lines)


def report(results: dict[str, dict[str, dict[str, float]]]) -> str:
    """A text table of `measure`'s results."""
    head = ["variant", "cold import s", "cold game s", "cold total s", "cached total s", "steps",
            "first tournament s", "hint cold s", "hint cached s", "warm-up s", "hint after it s"]

    def shown(r: dict[str, dict[str, float]], kind: str, key: str) -> str:
        return f"{r[kind][key]:.1f}" if kind in r else "-"

    rows = [[name, f"{r['cold']['import_s']:.1f}", f"{r['cold']['game_s']:.1f}", f"{r['cold']['total_s']:.1f}",
             f"{r['cached']['total_s']:.2f}", str(int(r["cold"]["steps"])), shown(r, "first_tournament", "process_s"),
             shown(r, "hint_cold", "process_s"), shown(r, "hint_cached", "process_s"),
             shown(r, "hint_after_warm_up", "warm_up_s"), shown(r, "hint_after_warm_up", "hint_s")]
            for name, r in results.items()]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows, strict=True)]
    lines = ["  ".join(str(x).ljust(w) for x, w in zip(row, widths, strict=True)) for row in [head, *rows]]
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m benchmarks.compile_time`."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", nargs="*", choices=list(VARIANTS), default=list(VARIANTS),
                        help="variants to measure (default: all)")
    parser.add_argument("--repeats", type=int, default=1, help="runs per variant, the best is kept (default 1)")
    parser.add_argument("--out", type=Path, default=None, help="JSON file to write (default: none)")
    parser.add_argument("--check", action="store_true",
                        help="only check the cold first games of CHECKED against their limits, exit 1 past one "
                             "(default: off)")
    parser.add_argument("--keep-cache", type=Path, default=None, metavar="DIR",
                        help="with --check: copy the kernels the first games compiled into this numba cache folder "
                             "(default: none)")
    parser.add_argument("--child", choices=list(VARIANTS), default=None, help=argparse.SUPPRESS)
    parser.add_argument("--calibrate-child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--hint-child", choices=list(VARIANTS), default=None, help=argparse.SUPPRESS)
    parser.add_argument("--warm-hint-child", choices=list(VARIANTS), default=None, help=argparse.SUPPRESS)
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.keep_cache is not None:
        if not args.check:
            parser.error("--keep-cache goes with --check (it keeps the kernels the checked games compiled)")
        if args.keep_cache.exists() and not args.keep_cache.is_dir():
            parser.error(f"--keep-cache {args.keep_cache} is not a folder; give a folder (made if missing)")
    if args.calibrate_child:
        print(json.dumps(calibrate()))
        return
    if args.check:
        ok, text = check(keep=args.keep_cache)
        print(text)
        sys.exit(0 if ok else 1)
    if args.child is not None:
        print(json.dumps(play_first_game(args.child)))
        return
    if args.hint_child is not None or args.warm_hint_child is not None:
        print(json.dumps(first_hint(args.hint_child or args.warm_hint_child, args.warm_hint_child is not None)))
        return
    results = measure(args.variants, max(args.repeats, 1))
    print(report(results))
    unit = calibration_seconds(max(args.repeats, 1))
    ratios = {variant: results[variant]["cold"]["cpu_s"] / unit for variant in CHECKED if variant in results}
    print(f"\ncalibration compile {unit:.2f} CPU s; cold first games in calibration compiles (CPU seconds): "
          + ", ".join(f"{variant} {ratio:.1f} (limit {LIMITS[variant]:g})" for variant, ratio in ratios.items()))
    if args.out is not None:
        doc = {"date": datetime.datetime.now().isoformat(timespec="seconds"), "python": platform.python_version(),
               "cpu_count": os.cpu_count(), "load_average": os.getloadavg()[0], "repeats": args.repeats,
               "variants": results, "check": {"calibration_s": unit, "ratios": ratios, "limits": LIMITS}}
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(doc, indent=2) + "\n")
        print(f"\nwrote {args.out}")


if __name__ == "__main__":
    main()
