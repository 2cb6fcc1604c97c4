"""`KingdominoVectorEnv`: B games at once on the batched core, as a Gymnasium vector env for training.

Two modes.

**Learner against opponents** (default). Each game has one learning seat; the other seats are played by opponent
policies that act on batches (`opponents.Opponents`: "random", "greedy", "gprd", any `policies.Policy` such as a
frozen trained policy, or a mix per game). The env has `num_envs = num_games` sub-environments, one per game.
`step(actions)` applies the learners' actions, then plays the opponents of all games (one batched call per policy
per turn) until every learner is to move again or its game is over. So every observation is a decision of the
learner: observed from the learner's seat (`core.observe` with the learner as viewer), with `action_masks()` its
legal actions. The learner seat is `learner_seat`: a seat index, one per game, or "random" (default: drawn anew
for every episode, from the env's seed).

**Self-play** (`self_play=True`). Every seat learns, with one shared policy. The env has `num_envs = P * num_games`
slots; slot `s = seat * num_games + game` always sees game `s % num_games` from seat `s // num_games`: reshape a
batch with `.reshape(P, num_games, ...)`. Every step takes one action per slot; in each game only the slot whose
seat is to move acts. Every other slot is *waiting*: its mask allows only the pass action (`pass_action`, the id of
`rules.discard_action`), which must be sent and is ignored. In Queendomino too the waiting slots' pass is the
discard id, not the game's PASS (`rules.pass_action`, a real move that ends an optional step of the player to
move). All slots observe every step, from their own seat.
When a game ends, each of its P slots is terminated on that step with its own seat's reward. `info["to_move"]`
marks the slots whose seat is to move in the observation just returned.

Why self-play is correct this way. From one slot's point of view, the other seats (the same policy) are part of
the environment: the slot's stream is a trajectory of a partially observed MDP whose transitions include the other
seats' moves, and its reward is its own seat's outcome. Rewards are credited to the seat that earns them, and a
value bootstrap never crosses to another seat's point of view. The common shortcut of one stream for all seats
(the next observation is the next player's) would, in a zero-sum game, bootstrap an action's value from the value
*for the opponent* (its negation), and Kingdomino lets a player move several times in a row (place then pick, and
two kings in 2-player games), so the sign would flip irregularly. Here no sign flipping or turn bookkeeping is
needed. Waiting steps are harmless: with a single legal action the masked policy's probability is 1 whatever its
parameters, so they add nothing to the policy gradient or the entropy; they train the value function on real
states of the game and carry the final reward back to the seat's last decision through the returns (GAE).
Discounting does not favour any line of play: every game lasts exactly `rules.max_actions` steps, so the discount
to the end depends on the step number only. With the zero-sum "outcome" reward (or "margin" in 2-player games)
each seat maximizing its own reward against the shared policy is the usual self-play objective, whose fixed points
are symmetric equilibria; as in any self-play, the opponents change as the policy learns. The price: (P - 1) / P
of the rollout rows are waiting rows, so a rollout of P times the length holds the same number of decisions (the
policy loss, averaged over all rows, is scaled down by the same factor). Custom training loops
that keep only real decisions (`info["to_move"]` of the previous step) must add the rewards of the dropped
waiting steps to the seat's last kept step: a game's reward arrives on the step it ends, a waiting step for every
seat but the last mover.

**Teams** (the Royal Wedding with `teams=True`, 6 or 8 players). The learner is a team: both seats of the learner's
team are played by the learning policy, through one slot per game. That slot acts whenever either seat of the team
is to move and observes the game from that seat (`info["learner_seat"]` says which; the observation is
egocentric, the team's kingdom first, the teammate's king marked as the teammate's); opponents play the P - 2 other
seats (a tuple lists P - 2 of them, for the seats after the learner's team). `learner_seat` (a seat, or "random")
picks the team. Both seats share one kingdom and one reward, so a value estimate from either seat's view is the
team's value: one stream for both seats bootstraps no other point of view, needs no waiting steps, and trains the
policy to play with a copy of itself as teammate, as a tournament seats an entrant (both seats of a team). We
chose this over one learner seat beside a scripted teammate, which would give the policy a teammate it never
meets in evaluation and half the decisions per game. In self-play every seat has its slot as usual, each rewarded
with its team's result.

**Auto-reset**: `metadata["autoreset_mode"]` is `AutoresetMode.SAME_STEP`. A step that ends a game returns
`terminated=True` for its slot(s) with the reward, and the first observation of the next game; the last
observation of the ended game is in `info["final_obs"]` (an object array, `info["_final_obs"]` marks the slots
that have one) and its result in `info["final_info"]` ("score", "rank" and "learner_seat" arrays, with masks
"_score", ...). Games never truncate.

**Seeding**: game b is dealt by its own generator, like an AEC env: `reset(seed=s)` makes it `default_rng(s + b)`
(or `default_rng(seeds[b])` for a list of seeds), and every later game of b continues that generator, exactly as
an AEC env's unseeded `reset()` does after `reset(seed=s + b)`. Learner seats and the opponents made from spec
strings are seeded from the same seed (policy objects passed in are not: seed them yourself). `reset()` without a
seed continues all generators. Dealing a game with its own generator (`core.deal_games`) is the env's one Python loop
over games, and runs only for the games that just ended (1 in 24 per step in 2-player games).

Illegal actions raise ValueError (the env is for training with masks; nothing is applied). Rewards come from
`core.rewards(state, reward)` at the end of a game, 0 on every other step.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .. import core
from ..rules import Rules, is_integer, short_repr
from .aec import observation_space
from .opponents import Opponents

__all__ = ["KingdominoVectorEnv", "make_vector_env"]


def _seed_list(seed: Any, n: int) -> list[int] | None:
    """The n per-game seeds that `seed` stands for (None for None); ValueError for anything else."""
    if seed is None:
        return None
    if is_integer(seed) and seed >= 0:
        return [int(seed) + b for b in range(n)]
    if (isinstance(seed, Sequence) and not isinstance(seed, str) or isinstance(seed, np.ndarray) and seed.ndim == 1) \
            and len(seed) == n and all(is_integer(s) and s >= 0 for s in seed):
        return [int(s) for s in seed]
    raise ValueError(f"seed must be None, an int >= 0 (game b gets seed + b) or a list of {n} ints >= 0 (one per "
                     f"game), got {short_repr(seed)}")


def learner_seats(learner_seat: Any, rules: Rules, num_games: int) -> np.ndarray | None:
    """Parse a `learner_seat` option: None for "random" (drawn per episode), else (num_games,) fixed seats."""
    if learner_seat is None or (isinstance(learner_seat, str) and learner_seat == "random"):
        return None
    allowed = f'"random", a seat in 0..{rules.players - 1}, or a list of {num_games} seats (one per game)'
    if isinstance(learner_seat, str | bool | float):
        raise ValueError(f"learner_seat must be {allowed}, got {learner_seat!r}")
    seats = np.asarray(learner_seat)
    if seats.ndim == 0:
        seats = np.full(num_games, seats)
    if seats.shape != (num_games,) or not np.issubdtype(seats.dtype, np.integer) or (seats < 0).any() or (
            seats >= rules.players).any():
        raise ValueError(f"learner_seat must be {allowed}, got {learner_seat!r}")
    return seats.astype(np.int64)


def check_no_options(options: Any) -> None:
    """ValueError unless `options` is None or empty: the Gymnasium envs' resets take no options."""
    if options is None or (isinstance(options, dict) and not options):
        return
    shown = sorted(map(short_repr, options)) if isinstance(options, dict) else short_repr(options)
    raise ValueError(f"reset takes no options, got {shown}")


def check_reward_mode(reward: Any) -> str:
    if reward not in core.REWARD_MODES:
        raise ValueError(f"unknown reward {reward!r}; allowed: {', '.join(core.REWARD_MODES)}")
    return reward


class KingdominoVectorEnv(VectorEnv):
    """`num_games` games as a Gymnasium vector env (see the module docstring for the two modes).

    Every game is dealt as the AEC env deals it (`core.deal_games`: each game as `core.deal_game` deals it);
    random quests are drawn by each game's own generator, after its deck.

    Args:
        num_games: How many games run at once (B).
        rules: A whole variant, or None to build one from `options`.
        reward: `"outcome"`, `"score"` or `"margin"` (see `core.rewards`).
        opponents: Who plays the other seats: a spec (`"random"`, the default; `"greedy"`, `"gprd"`), a policy, a
            tuple with one per seat, or a list with one per game.
        learner_seat: The learning seat: `"random"` (drawn per episode, the default), a seat, or a list of seats
            (one per game).
        self_play: Every seat learns with one shared policy; leave `opponents` and `learner_seat` unset.
        **options: The `Rules` options as keywords, as the AEC env takes them (`game`, `players`, `mighty_duel`,
            ..., `buildings`, `teams`: the Royal Wedding in teams of two, learned as a team, see the module
            docstring).

    Raises:
        ValueError: A bad option, naming what is allowed.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_games: int = 64, *, rules: Rules | None = None, reward: str = "outcome",
                 opponents: Any = None, learner_seat: Any = None, self_play: bool = False, **options: Any):
        if not isinstance(num_games, int | np.integer) or isinstance(num_games, bool) or num_games < 1:
            raise ValueError(f"num_games must be an int >= 1, got {num_games!r}")
        if not isinstance(self_play, bool):
            raise ValueError(f"self_play must be True or False, got {self_play!r}")
        self.rules = Rules.make(rules, **options)
        self.reward_mode = check_reward_mode(reward)
        self.num_games = int(num_games)
        self.self_play = self_play
        if self_play and (opponents is not None or learner_seat is not None):
            raise ValueError("self_play=True makes every seat a learning seat: leave opponents and learner_seat "
                             "unset (got " + ", ".join(f"{k}={v!r}" for k, v in
                                                       (("opponents", opponents), ("learner_seat", learner_seat))
                                                       if v is not None) + ")")
        self.opponents = None if self_play else Opponents(
            self.rules, self.num_games, "random" if opponents is None else opponents)
        self._fixed_seats = None if self_play else learner_seats(learner_seat, self.rules, self.num_games)
        #: The pass action of waiting slots in self-play: the discard action's id, in both games. It is not
        #: Queendomino's PASS (`rules.pass_action`, a real move ending an optional step).
        self.pass_action = self.rules.discard_action
        players = self.rules.players
        self.num_envs = self.num_games * players if self_play else self.num_games
        self.single_observation_space = observation_space(self.rules)
        self.single_action_space = spaces.Discrete(self.rules.n_actions)
        #: Actions taken in all games since creation, learners' and opponents' (the games' agent-steps).
        self.agent_steps = 0
        self.state: core.State | None = None
        self.seat = (np.repeat(np.arange(players), self.num_games) if self_play
                     else np.zeros(self.num_games, dtype=np.int64))
        self._games = np.arange(self.num_games)
        self._deal_rngs: list[np.random.Generator] | None = None
        self._aux = np.random.default_rng()
        self._table = np.zeros((self.num_games, players), dtype=np.int64)
        self._mask = np.zeros((self.num_envs, self.rules.n_actions), dtype=np.bool_)
        self._mover = np.zeros(self.num_games, dtype=np.int64)

    # The batched spaces are built when first used: the observation Box alone holds ~16 KB per game.
    @cached_property
    def observation_space(self) -> spaces.Box:  # type: ignore[override]
        return batch_space(self.single_observation_space, self.num_envs)

    @cached_property
    def action_space(self) -> spaces.MultiDiscrete:  # type: ignore[override]
        return batch_space(self.single_action_space, self.num_envs)

    # Seeding and dealing.
    def _seed(self, seed: Any) -> None:
        seeds = _seed_list(seed, self.num_games)
        n_owned = 0 if self.opponents is None else len(self.opponents.owned)
        if seeds is None:
            if self._deal_rngs is not None:
                return
            root = np.random.SeedSequence()
            self._deal_rngs = [np.random.default_rng(s) for s in root.spawn(self.num_games)]
            children = root.spawn(1 + n_owned)
        else:
            self._deal_rngs = [np.random.default_rng(s) for s in seeds]
            children = np.random.SeedSequence(seeds).spawn(1 + n_owned)
        self._aux = np.random.default_rng(children[0])
        if self.opponents is not None:
            self.opponents.seed(children[1:])

    def _deal(self, games: np.ndarray) -> core.State:
        """New games for `games`, each dealt by that game's own generator (as an AEC env's reset does)."""
        return core.deal_games(self.rules, [self._deal_rngs[b] for b in games.tolist()])

    def _start(self, games: np.ndarray) -> None:
        """Learner seats and opponents for new games, then the opponents' moves up to the learners' turns."""
        if self.self_play:
            return
        seats = (self._aux.integers(self.rules.players, size=games.size) if self._fixed_seats is None
                 else self._fixed_seats[games])
        self.seat[games] = seats
        self._table[games] = self.opponents.table(seats, games)
        self.agent_steps += self.opponents.advance(self.state, self._table)
        self._follow_mover()

    def _follow_mover(self) -> None:
        """Team games: each game's learner slot observes from the seat of its team that is to move."""
        if self.rules.shared_kingdoms and not self.self_play:
            mover = self.state.current_player
            live = mover >= 0
            self.seat[live] = mover[live]

    # The Gymnasium API.
    def reset(self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """New games in every slot.

        Args:
            seed: One seed for the env, or one per game (see the module docstring for seeding); None continues
                the env's generators.
            options: None: no options are supported.

        Returns:
            The observations and the info dict.
        """
        check_no_options(options)
        self._seed(seed)
        self.state = self._deal(self._games)
        self._start(self._games)
        self._update_masks()
        return self._observe(), self._info()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play one action per slot, then the opponents until every learner is to move again.

        Args:
            actions: One legal action per slot (the pass action for waiting self-play slots).

        Returns:
            `(observations, rewards, terminated, truncated, info)`; see the module docstring.

        Raises:
            RuntimeError: `reset` has not been called.
            ValueError: An action is not legal, or not one per slot.
        """
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        actions = self._check_actions(actions)
        moves = actions.reshape(self.rules.players, self.num_games)[self._mover, self._games] if self.self_play \
            else actions
        core.step(self.state, moves)
        self.agent_steps += self.num_games
        if not self.self_play:
            self.agent_steps += self.opponents.advance(self.state, self._table)
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        terminated = np.zeros(self.num_envs, dtype=np.bool_)
        infos: dict[str, Any] = {}
        ended = np.flatnonzero(self.state.is_over)
        if ended.size:
            final = self.state.take(ended)
            slots, rows, seats = self._slots_of(ended)
            rewards[slots] = core.rewards(final, self.reward_mode)[rows, seats]
            terminated[slots] = True
            infos = self._final_infos(final, slots, rows, seats)
            self.state.put(ended, self._deal(ended))
            self._start(ended)
        self._follow_mover()
        self._update_masks()
        infos.update(self._info())
        return self._observe(), rewards, terminated, np.zeros(self.num_envs, dtype=np.bool_), infos

    def action_masks(self) -> np.ndarray:
        """(num_envs, n_actions) bool: the legal actions of each slot now (a copy)."""
        return self._mask.copy()

    # Helpers.
    def _slots_of(self, games: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The slots of `games` (one per game, or P per game, seat-major, in self-play), and for each slot its
        game's position in `games` and the seat it sees."""
        if not self.self_play:
            return games, np.arange(games.size), self.seat[games]
        players = self.rules.players
        seats = np.repeat(np.arange(players), games.size)
        return seats * self.num_games + np.tile(games, players), np.tile(np.arange(games.size), players), seats

    def _final_infos(self, final: core.State, slots: np.ndarray, rows: np.ndarray, seats: np.ndarray
                     ) -> dict[str, Any]:
        observations = core.observe(final.take(rows), viewer=seats)
        final_obs = np.full(self.num_envs, None, dtype=object)
        for i, slot in enumerate(slots.tolist()):
            final_obs[slot] = observations[i]
        has = np.zeros(self.num_envs, dtype=np.bool_)
        has[slots] = True
        score = np.zeros(self.num_envs, dtype=np.int64)
        rank = np.zeros(self.num_envs, dtype=np.int64)
        seat = np.zeros(self.num_envs, dtype=np.int64)
        score[slots] = core.seat_scores(final)[rows, seats]
        rank[slots] = core.ranks(final)[rows, seats]
        seat[slots] = seats
        final_info = {"score": score, "_score": has, "rank": rank, "_rank": has.copy(),
                      "learner_seat": seat, "_learner_seat": has.copy()}
        return {"final_obs": final_obs, "_final_obs": has.copy(), "final_info": final_info, "_final_info": has.copy()}

    def _update_masks(self) -> None:
        mask = core.legal_action_mask(self.state)
        if not self.self_play:
            self._mask = mask
            return
        self._mover = np.maximum(self.state.current_player, 0)
        slot_mask = np.zeros((self.rules.players, self.num_games, self.rules.n_actions), dtype=np.bool_)
        slot_mask[:, :, self.pass_action] = True
        slot_mask[self._mover, self._games] = mask
        self._mask = slot_mask.reshape(self.num_envs, -1)

    def _observe(self) -> np.ndarray:
        if not self.self_play:
            return core.observe(self.state, viewer=self.seat)
        out = np.empty((self.rules.players, self.num_games, self.single_observation_space.shape[0]),
                       dtype=np.float32)
        for p in range(self.rules.players):
            core.observe(self.state, viewer=np.full(self.num_games, p), out=out[p])
        return out.reshape(self.num_envs, -1)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"learner_seat": self.seat.copy()}
        if self.self_play:
            to_move = np.zeros((self.rules.players, self.num_games), dtype=np.bool_)
            to_move[self._mover, self._games] = True
            info["to_move"] = to_move.reshape(-1)
        return info

    def _check_actions(self, actions: Any) -> np.ndarray:
        """`actions` as (num_envs,) int64 if each is a legal integer action of its slot, else ValueError."""
        try:
            given = np.asarray(actions)
        except (TypeError, ValueError, OverflowError):  # ragged nesting, or ints that fit no numpy type
            given = np.asarray(None)
        if given.shape != (self.num_envs,) or not np.issubdtype(given.dtype, np.integer):
            raise ValueError(f"actions must be {self.num_envs} integers (one per slot; an int array of shape "
                             f"({self.num_envs},)), got {short_repr(actions)} of shape {given.shape} and dtype "
                             f"{given.dtype}")
        legal = (given >= 0) & (given < self.rules.n_actions)  # on the given dtype: a huge uint64 is no action
        actions = given.astype(np.int64)
        legal[legal] = self._mask[np.flatnonzero(legal), actions[legal]]
        if legal.all():
            return actions
        actions = given
        bad = np.flatnonzero(~legal)
        raise ValueError(f"illegal action(s) for {bad.size} slot(s), nothing was applied: "
                         + "; ".join(self._describe_illegal(int(s), int(actions[s])) for s in bad[:5])
                         + (" ..." if bad.size > 5 else ""))

    def _describe_illegal(self, slot: int, action: int) -> str:
        r = self.rules
        what = f"{action} ({r.describe_action(action)})" if 0 <= action < r.n_actions else f"{action} (out of range)"
        game = slot % self.num_games
        seat = int(self.seat[slot])
        if self.self_play and self._mover[game] != seat:
            return (f"slot {slot} (game {game}, seat {seat}) is waiting for seat {int(self._mover[game])} and must "
                    f"send the pass action {self.pass_action}, got {what}")
        legal = np.flatnonzero(self._mask[slot])
        return f"slot {slot} (game {game}, seat {seat}) sent {what}; legal: {legal[:8].tolist()}" + (
            f" and {legal.size - 8} more" if legal.size > 8 else "")

    def __repr__(self) -> str:
        mode = "self_play" if self.self_play else "learner vs opponents"
        return f"KingdominoVectorEnv({self.num_games} games, {self.rules}, {mode}, num_envs={self.num_envs})"


def make_vector_env(num_envs: int = 64, **kwargs: Any) -> KingdominoVectorEnv:
    """`gymnasium.make_vec("kingdomino/KingdominoSolo-v0", num_envs=B, ...)`: a `KingdominoVectorEnv` of B games."""
    return KingdominoVectorEnv(num_games=num_envs, **kwargs)
