"""`python -m kingdomino_app.screenshots [DIR]`: draw the main screens headless into PNGs (docs/screenshots).

A seeded 4-player game (a human seat played by Full Greedy, three agents) is shown at the draft and at a placement
(then with a hint), then finished for the scores and its analysis; the Load screen lists saves made here (one of
them corrupt), and the save of the hint's position is loaded again (its move log filled from the save). The hint
and the analysis use `mc` with a fixed number of playouts, so they are the same on every run. Then Queendomino and
the Royal Wedding: a 2-player Queendomino game at a build (a tile chosen, its cost and effects shown, the mouse over
a tile for its details) and at a knight step, and its scores; an 8-player Royal Wedding at a placement and its
scores; a 6-player team game at a placement; New Game set for a team game; and the
env's `rgb_array` table of an 8-player game."""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from kingdomino_env.games.queendomino.kernels import BUILD, KNIGHT_STEP  # noqa: E402
from kingdomino_env.policies import GreedyPolicy  # noqa: E402
from kingdomino_env.rendering import pygame_drawing as drawing  # noqa: E402
from kingdomino_env.rules import Rules  # noqa: E402

from . import saves  # noqa: E402
from .app import App  # noqa: E402
from .match import Match  # noqa: E402
from .placement import Cursor  # noqa: E402
from .screens.new_game import NewGameScreen  # noqa: E402
from .screens.play import board_slot_rect  # noqa: E402
from .seats import Seat  # noqa: E402
from .ui import HEIGHT, WIDTH  # noqa: E402

#: The advisor of the hint and the analysis pictures: playouts, not seconds, so that they are reproducible.
ADVISOR = "mc:p300"
#: Seconds the pictures wait for the advisor at most.
SETTLE_SECONDS = 600.0
SEATS = (Seat("Abdallah"), Seat("Maxime", "greedy"), Seat("Kaicheng", "gprd"), Seat("Mathieu", "random"))


def human_move(match: Match, policy: GreedyPolicy) -> int:
    """The move Full Greedy would make for the human to move (to script the screenshots' human)."""
    return int(policy.act(match.state, np.zeros(1, dtype=np.int64), match.mask()[None], None)[0])


def play_to(match: Match, policy: GreedyPolicy, ready: Callable[[Match], bool]) -> None:
    """Play (the agents as they choose, the human by `policy`) until the human is to move and `ready(match)`."""
    while not match.game_over:
        if not match.human_to_move():
            match.play_agent()
        elif ready(match):
            return
        else:
            match.play(human_move(match, policy))


def play_until(match: Match, policy: GreedyPolicy, round_: int, placing: bool) -> None:
    """Play (the agents as they choose, the human by `policy`) until the human is to move in `round_`, or the end.

    Moves are made here, not by the play screen (whose agents think in a worker thread), so the pictures are the
    same on every run."""
    while not match.game_over:
        if not match.human_to_move():
            match.play_agent()
        elif int(match.state.round[0]) >= round_ and match.placing == placing:
            return
        else:
            match.play(human_move(match, policy))


def make_screenshots(out_dir: Path | str, seed: int = 3) -> list[Path]:
    """Write the PNGs of the main screens to `out_dir`; returns their paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    pygame.init()
    pygame.display.set_mode((WIDTH, HEIGHT))
    surface = pygame.Surface((WIDTH, HEIGHT))
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        app = App(saves_dir=tmp, pace=0, seed=seed, hint_spec=ADVISOR, hint_seconds=None, analysis_seconds=None)

        def shot(name: str) -> None:
            app.draw(surface)
            path = out_dir / f"{name}.png"
            pygame.image.save(surface, str(path))
            written.append(path)

        shot("main_menu")
        app.show_new_game()
        new_game = app.screen
        seat_table(new_game, SEATS)
        new_game.toggle("harmony")
        shot("new_game")

        policy = GreedyPolicy(seed)
        match = Match(SEATS, Rules(players=len(SEATS), harmony=True), seed=seed)
        play_until(match, policy, 5, placing=False)
        app.show_play(match)
        shot("draft")
        match.play(human_move(match, policy))
        play_until(match, policy, 6, placing=True)
        app.show_play(match)
        best = human_move(match, policy)
        cell, direction = divmod(best, 4)
        app.screen.set_cursor(Cursor(*divmod(cell, match.rules.frame), direction))
        shot("placement")
        app.screen.request_hint()
        app.settle(SETTLE_SECONDS)
        shot("hint")
        saves.write(tmp, match.to_save("Friday night"))

        duel = Match([Seat("Alice"), Seat("Greedy", "greedy")], Rules(), dynasty=True, seed=seed + 1)
        duel.play(human_move(duel, policy))
        saves.write(tmp, duel.to_save("Alice's dynasty"))
        edited = duel.to_save("edited by hand")
        edited["record"]["actions"][0] = 7
        Path(tmp, "edited-by-hand.json").write_text(json.dumps(edited))
        play_until(match, policy, 99, placing=True)
        app.show_scores(match)
        shot("scores")
        scores = app.screen
        scores.analyse()
        app.settle(SETTLE_SECONDS)
        analysis = app.screen
        if analysis.mistakes:
            analysis.go_to(analysis.mistakes[0][0].index)
        shot("analysis")
        app.go(scores)
        app.show_load()
        shot("load_game")
        load = app.screen
        load.selected = next(i for i, info in enumerate(load.saves) if info.name == "Friday night")
        load.resume()
        app.settle(SETTLE_SECONDS)
        shot("loaded_game")
        app.show_rules()
        shot("rules")
        app.show_dominoes(app.screen)
        shot("dominoes")
        queendomino_shots(app, shot, seed)
    written.append(royal_wedding_table(out_dir, seed))
    return written


QUEEN_SEATS = (Seat("Abdallah"), Seat("Maxime", "greedy"))
ROYAL_SEATS = (Seat("Abdallah"), Seat("Maxime", "greedy"), Seat("Kaicheng", "gprd"), Seat("Mathieu", "random"),
               Seat("Ines", "greedy"), Seat("Yuki", "random"), Seat("Olga", "gprd"), Seat("Tariq", "greedy"))


def queendomino_shots(app: App, shot: Callable[[str], None], seed: int) -> None:
    """The Queendomino and Royal Wedding screens (`shot(name)` draws the app's screen into a PNG)."""
    policy = GreedyPolicy(seed)
    queen = Match(QUEEN_SEATS, Rules(game="queendomino", players=2), seed=seed)
    play_to(queen, policy, lambda m: m.phase == BUILD and int(m.state.round[0]) >= 4
            and any(m.slot_tile(k) >= 0 and m.build_squares(k) for k in range(2, 6)))
    app.show_play(queen)
    app.screen.choose_slot(max(k for k in range(6) if queen.build_squares(k)))
    app.mouse = board_slot_rect(min(k for k in range(6) if queen.slot_tile(k) >= 0)).center
    shot("queendomino_build")
    app.mouse = (-1, -1)
    play_to(queen, policy, lambda m: m.phase == KNIGHT_STEP and len(m.knight_squares()) == 2
            and int(m.state.round[0]) >= 8)
    app.show_play(queen)
    app.screen.choose_knight(1)
    shot("queendomino_knights")
    play_to(queen, policy, lambda m: False)
    app.show_scores(queen)
    shot("queendomino_scores")

    royal = Match(ROYAL_SEATS, Rules(game="royal_wedding", players=8), seed=seed)
    play_to(royal, policy, lambda m: m.placing and int(m.state.round[0]) >= 7)
    app.show_play(royal)
    shot("royal_wedding_8p")
    play_to(royal, policy, lambda m: False)
    app.show_scores(royal)
    shot("royal_wedding_8p_scores")

    teams = Match(ROYAL_SEATS[:6], Rules(game="royal_wedding", players=6, teams=True), seed=seed)
    play_to(teams, policy, lambda m: m.placing and int(m.state.round[0]) >= 6)
    app.show_play(teams)
    shot("royal_wedding_teams")

    app.show_new_game()
    new_game = app.screen
    new_game.set_game("royal_wedding")
    seat_table(new_game, ROYAL_SEATS)
    new_game.toggle("teams")
    shot("new_game_royal_wedding")


def seat_table(new_game: NewGameScreen, seats: Sequence[Seat]) -> None:
    """Fill New Game's seats as a person would: the player count, then each seat's kind and name."""
    new_game.set_players(len(seats))
    for i, seat in enumerate(seats):
        new_game.kinds[i] = seat.kind
        new_game.fields[i].value = seat.name


def royal_wedding_table(out_dir: Path, seed: int) -> Path:
    """The env's `rgb_array` picture of an 8-player Royal Wedding half-way (`drawing.rgb_array`)."""
    match = Match([Seat(s.name, "greedy") for s in ROYAL_SEATS], Rules(game="royal_wedding", players=8), seed=seed)
    while int(match.state.round[0]) < 6:
        match.play_agent()
    image = drawing.rgb_array(match.state, names=match.names)
    path = out_dir / "render_royal_wedding.png"
    pygame.image.save(pygame.surfarray.make_surface(image.transpose(1, 0, 2)), str(path))
    return path


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m kingdomino_app.screenshots`."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", nargs="?", default="docs/screenshots",
                        help="folder to draw the PNGs into (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=3, help="seed of the games drawn (default: %(default)s)")
    return parser


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    for path in make_screenshots(args.out_dir, args.seed):
        print(path)


if __name__ == "__main__":
    main()
