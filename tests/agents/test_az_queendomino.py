"""`az` on Queendomino and the Royal Wedding: search with a network plays only legal actions (2-4 players, the
Royal Wedding individual and in teams), is reproducible, never reads the undrawn dominoes' or building tiles' order,
backs up values per kingdom (a team's in team games); their network files round-trip and say their game, and a
network is refused for another game before play. The shipped Kingdomino networks still play exactly as before.

Networks here are tiny and untrained; the shipped ones are used only by the tests that skip when they are missing.
"""

from __future__ import annotations

import hashlib
import json
import zipfile

import numpy as np
import pytest

import agents
from agents import AgentSpecError
from agents.az.agent import AZAgent
from agents.az.files import SHIPPED, SHIPPED_QUEEN, read_info
from agents.az.search import SearchConfig
from kingdomino_env import core
from kingdomino_env.games.dominoes import N_DOMINOES
from kingdomino_env.rules import Rules
from tests.az_files import placeholder_weights
from tests.variants import advance, assert_seed_fixes_moves, play_batch
from tournament import TournamentConfig

torch = pytest.importorskip("torch")

from agents.az.features import encode  # noqa: E402
from agents.az.files import load_network, save_network  # noqa: E402
from agents.az.network import NetConfig, QueenAZNet, make_network  # noqa: E402
from agents.az.search import NetworkEvaluator, PUCTSearch, utilities  # noqa: E402

TINY = NetConfig(channels=8, blocks=1, hidden=16)
VARIANTS = {
    "queendomino-2p": Rules(2, game="queendomino"),
    "queendomino-3p": Rules(3, game="queendomino"),
    "queendomino-4p": Rules(4, game="queendomino"),
    "royal-wedding-4p": Rules(4, game="royal_wedding"),
    "royal-wedding-6p-teams": Rules(6, game="royal_wedding", teams=True),
}
FAST = SearchConfig(batch=4)


@pytest.fixture(scope="module")
def nets(tmp_path_factory) -> dict[str, object]:
    """Tiny untrained network files by game."""
    folder = tmp_path_factory.mktemp("az_queen_nets")
    torch.manual_seed(0)
    paths = {}
    for game, frame in (("queendomino", 13), ("royal_wedding", 9)):
        paths[game] = folder / f"tiny_{game}.az"
        save_network(paths[game], make_network(game, frame, TINY), [2] if game == "queendomino" else [4, 6],
                     {"note": "untrained"})
    return paths


# Legal play ----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_search_plays_only_legal_actions(variant, nets):
    """`play_batch` asserts every action's legality; az moves for every seat of whole games (a batch of two in the
    2-player game, one game in the longer ones)."""
    rules = VARIANTS[variant]
    agent = AZAgent(simulations=4, network=nets[rules.game], seed=1, config=FAST)
    state = play_batch(rules, agent, 2 if rules.players == 2 else 1, 5)
    assert state.is_over.all() and agent.simulations_run > 0


def test_the_policy_alone_uses_every_kind_of_queendomino_action(nets):
    """With no search the network's argmax over the legal actions is played; a game goes through placements,
    picks and some of the knight, build, Dragon and PASS actions: the heads past Kingdomino's are read in the
    core's layout."""
    rules = VARIANTS["queendomino-2p"]
    agent = AZAgent(simulations=0, network=nets["queendomino"], seed=0)
    state = core.new_games(rules, [3])
    kinds = set()
    while not state.is_over[0]:
        mask = core.legal_action_mask(state)
        action = int(agent.act(state, np.array([0]), mask, None)[0])
        assert mask[0, action]
        if mask[0].sum() > 1:
            kinds.add(rules.describe_action(action).split()[0])
        core.step(state, [action])
    assert {"place", "pick"} <= kinds and len(kinds & {"knight", "build", "dragon", "pass"}) >= 2


# Reproducibility -----------------------------------------------------------------------------------------------------
def test_the_same_seed_gives_the_same_moves(nets):
    config = SearchConfig(batch=4, noise=0.5)
    first, second, other = (AZAgent(simulations=6, network=nets["queendomino"], seed=seed, config=config)
                            for seed in (21, 21, 22))
    assert_seed_fixes_moves(first, second, other, core.new_games(VARIANTS["queendomino-2p"], [3]), steps=40)
    assert first.simulations_run == second.simulations_run > 0


# Hidden information --------------------------------------------------------------------------------------------------
def before_a_draw(rules: Rules, seed: int) -> core.State:
    """A game (random moves) where the last king of a round (not the first or last) is to place."""
    state = core.new_games(rules, [seed])
    rng = np.random.default_rng(seed)
    while True:
        mask = core.legal_action_mask(state)
        last_turn = state.phase[0] == core.PLACE and state.turn[0] == rules.kings - 1
        if last_turn and state.round[0] >= 2 and (state.next_line[0] >= 0).any() and mask[0].sum() > 1:
            return state
        core.step(state, core.random_legal_actions(mask, rng))
        assert not state.is_over[0], "no position before a draw found"


def reorder_hidden(state: core.State, rng: np.random.Generator) -> core.State:
    """A copy with the undrawn dominoes reordered (within each box's positions in the Royal Wedding) and the
    building pile's undrawn tiles reordered."""
    hidden = state.copy()
    drawn, drawn_tiles = int(state.drawn[0]), int(state.pile_pos[0])
    rest = hidden.deck[0, drawn:]
    for box in (rest < N_DOMINOES, rest >= N_DOMINOES):
        rest[box] = rng.permutation(rest[box])
    hidden.pile[0, drawn_tiles:] = rng.permutation(hidden.pile[0, drawn_tiles:])
    assert (hidden.deck != state.deck).any() and (hidden.pile != state.pile).any()
    return hidden


@pytest.mark.parametrize("variant", ["queendomino-2p", "royal-wedding-6p-teams"])
def test_hidden_orders_do_not_change_a_decision(variant, nets):
    """Neither the undrawn dominoes' order nor the building pile's is known to any player: replacing them must
    change neither the root statistics nor the move, where the search reaches the next line's draw."""
    rules = VARIANTS[variant]
    net, _ = load_network(nets[rules.game])
    rng = np.random.default_rng(5)
    for seed in (11, 12):
        state = before_a_draw(rules, seed)
        hidden = reorder_hidden(state, rng)
        games, mask = np.array([0]), core.legal_action_mask(state)
        stats = []
        for s in (state, hidden):
            search = PUCTSearch(NetworkEvaluator(net), SearchConfig(batch=8), np.random.default_rng(9))
            visits, roots = search.run(s, games, mask, simulations=48)
            stats.append((visits[0], roots[0].total))
        assert np.array_equal(stats[0][0], stats[1][0]) and np.array_equal(stats[0][1], stats[1][1])
        chosen = [AZAgent(simulations=16, network=nets[rules.game], seed=4, config=FAST).act(s, games, mask, None)[0]
                  for s in (state, hidden)]
        assert chosen[0] == chosen[1]


# Values per kingdom --------------------------------------------------------------------------------------------------
def test_the_evaluator_gives_each_seat_its_kingdoms_utility_in_team_games(nets):
    rules = VARIANTS["royal-wedding-6p-teams"]
    state = advance(rules, [3, 4, 5], steps=25)
    net, _ = load_network(nets["royal_wedding"])
    logits, util = NetworkEvaluator(net, margin_weight=0.3)(state)
    raw, win, margin = net.run(encode(core.observe(state), rules))
    assert np.array_equal(logits, raw) and logits.shape == (3, rules.n_actions)
    assert win.shape == (3, rules.kingdoms) and util.shape == (3, rules.players)
    for b in range(state.batch_size):
        own = int(state.current_kingdom[b])
        for k in range(rules.kingdoms):
            expected = utilities(win[b, k].astype(float), margin[b, k].astype(float), 0.3)
            for seat in rules.kingdom_seats((own + k) % rules.kingdoms):
                assert util[b, seat] == pytest.approx(expected)


def test_team_games_search_for_the_team(nets):
    """Root statistics are the mover's team's utilities: in [0, 1], and the root's player is the seat to move."""
    rules = VARIANTS["royal-wedding-6p-teams"]
    state = advance(rules, [7, 8], steps=30)
    net, _ = load_network(nets["royal_wedding"])
    games, mask = np.arange(2), core.legal_action_mask(state)
    visits, roots = PUCTSearch(NetworkEvaluator(net), FAST, np.random.default_rng(0)).run(state, games, mask, 12)
    for b, root in enumerate(roots):
        assert root.player == int(state.current_player[b]) and visits[b].sum() == 12
        assert (visits[b][~mask[b]] == 0).all()
        q = root.total[root.visits > 0] / root.visits[root.visits > 0]
        assert ((q >= 0) & (q <= 1)).all()


# Network files -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["queendomino-2p", "queendomino-4p", "royal-wedding-6p-teams"])
def test_a_saved_network_round_trips(variant, tmp_path):
    rules = VARIANTS[variant]
    torch.manual_seed(1)
    net = make_network(rules.game, rules.frame, NetConfig(channels=8, blocks=2, hidden=16)).eval()
    assert isinstance(net, QueenAZNet) and net.game == rules.game
    path = tmp_path / "net.az"
    save_network(path, net, [rules.players], {"games": 3})
    with zipfile.ZipFile(path) as archive:
        assert json.loads(archive.read("meta.json"))["game"] == rules.game
    info = read_info(path)
    assert (info.game, info.frame, info.players) == (rules.game, rules.frame, (rules.players,))
    assert info.plays(rules) and not info.plays(Rules(2)) and not info.plays(Rules(2, mighty_duel=True))
    loaded, loaded_info = load_network(path)
    assert loaded_info == info and isinstance(loaded, QueenAZNet) and not loaded.training
    inputs = encode(core.observe(advance(rules, [1, 2, 3], 20)), rules)
    for before, after in zip(net.run(inputs), loaded.run(inputs), strict=True):
        assert np.array_equal(before, after)
    logits, win, margin = loaded.run(inputs)
    assert logits.shape == (3, rules.n_actions) and win.shape == margin.shape == (3, rules.kingdoms)
    assert np.allclose(win.sum(axis=1), 1)


def test_a_queendomino_network_plays_every_queendomino_frame_and_no_other_game(nets):
    info = read_info(nets["queendomino"])
    assert info.game == "queendomino" and info.frame == 13
    assert all(info.plays(Rules(p, game="queendomino")) for p in (2, 3, 4))
    assert not info.plays(Rules(4, game="royal_wedding")) and not info.plays(Rules(2, mighty_duel=True))
    assert "every Queendomino variant (trained for 2 players)" == info.describe()


def test_a_file_without_a_game_is_a_kingdomino_network(tmp_path):
    path = tmp_path / "old.az"
    meta = {"format": "kingdomino-az", "version": 1, "frame": 9, "players": [2],
            "config": {"channels": 8, "blocks": 1, "hidden": 16}}
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("meta.json", json.dumps(meta))
        archive.writestr("weights.pt", placeholder_weights())
    info = read_info(path)
    assert info.game == "kingdomino" and info.plays(Rules(3)) and not info.plays(Rules(3, game="queendomino"))


@pytest.mark.parametrize(("changes", "message"), [
    ({"game": "chess"}, "game must be one of kingdomino, queendomino, royal_wedding, got 'chess'"),
    ({"game": "royal_wedding", "players": [2]}, r"players must be a non-empty list of 3, 4, 5, 6, 7, 8 \(the Royal"),
    ({"game": "queendomino", "players": [6]}, r"players must be a non-empty list of 2, 3, 4 \(Queendomino\)"),
])
def test_bad_games_in_network_files_are_refused_clearly(changes, message, tmp_path):
    path = tmp_path / "bad.az"
    meta = {"format": "kingdomino-az", "version": 1, "frame": 9, "players": [4],
            "config": {"channels": 8, "blocks": 1, "hidden": 16}, **changes}
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("meta.json", json.dumps(meta))
        archive.writestr("weights.pt", b"placeholder")
    with pytest.raises(ValueError, match=message):
        read_info(path)


# Wrong game ----------------------------------------------------------------------------------------------------------
def test_a_network_of_another_game_is_refused_before_play(nets):
    queen, royal = nets["queendomino"], nets["royal_wedding"]
    with pytest.raises(AgentSpecError, match=r"plays every Queendomino variant.*4-player Royal Wedding game"):
        agents.check_supports(f"az:8:{queen}", VARIANTS["royal-wedding-4p"])
    with pytest.raises(AgentSpecError, match=r"plays every Queendomino variant.*2-player game"):
        agents.check_supports(f"az:{queen}", Rules(2))
    with pytest.raises(ValueError, match="plays every Royal Wedding variant"):
        TournamentConfig(agents=(f"az:{royal}", "greedy"), rules=VARIANTS["queendomino-3p"])
    agents.check_supports(f"az:{royal}", VARIANTS["royal-wedding-6p-teams"])
    agent = agents.load(f"az:8:{queen}", seed=0)
    state = core.new_games(VARIANTS["royal-wedding-4p"], [0])
    with pytest.raises(ValueError, match="plays every Queendomino variant.*not this variant"):
        agent.act(state, np.array([0]), core.legal_action_mask(state), None)
    assert agent.simulations_run == 0


# Shipped networks ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["queendomino-2p", "queendomino-3p", "royal-wedding-4p", "royal-wedding-6p-teams"])
def test_the_shipped_networks_of_queendomino_and_the_royal_wedding_play_a_legal_game(variant):
    rules = VARIANTS[variant]
    assert read_info(SHIPPED_QUEEN[rules.game]).game == rules.game
    agents.check_supports("az", rules)
    agent = agents.load("az:8", seed=0)
    assert play_batch(rules, agent, 1, 31, hero_seat_only=True).is_over.all()
    assert agent.simulations_run > 0


#: sha256 (first 16 hex digits) of the actions and final scores of a seed-7 game of az:8 (all seats) with the PUCT
#: root and with Gumbel's (the default), and of a seed-3 game of az:0, with the shipped Kingdomino networks, keyed by
#: the network file's own sha256 (first 16): code changes must not change how a network file plays; a newly
#: published network records its own digests, and so does a change of the worlds the search samples (the core's
#: compiled sampler, `games.compiled.resample`).
KINGDOMINO_DIGESTS = {
    "2p": ("d829f97473b2a122", "faea9141893e9ff1", "370c7d3cede0a162", "8a563ae301834397"),
    "mighty-duel": ("7c45121e89a956a7", "6b1b66892f7434d5", "1ca48e3207d2b4db", "25e949e91de0d604"),
}


def game_digest(rules: Rules, simulations: int, seed: int, root: str = "gumbel") -> str:
    agent = AZAgent(simulations=simulations, seed=seed, config=SearchConfig(root=root))
    state = core.new_games(rules, [seed])
    digest = hashlib.sha256()
    while not state.is_over.all():
        action = agent.act_batch(state, np.array([0]), core.legal_action_mask(state), None)
        digest.update(int(action[0]).to_bytes(4, "little"))
        core.step(state, action)
    digest.update(state.scores.tobytes())
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("variant", list(KINGDOMINO_DIGESTS))
def test_the_shipped_kingdomino_networks_play_exactly_as_before(variant):
    rules = Rules(2, mighty_duel=variant == "mighty-duel")
    if not SHIPPED[(rules.frame, rules.players)].is_file():
        pytest.skip("the shipped Kingdomino az network is not in this checkout")
    network, searched, gumbel, policy = KINGDOMINO_DIGESTS[variant]
    path = SHIPPED[(rules.frame, rules.players)]
    assert hashlib.sha256(path.read_bytes()).hexdigest()[:16] == network, f"{path} was republished: record its digests"
    assert game_digest(rules, 8, 7, "puct") == searched
    assert game_digest(rules, 8, 7) == gumbel
    assert game_digest(rules, 0, 3) == policy
