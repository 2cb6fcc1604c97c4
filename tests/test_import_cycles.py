"""No import circles inside our packages: every import statement of every module (those inside functions too)
is an edge from the importing module to the imported one, and the graph must have no cycle. Imports under
`if TYPE_CHECKING:` are left out: they are never run (the play app's screens name `App` in annotations so).

An import of a submodule (`from kingdomino_env import core`, `import kingdomino_env.core`) is an edge to that
submodule, not to its package's `__init__`, which Python runs first but which imports nothing back.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("kingdomino_env", "agents", "training", "tournament", "kingdomino_cli", "kingdomino_app", "benchmarks")


def module_files(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """{dotted module name: file} of every module of `packages` (a package is named by its `__init__.py`)."""
    out = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _run_time_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of `tree` except those inside the body of an `if TYPE_CHECKING:` block."""
    out, todo = [], [tree]
    while todo:
        node = todo.pop()
        out.append(node)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            todo.extend(node.orelse)
        else:
            todo.extend(ast.iter_child_nodes(node))
    return out


def imported_modules(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of `known` that module `name` (file `path`) imports anywhere in its body when run."""
    is_package = path.name == "__init__.py"
    out = set()
    for node in _run_time_nodes(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".")
                anchor = anchor[:len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        out.update(target for target in targets if target in known)
    out.discard(name)
    return out


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of `graph` as a list of nodes (first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def import_graph() -> dict[str, set[str]]:
    files = module_files()
    return {name: imported_modules(name, path, set(files)) for name, path in files.items()}


def test_no_import_cycle_in_our_packages():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def test_tournament_imports_nothing_of_training():
    """Training uses tournaments (evaluations, ladders), so tournaments must not use training: what both need (the
    Ray start-up) lives in `tournament`."""
    graph = import_graph()
    above = sorted(f"{name} -> {target}" for name, targets in graph.items()
                   if name == "tournament" or name.startswith("tournament.")
                   for target in targets if target == "training" or target.startswith("training."))
    assert not above, "tournament imports training: " + ", ".join(above)


def test_the_graph_sees_relative_lazy_and_package_imports():
    graph = import_graph()
    assert "kingdomino_env.games.board" in graph["kingdomino_env.games.queendomino.greedy"]  # `from ..board import`
    assert "kingdomino_env.rendering.pygame_drawing" in graph["kingdomino_env.rendering.frames"]  # inside a function
    assert "kingdomino_env.env" in graph["kingdomino_env"]  # a package's __init__, inside its __getattr__
    assert "kingdomino_app.app" not in graph["kingdomino_app.screens.base"]  # under `if TYPE_CHECKING:` only


@pytest.mark.parametrize("graph, cyclic", [
    ({"a": {"b"}, "b": {"c"}, "c": set()}, False),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, True),
    ({"a": {"b", "c"}, "b": {"c"}, "c": set(), "d": {"d2"}, "d2": {"d"}}, True),
])
def test_find_cycle(graph, cyclic):
    cycle = find_cycle(graph)
    assert (cycle is not None) == cyclic
    if cycle:
        assert cycle[0] == cycle[-1] and all(b in graph[a] for a, b in zip(cycle, cycle[1:], strict=False))
