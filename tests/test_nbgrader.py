"""The homework round trip through nbgrader's own command line.

In a temporary copy of the course folder ``teacher/`` (its nbgrader_config.py
and ``source/``), the test runs what a teacher runs: ``nbgrader
generate_assignment`` for every homework set, then collects two submissions
per set, a *solved* one (the students' version with the teacher's solutions
typed into the answer cells, as a student who got everything right would
hand in) and a *blank* one (the students' version untouched), runs ``nbgrader
autograde`` and reads the scores with ``nbgrader export``: full marks for the
solved copy, zero for the blank one. It also checks that the students'
version hides the solutions and the hidden tests.

nbgrader needs Python >= 3.11 (the ``grading`` extra installs nothing below):
the test skips, with that message, on Python 3.10.
"""

from __future__ import annotations

import csv
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[1]
TEACHER = REPO / "teacher"
ASSIGNMENTS = sorted(p.name for p in (TEACHER / "source").iterdir() if p.is_dir())
MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION", "### BEGIN HIDDEN TESTS",
           "### END HIDDEN TESTS")

def _nbgrader_meta(cell) -> dict:
    return cell.metadata.get("nbgrader", {})


def _source_notebook(assignment: str) -> Path:
    (path,) = (TEACHER / "source" / assignment).glob("*.ipynb")
    return path


# --------------------------------------------------------------------------
# The source notebooks themselves (no nbgrader needed)

@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_source_assignment_is_well_formed(assignment):
    nb = nbformat.read(_source_notebook(assignment), as_version=4)
    nbformat.validate(nb)
    cells = [c for c in nb.cells if _nbgrader_meta(c)]
    ids = [_nbgrader_meta(c)["grade_id"] for c in cells]
    assert len(ids) == len(set(ids)), "grade_id must be unique"
    answers = [c for c in cells if _nbgrader_meta(c).get("solution")]
    graded = [c for c in cells if _nbgrader_meta(c).get("grade")]
    assert len(answers) >= 3 and len(graded) == len(answers)
    for cell in answers:
        assert cell.cell_type == "code" and "### BEGIN SOLUTION" in cell.source
    for cell in graded:
        meta = _nbgrader_meta(cell)
        assert meta["locked"] and meta["points"] > 0
        assert "### BEGIN HIDDEN TESTS" in cell.source, f"{meta['grade_id']}: no hidden test"
        assert "assert" in cell.source.split("### BEGIN HIDDEN TESTS")[0], \
            f"{meta['grade_id']}: no visible test either"
    # stored without outputs: nbgrader generates from the source, the kernel fills it
    assert all(c.get("execution_count") is None for c in nb.cells if c.cell_type == "code")


def test_assignments_target_generates_every_source_folder():
    text = (REPO / "Makefile").read_text(encoding="utf-8")
    target = text.split("\nassignments:", 1)[1].split("\n\n", 1)[0]
    assert "generate_assignment" in target and "source/*/" in target


# --------------------------------------------------------------------------
# The round trip

def _need_nbgrader():
    if sys.version_info < (3, 11):
        pytest.skip("nbgrader needs Python >= 3.11 (the grading extra installs nothing on "
                    f"{sys.version_info.major}.{sys.version_info.minor})")
    if importlib.util.find_spec("nbgrader") is None:
        pytest.fail("nbgrader is not installed: pip install -e '.[grading]' (make test does)")


def _env(tmp_path: Path) -> dict:
    env = dict(os.environ)
    # nbgrader runs `alembic` (beside this Python) to create the gradebook, and the
    # "python3" kernel runs `python`: both must be this environment's.
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PYTHONPATH"] = os.pathsep.join(p for p in [str(REPO), env.get("PYTHONPATH")] if p)
    env["JUPYTER_CONFIG_DIR"] = str(tmp_path / "jupyter-config")     # ignore ~/.jupyter
    env["JUPYTER_RUNTIME_DIR"] = str(tmp_path / "jupyter-runtime")
    env["MPLBACKEND"] = "Agg"
    return env


def nbgrader(course: Path, env: dict, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course, env=env,
                          capture_output=True, text=True, timeout=900)
    log = done.stdout + done.stderr
    assert done.returncode == 0 and "ERROR" not in log, \
        f"nbgrader {' '.join(args)} failed ({done.returncode}):\n{log[-4000:]}"
    return log


def solved_copy(release: Path, source: Path, dst: Path) -> None:
    """The students' version with the teacher's solution code in each answer cell."""
    solutions = {}
    for cell in nbformat.read(source, as_version=4).cells:
        meta = _nbgrader_meta(cell)
        if meta.get("solution"):
            code = re.sub(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*\n", "", cell.source, flags=re.M)
            solutions[meta["grade_id"]] = code
    nb = nbformat.read(release, as_version=4)
    filled = 0
    for cell in nb.cells:
        gid = _nbgrader_meta(cell).get("grade_id")
        if _nbgrader_meta(cell).get("solution") and gid in solutions:
            assert "raise NotImplementedError()" in cell.source
            cell.source = solutions[gid]
            filled += 1
    assert filled == len(solutions)
    nbformat.write(nb, dst)


@pytest.mark.slow
def test_generate_submit_autograde_export(tmp_path):
    _need_nbgrader()
    course = tmp_path / "course"
    course.mkdir()
    shutil.copy2(TEACHER / "nbgrader_config.py", course)
    shutil.copytree(TEACHER / "source", course / "source",
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    env = _env(tmp_path)

    for assignment in ASSIGNMENTS:
        nbgrader(course, env, "generate_assignment", assignment)

    # The students' version: no solution, no hidden test, answer cells to fill.
    for assignment in ASSIGNMENTS:
        source = _source_notebook(assignment)
        release = course / "release" / assignment / source.name
        text = release.read_text(encoding="utf-8")
        for marker in MARKERS:
            assert marker not in text, f"{release.name} still contains {marker!r}"
        hidden = [line.strip() for c in nbformat.read(source, as_version=4).cells
                  if "### BEGIN HIDDEN TESTS" in c.source
                  for line in c.source.split("### BEGIN HIDDEN TESTS")[1]
                  .split("### END HIDDEN TESTS")[0].splitlines() if len(line.strip()) > 20]
        assert hidden and not any(line in text for line in hidden)
        assert "raise NotImplementedError()" in text

    students = {"solved": None, "blank": None}
    for student in students:      # autograde adds unknown students to the gradebook
        for assignment in ASSIGNMENTS:
            source = _source_notebook(assignment)
            release = course / "release" / assignment / source.name
            dst = course / "submitted" / student / assignment / source.name
            dst.parent.mkdir(parents=True)
            if student == "solved":
                solved_copy(release, source, dst)
            else:
                shutil.copy2(release, dst)

    # (nbgrader warns that the checksum of every test cell with hidden tests "has
    # changed": the students' copy lacks the hidden lines, which autograde puts back.)
    log = nbgrader(course, env, "autograde", "*")
    nbgrader(course, env, "export", "--to", str(course / "grades.csv"))

    with open(course / "grades.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    scores = {(r["assignment"], r["student_id"]): (float(r["score"]), float(r["max_score"]))
              for r in rows}
    assert set(scores) == {(a, s) for a in ASSIGNMENTS for s in students}
    for assignment in ASSIGNMENTS:
        points = sum(_nbgrader_meta(c).get("points", 0) for c in
                     nbformat.read(_source_notebook(assignment), as_version=4).cells
                     if _nbgrader_meta(c).get("grade"))
        assert scores[(assignment, "solved")] == (points, points), \
            f"{assignment}: the solved copy lost points\n{log[-4000:]}"
        assert scores[(assignment, "blank")] == (0.0, points), \
            f"{assignment}: the blank copy scored\n{log[-4000:]}"
