"""What agent tests share: the Kingdomino rows of the table of games (tests/games_table.py: every player count,
both 3-player rules, the Mighty Duel, the bonuses and quests, fixed and random) and whole games in which an agent's
every action is checked."""

import numpy as np

import agents
from kingdomino_env import core
from kingdomino_env.rules import Rules
from tests.games_table import KINGDOMINO, RULES

KINGDOMINO_VARIANTS = {name: RULES[name] for name in KINGDOMINO}


def play_batch(rules: Rules, hero: agents.Agent, games: int, seed: int, hero_seat_only: bool = False) -> core.State:
    """Play `games` games to the end; the hero moves for every seat (or seat b % P only, random for the others),
    asserting that each of its actions is legal."""
    state = core.new_games(rules, [seed + g for g in range(games)])
    others = agents.load("random", seed=seed)
    hero_seat = np.arange(games) % rules.players
    actions = np.zeros(games, dtype=np.int64)
    while not state.is_over.all():
        live = np.flatnonzero(~state.is_over)
        mask = core.legal_action_mask(state)
        mine = live if not hero_seat_only else live[state.current_player[live] == hero_seat[live]]
        rest = np.setdiff1d(live, mine)
        if mine.size:
            obs = core.observe(state.take(mine)) if hero.needs_observation else None
            chosen = np.asarray(hero.act(state, mine, mask[mine], obs))
            assert chosen.shape == mine.shape
            assert mask[mine, chosen].all(), f"{hero.name} chose an illegal action"
            actions[mine] = chosen
        if rest.size:
            actions[rest] = others.act(state, rest, mask[rest], None)
        core.step(state, actions)
    return state


def play_aec(env, agent: agents.Agent, seed: int) -> None:
    """Reset a PettingZoo env with `seed` and let `agent` play every seat to the end, asserting that each action
    is an int the mask allows."""
    env.reset(seed=seed)
    for name in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = agent.act(env)
        assert isinstance(action, int) and env.observe(name)["action_mask"][action] == 1
        env.step(action)
    assert env.unwrapped.state.is_over[0] and all(env.terminations.values())


def assert_seed_fixes_moves(first: agents.Agent, second: agents.Agent, other: agents.Agent, state: core.State,
                            steps: int | None = None) -> None:
    """Play game 0 of `state` (to its end, or `steps` actions) by `first`, asking `second` (same seed) and `other`
    (another seed) at every decision: `second` must always agree and `other` must differ somewhere (or the
    comparison would prove nothing)."""
    differ = 0
    done = 0
    while not state.is_over[0] and (steps is None or done < steps):
        mask = core.legal_action_mask(state)
        a = first.act(state, np.array([0]), mask, None)
        assert second.act(state, np.array([0]), mask, None)[0] == a[0], f"differ at step {int(state.n_steps[0])}"
        differ += other.act(state, np.array([0]), mask, None)[0] != a[0]
        core.step(state, a)
        done += 1
    assert differ > 0


def advance(rules: Rules, seeds: list[int], steps: int, seed: int = 0) -> core.State:
    """New games with `seeds`, each advanced by `steps` random legal actions (none may end)."""
    state = core.new_games(rules, seeds)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        core.step(state, core.random_legal_actions(core.legal_action_mask(state), rng))
    assert not state.is_over.any()
    return state
