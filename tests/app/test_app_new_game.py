"""New Game: only agents that can play the chosen variant are offered; a seat that cannot play is refused with a
wrapped message; the quest toggle deals 2 random quests."""

from __future__ import annotations

import pygame
import pytest

import agents
from kingdomino_app.screens.new_game import NewGameScreen
from kingdomino_app.screens.play import PlayScreen
from kingdomino_app.seats import KINDS, STRENGTHS, Seat, default_name, kind_label
from kingdomino_app.ui import HEIGHT, WIDTH, Canvas
from kingdomino_env.games.kingdomino.quests import names
from kingdomino_env.rules import Rules

WINDOW = pygame.Rect(0, 0, WIDTH, HEIGHT)


def drawn(driver) -> list[tuple[str, pygame.Rect]]:
    """The texts the current screen draws, with their rects."""
    canvas = Canvas(driver.surface)
    driver.app.screen.draw(canvas)
    return list(zip(canvas.texts, canvas.rects, strict=True))


def new_game(driver) -> NewGameScreen:
    driver.click("New Game")
    screen = driver.app.screen
    assert isinstance(screen, NewGameScreen)
    return screen


def test_the_shipped_ppo_plays_only_two_player_games_without_quests():
    """The premise of the tests below (if ppo learns more variants, they must pick another unsupported one)."""
    assert agents.supports("ppo", Rules(2))
    assert not any(agents.supports("ppo", r) for r in (Rules(3), Rules(4), Rules(2, mighty_duel=True),
                                                       Rules(2, random_quests=2)))


def test_two_players_without_options_offer_ppo(driver):
    new_game(driver)
    seen = {driver.app.screen.kinds[1]}
    for _ in range(len(KINDS)):
        driver.click(kind_label(driver.app.screen.kinds[1]))
        seen.add(driver.app.screen.kinds[1])
    assert seen == set(KINDS)


@pytest.mark.parametrize("setup", ["3 players", "4 players", "Mighty Duel: Off", "Quests: Off"])
def test_cycling_kinds_never_lands_on_an_agent_that_cannot_play(driver, setup):
    screen = new_game(driver)
    driver.click(setup)
    for seat in range(screen.players):
        seen = set()
        for _ in range(2 * len(KINDS)):
            button = [b for b in screen.buttons() if b.rect.y == 180 + seat * 80 and b.rect.x == 600][0]
            driver.click_at(button.rect.center)
            seen.add(screen.kinds[seat])
        assert "ppo" not in seen and {"human", "random", "greedy", "mcts"} <= seen, (setup, seat, seen)


@pytest.mark.parametrize("setup", ["3 players", "Mighty Duel: Off", "Quests: Off"])
def test_a_ppo_seat_moves_to_an_agent_that_can_play_when_the_variant_changes(driver, setup):
    screen = new_game(driver)
    while screen.kinds[1] != "ppo":
        driver.click(kind_label(screen.kinds[1]))
    assert screen.kinds[1] == "ppo" and screen.seats()[1].name == "PPO"
    driver.click(setup)
    assert screen.kinds[1] not in ("ppo", "human")
    assert agents.supports(screen.kinds[1], screen.rules())
    assert screen.seats()[1].name == default_name(screen.kinds[1], 1)
    texts = [t for t, _ in drawn(driver)]
    note = " ".join(texts)
    assert "Player 2 is now" in note and "ppo cannot play this variant" in note


def test_start_with_a_seat_that_cannot_play_shows_a_wrapped_error_and_stays(driver):
    screen = new_game(driver)
    driver.click("3 players")
    screen.kinds[1] = "ppo"  # as if set behind the screen's back: Start Game checks once more
    driver.click("Start Game")
    assert isinstance(driver.app.screen, NewGameScreen)
    assert screen.error.startswith("Cannot start: ppo plays 2-player games")
    lines = [(t, r) for t, r in drawn(driver) if len(t) > 10 and t.rstrip(". ") in screen.error]
    assert len(lines) >= 2, "the message is long enough to wrap"
    assert all(WINDOW.contains(r) for _, r in lines)
    buttons = [b.rect for b in screen.buttons()]
    assert not any(r.colliderect(b) for _, r in lines for b in buttons)


def test_an_unknown_agent_spec_is_refused_inside_the_window(driver):
    screen = new_game(driver)
    screen.kinds[1] = "nosuchagent:" + "x" * 150
    driver.click("Start Game")
    assert isinstance(driver.app.screen, NewGameScreen)
    assert screen.error.startswith("Cannot start: unknown agent spec")
    assert all(WINDOW.contains(r) for _, r in drawn(driver))


def test_quest_toggle_deals_two_random_quests(driver):
    screen = new_game(driver)
    texts = driver.frame()
    assert "Quests: Off" in texts and any("quest cards dealt per game" in t for t in texts)
    texts = driver.click("Quests: Off")
    assert "Quests: 2 random" in texts and screen.rules().random_quests == 2
    driver.click("Start Game")
    assert isinstance(driver.app.screen, PlayScreen)
    match = driver.app.screen.match
    assert match.rules.random_quests == 2 and len(names(match.state.quests[0])) == 2
    driver.app.show_new_game()
    driver.click("Quests: Off")
    driver.click("Quests: 2 random")
    driver.click("Start Game")
    assert driver.app.screen.match.rules.random_quests == 0


def test_every_new_game_text_stays_inside_the_window_and_apart(driver):
    screen = new_game(driver)
    driver.click("4 players")
    driver.click("Quests: Off")
    for field in screen.fields:
        field.value = "W" * 16
    texts = drawn(driver)
    assert all(WINDOW.contains(r) for _, r in texts)
    fields = [f.rect for f in screen.fields]
    names_drawn = [r for t, r in texts if t.startswith("WWW")]
    assert len(names_drawn) == 4 and all(any(f.contains(r) for f in fields) for r in names_drawn)
    overlaps = [(a, b) for i, (a, ra) in enumerate(texts) for b, rb in texts[i + 1:] if ra.colliderect(rb)]
    assert not overlaps and len(texts) > 20


def test_every_agent_and_the_levels_of_play_are_offered():
    names = {spec.split("[")[0].split(":")[0] for spec in agents.SPECS if not agents.is_external(spec)}
    assert names <= {kind.split(":")[0] for kind in KINDS}, "every agent of the registry is offered"
    assert [kind_label(spec) for spec in STRENGTHS.values()] == [
        "Easy: gprd", "Medium: greedy", "Hard: mc:0.25s", "Expert: mc:1s", "Master: csearch:1s"]
    assert all(agents.supports(spec, rules) for spec in STRENGTHS.values()
               for rules in (Rules(2), Rules(2, mighty_duel=True), Rules(4), Rules(2, game="queendomino"),
                             Rules(8, game="royal_wedding", teams=True)))


def test_a_typed_agent_spec_is_checked_against_the_variant(driver):
    screen = new_game(driver)
    driver.click("Queendomino")
    spec_buttons = [b for b in screen.buttons() if b.label == "Spec"]
    driver.click_at(spec_buttons[1].rect.center)
    assert screen.spec_seat == 1 and screen.spec_field.value == "greedy"
    driver.clear_and_type("heuristic")
    texts = driver.key(pygame.K_RETURN)
    assert screen.spec_seat == 1 and screen.kinds[1] == "greedy", "refused: the field stays open"
    assert any("Queendomino" in t for t in texts) and screen.error.startswith("Agent spec 'heuristic'")
    driver.clear_and_type("nosuchagent")
    driver.key(pygame.K_RETURN)
    assert "unknown" in screen.error.lower() or "valid" in screen.error.lower()
    driver.clear_and_type("mcts:2")
    texts = driver.key(pygame.K_RETURN)
    assert screen.spec_seat is None and screen.kinds[1] == "mcts:2" and "Agent: mcts:2" in texts
    assert screen.seats()[1] == Seat("MCTS", "mcts:2")
    driver.click_at(spec_buttons[1].rect.center)
    driver.key(pygame.K_ESCAPE)
    assert screen.spec_seat is None and screen.kinds[1] == "mcts:2" and isinstance(screen, NewGameScreen)
    assert driver.app.screen is screen, "Escape closed the field, not the screen"


def test_the_option_rows_are_the_on_off_rules_options_of_the_chosen_game(driver):
    from kingdomino_app.screens.new_game import HIDDEN_OPTIONS, RULE_FLAGS

    screen = new_game(driver)
    assert [o.name for o in RULE_FLAGS] == [o.name for o in Rules.options()
                                            if o.type is bool and o.name not in HIDDEN_OPTIONS]
    rows = {}
    for game in ("kingdomino", "queendomino", "royal_wedding"):
        screen.set_game(game)
        rows[game] = [key for key, _, _ in screen.option_rows()]
    assert rows == {"kingdomino": ["mighty_duel", "harmony", "middle_kingdom", "dynasty", "quests"],
                    "queendomino": ["dynasty"], "royal_wedding": ["teams", "dynasty"]}
    screen.set_players(7)
    assert not screen.option_enabled("teams")
    screen.set_players(6)
    screen.toggle("teams")
    assert screen.rules() == Rules(6, game="royal_wedding", teams=True)
    screen.set_game("kingdomino")
    assert screen.players == 4 and not screen.option_enabled("mighty_duel") and screen.option_enabled("harmony")
    screen.set_players(2)
    screen.toggle("mighty_duel")
    screen.toggle_quests()
    assert screen.rules() == Rules(2, mighty_duel=True, random_quests=2)
