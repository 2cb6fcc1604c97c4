"""Reading the command line's output in tests."""

from __future__ import annotations


def flat(text: str) -> str:
    """Output without rich's box drawing and line wrapping."""
    return " ".join(text.replace("│", " ").split())
