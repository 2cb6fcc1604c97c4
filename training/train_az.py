"""`python -m training.train_az --config CONFIG.json`: train an `az` network (AlphaZero-style) by self-play.

Stages, all resumable (run the same command again to go on from the last finished iteration):

1. Warm start: unless `init` names a network to start from or `resume_from` a shipped run to go on with
   (`az_runs`: the shipped network, its counters and its committed logs), the network first imitates Full Greedy
   (`az_data.greedy_positions`: `warm_games` games, `warm_steps` training steps) and learns the value of its
   positions; search then starts from a player about as good as greedy.
2. Iterations: `games_per_iteration` self-play games with the az search (`az_selfplay`, in `workers` processes, or
   `workers` Ray actors with `--ray [ADDRESS]`: `ray_selfplay`, the same games),
   added to a replay buffer of the last `buffer` positions; `train_steps` steps of Adam on batches drawn from it
   once it holds `learning_starts` positions (until then the iteration only plays, and its losses are logged as
   nan); the network is saved to `OUT/latest.az`. A run that goes on from a shipped network starts with an empty
   buffer (buffers are not shipped, nor is any self-play data): without `learning_starts`, its first iterations
   train on a few games alone, and the buffer refills over the next `buffer` positions' worth of iterations; its
   `OUT/checkpoints/` starts with the shipped network alone (the earlier runs' checkpoints are not kept).
3. Every `eval_every` iterations a checkpoint `OUT/checkpoints/iter_NNNN.az` is played, in the run's last variant,
   against each of `eval_opponents` by `tournament.run_tournament` (`kingdomino tournament --agents
   az:SIMS:CKPT,OPP`, duplicate format, seats rotated, `eval_games` games, seed `eval_seed`), appended to
   `OUT/eval.csv` and plotted to `OUT/learning_curve.png`.

Losses: cross-entropy of the policy (over legal actions) against the search's policy target (Gumbel's improved
policy, or the root's visit shares with the PUCT root), cross-entropy of the win probabilities against each
player's share of the win, and the squared error of the margins (over `network.MARGIN_SCALE`); with `symmetries`
each position is seen under a random rotation or reflection of the kingdoms (`az_symmetry`). TensorBoard logs go
to `OUT/tb/`, a line per iteration to `OUT/log.csv`. Every option is
a key of the JSON config (see `AZTrainConfig`; `device`: where the training steps run, "cpu", "cuda" or "auto";
self-play runs in `workers` CPU processes); flags override `out` (`--out` or `--run-dir`), `iterations`, `minutes`,
`workers`, `seed` and `device`. Without `out` the run folder is `az_NAME` (NAME: `resume_from`), else `az`, under the
runs folder (`training.runs`: `$KINGDOMINO_RUNS`, else `~/.local/share/kingdomino-rl/runs`), outside the repository.
The resolved configuration is written to `OUT/config.json`, so `--config OUT/config.json` repeats a run.
`minutes` stops a run after that much wall time (at the end of an iteration), to be resumed later. Every log line
and network file carries `core_hours`, the self-play compute so far (the CPU time the self-play workers spent on
their games), counted across every run a shipped network went through.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import shutil
import time
from dataclasses import asdict, dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import torch

from agents import check_supports
from agents.az.features import encode
from agents.az.files import MAX_PARAMETERS, NetworkInfo, load_network, read_info, save_network, tensor_sizes
from agents.az.network import MARGIN_SCALE, NETWORKS, AZNet, NetConfig, QueenAZNet, make_network
from agents.budget import MAX_PLAYOUTS
from kingdomino_env.files import write_atomic, write_text_atomic
from kingdomino_env.rules import GAME_TITLES, Rules, short_repr

from .az_data import Positions, ReplayBuffer, greedy_positions
from .az_runs import NAMES, ShippedRun, read_rows, with_core_hours, write_rows
from .az_selfplay import ProcessSelfPlay, SelfPlayConfig
from .az_symmetry import N_SYMMETRIES, augment
from .config_check import (
    MAX_SEED,
    ConfigError,
    boolean,
    check_out_folder,
    check_values,
    choice,
    integer,
    number,
    optional,
    read_config,
    text,
    texts,
)
from .runs import default_run_dir, runs_root

#: Each key of `AZTrainConfig` but `variants` and `selfplay` (checked by `Rules` and `SelfPlayConfig`): its type
#: and range.
CHECKS = {
    "out": check_out_folder, "seed": integer(0, MAX_SEED), "eval_seed": integer(0, MAX_SEED),
    "channels": integer(1, 1024), "blocks": integer(1, 1024), "hidden": integer(1, 1024),
    "init": optional(text), "resume_from": optional(text),
    "warm_games": integer(0, 10**7), "warm_steps": integer(0, 10**9), "iterations": integer(1, 10**7),
    "games_per_iteration": integer(1, 10**6), "workers": integer(1, 1024), "train_steps": integer(1, 10**7),
    "batch_size": integer(1, 1 << 20), "symmetries": boolean, "learning_rate": number(0, 10, above=True),
    "weight_decay": number(0, 10), "buffer": integer(1, 10**8), "learning_starts": integer(0, 10**8),
    "eval_every": integer(1, 10**7), "eval_games": integer(1, 10**6), "eval_simulations": integer(0, MAX_PLAYOUTS),
    "eval_opponents": texts(64), "minutes": optional(number(0, 10**7, above=True)), "threads": integer(1, 1024),
    "device": choice("cpu", "cuda", "auto"),
}


@dataclass
class AZTrainConfig:
    """A training run. `variants`: `Rules.to_dict()`s of the variants played (one game, frame and player count;
    bonuses may differ); the network sees each variant's flags. Queendomino and Royal Wedding runs warm-start by
    imitating Queendomino's Full Greedy (`qgreedy`)."""

    variants: list[dict] = field(default_factory=lambda: [{"players": 2},
                                                          {"players": 2, "harmony": True, "middle_kingdom": True}])
    out: str | None = None
    seed: int = 0
    channels: int = 32
    blocks: int = 4
    hidden: int = 128
    init: str | None = None
    resume_from: str | None = None
    warm_games: int = 2000
    warm_steps: int = 1500
    iterations: int = 20
    games_per_iteration: int = 64
    workers: int = 2
    selfplay: dict = field(default_factory=lambda: SelfPlayConfig().to_dict())
    train_steps: int = 300
    batch_size: int = 256
    symmetries: bool = True
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    buffer: int = 60_000
    learning_starts: int = 0
    eval_every: int = 2
    eval_games: int = 64
    eval_simulations: int = 32
    eval_opponents: list[str] = field(default_factory=lambda: ["greedy"])
    eval_seed: int = 12
    minutes: float | None = None
    threads: int = 2
    device: str = "cpu"

    def __post_init__(self) -> None:
        """Check everything before any work is done: each key's type and range (ConfigError naming the key), then
        how they fit together; the self-play options are resolved to all their keys, and a missing `out` to the
        default run folder."""
        if self.out is None:
            self.out = str(default_run_dir(default_run_name(self.resume_from)))
        check_values({f.name: getattr(self, f.name) for f in fields(self)}, CHECKS)
        if not isinstance(self.variants, list) or not 1 <= len(self.variants) <= 16:
            raise ConfigError(f"variants must be a list of 1 to 16 variants (objects of Rules keys), got "
                              f"{short_repr(self.variants)}")
        config = {"channels": self.channels, "blocks": self.blocks, "hidden": self.hidden}
        parameters = sum(tensor_sizes(self.rules[0].game, config))
        if parameters > MAX_PARAMETERS:
            raise ConfigError(f"channels {self.channels}, blocks {self.blocks} and hidden {self.hidden} make a network "
                              f"of {parameters} parameters; an az network holds at most {MAX_PARAMETERS}")
        rules = self.rules
        if len({(r.game, r.frame, r.players, r.seat_kingdoms, r.line_size, r.has_quests) for r in rules}) != 1:
            raise ValueError("every variant of a run must have the same board size, player count, line size, quests "
                             "setting, game and teams (one network shape)")
        if not isinstance(self.selfplay, dict):
            raise ConfigError(f"selfplay must be an object of SelfPlayConfig keys, got {short_repr(self.selfplay)}")
        unknown = sorted(map(str, set(self.selfplay) - {f.name for f in fields(SelfPlayConfig)}))
        if unknown:
            raise ConfigError(f"selfplay: unknown key(s) {', '.join(unknown)}; known: "
                              f"{', '.join(f.name for f in fields(SelfPlayConfig))}")
        try:
            self.selfplay = SelfPlayConfig(**self.selfplay).to_dict()
        except (TypeError, ValueError) as err:
            raise ConfigError(f"selfplay: {err}") from None
        for opponent in self.eval_opponents:
            try:
                check_supports(opponent, rules[-1])
            except ValueError as err:
                raise ConfigError(f"eval_opponents: {err}") from None
        if self.resume_from is not None:
            if self.init is not None:
                raise ValueError("give init (a network to start from) or resume_from (a shipped run), not both")
            shipped = ShippedRun(self.resume_from)
            shipped.check_record()
            info = read_info(shipped.network)
            if not all(info.plays(r) for r in rules) or {r.players for r in rules} != set(info.players):
                raise ValueError(f"resume_from {self.resume_from!r}: its network plays {info.describe()}, not this "
                                 "run's variants")
            self._check_layers(f"resume_from {self.resume_from!r}: its network", info)
        if self.init is not None:
            info = read_info(self.init)
            network = NETWORKS[rules[0].game]
            if NETWORKS[info.game] is not network:
                family = " or ".join(GAME_TITLES[game] for game, net in NETWORKS.items() if net is network)
                raise ValueError(f"init network {self.init} plays {info.describe()}; a {rules[0].game} run starts "
                                 f"from a {family} network (of any frame and player count)")
            self._check_layers(f"init network {self.init}", info)

    def _check_layers(self, what: str, info: NetworkInfo) -> None:
        """ValueError unless the network `info` describes has this run's channels, blocks and hidden."""
        if info.config != {"channels": self.channels, "blocks": self.blocks, "hidden": self.hidden}:
            raise ValueError(f"{what} has {info.config}; set channels, blocks and hidden to match")

    @property
    def rules(self) -> list[Rules]:
        if not self.variants:
            raise ConfigError("variants must name at least one variant")
        out = []
        for i, variant in enumerate(self.variants):
            try:
                out.append(Rules.from_dict(variant))
            except (TypeError, ValueError) as err:
                raise ConfigError(f"variants[{i}]: {err}") from None
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AZTrainConfig:
        known = {f.name for f in fields(cls)}
        unknown = sorted(map(str, set(data) - known))
        if unknown:
            raise ConfigError(f"unknown config key(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        return cls(**data)


def losses(net: AZNet | QueenAZNet, batch: Positions, variants: list[Rules],
           rng: np.random.Generator | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """(policy loss, value loss) of `net` on a batch of positions; with `rng`, each position is seen under a random
    one of the kingdom's eight symmetries (`az_symmetry`)."""
    n_actions = variants[0].n_actions
    order = np.argsort(batch.variant, kind="stable")
    batch = batch.take(order)
    masks, policies = batch.unpacked_mask(n_actions), batch.policy.astype(np.float32)
    parts = []
    for v, rules in enumerate(variants):
        rows = np.flatnonzero(batch.variant == v)
        if rows.size:
            inputs = encode(batch.obs[rows].astype(np.float32), rules)
            if rng is not None:
                inputs.planes, policies[rows], masks[rows] = augment(
                    inputs.planes, policies[rows], masks[rows], rules, rng.integers(N_SYMMETRIES, size=rows.size))
            parts.append(inputs)
    device = next(net.parameters()).device

    def tensor(array: np.ndarray) -> torch.Tensor:
        return torch.from_numpy(array).to(device)

    planes, lines, extras = (tensor(np.concatenate([getattr(p, k) for p in parts]))
                             for k in ("planes", "lines", "extras"))
    logits, win_logits, margin = net(planes, lines, extras)
    mask = tensor(masks)
    logp = torch.log_softmax(logits.masked_fill(~mask, -1e9), dim=1)
    policy = -(tensor(policies) * logp).sum(dim=1).mean()
    win = -(tensor(batch.win) * torch.log_softmax(win_logits, dim=1)).sum(dim=1).mean()
    margins = torch.nn.functional.mse_loss(margin, tensor(batch.margin) / MARGIN_SCALE)
    return policy, win + margins


class Trainer:
    """A run's network, optimizer, buffer and files under `OUT`."""

    def __init__(self, config: AZTrainConfig, ray: bool | str = False):
        self.config = config
        self.ray = ray
        self.out = Path(config.out)
        self.variants = config.rules
        self.rng = np.random.default_rng(config.seed)
        torch.manual_seed(config.seed)
        self.device = torch.device("cuda" if config.device == "auto" and torch.cuda.is_available()
                                   else "cpu" if config.device == "auto" else config.device)
        self.net = make_network(self.variants[0].game, self.variants[0].frame,
                                NetConfig(config.channels, config.blocks, config.hidden))
        self.net.to(self.device)
        self.optimizer = torch.optim.AdamW(self.net.parameters(), lr=config.learning_rate,
                                           weight_decay=config.weight_decay)
        self.buffer = ReplayBuffer(config.buffer)
        self.iteration = 0
        self.steps = 0
        self.games = 0
        self.core_hours = 0.0
        self.writer = None

    # Files -------------------------------------------------------------------------------------------------------
    @property
    def latest(self) -> Path:
        return self.out / "latest.az"

    def save(self) -> None:
        """The network, then the trainer's state and buffer (atomically; the state names the iteration done)."""
        self._save_network(self.latest)
        if len(self.buffer):
            write_atomic(self.out / "buffer.npz", lambda tmp: self.buffer.data.save(str(tmp)), suffix=".npz")
        state = {"iteration": self.iteration, "steps": self.steps, "games": self.games, "core_hours": self.core_hours,
                 "net": self.net.state_dict(), "optimizer": self.optimizer.state_dict(),
                 "rng": self.rng.bit_generator.state}
        data = io.BytesIO()
        torch.save(state, data)
        write_atomic(self.out / "trainer.pt", lambda tmp: tmp.write_bytes(data.getvalue()))

    def _save_network(self, path: Path) -> None:
        save_network(path, self.net, sorted({r.players for r in self.variants}),
                     {"variants": self.config.variants, "iteration": self.iteration, "steps": self.steps,
                      "games": self.games, "core_hours": round(self.core_hours, 4)})

    def resume(self) -> bool:
        """Load the trainer's state if the run was started before; whether it was."""
        path = self.out / "trainer.pt"
        if not path.is_file():
            return False
        state = torch.load(path, map_location="cpu", weights_only=False)
        self.net.load_state_dict(state["net"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.rng.bit_generator.state = state["rng"]
        self.iteration, self.steps, self.games = state["iteration"], state["steps"], state["games"]
        self.core_hours = state.get("core_hours", 0.0)
        if (self.out / "buffer.npz").is_file():
            self.buffer.add(Positions.load(str(self.out / "buffer.npz")))
        return True

    def resume_shipped(self) -> None:
        """Go on with the shipped run `resume_from`: its network's weights and counters, and its committed logs
        copied into OUT (with the cumulative `core_hours` column), to which this run appends; the shipped network is
        the first of OUT's checkpoints. The replay buffer starts empty."""
        shipped = ShippedRun(self.config.resume_from)
        net, info = load_network(shipped.network)
        self.net.load_state_dict(net.state_dict())
        trained = info.trained
        self.iteration, self.steps, self.games = (int(trained.get(k, 0)) for k in ("iteration", "steps", "games"))
        workers = json.loads(shipped.config.read_text()).get("workers", 1) if shipped.config.is_file() else 1
        rows = with_core_hours(read_rows(shipped.log), workers)
        self.core_hours = float(trained.get("core_hours", rows[-1]["core_hours"] if rows else 0.0))
        if rows:
            write_rows(self.out / "log.csv", rows)
        evals = read_rows(shipped.evals)
        if evals:
            from .plots import plot_learning_curve

            write_rows(self.out / "eval.csv", evals)
            plot_learning_curve(self.out / "eval.csv", self.out / "learning_curve.png")
        folder = self.out / "checkpoints"
        folder.mkdir(parents=True, exist_ok=True)
        if not (folder / f"iter_{self.iteration:04d}.az").is_file():
            shutil.copyfile(shipped.network, folder / f"iter_{self.iteration:04d}.az")
        print(f"resuming the shipped run {shipped.name}: iteration {self.iteration}, {self.games} games, "
              f"{self.core_hours:.2f} self-play core-hours so far", flush=True)

    def log(self, name: str, row: dict[str, Any]) -> None:
        path = self.out / name
        rows = read_rows(path)
        if rows and list(rows[0]) != list(row):
            write_rows(path, [*rows, {k: str(v) for k, v in row.items()}])
        else:
            with path.open("a", newline="") as f:
                writer = csv.DictWriter(f, fieldnames=list(row))
                if not rows and f.tell() == 0:
                    writer.writeheader()
                writer.writerow(row)
        if self.writer is not None:
            for key, value in row.items():
                if isinstance(value, float | int) and key not in ("iteration",):
                    self.writer.add_scalar(f"{name.removesuffix('.csv')}/{key}", value, row["iteration"])

    # Stages ------------------------------------------------------------------------------------------------------
    def train(self, steps: int, data: ReplayBuffer) -> tuple[float, float]:
        """`steps` optimizer steps on batches from `data`; the mean policy and value losses (nan for no step)."""
        if steps == 0:
            return math.nan, math.nan
        self.net.train()
        total_p = total_v = 0.0
        for _ in range(steps):
            policy, value = losses(self.net, data.sample(self.config.batch_size, self.rng), self.variants,
                                   self.rng if self.config.symmetries else None)
            self.optimizer.zero_grad()
            (policy + value).backward()
            self.optimizer.step()
            total_p += policy.item()
            total_v += value.item()
        self.steps += steps
        self.net.eval()
        return total_p / steps, total_v / steps

    def warm_start(self) -> None:
        cfg = self.config
        if cfg.init:
            net, _ = load_network(cfg.init)
            self.net.load_state_dict(net.state_dict())
            return
        began = time.perf_counter()
        positions = greedy_positions(self.variants, cfg.warm_games, cfg.seed)
        warm = ReplayBuffer(len(positions))
        warm.add(positions)
        policy, value = self.train(cfg.warm_steps, warm)
        print(f"warm start: {len(warm)} greedy positions, {cfg.warm_steps} steps, policy loss {policy:.3f}, "
              f"value loss {value:.3f}, {time.perf_counter() - began:.0f} s", flush=True)

    def selfplay(self, pool: ProcessSelfPlay | Any) -> tuple[Positions, int, float]:
        """One iteration's games over the workers (processes or Ray actors: the same jobs and seeds): their positions,
        simulations and CPU seconds."""
        cfg = self.config
        per = np.diff(np.linspace(0, cfg.games_per_iteration, cfg.workers + 1).astype(int))
        seeds = self.rng.integers(2**63, size=cfg.workers)
        jobs = [(int(n), int(s)) for n, s in zip(per, seeds, strict=True) if n]
        results = pool.play(self.latest, cfg.variants, jobs, cfg.selfplay)
        positions, simulations, seconds = zip(*results, strict=True)
        return Positions.concat(list(positions)), sum(simulations), sum(seconds)

    def evaluate(self) -> None:
        from tournament.config import TournamentConfig
        from tournament.runner import run_tournament

        from .plots import plot_learning_curve

        cfg = self.config
        checkpoint = self.out / "checkpoints" / f"iter_{self.iteration:04d}.az"
        checkpoint.parent.mkdir(parents=True, exist_ok=True)
        self._save_network(checkpoint)
        for opponent in cfg.eval_opponents:
            config = TournamentConfig(agents=(f"az=az:{cfg.eval_simulations}:{checkpoint}", f"opponent={opponent}"),
                                      rules=self.variants[-1], games=cfg.eval_games, seed=cfg.eval_seed)
            stats = run_tournament(config, workers=cfg.workers, ray=self.ray).agents["az"]
            self.log("eval.csv", {"iteration": self.iteration, "games_played": self.games, "opponent": opponent,
                                  "games": stats["games"], "win_rate": stats["win_rate"],
                                  "win_rate_low": stats["win_rate_ci"][0], "win_rate_high": stats["win_rate_ci"][1],
                                  "mean_margin": stats["mean_margin"]})
            print(f"iteration {self.iteration}: az:{cfg.eval_simulations} vs {opponent}: win rate "
                  f"{stats['win_rate']:.1%}, margin {stats['mean_margin']:+.1f} ({stats['games']} games)", flush=True)
        plot_learning_curve(self.out / "eval.csv", self.out / "learning_curve.png")

    def _workers(self) -> ProcessSelfPlay | Any:
        """The self-play workers: `workers` processes, or `workers` Ray actors when `ray` is set."""
        if self.ray is False:
            return ProcessSelfPlay(self.config.workers)
        from .ray_selfplay import RaySelfPlay

        return RaySelfPlay(self.config.workers, None if self.ray is True else self.ray or None)

    def run(self) -> None:
        cfg = self.config
        self.out.mkdir(parents=True, exist_ok=True)
        write_text_atomic(self.out / "config.json", json.dumps(asdict(cfg), indent=2) + "\n")
        torch.set_num_threads(cfg.threads)
        from torch.utils.tensorboard import SummaryWriter

        self.writer = SummaryWriter(str(self.out / "tb"))
        if not self.resume():
            if cfg.resume_from is not None:
                self.resume_shipped()
                self.save()
            else:
                self.warm_start()
                self.save()
                self.evaluate()
        began = time.perf_counter()
        with self._workers() as pool:
            while self.iteration < cfg.iterations:
                if cfg.minutes is not None and time.perf_counter() - began > cfg.minutes * 60:
                    print(f"stopping after {cfg.minutes} minutes at iteration {self.iteration}; run again to resume")
                    break
                t0 = time.perf_counter()
                positions, simulations, cpu_seconds = self.selfplay(pool)
                t1 = time.perf_counter()
                self.buffer.add(positions)
                self.games += cfg.games_per_iteration
                self.core_hours += cpu_seconds / 3600
                steps = cfg.train_steps if len(self.buffer) >= cfg.learning_starts else 0
                policy, value = self.train(steps, self.buffer)
                self.iteration += 1
                self.save()
                t2 = time.perf_counter()
                self.log("log.csv", {"iteration": self.iteration, "games": self.games, "positions": len(positions),
                                     "buffer": len(self.buffer), "policy_loss": round(policy, 4),
                                     "value_loss": round(value, 4), "selfplay_s": round(t1 - t0, 1),
                                     "train_s": round(t2 - t1, 1), "simulations_per_s": round(simulations / (t1 - t0)),
                                     "core_hours": round(self.core_hours, 4)})
                print(f"iteration {self.iteration}: {len(positions)} positions in {t1 - t0:.0f} s "
                      f"({simulations / (t1 - t0):.0f} sims/s), policy loss {policy:.3f}, value loss {value:.3f}, "
                      f"train {t2 - t1:.0f} s", flush=True)
                if self.iteration % cfg.eval_every == 0:
                    self.evaluate()
        self.writer.close()


def default_run_name(resume_from: object) -> str:
    """The default run folder's name of a run that goes on from the shipped run `resume_from` (None: a new run)."""
    return f"az_{resume_from}" if isinstance(resume_from, str) and resume_from in NAMES else "az"


def shipped_configs() -> list[str]:
    """The names of the shipped training configs (`training/configs/NAME.json`, package data)."""
    folder = resources.files("training").joinpath("configs")
    return sorted(entry.name.removesuffix(".json") for entry in folder.iterdir() if entry.name.endswith(".json"))


def load_config(name: str) -> dict[str, Any]:
    """The config keys of the file `name`, or of the shipped config `name` ("az_2p", "az_2p.json" or
    "training/configs/az_2p.json"), read from the installed package where no such file exists; ConfigError
    saying what is wrong."""
    path = Path(name).expanduser()
    if path.exists():
        return read_config(path)
    shipped = path.name.removesuffix(".json")
    if shipped in shipped_configs():
        with resources.as_file(resources.files("training").joinpath("configs", f"{shipped}.json")) as found:
            return read_config(found)
    raise ConfigError(f"no config file {name}, and no shipped config of that name; shipped: "
                      f"{', '.join(shipped_configs())}")


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m training.train_az`: flags override their `--config` keys (None when not
    given), shown with `AZTrainConfig`'s defaults."""
    defaults = {f.name: f.default for f in fields(AZTrainConfig)}

    def overridden(value: object) -> str:
        return f"(default: the --config file's, else {value})"

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", help="a JSON file of AZTrainConfig keys, or the name of a shipped one ("
                                         f"{', '.join(shipped_configs())}: the configs of the shipped runs, in "
                                         "training/configs) (default: none: AZTrainConfig's defaults)")
    parser.add_argument("--out", "--run-dir", dest="out",
                        help="folder of the run " + overridden("az_NAME (NAME: resume_from), else az, in the runs "
                                                               f"folder {runs_root()}"))
    parser.add_argument("--iterations", type=int,
                        help="self-play iterations in all " + overridden(defaults["iterations"]))
    parser.add_argument("--minutes", type=float, help="stop after the iteration that passes this wall time "
                                                      + overridden("no time limit"))
    parser.add_argument("--workers", type=int, help="self-play processes (or Ray actors) "
                                                    + overridden(defaults["workers"]))
    parser.add_argument("--seed", type=int, help="seed of the run " + overridden(defaults["seed"]))
    parser.add_argument("--device", choices=("cpu", "cuda", "auto"),
                        help="where the training steps run " + overridden(defaults["device"]))
    parser.add_argument("--ray", nargs="?", const=True, default=False, metavar="ADDRESS",
                        help="self-play workers as Ray actors (the scale extra): on the cluster at ADDRESS "
                             "(ray://HOST:10001 or HOST:6379), else RAY_ADDRESS's, else Ray on this machine "
                             "(default: off, no Ray)")
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        data = load_config(args.config) if args.config else {}
        for key in ("out", "iterations", "minutes", "workers", "seed", "device"):
            if getattr(args, key) is not None:
                data[key] = getattr(args, key)
        config = AZTrainConfig.from_dict(data)
    except (OSError, ValueError, TypeError) as err:
        parser.error(str(err))
    Trainer(config, ray=args.ray).run()


if __name__ == "__main__":
    main()
