"""Throughput of the Kingdomino environments, all measured in one run, in one process pinned to one core.

    python -m benchmarks.throughput            # a few minutes at most; writes benchmarks/results/throughput.json
    python -m benchmarks.throughput --quick    # seconds, for a smoke run (writes nothing unless --out is given)

Measured:

* AEC env: `kingdomino_env.env()` (with its PettingZoo wrappers) playing random legal actions taken from the
  action mask, agent-steps/s and games/s; PettingZoo's connect_four_v3 measured with the same loop in the same run
  as the reference (it needs pygame-ce, which PettingZoo's classic games import).
* Batched core: `legal_action_mask` + `observe` + `random_legal_actions` + `step` on B games at once, for
  B = 1, 64, 1024, 4096, in 2-player, 4-player, Mighty Duel, 2-player Queendomino and 8-player Royal Wedding
  (individual and teams) games: agent-steps/s (dealing excluded) and full random games/s (dealing included).
* Training envs: `KingdominoVectorEnv` (random and greedy opponents, self-play), its SB3 adapter and the
  single-game Gymnasium env, with random legal learner actions: env steps/s (learner decisions, or slots in
  self-play) and agent-steps/s (every action taken in the games, opponents' included).
* Memory per game: the bytes of a game's core state, plus one observation and one mask; and what a
  `KingdominoVectorEnv` of 4096 games holds per game (tracemalloc).

Each figure is the best of 3 one-second windows (`--windows`, `--seconds`), the windows of all measurements
interleaved (round 1 measures everything once, then round 2, ...): on a shared machine the least disturbed window
is the closest to the code's own speed, and figures compared with each other see the same conditions. Every
window's figure is kept in the JSON. Then the issue's targets are checked: AEC env >= 1.0x connect_four_v3;
batched core >= 300,000 agent-steps/s at B = 1024 (2 players, observations included) and >= 30x the AEC env;
Queendomino >= 250,000 (2 players) and the Royal Wedding >= 150,000 (8 players, individual and teams) at B = 1024.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from kingdomino_env import core
from kingdomino_env.files import write_text_atomic
from kingdomino_env.rules import Rules
from kingdomino_env.vector_env import KingdominoVectorEnv

VARIANTS: dict[str, Rules] = {
    "2 players": Rules(players=2),
    "4 players": Rules(players=4),
    "Mighty Duel": Rules(players=2, mighty_duel=True),
    "Queendomino 2 players": Rules(game="queendomino", players=2),
    "Royal Wedding 8 players": Rules(game="royal_wedding", players=8),
    "Royal Wedding 8 players, teams": Rules(game="royal_wedding", players=8, teams=True),
}
BATCHES = (1, 64, 1024, 4096)
DEFAULT_OUT = Path(__file__).parent / "results" / "throughput.json"


def _timed(run_once: Callable[[], tuple[int, int]], seconds: float) -> tuple[float, int, int]:
    """Call run_once (returning (agent-steps, games)) until `seconds` have passed; (elapsed, steps, games)."""
    steps = games = 0
    start = time.perf_counter()
    while True:
        s, g = run_once()
        steps += s
        games += g
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return elapsed, steps, games


Window = Callable[[], dict[str, float]]


def measure(cases: dict[tuple[str, ...], tuple[Window, str]], repeats: int) -> dict[tuple[str, ...], dict[str, Any]]:
    """Run every case's measurement window `repeats` times, interleaved (round r measures every case once), and
    keep each case's window with the highest figure (its `key`): on a shared machine, the least disturbed one.
    Interleaving spreads each case's windows over the whole run, so a burst of other work cannot spoil all of
    them, and cases compared with each other (the targets) see the same conditions."""
    windows: dict[tuple[str, ...], list[dict[str, float]]] = {name: [] for name in cases}
    for _ in range(repeats):
        for name, (window, _) in cases.items():
            windows[name].append(window())
    out = {}
    for name, (_, key) in cases.items():
        best = max(windows[name], key=lambda w, k=key: w[k])
        out[name] = {**best, "windows": repeats, f"{key}_all": [round(w[key], 1) for w in windows[name]]}
    return out


def aec_window(make: Callable[[], Any], seconds: float, seed: int = 0) -> Window:
    """A measurement of whole games of an AEC env with uniformly random legal actions from the action mask."""
    env = make()
    rng = np.random.default_rng(seed)
    counter = iter(range(10**9))

    def one_game() -> tuple[int, int]:
        env.reset(seed=seed + next(counter))
        steps = 0
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(legal.size)])
                steps += 1
            env.step(action)
        return steps, 1

    def window() -> dict[str, float]:
        elapsed, steps, games = _timed(one_game, seconds)
        return {"steps_per_s": steps / elapsed, "games_per_s": games / elapsed, "steps": steps, "games": games,
                "seconds": elapsed}

    one_game()  # warm-up
    return window


def core_window(rules: Rules, batch: int, seconds: float, seed: int = 0) -> Window:
    """A measurement of full random games on the batched core, B at a time, masks and observations computed at
    every step."""
    rng = np.random.default_rng(seed)
    mask = np.empty((batch, rules.n_actions), dtype=np.bool_)
    obs = core.observe(core.new_games(rules, range(batch)))
    loop_time = 0.0
    counter = iter(range(0, 10**12, batch))

    def batch_of_games() -> tuple[int, int]:
        nonlocal loop_time
        first = next(counter)
        state = core.new_games(rules, range(first, first + batch))
        start = time.perf_counter()
        steps = 0
        while not state.is_over.all():
            steps += int((~state.is_over).sum())
            core.legal_action_mask(state, out=mask)
            core.observe(state, out=obs)
            core.step(state, core.random_legal_actions(mask, rng))
        loop_time += time.perf_counter() - start
        return steps, batch

    def window() -> dict[str, float]:
        nonlocal loop_time
        loop_time = 0.0
        elapsed, steps, games = _timed(batch_of_games, seconds)
        return {"agent_steps_per_s": steps / loop_time, "games_per_s": games / elapsed, "steps": steps,
                "games": games, "seconds": elapsed}

    batch_of_games()  # warm-up
    return window


def vector_window(make: Callable[[], KingdominoVectorEnv], seconds: float, sb3: bool = False, seed: int = 0
                  ) -> Window:
    """A measurement of random legal learner actions in a vector env (or its SB3 adapter), auto-reset included;
    no network."""
    vec = make()
    rng = np.random.default_rng(seed)
    if sb3:
        from sb3_contrib.common.maskable.utils import get_action_masks

        from kingdomino_env.envs.sb3 import SB3VecEnv

        env = SB3VecEnv(vec)
        env.seed(seed)
        env.reset()

        def step() -> None:  # masks fetched the way MaskablePPO fetches them
            env.step(core.random_legal_actions(get_action_masks(env), rng))
    else:
        vec.reset(seed=seed)

        def step() -> None:
            vec.step(core.random_legal_actions(vec.action_masks(), rng))

    def chunk() -> tuple[int, int]:
        for _ in range(10):
            step()
        return 10 * vec.num_envs, 0

    def window() -> dict[str, float]:
        before = vec.agent_steps
        elapsed, env_steps, _ = _timed(chunk, seconds)
        return {"env_steps_per_s": env_steps / elapsed, "agent_steps_per_s": (vec.agent_steps - before) / elapsed,
                "num_envs": vec.num_envs, "seconds": elapsed}

    for _ in range(5):
        step()
    return window


def solo_window(seconds: float, seed: int = 0) -> Window:
    """A measurement of the single-game Gymnasium env (through gymnasium.make), random legal learner actions."""
    import gymnasium

    env = gymnasium.make("kingdomino/KingdominoSolo-v0")
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)

    def chunk() -> tuple[int, int]:
        steps = games = 0
        for _ in range(100):
            legal = np.flatnonzero(env.unwrapped.action_masks())
            _, _, terminated, _, _ = env.step(int(legal[rng.integers(legal.size)]))
            steps += 1
            if terminated:
                env.reset()
                games += 1
        return steps, games

    def window() -> dict[str, float]:
        elapsed, steps, games = _timed(chunk, seconds)
        return {"env_steps_per_s": steps / elapsed, "games_per_s": games / elapsed, "seconds": elapsed}

    return window


def memory_per_game(rules: Rules, batch: int = 1024) -> dict[str, int]:
    state = core.new_games(rules, range(batch))
    state_bytes = sum(v.nbytes for v in state._arrays().values()) // batch
    obs_bytes = core.observe(state.take([0])).nbytes
    return {"state": state_bytes, "observation": obs_bytes, "mask": rules.n_actions,
            "total": state_bytes + obs_bytes + rules.n_actions}


def vector_env_memory_per_game(num_games: int = 4096) -> int:
    """Bytes per game held by a `KingdominoVectorEnv` of 2-player games after a few steps (tracemalloc: state,
    observations, masks and everything else the env keeps)."""
    import tracemalloc

    KingdominoVectorEnv(8).reset(seed=0)  # one-time imports and compiled code are not per game
    tracemalloc.start()
    vec = KingdominoVectorEnv(num_games)
    vec.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(5):
        vec.step(core.random_legal_actions(vec.action_masks(), rng))
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return held // num_games


def machine_info(cpu: int | None) -> dict[str, Any]:
    import gymnasium
    import numba
    import pettingzoo

    model = platform.processor()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = None
    try:
        memory = int(Path("/proc/meminfo").read_text().split()[1]) * 1024
    except (OSError, IndexError, ValueError):
        pass
    return {"cpu": model, "logical_cpus": os.cpu_count(), "pinned_to_cpu": cpu, "memory_bytes": memory,
            "platform": platform.platform(), "python": platform.python_version(), "numpy": np.__version__,
            "numba": numba.__version__, "gymnasium": gymnasium.__version__, "pettingzoo": pettingzoo.__version__}


def idle_cpu(sample_s: float = 0.5) -> int:
    """The allowed CPU that was least busy over a short sample of /proc/stat (the last allowed one if unknown)."""
    allowed = sorted(os.sched_getaffinity(0))

    def busy() -> dict[int, tuple[int, int]]:
        out = {}
        for line in Path("/proc/stat").read_text().splitlines():
            name, *ticks = line.split()
            if name.startswith("cpu") and name[3:].isdigit():
                values = [int(t) for t in ticks]
                out[int(name[3:])] = (sum(values) - values[3] - values[4], sum(values))
        return out

    try:
        before = busy()
        time.sleep(sample_s)
        after = busy()
        return min(allowed, key=lambda c: ((after[c][0] - before[c][0]) / max(after[c][1] - before[c][1], 1), -c))
    except (OSError, KeyError, ValueError, IndexError):
        return allowed[-1]


def pin_cpu(cpu: int | None) -> int | None:
    """Pin this process to `cpu` (None: the least busy one; -1: do not pin); the CPU pinned to, or None. ValueError
    naming the CPUs this process may run on when `cpu` is none of them."""
    if cpu == -1 or not hasattr(os, "sched_setaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    if cpu is not None and cpu not in allowed:
        raise ValueError(f"--cpu must be -1 (no pinning) or a CPU this process may run on "
                         f"({', '.join(map(str, allowed))}), got {cpu}")
    cpu = idle_cpu() if cpu is None else cpu
    os.sched_setaffinity(0, {cpu})
    return cpu


def _fmt(x: float) -> str:
    return f"{x:,.0f}"


def _table(title: str, header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    line = "  ".join("-" * w for w in widths)
    out = [title, "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)), line]
    out += ["  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
            for r in rows]
    return "\n".join(out)


def run(seconds: float, repeats: int, cpu: int | None) -> dict[str, Any]:
    """All measurements; returns the JSON-able results."""
    results: dict[str, Any] = {"date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                               "load_average_before": list(os.getloadavg()), "seconds_per_window": seconds,
                               "windows_per_measurement": repeats,
                               "machine": machine_info(cpu)}
    import kingdomino_env

    aec = aec_window(lambda: kingdomino_env.env(players=2), seconds)
    cases: dict[tuple[str, ...], tuple[Window, str]] = {("aec", "kingdomino_v0 (2 players)"): (aec, "steps_per_s")}
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError as err:
        print(f"connect_four_v3 not measured ({err}); pip install pygame-ce")
    else:
        cases["aec", "connect_four_v3"] = (aec_window(connect_four_v3.env, seconds), "steps_per_s")
    cases["aec", "queendomino_v0 (2 players)"] = (
        aec_window(lambda: kingdomino_env.env(game="queendomino", players=2), seconds), "steps_per_s")
    for name, rules in VARIANTS.items():
        for b in BATCHES:
            cases["core", name, str(b)] = (core_window(rules, b, seconds), "agent_steps_per_s")
    vec_cases: dict[str, tuple[Callable[[], KingdominoVectorEnv], bool]] = {
        "vector env, 1024 games, random opponents": (lambda: KingdominoVectorEnv(1024), False),
        "vector env, 1024 games, greedy opponents": (lambda: KingdominoVectorEnv(1024, opponents="greedy"), False),
        "vector env, 64 games, random opponents": (lambda: KingdominoVectorEnv(64), False),
        "vector env, 1024 games, self-play (2048 slots)": (lambda: KingdominoVectorEnv(1024, self_play=True), False),
        "SB3VecEnv, 1024 games, random opponents": (lambda: KingdominoVectorEnv(1024), True),
        "vector env, 1024 games, 4 players, random opponents": (lambda: KingdominoVectorEnv(1024, players=4),
                                                                 False),
    }
    for name, (make, sb3) in vec_cases.items():
        cases["training_envs", name] = (vector_window(make, seconds, sb3), "env_steps_per_s")
    cases["training_envs", "KingdominoSolo-v0 (gymnasium.make), random opponent"] = (solo_window(seconds),
                                                                                     "env_steps_per_s")
    for (group, *name), figures in measure(cases, repeats).items():
        level = results.setdefault(group, {})
        for part in name[:-1]:
            level = level.setdefault(part, {})
        level[name[-1]] = figures
    results["memory_per_game_bytes"] = {name: memory_per_game(rules) for name, rules in VARIANTS.items()}
    results["vector_env_memory_per_game_bytes"] = vector_env_memory_per_game()
    results["load_average_after"] = list(os.getloadavg())
    results["targets"] = targets(results)
    return results


def targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    aec = results["aec"]["kingdomino_v0 (2 players)"]["steps_per_s"]
    core_1024 = results["core"]["2 players"]["1024"]["agent_steps_per_s"]
    out = []
    if "connect_four_v3" in results["aec"]:
        ratio = aec / results["aec"]["connect_four_v3"]["steps_per_s"]
        out.append({"target": "AEC env >= 1.0x connect_four_v3 steps/s", "measured": f"{ratio:.2f}x",
                    "met": bool(ratio >= 1.0)})
    out.append({"target": "batched core >= 300,000 agent-steps/s at B=1024, 2 players, observations included",
                "measured": _fmt(core_1024), "met": bool(core_1024 >= 300_000)})
    out.append({"target": "batched core (B=1024, 2 players) >= 30x the AEC env", "measured": f"{core_1024 / aec:.0f}x",
                "met": bool(core_1024 / aec >= 30)})
    queen = results["core"]["Queendomino 2 players"]["1024"]["agent_steps_per_s"]
    out.append({"target": "Queendomino core >= 250,000 agent-steps/s at B=1024, 2 players, observations included "
                "(issue 11)", "measured": _fmt(queen), "met": bool(queen >= 250_000)})
    for name in ("Royal Wedding 8 players", "Royal Wedding 8 players, teams"):
        royal = results["core"][name]["1024"]["agent_steps_per_s"]
        out.append({"target": f"{name}: core >= 150,000 agent-steps/s at B=1024, observations included (issue 13)",
                    "measured": _fmt(royal), "met": bool(royal >= 150_000)})
    if "connect_four_v3" in results["aec"]:
        ratio = results["aec"]["queendomino_v0 (2 players)"]["steps_per_s"] / results["aec"]["connect_four_v3"][
            "steps_per_s"]
        out.append({"target": "Queendomino AEC env >= 0.7x connect_four_v3 steps/s (issue 11)",
                    "measured": f"{ratio:.2f}x", "met": bool(ratio >= 0.7)})
    return out


def report(results: dict[str, Any]) -> str:
    m = results["machine"]
    parts = [f"{results['date']}  {m['cpu']}, {m['logical_cpus']} logical CPUs, pinned to CPU {m['pinned_to_cpu']}, "
             f"Python {m['python']}, numpy {m['numpy']}, numba {m['numba']}; load average before "
             f"{results['load_average_before'][0]:.2f}, after {results['load_average_after'][0]:.2f}; best of "
             f"{results['windows_per_measurement']} windows of {results['seconds_per_window']:g} s"]
    parts.append(_table("AEC envs (random legal actions, one game at a time)", ["env", "agent-steps/s", "games/s"],
                        [[k, _fmt(v["steps_per_s"]), f"{v['games_per_s']:,.1f}"]
                         for k, v in results["aec"].items()]))
    rows = [[name, str(b), _fmt(v["agent_steps_per_s"]), _fmt(v["games_per_s"])]
            for name, by_b in results["core"].items() for b, v in by_b.items()]
    parts.append(_table("Batched core (random legal actions; masks and observations every step)",
                        ["variant", "B", "agent-steps/s", "full games/s"], rows))
    parts.append(_table("Training envs (random legal learner actions, auto-reset)",
                        ["env", "env steps/s", "agent-steps/s"],
                        [[k, _fmt(v["env_steps_per_s"]), _fmt(v["agent_steps_per_s"]) if "agent_steps_per_s" in v
                          else "-"] for k, v in results["training_envs"].items()]))
    parts.append(_table("Memory per game (bytes)", ["variant", "state", "observation", "mask", "total"],
                        [[k, *(str(v[c]) for c in ("state", "observation", "mask", "total"))]
                         for k, v in results["memory_per_game_bytes"].items()]))
    parts.append(f"KingdominoVectorEnv (4096 two-player games, after 5 steps, tracemalloc): "
                 f"{results['vector_env_memory_per_game_bytes']:,} bytes per game")
    parts.append(_table("Targets", ["target", "measured", "met"],
                        [[t["target"], t["measured"], "yes" if t["met"] else "NO"] for t in results["targets"]]))
    return "\n\n".join(parts)


def measurement_parser(description: str, default_out: Path) -> argparse.ArgumentParser:
    """A command line with the options every timed benchmark shares: --quick, --seconds, --windows, --out, --cpu."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true",
                        help="short measurements (a smoke run); no JSON unless --out (default: off)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="seconds per measurement window (default 1, quick 0.2)")
    parser.add_argument("--windows", type=int, default=None,
                        help="windows per measurement, the best one is kept (default 3, quick 1)")
    parser.add_argument("--out", type=Path, default=None,
                        help=f"JSON file to write (default: {default_out}, none with --quick)")
    parser.add_argument("--cpu", type=int, default=None,
                        help="CPU to pin this process to (default: the least busy one); -1 to not pin")
    return parser


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m benchmarks.throughput`."""
    return measurement_parser(__doc__.split("\n\n")[0], DEFAULT_OUT)


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else (0.2 if args.quick else 1.0)
    repeats = args.windows if args.windows is not None else (1 if args.quick else 3)
    if seconds <= 0 or repeats < 1:
        parser.error("--seconds must be > 0 and --windows >= 1")
    try:
        cpu = pin_cpu(args.cpu)
    except ValueError as err:
        parser.error(str(err))
    results = run(seconds, repeats, cpu)
    print(report(results))
    out = args.out if args.out is not None else (None if args.quick else DEFAULT_OUT)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(out, json.dumps(results, indent=2) + "\n")
        print(f"\nwrote {out}")


if __name__ == "__main__":
    main()
