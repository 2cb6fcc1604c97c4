"""Scores: each player's score with its breakdown (territories, bonuses), the winner and the tie-break; in a
Dynasty also the match totals. New Game (or Next Game in a Dynasty) and Back."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from kingdomino_env import drawing
from kingdomino_env.dynasty import Standing, tie_break
from kingdomino_env.quests import title as quest_title

from ..breakdown import breakdown
from ..match import Match
from ..ui import ACCENT, MUTED, PANEL, WIDTH, Button, Canvas
from .base import Screen

if TYPE_CHECKING:
    from ..app import App

TOP, BOTTOM = 90, 600
MAX_TERRITORY_LINES = 7


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

    @property
    def title(self) -> str:
        m = self.match
        return f"Scores - Game {m.game_number} of {m.games_total}" if m.games_total > 1 else "Scores"

    def next_game(self) -> None:
        self.match.next_game()
        self.app.show_play(self.match)

    def buttons(self) -> list[Button]:
        out = []
        if self.match.match_over:
            out.append(Button("New Game", pygame.Rect(WIDTH // 2 - 160, 700, 320, 64), self.app.show_new_game,
                              key=pygame.K_RETURN, size=32))
        else:
            out.append(Button(f"Next Game ({self.match.game_number + 1}/{self.match.games_total})",
                              pygame.Rect(WIDTH // 2 - 160, 700, 320, 64), self.next_game, key=pygame.K_RETURN,
                              size=32))
        out.append(Button("Back", pygame.Rect(40, 720, 160, 54), self.app.show_menu, key=pygame.K_ESCAPE))
        return out

    def draw_content(self, canvas: Canvas) -> None:
        match = self.match
        state = match.state
        players = match.rules.players
        ranks = match.ranks()
        width = (WIDTH - 40) // players
        n = match.rules.grid
        cell = min(34, (width - 60) // n)
        for p in range(players):
            x = 20 + p * width
            rect = pygame.Rect(x + 6, TOP, width - 12, BOTTOM - TOP)
            canvas.panel(rect, (250, 236, 190) if ranks[p] == 0 else PANEL)
            drawing.draw_king(canvas.surface, (x + 30, TOP + 28), 36, p)
            canvas.text(match.names[p], (x + 54, TOP + 28), 32, bold=True, anchor="midleft")
            if ranks[p] == 0:
                canvas.text("Winner!", (rect.right - 14, TOP + 28), 30, ACCENT, True, "midright")
            canvas.text(f"Score: {int(state.scores[0, p])}", (x + 20, TOP + 56), 34, bold=True)
            drawing.draw_kingdom_window(canvas.surface, state, 0, p, (x + (width - n * cell) // 2, TOP + 92), cell)
            y = TOP + 100 + n * cell
            for line in breakdown_lines(match, p):
                canvas.text(line, (x + 20, y), 21)
                y += 22
        result = self.match.game_result()
        canvas.text(result_text(match.names, ranks, tie_break(result.scores, result.largest, result.crowns)),
                    (WIDTH // 2, BOTTOM + 26), 32, ACCENT, True, "center")
        if match.games_total > 1:
            self.draw_match(canvas, match.standing())

    def draw_match(self, canvas: Canvas, standing: Standing) -> None:
        match = self.match
        games = len(match.results) + 1
        totals = ", ".join(f"{name} {score}" for name, score in zip(match.names, standing.scores, strict=True))
        canvas.text(f"Dynasty after {games} of {match.games_total} games: {totals}", (WIDTH // 2, BOTTOM + 58), 26,
                    MUTED, anchor="center")
        if match.match_over:
            canvas.text(result_text(match.names, list(standing.ranks), standing.decided_by, "Dynasty winner"),
                        (WIDTH // 2, BOTTOM + 86), 28, ACCENT, True, "center")
