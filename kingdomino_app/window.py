"""The resizable window: screens draw on a logical WIDTH x HEIGHT surface, scaled into the window keeping its shape.

`letterbox` says where the scaled picture goes, `to_logical` maps a window position back to logical coordinates
(what the screens see), `fit_window` chooses an opening size that fits the desktop. The arithmetic is pure.
`display_problem` says why no window could be seen (no display, or a video driver that draws nowhere), checked by
`kingdomino play` and `python -m kingdomino_app` before they open one.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

import pygame

from .ui import HEIGHT, WIDTH

#: The largest share of the desktop the window takes when it opens.
DESKTOP_SHARE = 0.9
#: The smallest window opened, whatever the desktop says.
MIN_SIZE = (640, 400)

Size = tuple[int, int]
#: SDL video drivers that draw into no visible window.
HEADLESS_DRIVERS = ("dummy", "offscreen")
#: Set to 1 to open the app on such a driver anyway (headless runs on purpose: smoke tests, screenshots).
ALLOW_HEADLESS = "KINGDOMINO_ALLOW_HEADLESS"


def display_problem(environ: Mapping[str, str] | None = None, platform: str | None = None) -> str | None:
    """Why a window opened now would not be seen, None when it would (or `ALLOW_HEADLESS` is 1): the video driver
    `SDL_VIDEODRIVER` names one that draws nowhere, or on Linux no driver is named and neither DISPLAY (X11) nor
    WAYLAND_DISPLAY is set. `environ` and `platform` default to the process's."""
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    if environ.get(ALLOW_HEADLESS, "") == "1":
        return None
    driver = environ.get("SDL_VIDEODRIVER", "").strip().lower()
    if driver in HEADLESS_DRIVERS:
        return f"the video driver SDL_VIDEODRIVER={driver} shows no window"
    if platform.startswith("linux") and not driver and not (environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY")):
        return "there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)"
    return None


def no_display_message(problem: str) -> str:
    """What `kingdomino play` says before exiting when `display_problem` found `problem`."""
    return (f"Cannot open the game window: {problem}. Run it in a desktop session (or over ssh -X), or set "
            f"{ALLOW_HEADLESS}=1 to run it without a visible window.")


def letterbox(window: Size, logical: Size = (WIDTH, HEIGHT)) -> tuple[int, int, int, int]:
    """(x, y, width, height) of the logical picture scaled as large as fits in `window`, centred."""
    ww, wh = max(0, int(window[0])), max(0, int(window[1]))
    lw, lh = logical
    scale = min(ww / lw, wh / lh)
    w, h = round(lw * scale), round(lh * scale)
    return (ww - w) // 2, (wh - h) // 2, w, h


def to_logical(pos: tuple[float, float], window: Size, logical: Size = (WIDTH, HEIGHT)) -> tuple[int, int]:
    """The logical position under window position `pos` (positions on the bars fall outside 0..size-1)."""
    x, y, w, h = letterbox(window, logical)
    if w == 0 or h == 0:
        return -1, -1
    return int((pos[0] - x) * logical[0] // w), int((pos[1] - y) * logical[1] // h)


def fit_window(desktop: Size | None, logical: Size = (WIDTH, HEIGHT), share: float = DESKTOP_SHARE) -> Size:
    """The window size to open: the logical size, shrunk to at most `share` of the desktop, same shape."""
    if desktop is None:
        return logical
    scale = min(1.0, share * desktop[0] / logical[0], share * desktop[1] / logical[1])
    scale = max(scale, MIN_SIZE[0] / logical[0], MIN_SIZE[1] / logical[1])
    return round(logical[0] * scale), round(logical[1] * scale)


def to_logical_event(event: pygame.event.Event, window: Size) -> pygame.event.Event:
    """`event` with its mouse position (and motion) in logical coordinates; other events as they are."""
    if event.type not in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        return event
    attrs = dict(event.dict)
    attrs["pos"] = to_logical(event.pos, window)
    if "rel" in attrs:
        _, _, w, _ = letterbox(window)
        attrs["rel"] = tuple(int(r * WIDTH // w) for r in attrs["rel"]) if w else (0, 0)
    return pygame.event.Event(event.type, attrs)


__all__ = ["ALLOW_HEADLESS", "DESKTOP_SHARE", "HEADLESS_DRIVERS", "display_problem", "fit_window", "letterbox",
           "no_display_message", "to_logical", "to_logical_event"]
