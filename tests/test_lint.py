"""The code passes the project's lint (ruff, configured in ``pyproject.toml``): the package, the
tests, the tools, the benches, the classroom and the lessons' code cells. ``ruff check --fix .``
repairs most of what it reports."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache",
                           "--output-format", "concise", "."],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_lint_covers_the_packages_code():
    # a file ruff would skip is a file nobody lints: every Python file of these folders is seen
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--show-files", "."],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    seen = {Path(line).resolve() for line in done.stdout.splitlines() if line.strip()}
    for folder in ("rejlab", "tests", "tools", "bench"):
        for path in (REPO / folder).rglob("*.py"):
            assert path.resolve() in seen, path
    assert any(p.suffix == ".ipynb" for p in seen)
