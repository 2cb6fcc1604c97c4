"""Playthroughs: one seeded game per variant, written out in full as readable text, kept as regression files.

Each game is played by the seeded greedy agent for every seat through the public API (the AEC env of
`kingdomino_env.env` and `agents.load`), so any change to the rules, the deal, the action layout, the scores or
the text render shows in these files as a readable diff. `tests/playthroughs/test_playthroughs.py` regenerates
each in memory and compares it with the stored file.

Regenerate them all (after a deliberate change, then read the diff) with:

    python -m tests.playthroughs.generate
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import agents
import kingdomino_env
from kingdomino_env.rules import Rules

#: Where the playthrough files live.
DIRECTORY = Path(__file__).parent
#: The command that rewrites them.
COMMAND = "python -m tests.playthroughs.generate"
#: Each playthrough: its file name (without .txt), the env options of its variant, and the seed of the deal (the
#: greedy agent gets the same seed).
PLAYTHROUGHS: dict[str, tuple[dict[str, Any], int]] = {
    "kingdomino_2p": ({"players": 2}, 1),
    "kingdomino_4p": ({"players": 4}, 2),
    "kingdomino_mighty_duel_harmony_middle_kingdom": (
        {"players": 2, "mighty_duel": True, "harmony": True, "middle_kingdom": True}, 3),
    "kingdomino_3p_quests": ({"players": 3, "quests": ("lost_corner", "folie_des_grandeurs")}, 4),
    "queendomino_2p": ({"game": "queendomino", "players": 2}, 5),
    "royal_wedding_4p": ({"game": "royal_wedding", "players": 4}, 6),
    "royal_wedding_6p_teams": ({"game": "royal_wedding", "players": 6, "teams": True}, 7),
}


def domino_name(rules: Rules, domino: int) -> str:
    """'#12', or in the Royal Wedding '#K12' / '#Q12' by box."""
    box, number = rules.domino_label(domino)
    return f"#{box[0].upper()}{number}" if rules.is_royal_wedding else f"#{number}"


def action_label(rules: Rules, state: Any, action: int) -> str:
    """The action's meaning, with the domino it places or picks."""
    label = rules.describe_action(action)
    if action <= rules.discard_action:
        return f"{label} {domino_name(rules, int(state.held_domino[0]))}"
    if action < rules.first_pick_action + rules.line_size:
        return f"{label} {domino_name(rules, int(state.next_line[0, action - rules.first_pick_action]))}"
    return label


def scores_text(rules: Rules, scores: Any) -> str:
    who = [f"team {k + 1}" if rules.teams else f"player_{k}" for k in range(rules.kingdoms)]
    return ", ".join(f"{name} {int(score)}" for name, score in zip(who, scores, strict=True))


def playthrough(options: dict[str, Any], seed: int) -> str:
    """The text of one seeded game of the variant `options` (env keyword arguments)."""
    env = kingdomino_env.env(render_mode="ansi", **options)
    env.reset(seed=seed)
    raw = env.unwrapped
    rules = raw.rules
    agent = agents.load("greedy", seed=seed)
    lines = [
        f"# {rules.game} playthrough; regenerate with: {COMMAND}",
        f"variant: {rules.to_dict()}",
        f"env: kingdomino_env.env({', '.join(f'{k}={v!r}' for k, v in options.items())})",
        f"seed: {seed} (env.reset(seed={seed}); agents.load('greedy', seed={seed}) plays every seat)",
        "",
        "step agent legal action label",
    ]
    step = 0
    round_ = int(raw.state.round[0])
    for name in env.agent_iter():
        if raw.state.is_over[0]:
            break
        legal = int(env.observe(name)["action_mask"].sum())
        action = agent.act(env)
        label = action_label(rules, raw.state, action)
        step += 1
        lines.append(f"{step} {name} {legal} {action} {label}")
        env.step(action)
        if int(raw.state.round[0]) != round_ or raw.state.is_over[0]:
            lines.append(f"-- end of round {round_}: {scores_text(rules, raw.state.scores[0])}")
            round_ = int(raw.state.round[0])
    lines += ["", f"final scores: {scores_text(rules, raw.state.scores[0])}",
              "ranks: " + ", ".join(f"{a} {raw.infos[a]['rank']}" for a in raw.possible_agents),
              "rewards: " + ", ".join(f"{a} {raw.rewards[a]:+.4f}" for a in raw.possible_agents),
              "", "final render:", env.render(), ""]
    env.close()
    return "\n".join(lines)


def path(name: str) -> Path:
    return DIRECTORY / f"{name}.txt"


def main() -> None:
    """Rewrite every playthrough file (or those named on the command line)."""
    names = sys.argv[1:] or list(PLAYTHROUGHS)
    unknown = [n for n in names if n not in PLAYTHROUGHS]
    if unknown:
        sys.exit(f"unknown playthrough(s) {unknown}; known: {', '.join(PLAYTHROUGHS)}")
    for name in names:
        path(name).write_text(playthrough(*PLAYTHROUGHS[name]))
        print(f"wrote {path(name)}")


if __name__ == "__main__":
    main()
