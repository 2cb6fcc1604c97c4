"""The compiled search's value network: self-play data, the torch twin of `agents.csearch.network`, training and
export.

    python -m training.csearch_net selfplay --variant duel --games 500 --simulations 200 --out run/data_0.npz
    python -m training.csearch_net train --variant duel --data run/data_*.npz --out run/net_1.npz
    python -m training.csearch_net selfplay --variant duel --games 500 --playouts 32 --out run/playouts_0.npz
    python -m training.csearch_net train --variant duel --data run/playouts_*.npz --target playouts --out net.npz
    python -m training.csearch_net loop --variant duel --iterations 20       # both, in turn; resumes
    python -m training.csearch_net loop --resume duel --iterations 300       # go on from the kept duel network
    python -m training.csearch_net ladder --variant duel --simulations 200
    python -m training.csearch_net keep duel                                 # keep the run's newest network

Self-play: `CompiledSearchAgent` plays every seat (with a network file, or without one the heuristic in Kingdomino
and the score lead in Queendomino and the Royal Wedding, valuing its leaves); every decision's position is kept as
the value network's inputs for every kingdom (`inputs.features_of`, the game's declared inputs), with
each kingdom's final share of the win and margin (own score minus the best other) as targets. The first
`OPENING_MOVES` decisions of each game are sampled from the root's visits, so that games differ. With `--fast-share
F --fast-simulations N` that share of the later decisions is searched with N simulations and none of their positions
kept (KataGo's playout-cap randomisation: more games for the same compute); with `--past-share S` one seat of that
share of the games, drawn at random, is played by an earlier network (`--past`; in `loop`, one of the run's
`PAST_NETWORKS` newest before the current one).

With `--playouts N`, self-play also plays N of the search's leaf playouts from every kept position, each in a world
of its own (`CompiledSearchAgent.playout_outcomes`), and keeps each kingdom's mean win share and margin over them:
targets that `train --target playouts` fits, so that a network can value a leaf as its playout would, averaged
over the hidden orders, at the cost of one evaluation. Ctrl-C during `selfplay` writes the games that finished.

`selfplay` and `loop` share the games out in jobs of at most `JOB_GAMES` (`selfplay_jobs`), each seeded by the seed
(in `loop`, the iteration) and its first game's number, played here, in `--workers` processes or as Ray tasks
(`--ray`, `play_jobs`): the same games however they are shared out.

Training: the torch `ValueNet` computes exactly the numba `network.forward` (an embedding sum for the first layer),
trained on binary cross-entropy of the win share and squared error of margin / MARGIN_UNIT (of each game's outcome,
or with `--target playouts` of the playouts' means); `export` writes its weights for the search.

A run folder holds data_K.npz (the self-play of iteration K, by net_K, or the heuristic for K = 0), net_K.npz
(trained on the data before it; its metadata gives its variant, iteration and the self-play games before it) and
run.json (the variant and the loop's settings, which later starts of the run take where no flag is given); `loop`
runs iterations of both, skipping what the folder already holds, so that a stopped run goes on where it stopped;
`ladder` rates every net_K against fixed anchors (`training.az_ladder`'s round robin and openskill ratings), by the
self-play games played before it. The run folder is `--run-dir` (or the positional RUN_DIR), by default
`csearch_NAME` under the runs folder (`training.runs`: `$KINGDOMINO_RUNS`, else
`~/.local/share/kingdomino-rl/runs`), NAME the kept network's name or the variant; it is never inside the
repository, whose git tree holds no self-play data.

Resuming from a network (`loop --resume NAME`, a kept network `training/kept/csearch_NAME.npz`, or `--resume
PATH`, a net_K.npz a loop wrote) copies it into an empty run folder as net_K.npz, with its iteration and self-play
game counters, and takes its variant and (for a kept network) the run's settings. The self-play data it was trained
on is not kept, so the data window is played anew: iteration K plays its games with net_K and trains net_K+1 on them
alone, net_K+2 on two iterations' games, and so on; the first `window` - 1 networks train on a shorter window than
the run's, until it refills. `keep NAME` keeps a run folder's newest network as `training/kept/csearch_NAME.npz`, with
its counters and the run's settings beside it and its entry in the model manifest (`training.runs.keep_network`), so
that a fresh clone resumes the run from it.
"""

from __future__ import annotations

import argparse
import glob
import json
import re
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import torch
from torch import nn

from agents.budget import Budget
from agents.csearch import network
from agents.csearch.agent import CompiledSearchAgent
from agents.csearch.inputs import KINGDOMINO, Inputs, features_of, inputs_of, new_inputs
from kingdomino_env import core
from kingdomino_env.files import read_regular_file, write_atomic, write_text_atomic
from kingdomino_env.rules import Rules
from tournament.worker_pool import end_pool, quiet_worker, spawn_pool
from training.az_ladder import checkpoint_entry, play_ladder, print_ladder, with_anchors
from training.az_symmetry import N_SYMMETRIES, sparse_maps
from training.runs import (
    LOOP_SETTINGS,
    OPTIONAL_SETTINGS,
    check_run_dir,
    default_run_dir,
    keep_network,
    kept_names,
    kept_network,
    optional_setting_error,
)

#: The variants this trainer knows by name.
VARIANTS = {
    "duel": Rules(players=2, mighty_duel=True, harmony=True, middle_kingdom=True),
    "2p": Rules(players=2),
    "2p-bonuses": Rules(players=2, harmony=True, middle_kingdom=True),
    "3p": Rules(players=3),
    "4p": Rules(players=4),
    "queendomino-2p": Rules(game="queendomino", players=2),
    "royal-wedding-4p": Rules(game="royal_wedding", players=4),
}
#: The ladder's anchors by the game whose inputs a network reads (the heuristic values Kingdomino positions only).
ANCHORS = {"kingdomino": "greedy,mc:p100,heuristic=csearch:p200:heuristic", "queendomino": "greedy,mc:p100"}
#: The most bytes a self-play data file may hold unpacked.
MAX_DATA_BYTES = 4 << 30
#: The largest value each count option takes (a run of this size would take years on one core).
MAX_COUNTS = {"games": 10**7, "simulations": 10**7, "epochs": 10**4, "every": 10**6, "iterations": 10**6,
              "window": 10**6, "workers": 1024}
#: Data's optional fields: the means of playouts from each position.
PLAYOUT_FIELDS = ("playout_win", "playout_margin")
#: What a network may be trained to predict: each game's outcome, or the mean outcome of playouts from each position.
TARGETS = ("outcome", "playouts")
#: Decisions per game played in proportion to the root's visits rather than by the most visited action.
OPENING_MOVES = 4
#: The share of the learning rate the squares' first-layer rows learn at: each row is seen in few positions, and at
#: the full rate they fit the games they saw and value held-out positions worse.
SQUARES_LR_SHARE = 0.1
#: Self-play values its leaves by the network (or heuristic) alone: playouts would make its games several times slower.
SELFPLAY_PLAYOUT_MIX = 0.0
#: A run folder's record of its variant and loop settings, and its format name.
RUN_FILE = "run.json"
RUN_FORMAT = "kingdomino-rl csearch run"
#: The loop's settings where neither a flag, the run folder nor a kept network gives them.
LOOP_DEFAULTS = {"variant": "duel", "games": 400, "simulations": 200, "window": 4, "epochs": 8,
                 **{key: setting.default for key, setting in OPTIONAL_SETTINGS.items()}}
#: How many of a run's newest earlier networks self-play draws an opponent from (`Variety.past_share`).
PAST_NETWORKS = 8
#: The most games of one self-play job (`selfplay_jobs`): the unit that workers share out.
JOB_GAMES = 25
#: What to do as self-play games finish: print a line about every tenth of them (True), nothing (False), or call
#: `progress(games finished, rows so far)` after each.
Progress = bool | Callable[[int, int], None]


class Variety(NamedTuple):
    """How self-play varies its games beyond the sampled openings (each an optional loop setting, described in
    `training.runs.OPTIONAL_SETTINGS`): `fast_share` of the decisions after the opening are searched with
    `fast_simulations` only and their positions not kept (KataGo's playout-cap randomisation), and in
    `past_share` of the games one seat, drawn at random, is played by an earlier network, drawn at random."""

    fast_share: float = 0.0
    fast_simulations: int = 0
    past_share: float = 0.0

    def check(self, simulations: int) -> None:
        """ValueError naming the setting that is out of its range, or fast searches not fewer than `simulations`."""
        for key, value in self._asdict().items():
            if wrong := optional_setting_error(key, value, "--" + key.replace("_", "-")):
                raise ValueError(wrong)
        if self.fast_share and not 1 <= self.fast_simulations < simulations:
            raise ValueError(f"--fast-share {self.fast_share:g} takes --fast-simulations from 1 to {simulations - 1} "
                             f"(fewer than --simulations {simulations}), got {self.fast_simulations}")


#: Self-play as the loop plays it by default: every decision searched in full, every seat by the newest network.
NO_VARIETY = Variety()


@dataclass
class Data:
    """N positions of K kingdoms, as a game's `Inputs` declare them: indices (N, K, L) int16 sparse indices
    (padding = its sparse size), dense (N, K, D) f32, glob (N, K, G) f32, win (N, K) f32 win shares, margin (N, K)
    f32 points,
    game (N,) int64 the game each position comes from (unique across files: seed * 2**20 + game number); where
    self-play played playouts from every position (`selfplay`'s `playouts`), playout_win and playout_margin (N, K)
    f32 their means."""

    indices: np.ndarray
    dense: np.ndarray
    glob: np.ndarray
    win: np.ndarray
    margin: np.ndarray
    game: np.ndarray
    playout_win: np.ndarray | None = None
    playout_margin: np.ndarray | None = None

    def save(self, path: Path) -> None:
        np.savez_compressed(path, **{name: value for name, value in self.__dict__.items() if value is not None})

    @classmethod
    def joined(cls, parts: Sequence[Data]) -> Data:
        """The positions of `parts` (alike in fields), in order."""
        return cls(**{name: None if getattr(parts[0], name) is None
                      else np.concatenate([getattr(part, name) for part in parts])
                      for name in cls.__dataclass_fields__})

    @classmethod
    def load(cls, paths: list[Path], inputs: Inputs = KINGDOMINO) -> Data:
        """The positions of several files of a game with `inputs`, in order; ValueError naming a file that is not
        such self-play data, or whose dense features are not those of the first file."""
        parts = []
        for path in paths:
            network.check_npz(path, "csearch self-play data", MAX_DATA_BYTES)
            try:
                with np.load(path, allow_pickle=False) as stored:
                    parts.append({name: stored[name] for name in cls.__dataclass_fields__
                                  if name in stored.files or name not in PLAYOUT_FIELDS})
            except (OSError, ValueError, KeyError) as err:
                raise ValueError(f"{path} is not csearch self-play data: {err}") from None
            held = [name for name in PLAYOUT_FIELDS if name in parts[-1]]
            shape = parts[-1]["win"].shape
            if held and (len(held) < len(PLAYOUT_FIELDS) or any(parts[-1][n].shape != shape for n in held)):
                raise ValueError(f"{path} is damaged: its playout targets must be {' and '.join(PLAYOUT_FIELDS)}, "
                                 f"both shaped as its win shares {shape}")
            widths = inputs.dense_widths
            if parts[-1]["dense"].ndim != 3 or parts[-1]["dense"].shape[2] not in widths:
                raise ValueError(f"{path} is not csearch self-play data of {inputs.name}: its dense features have "
                                 f"shape {parts[-1]['dense'].shape}, expected "
                                 f"{' or '.join(f'(N, K, {w})' for w in widths[::-1])}")
            if parts[-1]["dense"].shape[2] != parts[0]["dense"].shape[2]:
                raise ValueError(f"{path} holds {parts[-1]['dense'].shape[2]} dense features a position, "
                                 f"{paths[0]} {parts[0]['dense'].shape[2]}: data of one feature set at a time")
        with_playouts = {PLAYOUT_FIELDS[0] in part: path for part, path in zip(parts, paths, strict=True)}
        if len(with_playouts) > 1:
            raise ValueError(f"{with_playouts[True]} holds playout targets and {with_playouts[False]} does not: "
                             "train on data with playout targets (selfplay --playouts) or without, not both")
        return cls.joined([cls(**part) for part in parts])

    @staticmethod
    def summary(path: Path) -> DataSummary:
        """What a data file holds, read without loading its positions; ValueError naming a file that is not
        csearch self-play data."""
        network.check_npz(path, "csearch self-play data", MAX_DATA_BYTES)
        try:
            with np.load(path, allow_pickle=False) as stored:
                return DataSummary(int(stored["dense"].shape[-1]), PLAYOUT_FIELDS[0] in stored.files,
                                   int(np.unique(stored["game"]).size))
        except (OSError, ValueError, KeyError, IndexError) as err:
            raise ValueError(f"{path} is not csearch self-play data: {err}") from None


class DataSummary(NamedTuple):
    """A data file's dense features a position, whether it holds the playouts' mean outcomes (`selfplay`'s
    `playouts`), and its number of games."""

    dense_width: int
    has_playouts: bool
    games: int


class SelfplayInterrupted(KeyboardInterrupt):
    """Ctrl-C during `selfplay` (or `play_games`) after some games had finished: `data` holds what they gave, `games`
    counts them."""

    def __init__(self, data: Any, games: int):
        super().__init__(f"interrupted after {games} finished games")
        self.data, self.games = data, games


def selfplay(rules: Rules, games: int, simulations: int, weights: Path | None, seed: int, playouts: int = 0,
             progress: Progress = False, variety: Variety = NO_VARIETY, past: Sequence[Path] = (), first: int = 0
             ) -> Data:
    """`games` self-play games of `rules` at `simulations` per decision; their decisions' positions, with the mean
    outcome of `playouts` leaf playouts from each (`CompiledSearchAgent.playout_outcomes`, each in a world of its
    own) where `playouts` > 0. `variety`: fast decisions left out, and games with one seat played by one of the
    networks `past` (none: every seat plays `weights`). `first`: the number of the first game among the games of
    `seed` (a job's place in `selfplay_jobs`), which seeds them with `seed` and numbers them. `progress`: see
    `play_games`. Ctrl-C after a game has finished raises `SelfplayInterrupted` holding the finished games'
    positions."""
    variety.check(simulations)
    search_seed = seed if first == 0 else int(np.random.SeedSequence((seed, first)).generate_state(1, np.uint64)[0])

    def searches(net: Path | None) -> Searches:
        def search(n: int) -> CompiledSearchAgent:
            return CompiledSearchAgent(Budget(playouts=n), seed=search_seed, weights=net,
                                       playout_mix=SELFPLAY_PLAYOUT_MIX)

        fast = search(variety.fast_simulations) if variety.fast_share else None
        return Searches(search(simulations), fast)

    own, earlier = searches(weights), [searches(net) for net in past]
    rng = np.random.default_rng(seed if first == 0 else (seed, first))

    def one_game(number: int) -> list[tuple]:
        seats = [own] * rules.players
        if earlier and variety.past_share and rng.random() < variety.past_share:
            seats[int(rng.integers(rules.players))] = earlier[int(rng.integers(len(earlier)))]
        return [row + (seed * 2**20 + first + number,) for row in _selfplay_game(own.full, seats, rules, rng,
                                                                                  playouts, variety.fast_share)]

    return play_games(games, one_game, lambda rows: _as_data(rows, playouts), progress, "positions")


class SelfplayJob(NamedTuple):
    """A share of one call's self-play games, played by `play_job` wherever it runs: `selfplay`'s arguments, the
    job's games numbered from `first`."""

    rules: Rules
    games: int
    simulations: int
    weights: Path | None
    seed: int
    first: int
    playouts: int
    variety: Variety
    past: tuple[Path, ...]


def selfplay_jobs(rules: Rules, games: int, simulations: int, weights: Path | None, seed: int, playouts: int = 0,
                  variety: Variety = NO_VARIETY, past: Sequence[Path] = (), job_games: int | None = None
                  ) -> list[SelfplayJob]:
    """`selfplay`'s games as jobs of at most `job_games` (default `JOB_GAMES`) games, each seeded by `seed` and its
    first game's number: the same games however many workers play them, in order. ValueError for a `variety` out of
    its ranges."""
    variety.check(simulations)
    job_games = job_games or JOB_GAMES
    return [SelfplayJob(rules, min(job_games, games - first), simulations, weights, seed, first, playouts, variety,
                        tuple(past)) for first in range(0, games, job_games)]


def play_job(job: SelfplayJob, progress: Progress = False) -> tuple[Data, float]:
    """A job's positions and the CPU seconds its self-play took in this process; `progress` as `play_games`'s."""
    torch.set_num_threads(1)
    began = time.process_time()
    data = selfplay(job.rules, job.games, job.simulations, job.weights, job.seed, job.playouts, progress,
                    variety=job.variety, past=list(job.past), first=job.first)
    return data, time.process_time() - began


def play_jobs(jobs: Sequence[SelfplayJob], workers: int = 1, ray: bool | str = False, progress: bool = False
              ) -> tuple[Data, float]:
    """The positions of `jobs`, in order, and the CPU seconds their self-play took: played here (`workers` 1), in
    `workers` spawned processes of this machine, or as Ray tasks (`ray`: True for the cluster `RAY_ADDRESS` names,
    else Ray on this machine, or a cluster's address). The same games whichever. `progress`: print a line about
    every tenth of the games (as they finish here, as their jobs finish elsewhere). Ctrl-C after a game has finished
    raises `SelfplayInterrupted` holding the finished jobs' positions (and, played here, those of the job's finished
    games)."""
    began, total, shown = time.perf_counter(), sum(job.games for job in jobs), [0]
    done: dict[int, tuple[Data, float]] = {}

    def report(games: int, positions: int) -> None:
        step = max(1, total // 10)
        if progress and (games // step > shown[0] // step or games == total):
            shown[0] = games
            print(f"{games} of {total} games, {positions} positions, {time.perf_counter() - began:.0f} s", flush=True)

    def so_far() -> tuple[int, int]:
        return sum(jobs[i].games for i in done), sum(data.win.shape[0] for data, _ in done.values())

    def finished(index: int, result: tuple[Data, float]) -> None:
        done[index] = result
        report(*so_far())

    try:
        if ray is not False:
            from .ray_selfplay import play_csearch_jobs

            play_csearch_jobs(play_job, jobs, finished, None if ray is True else ray)
        elif workers <= 1 or len(jobs) <= 1:
            for index, job in enumerate(jobs):
                games, positions = so_far()
                done[index] = play_job(job, lambda n, rows, g=games, p=positions: report(g + n, p + rows))
        else:
            _play_in_pool(jobs, min(workers, len(jobs)), finished)
    except SelfplayInterrupted as stop:
        kept = [done[i][0] for i in sorted(done)] + [stop.data]
        raise SelfplayInterrupted(Data.joined(kept), sum(jobs[i].games for i in done) + stop.games) from None
    except KeyboardInterrupt:
        if not done:
            raise
        kept = [done[i][0] for i in sorted(done)]
        raise SelfplayInterrupted(Data.joined(kept), sum(jobs[i].games for i in done)) from None
    return Data.joined([done[i][0] for i in range(len(jobs))]), sum(seconds for _, seconds in done.values())


def _play_in_pool(jobs: Sequence[SelfplayJob], workers: int,
                  finished: Callable[[int, tuple[Data, float]], None]) -> None:
    """`jobs` in `workers` spawned processes, `finished(index, result)` as each ends; an interrupt or an error ends
    the workers at once."""
    pool = spawn_pool(workers, quiet_worker)
    try:
        futures = {pool.submit(play_job, job): index for index, job in enumerate(jobs)}
        for future in as_completed(futures):
            finished(futures[future], future.result())
    except BaseException:
        end_pool(pool)
        raise
    pool.shutdown()


class Searches(NamedTuple):
    """How one seat of a self-play game searches: `full` at the run's simulations, `fast` (None: never) in its
    share of the decisions after the opening (`Variety.fast_share`)."""

    full: CompiledSearchAgent
    fast: CompiledSearchAgent | None


def play_games(games: int, one_game: Callable[[int], list], gather: Callable[[list], Any], progress: Progress,
               rows_are: str) -> Any:
    """`gather` of the rows of `games` games, `one_game(number)` giving each game's rows; `progress` (`Progress`):
    True prints a line (rows counted as `rows_are`) about every tenth of the games. Ctrl-C after a game has finished
    raises `SelfplayInterrupted` holding `gather` of the finished games' rows."""
    began = time.perf_counter()
    rows: list = []
    finished = 0
    try:
        for number in range(games):
            rows += one_game(number)
            finished += 1
            if callable(progress):
                progress(finished, len(rows))
            elif progress and ((number + 1) % max(1, games // 10) == 0 or number + 1 == games):
                print(f"{number + 1} of {games} games, {len(rows)} {rows_are}, {time.perf_counter() - began:.0f} s",
                      flush=True)
    except KeyboardInterrupt:
        if not rows:
            raise
        raise SelfplayInterrupted(gather(rows), finished) from None
    return gather(rows)


def _selfplay_game(judge: CompiledSearchAgent, seats: Sequence[Searches], rules: Rules, rng: np.random.Generator,
                   playouts: int, fast_share: float) -> list[tuple]:
    """One self-play game's rows, `seats[s]` searching for seat s (its fast search in `fast_share` of the decisions
    after the opening): (indices, dense, glob, win, margin) of each decision searched in full, then the mean (win,
    margin) of `playouts` of `judge`'s playouts where > 0. The first `OPENING_MOVES` decisions are drawn from the
    root's visits."""
    state = core.new_games(rules, [int(rng.integers(2**62))])
    rows: list[tuple] = []
    decisions = 0
    while not state.is_over[0]:
        mask = core.legal_action_mask(state)
        if mask[0].sum() > 1:
            decisions += 1
            full, fast = seats[int(state.current_player[0])]
            opening = decisions <= OPENING_MOVES
            quick = fast is not None and not opening and rng.random() < fast_share
            if not quick:
                indices, dense, glob_ = new_inputs(rules)
                features_of(state.arrays, state.constants, indices, dense, glob_)
                rows.append((indices.astype(np.int16), dense.astype(np.float32), glob_.astype(np.float32),
                             *(judge.playout_outcomes(state, 0, playouts) if playouts else ())))
            if opening:
                action = _sampled(full, state, mask, rng)
            else:
                action = int((fast if quick else full).act(state, np.zeros(1, dtype=np.int64), mask, None)[0])
        else:
            action = int(mask[0].argmax())
        core.step(state, [action])
    win = core.win_shares(state)[0].astype(np.float32)
    margin = core.rewards(state, "margin")[0].astype(np.float32)
    return [row[:3] + (win, margin) + row[3:] for row in rows]


def _as_data(rows: list[tuple], playouts: int) -> Data:
    """Data from self-play rows (indices, dense, glob, win, margin, [playout win, playout margin,] game)."""
    columns = [np.stack([row[i] for row in rows]) for i in range(len(rows[0]))]
    data = Data(*columns[:5], columns[-1])
    if playouts:
        data.playout_win, data.playout_margin = (c.astype(np.float32) for c in columns[5:7])
    return data


def _sampled(agent: CompiledSearchAgent, state, mask: np.ndarray, rng: np.random.Generator) -> int:
    """An action drawn in proportion to the root's visits of a search from `state`."""
    visits = agent.root_visits(state, 0)
    visits[~mask[0]] = 0
    if visits.sum() == 0:
        return int(mask[0].argmax())
    return int(rng.choice(visits.shape[0], p=visits / visits.sum()))


class ValueNet(nn.Module):
    """The torch twin of `agents.csearch.network.forward` (same parameters, same arithmetic) for a game's `inputs`.
    Without `squares` it reads the dense features only (its first layer has one zero row); it reads the first
    `dense` dense features (all by default)."""

    def __init__(self, frame: int, hidden: int = 32, hidden2: int = 32, squares: bool = True,
                 dense: int | None = None, inputs: Inputs = KINGDOMINO):
        super().__init__()
        self.frame = frame
        self.pad = inputs.sparse_size(frame) if squares else 0
        self.w1 = nn.EmbeddingBag(self.pad + 1, hidden, mode="sum", padding_idx=self.pad)
        self.wd = nn.Linear(len(inputs.dense) if dense is None else dense, hidden)
        self.w2 = nn.Linear(2 * hidden + len(inputs.globals), hidden2)
        self.w3 = nn.Linear(hidden2, 2)
        nn.init.normal_(self.w1.weight, std=0.05)
        with torch.no_grad():
            self.w1.weight[self.pad] = 0

    def forward(self, indices: torch.Tensor, dense: torch.Tensor, glob_: torch.Tensor) -> torch.Tensor:
        """(N, K, 2) outputs from (N, K, L) indices, (N, K, D) dense and (N, K, G) global inputs."""
        n, k, length = indices.shape
        if self.pad == 0:
            indices = torch.zeros_like(indices)
        h = self.w1(indices.reshape(n * k, length)).reshape(n, k, -1) + self.wd(dense)
        h = torch.relu(h)
        others = torch.stack([torch.cat([h[:, :i], h[:, i + 1:]], dim=1).amax(dim=1) for i in range(k)], dim=1)
        z = torch.relu(self.w2(torch.cat([h, others, glob_], dim=2)))
        return self.w3(z)

    def export(self) -> network.Weights:
        """The weights in `network.Weights`' layout (float64)."""
        def arr(t: torch.Tensor) -> np.ndarray:
            return np.ascontiguousarray(t.detach().double().numpy())
        return network.Weights(arr(self.w1.weight), arr(self.wd.weight.T), arr(self.wd.bias), arr(self.w2.weight.T),
                               arr(self.w2.bias), arr(self.w3.weight.T), arr(self.w3.bias))

    def load(self, weights: network.Weights) -> None:
        """Set the parameters from `network.Weights`; weights of a network reading fewer dense features, or no
        squares, leave the others' first-layer weights at zero (the same outputs, and room to learn them)."""
        read = weights.wd.shape[0]
        if read > self.wd.in_features:
            raise ValueError(f"the network reads {read} dense features, this one {self.wd.in_features}: data of "
                             f"the older feature set cannot go on from it")
        if weights.reads_squares and self.pad == 0:
            raise ValueError("the network reads the board's squares and this one does not: going on from it would "
                             "drop what it learned of them; train with squares")
        with torch.no_grad():
            if not weights.reads_squares:
                self.w1.weight.zero_()
            else:
                self.w1.weight.copy_(torch.from_numpy(weights.w1))
            self.wd.weight.zero_()
            self.wd.weight[:, :read] = torch.from_numpy(weights.wd.T)
            self.wd.bias.copy_(torch.from_numpy(weights.b1))
            self.w2.weight.copy_(torch.from_numpy(weights.w2.T))
            self.w2.bias.copy_(torch.from_numpy(weights.b2))
            self.w3.weight.copy_(torch.from_numpy(weights.w3.T))
            self.w3.bias.copy_(torch.from_numpy(weights.b3))


def held_out_games(games: np.ndarray, share: float) -> np.ndarray:
    """The games of `games` (their ids) that training holds out: those whose id hashes below `share`, at least one.
    A game is held out or not whatever else is trained on, so a run's network never trained on the games its
    successor is measured by, and the start's own weights compete with the epochs fairly."""
    with np.errstate(over="ignore"):
        keys = (games.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(11)
    shares = keys.astype(np.float64) / 2.0**53
    held = games[shares < share]
    return held if held.size else games[[int(np.argmin(shares))]]


def train(data: Data, frame: int, epochs: int, start: Path | None = None, seed: int = 0, batch: int = 512,
          lr: float = 2e-3, holdout: float = 0.1, squares: bool = False, inputs: Inputs = KINGDOMINO,
          target: str = "outcome", symmetries: bool = True) -> tuple[ValueNet, dict]:
    """A network of a game with `inputs` trained on `data` (from `start`'s weights if given), about `holdout` of the
    games kept out to measure it (`held_out_games`), and the parameters of its best epoch on them kept; (network,
    losses by epoch).
    `squares`: read the board's squares too (a sparse first layer, which needs many more games; its rows learn at
    `SQUARES_LR_SHARE` of `lr`). `target`
    (one of TARGETS): each game's outcome, or the mean outcome of the playouts from each position (data that
    `selfplay` played with `playouts`). `symmetries`: a network reading the squares sees each kingdom of a training
    position under a random one of its eight symmetries (`az_symmetry.sparse_maps`), every batch anew. The start's
    own weights are a candidate too: where no epoch values the held-out games better, they are kept (the report's
    `kept` gives the losses of what was kept, its epoch None for the start)."""
    if target not in TARGETS:
        raise ValueError(f"target must be one of {', '.join(TARGETS)}, got {target!r}")
    win, margin = (data.win, data.margin) if target == "outcome" else (data.playout_win, data.playout_margin)
    if win is None:
        raise ValueError("the data holds no playout targets: play it with selfplay --playouts N to train on them")
    torch.manual_seed(seed)
    net = ValueNet(frame, squares=squares, dense=data.dense.shape[2], inputs=inputs).double()
    if start is not None:
        net.load(network.load_weights(start)[0])
    n = data.win.shape[0]
    games = np.unique(data.game)
    held = held_out_games(games, holdout)
    is_held = np.isin(data.game, held)
    order = np.concatenate([np.flatnonzero(~is_held), np.flatnonzero(is_held)])
    cut = int((~is_held).sum())
    tensors = [torch.from_numpy(data.indices.astype(np.int64)), torch.from_numpy(data.dense).double(),
               torch.from_numpy(data.glob).double(), torch.from_numpy(win).double(),
               torch.from_numpy(margin / network.MARGIN_UNIT).double()]
    train_idx, test_idx = torch.from_numpy(order[:cut]), torch.from_numpy(order[cut:])
    squares_rows = list(net.w1.parameters())
    others = [p for p in net.parameters() if all(p is not q for q in squares_rows)]
    optimiser = torch.optim.Adam([{"params": others}, {"params": squares_rows, "lr": lr * SQUARES_LR_SHARE}], lr=lr,
                                 weight_decay=1e-6)
    history = []
    best = (float("inf"), None)

    maps = torch.from_numpy(sparse_maps(frame, inputs.square_kinds)) if squares and symmetries else None

    def losses(idx: torch.Tensor, augment: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
        indices, dense, glob_, win, margin = (t[idx] for t in tensors)
        if augment and maps is not None:
            indices = maps[torch.randint(N_SYMMETRIES, indices.shape[:2])[..., None], indices]
        out = net(indices, dense, glob_)
        return (nn.functional.binary_cross_entropy_with_logits(out[..., 0], win),
                nn.functional.mse_loss(out[..., 1], margin))

    def held_out() -> dict[str, float]:
        net.eval()
        with torch.no_grad():
            win_loss, margin_loss = losses(test_idx)
        return {"holdout_win_bce": float(win_loss), "holdout_margin_mse": float(margin_loss)}

    def total(measured: dict[str, float]) -> float:
        return measured["holdout_win_bce"] + measured["holdout_margin_mse"]

    kept: dict = {}
    if start is not None:
        kept = {"epoch": None, **held_out()}
        best = (total(kept), {k: v.clone() for k, v in net.state_dict().items()})
    for epoch in range(epochs):
        net.train()
        perm = train_idx[torch.randperm(train_idx.shape[0])]
        for i in range(0, perm.shape[0], batch):
            win_loss, margin_loss = losses(perm[i:i + batch], augment=True)
            optimiser.zero_grad()
            (win_loss + margin_loss).backward()
            optimiser.step()
        history.append({"epoch": epoch, **held_out()})
        print(json.dumps(history[-1]), flush=True)
        if total(history[-1]) < best[0]:
            best = (total(history[-1]), {k: v.clone() for k, v in net.state_dict().items()})
            kept = history[-1]
    net.load_state_dict(best[1])
    return net, {"history": history, "kept": kept, "positions": int(n), "games": int(games.size),
                 "holdout_games": int(held.size), "squares": squares, "target": target,
                 "symmetries": maps is not None}


def loop(run_dir: Path, rules: Rules, iterations: int, games: int, simulations: int, window: int, epochs: int,
         first: Path | None = None, squares: bool = False, playouts: int = 0, variety: Variety = NO_VARIETY,
         workers: int = 1, ray: bool | str = False) -> None:
    """Iterations 0 .. iterations - 1 of a run: iteration K plays `games` self-play games with net_K (with `first`,
    or the heuristic, for K = 0) into data_K.npz, then trains net_K+1 on the last `window` data files (those the
    folder holds), starting from net_K. A run goes on after its newest network (whose metadata counts the self-play
    games before it), so a folder holding only that network resumes where the run stopped, playing its data window
    anew. Each network's metadata and log line give the CPU seconds of its iteration's self-play
    (`selfplay_cpu_seconds`; null where the data file was already there), whose sum is the run's self-play compute.
    `squares`: the networks read the board's squares too (a network trained from one without them starts with
    zero weights for them, so with its outputs); once a run's network reads them, the run's next ones do.
    `playouts` > 0: self-play also plays that many playouts from every position and the networks learn their mean
    outcome (`train`'s target "playouts"), trained on the window's files that hold it. `variety`: how self-play
    varies its games (see `Variety`); net_K's opponents in its past share of games are the newest `PAST_NETWORKS`
    networks before it that the folder holds (none in a resumed folder's first iteration, which plays as without).
    `workers`, `ray`: where self-play's jobs run (`play_jobs`); the same games wherever.
    """
    variety.check(simulations)
    run_dir.mkdir(parents=True, exist_ok=True)
    held = _networks(run_dir)
    done = held[-1][0] if held else 0
    if done >= iterations:
        print(f"{run_dir} holds net_{done}.npz, so --iterations {iterations} is already reached; give more "
              "--iterations to go on", flush=True)
        return
    played = _selfplay_games(run_dir / f"net_{done}.npz") if done else 0
    for k in range(done, iterations):
        net = run_dir / f"net_{k}.npz" if k > 0 else first
        data = run_dir / f"data_{k}.npz"
        cpu_seconds = None
        if not data.is_file():
            past = [path for j, path in _networks(run_dir) if j < k][-PAST_NETWORKS:]
            jobs = selfplay_jobs(rules, games, simulations, net, seed=k, playouts=playouts, variety=variety, past=past)
            played_data, cpu = play_jobs(jobs, workers, ray)
            played_data.save(data)
            cpu_seconds = round(cpu, 3)
        newest = Data.summary(data)
        window_files = [path for path in _window_files(run_dir, k, window)
                        if Data.summary(path)[:2] == (newest.dense_width, bool(playouts))]
        if not window_files:
            raise ValueError(f"{data} holds {'no ' if playouts else ''}playout targets, unlike the run's "
                             f"--playouts {playouts}: move it away to play that iteration again")
        inputs = inputs_of(rules)
        squares = squares or (net is not None and network.load_weights(net)[0].reads_squares)
        trained, report = train(Data.load(window_files, inputs), rules.frame, epochs, start=net, inputs=inputs,
                                squares=squares, target="playouts" if playouts else "outcome")
        played += newest.games
        meta = {"variant": variant_name(rules), "inputs": inputs.name, "frame": rules.frame,
                "players": rules.players, "iteration": k + 1,
                "selfplay_games": played, "selfplay_cpu_seconds": cpu_seconds, "playouts": playouts,
                **variety._asdict(),
                "data": [p.name for p in window_files], **report}
        network.save_weights(run_dir / f"net_{k + 1}.npz", trained.export(), meta)
        print(json.dumps({"iteration": k, "selfplay_games": played, "selfplay_cpu_seconds": cpu_seconds,
                          **report["kept"]}), flush=True)


def variant_name(rules: Rules) -> str:
    """The name in `VARIANTS` of `rules`."""
    return next(name for name, known in VARIANTS.items() if known == rules)


def _networks(run_dir: Path) -> list[tuple[int, Path]]:
    """(K, net_K.npz) of the networks a run folder holds, in order of K."""
    return sorted((int(match.group(1)), path) for path in run_dir.glob("net_*.npz")
                  if (match := re.fullmatch(r"net_(\d+)\.npz", path.name)))


def _window_files(run_dir: Path, k: int, window: int) -> list[Path]:
    """The data files of iteration K's window (data_K-window+1 .. data_K) that the run folder holds."""
    return [path for i in range(max(0, k - window + 1), k + 1) if (path := run_dir / f"data_{i}.npz").is_file()]


def _window_state(run_dir: Path, window: int) -> str:
    """How a run folder goes on: from which network, with how much of its data window already played."""
    newest = _networks(run_dir)[-1][0]
    held = len(_window_files(run_dir, newest, window))
    if not held:
        return f"net_{newest} goes on, its data window of {window} iterations played anew"
    return f"net_{newest} goes on with {held} of its data window's {window} iterations in the folder"


def _selfplay_games(path: Path) -> int:
    """The self-play games played before the network `path`, from its metadata; ValueError if it gives none."""
    games = network.load_weights(path)[1].get("selfplay_games")
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ValueError(f"{path}: its metadata must give selfplay_games, the self-play games before it, as a whole "
                         f"number, got {games!r}; a run goes on from a network that loop wrote")
    return games


def check_variant(path: Path, variant: str, strict: bool = True) -> dict:
    """The metadata of the network `path`; ValueError unless it plays `variant`: its frame and player count, and
    (`strict`, for a network a run goes on from) its variant where its metadata names one. A network of other bonus
    rules on the same board may start a new run (`--first`)."""
    meta = network.load_weights(path)[1]
    rules = VARIANTS[variant]
    named = meta.get("variant")
    trained_for = (meta.get("inputs", KINGDOMINO.name), meta["frame"], meta["players"])
    if trained_for != (inputs_of(rules).name, rules.frame, rules.players) or (strict and named not in (None, variant)):
        plays = named if named in VARIANTS else f"{meta['players']} players on a {meta['frame']}x{meta['frame']} frame"
        raise ValueError(f"{path} is a network of {plays}, not of the variant {variant}: give the --variant it "
                         "plays, or a network of this variant")
    return meta


def resume(run_dir: Path, source: Path, variant: str) -> int:
    """Start the run folder `run_dir` from the network `source` (a kept network, or a net_K.npz a loop wrote): copy
    it in as net_K.npz, K its iteration; K. A folder that already holds that very file goes on as it is; a folder
    holding another run is left alone (ValueError), as is a network of another variant or without the loop's
    counters."""
    meta = check_variant(source, variant)
    iteration = meta.get("iteration")
    if isinstance(iteration, bool) or not isinstance(iteration, int) or iteration < 1:
        raise ValueError(f"{source} gives no iteration in its metadata (got {iteration!r}), so no run goes on from "
                         "it; start a new run from it with --first")
    _selfplay_games(source)
    target = run_dir / f"net_{iteration}.npz"
    held = _networks(run_dir) if run_dir.is_dir() else []
    if target.is_file() and target.read_bytes() == source.read_bytes():
        return iteration
    if held:
        raise ValueError(f"{run_dir} already holds a run (its newest network is {held[-1][1].name}); go on with it "
                         "without --resume, or resume into another --run-dir")
    run_dir.mkdir(parents=True, exist_ok=True)
    write_atomic(target, lambda tmp: shutil.copyfile(source, tmp), suffix=".npz")
    return iteration


def read_run_file(run_dir: Path) -> dict:
    """The variant and settings a run folder's run.json records ({} where it has none); ValueError naming the file
    and what is wrong where it is damaged."""
    path = run_dir / RUN_FILE
    if not path.exists():
        return {}
    text = read_regular_file(path, "a csearch run's settings", 1 << 20)
    try:
        data = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"{path} is damaged: not JSON ({err}); repair it, or move it away to give the settings by "
                         "flags again") from None
    if not isinstance(data, dict) or data.get("format") != RUN_FORMAT:
        raise ValueError(f"{path} is damaged: not a csearch run's settings (format {RUN_FORMAT!r}); repair it, or "
                         "move it away to give the settings by flags again")
    if data.get("variant") not in VARIANTS:
        raise ValueError(f"{path} is damaged: its variant must be one of {', '.join(VARIANTS)}, got "
                         f"{data.get('variant')!r}")
    for name in LOOP_SETTINGS:
        value = data.get(name)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_COUNTS[name]:
            raise ValueError(f"{path} is damaged: {name} must be a whole number from 1 to {MAX_COUNTS[name]}, got "
                             f"{value!r}")
    for key, setting in OPTIONAL_SETTINGS.items():
        if wrong := optional_setting_error(key, data.get(key, setting.default)):
            raise ValueError(f"{path} is damaged: {wrong}")
    return data


def run_checkpoints(run_dir: Path) -> list[tuple[int, Path, int]]:
    """(K, net_K.npz, self-play games played before it) of a run folder's networks, in order of K: the count its
    metadata gives (`loop` writes it, so a resumed folder holding only its newest networks has them), else the games
    of data_0 .. data_K-1 where the folder holds them all."""
    out = []
    for k, path in _networks(run_dir):
        games = network.load_weights(path)[1].get("selfplay_games")
        data = [run_dir / f"data_{i}.npz" for i in range(k)]
        if games is None and all(p.is_file() for p in data):
            games = sum(Data.summary(p).games for p in data)
        if games is not None:
            out.append((k, path, games))
    return out


def ladder(run_dir: Path, rules: Rules, simulations: int, anchors: list[str], games: int, every: int = 1,
           seed: int = 0, playout_mix: float | None = None) -> dict:
    """Rate every `every`-th network of a run (and the newest) against the anchors; see `training.az_ladder`.
    `playout_mix`: the networks value their leaves with this share of a playout (0: the network alone, as in
    self-play) rather than their own; they play as copies carrying it, in RUN/ladder_networks_mix_X/."""
    found = run_checkpoints(run_dir)
    if not found:
        raise ValueError(f"no networks (net_K.npz written by loop, or with data_0 .. data_K-1) in {run_dir}")
    chosen = found[::every] + ([found[-1]] if (len(found) - 1) % every else [])
    if playout_mix is not None:
        folder = run_dir / f"ladder_networks_mix_{playout_mix:g}"
        if folder.exists() and not folder.is_dir():
            raise ValueError(f"{folder} is a file, not a folder: the ladder keeps its copies of the networks there; "
                             "move it away")
        chosen = [(k, _with_playout_mix(path, folder, playout_mix), played) for k, path, played in chosen]
    entries = with_anchors([checkpoint_entry(k, f"csearch:p{simulations}:{path}", played)
                            for k, path, played in chosen], anchors)
    mix = {} if playout_mix is None else {"playout_mix": playout_mix}
    return play_ladder(run_dir, rules, entries, games, workers=1, seed=seed,
                       title=f"{run_dir.name}: csearch:p{simulations} ladder", simulations=simulations, **mix)


def _with_playout_mix(path: Path, folder: Path, playout_mix: float) -> Path:
    """A copy of the network `path` in `folder` whose metadata gives `playout_mix` (written once)."""
    target = folder / path.name
    if not target.is_file():
        weights, meta = network.load_weights(path)
        folder.mkdir(exist_ok=True)
        write_atomic(target, lambda tmp: network.save_weights(tmp, weights, {**meta, "playout_mix": playout_mix}),
                     suffix=".npz")
    return target


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m training.csearch_net` (subcommands selfplay, train, loop, ladder)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True, help="what to do")
    variant = {"choices": list(VARIANTS), "default": "duel", "help": "the variant (default: %(default)s)"}

    def command(name: str, text: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".")

    play = command("selfplay", "play self-play games and write their positions")
    play.add_argument("--variant", **variant)
    play.add_argument("--games", type=int, default=100, help="games to play (default: %(default)s)")
    play.add_argument("--simulations", type=int, default=200, help="simulations a decision (default: %(default)s)")
    play.add_argument("--weights", type=Path, default=None, help="value network file (default: the heuristic)")
    play.add_argument("--seed", type=int, default=0, help="seed of the deals and the search (default: %(default)s)")
    play.add_argument("--out", type=Path, required=True, help="the data file to write (.npz)")
    add_optional_settings(play, in_run=False)
    play.add_argument("--past", type=Path, nargs="+", default=[], metavar="NETWORK",
                      help="the earlier networks --past-share draws from (default: none)")
    add_worker_arguments(play)
    fit = command("train", "train a value network on self-play positions")
    fit.add_argument("--variant", **variant)
    fit.add_argument("--data", nargs="+", required=True, help="data files (glob patterns allowed)")
    fit.add_argument("--epochs", type=int, default=20, help="passes over the data (default: %(default)s)")
    fit.add_argument("--start", type=Path, default=None, help="weights to start from (default: fresh weights)")
    fit.add_argument("--out", type=Path, required=True, help="the network file to write (.npz)")
    fit.add_argument("--target", choices=TARGETS, default="outcome",
                     help="what the network learns to predict: each game's outcome, or the mean outcome of the "
                          "playouts from each position (data of selfplay --playouts) (default: %(default)s)")
    fit.add_argument("--squares", action="store_true",
                     help="read each kingdom's squares as well as its dense features (a sparse first layer; "
                          "default: the dense features only)")
    fit.add_argument("--playout-mix", type=float, default=None,
                     help="the share of a playout in leaf values the network is to be played with, written in its "
                          "file (0 to 1; default: the search's)")
    run = command("loop", "self-play and training in turn, in a run folder (resumes)")
    folder = "the run folder (made if missing; default: csearch_NAME in the runs folder, NAME the kept network " \
             "--resume names, else the variant)"
    run.add_argument("run_dir", type=Path, nargs="?", default=None, help=folder)
    run.add_argument("--run-dir", type=Path, default=None, dest="run_dir_option", metavar="RUN_DIR",
                     help="the same as RUN_DIR; " + folder)
    run.add_argument("--variant", choices=list(VARIANTS), default=None,
                     help="the variant (default: the run folder's, else the resumed network's, else duel)")
    run.add_argument("--resume", default=None, metavar="NAME|PATH",
                     help="start an empty run folder from a kept network (training/kept/csearch_NAME.npz: "
                          f"{', '.join(kept_names()) or 'none'}) or a net_K.npz a loop wrote, with its counters, "
                          "variant and settings; its data window is played anew (default: none)")
    run.add_argument("--iterations", type=int, default=20, help="iterations in all (default: %(default)s)")
    for name, text in (("games", "self-play games per iteration"), ("simulations", "simulations a decision"),
                       ("window", "iterations of data each network is trained on"),
                       ("epochs", "passes over the data a network")):
        run.add_argument(f"--{name}", type=int, default=None,
                         help=f"{text} (default: the run folder's, else the kept network's, else "
                              f"{LOOP_DEFAULTS[name]})")
    add_optional_settings(run, in_run=True)
    run.add_argument("--squares", action="store_true",
                     help="train networks that read each kingdom's squares as well as its dense features (from the "
                          "next network on; a run whose networks read them goes on reading them)")
    run.add_argument("--first", type=Path, default=None,
                     help="network that plays iteration 0 (default: the heuristic), e.g. a shipped one to go on from")
    add_worker_arguments(run)
    rate = command("ladder", "rate a run's networks against fixed anchors")
    rate.add_argument("run_dir", type=Path, nargs="?", default=None,
                      help="the run folder (default: csearch_VARIANT in the runs folder)")
    rate.add_argument("--run-dir", type=Path, default=None, dest="run_dir_option", metavar="RUN_DIR",
                      help="the same as RUN_DIR (default: csearch_VARIANT in the runs folder)")
    rate.add_argument("--variant", choices=list(VARIANTS), default=None,
                      help="the variant (default: the run folder's, else duel)")
    rate.add_argument("--simulations", type=int, default=200,
                      help="simulations a move of the networks (default: %(default)s)")
    rate.add_argument("--anchors", default=None,
                      help="comma-separated anchor specs or NAME=SPEC (default: "
                           + "; ".join(f"{game}'s {anchors}" for game, anchors in ANCHORS.items()) + ")")
    rate.add_argument("--games", type=int, default=20,
                      help="games per table, rounded up to whole deals (default: %(default)s)")
    rate.add_argument("--playout-mix", type=float, default=None,
                      help="the share of a playout in the networks' leaf values, from 0 (the network alone, as in "
                           "self-play) to 1 (default: each network's own)")
    rate.add_argument("--every", type=int, default=1,
                      help="take every K-th network and the newest (default: %(default)s)")
    store = command("keep", "keep a run's newest network in training/kept, ready to resume, and list it in the "
                            "model manifest")
    store.add_argument("name", help="the kept network's name: training/kept/csearch_NAME.npz")
    store.add_argument("run_dir", type=Path, nargs="?", default=None,
                       help="the run folder (default: csearch_NAME in the runs folder)")
    store.add_argument("--run-dir", type=Path, default=None, dest="run_dir_option", metavar="RUN_DIR",
                       help="the same as RUN_DIR (default: csearch_NAME in the runs folder)")
    store.add_argument("--about", default="",
                       help="what the network is, for its metadata (default: its variant, counters and settings)")
    return parser


def add_worker_arguments(parser: argparse.ArgumentParser) -> None:
    """--workers and --ray: where self-play's jobs run (`play_jobs`), which changes no game."""
    parser.add_argument("--workers", type=int, default=1,
                        help=f"self-play processes on this machine, sharing jobs of {JOB_GAMES} games; any number "
                             "plays the same games (default: %(default)s)")
    parser.add_argument("--ray", nargs="?", const=True, default=False, metavar="ADDRESS",
                        help="self-play jobs as Ray tasks (the scale extra), one CPU each: on the cluster at ADDRESS "
                             "(ray://HOST:10001 or HOST:6379), else RAY_ADDRESS's, else Ray on this machine "
                             "(default: off)")


def add_optional_settings(parser: argparse.ArgumentParser, in_run: bool) -> None:
    """A flag for each of `OPTIONAL_SETTINGS`, defaulting to the setting's default, or (`in_run`, for `loop`) to
    None, so that the run folder's or the kept network's value applies."""
    for key, setting in OPTIONAL_SETTINGS.items():
        default = f"the run folder's, else the kept network's, else {setting.default}" if in_run else setting.default
        parser.add_argument("--" + key.replace("_", "-"), type=type(setting.default),
                            default=None if in_run else setting.default, help=f"{setting.about} (default: {default})")


def check_counts_and_out(parser: argparse.ArgumentParser, args: argparse.Namespace, counts: dict[str, int]) -> None:
    """Exit through `parser.error` unless each count option given (`counts`: name -> largest value) is from 1 to its
    largest value, `--seed` is not negative and `--out`, where given, is a file in an existing folder."""
    for name, most in counts.items():
        value = getattr(args, name, None)
        if value is not None and not 1 <= value <= most:
            parser.error(f"--{name} must be from 1 to {most}, got {value}")
    seed = getattr(args, "seed", None)
    if seed is not None and not 0 <= seed < 2**63:
        parser.error(f"--seed must be from 0 to 2**63 - 1, got {seed}")
    out = getattr(args, "out", None)
    if out is not None and (out.is_dir() or not out.parent.is_dir()):
        parser.error(f"--out must be a file in an existing folder, got {out}")


def main(argv: list[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    check_counts_and_out(parser, args, MAX_COUNTS)
    for key in OPTIONAL_SETTINGS:
        value = getattr(args, key, None)
        if value is not None and (wrong := optional_setting_error(key, value, "--" + key.replace("_", "-"))):
            parser.error(wrong)
    if getattr(args, "ray", False) is not False and getattr(args, "workers", 1) > 1:
        parser.error("give --workers (processes on this machine) or --ray (tasks on Ray, one CPU each), not both")
    mix = getattr(args, "playout_mix", None)
    if mix is not None and not 0.0 <= mix <= 1.0:
        parser.error(f"--playout-mix must be from 0 to 1, got {mix}")
    try:
        _run(args)
    except ValueError as err:
        parser.error(str(err))
    except KeyboardInterrupt:
        sys.exit(130)


def _run_dir(args: argparse.Namespace, name: str) -> Path:
    """The run folder the command line names (RUN_DIR or --run-dir; both only if alike), else the default one of
    `name`; checked (ValueError if a file is in the way)."""
    given = {path for path in (args.run_dir, args.run_dir_option) if path is not None}
    if len(given) > 1:
        raise ValueError(f"RUN_DIR {args.run_dir} and --run-dir {args.run_dir_option} differ: give one")
    return check_run_dir(given.pop() if given else default_run_dir(f"csearch_{name.replace('-', '_')}"))


def _loop(args: argparse.Namespace) -> None:
    """`loop`: resolve the run folder, the variant and the settings (flags, then the folder's run.json, then the
    kept network's, then the defaults), start from --resume where given, record run.json and run."""
    source, kept_settings, kept_variant, name = None, {}, None, None
    if args.resume is not None:
        if args.first is not None:
            raise ValueError("give --first (a network for a new run's iteration 0) or --resume, not both")
        if args.resume.endswith(".npz") or "/" in args.resume:
            source = Path(args.resume)
            kept_variant = network.load_weights(source)[1].get("variant")
        else:
            kept = kept_network(args.resume)
            source, kept_settings, kept_variant, name = kept.network, kept.settings, kept.variant, kept.name
    run_dir = _run_dir(args, name or args.variant or kept_variant or LOOP_DEFAULTS["variant"])
    recorded = read_run_file(run_dir) if run_dir.is_dir() else {}
    variant = args.variant or recorded.get("variant") or kept_variant or LOOP_DEFAULTS["variant"]
    if recorded and recorded["variant"] != variant:
        raise ValueError(f"{run_dir / RUN_FILE} gives the variant {recorded['variant']}, not {variant}: a run folder "
                         "plays one variant")
    if kept_variant is not None and kept_variant != variant:
        raise ValueError(f"{source} is a network of {kept_variant}, not of the variant {variant}")
    settings = {key: next(v for v in (getattr(args, key), recorded.get(key), kept_settings.get(key),
                                      LOOP_DEFAULTS[key]) if v is not None)
                for key in (*LOOP_SETTINGS, *OPTIONAL_SETTINGS)}
    if args.first is not None:
        check_variant(args.first, variant, strict=False)
    if source is not None:
        iteration = resume(run_dir, source, variant)
        print(f"resuming from {source} in {run_dir}: iteration {iteration}, "
              f"{_selfplay_games(run_dir / f'net_{iteration}.npz')} self-play games so far; "
              f"{_window_state(run_dir, settings['window'])}", flush=True)
    for _, path in _networks(run_dir)[-1:]:
        check_variant(path, variant)
    variety = Variety(*(settings[key] for key in Variety._fields))
    variety.check(settings["simulations"])
    run_dir.mkdir(parents=True, exist_ok=True)
    record = {"format": RUN_FORMAT, "variant": variant, **settings,
              "resumed_from": str(source) if source is not None else recorded.get("resumed_from")}
    write_text_atomic(run_dir / RUN_FILE, json.dumps(record, indent=2) + "\n")
    loop(run_dir, VARIANTS[variant], args.iterations, settings["games"], settings["simulations"], settings["window"],
         settings["epochs"], args.first, args.squares, settings["playouts"], variety, args.workers, args.ray)


def _keep(args: argparse.Namespace) -> None:
    """`keep`: the run folder's newest network, with the variant and settings its run.json records, kept."""
    run_dir = _run_dir(args, args.name)
    held = _networks(run_dir) if run_dir.is_dir() else []
    if not held:
        raise ValueError(f"no networks (net_K.npz written by loop) in {run_dir}: give the folder of the run to keep")
    recorded = read_run_file(run_dir)
    if not recorded:
        raise ValueError(f"{run_dir} has no {RUN_FILE}, so its variant and settings are unknown: a folder that loop "
                         "ran in has one")
    variant = recorded["variant"]
    check_variant(held[-1][1], variant)
    kept = keep_network(args.name, held[-1][1], variant, VARIANTS[variant], recorded, args.about)
    print(f"kept net_{kept.iteration} of {run_dir} ({kept.selfplay_games} self-play games) as {kept.network}; "
          f"resume it with: python -m training.csearch_net loop --resume {kept.name} --iterations N")


def _run(args: argparse.Namespace) -> None:
    torch.set_num_threads(1)
    if args.command == "loop":
        _loop(args)
        return
    if args.command == "keep":
        _keep(args)
        return
    if args.command == "ladder":
        run_dir = _run_dir(args, args.variant or LOOP_DEFAULTS["variant"])
        if not run_dir.is_dir():
            raise ValueError(f"no run folder {run_dir}")
        variant = args.variant or read_run_file(run_dir).get("variant") or LOOP_DEFAULTS["variant"]
        rules = VARIANTS[variant]
        anchors = args.anchors if args.anchors is not None else ANCHORS[inputs_of(rules).name]
        out = ladder(run_dir, rules, args.simulations, [a for a in anchors.split(",") if a], args.games, args.every,
                     playout_mix=args.playout_mix)
        print_ladder(out, run_dir)
        return
    rules = VARIANTS[args.variant]
    if args.command == "selfplay":
        for path in args.past:
            check_variant(path, args.variant, strict=False)
        began = time.perf_counter()
        jobs = selfplay_jobs(rules, args.games, args.simulations, args.weights, args.seed, args.playouts,
                             variety=Variety(args.fast_share, args.fast_simulations, args.past_share), past=args.past)
        try:
            data, _ = play_jobs(jobs, args.workers, args.ray, progress=True)
        except SelfplayInterrupted as stop:
            stop.data.save(args.out)
            print(f"interrupted: kept {stop.games} finished game(s), {stop.data.win.shape[0]} positions -> {args.out}",
                  flush=True)
            raise KeyboardInterrupt from None
        data.save(args.out)
        print(f"{args.games} games, {data.win.shape[0]} positions in {time.perf_counter() - began:.0f} s -> {args.out}")
        return
    paths = sorted(Path(p) for pattern in args.data for p in glob.glob(str(pattern)))
    if not paths:
        raise ValueError(f"no data files match {' '.join(args.data)}")
    inputs = inputs_of(rules)
    net, report = train(Data.load(paths, inputs), rules.frame, args.epochs, args.start, inputs=inputs,
                        squares=args.squares, target=args.target)
    mix = {} if args.playout_mix is None else {"playout_mix": args.playout_mix}
    meta = {"variant": args.variant, "inputs": inputs.name, "frame": rules.frame, "players": rules.players,
            "data": [p.name for p in paths], **report, **mix}
    network.save_weights(args.out, net.export(), meta)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
