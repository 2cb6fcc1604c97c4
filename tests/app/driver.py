"""Scripted input for the app: clicks on buttons by label, keys, typing, and a human's turn through the screens."""

from __future__ import annotations

import numpy as np
import pygame

from kingdomino_app import placement
from kingdomino_app.app import App
from kingdomino_app.screens.play import PlayScreen, board_slot_rect, focus_cell_rect, next_slot_rect
from kingdomino_app.ui import HEIGHT, WIDTH, Button, click_event
from kingdomino_env.games.queendomino.kernels import BUILD, DRAGON, KNIGHT_STEP


class Driver:
    """Drives an App frame by frame with synthetic events; `texts` are those drawn by the last frame.

    Agents think in worker threads: by default a frame then waits for them (`settle`), so that a scripted game
    goes on deterministically; `frame(settle=False)` is one frame as the window would run it.
    """

    def __init__(self, app: App, settle_timeout: float = 30.0):
        self.app = app
        self.surface = pygame.Surface((WIDTH, HEIGHT))
        self.texts: list[str] = []
        self.settle_timeout = settle_timeout

    def frame(self, events=(), dt: float = 0.0, settle: bool = True) -> list[str]:
        self.app.step(list(events), dt)
        if settle:
            self.app.settle(self.settle_timeout)
        self.texts = self.app.draw(self.surface)
        return self.texts

    def settle(self) -> list[str]:
        """Frames of no time until no agent is thinking or loading (TimeoutError rather than a hang)."""
        return self.frame()

    def buttons(self) -> dict[str, Button]:
        return {b.label: b for b in self.app.screen.buttons()}

    def click(self, label: str, settle: bool = True) -> list[str]:
        button = self.buttons().get(label)
        assert button is not None, f"no button {label!r} on {type(self.app.screen).__name__}: {list(self.buttons())}"
        assert button.enabled, f"button {label!r} is disabled"
        return self.frame([click_event(button.rect.center)], settle=settle)

    def click_at(self, pos: tuple[int, int]) -> list[str]:
        return self.frame([click_event(pos)])

    def key(self, key: int, settle: bool = True) -> list[str]:
        return self.frame([pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0)], settle=settle)

    def type(self, text: str) -> list[str]:
        return self.frame([pygame.event.Event(pygame.TEXTINPUT, text=ch) for ch in text])

    def clear_and_type(self, text: str, backspaces: int = 60) -> list[str]:
        backspace = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode="", scancode=0)
        self.frame([backspace] * backspaces)
        return self.type(text)

    # A human's turn, played through the play screen.
    def human_turn(self, rng: np.random.Generator, use_keys: bool) -> int:
        """Play one random legal action of the human to move with clicks (or keys); returns the action."""
        screen = self.app.screen
        assert isinstance(screen, PlayScreen)
        match = screen.match
        rules = match.rules
        mask = match.mask()
        before = len(match.record()["actions"])
        if match.phase in (KNIGHT_STEP, BUILD, DRAGON):
            action = self.queendomino_step(rng, use_keys)
        elif not match.placing:
            slots = [i for i in range(rules.line_size) if mask[rules.pick_action(i)]]
            slot = int(rng.choice(slots))
            if use_keys:
                self.key(pygame.K_1 + slot)
            else:
                self.click_at(next_slot_rect(slot, rules).center)
            action = rules.pick_action(slot)
        elif placement.must_discard(mask, rules):
            assert "Discard" in self.buttons() and not self.buttons()["Place & Proceed"].enabled
            self.click("Discard")
            action = rules.discard_action
        else:
            assert "Discard" not in self.buttons()
            action = int(rng.choice(np.flatnonzero(mask[: rules.n_place_actions])))
            cell, direction = divmod(action, 4)
            row, col = divmod(cell, rules.frame)
            for _ in range(4):
                if screen.current_cursor().direction == direction:
                    break
                if use_keys:
                    self.key(pygame.K_r)
                else:
                    self.click("ROTATE")
            if use_keys:
                cursor = screen.current_cursor()
                arrows = ([pygame.K_DOWN] * max(0, row - cursor.row) + [pygame.K_UP] * max(0, cursor.row - row)
                          + [pygame.K_RIGHT] * max(0, col - cursor.col) + [pygame.K_LEFT] * max(0, cursor.col - col))
                for arrow in arrows:
                    self.key(arrow)
            else:
                self.click_at(focus_cell_rect(rules.frame, row, col, rules).center)
            assert screen.current_cursor() == placement.Cursor(row, col, direction)
            assert (row, col) in placement.legal_first_cells(mask, rules, direction)
            if use_keys:
                self.key(pygame.K_RETURN)
            else:
                self.click("Place & Proceed")
        assert match.record()["actions"][before] == action
        return action

    def queendomino_step(self, rng: np.random.Generator, use_keys: bool) -> int:
        """Play a Queendomino optional step as a person would: a knight's square then Send knight (its tax shown
        first), a board tile then a green town square, a tile then Send the Dragon, or Done; returns the action.
        Actions other than Done are chosen three times in four."""
        screen = self.app.screen
        match = screen.match
        rules = match.rules
        choices: list[tuple[int, ...]] = []
        if match.phase == KNIGHT_STEP:
            choices = [(i,) for i in match.knight_squares()]
        elif match.phase == BUILD:
            choices = [(k, r, c) for k in match.buildable_slots() for r, c in match.build_squares(k)]
        else:
            choices = [(k,) for k in match.dragon_slots()]
        if not choices or rng.random() < 0.25:
            assert self.buttons()["Done"].enabled
            if use_keys:
                self.key(pygame.K_d)
            else:
                self.click("Done")
            return rules.pass_action
        choice = choices[int(rng.integers(len(choices)))]
        if match.phase == KNIGHT_STEP:
            square = choice[0]
            tax = match.preview(rules.knight_action(square)).coins
            texts = self.frame()
            assert any(f": tax +{tax} coin" in t for t in texts), "the tax is shown before confirming"
            if use_keys:
                self.key(pygame.K_1 + square)
                self.key(pygame.K_RETURN)
            else:
                self.click_at(focus_cell_rect(rules.frame, *match.placed_cells()[square], rules).center)
                self.click(f"Send knight (+{tax} coin{'' if tax == 1 else 's'})")
            return rules.knight_action(square)
        slot = choice[0]
        if use_keys:
            self.key(pygame.K_0 + slot)
        else:
            self.click_at(board_slot_rect(slot).center)
        assert screen.current_choice() == slot
        if match.phase == BUILD:
            name = rules.building_deck.names[match.slot_tile(slot)]
            assert any(t.startswith(f"{name}: costs ") for t in self.texts), "the cost is shown before building"
            self.click_at(focus_cell_rect(rules.frame, choice[1], choice[2], rules).center)
            return rules.build_action(*choice)
        if use_keys:
            self.key(pygame.K_RETURN)
        else:
            self.click("Send the Dragon")
        return rules.dragon_action(slot)
