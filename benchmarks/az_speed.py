"""Speed of the `az` agents (PUCT search guided by a policy/value network), on one core, in one process.

    python -m benchmarks.az_speed            # a few minutes; writes benchmarks/results/az_speed.json
    python -m benchmarks.az_speed --quick    # well under a minute, for a smoke run (writes nothing unless --out)

The network is the shipped one of each variant (`agents/models/az_*.az`) where it exists, else a freshly
initialised `NetConfig()` network of the same shape (the output says which): the time per simulation depends on the
network's shape, not on its weights (only a little, through the shape of the trees it grows). Torch runs on one
thread and the process is pinned to one CPU, as tournament workers and self-play workers run.

Measured, in 2-player 5x5 games, 4-player games and the Mighty Duel:

* search: simulations/s (and decisions/s) of `AZAgent` at 64 and 256 simulations per move, deciding one game at a
  time, then 16 games at once (one search call for all of them, as tournaments and self-play decide), over seeded
  positions from real games (Full Greedy played each game to a different depth);
* policy alone (`az:0`): decisions/s for a batch of 1 and of 256 games;
* the network: evaluations/s by batch size (1, 8, 16, 32, 128, 512), through `NetworkEvaluator` (observation,
  features, forward pass, utilities; the agents' default inference, "auto") and the forward pass alone, as trained
  ("torch") and as the fast copy runs it ("fast", `agents.az.inference`), for frame 9 (2 and 4 players) and
  frame 13;
* where a search's time goes (`PARTS`): the network's forward pass, its inputs (observation and features), the
  core (legal masks and steps of the worlds), determinisation, the playouts mixed into leaf values, and
  the rest (the tree in Python: selection, backup, copying worlds, scoring finished games), timed inside searches
  by wrapping those calls: what limits them;
* self-play games per hour with `training.az_selfplay.selfplay` at 64 simulations per decision, 8 games at once
  (2 players and the Mighty Duel);
* the compiled search beside them (`csearch`, `agents.csearch`): simulations/s at 200 and 1,000 simulations per
  move, one game at a time, with the heuristic valuing its leaves, with its value network alone (the shipped one
  where it exists, else untrained weights of the same shape: the time hardly depends on the weights), and with the
  network mixed with a Full Greedy playout per leaf (the agent's default); and its self-play games per hour
  (`training.csearch_net.selfplay`, 200 simulations per decision, network or heuristic leaves alone).

Each search, policy and network figure is the best of 3 windows of about a second (`--windows`, `--seconds`),
interleaved as in `benchmarks.throughput`; every window's figure is kept in the JSON. The breakdown and self-play
figures are one run each.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from agents.budget import Budget
from kingdomino_env import core
from kingdomino_env.core import State
from kingdomino_env.files import write_text_atomic
from kingdomino_env.policies import greedy_actions
from kingdomino_env.rules import Rules

from .throughput import Window, _fmt, _table, _timed, machine_info, measure, measurement_parser, pin_cpu

VARIANTS: dict[str, Rules] = {
    "2 players": Rules(players=2),
    "4 players": Rules(players=4),
    "Mighty Duel": Rules(players=2, mighty_duel=True),
}
#: The variants whose network evaluations are measured (frame 9 with 2 and 4 kingdoms, frame 13).
NETWORK_VARIANTS = {"frame 9, 2 players": "2 players", "frame 9, 4 players": "4 players",
                    "frame 13 (Mighty Duel)": "Mighty Duel"}
SELFPLAY_VARIANTS = ("2 players", "Mighty Duel")
#: How network evaluations are measured: (forward pass alone, inference) by name.
NETWORK_KINDS = {"evaluator": (False, "auto"), "forward pass": (True, "torch"), "forward pass, fast": (True, "fast")}
DEFAULT_OUT = Path(__file__).parent / "results" / "az_speed.json"
#: Positions per variant: the search deciding 16 games at once uses all of them, one game at a time every 4th.
POSITIONS = 16
SINGLE = (0, 4, 8, 12)
#: The parts of a search's time (see `breakdown`).
FORWARD, INPUTS, CORE, DETERMINISE, PLAYOUT, TREE = "forward", "inputs", "core", "determinise", "playout", "tree"
PARTS = {FORWARD: "the network's forward pass", INPUTS: "the network's inputs and outputs (observation, features, "
         "utilities)", CORE: "the core's legal masks and steps of the worlds", DETERMINISE: "sampling the worlds",
         PLAYOUT: "the playouts of the rollout mix", TREE: "the rest: the tree in Python (selection, "
         "backup), copying worlds, scoring finished games"}


@dataclass(frozen=True)
class Settings:
    """What is measured: simulations per move, games decided at once, batch sizes, windows, self-play games."""

    simulations: tuple[int, ...] = (64, 256)
    batched_games: int = 16
    policy_batches: tuple[int, ...] = (1, 256)
    network_batches: tuple[int, ...] = (1, 8, 16, 32, 128, 512)
    breakdown_simulations: int = 256
    selfplay_games: int = 8
    selfplay_simulations: int = 64
    seconds: float = 1.0
    windows: int = 3


    csearch_simulations: tuple[int, ...] = (200, 1000)
    csearch_selfplay_games: int = 8
    csearch_selfplay_simulations: int = 200


QUICK = Settings(simulations=(64,), breakdown_simulations=64, selfplay_games=2, selfplay_simulations=16,
                 seconds=0.2, windows=1, csearch_simulations=(200,), csearch_selfplay_games=1,
                 csearch_selfplay_simulations=50)


# Positions and networks ---------------------------------------------------------------------------------------------
def positions(rules: Rules, count: int = POSITIONS, seed: int = 0) -> tuple[State, np.ndarray]:
    """(state of `count` positions, their legal masks): game k (seeded seed + k) played by Full Greedy to about
    k / count of its length, then on to its next decision with more than one legal action."""
    length = _greedy_game_length(rules, seed)
    targets = (np.arange(count) * 0.95 * length / count).astype(np.int64)
    state = core.new_games(rules, range(seed, seed + count))
    out = state.copy()
    taken = np.zeros(count, dtype=bool)
    rng = np.random.default_rng(seed)
    while not taken.all():
        mask = core.legal_action_mask(state)
        ready = ~taken & (state.n_steps >= targets) & (mask.sum(axis=1) > 1) & ~state.is_over
        if ready.any():
            out.put(np.flatnonzero(ready), state.take(np.flatnonzero(ready)))
            taken |= ready
        live = np.flatnonzero(~state.is_over)
        if live.size == 0:
            raise RuntimeError(f"games ended before every position was taken ({rules})")
        actions = np.zeros(count, dtype=np.int64)
        actions[live] = greedy_actions(state, live, rng)
        core.step(state, actions)
    return out, core.legal_action_mask(out)


def _greedy_game_length(rules: Rules, seed: int) -> int:
    state = core.new_games(rules, [seed])
    rng = np.random.default_rng(seed)
    while not state.is_over[0]:
        core.step(state, greedy_actions(state, np.zeros(1, dtype=np.int64), rng))
    return int(state.n_steps[0])


def network_files(folder: Path) -> dict[str, dict[str, Any]]:
    """Per variant: the network file the agents use (shipped, or fresh saved in `folder`) and which it is."""
    import torch

    from agents.az.files import SHIPPED, read_info, save_network
    from agents.az.network import AZNet, NetConfig

    out = {}
    for name, rules in VARIANTS.items():
        shipped = SHIPPED[(rules.frame, rules.players)]
        if shipped.is_file():
            info = read_info(shipped)
            out[name] = {"file": str(shipped), "weights": "shipped", "config": info.config}
            continue
        torch.manual_seed(0)
        path = folder / f"fresh_{rules.frame}_{rules.players}p.az"
        save_network(path, AZNet(rules.frame, NetConfig()), [rules.players], {"games": 0})
        out[name] = {"file": str(path), "weights": f"fresh (untrained; {shipped.name} not found)",
                     "config": NetConfig().to_dict()}
    return out


# Measurement windows -----------------------------------------------------------------------------------------------
def search_window(network: str, simulations: int, state: State, mask: np.ndarray, games: np.ndarray,
                  at_once: bool, seconds: float) -> Window:
    """`AZAgent` deciding `games` of `state` (all in one call if `at_once`, else one call per game)."""
    from agents.az.agent import AZAgent

    agent = AZAgent(simulations=simulations, network=network, seed=0)
    groups = [games] if at_once else [games[k:k + 1] for k in range(games.size)]

    def decide_all() -> tuple[int, int]:
        before = agent.simulations_run
        for group in groups:
            agent.act(state, group, mask[group], None)
        return agent.simulations_run - before, int(games.size)

    agent.act(state, games[:1], mask[games[:1]], None)  # warm-up: loads the network

    def window() -> dict[str, float]:
        elapsed, sims, decisions = _timed(decide_all, seconds)
        return {"simulations_per_s": sims / elapsed, "decisions_per_s": decisions / elapsed,
                "simulations": sims, "decisions": decisions, "seconds": elapsed}

    return window


def policy_window(network: str, state: State, mask: np.ndarray, batch: int, seconds: float) -> Window:
    """`az:0` (the network's policy alone) deciding `batch` games at once (the positions repeated)."""
    from agents.az.agent import AZAgent

    agent = AZAgent(simulations=0, network=network, seed=0)
    index = np.resize(np.arange(state.batch_size), batch)
    big, big_mask = state.take(index), mask[index]
    games = np.arange(batch)

    def decide() -> tuple[int, int]:
        agent.act(big, games, big_mask, None)
        return 0, batch

    decide()

    def window() -> dict[str, float]:
        elapsed, _, decisions = _timed(decide, seconds)
        return {"decisions_per_s": decisions / elapsed, "decisions": decisions, "seconds": elapsed}

    return window


def network_window(network: str, state: State, batch: int, seconds: float, forward_only: bool,
                   inference: str) -> Window:
    """Network evaluations of `batch` positions per call, the network run as `inference` says: through
    `NetworkEvaluator`, or the forward pass alone on inputs encoded beforehand."""
    from agents.az.features import encode
    from agents.az.files import load_network
    from agents.az.inference import inference_network
    from agents.az.search import NetworkEvaluator

    net = inference_network(load_network(network)[0], inference)
    big = state.take(np.resize(np.arange(state.batch_size), batch))
    if forward_only:
        inputs = encode(core.observe(big), big.rules)

        def evaluate() -> tuple[int, int]:
            net.run(inputs)
            return batch, 0
    else:
        evaluator = NetworkEvaluator(net)

        def evaluate() -> tuple[int, int]:
            evaluator(big)
            return batch, 0

    evaluate()

    def window() -> dict[str, float]:
        elapsed, evaluations, _ = _timed(evaluate, seconds)
        return {"evaluations_per_s": evaluations / elapsed, "calls_per_s": evaluations / batch / elapsed,
                "evaluations": evaluations, "seconds": elapsed}

    return window


# Where the time goes -----------------------------------------------------------------------------------------------
class _Clock:
    """Seconds spent in named parts, and wrappers that add a call's duration to a part."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    def wrap(self, part: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds[part] = self.seconds.get(part, 0.0) + time.perf_counter() - start

        return timed


@contextlib.contextmanager
def _timed_search_calls(clock: _Clock) -> Iterator[None]:
    """Within the block, the search module's calls to the core's legal masks and steps, to `determinise` and to
    `playout` add to `clock` (the module's names are swapped for timed ones, and restored after)."""
    from agents.az import search as search_module

    saved_core, saved_determinise = search_module.core, search_module.determinise
    saved_playout = search_module.playout
    proxy = SimpleNamespace(**{name: getattr(core, name) for name in dir(core) if not name.startswith("__")})
    proxy.legal_action_mask = clock.wrap(CORE, core.legal_action_mask)
    proxy.step = clock.wrap(CORE, core.step)
    search_module.core = proxy  # type: ignore[assignment]
    search_module.determinise = clock.wrap(DETERMINISE, saved_determinise)
    search_module.playout = clock.wrap(PLAYOUT, saved_playout)
    try:
        yield
    finally:
        search_module.core, search_module.determinise = saved_core, saved_determinise
        search_module.playout = saved_playout


def breakdown(network: str, state: State, mask: np.ndarray, games: np.ndarray, simulations: int, at_once: bool,
              seed: int = 0) -> dict[str, Any]:
    """Seconds and shares of one search over `games` (one call, or one per game) spent in each part."""
    from agents.az.files import load_network
    from agents.az.inference import inference_network
    from agents.az.search import NetworkEvaluator, PUCTSearch, SearchConfig

    net = inference_network(load_network(network)[0])
    clock = _Clock()
    timed_net = SimpleNamespace(run=clock.wrap(FORWARD, net.run))
    evaluator = NetworkEvaluator(timed_net)
    timed_evaluator = clock.wrap("evaluator", evaluator)
    search = PUCTSearch(timed_evaluator, SearchConfig(), np.random.default_rng(seed))
    groups = [games] if at_once else [games[k:k + 1] for k in range(games.size)]
    PUCTSearch(NetworkEvaluator(net), SearchConfig()).run(state, games[:1], mask[games[:1]], 8)  # warm-up
    with _timed_search_calls(clock):
        start = time.perf_counter()
        for group in groups:
            search.run(state, group, mask[group], simulations)
        total = time.perf_counter() - start
    parts = dict(clock.seconds)
    evaluator_s = parts.pop("evaluator", 0.0)
    forward = parts.get(FORWARD, 0.0)
    parts[INPUTS] = evaluator_s - forward
    parts[TREE] = total - sum(parts.values())
    parts = {k: parts.get(k, 0.0) for k in PARTS}
    return {"seconds": total, "simulations": search.simulations, "simulations_per_s": search.simulations / total,
            "network_evaluations": evaluator.evaluations,
            "parts_seconds": {k: round(v, 4) for k, v in parts.items()},
            "shares": {k: round(v / total, 4) for k, v in parts.items()}}


def csearch_networks(folder: Path) -> dict[str, dict[str, Any]]:
    """Per variant: the compiled search's value network file (shipped, or untrained weights saved in `folder`)."""
    from agents.csearch import network

    out = {}
    for name, rules in VARIANTS.items():
        shipped = network.shipped_weights(rules)
        if shipped is not None:
            out[name] = {"file": str(shipped), "weights": "shipped"}
            continue
        rng = np.random.default_rng(0)
        weights = network.Weights(*(rng.normal(0.0, 0.1, a.shape) for a in network.empty_weights(rules.frame)))
        weights.w1[-1] = 0.0
        path = network.save_weights(folder / f"csearch_untrained_{rules.frame}_{rules.players}p.npz", weights,
                                    {"frame": rules.frame, "players": rules.players})
        out[name] = {"file": str(path), "weights": "untrained (no shipped network for the variant)"}
    return out


def shown_files(networks: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """`networks` as the results file records them: a shipped network by its file name (the same on every
    machine), a temporary one by none."""
    return {k: {**v, "file": Path(v["file"]).name if v["weights"] == "shipped" else None} for k, v in networks.items()}


def csearch_window(weights: str | None, playout_mix: float, simulations: int, state: State, mask: np.ndarray,
                   games: np.ndarray, seconds: float) -> Window:
    """`CompiledSearchAgent` deciding `games` of `state` one at a time, its leaves valued by the value network file
    `weights` (None: the heuristic) mixed with Full Greedy playouts by `playout_mix`."""
    from agents.csearch.agent import CompiledSearchAgent

    agent = CompiledSearchAgent(Budget(playouts=simulations), seed=0, weights=weights, playout_mix=playout_mix)

    def decide_all() -> tuple[int, int]:
        before = agent.simulations
        for g in games:
            agent.act(state, games[g:g + 1], mask[games[g:g + 1]], None)
        return agent.simulations - before, int(games.size)

    agent.act(state, games[:1], mask[games[:1]], None)  # warm-up: compiles or loads the kernels

    def window() -> dict[str, float]:
        elapsed, sims, decisions = _timed(decide_all, seconds)
        return {"simulations_per_s": sims / elapsed, "decisions_per_s": decisions / elapsed,
                "simulations": sims, "decisions": decisions, "seconds": elapsed}

    return window


def csearch_selfplay_speed(rules: Rules, games: int, simulations: int) -> dict[str, Any]:
    """`games` self-play games of the compiled search (`training.csearch_net.selfplay`, heuristic leaves)."""
    from training.csearch_net import selfplay

    selfplay(rules, 1, 10, None, seed=1)  # warm-up
    start = time.perf_counter()
    data = selfplay(rules, games, simulations, None, seed=0)
    elapsed = time.perf_counter() - start
    return {"games": games, "simulations_per_decision": simulations, "seconds": elapsed,
            "games_per_hour": games / elapsed * 3600, "positions": int(data.win.shape[0])}


# Self-play ---------------------------------------------------------------------------------------------------------
def selfplay_speed(network: str, rules: Rules, games: int, simulations: int, seed: int = 0) -> dict[str, Any]:
    """`games` self-play games (all at once) of `training.az_selfplay.selfplay` at `simulations` per decision."""
    from agents.az.files import load_network
    from agents.az.search import NetworkEvaluator
    from training.az_selfplay import SelfPlayConfig, selfplay

    net, _ = load_network(network)
    config = SelfPlayConfig(simulations=simulations)
    start = time.perf_counter()
    data, sims = selfplay(NetworkEvaluator(net, config.margin_weight), [rules], games, seed, config)
    elapsed = time.perf_counter() - start
    return {"games": games, "simulations_per_decision": simulations, "seconds": elapsed,
            "games_per_hour": games / elapsed * 3600, "positions": len(data), "simulations": sims,
            "simulations_per_s": sims / elapsed}


# The run -----------------------------------------------------------------------------------------------------------
def run(settings: Settings, cpu: int | None) -> dict[str, Any]:
    """All measurements; returns the JSON-able results."""
    import torch

    torch.set_num_threads(1)
    info = machine_info(cpu)
    info.update(torch=torch.__version__, torch_threads=torch.get_num_threads())
    results: dict[str, Any] = {"date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                               "load_average_before": list(os.getloadavg()), "settings": asdict(settings),
                               "machine": info}
    s = settings
    with tempfile.TemporaryDirectory(prefix="az_speed-") as folder:
        networks = network_files(Path(folder))
        results["networks"] = shown_files(networks)
        value_networks = csearch_networks(Path(folder))
        results["csearch_networks"] = shown_files(value_networks)
        spots = {name: positions(rules) for name, rules in VARIANTS.items()}
        cases: dict[tuple[str, ...], tuple[Window, str]] = {}
        single, batched = np.array(SINGLE), np.arange(s.batched_games) % POSITIONS
        for name in VARIANTS:
            state, mask = spots[name]
            file = networks[name]["file"]
            for sims in s.simulations:
                cases["search", name, "1 game at a time", str(sims)] = (
                    search_window(file, sims, state, mask, single, False, s.seconds), "simulations_per_s")
                cases["search", name, f"{s.batched_games} games at once", str(sims)] = (
                    search_window(file, sims, state, mask, batched, True, s.seconds), "simulations_per_s")
            for b in s.policy_batches:
                cases["policy_only", name, str(b)] = (policy_window(file, state, mask, b, s.seconds),
                                                      "decisions_per_s")
            file = value_networks[name]["file"]
            for leaves, weights, mix in (("heuristic", None, 0.0), ("network", file, 0.0),
                                         ("network + playout (csearch's default)", file, 0.5)):
                for sims in s.csearch_simulations:
                    cases["csearch", name, leaves, str(sims)] = (
                        csearch_window(weights, mix, sims, state, mask, single, s.seconds), "simulations_per_s")
        for label, name in NETWORK_VARIANTS.items():
            for b in s.network_batches:
                for kind, (forward_only, inference) in NETWORK_KINDS.items():
                    cases["network", label, kind, str(b)] = (
                        network_window(networks[name]["file"], spots[name][0], b, s.seconds, forward_only, inference),
                        "evaluations_per_s")
        for (group, *name), figures in measure(cases, s.windows).items():
            level = results.setdefault(group, {})
            for part in name[:-1]:
                level = level.setdefault(part, {})
            level[name[-1]] = figures
        results["breakdown"] = {}
        for name in VARIANTS:
            state, mask = spots[name]
            file = networks[name]["file"]
            results["breakdown"][name] = {
                f"1 game at a time, {s.breakdown_simulations} simulations": breakdown(
                    file, state, mask, single, s.breakdown_simulations, False),
                f"{s.batched_games} games at once, {min(s.simulations)} simulations": breakdown(
                    file, state, mask, batched, min(s.simulations), True)}
        results["selfplay"] = {name: selfplay_speed(networks[name]["file"], VARIANTS[name], s.selfplay_games,
                                                    s.selfplay_simulations) for name in SELFPLAY_VARIANTS}
        results["csearch_selfplay"] = {name: csearch_selfplay_speed(VARIANTS[name], s.csearch_selfplay_games,
                                                                    s.csearch_selfplay_simulations)
                                       for name in SELFPLAY_VARIANTS}
    results["load_average_after"] = list(os.getloadavg())
    results["breakdown_parts"] = PARTS
    results["limits"] = limits(results)
    return results


def limits(results: dict[str, Any]) -> list[str]:
    """One line per breakdown: the parts that take most of a search's time."""
    out = []
    for name, cases in results["breakdown"].items():
        for case, figures in cases.items():
            top = sorted(figures["shares"].items(), key=lambda kv: -kv[1])[:2]
            out.append(f"{name}, {case}: " + ", ".join(f"{part} {share:.0%}" for part, share in top))
    return out


def report(results: dict[str, Any]) -> str:
    m = results["machine"]
    networks = "; ".join(f"{k}: {v['weights']}" for k, v in results["networks"].items())
    parts = [f"{results['date']}  {m['cpu']}, {m['logical_cpus']} logical CPUs, pinned to CPU {m['pinned_to_cpu']}, "
             f"torch {m['torch']} on {m['torch_threads']} thread(s); load average before "
             f"{results['load_average_before'][0]:.2f}, after {results['load_average_after'][0]:.2f}; best of "
             f"{results['settings']['windows']} windows of {results['settings']['seconds']:g} s\n"
             f"networks: {networks}"]
    rows = [[name, how, sims, _fmt(v["simulations_per_s"]), f"{v['decisions_per_s']:,.2f}"]
            for name, by_how in results["search"].items() for how, by_sims in by_how.items()
            for sims, v in by_sims.items()]
    parts.append(_table("Search (AZAgent; seeded positions from greedy games)",
                        ["variant", "deciding", "sims/move", "simulations/s", "decisions/s"], rows))
    parts.append(_table("Policy alone (az:0)", ["variant", "games at once", "decisions/s"],
                        [[name, b, _fmt(v["decisions_per_s"])] for name, by_b in results["policy_only"].items()
                         for b, v in by_b.items()]))
    rows = []
    for label, kinds in results["network"].items():
        for b in kinds["evaluator"]:
            rows.append([label, b, *(_fmt(kinds[kind][b]["evaluations_per_s"]) for kind in NETWORK_KINDS)])
    parts.append(_table("Network evaluations/s", ["network", "batch", "evaluator", "forward pass, torch",
                                                   "forward pass, fast"], rows))
    rows = []
    for name, cases in results["breakdown"].items():
        for case, figures in cases.items():
            rows.append([name, case, _fmt(figures["simulations_per_s"]),
                         *(f"{share:.0%}" for share in figures["shares"].values())])
    shares = list(next(iter(next(iter(results["breakdown"].values())).values()))["shares"])
    parts.append(_table("Where a search's time goes", ["variant", "search", "simulations/s", *shares], rows))
    parts.append(_table("Self-play (training.az_selfplay.selfplay, games played at once)",
                        ["variant", "games", "sims/decision", "seconds", "games/hour", "simulations/s"],
                        [[name, str(v["games"]), str(v["simulations_per_decision"]), f"{v['seconds']:.1f}",
                          _fmt(v["games_per_hour"]), _fmt(v["simulations_per_s"])]
                         for name, v in results["selfplay"].items()]))
    parts.append(_table("Compiled search (csearch), one game at a time",
                        ["variant", "leaves", "sims/move", "simulations/s", "decisions/s"],
                        [[name, leaves, sims, _fmt(v["simulations_per_s"]), f"{v['decisions_per_s']:,.2f}"]
                         for name, by_leaves in results["csearch"].items() for leaves, by_sims in by_leaves.items()
                         for sims, v in by_sims.items()]))
    parts.append(_table("Compiled search self-play (training.csearch_net.selfplay, one game at a time)",
                        ["variant", "games", "sims/decision", "seconds", "games/hour"],
                        [[name, str(v["games"]), str(v["simulations_per_decision"]), f"{v['seconds']:.1f}",
                          _fmt(v["games_per_hour"])] for name, v in results["csearch_selfplay"].items()]))
    parts.append("Parts: " + "; ".join(f"{k} = {v}" for k, v in results["breakdown_parts"].items()))
    parts.append("What limits them:\n" + "\n".join(f"  {line}" for line in results["limits"]))
    return "\n\n".join(parts)


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m benchmarks.az_speed`."""
    parser = measurement_parser(__doc__.split("\n\n")[0], DEFAULT_OUT)
    parser.add_argument("--selfplay-games", type=int, default=None, help="self-play games per variant (default 8, "
                        "quick 2)")
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    settings = QUICK if args.quick else Settings()
    overrides = {k: v for k, v in (("seconds", args.seconds), ("windows", args.windows),
                                   ("selfplay_games", args.selfplay_games)) if v is not None}
    settings = Settings(**{**asdict(settings), **overrides})
    if settings.seconds <= 0 or settings.windows < 1 or settings.selfplay_games < 1:
        parser.error("--seconds must be > 0, --windows and --selfplay-games >= 1")
    try:
        cpu = pin_cpu(args.cpu)
    except ValueError as err:
        parser.error(str(err))
    results = run(settings, cpu)
    print(report(results))
    out = args.out if args.out is not None else (None if args.quick else DEFAULT_OUT)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(out, json.dumps(results, indent=2) + "\n")
        print(f"\nwrote {out}")


if __name__ == "__main__":
    main()
