"""Digests of seeded behaviour, to show that a refactoring changed no game, observation, render or result.

    python -m benchmarks.digests            # seconds once numba has compiled; prints JSON
    python -m benchmarks.digests | diff - benchmarks/results/digests.json   # unchanged behaviour: no output
    python -m benchmarks.digests --games 2  # fewer games per variant, for a quick check

Each entry is the sha256 of a canonical byte string:

* `games/<variant>/<agent>`: `--games` seeded games of the variant played to the end on the batched core, every
  seat moved by the agent (`random` or `greedy`): every action taken in order, and every array of the final state.
* `observation/<variant>`: the observation of a seeded game after 7 random actions, from every seat.
* `render/<variant>`: the text render (`ansi`) of that same state, and of the finished game.
* `record/<variant>`: the JSON record of the first seeded random game.
* `tournament`: a short seeded tournament's results (without wall-clock timings) and its per-game output.

Two runs of the same code give the same JSON; a change of any rule, observation, render or result changes it.
"""

from __future__ import annotations

import argparse
import hashlib
import json

import numpy as np

import agents
from kingdomino_env import core, record
from kingdomino_env.rendering import text as render
from kingdomino_env.rules import Rules
from tournament.config import TournamentConfig
from tournament.runner import run_tournament

VARIANTS: dict[str, Rules] = {
    "2p": Rules(2),
    "3p": Rules(3),
    "3p-36": Rules(3, three_player_36=True),
    "4p": Rules(4),
    "mighty-duel": Rules(2, mighty_duel=True),
    "bonuses": Rules(4, harmony=True, middle_kingdom=True),
    "quests": Rules(3, quests=("lost_corner", "bleak_king")),
    "random-quests": Rules(2, mighty_duel=True, random_quests=2),
    "queendomino-2p": Rules(game="queendomino", players=2),
    "queendomino-3p": Rules(game="queendomino", players=3),
    "queendomino-4p": Rules(game="queendomino", players=4),
    "royal-wedding-3p": Rules(game="royal_wedding", players=3),
    "royal-wedding-5p": Rules(game="royal_wedding", players=5),
    "royal-wedding-8p": Rules(game="royal_wedding", players=8),
    "royal-wedding-6p-teams": Rules(game="royal_wedding", players=6, teams=True),
}
AGENTS = ("random", "greedy")
SEED = 2024


def _sha(*parts: bytes) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    return digest.hexdigest()


def _state_bytes(state: core.State) -> list[bytes]:
    """Every array of the state (fields in sorted order), with its name, dtype and shape."""
    out = []
    for name, array in sorted(state._arrays().items()):
        array = np.ascontiguousarray(array)
        out.append(f"{name}:{array.dtype.str}:{array.shape}".encode())
        out.append(array.tobytes())
    return out


def play(rules: Rules, agent_spec: str, games: int, seed: int) -> tuple[core.State, list[np.ndarray]]:
    """Play `games` seeded games to the end, `agent_spec` moving every seat; the final state and each step's
    actions."""
    state = core.new_games(rules, [seed + g for g in range(games)])
    agent = agents.load(agent_spec, seed=seed)
    taken = []
    while not state.is_over.all():
        live = np.flatnonzero(~state.is_over)
        mask = core.legal_action_mask(state)
        obs = core.observe(state.take(live)) if agent.needs_observation else None
        actions = np.zeros(state.batch_size, dtype=np.int64)
        actions[live] = agent.act(state, live, mask[live], obs)
        taken.append(actions.copy())
        core.step(state, actions)
    return state, taken


def game_digest(rules: Rules, agent_spec: str, games: int) -> str:
    state, taken = play(rules, agent_spec, games, SEED)
    return _sha(*[a.tobytes() for a in taken], *_state_bytes(state))


def mid_game(rules: Rules) -> core.State:
    """A seeded game after 7 random legal actions."""
    state = core.new_games(rules, [SEED])
    rng = np.random.default_rng(SEED)
    for _ in range(7):
        core.step(state, core.random_legal_actions(core.legal_action_mask(state), rng))
    return state


def observation_digest(rules: Rules) -> str:
    state = mid_game(rules)
    views = [core.observe(state, np.array([seat])) for seat in range(rules.players)]
    return _sha(*[np.ascontiguousarray(v).tobytes() for v in views])


def render_digest(rules: Rules) -> str:
    finished, _ = play(rules, "random", 1, SEED)
    return _sha(render.ansi(mid_game(rules)).encode(), render.ansi(finished).encode())


def record_digest(rules: Rules) -> str:
    state, taken = play(rules, "random", 1, SEED)
    made = record.make_record(state, 0, [int(a[0]) for a in taken])
    return _sha(json.dumps(made, sort_keys=True).encode())


def tournament_digest() -> str:
    config = TournamentConfig(agents=("random", "greedy", "gprd"), rules=Rules(3), games=6, seed=SEED)
    result = run_tournament(config)
    games = [json.dumps(g.to_dict(), sort_keys=True).encode() for g in result.games]
    return _sha(json.dumps(result.to_dict(timings=False), sort_keys=True).encode(), *games)


def digests(games: int = 8) -> dict[str, str]:
    """Every digest, by name (see the module docstring)."""
    out: dict[str, str] = {}
    for name, rules in VARIANTS.items():
        for agent_spec in AGENTS:
            out[f"games/{name}/{agent_spec}"] = game_digest(rules, agent_spec, games)
        out[f"observation/{name}"] = observation_digest(rules)
        out[f"render/{name}"] = render_digest(rules)
        out[f"record/{name}"] = record_digest(rules)
    out["tournament"] = tournament_digest()
    return out


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m benchmarks.digests`."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=8, help="seeded games per variant and agent (default: 8)")
    return parser


def main() -> None:
    parser = build_parser()
    args = parser.parse_args()
    if args.games < 1:
        parser.error(f"--games must be a positive integer, got {args.games}")
    print(json.dumps(digests(args.games), indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
