"""Scores: each kingdom's score with its breakdown (Kingdomino: territories, bonuses, quests; Queendomino and the
Royal Wedding: wealth, territories, buildings, the Queen), the winner and the tie-break; in a Dynasty also the
match totals. Past four kingdoms the panels take two rows; a team's panel names both players. Rematch and New
Game once the match is over; Next Game and Save & Quit between the games of a Dynasty; Analysis; Back. Every text is
fitted to its panel or to the window."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from agents import AgentSpecError
from kingdomino_env.dynasty import Standing, tie_break
from kingdomino_env.games.kingdomino.quests import title as quest_title
from kingdomino_env.rendering import pygame_drawing as drawing

from .. import saves
from ..breakdown import breakdown, queen_breakdown
from ..match import Match
from ..seats import AgentUnavailable
from ..ui import ACCENT, ERROR, MUTED, PANEL, WIDTH, Button, Canvas, elide, fit_size
from .base import Screen

if TYPE_CHECKING:
    from ..app import App

TOP, BOTTOM = 90, 600
MAX_TERRITORY_LINES = 7
#: Most pixels the kingdom takes in a panel, and the smallest line step of the breakdown below it.
KINGDOM_HEIGHT, MIN_LINE = 200, 16
#: The narrowest column of a breakdown's lines.
COLUMN_WIDTH = 190


def max_columns(width: int) -> int:
    """How many columns of breakdown lines fit `width` pixels (at least one)."""
    return max(1, min(3, width // COLUMN_WIDTH))


#: Panels in a row; more kingdoms (5-8 in the Royal Wedding) take a second row.
PER_ROW = 4


def panel_rect(player: int, players: int) -> pygame.Rect:
    """The panel of kingdom `player` (of `players` kingdoms): its score, kingdom and breakdown are drawn inside
    it. Up to four side by side; more in two rows."""
    per_row = min(players, PER_ROW)
    rows = -(-players // per_row)
    width = (WIDTH - 40) // per_row
    height = (BOTTOM - TOP) // rows
    row, col = divmod(player, per_row)
    return pygame.Rect(20 + col * width + 6, TOP + row * height, width - 12, height - (8 if rows > 1 else 0))


def result_text(names: list[str], ranks: list[int], decided_by: str, what: str = "Winner",
                crowns: bool = True) -> str:
    """"Winner: Alice (by score)", "Winner: Bob (tie-break: largest territory)", "Shared victory: A and B"
    (`crowns`: whether crowns break ties, as in Kingdomino; not in Queendomino)."""
    winners = [names[p] for p, r in enumerate(ranks) if r == 0]
    if len(winners) > 1:
        tied = "score, largest territory and crowns" if crowns else "score and largest territory"
        return f"Shared victory: {' and '.join(winners)} (tied on {tied})"
    how = "by score" if decided_by == "score" else f"tie-break: {decided_by}"
    return f"{what}: {winners[0]} ({how})"


def queen_lines(match: Match, kingdom: int, room: int = 99) -> list[str]:
    """The lines of a Queendomino kingdom's breakdown, at most `room` (at least 5): wealth, territories (their
    total, then the scoring ones), the Queen, buildings (their total, then each), the largest territory (the
    tie-break). Details that do not fit are summed up in one line."""
    b = queen_breakdown(match.state, 0, kingdom)
    scoring = [t for t in b.territories if t.crowns]
    territories = [f"  {t.terrain.capitalize()}: {t.squares} x {t.crowns} = {t.points}" for t in scoring]
    buildings = [f"  {name}: {points}" for name, points in b.buildings]
    head = [f"Wealth: {b.coins} coin{'s' if b.coins != 1 else ''} = {b.wealth}",
            f"Territories: {b.territory_points}"]
    queen = [f"Queen on the {b.queen_terrain}: +{b.queen}"] if b.queen_terrain is not None else []
    tail = [f"Largest territory {int(match.state.largest[0, kingdom])}"]
    built = [f"Buildings: {b.building_points} ({len(b.buildings)} tiles)"]
    free = max(0, room - len(head) - len(queen) - len(built) - len(tail))
    n_buildings = min(len(buildings), free // 2)
    n_territories = min(len(territories), free - n_buildings)
    n_buildings = min(len(buildings), free - n_territories)
    if n_territories < len(territories) and n_territories:
        rest = scoring[n_territories - 1:]
        territories[n_territories - 1] = f"  {len(rest)} more = {sum(t.points for t in rest)}"
    if n_buildings < len(buildings) and n_buildings:
        rest_points = [points for _, points in b.buildings[n_buildings - 1:]]
        buildings[n_buildings - 1] = f"  {len(rest_points)} more = {sum(rest_points)}"
    return (head + territories[:n_territories] + queen + built + buildings[:n_buildings] + tail)[:max(room, 5)]


def breakdown_lines(match: Match, player: int, room: int = 99) -> list[str]:
    """The text lines of a kingdom's breakdown: scoring territories, the rest, bonuses, tie-break numbers
    (Queendomino: `queen_lines`, fitted to `room` lines)."""
    if match.rules.has_buildings:
        return queen_lines(match, player, room)
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
        out.append(Button("Analysis", pygame.Rect(WIDTH - 220, 720, 180, 54), self.analyse, key=pygame.K_a))
        return out

    def analyse(self) -> None:
        """The analysis view of the game just finished."""
        self.app.show_analysis(self.match.record(), self.match.seats, self)

    def names(self) -> list[str]:
        """Each kingdom's name ("Team 1: Ann & Bob" in team games)."""
        return [self.match.kingdom_title(k) for k in range(self.match.kingdoms)]

    def draw_content(self, canvas: Canvas) -> None:
        match = self.match
        state = match.state
        kingdoms = match.kingdoms
        ranks = match.ranks()
        names = self.names()
        n = match.rules.grid
        two_rows = kingdoms > PER_ROW
        for p in range(kingdoms):
            rect = panel_rect(p, kingdoms)
            x, top = rect.x - 6, rect.y
            canvas.panel(rect, (250, 236, 190) if ranks[p] == 0 else PANEL)
            seats = match.rules.kingdom_seats(p)
            for k, seat in enumerate(seats):
                drawing.draw_king(canvas.surface, (x + 30 + k * 22, top + 28), 36, seat)
            name_x = x + 54 + 22 * (len(seats) - 1)
            name_right = rect.right - 10
            if ranks[p] == 0:
                name_right = canvas.text("Winner!", (rect.right - 10, top + 28), 30, ACCENT, True, "midright").x - 8
            name_box = pygame.Rect(name_x, top + 6, name_right - name_x, 44)
            if drawing.font(18, True).size(names[p])[0] <= name_box.w:
                canvas.shrunk(names[p], (name_x, top + 28), name_box.w, 32, bold=True, anchor="midleft", minimum=18)
            else:
                canvas.block(names[p], name_box, 20, minimum=11, bold=True)
            canvas.fitted(f"Score: {int(state.scores[0, p])}", (x + 20, top + 56), rect.right - 10 - (x + 20), 34,
                          bold=True)
            if two_rows:
                cell = min(24, (rect.h - 100) // n)
                drawing.draw_kingdom_window(canvas.surface, state, 0, p, (x + 16, top + 90), cell)
                left, y = x + 24 + n * cell, top + 90
            else:
                cell = min(34, (rect.w - 48) // n, KINGDOM_HEIGHT // n)
                drawing.draw_kingdom_window(canvas.surface, state, 0, p, (rect.centerx - n * cell // 2, top + 92),
                                            cell)
                left, y = x + 20, top + 100 + n * cell
            columns = max_columns(rect.right - 10 - left)
            lines = breakdown_lines(match, p, columns * ((rect.bottom - 4 - y) // MIN_LINE))
            self.draw_lines(canvas, lines, left, y, rect, 17 if two_rows else 21)
        if self.error:
            canvas.wrapped(self.error, pygame.Rect(40, BOTTOM + 10, WIDTH - 80, 84), 24, ERROR, max_lines=3)
            return
        result = self.match.game_result()
        self.centred(canvas, result_text(names, ranks, tie_break(result.scores, result.largest, result.crowns),
                                         crowns=match.rules.crown_tiebreak), BOTTOM + 26, 32, ACCENT, True)
        if match.games_total > 1:
            self.draw_match(canvas, match.standing())

    @staticmethod
    def draw_lines(canvas: Canvas, lines: list[str], left: int, y: int, rect: pygame.Rect, size: int = 21) -> None:
        """A breakdown's lines from (left, y) down to the panel's bottom, at most `size` pixels tall, in as many
        columns as the panel's width allows and the lines need (each line shrunk to its column if it must); the
        last ones summed up when they still do not fit."""
        room, width = rect.bottom - 4 - y, rect.right - 10 - left
        columns = 1
        while columns < max_columns(width) and len(lines) > columns * (room // max(MIN_LINE, size + 1)):
            columns += 1
        rows = -(-len(lines) // columns)
        step = max(MIN_LINE, min(size + 1, room // max(1, rows)))
        shown = columns * (room // step)
        if len(lines) > shown:
            lines = lines[: shown - 1] + [f"... {len(lines) - shown + 1} more lines"]
        rows = -(-len(lines) // columns)
        column_width = width // columns
        for k, line in enumerate(lines):
            column, row = divmod(k, rows)
            canvas.shrunk(line, (left + column * column_width, y + row * step), column_width - 8, min(21, step),
                          minimum=10)

    @staticmethod
    def centred(canvas: Canvas, value: str, y: int, size: int, colour: tuple[int, int, int], bold: bool) -> None:
        """A line centred across the window: smaller as needed, then elided, to stay inside it."""
        width = WIDTH - 40
        size = fit_size(value, width, size, bold, 20)
        canvas.text(elide(value, width, size, bold), (WIDTH // 2, y), size, colour, bold, "center")

    def draw_match(self, canvas: Canvas, standing: Standing) -> None:
        match = self.match
        games = len(match.results) + 1
        names = self.names()
        totals = ", ".join(f"{name} {score}" for name, score in zip(names, standing.scores, strict=True))
        self.centred(canvas, f"Dynasty after {games} of {match.games_total} games: {totals}", BOTTOM + 58, 26, MUTED,
                     False)
        if match.match_over:
            self.centred(canvas, result_text(names, list(standing.ranks), standing.decided_by, "Dynasty winner",
                                             crowns=match.rules.crown_tiebreak), BOTTOM + 86, 28, ACCENT, True)
