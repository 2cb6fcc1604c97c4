"""The README's Python snippets run as written (a few budgets shrunk so that the suite stays fast)."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SNIPPETS = [textwrap.dedent(block) for block in re.findall(r"```python\n(.*?)```", README, flags=re.S)]

#: Replacements that keep a snippet's meaning but not its cost: (snippet text, test text).
SHRINK = (
    ('agents.load("mc:0.5", seed=0)', 'agents.load("mc:p4", seed=0)'),
    (".learn(1_000_000)", ""),
)


def shrunk(code: str) -> str:
    for long, short in SHRINK:
        code = code.replace(long, short)
    return code


def test_readme_has_the_snippets_this_file_expects():
    assert len(SNIPPETS) >= 8
    assert all(any(long in code for code in SNIPPETS) for long, _ in SHRINK), "a shrunk snippet left the README"


@pytest.mark.parametrize("index", range(len(SNIPPETS)), ids=lambda i: f"snippet{i + 1}")
def test_readme_snippet_runs(index: int, tmp_path: Path):
    code = shrunk(SNIPPETS[index])
    if "SubprocVecEnv" in code:  # worker processes re-import the script: run it as one, in its own process
        script = tmp_path / "snippet.py"
        script.write_text(code, encoding="utf-8")
        done = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-3000:]
        return
    exec(compile(code, f"README snippet {index + 1}", "exec"), {"__name__": "__main__"})
