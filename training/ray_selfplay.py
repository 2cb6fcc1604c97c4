"""Self-play on Ray: the workers of `train_az` and the game-stepping of `train_ppo` as Ray actors, on this machine
or spread over a cluster, feeding the learner in the driver.

* `RaySelfPlay` (`python -m training.train_az --ray [ADDRESS]`): one actor per self-play worker. Each iteration the
  learner puts its network file in the object store once; every actor plays its share of the games with it
  (`az_selfplay.selfplay_task`, the same seeds as the process pool, so the same positions) and returns them.
* `play_csearch_jobs` (`python -m training.csearch_net loop --ray [ADDRESS]`): each self-play job of the compiled
  search (`csearch_net.SelfplayJob`) a Ray task of one CPU; the network files the jobs read are put in the object
  store once and written to each node's temporary folder, so the nodes need neither the files nor their paths.
* `RayEnvs` (`python -m training.train_ppo --ray [ADDRESS]`): the PPO rollout's games split over actors, each
  holding a `KingdominoVectorEnv` of its share of the games and their opponents (Full Greedy, random, frozen
  snapshots: each snapshot is shipped once). MaskablePPO sees one SB3 `VecEnv` (`RayVecEnv`); the policy and the
  updates stay in the driver, the games and the opponents' moves run on the actors.

The address: `None` joins the cluster `RAY_ADDRESS` names, else starts Ray on this machine
(`tournament.ray_init.init_ray`). Needs the `scale` extra.
"""

from __future__ import annotations

import hashlib
import inspect
import io
import itertools
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np
import ray
from stable_baselines3.common.vec_env import VecEnv

from kingdomino_env.vector_env import KingdominoVectorEnv
from tournament.ray_init import init_ray
from tournament.ray_runner import local_file

from .az_data import Positions
from .az_selfplay import selfplay_task
from .ppo_config import opponent_mix

#: Restarts of a self-play actor whose process died, and retries of the call it was running (a call carries all it
#: needs, so a retried one plays the same games).
ACTOR_RESTARTS = 3
# The actors ask Ray for no CPU while they live (Ray's default: one CPU to be placed, none to run), spread over the
# nodes: a worker is idle while the learner trains or evaluates, so the evaluation's tournament tasks (which hold a
# CPU each) run on the same CPUs instead of waiting for actors that never give theirs back.


@ray.remote(max_restarts=ACTOR_RESTARTS, max_task_retries=ACTOR_RESTARTS)
class AZSelfPlayActor:
    """A self-play worker: writes each network it is sent to a local file, then plays games with it."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="kingdomino-az-"))

    def play(self, network: bytes, variants: list[dict], games: int, seed: int, config: dict
             ) -> tuple[Positions, int, float]:
        path = self.folder / "network.az"
        temporary = self.folder / f".network.{os.getpid()}.tmp"
        temporary.write_bytes(network)
        os.replace(temporary, path)
        return selfplay_task(str(path), variants, games, seed, config)


class RaySelfPlay:
    """`workers` AZ self-play actors: `play` runs one iteration's jobs on them (see the module docstring)."""

    def __init__(self, workers: int, address: str | None = None, num_cpus: int | None = None):
        if not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be an integer of at least 1, got {workers!r}")
        init_ray(address, num_cpus)
        self.actors = [AZSelfPlayActor.options(scheduling_strategy="SPREAD").remote() for _ in range(workers)]

    def play(self, network: Path, variants: list[dict], jobs: Sequence[tuple[int, int]], config: dict
             ) -> list[tuple[Positions, int, float]]:
        """(positions, simulations, CPU seconds) of each (games, seed) job, in order; the network is shipped once."""
        ref = ray.put(Path(network).read_bytes())
        calls = [actor.play.remote(ref, variants, games, seed, config)
                 for actor, (games, seed) in zip(itertools.cycle(self.actors), jobs)]
        return ray.get(calls)

    def close(self) -> None:
        for actor in self.actors:
            ray.kill(actor)
        self.actors = []

    def __enter__(self) -> RaySelfPlay:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: A network file shipped to the nodes: (content digest, file suffix, object-store reference to its bytes).
ShippedFile = tuple[str, str, "ray.ObjectRef"]


@ray.remote(num_cpus=1, max_retries=ACTOR_RESTARTS)
def _csearch_job(play: Callable[[Any], Any], job: Any, files: dict[str, ShippedFile]) -> Any:
    """`play(job)` on a node, the job's network files read from the node's copies."""

    def here(path: Path | None) -> Path | None:
        return None if path is None else local_file(*files[str(path)], "kingdomino-ray-csearch")

    return play(job._replace(weights=here(job.weights), past=tuple(here(path) for path in job.past)))


def play_csearch_jobs(play: Callable[[Any], Any], jobs: Sequence[Any], finished: Callable[[int, Any], None],
                      address: str | None = None) -> None:
    """`play(job)` of each self-play job of the compiled search (`csearch_net.play_job` of a `SelfplayJob`, whose
    `weights` and `past` name its network files) as a Ray task, `finished(index, result)` as each ends; a task whose
    worker dies is retried (a job is a function of its fields: the same games). An interrupt or an error cancels
    those not finished."""
    init_ray(address)
    files: dict[str, ShippedFile] = {}
    for path in {path for job in jobs for path in (job.weights, *job.past) if path is not None}:
        data = Path(path).read_bytes()
        files[str(path)] = (hashlib.sha256(data).hexdigest(), Path(path).suffix, ray.put(data))
    pending = {_csearch_job.remote(play, job, files): index for index, job in enumerate(jobs)}
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for call in ready:
                finished(pending.pop(call), ray.get(call))
    except BaseException:
        for call in pending:
            ray.cancel(call, force=True)
        raise


def _snapshot_bytes(policy: Any) -> bytes:
    """A frozen snapshot (`kingdomino_env.envs.sb3.ModelPolicy` of a MaskablePPO) as the bytes of its saved zip."""
    data = io.BytesIO()
    policy.model.save(data)
    return data.getvalue()


@ray.remote
class VectorEnvActor:
    """A share of the PPO rollout's games: an SB3 view of a `KingdominoVectorEnv` with its opponents. Its games
    live in the actor, so a dead one is not restarted: the run stops with its error."""

    def __init__(self, threads: int = 1) -> None:
        import torch

        torch.set_num_threads(threads)
        self.env: Any = None
        self.snapshots: dict[str, Any] = {}

    def configure(self, games: int, env_options: dict, opponents: list[Any], seed: int) -> dict:
        """Build the env of `games` games; an opponent is a name ("greedy") or ("snapshot", key, reference to
        its saved bytes), loaded once per actor."""
        from sb3_contrib import MaskablePPO

        from kingdomino_env.envs.sb3 import ModelPolicy, SB3VecEnv

        keys = {opponent[1] for opponent in opponents if isinstance(opponent, tuple)}
        self.snapshots = {key: policy for key, policy in self.snapshots.items() if key in keys}
        mix: list[Any] = []
        for opponent in opponents:
            if isinstance(opponent, tuple):
                _, key, ref = opponent
                if key not in self.snapshots:
                    data = io.BytesIO(ray.get(ref))
                    self.snapshots[key] = ModelPolicy(MaskablePPO.load(data, device="cpu"))
                mix.append(self.snapshots[key])
            else:
                mix.append(opponent)
        self.env = SB3VecEnv(KingdominoVectorEnv(num_games=games, opponents=mix, **env_options))
        self.env.seed(seed)
        return {"observation_space": self.env.observation_space, "action_space": self.env.action_space,
                "num_envs": self.env.num_envs}

    def reset(self) -> tuple[np.ndarray, np.ndarray]:
        return self.env.reset(), self.env.action_masks()

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict], np.ndarray]:
        self.env.step_async(actions)
        obs, rewards, dones, infos = self.env.step_wait()
        return obs, rewards, dones, infos, self.env.action_masks()


class RayVecEnv(VecEnv):
    """One SB3 `VecEnv` over the games of several `VectorEnvActor`s (slots in actor order)."""

    def __init__(self, actors: list[Any], sizes: list[int], spaces: dict):
        self.actors = actors
        self.bounds = np.cumsum([0, *sizes])
        self._masks: np.ndarray | None = None
        self._pending: list[Any] | None = None
        self.render_mode = None
        super().__init__(int(self.bounds[-1]), spaces["observation_space"], spaces["action_space"])

    def reset(self) -> np.ndarray:
        parts = ray.get([actor.reset.remote() for actor in self.actors])
        self._masks = np.concatenate([m for _, m in parts])
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return np.concatenate([o for o, _ in parts])

    def step_async(self, actions: np.ndarray) -> None:
        actions = np.asarray(actions)
        self._pending = [actor.step.remote(actions[lo:hi])
                         for actor, lo, hi in zip(self.actors, self.bounds[:-1], self.bounds[1:], strict=True)]

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict]]:
        if self._pending is None:
            raise RuntimeError("step_wait() without step_async()")
        parts, self._pending = ray.get(self._pending), None
        self._masks = np.concatenate([p[4] for p in parts])
        infos = [info for p in parts for info in p[3]]
        return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
                np.concatenate([p[2] for p in parts]), infos)

    def action_masks(self) -> np.ndarray:
        """(num_envs, n_actions) legal actions of every slot, as of the last reset or step."""
        if self._masks is None:
            raise RuntimeError("action_masks() before reset()")
        return self._masks

    def close(self) -> None:
        """The actors belong to `RayEnvs`, which ends them."""

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self, attr_name) for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
                   ) -> list[Any]:
        """`action_masks` answers one row per slot (what MaskablePPO asks for); nothing else is supported."""
        slots = self._indices(indices)
        if method_name != "action_masks":
            raise AttributeError(f"RayVecEnv has no per-game method {method_name!r}")
        return list(self.action_masks()[slots])

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int | np.integer):
            return [int(indices)]
        return list(indices)


def env_options(config: Any) -> dict[str, Any]:
    """The `KingdominoVectorEnv` options a `train_ppo.TrainConfig` sets (those of its keys the env takes), so the
    actors' games are the variant `make_env` would play."""
    taken = set(inspect.signature(KingdominoVectorEnv.__init__).parameters) - {"self", "num_games", "opponents"}
    return {f.name: getattr(config, f.name) for f in fields(config) if f.name in taken}


class RayEnvs:
    """Makes `train_ppo`'s rollout env on Ray actors (`make_env`'s contract: config, opponent pool, seed -> VecEnv).

    The actors live as long as this object; each call re-deals their games with the new opponent mix. `workers`:
    actors (default: the cluster's CPUs less one for the learner, at most one per game)."""

    def __init__(self, address: str | None = None, workers: int | None = None, num_cpus: int | None = None):
        init_ray(address, num_cpus)
        if workers is None:
            workers = max(1, int(ray.cluster_resources().get("CPU", 2)) - 1)
        if not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be an integer of at least 1, got {workers!r}")
        self.workers = workers
        self.actors: list[Any] = []
        self.shipped: dict[int, tuple[Any, str, ray.ObjectRef]] = {}
        self.count = 0

    def _ship(self, pool: list[Any]) -> None:
        """Put each snapshot of `pool` in the object store once; forget those that left the pool."""
        self.shipped = {k: v for k, v in self.shipped.items() if any(v[0] is entry for entry in pool)}
        for entry in pool:
            if not isinstance(entry, str) and id(entry) not in self.shipped:
                self.count += 1
                self.shipped[id(entry)] = (entry, f"snapshot-{self.count}", ray.put(_snapshot_bytes(entry)))

    def _opponent(self, entry: Any) -> Any:
        return entry if isinstance(entry, str) else ("snapshot", *self.shipped[id(entry)][1:])

    def __call__(self, config: Any, pool: list[Any], seed: int) -> VecEnv:
        from stable_baselines3.common.vec_env import VecMonitor, VecNormalize

        self._ship(pool)
        mix = [self._opponent(entry) for entry in opponent_mix(config, pool)]
        workers = min(self.workers, config.games)
        while len(self.actors) < workers:
            self.actors.append(VectorEnvActor.options(scheduling_strategy="SPREAD").remote(config.threads))
        bounds = np.linspace(0, config.games, workers + 1).astype(int)
        options = env_options(config)
        calls = []
        for actor, lo, hi in zip(self.actors, bounds[:-1], bounds[1:], strict=False):
            calls.append(actor.configure.remote(int(hi - lo), options, mix[lo:hi], seed + int(lo)))
        spaces = ray.get(calls)
        env = RayVecEnv(self.actors[:workers], [s["num_envs"] for s in spaces], spaces[0])
        return VecNormalize(VecMonitor(env), norm_obs=False, norm_reward=config.reward != "outcome",
                            gamma=config.gamma)

    def close(self) -> None:
        for actor in self.actors:
            ray.kill(actor)
        self.actors = []
