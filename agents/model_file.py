"""What a saved MaskablePPO model plays, read from its .zip without torch: the variants whose shapes it takes.

SB3 saves a model as a zip whose "data" member is plain JSON; its "observation_space" and "action_space" entries
carry the spaces' first-level attributes: a Box's "_shape" (a list), a Discrete's "n" (an integer or its text),
and a Dict's "spaces" as text (``"{'action_mask': Box(0, 1, (329,), int8), 'observation': Box(0.0, inf, (1680,),
float32)}"``). Reading those is cheap (milliseconds, no model is built), so callers can ask before a game starts
whether a policy fits a variant.
"""

from __future__ import annotations

import json
import os
import re
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from kingdomino_env.files import FileCheckError, check_regular_file
from kingdomino_env.observation import observation_size
from kingdomino_env.rules import Rules

#: The largest "data" member read (a real one is tens of kilobytes; a bigger one is not a model).
MAX_DATA_BYTES = 16 * 2**20
#: The largest model file read (the shipped one is a few megabytes).
MAX_MODEL_BYTES = 1 << 30
_DICT_OBSERVATION = re.compile(r"'observation':\s*Box\(.*?,\s*\((\d+),\),")


@dataclass(frozen=True)
class ModelShape:
    """The observation length and the number of actions a policy takes."""

    observation: int
    actions: int

    @classmethod
    def of(cls, rules: Rules) -> ModelShape:
        """The shapes of `rules`: the core's observation size and the action count."""
        return cls(observation_size(rules), rules.n_actions)

    def __str__(self) -> str:
        return f"observation {self.observation}, {self.actions} actions"


def _positive_int(value: Any) -> int | None:
    """An integer > 0 from JSON (SB3 writes numpy integers as text), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) < 12:
        value = int(value.strip())
    return value if isinstance(value, int) and value > 0 else None


def _observation_length(space: Any) -> int | None:
    if not isinstance(space, dict):
        return None
    shape = space.get("_shape")
    if isinstance(shape, list) and len(shape) == 1:
        return _positive_int(shape[0])
    spaces = space.get("spaces")
    if isinstance(spaces, str):
        match = _DICT_OBSERVATION.search(spaces)
        if match:
            return _positive_int(match.group(1))
    return None


def _read(path: Path) -> ModelShape:
    try:
        with zipfile.ZipFile(path) as archive:
            info = archive.getinfo("data")
            if info.file_size > MAX_DATA_BYTES:
                raise ValueError(f"its 'data' member is {info.file_size} bytes, more than a model's")
            data = json.loads(archive.read(info).decode("utf-8"))
    except KeyError:
        raise ValueError("it is a zip without the 'data' member SB3 writes") from None
    except zipfile.BadZipFile as err:
        raise ValueError(f"it is not a zip file ({err})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"its 'data' member is not JSON ({err})") from None
    except (OSError, RuntimeError, NotImplementedError, EOFError) as err:  # unreadable, encrypted, truncated
        raise ValueError(f"it cannot be read ({err})") from None
    if not isinstance(data, dict):
        raise ValueError("its 'data' member is not a JSON object")
    observation = _observation_length(data.get("observation_space"))
    action_space = data.get("action_space")
    actions = _positive_int(action_space.get("n")) if isinstance(action_space, dict) else None
    if observation is None or actions is None:
        raise ValueError("it does not record a flat observation space (or a Dict with 'observation') and a "
                         "Discrete action space")
    return ModelShape(observation, actions)


@lru_cache(maxsize=64)
def _read_cached(path: str, modified: int, size: int) -> ModelShape:
    return _read(Path(path))


def read_model_shape(path: str | Path) -> ModelShape:
    """The shapes the SB3 model at `path` takes; ValueError saying why if the file is not such a model.

    Cached by path, modification time and size, so asking again (e.g. every frame of a menu) is free."""
    p = Path(path)
    try:
        check_regular_file(p, "the model file", MAX_MODEL_BYTES)
        stat = p.stat()
    except FileCheckError as err:
        raise ValueError(f"it cannot be read ({err})") from None
    return _read_cached(os.fspath(p.resolve()), stat.st_mtime_ns, stat.st_size)


def base_variants() -> list[Rules]:
    """One variant per distinct pair of shapes: players, grid, the 36-domino rule, and quests or none (bonus
    options change no shape), then Queendomino for 2, 3 and 4 players, then the Royal Wedding for 3 to 8 players
    and in teams for 6 and 8."""
    out = []
    for players in (2, 3, 4):
        for mighty_duel, three_player_36 in ((False, False), (True, False), (False, True)):
            if (mighty_duel and players != 2) or (three_player_36 and players != 3):
                continue
            for random_quests in (0, 1):
                out.append(Rules(players=players, mighty_duel=mighty_duel, three_player_36=three_player_36,
                                 random_quests=random_quests))
    out.extend(Rules(players=players, game="queendomino") for players in (2, 3, 4))
    out.extend(Rules(players=players, game="royal_wedding") for players in range(3, 9))
    out.extend(Rules(players=players, game="royal_wedding", teams=True) for players in (6, 8))
    return out


def describe_variant(rules: Rules, games: str = "games") -> str:
    """What kind of game `rules` is, as far as a policy's shapes tell: "3-player games with quests on the 5x5 grid"
    (`games="game"`: "3-player game with ...")."""
    grid = f"the {rules.grid}x{rules.grid} grid"
    if rules.has_buildings:
        teams = " in teams of two" if rules.shared_kingdoms else ""
        return f"{rules.players}-player {rules.title} {games}{teams} on {grid}"
    kind = f"{rules.players}-player {games}"
    if rules.mighty_duel:
        kind = f"2-player Mighty Duel {games}"
    elif rules.three_player_36:
        kind = f"3-player {games} of 36 dominoes (the older rule)"
    return f"{kind} {'with' if rules.has_quests else 'without'} quests on {grid}"


def variants_text(shape: ModelShape) -> str:
    """The variants a policy of `shape` plays, in words, with its shapes."""
    fits = [describe_variant(r) for r in base_variants() if ModelShape.of(r) == shape]
    if not fits:
        return f"no Kingdomino, Queendomino or Royal Wedding variant ({shape})"
    return f"{' and '.join(fits)} ({shape})"
