"""Headless pygame for the app tests: dummy video and audio drivers, one hidden display."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pytest  # noqa: E402

from kingdomino_app.app import App  # noqa: E402
from tests.app.driver import Driver  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def display():
    pygame.init()
    pygame.display.set_mode((1280, 800))
    yield
    pygame.quit()


@pytest.fixture
def driver(tmp_path) -> Driver:
    """An app with its saves in a temporary directory, agents at no delay, seed 11."""
    return Driver(App(saves_dir=tmp_path / "saves", pace=0, seed=11))


@pytest.fixture(autouse=True)
def no_hint_warm_up(monkeypatch):
    """Apps made by the tests warm no hint engine up unless a test asks (`App(prepare_hints=True)`)."""
    monkeypatch.setattr("kingdomino_app.app.PREPARE_HINTS", False)
