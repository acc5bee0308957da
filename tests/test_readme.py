"""The README's Python example runs and prints what it promises."""

import pathlib
import re
import subprocess
import sys

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_example_runs_and_the_readme_names_the_commands_ci_runs():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "README has no python example"
    code = blocks[0]
    assert len([line for line in code.splitlines() if line.strip()]) <= 10
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    first, best, aa = out.stdout.strip().splitlines()
    assert first.startswith("0.2 ") and "SubsetCounts(" in first
    assert best.startswith("best Q ")
    assert float(aa) == 2 / 3
    text = README.read_text(encoding="utf-8")          # and it names the commands CI runs
    assert "make lab" in text and "make test" in text
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "make test" in ci


def test_readme_course_table_lists_every_lesson_with_its_own_time(tool):
    rows = dict(re.findall(r"^\| (\d\d[a-z]?) \|.*\| (\d+) \|$", README.read_text(encoding="utf-8"), re.M))
    lessons = sorted((README.parent / "notebooks").glob("*.ipynb"))
    assert sorted(rows) == sorted(p.stem.split("_")[0] for p in lessons)
    for path in lessons:
        assert int(rows[path.stem.split("_")[0]]) == tool("build_book").lesson_minutes(path), path.stem
