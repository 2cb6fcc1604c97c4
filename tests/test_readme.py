"""The README and the documentation pages: short enough to read, every relative link resolves, and every Python
snippet runs as written (a few budgets shrunk so that the suite stays fast)."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = sorted((ROOT / "docs").rglob("*.md"))
#: The README's upper bound: a front page, the rest lives in docs/.
README_MAX_CHARS = 20_000

#: Replacements that keep a snippet's meaning but not its cost: (snippet text, test text).
SHRINK = (
    ('agents.load("mc:0.5", seed=0)', 'agents.load("mc:p4", seed=0)'),
    (".learn(1_000_000)", ""),
)

LINK = re.compile(r"\]\(([^)\s]+)\)")
EXTERNAL = ("http://", "https://", "mailto:")


def snippets(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [textwrap.dedent(block) for block in re.findall(r"```python\n(.*?)```", text, flags=re.S)]


SNIPPETS = [(path, index, code) for path in [README, *PAGES] for index, code in enumerate(snippets(path))]


#: The first line of a snippet that is a module the page's other snippets import (`# bots.py`).
MODULE_LINE = re.compile(r"^# (\w+)\.py\n")


def page_modules(path: Path) -> dict[str, str]:
    """The modules a page defines in its snippets, by file name."""
    return {found.group(1) + ".py": code for code in snippets(path) if (found := MODULE_LINE.match(code))}


def shrunk(code: str) -> str:
    for long, short in SHRINK:
        code = code.replace(long, short)
    return code


def relative_links(path: Path) -> list[str]:
    """The link targets of a Markdown file that point into the repository (no scheme, not a bare #anchor)."""
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    targets = (target.split("#", 1)[0] for target in LINK.findall(text))
    return [target for target in targets if target and not target.startswith(EXTERNAL)]


def test_readme_is_short():
    size = len(README.read_text(encoding="utf-8"))
    assert size <= README_MAX_CHARS, f"README.md has {size} characters, at most {README_MAX_CHARS} allowed"


@pytest.mark.parametrize("path", [README, *PAGES], ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_point_at_files(path: Path):
    missing = [target for target in relative_links(path) if not (path.parent / target).resolve().is_file()]
    assert not missing, f"{path.relative_to(ROOT)} links to missing files: {missing}"


def test_link_check_sees_links():
    assert "docs/rules.md" in relative_links(README)
    assert "screenshots/main_menu.png" in relative_links(ROOT / "docs" / "play.md")


def test_the_snippets_this_file_expects_are_there():
    assert len(snippets(README)) >= 2
    assert len(SNIPPETS) >= 15
    assert all(any(long in code for _, _, code in SNIPPETS) for long, _ in SHRINK), "a shrunk snippet left the docs"


@pytest.mark.parametrize("path, index, code", SNIPPETS,
                         ids=[f"{path.relative_to(ROOT)}:{index + 1}" for path, index, _ in SNIPPETS])
def test_snippet_runs(path: Path, index: int, code: str, tmp_path: Path):
    code = shrunk(code)
    name = f"{path.relative_to(ROOT)} snippet {index + 1}"
    modules = page_modules(path)
    if "SubprocVecEnv" in code or modules:
        # Worker processes re-import the script, and a page's modules must be importable from its folder: run it
        # as a script, in its own process, beside the page's modules.
        for file, source in modules.items():
            (tmp_path / file).write_text(source, encoding="utf-8")
        script = tmp_path / "snippet.py"
        script.write_text(code, encoding="utf-8")
        done = subprocess.run([sys.executable, str(script)], cwd=tmp_path if modules else ROOT, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, f"{name}: {done.stderr[-3000:]}"
        return
    exec(compile(code, name, "exec"), {"__name__": "__main__"})
