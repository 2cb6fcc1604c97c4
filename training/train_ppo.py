"""`python -m training.train_ppo --players 2 --timesteps N`: self-play MaskablePPO on the batched vector env.

Stages:

1. Imitation warm start (`training.pretrain`): the policy first copies Full Greedy on `imitation_games` games.
2. PPO (sb3-contrib MaskablePPO, `agents.network.KingdominoPolicy`) on `KingdominoVectorEnv` with `games`
   parallel games. The learner takes a random seat each game; its opponents are a mix per game: a share
   `greedy_share` Full Greedy, `random_share` random, the rest frozen past checkpoints of the learner (a pool of
   the last `pool_size` snapshots, one taken every `snapshot_every` steps; the warm-started policy is the first).
3. Every `eval_every` steps a checkpoint is saved and evaluated against Full Greedy (`training.evaluate`, the
   tournament's duplicate format, `eval_games` games), and appended to `eval.csv`; the learning curve is plotted
   to `learning_curve.png`. TensorBoard logs go to `tb/`.

Other games: `--game queendomino` or `--game royal_wedding` (`--teams` for the Royal Wedding in teams of 6 or 8
players) train SB3's MlpPolicy (the CNN policy reads Kingdomino's observation only) with the same stages. In team
games the learner is a whole team: both seats of its team play the learning policy (`KingdominoVectorEnv`'s team
mode), the opponent mix plays the other teams, and evaluation seats the policy as a team against teams of Full
Greedy.

Every option is a flag or a key of a JSON `--config` file (flags win); the resolved configuration is written to
`OUT/config.json`, so `--config OUT/config.json` repeats a run. `--ray [ADDRESS]` (a flag only, so one config runs
anywhere) steps the games on Ray actors over a cluster (`training.ray_selfplay.RayEnvs`; the `scale` extra).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import time
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

import numpy as np
import torch

from kingdomino_env.files import write_atomic, write_text_atomic
from kingdomino_env.rules import Rules
from training.config_check import ConfigError, read_config
from training.ppo_config import TrainConfig, opponent_mix, rule_fields


def make_env(config: TrainConfig, pool: list[Any], seed: int):
    from stable_baselines3.common.vec_env import VecMonitor, VecNormalize

    from kingdomino_env.envs.sb3 import SB3VecEnv
    from kingdomino_env.vector_env import KingdominoVectorEnv

    env = SB3VecEnv(KingdominoVectorEnv(num_games=config.games, rules=config.rules, reward=config.reward,
                                        opponents=opponent_mix(config, pool)))
    env.seed(seed)
    return VecNormalize(VecMonitor(env), norm_obs=False, norm_reward=config.reward != "outcome", gamma=config.gamma)


def trained_steps(timesteps: int, snapshot_every: int, rollout: int) -> int:
    """The PPO steps `train` really runs for `timesteps`: it learns in stretches of at most `snapshot_every` steps
    (one snapshot of the learner after each), and SB3 runs each stretch as whole rollouts of `rollout` steps
    (parallel games x n_steps), rounding it up."""
    if min(timesteps, snapshot_every, rollout) < 1:
        raise ValueError(f"timesteps, snapshot_every and rollout must be at least 1, got {timesteps}, "
                         f"{snapshot_every} and {rollout}")
    done = 0
    while done < timesteps:
        stretch = min(snapshot_every, timesteps - done)
        done += -(-stretch // rollout) * rollout
    return done


def rounding_line(config: TrainConfig, rollout: int, n_envs: int) -> str | None:
    """The line that says how many steps PPO trains when SB3's whole rollouts round `config.timesteps` up (None
    when they do not)."""
    total = trained_steps(config.timesteps, config.snapshot_every, rollout)
    if total == config.timesteps:
        return None
    return (f"PPO trains {total:,} steps for timesteps {config.timesteps:,}: SB3 learns in whole rollouts of "
            f"{rollout:,} steps ({n_envs} parallel games x n_steps {config.n_steps}), so each stretch between two "
            f"snapshots (snapshot_every {config.snapshot_every:,}) is rounded up to them.")


def plot_curve(rows: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [r["timesteps"] for r in rows]
    rate = [r["win_rate"] for r in rows]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(steps, rate, marker="o")
    ax.fill_between(steps, [r["ci_low"] for r in rows], [r["ci_high"] for r in rows], alpha=0.2)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("PPO timesteps (after imitation)")
    ax.set_ylabel("win rate vs Full Greedy")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120, format="png")
    plt.close(fig)


def train(config: TrainConfig, ray: bool | str = False) -> Path:
    """Run the whole pipeline; returns the path of the final model. `ray`: step the rollout's games on Ray actors
    (True: local Ray or `RAY_ADDRESS`; or a cluster address; `training.ray_selfplay.RayEnvs`)."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    from agents.network import KingdominoPolicy
    from kingdomino_env.envs.sb3 import ModelPolicy
    from training.evaluate import evaluate
    from training.pretrain import clone, collect

    torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    out = Path(config.out)
    (out / "checkpoints").mkdir(parents=True, exist_ok=True)
    write_text_atomic(out / "config.json", json.dumps(asdict(config), indent=2) + "\n")
    ray_envs = None
    if ray is not False:
        from training.ray_selfplay import RayEnvs

        ray_envs = RayEnvs(None if ray is True else ray or None)
    make = make_env if ray_envs is None else ray_envs
    env = make(config, [], config.seed)
    if config.rules.has_buildings:  # the CNN policy reads Kingdomino's observation layout only
        policy: Any = "MlpPolicy"
        policy_kwargs: dict[str, Any] = {"net_arch": [config.hidden, config.hidden]}
    else:
        policy, policy_kwargs = KingdominoPolicy, {"channels": config.channels, "hidden": config.hidden}
    model = MaskablePPO(policy, env, learning_rate=config.learning_rate, n_steps=config.n_steps,
                        batch_size=config.batch_size, n_epochs=config.n_epochs, gamma=config.gamma,
                        gae_lambda=config.gae_lambda, ent_coef=config.ent_coef, clip_range=config.clip_range,
                        policy_kwargs=policy_kwargs,
                        tensorboard_log=str(out / "tb"), seed=config.seed, verbose=0, device="cpu")
    if config.imitation_games:
        began = time.perf_counter()
        demos = collect(config.rules, config.imitation_games, config.seed)
        clone(model.policy, demos, epochs=config.imitation_epochs, seed=config.seed, progress=True)
        print(f"imitation: {len(demos.actions)} decisions, {time.perf_counter() - began:.0f} s", flush=True)
        del demos

    rows: list[dict] = []
    eval_csv = out / "eval.csv"

    def checkpoint_and_evaluate(step: int) -> Any:
        path = write_atomic(out / "checkpoints" / f"step_{step:09d}.zip", model.save, suffix=".zip")
        result = evaluate(path, "greedy", config.eval_games, config.rules, seed=config.seed + 1)
        rows.append({"timesteps": step, "win_rate": result.win_rate, "ci_low": result.win_rate_ci[0],
                     "ci_high": result.win_rate_ci[1], "mean_margin": result.mean_margin,
                     "games": result.games})
        table = io.StringIO(newline="")
        writer = csv.DictWriter(table, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
        write_text_atomic(eval_csv, table.getvalue())
        write_atomic(out / "learning_curve.png", lambda temporary: plot_curve(rows, temporary))
        print(f"step {step}: {result.line('greedy')}", flush=True)
        return result

    class Periodic(BaseCallback):
        def __init__(self, progress: Progress, task: Any):
            super().__init__()
            self.progress, self.task, self.next_eval = progress, task, config.eval_every

        def _on_step(self) -> bool:
            done = self.num_timesteps - start_steps
            self.progress.update(self.task, completed=min(done, total))
            if self.next_eval <= done < total:
                result = checkpoint_and_evaluate(done)
                self.logger.record("eval/win_rate_vs_greedy", result.win_rate)
                self.logger.record("eval/mean_margin_vs_greedy", result.mean_margin)
                self.next_eval = done + config.eval_every
            return True

    pool: list[Any] = []
    snapshot = write_atomic(out / "checkpoints" / "snapshot_0.zip", model.save, suffix=".zip")
    pool.append(ModelPolicy(MaskablePPO.load(snapshot, device="cpu")))
    start_steps = model.num_timesteps
    checkpoint_and_evaluate(0)
    rollout = model.n_steps * model.n_envs
    total = trained_steps(config.timesteps, config.snapshot_every, rollout)
    line = rounding_line(config, rollout, model.n_envs)
    if line is not None:
        print(line, flush=True)
    columns = [TextColumn("PPO"), BarColumn(), TextColumn("{task.completed:,}/{task.total:,} steps"),
               TimeRemainingColumn()]
    with Progress(*columns) as progress:
        task = progress.add_task("train", total=total)
        callback = Periodic(progress, task)
        generation = 0
        while model.num_timesteps - start_steps < config.timesteps:
            generation += 1
            model.set_env(make(config, pool, config.seed + generation))
            chunk = min(config.snapshot_every, config.timesteps - (model.num_timesteps - start_steps))
            model.learn(chunk, callback=callback, reset_num_timesteps=False, tb_log_name="ppo")
            snapshot = write_atomic(out / "checkpoints" / f"snapshot_{generation}.zip", model.save, suffix=".zip")
            pool = (pool + [ModelPolicy(MaskablePPO.load(snapshot, device="cpu"))])[-config.pool_size:]
    final = write_atomic(out / "model.zip", model.save, suffix=".zip")
    if ray_envs is not None:
        ray_envs.close()
    checkpoint_and_evaluate(model.num_timesteps - start_steps)
    return final


#: The help of each `TrainConfig` option (its flag and its `--config` key).
OPTION_HELP = {
    "timesteps": "PPO environment steps, after the imitation warm start (rounded up to whole rollouts of "
                 "games x n_steps; a line says so when it rounds)",
    "seed": "seed of the games, the opponents and the network",
    "out": "folder of the run: config.json, checkpoints, eval.csv, learning_curve.png, tb/",
    "games": "games played in parallel by the vector env",
    "reward": "end-of-game reward: outcome (+1 win, -1/(P-1) loss), final score, or margin over the best opponent",
    "imitation_games": "Full Greedy games the warm start imitates (0: no warm start)",
    "imitation_epochs": "passes of the warm start over its games",
    "channels": "channels of the convolutional policy network (Kingdomino)",
    "hidden": "hidden units of the policy and value layers",
    "learning_rate": "Adam learning rate",
    "n_steps": "steps per game in each rollout (rollout size: games x n_steps)",
    "batch_size": "minibatch size of the PPO updates",
    "n_epochs": "PPO epochs per rollout",
    "gamma": "discount factor",
    "gae_lambda": "GAE lambda",
    "ent_coef": "entropy bonus coefficient",
    "clip_range": "PPO clip range",
    "greedy_share": "share of games whose opponents are Full Greedy",
    "random_share": "share of games whose opponents are random",
    "pool_size": "frozen snapshots of the learner kept as opponents",
    "snapshot_every": "steps between two snapshots of the learner",
    "eval_every": "steps between two evaluated checkpoints",
    "eval_games": "games of each evaluation against Full Greedy",
    "threads": "torch threads",
    **{o.name: o.help[:1].lower() + o.help[1:].rstrip(".") for o in Rules.options() if o.name in rule_fields()},
}


def _add_ray_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ray", nargs="?", const=True, default=False, metavar="ADDRESS",
                        help="step the rollout's games on Ray actors (the scale extra): on the cluster at ADDRESS "
                             "(ray://HOST:10001 or HOST:6379), else RAY_ADDRESS's, else Ray on this machine "
                             "(default: off, no Ray)")


def _ray_argument(argv: list[str] | None) -> bool | str:
    """`--ray [ADDRESS]` of the command line (not a config key: the same config runs with and without Ray)."""
    parser = argparse.ArgumentParser(add_help=False)
    _add_ray_argument(parser)
    return parser.parse_known_args(argv)[0].ray


#: Second names of options: `--run-dir` as in the other training scripts.
ALIASES: dict[str, tuple[str, ...]] = {"out": ("--run-dir",)}


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m training.train_ppo`: a flag per `TrainConfig` option (None when not given, so
    a `--config` file's value stands), shown with the option's default."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", help="JSON file with any of the options below (flags override it; the defaults "
                                         "shown apply to what neither sets) (default: none)")
    defaults = TrainConfig()
    for f in fields(TrainConfig):
        flags = ["--" + f.name.replace("_", "-"), *ALIASES.get(f.name, ())]
        default = getattr(defaults, f.name)
        if isinstance(default, bool):
            parser.add_argument(*flags, action=argparse.BooleanOptionalAction, default=None,
                                help=f"{OPTION_HELP[f.name]} (default: {'on' if default else 'off'})")
        else:
            parser.add_argument(*flags, dest=f.name, type=type(default), default=None,
                                help=f"{OPTION_HELP[f.name]} (default: {default})")
    _add_ray_argument(parser)
    return parser


def parse_args(argv: list[str] | None = None) -> TrainConfig:
    parser = build_parser()
    args = vars(parser.parse_args(argv))
    args.pop("ray")
    values: dict[str, Any] = {}
    config = args.pop("config")
    if config:
        try:
            values = read_config(config)
        except ConfigError as err:
            parser.error(str(err))
        unknown = set(values) - {f.name for f in fields(TrainConfig)}
        if unknown:
            parser.error(f"unknown config keys {sorted(map(str, unknown))}; allowed: "
                         f"{[f.name for f in fields(TrainConfig)]}")
    values.update({k: v for k, v in args.items() if v is not None})
    try:
        return TrainConfig(**values)
    except (TypeError, ValueError) as err:
        parser.error(str(err))
        raise


def main(argv: list[str] | None = None) -> None:
    config = parse_args(argv)
    np.set_printoptions(precision=3)
    path = train(config, ray=_ray_argument(argv))
    print(f"saved {path}")


if __name__ == "__main__":
    main()
