"""Kingdomino as a PettingZoo AEC environment.

| Import             | `from kingdomino_env import env` (or `pettingzoo.make("aec", "kingdomino/Kingdomino-v0")`) |
|--------------------|----------------------------------------------------------------------------------------|
| Actions            | Discrete                                                                               |
| Parallel API       | No                                                                                     |
| Manual control     | No                                                                                     |
| Agents             | `agents = ["player_0", ..., "player_{n-1}"]` (2-4 players; 3-8 in the Royal Wedding)   |
| Action shape       | (1,)                                                                                   |
| Action values      | Discrete(S*S*4 + 1 + L): 329 for 5x5, 681 for 7x7 (Mighty Duel), 328 for the 36-domino 3p rule |
| Observation shape  | `{"observation": (obs_size,) float32, "action_mask": (n_actions,) int8}`               |
| Observation values | [0, 1] flags, crowns 0..3, scores in points                                            |

Kingdomino: draft dominoes from a line, then add each to your kingdom so that it touches your castle or a square
of its own terrain and the kingdom stays within N x N (5x5, or 7x7 in the Mighty Duel). Each territory scores
squares x crowns. The rules core is `kingdomino_env.core`; this module only adapts it to the AEC API.

### Turn order

Starting round: the kings, drawn in random order, each pick a domino of the first line. Every later round: the
kings act in line order (lowest domino number first); the king's owner *places* the domino under it, then *picks*
one from the next line, as two consecutive steps of the same agent. In 2-player games each player has two kings,
so a player may act twice in a row. In the last round there is no next line: place only.

### Action space

S = 2N - 1; each kingdom lives in an S x S frame with its castle at (N - 1, N - 1).

* `a = (r*S + c)*4 + d` (0 <= a < S*S*4): put the domino's first square (first in the CSV) at (r, c) and its
  second at the neighbour in direction d: 0 east (c+1), 1 south (r+1), 2 west (c-1), 3 north (r-1).
* `a = S*S*4`: discard the domino; legal only when no placement is legal (then it is the only legal action).
* `a = S*S*4 + 1 + i`: pick the i-th domino (ascending number) of the next line.

`Rules.place_action`, `pick_action` and `describe_action` translate to and from ids.

### Legal action mask

`observation["action_mask"]` is int8 with 1 for each legal action of the agent to move, all zeros for the
others. `raw_env.step` with an illegal action raises ValueError naming the phase and the legal actions; `env()`
wraps it in PettingZoo's TerminateIllegalWrapper instead, which ends the game with reward -1 for the offender.
Only integer ids in 0..n_actions-1 (Python or numpy integers, not bools) are actions: anything else (325.7,
"325", True, [325], None for an agent still to move) or an id out of range raises that ValueError in both, and
changes nothing. `None` is the action of an agent that is done, as PettingZoo's API has it.

### Observation space

One flat float32 vector, egocentric: the observer's kingdom first, then the others in seat order (observer + 1,
observer + 2, ...). `kingdomino_env.observation.ObservationLayout(rules)` gives each block's slice:

* kingdoms: P x 9 planes of S x S: wheat, forest, lake, grassland, swamp, mine (one-hot), castle, crowns (count),
  open (empty and still inside the N x N bound).
* current line, then next line: L slots of 16 + P + 1 features: the domino (present, first square terrain one-hot
  and crowns, second square terrain one-hot and crowns, number / 48), the owner of the king on it (one-hot,
  egocentric), and for the current line whether that king has already placed.
* held: the domino the observer must place now (16 features, zeros when not placing).
* unseen: 48 flags, the dominoes not yet drawn into a line (in 2-player games these include the 24 left in the
  box: no player knows which they are).
* counters: round / rounds, phase is pick, phase is place, dominoes left in the deck / deck size, then the P
  players' scores so far in points (bonuses and quests included), egocentric.
* quests: only in variants with quests (`quests=` or `random_quests=`), 17 flags, the game's active quests in
  `kingdomino_env.games.kingdomino.quests.QUESTS` order. Without quests the vector ends with the counters (1680
  values for 2 players), as before quests existed.

The order of the dominoes still to come is never observed.

### Rewards

Zero until the game ends, then for every agent, by `reward`:

* `"outcome"` (default): zero-sum. A sole winner gets +1; with w winners (a shared victory) among P players each
  winner gets (P/w - 1)/(P - 1) and every loser -1/(P - 1). So 2 players: +1/-1, and 0 each for a shared victory;
  4 players: +1 for the winner, -1/3 for each other player. Winners: highest score, then largest territory, then
  most crowns; still tied, the victory is shared.
* `"score"`: the final score. `"margin"`: final score minus the best opponent's.

### Quests

`env(quests=["lost_corner", "bleak_king"])` plays every game with those quests; `env(random_quests=2)` draws 2
distinct quests per game at reset, from the game's generator after its deal (as the Tabletop Simulator mod
deals 2 of its 17 quest cards). The 17 quests and the readings chosen where their cards are ambiguous are listed
in `kingdomino_env.games.kingdomino.quests`; their points are part of the scores, and the record lists them.

### Rendering

`render_mode="ansi"` returns the table as text (terrain letters and crowns, frame coordinates);
`"rgb_array"` a picture and `"human"` a window, both drawn by `kingdomino_env.rendering.pygame_drawing` (pygame),
the play app's drawing code.

### Records

`env.unwrapped.record()` returns the game's record (`kingdomino_env.record`), the save format;
`reset(options={"record": r})` continues play exactly from the end of r. A record that is malformed or of other
rules raises `RecordError` (a ValueError), as do a bad seed or options (ValueError), and the env stays exactly
as it was: the new game is built aside and only then replaces the old one.

### Queendomino

`env(game="queendomino", players=P)` (or `pettingzoo.make("aec", "kingdomino/Queendomino-v0", players=P)`;
option `buildings=PATH` plays with a corrected building deck, see `kingdomino_env.games.queendomino.buildings`)
plays Queendomino as the docs' rules page writes it out: 7x7 kingdoms with 2 kings each for 2 players (starting
picks A, B, B, A), 5x5 with 1 king each for 3-4; all 48 dominoes in lines of 4, 12 rounds; the town terrain,
knights collecting tax, coins, the Builders' Board, towers, the Queen and the Dragon.

* Turn: place (mandatory), then the optional steps knights, build, Dragon (each offered only when an action
  other than PASS is legal, otherwise skipped without an action), then pick (not in the last round); every step
  is one agent step of the king's owner.
* Actions: Discrete(n_actions), 1704 for 2 players (S = 13), 824 for 3-4 (S = 9). After Kingdomino's ids
  (place, discard, pick; K = 4S^2 + 1 + L): K, K + 1 a knight on the first / second square of the domino just
  placed; B + k*S^2 + r*S + c (B = K + 2) build slot k's tile on the town square (r, c); D + k (D = B + 6S^2) the
  Dragon burns slot k; D + 6 PASS (ends the current optional step). `Rules.knight_action`, `build_action`,
  `dragon_action`, `pass_action`, `describe_action` convert.
* Mask: as for Kingdomino; PASS is legal in every optional step.
* Observation (`kingdomino_env.observation.QueendominoLayout`, egocentric, everything public): per kingdom 11
  planes of S x S (6 terrains and town one-hot, crowns of domino and building, open, building, knights), per
  kingdom 17 features (coins, knights unplaced / owned, towers, hosts the Queen, the owned buildings' effects:
  fixed points, points per territory of each terrain, per knight, per tower, tax-bonus buildings), the 6
  Builders' Board slots (the tile's effects and its cost for the observer), both lines (dominoes with 7 terrains),
  the held domino, the domino placed this turn (squares, knights placed on it this turn), unseen dominoes, tiles
  still in the building pile (their order is hidden), counters (round, step one-hot, Dragon in its cave, deck and
  pile left, knights and towers left in the supply, the P scores so far).
* Rewards: as for Kingdomino by `reward`; winners by score, then largest territory (no crown tie-break).
* Records carry "game", "buildings" (the pile order) besides Kingdomino's fields; `render()` shows the whole
  table: "ansi" the kingdoms (town squares `T`, a building's letter, `k` a knight; each building listed with its
  effects), each player's coins, knights, towers and the Queen, the Dragon, the Builders' Board with each slot's
  cost and tile, the tiles left in the pile and the supply; "rgb_array"/"human" the same as a picture.

### The Royal Wedding

`env(game="royal_wedding", players=P, teams=False)` (or `pettingzoo.make("aec", "kingdomino/RoyalWedding-v0",
players=P)`) plays both boxes together (the documentation's rules page): every Queendomino rule, 96 dominoes
(ids 0-47 Kingdomino's box, 48-95 Queendomino's; lines alternate boxes), one king per player. 3-4 players: 7x7
kingdoms, lines of 4, 24 rounds; 5-8 players: 5x5, lines of 8, 12 rounds. `teams=True` (6 or 8 players): seats 2t
and 2t + 1 (agents `player_{2t}` and `player_{2t+1}`) form team t and share one 7x7 kingdom, purse and knights;
each acts on its own king's turns.

* Agents: `player_0 ... player_{P-1}`, one per seat, in teams too.
* Actions and mask: Queendomino's layout with the Royal Wedding's S and L (`Rules.n_actions`).
* Observation: Queendomino's (`QueendominoLayout`) with one block per kingdom (K = P, or P / 2 with teams), own
  kingdom first, then the others in order; a line slot marks its king's seat egocentrically (the observer, then
  in team games its teammate, then the other seats), so a teammate's king is marked as the teammate's. 96
  unseen-domino flags.
* Rewards: computed over the kingdoms by `reward` (with teams: over the teams, zero-sum between them) and given to
  every seat of a kingdom, so both members of a team get the team's reward; infos "score" and "rank" are the team's.
* Records: "game": "royal_wedding", rules with "teams", "deck" (Kingdomino's box) and "queen_deck" (Queendomino's
  box), each in its own draw order.

### Version history

* v0: initial release.
"""

from __future__ import annotations

import copy
import difflib
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .. import core, record
from ..core import OVER
from ..games.queendomino.game import PHASE_NAMES
from ..rendering.frames import frame
from ..rules import Rules, is_integer, short_repr


def queendomino_env(rules: Rules | None = None, **kwargs: Any) -> AECEnv:
    """`env(game="queendomino", **kwargs)`: the entry point of `kingdomino/Queendomino-v0`.

    Args:
        rules: A whole Queendomino variant, or None to build one from `kwargs`.
        **kwargs: `env`'s keywords (`players`, `buildings`, `reward`, `render_mode`).

    Returns:
        The wrapped AEC env.
    """
    defaults = {} if rules is not None else {"game": "queendomino"}
    return env(rules, **{**defaults, **kwargs})


def royal_wedding_env(rules: Rules | None = None, **kwargs: Any) -> AECEnv:
    """`env(game="royal_wedding", **kwargs)`: the entry point of `kingdomino/RoyalWedding-v0`.

    Args:
        rules: A whole Royal Wedding variant, or None to build one from `kwargs`.
        **kwargs: `env`'s keywords (`players`, 3 unless given; `teams`, `buildings`, `reward`, `render_mode`).

    Returns:
        The wrapped AEC env.
    """
    defaults = {} if rules is not None else {"game": "royal_wedding", "players": 3}
    return env(rules, **{**defaults, **kwargs})


def env(rules: Rules | None = None, **kwargs: Any) -> AECEnv:
    """The AEC env: `raw_env` in PettingZoo's classic wrappers.

    An illegal action ends the game with -1 for the offender (`TerminateIllegalWrapper`), and PettingZoo checks the
    order of calls. The action's type and bounds are checked first: a non-integer or out-of-range action raises
    ValueError and changes nothing (see `CheckedEnv`).

    Args:
        rules: A whole variant, or None to build one from the `Rules` options in `kwargs`.
        **kwargs: `raw_env`'s keywords: `reward`, `render_mode` and the `Rules` options (`game`, `players`,
            `mighty_duel`, `harmony`, ...).

    Returns:
        The wrapped AEC env; `env.unwrapped` is the `raw_env`.

    Raises:
        ValueError: A bad option, reward or render mode, naming what is allowed.
    """
    wrapped: AECEnv = raw_env(rules, **kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    return CheckedEnv(wrapped)


class CheckedEnv(wrappers.OrderEnforcingWrapper):
    """The outer wrapper of `env()`: PettingZoo's order checks, plus bad input refused before any wrapper acts.

    `step` takes only an integer action id in 0..n_actions-1 (None once the agent is done) and raises ValueError
    for anything else, so that TerminateIllegalWrapper sees only ids it can look up in the mask (a legal-range
    id that is illegal still ends the game with -1). `reset` checks its seed and options (a refused record)
    before any wrapper resets, so a refused reset leaves the whole stack as it was."""

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.unwrapped.prepare_reset(seed, options)
        super().reset(seed=seed, options=options)

    def step(self, action: Any) -> None:
        raw = self.unwrapped
        if self._has_reset and raw.agents:
            agent = raw.agent_selection
            if not (raw.terminations[agent] or raw.truncations[agent]):
                raw.check_action(action)
        super().step(action)

    def __str__(self) -> str:
        return str(self.env)


def observation_space(rules: Rules) -> spaces.Box:
    """The Box of the `observation` entry, from the bounds the game declares for each block.

    Args:
        rules: The variant; its `observation_layout` declares the blocks.

    Returns:
        A float32 Box: flags in [0, 1], crowns up to 3 on Kingdomino's dominoes, counts and scores unbounded.
    """
    return spaces.Box(low=0.0, high=rules.observation_layout.bounds(), dtype=np.float32)


#: The same function: the bounds come from the game, whichever it is.
queendomino_observation_space = observation_space


class raw_env(AECEnv):
    """Kingdomino, Queendomino or the Royal Wedding on the batched rules core (a batch of one), without
    PettingZoo's wrappers: an illegal action raises ValueError. See the module docstring.

    Args:
        rules: A whole variant, or None to build one from `options`.
        reward: `"outcome"`, `"score"` or `"margin"` (`core.REWARD_MODES`, see `core.rewards`).
        render_mode: None, `"ansi"` (text), `"rgb_array"` (a picture) or `"human"` (a pygame window).
        **options: The `Rules` options as keywords (`Rules.options()`): `game` (`"kingdomino"`,
            `"queendomino"` with 2-4 players, `"royal_wedding"` with 3-8 and teams for 6 or 8), `players`,
            `mighty_duel`, ..., `teams`.

    Raises:
        ValueError: A bad option, reward or render mode, naming what is allowed.
    """

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "name": "kingdomino_v0", "is_parallelizable": False,
                "render_fps": 2}

    def __init__(self, rules: Rules | None = None, reward: str = "outcome", render_mode: str | None = None,
                 **options: Any):
        super().__init__()
        self.rules = Rules.make(rules, **options)
        self.metadata = {**self.metadata, "name": f"{self.rules.game}_v0"}
        if reward not in core.REWARD_MODES:
            raise ValueError(f"unknown reward {reward!r}; allowed: {', '.join(core.REWARD_MODES)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}; allowed: {self.metadata['render_modes']} or None")
        self.reward_mode = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.rules.players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": observation_space(self.rules),
            "action_mask": spaces.Box(0, 1, (self.rules.n_actions,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.rules.n_actions) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self._viewers = [np.array([p]) for p in range(self.rules.players)]
        self.state: core.State | None = None
        self.actions: list[int] = []
        self._viewer = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # Game flow.
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game, or restore a recorded one.

        Args:
            seed: The game is dealt by `np.random.default_rng(seed)`; None continues the generator of the last
                seeded reset.
            options: `{"record": r}` restores the game of record r at its end. Other keys are ignored, as
                PettingZoo's api_test requires, unless they look like a misspelt `"record"`.

        Raises:
            ValueError: A refused seed or option; the env is left exactly as it was.
            RecordError: A bad record; the env is left exactly as it was.
        """
        game = self.prepare_reset(seed, options)
        self._rng, self.state, self.actions = game
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._after_action()

    def prepare_reset(self, seed: Any, options: Any) -> tuple[np.random.Generator, core.State, list[int]]:
        """What `reset(seed, options)` would start, built aside: checks every argument and changes nothing in the
        env.

        Args:
            seed: As `reset`'s.
            options: As `reset`'s.

        Returns:
            The generator, the state and the action list of the game.

        Raises:
            ValueError: A refused seed or option.
            RecordError: A bad record.
        """
        if seed is not None and (not is_integer(seed) or seed < 0):
            raise ValueError(f"seed must be None or an integer >= 0, got {short_repr(seed)}")
        if options is not None and not isinstance(options, dict):
            raise ValueError(f"options must be None or a dict such as {{'record': record}}, got {short_repr(options)}")
        options = options or {}
        for key in options:
            if not isinstance(key, str):
                raise ValueError(f"reset option names must be strings, got {short_repr(key)}; known option: 'record'")
            if key != "record" and difflib.get_close_matches(key.lower(), ["record"], cutoff=0.7):
                raise ValueError(f"unknown reset option {key!r}; did you mean 'record'?")
        rng = np.random.default_rng(int(seed)) if seed is not None else copy.deepcopy(self._rng)
        if options.get("record") is not None:
            state, actions = record.replay(options["record"])
            if state.rules != self.rules:
                raise record.RecordError(f"the record is of {state.rules}, this env plays {self.rules}; "
                                 "make the env with the record's rules")
            return rng, state, actions
        return rng, core.deal_game(self.rules, rng), []

    def _require_reset(self, method: str) -> None:
        """RuntimeError naming `method` when no game has been dealt yet."""
        if self.state is None:
            raise RuntimeError(f"call reset() before {method}(): no game has been dealt yet")

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._require_reset("observe")
        player = self.agent_name_mapping[agent]
        obs = core.observe(self.state, self._viewers[player])[0]
        if player == self._mover:
            mask = self._mask.astype(np.int8)
        else:
            mask = np.zeros(self.rules.n_actions, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        self._require_reset("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = self.check_action(action)
        if not self._mask[action]:
            raise ValueError(self._illegal_message(agent, action))
        core.step(self.state, [action])
        self.actions.append(action)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._after_action()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _after_action(self) -> None:
        """Refresh the mask and the agent to move, or hand out the final rewards."""
        self._mask = core.legal_action_mask(self.state)[0]
        state = self.state
        self._mover = -1 if state.phase[0] == OVER else int(state.order_player[0, state.turn[0]])
        if self._mover < 0:
            self._finish()
        else:
            self.agent_selection = self.possible_agents[self._mover]

    def _finish(self) -> None:
        values = core.rewards(self.state, self.reward_mode)[0]
        ranks = core.ranks(self.state)[0]
        scores = core.seat_scores(self.state)[0]
        for i, a in enumerate(self.agents):
            self.rewards[a] = float(values[i])
            self.terminations[a] = True
            self.infos[a] = {"score": int(scores[i]), "rank": int(ranks[i])}
        self.agent_selection = self.agents[0]

    def check_action(self, action: Any) -> int:
        """An action as an int, if it is an action id.

        Args:
            action: A Python or numpy integer (not a bool) in 0..n_actions-1.

        Returns:
            `int(action)`.

        Raises:
            ValueError: Anything else; the message names the phase and the legal actions.
        """
        if not is_integer(action) or not 0 <= action < self.rules.n_actions:
            raise ValueError(self._illegal_message(self.agent_selection, action))
        return int(action)

    def _illegal_message(self, agent: str, action: Any) -> str:
        phase = PHASE_NAMES.get(int(self.state.phase[0]), "place")
        legal = np.flatnonzero(self._mask)
        shown = ", ".join(f"{a} ({self.rules.describe_action(int(a))})" for a in legal[:12])
        more = f" and {legal.size - 12} more" if legal.size > 12 else ""
        if not is_integer(action):
            what = (f"{short_repr(action)} (an action must be an integer id in 0..{self.rules.n_actions - 1}, "
                    f"not {type(action).__name__})")
        elif not 0 <= action < self.rules.n_actions:
            what = f"{short_repr(action)} (out of range 0..{self.rules.n_actions - 1})"
        else:
            what = f"{int(action)} ({self.rules.describe_action(int(action))})"
        return (f"illegal action {what} for {agent} in the {phase} phase; the {legal.size} legal action(s): "
                f"{shown}{more}")

    # Records and rendering.
    def record(self) -> dict[str, Any]:
        """The JSON-serialisable record of the game so far (the save format, see `kingdomino_env.record`);
        RuntimeError before the first `reset()`."""
        self._require_reset("record")
        return record.make_record(self.state, 0, self.actions)

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            return None
        self._require_reset("render")
        if self.render_mode != "human":
            return frame(self.state, self.render_mode)
        from ..rendering import pygame_drawing  # pygame is needed only to draw

        if self._viewer is None:
            self._viewer = pygame_drawing.Viewer()
        self._viewer.show(self.state)
        return None

    def close(self) -> None:
        if self._viewer is not None:
            self._viewer.close()
            self._viewer = None


__all__ = ["env", "raw_env", "OVER"]
