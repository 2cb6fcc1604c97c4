"""The rules work without Gymnasium and PettingZoo; only asking for an env needs them.

Each check runs in a fresh interpreter in which neither library can be imported (`sys.modules[name] = None`
makes `import name` and every `import name.sub` raise ModuleNotFoundError), so the libraries already imported by
this test process do not hide an import of them.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

BLOCK = """
import sys
sys.modules["gymnasium"] = None
sys.modules["pettingzoo"] = None
"""


def run_without_env_libraries(code: str) -> str:
    """Run `code` in a new interpreter at the repository root without Gymnasium and PettingZoo; its stdout."""
    done = subprocess.run([sys.executable, "-c", BLOCK + textwrap.dedent(code)], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_rules_modules_play_a_game_without_gymnasium_and_pettingzoo():
    out = run_without_env_libraries("""
        import importlib
        import pkgutil

        import numpy as np

        import kingdomino_env.games
        from kingdomino_env import core, observation, record, rules
        from kingdomino_env.rules import Rules

        for info in pkgutil.walk_packages(kingdomino_env.games.__path__, "kingdomino_env.games."):
            importlib.import_module(info.name)
        for variant in (Rules(players=2), Rules(players=4, harmony=True), Rules(game="queendomino", players=3)):
            state = core.new_games(variant, [0, 1])
            rng = np.random.default_rng(0)
            for _ in range(variant.max_actions):
                if state.is_over.all():
                    break
                core.step(state, core.random_legal_actions(core.legal_action_mask(state), rng))
            assert state.is_over.all(), variant
            assert not core.legal_action_mask(state).any()
        assert sys.modules["gymnasium"] is None and sys.modules["pettingzoo"] is None
        print("played")
    """)
    assert out.strip() == "played"


def test_package_gives_rules_and_says_what_an_env_needs():
    out = run_without_env_libraries("""
        import kingdomino_env
        from kingdomino_env import Rules, State

        assert State is kingdomino_env.core.State and Rules(players=3).players == 3
        for name in ("env", "raw_env", "KingdominoSoloEnv", "KingdominoVectorEnv"):
            try:
                getattr(kingdomino_env, name)
            except ImportError as error:
                assert "not installed" in str(error) and "kingdomino_env.core" in str(error), error
                print(name)
            else:
                raise AssertionError(f"kingdomino_env.{name} without Gymnasium and PettingZoo")
        try:
            from kingdomino_env import env  # noqa: F401
        except ImportError as error:
            assert "not installed" in str(error), error
        else:
            raise AssertionError("from kingdomino_env import env without PettingZoo")
    """)
    assert out.split() == ["env", "raw_env", "KingdominoSoloEnv", "KingdominoVectorEnv"]


def test_env_is_the_function_after_its_facade_module_is_imported():
    done = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        import sys
        from kingdomino_env.env import raw_env
        import kingdomino_env
        import kingdomino_env.env
        from kingdomino_env import env

        assert env is kingdomino_env.env is sys.modules["kingdomino_env.env"].env and callable(env)
        assert kingdomino_env.raw_env is raw_env
        kingdomino_env.env(players=2).reset(seed=0)
    """)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
