"""What an env's render() returns: text from `rendering.text`, or a picture from `rendering.pygame_drawing`.

The one place both renderers meet, so that neither imports the other's caller (pygame is imported only to draw).
"""

from __future__ import annotations

import numpy as np

from ..core import State
from .text import ansi


def frame(state: State, mode: str, game: int = 0) -> str | np.ndarray:
    """What an env's render() returns for `mode`: "ansi" text, or an "rgb_array" picture (pygame drawing)."""
    if mode == "ansi":
        return ansi(state, game)
    from . import pygame_drawing  # pygame is needed only to draw

    return pygame_drawing.rgb_array(state, game)
