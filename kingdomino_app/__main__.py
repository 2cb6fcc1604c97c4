"""`python -m kingdomino_app`: open the play app with its defaults (exit status 2 when no window could be seen)."""

from __future__ import annotations

import sys

from .window import display_problem, no_display_message

if __name__ == "__main__":
    problem = display_problem()
    if problem is not None:
        print(f"Error: {no_display_message(problem)}", file=sys.stderr)
        sys.exit(2)
    from .app import run

    run()
