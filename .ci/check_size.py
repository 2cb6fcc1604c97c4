"""CI: keep the repository a repository of code and shipped models.

Fails (exit status 1, naming each file and its size) when a tracked file outside `agents/models/` is over 2 MiB, or
when the tracked files hold over 25 MiB in all: self-play data, replay buffers and intermediate networks belong in
run folders outside the checkout (`training.runs`), not in git. Tracked files are those `git ls-files` lists, at
their size in the working tree (a tracked file deleted from the working tree counts nothing).

    python .ci/check_size.py [REPO]
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

MIB = 1 << 20
#: The largest tracked file allowed outside the exempt folders.
FILE_LIMIT = 2 * MIB
#: The most bytes all tracked files may hold together.
TOTAL_LIMIT = 25 * MIB
#: Folders whose files may be larger than FILE_LIMIT (they still count towards TOTAL_LIMIT): the shipped models.
EXEMPT = ("agents/models/",)


def tracked_files(repo: Path) -> list[tuple[str, int]]:
    """(path, bytes) of every file `git ls-files` lists in `repo`, at its working-tree size (0 where it is gone)."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=repo, check=True, capture_output=True).stdout
    out = []
    for name in listed.decode("utf-8", "surrogateescape").split("\0"):
        if name:
            path = repo / name
            out.append((name, path.stat().st_size if path.is_file() and not path.is_symlink() else 0))
    return out


def problems(files: list[tuple[str, int]], file_limit: int = FILE_LIMIT, total_limit: int = TOTAL_LIMIT,
             exempt: tuple[str, ...] = EXEMPT) -> list[str]:
    """What breaks the limits, one line each ([] when nothing does): each file over `file_limit` outside `exempt`,
    largest first, and the total when it is over `total_limit` (with the ten largest files)."""
    lines = [f"{name}: {size / MIB:.2f} MiB, over the {file_limit / MIB:g} MiB a tracked file may hold outside "
             f"{', '.join(exempt)}"
             for name, size in sorted(files, key=lambda f: -f[1])
             if size > file_limit and not name.startswith(exempt)]
    total = sum(size for _, size in files)
    if total > total_limit:
        largest = ", ".join(f"{name} ({size / MIB:.2f} MiB)" for name, size in sorted(files, key=lambda f: -f[1])[:10])
        lines.append(f"the {len(files)} tracked files hold {total / MIB:.2f} MiB, over the {total_limit / MIB:g} MiB "
                     f"allowed; the largest: {largest}")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Check the repository `argv[0]` (default: this one); 0 if it is within the limits, else 1."""
    args = sys.argv[1:] if argv is None else argv
    repo = Path(args[0]) if args else Path(__file__).resolve().parent.parent
    files = tracked_files(repo)
    found = problems(files)
    if found:
        print("repository size check failed: keep run data outside git (see training/runs.py)", file=sys.stderr)
        for line in found:
            print(f"  {line}", file=sys.stderr)
        return 1
    print(f"repository size check: {len(files)} tracked files, {sum(s for _, s in files) / MIB:.2f} MiB in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
