"""The play app (`kingdomino play`): Kingdomino, Queendomino and the Royal Wedding (up to 8 players, teams), as
pygame screens over the AEC env and the rules core.

`run(...)` opens the window (see `kingdomino_app.app.run`). The modules without pygame (`breakdown`,
`seats`, `placement`, `saves`, `match`) can be imported on their own (tests use them headless).
"""

from __future__ import annotations

from typing import Any

__all__ = ["run"]


def __getattr__(name: str) -> Any:
    if name == "run":
        from .app import run

        return run
    raise AttributeError(f"module 'kingdomino_app' has no attribute {name!r}")
