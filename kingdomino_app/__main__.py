"""`python -m kingdomino_app`: open the play app with its defaults."""

from __future__ import annotations

from .app import run

if __name__ == "__main__":
    run()
