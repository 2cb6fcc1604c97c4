"""`az` agents: PUCT search guided by a network plays only legal moves in every variant, finds certain wins, is
reproducible, never reads the hidden deck order, and refuses networks of other variants before play; network files
round-trip and damaged ones are refused with a clear message.

Networks here are tiny and untrained (saved into tmp folders); the shipped ones are only used by the one test that
skips when they are missing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

import agents
from agents import AgentSpecError, Budget
from agents.az.agent import DEFAULT_SIMULATIONS, AZAgent
from agents.az.files import SHIPPED, read_info
from agents.registry import AZMC_DEFAULT_SIMULATIONS, parse_spec
from kingdomino_env import core
from kingdomino_env.games.dominoes import N_DOMINOES
from kingdomino_env.rules import Rules
from tests.az_files import TINY, meta, placeholder_weights, write_archive
from tests.variants import KINGDOMINO_VARIANTS, advance, assert_seed_fixes_moves, play_batch
from tournament import TournamentConfig

VARIANTS = KINGDOMINO_VARIANTS


# Helpers -------------------------------------------------------------------------------------------------------------
def sole_win(state: core.State, player: int) -> bool:
    ranks = core.ranks(state)[0]
    return bool(ranks[player] == 0 and (ranks == 0).sum() == 1)


def forced_win(state: core.State, player: int) -> bool:
    """Whether `player` wins alone against every defence (exact minimax; the game's rest must be known)."""
    if state.is_over[0]:
        return sole_win(state, player)
    outcomes = []
    for action in np.flatnonzero(core.legal_action_mask(state)[0]):
        child = state.copy()
        core.step(child, [action])
        outcomes.append(forced_win(child, player))
    return any(outcomes) if int(state.current_player[0]) == player else all(outcomes)


def winning_positions(wanted: int, max_seeds: int = 300) -> list[tuple[core.State, list[int], int]]:
    """`wanted` (state, winning actions, legal count) positions of the last round of 2-player games (no domino is
    hidden any more, so the rest is exact) where the mover has at least 3 legal actions, some win by force and most
    do not. Games are Full Greedy with 30% random moves, seeded 0, 1, ...; deterministic."""
    rules = Rules(2)
    found = []
    for seed in range(max_seeds):
        rng = np.random.default_rng(seed)
        greedy = agents.load("greedy", seed=seed)
        state = core.new_games(rules, [seed])
        while not state.is_over[0]:
            mask = core.legal_action_mask(state)
            legal = np.flatnonzero(mask[0])
            last_round = state.phase[0] == core.PLACE and (state.next_line[0] < 0).all()
            if last_round and legal.size >= 3:
                player = int(state.current_player[0])
                wins = []
                for action in legal:
                    child = state.copy()
                    core.step(child, [action])
                    if forced_win(child, player):
                        wins.append(int(action))
                if wins and 2 * len(wins) < legal.size:
                    found.append((state.copy(), wins, legal.size))
                    if len(found) == wanted:
                        return found
            if rng.random() < 0.3:
                core.step(state, core.random_legal_actions(mask, rng))
            else:
                core.step(state, greedy.act(state, np.array([0]), mask, None))
    return found


# Fixtures ------------------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def nets(tmp_path_factory) -> dict[int, Path]:
    """Tiny untrained networks by frame (9: 5x5 kingdoms, 13: the Mighty Duel), for 2-4 players."""
    torch = pytest.importorskip("torch")
    from agents.az.files import save_network
    from agents.az.network import AZNet, NetConfig

    folder = tmp_path_factory.mktemp("az_nets")
    torch.manual_seed(0)
    paths = {}
    for frame in (9, 13):
        paths[frame] = folder / f"tiny_{frame}.az"
        save_network(paths[frame], AZNet(frame, NetConfig(**TINY)), [2, 3, 4], {"note": "untrained"})
    return paths


@pytest.fixture
def labels(tmp_path) -> dict[int, Path]:
    """Network files with valid metadata but placeholder weights: enough for every check that loads no network
    (spec parsing, variant checks), so those tests run without torch."""
    return {frame: write_archive(tmp_path / f"meta_{frame}.az", meta(frame)) for frame in (9, 13)}


# 1. Legal play -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_search_plays_only_legal_actions_in_every_variant(variant, nets):
    """A batch of two games in the basic 2-player game, one game in each other variant."""
    rules = VARIANTS[variant]
    agent = AZAgent(simulations=8, network=nets[rules.frame], seed=1)
    state = play_batch(rules, agent, 2 if variant == "2p" else 1, 5)
    assert state.is_over.all()
    assert agent.simulations_run > 0


def test_the_policy_alone_plays_legal_games_in_every_variant(nets):
    for rules in VARIANTS.values():
        agent = agents.load(f"az:0:{nets[rules.frame]}", seed=2)
        assert play_batch(rules, agent, 1, 7).is_over.all()
        assert agent.simulations_run == 0


def test_a_seconds_budget_plays_a_legal_game(nets):
    agent = agents.load(f"az:0.01s:{nets[9]}", seed=3)
    assert isinstance(agent, AZAgent) and agent.seconds == 0.01 and agent.simulations is None
    assert play_batch(Rules(2), agent, 1, 8, hero_seat_only=True).is_over.all()
    assert agent.simulations_run > 0


def test_a_single_legal_action_is_played_without_search(nets):
    state = advance(Rules(2), [4], 6)
    mask = core.legal_action_mask(state)
    only = np.zeros_like(mask)
    only[0, np.flatnonzero(mask[0])[-1]] = True
    agent = AZAgent(simulations=16, network=nets[9], seed=0)
    assert agent.act(state, np.array([0]), only, None)[0] == np.flatnonzero(mask[0])[-1]
    assert agent.simulations_run == 0


@pytest.mark.parametrize(("kwargs", "message"), [({"simulations": None}, "either simulations or seconds"),
                                                 ({"simulations": 8, "seconds": 1.0}, "either simulations or seconds")])
def test_the_agent_needs_exactly_one_budget(kwargs, message):
    with pytest.raises(ValueError, match=message):
        AZAgent(**kwargs)


# 2. Certain wins -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("root", "leaves"), [("puct", "network"), ("gumbel", "network"), ("gumbel", "playout")])
def test_search_finds_a_forced_win_in_the_last_round(nets, root, leaves):
    """In the last round nothing is hidden and terminal values are exact, so even an untrained network's search
    must find a move that wins against every defence where most moves do not, with either root and either leaf
    evaluation (the heuristic playouts play the last round exactly; the exact endgame solver turned off, so the
    search itself is tested); with the solver on, no simulation is spent."""
    from agents.az.search import SearchConfig

    positions = winning_positions(wanted=2)
    assert len(positions) == 2, "no last-round position with a forced win found in the seeds scanned"
    for k, (state, wins, n_legal) in enumerate(positions):
        assert 0 < len(wins) < n_legal / 2
        for endgame in (False, True):
            agent = AZAgent(simulations=200, network=nets[9], seed=k,
                            config=SearchConfig(root=root, gumbel_scale=0.0, endgame=endgame, leaves=leaves))
            action = int(agent.act(state, np.array([0]), core.legal_action_mask(state), None)[0])
            assert action in wins, f"position {k}, endgame {endgame}: chose {action}, winning moves {wins}"
            assert agent.simulations_run == (0 if endgame else 200)


def test_leaves_in_the_last_round_take_the_exact_outcome(nets):
    """A leaf placing in its last round is valued by best play (`kingdomino_endgame`), not by the network or a
    playout: the values are those of the solved game, whatever the network says."""
    from agents.az.files import load_network
    from agents.az.search import NetworkEvaluator, PUCTSearch, SearchConfig, terminal_outcomes
    from agents.kingdomino_endgame import play_final_round

    net, _ = load_network(nets[9])
    state, _, _ = winning_positions(wanted=1)[0]
    search = PUCTSearch(NetworkEvaluator(net), SearchConfig(), np.random.default_rng(0))
    _, _, wins, margins = search.evaluate(state.copy())
    exact_wins, exact_margins = terminal_outcomes(play_final_round(state.copy()))
    np.testing.assert_array_equal(wins, exact_wins)
    np.testing.assert_array_equal(margins, exact_margins)
    _, _, mixed_wins, _ = PUCTSearch(NetworkEvaluator(net), SearchConfig(endgame=False),
                                     np.random.default_rng(0)).evaluate(state.copy())
    assert not np.array_equal(mixed_wins, exact_wins)


# 3. Reproducibility --------------------------------------------------------------------------------------------------
def test_the_same_seed_gives_the_same_moves(nets):
    """Root noise makes every decision depend on the seed, so equal moves show that the seed fixes them all (an agent
    with another seed must differ somewhere, or the comparison would prove nothing)."""
    from agents.az.search import SearchConfig

    config = SearchConfig(batch=4, noise=0.5)
    first, second, other = (AZAgent(simulations=8, network=nets[9], seed=seed, config=config)
                            for seed in (21, 21, 22))
    assert_seed_fixes_moves(first, second, other, core.new_games(Rules(3), [3]))
    assert first.simulations_run == second.simulations_run > 0


def test_the_same_seed_gives_the_same_moves_with_playout_leaves(nets):
    """Without a tree every simulation is a sampled world played out, so the seed fixes the worlds, the playouts'
    tie-breaks and the Gumbel noise: equal seeds, equal moves; another seed differs somewhere."""
    from agents.az.search import SearchConfig

    config = SearchConfig(leaves="playout", playout="greedy", gumbel_scale=1.0, flat_batch=8)
    first, second, other = (AZAgent(simulations=24, network=nets[9], seed=seed, config=config)
                            for seed in (21, 21, 22))
    assert_seed_fixes_moves(first, second, other, core.new_games(Rules(3), [3]))
    assert first.simulations_run == second.simulations_run > 0


# 4. Hidden information -----------------------------------------------------------------------------------------------
def before_a_draw(rules: Rules, seed: int) -> core.State:
    """A game (random moves) where the last king of a round (not the first or last round) is to place: a search
    reaches the next line's draw two actions deep (place, then the forced last pick)."""
    state = core.new_games(rules, [seed])
    rng = np.random.default_rng(seed)
    while True:
        mask = core.legal_action_mask(state)
        last_turn = state.phase[0] == core.PLACE and state.turn[0] == rules.kings - 1
        if last_turn and state.round[0] >= 1 and (state.next_line[0] >= 0).any() and mask[0].sum() > 1:
            return state
        core.step(state, core.random_legal_actions(mask, rng))
        assert not state.is_over[0], "no position before a draw found"


@pytest.mark.parametrize("leaves", ["network", "playout"])
@pytest.mark.parametrize("players", [2, 4])
def test_the_hidden_deck_does_not_change_a_decision(players, leaves, nets):
    """The order of the undrawn dominoes (and, in 2-player games, which stay in the box) is unknown to every player:
    replacing it must change neither the search's root statistics nor the move, even where the search sees the next
    line drawn."""
    from agents.az.files import load_network
    from agents.az.search import NetworkEvaluator, PUCTSearch, SearchConfig

    rules = Rules(players)
    net, _ = load_network(nets[9])
    rng = np.random.default_rng(5)
    for seed in (11, 12, 13):
        state = before_a_draw(rules, seed)
        hidden = state.copy()
        drawn = int(state.drawn[0])
        if players == 2:
            unseen = np.setdiff1d(np.arange(N_DOMINOES), state.deck[0, :drawn])
            hidden.deck[0, drawn:] = rng.choice(unseen, size=state.deck.shape[1] - drawn, replace=False)
            assert set(hidden.deck[0]) != set(state.deck[0])
        else:
            hidden.deck[0, drawn:] = rng.permutation(state.deck[0, drawn:])
        assert (hidden.deck != state.deck).any()
        games, mask = np.array([0]), core.legal_action_mask(state)
        stats = []
        for s in (state, hidden):
            search = PUCTSearch(NetworkEvaluator(net), SearchConfig(batch=8, leaves=leaves), np.random.default_rng(9))
            visits, roots = search.run(s, games, mask, simulations=48)
            stats.append((visits[0], roots[0].total))
        assert np.array_equal(stats[0][0], stats[1][0]) and np.array_equal(stats[0][1], stats[1][1])
        chosen = [AZAgent(simulations=16, network=nets[9], seed=4, config=SearchConfig(leaves=leaves)).act(
            s, games, mask, None)[0] for s in (state, hidden)]
        assert chosen[0] == chosen[1]


# 5. Network files ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("rules", [Rules(2), Rules(4, harmony=True), Rules(2, mighty_duel=True)])
def test_a_saved_network_round_trips(rules, tmp_path):
    torch = pytest.importorskip("torch")
    from agents.az.features import encode
    from agents.az.files import load_network, save_network
    from agents.az.network import AZNet, NetConfig

    torch.manual_seed(1)
    net = AZNet(rules.frame, NetConfig(channels=8, blocks=2, hidden=16)).eval()
    path = tmp_path / "net.az"
    save_network(path, net, [4, 2], {"games": 12})
    info = read_info(path)
    assert (info.frame, info.players, info.config) == (rules.frame, (2, 4), {"channels": 8, "blocks": 2, "hidden": 16})
    assert info.trained == {"games": 12}
    assert info.plays(rules) and not info.plays(Rules(2, mighty_duel=not rules.mighty_duel))
    assert not info.plays(Rules(2, game="queendomino"))
    loaded, loaded_info = load_network(path)
    assert loaded_info == info and not loaded.training
    inputs = encode(core.observe(advance(rules, [1, 2, 3], 10)), rules)
    for before, after in zip(net.run(inputs), loaded.run(inputs), strict=True):
        assert np.array_equal(before, after)
    logits, win, _ = loaded.run(inputs)
    assert logits.shape == (3, rules.n_actions) and win.shape == (3, rules.players)
    assert np.allclose(win.sum(axis=1), 1)


@pytest.mark.parametrize(("make", "message"), [
    (lambda p: p.write_bytes(b"plain text"), "is not an az network file"),
    (lambda p: write_archive(p, None), r"not an az network file.*meta\.json"),
    (lambda p: write_archive(p, meta(), placeholder=False), r"not an az network file.*weights\.pt"),
    (lambda p: write_archive(p, b"{not json"), "is not an az network file"),
    (lambda p: write_archive(p, meta(format="kingdomino-ppo")), "lacks format 'kingdomino-az'"),
    (lambda p: write_archive(p, b"[1, 2]"), "lacks format"),
    (lambda p: write_archive(p, meta(version=2)), "format version 2"),
    (lambda p: write_archive(p, meta(frame=7)), "frame must be 9 or 13, got 7"),
    (lambda p: write_archive(p, meta(players=[5])), "players must be a non-empty list"),
    (lambda p: write_archive(p, meta(players=[])), "players must be a non-empty list"),
    (lambda p: write_archive(p, meta(config={"channels": 8, "blocks": 1})), "config must give channels"),
    (lambda p: write_archive(p, meta(config={"channels": 0, "blocks": 1, "hidden": 16})), "config must give"),
])
def test_damaged_network_files_are_refused_clearly(make, message, tmp_path):
    path = tmp_path / "bad.az"
    make(path)
    with pytest.raises(ValueError, match=message):
        read_info(path)
    with pytest.raises(AgentSpecError, match=message):
        agents.check_supports(f"az:{path}", Rules(2))


def test_a_missing_network_file_is_named(tmp_path):
    with pytest.raises(ValueError, match="no az network file at .*missing.az"):
        read_info(tmp_path / "missing.az")


def _torch_weights(state: dict) -> bytes:
    import io

    import torch

    data = io.BytesIO()
    torch.save(state, data)
    return data.getvalue()


def test_weights_that_are_damaged_or_do_not_fit_are_refused_before_any_game(tmp_path):
    """Valid metadata over weights that are garbage, truncated, damaged in place or of another architecture: the
    spec check (torch-free, before any game) names what is wrong, and so does loading."""
    pytest.importorskip("torch")
    from agents.az.files import load_network, save_network
    from agents.az.network import AZNet, NetConfig

    good = tmp_path / "good.az"
    save_network(good, AZNet(9, NetConfig(**TINY)), [2])
    with zipfile.ZipFile(good) as archive:
        weights = archive.read("weights.pt")
    flipped = bytearray(weights)
    flipped[len(weights) // 2] ^= 0xFF  # inside a stored tensor: its checksum no longer matches
    wide = _torch_weights(AZNet(9, NetConfig(channels=16, blocks=1, hidden=16)).state_dict())
    for name, damaged, message in (
            ("garbage", b"not a torch file", "its weights.pt is not a torch weights archive"),
            ("truncated", weights[:len(weights) // 2], "its weights.pt is not a torch weights archive"),
            ("flipped", bytes(flipped), "its weights.pt is damaged"),
            ("wide", wide, r"its weights.pt stores 30 tensors of \d+ bytes; its config declares 30 tensors of \d+ "
                           r"bytes \(the weights are damaged or of another network\)")):
        path = write_archive(tmp_path / f"{name}.az", meta(), weights=damaged)
        with pytest.raises(ValueError, match=message):
            read_info(path)
        with pytest.raises(AgentSpecError, match=message):
            agents.check_supports(f"az:{path}", Rules(2))
        with pytest.raises(ValueError, match=message):
            load_network(path)
    load_network(good)


def test_stored_tensors_are_matched_by_name_and_shape_before_the_network_is_built(tmp_path):
    pytest.importorskip("torch")
    from agents.az.files import load_network
    from agents.az.network import AZNet, NetConfig

    state = AZNet(9, NetConfig(**TINY)).state_dict()
    renamed = write_archive(tmp_path / "renamed.az", meta(),
                            weights=_torch_weights({f"old.{name}": t for name, t in state.items()}))
    placeholder = write_archive(tmp_path / "placeholder.az", meta())
    assert read_info(renamed).config == read_info(placeholder).config == TINY  # the sizes all fit
    with pytest.raises(ValueError, match=r"do not match its declared network \(tensor '.*': missing stored"):
        load_network(renamed)
    with pytest.raises(ValueError, match=f"cannot load the az network {placeholder}"):
        load_network(placeholder)


def test_an_absurd_declared_architecture_is_refused_before_anything_is_allocated(tmp_path):
    """A file declaring a network of billions of parameters fails on its metadata and its small weights, without
    torch and before any memory is taken for the network."""
    absurd = {"channels": 1024, "blocks": 1024, "hidden": 1024}
    path = write_archive(tmp_path / "absurd.az", meta(config=absurd), weights=placeholder_weights())
    message = r"declares a network of \d+ parameters; an az network file holds at most 67108864"
    with pytest.raises(ValueError, match=message):
        read_info(path)
    with pytest.raises(AgentSpecError, match=message):
        agents.load(f"az:8:{path}")
    within = {"channels": 64, "blocks": 2, "hidden": 32}
    path = write_archive(tmp_path / "small_weights.az", meta(config=within), weights=placeholder_weights())
    with pytest.raises(ValueError, match=r"its weights.pt stores 30 tensors of \d+ bytes; its config declares 34"):
        read_info(path)


def test_a_fifo_is_refused_as_a_network_file_without_blocking(tmp_path):
    fifo = tmp_path / "net.az"
    os.mkfifo(fifo)
    with pytest.raises(AgentSpecError, match="net.az is not a regular file: it is a FIFO"):
        agents.check_supports(f"az:{fifo}", Rules(2))


@pytest.mark.parametrize("game", ["kingdomino", "queendomino", "royal_wedding"])
def test_declared_tensor_sizes_are_those_of_the_network(game):
    pytest.importorskip("torch")
    from agents.az.files import tensor_sizes
    from agents.az.network import NetConfig, make_network

    for config in (TINY, {"channels": 32, "blocks": 4, "hidden": 128}, {"channels": 5, "blocks": 3, "hidden": 7}):
        net = make_network(game, 13, NetConfig(**config))
        assert sorted(t.numel() for t in net.state_dict().values()) == sorted(tensor_sizes(game, config))


# 6. Specs and variants -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("arg", "simulations", "seconds", "with_path"), [
    ("", DEFAULT_SIMULATIONS, None, False),
    (":0", 0, None, False),
    (":200", 200, None, False),
    (":p50", 50, None, False),
    (":0.5", None, 0.5, False),
    (":1s", None, 1.0, False),
    (":{path}", DEFAULT_SIMULATIONS, None, True),
    (":32:{path}", 32, None, True),
    (":0.25s:{path}", None, 0.25, True),
])
def test_az_specs(arg, simulations, seconds, with_path, labels):
    spec = "az" + arg.format(path=labels[9])
    parsed = parse_spec(spec)
    assert parsed.kind == "az" and parsed.simulations == simulations
    assert parsed.budget == (Budget(seconds=seconds) if seconds is not None else None)
    assert parsed.model == (labels[9] if with_path else None)
    agent = agents.load(spec, seed=0)
    assert isinstance(agent, AZAgent) and agent.name == spec
    assert (agent.simulations, agent.seconds) == (simulations, seconds)
    assert agent.network == (labels[9] if with_path else None)


@pytest.mark.parametrize(("arg", "simulations", "seconds", "with_path"), [
    ("", AZMC_DEFAULT_SIMULATIONS, None, False),
    (":300", 300, None, False),
    (":0.25s", None, 0.25, False),
    (":{path}", AZMC_DEFAULT_SIMULATIONS, None, True),
    (":0.5:{path}", None, 0.5, True),
])
def test_azmc_specs_load_the_az_network_with_the_playout_search(arg, simulations, seconds, with_path, labels):
    """`azmc` takes az's grammar and networks; its agent searches with playout leaves and Full Greedy playouts, and
    a spec rewritten for another network file keeps its kind and budget."""
    spec = "azmc" + arg.format(path=labels[9])
    parsed = parse_spec(spec)
    assert parsed.kind == "azmc" and parsed.simulations == simulations
    assert parsed.model == (labels[9] if with_path else None)
    agent = agents.load(spec, seed=0)
    assert isinstance(agent, AZAgent) and agent.name == spec
    assert (agent.simulations, agent.seconds) == (simulations, seconds)
    assert agent.config.leaves == "playout" and agent.config.playout == "greedy"
    assert agents.load("az", seed=0).config.leaves == "network"
    assert parse_spec(parsed.with_model(labels[13])).kind == "azmc"
    assert agents.supported_variants(spec) == agents.supported_variants("az" + arg.format(path=labels[9]))


@pytest.mark.parametrize(("spec", "message"), [
    ("azmc:0", "azmc judges moves by playouts and needs at least 1; for the network's policy alone use az:0"),
    ("azmc:nope", "'azmc:nope': no az network file at 'nope'.*azmc takes"),
    ("azmc:", "give azmc, or azmc:SEARCH"),
    ("az:nope", "'az:nope': no az network file at 'nope'.*SEARCH"),
    ("az:-1", "'az:-1': seconds per move must be a positive number"),
    ("az:0s", "seconds per move must be a positive number"),
    ("az:0.5:missing.az", "no az network file at 'missing.az'"),
    ("az:32:{plain}", "is not an az network file"),
])
def test_bad_az_specs_name_the_problem(spec, message, tmp_path):
    plain = tmp_path / "plain.txt"
    plain.write_text("not a network")
    with pytest.raises(AgentSpecError, match=message):
        agents.load(spec.format(plain=plain))


def test_a_network_plays_only_its_board_size(labels):
    duel, five = Rules(2, mighty_duel=True), Rules(3)
    for rules in (Rules(2), Rules(3), Rules(3, three_player_36=True), Rules(4, harmony=True),
                  Rules(2, random_quests=2)):
        agents.check_supports(f"az:{labels[9]}", rules)
    agents.check_supports(f"az:16:{labels[13]}", Rules(2, mighty_duel=True, middle_kingdom=True))
    with pytest.raises(AgentSpecError, match=r"plays Kingdomino with 5x5 kingdoms.*2-player Mighty Duel game"):
        agents.check_supports(f"az:{labels[9]}", duel)
    with pytest.raises(AgentSpecError, match=r"plays Kingdomino with 7x7 kingdoms \(Mighty Duel\).*3-player game"):
        agents.check_supports(f"az:8:{labels[13]}", five)
    assert not agents.supports(f"az:{labels[9]}", duel) and agents.supports(f"az:{labels[13]}", duel)
    assert agents.supported_variants(f"az:{labels[13]}") == read_info(labels[13]).describe()
    queendomino = Rules(2, game="queendomino")
    for spec in (f"az:{labels[13]}", f"az:0:{labels[9]}"):
        with pytest.raises(AgentSpecError, match=r"plays Kingdomino with .*2-player Queendomino game"):
            agents.check_supports(spec, queendomino)


def test_tournaments_refuse_az_for_another_variant_before_playing(labels):
    with pytest.raises(ValueError, match="5x5 kingdoms"):
        TournamentConfig(agents=(f"az:8:{labels[9]}", "greedy"), rules=Rules(2, mighty_duel=True))
    with pytest.raises(ValueError, match=r"agent 'me':.*7x7 kingdoms"):
        TournamentConfig(agents=(f"me=az:{labels[13]}", "greedy"), rules=Rules(4))
    with pytest.raises(ValueError, match="plays Kingdomino with 5x5 kingdoms"):
        TournamentConfig(agents=(f"az:{labels[9]}", "greedy"), rules=Rules(3, game="queendomino"))
    TournamentConfig(agents=(f"az:8:{labels[13]}", "greedy"), rules=Rules(2, mighty_duel=True), games=2)


def test_the_agent_refuses_another_variant_before_its_first_move(nets):
    agent = agents.load(f"az:8:{nets[9]}", seed=0)
    state = core.new_games(Rules(2, mighty_duel=True), [0])
    with pytest.raises(ValueError, match="plays Kingdomino with 5x5 kingdoms.*not this variant"):
        agent.act(state, np.array([0]), core.legal_action_mask(state), None)
    queendomino = core.new_games(Rules(2, game="queendomino"), [0])
    with pytest.raises(ValueError, match="plays Kingdomino with 5x5 kingdoms.*not this variant"):
        agent.act(queendomino, np.array([0]), core.legal_action_mask(queendomino), None)


def test_checking_an_az_spec_does_not_import_torch(labels):
    code = ("import sys; import agents; from tournament import TournamentConfig; "
            "from kingdomino_env.rules import Rules; "
            f"agents.check_supports('az:16:{labels[9]}', Rules(3)); "
            f"TournamentConfig(agents=('az:{labels[13]}', 'greedy'), rules=Rules(2, mighty_duel=True)); "
            "assert 'torch' not in sys.modules, 'torch was imported'")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=Path(__file__).resolve().parents[2])
    assert result.returncode == 0, result.stderr


# 7. Search properties ------------------------------------------------------------------------------------------------
def test_zero_simulations_play_the_argmax_of_the_masked_policy(nets):
    from agents.az.features import encode
    from agents.az.files import load_network

    rules = Rules(4)
    state = advance(rules, [1, 2, 3, 4, 5, 6], steps=13)
    games = np.arange(state.batch_size)
    mask = core.legal_action_mask(state)
    net, _ = load_network(nets[9])
    logits, _, _ = net.run(encode(core.observe(state), rules))
    expected = np.where(mask, logits, -np.inf).argmax(axis=1)
    agent = AZAgent(simulations=0, network=nets[9], seed=0)
    assert (agent.act(state, games, mask, None) == expected).all()
    assert agent.simulations_run == 0


def test_root_visits_sum_to_the_simulations_and_stay_on_legal_actions(nets):
    from agents.az.files import load_network
    from agents.az.search import NetworkEvaluator, PUCTSearch, SearchConfig

    rules = Rules(3)
    state = advance(rules, [1, 2, 3], steps=8)
    games = np.array([0, 2])
    mask = core.legal_action_mask(state)[games]
    net, _ = load_network(nets[9])
    search = PUCTSearch(NetworkEvaluator(net), SearchConfig(batch=4), np.random.default_rng(0))
    visits, roots = search.run(state, games, mask, simulations=10)
    assert (visits.sum(axis=1) == 10).all()
    assert (visits[~mask] == 0).all()
    assert search.simulations == 20
    for root, player in zip(roots, state.current_player[games], strict=True):
        assert root.player == player
        q = root.total[root.visits > 0] / root.visits[root.visits > 0]
        assert ((q >= 0) & (q <= 1)).all()
    probs, _ = search.run(state, games, mask, simulations=0)
    assert np.allclose(probs.sum(axis=1), 1) and (probs[~mask] == 0).all()


def test_the_gumbel_root_halves_its_candidates_within_the_budget(nets):
    """Gumbel AlphaZero's root: at most `gumbel_actions` actions are tried, the budget is spent exactly, the winner
    of the sequential halving is among the most visited, and the improved policy is a distribution over the legal
    actions."""
    from agents.az.files import load_network
    from agents.az.search import NetworkEvaluator, PUCTSearch, SearchConfig

    rules = Rules(2)
    state = advance(rules, [1, 2, 3], steps=8)
    games = np.arange(3)
    mask = core.legal_action_mask(state)
    assert (mask.sum(axis=1) > 8).all()
    net, _ = load_network(nets[9])
    search = PUCTSearch(NetworkEvaluator(net), SearchConfig(batch=4, root="gumbel", gumbel_actions=8),
                        np.random.default_rng(0))
    visits, roots = search.run(state, games, mask, simulations=40)
    assert (visits.sum(axis=1) == 40).all() and search.simulations == 120
    for k, root in enumerate(roots):
        assert 2 <= (visits[k] > 0).sum() <= 8
        assert mask[k, root.choice] and visits[k, root.choice] >= visits[k].max() - 1  # a finalist
        assert root.improved.sum() == pytest.approx(1.0) and (root.improved[~mask[k]] == 0).all()
    visits, roots = search.run(state, games, mask, seconds=0.05)
    for k, root in enumerate(roots):
        assert visits[k].sum() >= 4 and visits[k, root.choice] >= visits[k].max() - 1 and mask[k, root.choice]


@pytest.mark.parametrize("budget", [{"simulations": 40}, {"seconds": 0.05}])
def test_playout_leaves_value_only_the_candidates_and_run_the_network_once_a_decision(nets, budget):
    """`leaves="playout"`: every simulation plays one of the Gumbel candidates out, so visits fall on at most
    `gumbel_actions` legal actions, sum to the budget, carry utilities in [0, 1] and win shares and margins that are
    real numbers; the network is run for the roots only."""
    from agents.az.files import load_network
    from agents.az.search import NetworkEvaluator, PUCTSearch, SearchConfig

    rules = Rules(2)
    state = advance(rules, [1, 2, 3], steps=8)
    games = np.arange(3)
    mask = core.legal_action_mask(state)
    net, _ = load_network(nets[9])
    evaluator = NetworkEvaluator(net)
    search = PUCTSearch(evaluator, SearchConfig(leaves="playout", gumbel_actions=8, flat_batch=16),
                        np.random.default_rng(0))
    visits, roots = search.run(state, games, mask, **budget)
    assert evaluator.evaluations == games.size
    assert search.simulations == visits.sum() and (visits.sum(axis=1) >= 8).all()
    if "simulations" in budget:
        assert (visits.sum(axis=1) == 40).all()
    for k, root in enumerate(roots):
        seen = visits[k] > 0
        assert 2 <= seen.sum() <= 8 and not (seen & ~mask[k]).any()
        assert mask[k, root.choice] and visits[k, root.choice] >= visits[k].max() - 1
        q = root.total[seen] / root.visits[seen]
        assert ((q >= 0) & (q <= 1)).all() and np.isfinite(root.margins[seen]).all()
        assert ((root.wins[seen] >= 0) & (root.wins[seen] <= root.visits[seen])).all()


def test_playout_leaves_with_a_spent_seconds_budget_stop_after_one_sweep_over_the_candidates(nets):
    """A seconds budget is calibrated on one sweep over the candidates before any larger round, so a budget that
    the sweep already spends (slow playouts, or a tiny budget) costs one playout a candidate, not a full round."""
    from agents.az.files import load_network
    from agents.az.search import NetworkEvaluator, PUCTSearch, SearchConfig

    state = advance(Rules(2), [4, 5], steps=8)
    mask = core.legal_action_mask(state)
    net, _ = load_network(nets[9])
    search = PUCTSearch(NetworkEvaluator(net), SearchConfig(leaves="playout", gumbel_actions=8, flat_batch=64),
                        np.random.default_rng(0))
    visits, roots = search.run(state, np.arange(2), mask, seconds=1e-9)
    candidates = np.minimum(8, mask.sum(axis=1))
    assert (visits.sum(axis=1) == candidates).all() and search.simulations == candidates.sum()
    assert ((visits == 0) | (visits == 1)).all()
    assert all(mask[k, root.choice] and visits[k, root.choice] == 1 for k, root in enumerate(roots))


def test_completed_q_fills_unvisited_actions_with_the_mixed_value():
    from agents.az.search import Node, completed_q, gumbel_policy

    node = Node(0, np.log(np.array([0.5, 0.25, 0.25, 1.0])), value=0.4)
    node.visits[:] = [3, 1, 0, 0]
    node.total[:] = [2.4, 0.2, 0, 0]
    legal = np.array([0, 1, 2])
    prior = np.array([0.5, 0.25, 0.25])
    weighted = (prior[0] * 0.8 + prior[1] * 0.2) / (prior[0] + prior[1])
    mixed = (0.4 + 4 * weighted) / 5
    np.testing.assert_allclose(completed_q(node, legal, legal), [0.8, 0.2, mixed])
    policy = gumbel_policy(node, legal, c_visit=50.0, c_scale=1.0)
    expected = np.log(prior) + 53 * np.array([0.8, 0.2, mixed])
    np.testing.assert_allclose(policy[:3], np.exp(expected) / np.exp(expected).sum())
    assert policy[3] == 0


@pytest.mark.parametrize(("kwargs", "message"), [({"root": "best"}, "root must be one of puct, gumbel"),
                                                 ({"gumbel_actions": 1}, "gumbel_actions must be an integer"),
                                                 ({"c_visit": -1.0}, "must be >= 0"),
                                                 ({"endgame": 1}, "endgame must be true or false"),
                                                 ({"leaves": "tree"}, "leaves must be one of network, playout"),
                                                 ({"leaves": "playout", "root": "puct"}, "needs root='gumbel'"),
                                                 ({"flat_batch": 0}, "flat_batch must be a positive integer")])
def test_bad_search_configs_are_refused(kwargs, message):
    from agents.az.search import SearchConfig

    with pytest.raises(ValueError, match=message):
        SearchConfig(**kwargs)


def test_the_evaluator_gives_utilities_by_seat(nets):
    """The network sees each game from its player to move; utilities come back indexed by seat."""
    from agents.az.features import encode
    from agents.az.files import load_network
    from agents.az.search import NetworkEvaluator, utilities

    rules = Rules(4)
    state = advance(rules, [3, 4, 5], steps=9)
    net, _ = load_network(nets[9])
    logits, util = NetworkEvaluator(net, margin_weight=0.3)(state)
    raw, win, margin = net.run(encode(core.observe(state), rules))
    assert np.array_equal(logits, raw)
    for b in range(state.batch_size):
        mover = int(state.current_player[b])
        for k in range(rules.players):
            expected = utilities(win[b, k].astype(float), margin[b, k].astype(float), 0.3)
            assert util[b, (mover + k) % rules.players] == pytest.approx(expected)


def test_terminal_utilities_rank_the_winner_above_the_losers():
    from agents.az.search import terminal_utilities

    state = play_batch(Rules(3), agents.load("greedy", seed=0), 4, 1)
    ranks = core.ranks(state)
    for weight in (0.0, 0.25, 1.0):
        util = terminal_utilities(state, weight)
        assert ((util >= 0) & (util <= 1)).all()
        for b in range(state.batch_size):
            winners, losers = util[b, ranks[b] == 0], util[b, ranks[b] > 0]
            if losers.size and weight < 1:
                assert winners.min() > losers.max()
    exact = terminal_utilities(state, 0.0)
    winners = ranks == 0
    assert np.allclose(exact, winners / winners.sum(axis=1, keepdims=True))


# Shipped networks ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["2p", "3p", "3p-36", "4p", "mighty-duel", "bonuses", "quests"])
def test_the_shipped_network_plays_a_legal_game(variant):
    """`az` with the shipped network of the variant at seat 0 against random players."""
    rules = VARIANTS[variant]
    path = SHIPPED[(rules.frame, rules.players)]
    if not path.is_file():
        pytest.skip(f"the shipped az network {path.name} is not in this checkout (trained separately)")
    pytest.importorskip("torch")
    agents.check_supports("az", rules)
    agent = agents.load("az:16", seed=0)
    assert play_batch(rules, agent, 1, 31, hero_seat_only=True).is_over.all()
    assert agent.simulations_run > 0


def test_a_network_file_records_its_observation_layout(tmp_path):
    """Saved networks carry the observation layout they were trained on; another layout is refused, never misread,
    and files written before the layout was recorded (the shipped ones) read as this version's."""
    pytest.importorskip("torch")
    from agents.az.files import MODELS, observation_signature, save_network
    from agents.az.network import AZNet, NetConfig

    path = tmp_path / "net.az"
    save_network(path, AZNet(9, NetConfig(**TINY)), [3, 2])
    with zipfile.ZipFile(path) as archive:
        recorded = json.loads(archive.read("meta.json"))["observation"]
    assert recorded == Rules(2).observation_layout.signature() == observation_signature("kingdomino", 9, 2)
    assert read_info(path).players == (2, 3)

    renamed = [list(block) for block in recorded]
    renamed[1][0] = "lines"
    with pytest.raises(ValueError, match="another observation layout: block 1 is .*'lines'.*current_line"):
        read_info(write_archive(tmp_path / "renamed.az", meta(observation=renamed)))
    with pytest.raises(ValueError, match="block 6 is None in the file"):
        read_info(write_archive(tmp_path / "short.az", meta(observation=recorded[:-1])))
    with pytest.raises(ValueError, match="the file has 8 blocks, this version 7"):
        read_info(write_archive(tmp_path / "long.az", meta(observation=recorded + [["extra", [1], []]])))
    wider = [list(block) for block in recorded]
    wider[0][1] = [2, 10, 9, 9]
    with pytest.raises(ValueError, match="block 0 is"):
        read_info(write_archive(tmp_path / "wider.az", meta(observation=wider)))
    for bad in ("current_line", 7, {"kingdoms": 1}, [None], [["kingdoms"]]):  # wrong types and entry shapes
        with pytest.raises(ValueError, match="observation"):
            read_info(write_archive(tmp_path / "bad.az", meta(observation=bad)))
    for shipped in sorted(MODELS.glob("*.az")):
        assert read_info(shipped).config  # no recorded layout: this version's
