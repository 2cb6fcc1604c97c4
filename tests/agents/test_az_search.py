"""PUCT selection of `agents.az.search.Node`: the compiled choice agrees with the formula, action for action."""

from __future__ import annotations

import numpy as np
import pytest

from agents.az.search import Node


def reference_choice(node: Node, legal: np.ndarray, c_puct: float, noise: float) -> int:
    """argmax over `legal` of Q + c_puct * P * sqrt(N + 1) / (1 + n), in numpy; Q of an unvisited action is the
    node's value, the first of ties wins."""
    visits = node.visits[legal]
    q = np.where(visits > 0, node.total[legal] / np.maximum(visits, 1), node.value)
    u = c_puct * node.priors(legal, noise) * np.sqrt(visits.sum() + 1) / (1 + visits)
    return int(legal[np.argmax(q + u)])


def random_node(rng: np.random.Generator, actions: int, noise: bool) -> Node:
    node = Node(0, rng.normal(size=actions).astype(np.float32), float(rng.random()))
    visited = rng.random(actions) < 0.5
    node.visits[visited] = rng.integers(1, 30, size=visited.sum())
    node.total[visited] = node.visits[visited] * rng.random(visited.sum())
    if noise:
        node.noise = rng.dirichlet(np.full(actions, 0.3))
    return node


@pytest.mark.parametrize("noise", [0.0, 0.25])
def test_select_agrees_with_the_formula_as_statistics_grow(noise):
    rng = np.random.default_rng(0)
    for _ in range(200):
        node = random_node(rng, 40, noise > 0)
        legal_sets = [np.sort(rng.choice(40, size=rng.integers(1, 40), replace=False)) for _ in range(3)]
        for step in range(30):
            legal = legal_sets[step % 3]
            expected = reference_choice(node, legal, 1.5, noise)
            assert node.select(legal, 1.5, noise) == expected
            node.visits[expected] += 1
            node.total[expected] += rng.random()


def test_ties_go_to_the_first_legal_action_and_unvisited_actions_take_the_node_value():
    node = Node(1, np.zeros(6, dtype=np.float32), 0.5)
    assert node.select(np.array([2, 3, 5]), 1.5, 0.0) == 2
    node.visits[2], node.total[2] = 1, 0.0
    assert node.select(np.array([2, 3, 5]), 1.5, 0.0) == 3
    node.visits[3], node.total[3] = 1, 1.0
    assert node.select(np.array([2, 3, 5]), 0.0, 0.0) == 3
    assert node.select(np.array([2, 5]), 0.0, 0.0) == 5
