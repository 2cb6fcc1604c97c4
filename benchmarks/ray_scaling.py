"""How throughput grows with Ray workers: tournaments, az self-play and the PPO rollout, on a local Ray instance.

    python -m benchmarks.ray_scaling                    # workers 1 and 2; writes benchmarks/results/ray_scaling.json
    python -m benchmarks.ray_scaling --workers 1,2,4,8,16 --out /tmp/ray_scaling.json    # a larger machine
    python -m benchmarks.ray_scaling --quick            # a smoke run of seconds (writes nothing unless --out)

Each figure runs in a fresh process with its own local Ray instance of N CPUs (`ray.init(num_cpus=N)`), so Ray
schedules at most N workers at once; the same work without Ray (`--workers N` processes, or one process) is
measured beside it. What is measured:

* tournament: `run_tournament(config, ray=True)` of `--agents` over `--games` games (duplicate format, seed 0),
  wall seconds and games/s; the results are checked equal to those of the one-process run;
* az self-play: one iteration of `RaySelfPlay(N)` (the shipped 2-player network, 32 simulations a decision,
  `--az-games` games spread over the N actors), positions/s and simulations/s, after a warm-up iteration;
* PPO rollout: `MaskablePPO.learn` over `--ppo-steps` steps on `train_ppo`'s env (128 games, half Full Greedy,
  10% random, the rest a frozen snapshot) whose games step on N `RayEnvs` actors, steps/s (rollout and updates
  in the driver, as in training), after a warm-up of one rollout; "local" is `make_env` in the driver's process
  (measured once: it has no workers).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "ray_scaling.json"
DEFAULT_AGENTS = "random,greedy,heuristic,mc:p100"


def _tournament(n: int, ray: bool, args: argparse.Namespace) -> dict[str, Any]:
    from kingdomino_env.rules import Rules
    from tournament import TournamentConfig, run_tournament
    from tournament.ray_runner import init_ray

    config = TournamentConfig(agents=tuple(args.agents.split(",")), rules=Rules(players=2), games=args.games,
                              seed=0)
    if ray:
        init_ray(num_cpus=n)
    began = time.perf_counter()
    result = run_tournament(config, workers=1 if ray else n, ray=ray)
    seconds = time.perf_counter() - began
    games = len(result.games)
    return {"seconds": round(seconds, 2), "games": games, "games_per_s": round(games / seconds, 2),
            "units": config.n_units, "results": result.to_dict(timings=False)}


def _az(n: int, ray: bool, args: argparse.Namespace) -> dict[str, Any]:
    import numpy as np

    from agents.az.files import shipped_network
    from kingdomino_env.rules import Rules
    from training.az_selfplay import ProcessSelfPlay, SelfPlayConfig

    network = shipped_network(Rules(players=2))
    config = SelfPlayConfig(simulations=32).to_dict()
    variants = [{"players": 2}]
    if ray:
        from training.ray_selfplay import RaySelfPlay

        workers: Any = RaySelfPlay(n, num_cpus=n)
    else:
        workers = ProcessSelfPlay(n)
    per = np.diff(np.linspace(0, args.az_games, n + 1).astype(int))
    with workers:
        workers.play(network, variants, [(1, 99 + k) for k in range(n)], config)
        began = time.perf_counter()
        results = workers.play(network, variants, [(int(g), 7 + k) for k, g in enumerate(per) if g], config)
        seconds = time.perf_counter() - began
    positions = sum(len(p) for p, _, _ in results)
    simulations = sum(s for _, s, _ in results)
    return {"seconds": round(seconds, 2), "games": args.az_games, "positions": positions,
            "positions_per_s": round(positions / seconds, 1), "simulations_per_s": round(simulations / seconds)}


def _ppo(n: int, ray: bool, args: argparse.Namespace) -> dict[str, Any]:
    import torch
    from sb3_contrib import MaskablePPO

    from agents.network import KingdominoPolicy
    from kingdomino_env.envs.sb3 import ModelPolicy
    from training.train_ppo import TrainConfig, make_env

    torch.set_num_threads(1)
    config = TrainConfig(games=128, n_steps=64, batch_size=2048, n_epochs=4, out="/tmp/unused")
    make: Any = make_env
    if ray:
        from training.ray_selfplay import RayEnvs

        make = RayEnvs(workers=n, num_cpus=n)
    model = MaskablePPO(KingdominoPolicy, make(config, [], 0), n_steps=config.n_steps, batch_size=config.batch_size,
                        n_epochs=config.n_epochs, policy_kwargs={"channels": config.channels, "hidden": config.hidden},
                        seed=0, device="cpu")
    snapshot = ModelPolicy(model)
    model.set_env(make(config, [snapshot], 1))
    rollout = config.games * config.n_steps
    model.learn(rollout)
    began = time.perf_counter()
    model.learn(args.ppo_steps, reset_num_timesteps=False)
    seconds = time.perf_counter() - began
    steps = model.num_timesteps - rollout
    return {"seconds": round(seconds, 2), "steps": steps, "steps_per_s": round(steps / seconds)}


KINDS = {"tournament": _tournament, "az_selfplay": _az, "ppo_rollout": _ppo}


def _child(args: argparse.Namespace) -> None:
    kind, n, mode = args.child
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    figures = KINDS[kind](int(n), mode == "ray", args)
    print("RESULT " + json.dumps(figures), flush=True)


def _run(kind: str, n: int, mode: str, args: argparse.Namespace) -> dict[str, Any]:
    command = [sys.executable, "-m", "benchmarks.ray_scaling", "--child", kind, str(n), mode, "--games",
               str(args.games), "--agents", args.agents, "--az-games", str(args.az_games), "--ppo-steps",
               str(args.ppo_steps)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    if done.returncode or not lines:
        raise RuntimeError(f"{kind} with {n} {mode} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}")
    return json.loads(lines[-1].removeprefix("RESULT "))


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m benchmarks.ray_scaling`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="1,2",
                        help="comma-separated worker counts (Ray CPUs) (default: %(default)s)")
    parser.add_argument("--only", choices=sorted(KINDS), action="append",
                        help="measure only this (repeatable) (default: all of them)")
    parser.add_argument("--agents", default=DEFAULT_AGENTS,
                        help="the tournament's agent specs (default: %(default)s)")
    parser.add_argument("--games", type=int, default=240,
                        help="games of the tournament (default: %(default)s; --quick sets 12)")
    parser.add_argument("--az-games", type=int, default=16,
                        help="az self-play games (default: %(default)s; --quick sets 2)")
    parser.add_argument("--ppo-steps", type=int, default=32768,
                        help="PPO rollout steps (default: %(default)s; --quick sets 8192)")
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for a smoke run (default: off)")
    parser.add_argument("--out", type=Path, help=f"JSON file to write (default: {DEFAULT_OUT}, none with --quick)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.child:
        _child(args)
        return
    if args.quick:
        args.games, args.az_games, args.ppo_steps = 12, 2, 8192
    counts = [int(n) for n in args.workers.split(",")]
    out = args.out if args.out is not None else (None if args.quick else DEFAULT_OUT)
    from benchmarks.throughput import machine_info

    report: dict[str, Any] = {"date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                              "machine": machine_info(None), "load_average_before": os.getloadavg(),
                              "settings": {"agents": args.agents, "games": args.games, "az_games": args.az_games,
                                           "az_simulations": 32, "ppo_steps": args.ppo_steps, "workers": counts}}
    for kind in args.only or list(KINDS):
        rows = []
        baseline = None
        for n in counts:
            for mode in ("local", "ray") if kind != "ppo_rollout" or n == counts[0] else ("ray",):
                figures = _run(kind, n, mode, args)
                results = figures.pop("results", None)
                if kind == "tournament":
                    baseline = results if baseline is None else baseline
                    figures["identical_to_one_process"] = results == baseline
                rows.append({"workers": n, "mode": mode, **figures})
                print(kind, n, mode, figures, flush=True)
        report[kind] = rows
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        from kingdomino_env.files import write_text_atomic

        write_text_atomic(out, json.dumps(report, indent=2) + "\n")
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
