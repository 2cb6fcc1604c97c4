"""The text checker: every text a frame drew must be whole (not elided) and inside its box and the window."""

from __future__ import annotations

import pygame

from kingdomino_app.ui import HEIGHT, WIDTH, Drawn

WINDOW = pygame.Rect(0, 0, WIDTH, HEIGHT)
#: Player names of 16 characters, as long as a name may be typed.
LONG_NAMES = ("Maximiliana Wolf", "Bartholomew Kent", "Wilhelmina Moore", "Konstantin Weber", "Gwendolyn Marsh",
              "Cornelius Blake", "Evangeline Ross", "Theodora Wright")


def misfits(drawn: list[Drawn]) -> list[str]:
    """What does not fit: "'text' (whole: 'the whole text') at Rect(...) outside Rect(...)"."""
    out = []
    for d in drawn:
        if not d.fits or not WINDOW.contains(d.rect):
            cut = f" (whole: {d.full!r})" if d.value != d.full else ""
            out.append(f"{d.value!r}{cut} at {tuple(d.rect)} in box {tuple(d.box)}")
    return out


def too_small(drawn: list[Drawn], minimum: int, area: pygame.Rect | None = None) -> list[str]:
    """The texts (inside `area`, when given) drawn at a font size under `minimum`: "'text' at size 10"."""
    return [f"{d.value!r} at size {d.size}" for d in drawn
            if d.size < minimum and (area is None or area.contains(d.rect))]
