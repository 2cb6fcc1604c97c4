"""Scores: each player's score with its breakdown (territories, bonuses), the winner and the tie-break; in a
Dynasty also the match totals. Rematch and New Game once the match is over; Next Game and Save & Quit between the
games of a Dynasty; Back. Every text is fitted to its panel or to the window."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from agents import AgentSpecError
from kingdomino_env import drawing
from kingdomino_env.dynasty import Standing, tie_break
from kingdomino_env.quests import title as quest_title

from .. import saves
from ..breakdown import breakdown
from ..match import Match
from ..seats import AgentUnavailable
from ..ui import ACCENT, ERROR, MUTED, PANEL, WIDTH, Button, Canvas, elide
from .base import Screen

if TYPE_CHECKING:
    from ..app import App

TOP, BOTTOM = 90, 600
MAX_TERRITORY_LINES = 7
#: Most pixels the kingdom takes in a panel, and the smallest line step of the breakdown below it.
KINGDOM_HEIGHT, MIN_LINE = 200, 16
#: Font sizes tried, largest first, for a line across the window before it is elided.
SMALLER = 4


def fit_size(value: str, width: int, size: int, bold: bool = False, minimum: int = 20) -> int:
    """The largest font size from `size` down to `minimum` (steps of `SMALLER`) at which `value` fits `width`."""
    while size > minimum and drawing.font(size, bold).size(value)[0] > width:
        size = max(minimum, size - SMALLER)
    return size


def panel_rect(player: int, players: int) -> pygame.Rect:
    """The panel of `player`'s score, kingdom and breakdown; everything about the player is drawn inside it."""
    width = (WIDTH - 40) // players
    return pygame.Rect(20 + player * width + 6, TOP, width - 12, BOTTOM - TOP)


def result_text(names: list[str], ranks: list[int], decided_by: str, what: str = "Winner") -> str:
    """"Winner: Alice (by score)", "Winner: Bob (tie-break: largest territory)", "Shared victory: A and B"."""
    winners = [names[p] for p, r in enumerate(ranks) if r == 0]
    if len(winners) > 1:
        return f"Shared victory: {' and '.join(winners)} (tied on score, largest territory and crowns)"
    how = "by score" if decided_by == "score" else f"tie-break: {decided_by}"
    return f"{what}: {winners[0]} ({how})"


def breakdown_lines(match: Match, player: int) -> list[str]:
    """The text lines of a player's breakdown: scoring territories, the rest, bonuses, tie-break numbers."""
    state = match.state
    b = breakdown(state, 0, player)
    scoring = [t for t in b.territories if t.crowns]
    lines = [f"{t.terrain.capitalize()}: {t.squares} x {t.crowns} crown{'s' if t.crowns > 1 else ''} = {t.points}"
             for t in scoring[:MAX_TERRITORY_LINES]]
    if len(scoring) > MAX_TERRITORY_LINES:
        rest = sum(t.points for t in scoring[MAX_TERRITORY_LINES:])
        lines.append(f"{len(scoring) - MAX_TERRITORY_LINES} more territories = {rest}")
    plain = len(b.territories) - len(scoring)
    if plain:
        lines.append(f"{plain} territor{'ies' if plain > 1 else 'y'} without crowns = 0")
    if b.bonus:
        lines.append(f"{' + '.join(b.bonus_names)}: +{b.bonus}")
    lines.extend(f"Quest {quest_title(name)}: +{points}" for name, points in b.quests)
    lines.append(f"Largest territory {int(state.largest[0, player])}, crowns {int(state.total_crowns[0, player])}")
    discarded = int(state.discarded[0, player])
    if discarded:
        lines.append(f"Discarded {discarded} domino{'es' if discarded > 1 else ''}")
    return lines


class ScoresScreen(Screen):
    def __init__(self, app: App, match: Match):
        super().__init__(app)
        self.match = match
        self.error = ""

    @property
    def title(self) -> str:
        m = self.match
        return f"Scores - Game {m.game_number} of {m.games_total}" if m.games_total > 1 else "Scores"

    def next_game(self) -> None:
        self.match.next_game()
        self.app.show_play(self.match)

    def rematch_seed(self) -> int | None:
        """A fresh seed, or, when the app has a fixed seed, the first one after this match's games (reproducible)."""
        if self.app.seed is None:
            return None
        return (self.match.seed + self.match.games_total) % (saves.MAX_SEED + 1)

    def rematch(self) -> None:
        """A new match with the same seats, rules and Dynasty setting, started at once."""
        m = self.match
        try:
            match = Match(m.seats, m.rules, dynasty=m.dynasty, seed=self.rematch_seed(),
                          agent_factory=self.app.agent_factory)
        except (AgentUnavailable, AgentSpecError) as err:
            self.error = f"Cannot start a rematch: {err}"
            return
        self.app.show_play(match)

    def buttons(self) -> list[Button]:
        left, right = pygame.Rect(WIDTH // 2 - 330, 700, 320, 64), pygame.Rect(WIDTH // 2 + 10, 700, 320, 64)
        if self.match.match_over:
            out = [Button("Rematch", left, self.rematch, size=32),
                   Button("New Game", right, self.app.show_new_game, key=pygame.K_RETURN, size=32)]
        else:
            out = [Button(f"Next Game ({self.match.game_number + 1}/{self.match.games_total})", left, self.next_game,
                          key=pygame.K_RETURN, size=32),
                   Button("Save & Quit", right, lambda: self.app.show_save(self.match, self), size=32)]
        out.append(Button("Back", pygame.Rect(40, 720, 160, 54), self.app.show_menu, key=pygame.K_ESCAPE))
        return out

    def draw_content(self, canvas: Canvas) -> None:
        match = self.match
        state = match.state
        players = match.rules.players
        ranks = match.ranks()
        width = (WIDTH - 40) // players
        n = match.rules.grid
        cell = min(34, (width - 60) // n, KINGDOM_HEIGHT // n)
        for p in range(players):
            x = 20 + p * width
            rect = panel_rect(p, players)
            canvas.panel(rect, (250, 236, 190) if ranks[p] == 0 else PANEL)
            drawing.draw_king(canvas.surface, (x + 30, TOP + 28), 36, p)
            name_right = rect.right - 10
            if ranks[p] == 0:
                name_right = canvas.text("Winner!", (rect.right - 10, TOP + 28), 30, ACCENT, True, "midright").x - 8
            canvas.fitted(match.names[p], (x + 54, TOP + 28), name_right - (x + 54), 32, bold=True, anchor="midleft")
            canvas.fitted(f"Score: {int(state.scores[0, p])}", (x + 20, TOP + 56), rect.right - 10 - (x + 20), 34,
                          bold=True)
            drawing.draw_kingdom_window(canvas.surface, state, 0, p, (x + (width - n * cell) // 2, TOP + 92), cell)
            y = TOP + 100 + n * cell
            lines = breakdown_lines(match, p)
            step = max(MIN_LINE, min(22, (rect.bottom - 4 - y) // len(lines)))
            shown = (rect.bottom - 4 - y) // step
            if len(lines) > shown:
                lines = lines[: shown - 1] + [f"... {len(lines) - shown + 1} more lines"]
            for line in lines:
                canvas.fitted(line, (x + 20, y), rect.right - 10 - (x + 20), min(21, step))
                y += step
        if self.error:
            canvas.wrapped(self.error, pygame.Rect(40, BOTTOM + 10, WIDTH - 80, 84), 24, ERROR, max_lines=3)
            return
        result = self.match.game_result()
        self.centred(canvas, result_text(match.names, ranks, tie_break(result.scores, result.largest, result.crowns)),
                     BOTTOM + 26, 32, ACCENT, True)
        if match.games_total > 1:
            self.draw_match(canvas, match.standing())

    @staticmethod
    def centred(canvas: Canvas, value: str, y: int, size: int, colour: tuple[int, int, int], bold: bool) -> None:
        """A line centred across the window: smaller as needed, then elided, to stay inside it."""
        width = WIDTH - 40
        size = fit_size(value, width, size, bold)
        canvas.text(elide(value, width, size, bold), (WIDTH // 2, y), size, colour, bold, "center")

    def draw_match(self, canvas: Canvas, standing: Standing) -> None:
        match = self.match
        games = len(match.results) + 1
        totals = ", ".join(f"{name} {score}" for name, score in zip(match.names, standing.scores, strict=True))
        self.centred(canvas, f"Dynasty after {games} of {match.games_total} games: {totals}", BOTTOM + 58, 26, MUTED,
                     False)
        if match.match_over:
            self.centred(canvas, result_text(match.names, list(standing.ranks), standing.decided_by, "Dynasty winner"),
                         BOTTOM + 86, 28, ACCENT, True)
