"""`python -m training.rllib_selfplay --players 2 --iterations N [--address ...]`: self-play PPO with RLlib on our
PettingZoo env, for users whose stack is RLlib.

* The env: `kingdomino_env.env.raw_env` (the AEC env without PettingZoo's illegal-move wrapper, so an illegal
  action raises instead of ending the game) behind RLlib's `PettingZooEnv` wrapper, registered as
  ``"kingdomino_aec"``. Observations are `{"observation", "action_mask"}`; rewards are the env's `reward` mode.
* Action masking: `MaskedActorCritic`, an RLModule whose policy logits are -inf-like (RLlib's FLOAT_MIN) on every
  illegal action, so sampling and the greedy action never pick one, and the loss is over legal actions only.
* Self-play: every seat maps to one shared policy (``"shared"``), trained on all seats' experience.
* Scale: `--env-runners N` sampling actors, placed by Ray over the cluster at `--address` (``ray://HOST:10001``
  or ``HOST:6379``; none: `RAY_ADDRESS`, else Ray on this machine).

The run writes into its folder OUT (`--run-dir` or `--out`; default `rllib` in the runs folder, `training.runs`,
outside the repository) `OUT/checkpoint/` (`Algorithm.save`), `OUT/progress.csv` (one line per iteration) and,
after the last iteration, `OUT/eval.json`: the shared policy (greedy over legal actions) against
`--eval-opponents` in the tournament's seat rotation (each deal played with the policy in every seat). Needs the
`scale` extra.
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.utils.torch_utils import FLOAT_MIN
from ray.tune.registry import register_env

import agents
from kingdomino_env import core
from kingdomino_env.env import raw_env
from tournament.ray_init import init_ray
from training.runs import check_run_dir, default_run_dir, runs_root

ENV_NAME = "kingdomino_aec"
POLICY = "shared"


def make_env(env_config: dict[str, Any]) -> PettingZooEnv:
    """The AEC env with `env_config`'s options (players, reward, ...), as an RLlib multi-agent env."""
    return PettingZooEnv(raw_env(**env_config))


register_env(ENV_NAME, make_env)


class MaskedActorCritic(TorchRLModule, ValueFunctionAPI):
    """An MLP policy and value function over the flat observation; illegal actions get FLOAT_MIN logits.

    `model_config`: `hidden` (units per layer, default 256), `layers` (default 2)."""

    def setup(self) -> None:
        size = self.observation_space["observation"].shape[0]
        hidden = int(self.model_config.get("hidden", 256))
        layers: list[torch.nn.Module] = []
        for _ in range(int(self.model_config.get("layers", 2))):
            layers += [torch.nn.Linear(size, hidden), torch.nn.ReLU()]
            size = hidden
        self.body = torch.nn.Sequential(*layers)
        self.policy_head = torch.nn.Linear(size, self.action_space.n)
        self.value_head = torch.nn.Linear(size, 1)

    def _masked(self, batch: dict[str, Any]) -> tuple[torch.Tensor, torch.Tensor]:
        obs = batch[Columns.OBS]
        features = self.body(obs["observation"].float())
        logits = self.policy_head(features).masked_fill(obs["action_mask"] == 0, FLOAT_MIN)
        return logits, features

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        logits, _ = self._masked(batch)
        return {Columns.ACTION_DIST_INPUTS: logits}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        logits, features = self._masked(batch)
        return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: features}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        if embeddings is None:
            embeddings = self.body(batch[Columns.OBS]["observation"].float())
        return self.value_head(embeddings).squeeze(-1)


def build_config(players: int = 2, reward: str = "outcome", env_runners: int = 1, envs_per_runner: int = 1,
                 batch: int = 4000, minibatch: int = 500, epochs: int = 4, lr: float = 3e-4, hidden: int = 256,
                 seed: int = 0, **env_options: Any) -> PPOConfig:
    """RLlib's PPO on the env, one shared masked policy for every seat."""
    return (
        PPOConfig()
        .environment(ENV_NAME, env_config={"players": players, "reward": reward, **env_options},
                     disable_env_checking=True)
        .multi_agent(policies={POLICY}, policy_mapping_fn=lambda agent_id, episode, **kw: POLICY)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            POLICY: RLModuleSpec(module_class=MaskedActorCritic, model_config={"hidden": hidden})}))
        .env_runners(num_env_runners=env_runners, num_envs_per_env_runner=envs_per_runner,
                     num_cpus_per_env_runner=1)
        .training(train_batch_size_per_learner=batch, minibatch_size=minibatch, num_epochs=epochs, lr=lr,
                  gamma=1.0, lambda_=0.95, entropy_coeff=0.003)
        .fault_tolerance(restart_failed_env_runners=False)
        .debugging(seed=seed)
    )


def greedy_action(module: MaskedActorCritic, obs: dict[str, np.ndarray]) -> int:
    """The policy's most probable legal action."""
    batch = {Columns.OBS: {k: torch.from_numpy(np.asarray(v)[None]) for k, v in obs.items()}}
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
    return int(logits[0].argmax())


def evaluate(module: MaskedActorCritic, opponent: str, games: int, players: int = 2, seed: int = 0,
             **env_options: Any) -> dict[str, Any]:
    """The policy against `players - 1` copies of `opponent`: each deal is played with the policy in every seat.
    Win rate (shared wins split), mean margin over the best opponent, games."""
    wins = margin = 0.0
    played = 0
    deal = 0
    while played < games:
        for seat in range(players):
            env = raw_env(players=players, **env_options)
            env.reset(seed=seed + deal)
            opponents = agents.load(opponent, seed=seed + deal * players + seat)
            learner = env.possible_agents[seat]
            for name in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                env.step(greedy_action(module, obs) if name == learner else opponents.act(env))
            state = env.unwrapped.state
            points = state.scores[0].astype(float)
            wins += float(core.win_shares(state)[0, seat])
            margin += float(points[seat] - np.delete(points, seat).max())
            played += 1
        deal += 1
    return {"opponent": opponent, "games": played, "win_rate": wins / played, "mean_margin": margin / played}


def train(players: int = 2, iterations: int = 10, address: str | None = None, out: str | None = None,
          minutes: float | None = None, env_runners: int = 1, eval_games: int = 0,
          eval_opponents: tuple[str, ...] = ("random", "greedy"), seed: int = 0, num_cpus: int | None = None,
          **options: Any) -> dict[str, Any]:
    """Train for `iterations` (or until `minutes` pass), save, evaluate; the last iteration's figures. `out`: the
    run folder (default: `rllib` in the runs folder, `training.runs`)."""
    folder = check_run_dir(Path(out) if out is not None else default_run_dir("rllib"))
    init_ray(address, num_cpus)
    folder.mkdir(parents=True, exist_ok=True)
    algo = build_config(players=players, env_runners=env_runners, seed=seed, **options).build_algo()
    began = time.perf_counter()
    rows: list[dict[str, Any]] = []
    try:
        for iteration in range(1, iterations + 1):
            result = algo.train()
            runners = result.get("env_runners", {})
            rows.append({"iteration": iteration, "seconds": round(time.perf_counter() - began, 1),
                         "env_steps": int(result.get("num_env_steps_sampled_lifetime", 0)),
                         "episodes": int(runners.get("num_episodes_lifetime", 0)),
                         "episode_len_mean": runners.get("episode_len_mean", float("nan"))})
            print(", ".join(f"{k} {v}" for k, v in rows[-1].items()), flush=True)
            if minutes is not None and time.perf_counter() - began > minutes * 60:
                break
        with (folder / "progress.csv").open("w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        algo.save(str((folder / "checkpoint").resolve()))
        module = algo.get_module(POLICY)
        env_options = {k: v for k, v in options.items() if k not in _TRAINING_KEYS}
        summary = {"players": players, "iterations": len(rows), "seconds": rows[-1]["seconds"],
                   "env_steps": rows[-1]["env_steps"], "episodes": rows[-1]["episodes"],
                   "evaluations": [evaluate(module, opponent, eval_games, players, seed=10_000 + seed,
                                            **env_options) for opponent in eval_opponents if eval_games]}
        (folder / "eval.json").write_text(json.dumps(summary, indent=2) + "\n")
        return summary
    finally:
        algo.stop()


_TRAINING_KEYS = {"reward", "envs_per_runner", "batch", "minibatch", "epochs", "lr", "hidden"}


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m training.rllib_selfplay`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, help="players per game, 2 to 4 (default: %(default)s)")
    parser.add_argument("--iterations", type=int, default=10, help="training iterations (default: %(default)s)")
    parser.add_argument("--address", help="the Ray cluster (ray://HOST:10001 or HOST:6379); default: RAY_ADDRESS, "
                                          "else Ray on this machine")
    parser.add_argument("--out", "--run-dir", dest="out", default=None,
                        help="folder of progress.csv, the checkpoint and eval.json (default: rllib in the runs "
                             f"folder, {runs_root()})")
    parser.add_argument("--minutes", type=float, help="stop after the iteration that passes this wall time "
                                                      "(default: no time limit)")
    parser.add_argument("--env-runners", type=int, default=1,
                        help="sampling actors, one CPU each (default: %(default)s)")
    parser.add_argument("--batch", type=int, default=4000, help="env steps per iteration (default: %(default)s)")
    parser.add_argument("--minibatch", type=int, default=500,
                        help="env steps per gradient minibatch (default: %(default)s)")
    parser.add_argument("--reward", default="outcome", choices=("outcome", "score", "margin"),
                        help="end-of-game reward: outcome (+1 win, -1/(P-1) loss), final score, or margin over the "
                             "best opponent (default: %(default)s)")
    parser.add_argument("--eval-games", type=int, default=100,
                        help="games against each of --eval-opponents (default: %(default)s)")
    parser.add_argument("--eval-opponents", default="random,greedy",
                        help="comma-separated agent specs to evaluate against (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the training and evaluation (default: %(default)s)")
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.players not in (2, 3, 4) or args.iterations < 1 or args.env_runners < 0 or args.eval_games < 0:
        parser.error("--players is 2, 3 or 4; --iterations at least 1; --env-runners and --eval-games at least 0")
    try:
        check_run_dir(Path(args.out) if args.out is not None else default_run_dir("rllib"))
    except ValueError as err:
        parser.error(str(err))
    summary = train(players=args.players, iterations=args.iterations, address=args.address, out=args.out,
                    minutes=args.minutes, env_runners=args.env_runners, eval_games=args.eval_games,
                    eval_opponents=tuple(s for s in args.eval_opponents.split(",") if s), seed=args.seed,
                    reward=args.reward, batch=args.batch, minibatch=args.minibatch)
    for row in summary["evaluations"]:
        print(f"vs {row['opponent']}: win rate {row['win_rate']:.1%}, mean margin {row['mean_margin']:+.1f} "
              f"({row['games']} games)")


if __name__ == "__main__":
    main()
