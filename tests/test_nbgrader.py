"""The homework round trip through nbgrader's own command line.

In a temporary copy of the course folder ``teacher/`` (its nbgrader_config.py
and ``source/``), the test runs what a teacher runs: ``nbgrader
generate_assignment`` for every assignment (the homework sets and the
capstone), then collects two submissions per assignment, a *solved* one (the
students' version with the teacher's solutions typed into the answer cells,
as a student who got everything right would hand in) and a *blank* one (the
students' version untouched), runs ``nbgrader autograde`` and reads the
scores with ``nbgrader export``: full marks on the autograded cells for the
solved copy, zero for the blank one. It also checks that the students'
version hides the solutions and the hidden tests.

Written answers are graded by hand (nbgrader's "manually graded answer"
cells: markdown, ``solution`` and ``grade`` both set). autograde leaves them
ungraded when the student wrote something and gives them 0 when the student
left them untouched; the test checks both, cell by cell in the gradebook,
then plays the teacher's part (a manual score for each written answer, as
the formgrader stores it) and exports again: only then does the solved copy
reach the maximum.

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


def _kinds(nb) -> dict[str, list]:
    """The nbgrader cells of a notebook by role."""
    cells = [c for c in nb.cells if _nbgrader_meta(c)]
    meta = _nbgrader_meta
    return {
        "answers": [c for c in cells if meta(c).get("solution") and not meta(c).get("grade")],
        "autograded": [c for c in cells if meta(c).get("grade") and not meta(c).get("solution")],
        "manual": [c for c in cells if meta(c).get("grade") and meta(c).get("solution")],
    }


def _points(assignment: str) -> tuple[float, float]:
    """(autograded points, points graded by hand) of an assignment."""
    kinds = _kinds(nbformat.read(_source_notebook(assignment), as_version=4))
    return tuple(float(sum(_nbgrader_meta(c)["points"] for c in kinds[k]))
                 for k in ("autograded", "manual"))


# --------------------------------------------------------------------------
# The source notebooks themselves (no nbgrader needed)

@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_source_assignment_is_well_formed(assignment):
    nb = nbformat.read(_source_notebook(assignment), as_version=4)
    nbformat.validate(nb)
    cells = [c for c in nb.cells if _nbgrader_meta(c)]
    ids = [_nbgrader_meta(c)["grade_id"] for c in cells]
    assert len(ids) == len(set(ids)), "grade_id must be unique"
    kinds = _kinds(nb)
    # each code answer has its autograded test cell
    assert len(kinds["answers"]) >= 3 and len(kinds["autograded"]) == len(kinds["answers"])
    for cell in kinds["answers"]:
        assert cell.cell_type == "code" and "### BEGIN SOLUTION" in cell.source
    for cell in kinds["autograded"]:
        meta = _nbgrader_meta(cell)
        assert cell.cell_type == "code" and meta["locked"] and meta["points"] > 0
        assert "### BEGIN HIDDEN TESTS" in cell.source, f"{meta['grade_id']}: no hidden test"
        assert "assert" in cell.source.split("### BEGIN HIDDEN TESTS")[0], \
            f"{meta['grade_id']}: no visible test either"
    for cell in kinds["manual"]:
        # a written answer graded by hand: the teacher's model answer and grading notes
        # sit between the solution markers (the students' version replaces them)
        meta = _nbgrader_meta(cell)
        assert cell.cell_type == "markdown" and not meta["locked"] and meta["points"] > 0
        assert "### BEGIN SOLUTION" in cell.source and "### END SOLUTION" in cell.source
        assert "Grading notes" in cell.source, f"{meta['grade_id']}: no grading notes"
        before = nb.cells[nb.cells.index(cell) - 1]
        assert before.cell_type == "markdown" and _nbgrader_meta(before).get("locked"), \
            f"{meta['grade_id']}: its question must stand in a locked cell just above it"
    # stored without outputs: nbgrader generates from the source, the kernel fills it
    assert all(c.get("execution_count") is None for c in nb.cells if c.cell_type == "code")


HEADING_POINTS = re.compile(r"^#+ .*\((\d+) points?\b", re.M)


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_points_a_heading_states_are_the_points_its_cells_give(assignment):
    nb = nbformat.read(_source_notebook(assignment), as_version=4)
    stated, given, current = {}, {}, None
    for cell in nb.cells:
        meta = _nbgrader_meta(cell)
        if cell.cell_type == "markdown" and not meta.get("solution"):
            for match in HEADING_POINTS.finditer(cell.source):
                current = match.group(0)
                stated[current], given[current] = int(match.group(1)), 0
        if meta.get("grade"):
            assert current is not None, f"{meta['grade_id']}: graded before any heading"
            given[current] += meta["points"]
    assert stated and stated == given


def test_the_capstone_has_written_answers_graded_by_hand():
    capstones = [a for a in ASSIGNMENTS if a.startswith("capstone")]
    assert capstones, "no capstone in teacher/source"
    for assignment in capstones:
        auto, manual = _points(assignment)
        assert auto > 0 and manual > 0
        text = _source_notebook(assignment).read_text(encoding="utf-8")
        assert f"{auto + manual:g} points" in text and f"{auto:g} are autograded" in text \
            and f"{manual:g} are your" in text, "the introduction states the points"


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
    """The students' version with the teacher's solution in each answer cell (code, or the
    model answer of a written one)."""
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
            stub = "raise NotImplementedError()" if cell.cell_type == "code" else "YOUR ANSWER HERE"
            assert stub in cell.source, f"{gid}: the students' version has no {stub!r}"
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
        if _points(assignment)[1]:
            assert "YOUR ANSWER HERE" in text
            assert "Grading notes" not in text, "the grading notes must stay teacher-side"

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

    def scores() -> dict:
        with open(course / "grades.csv", newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        return {(r["assignment"], r["student_id"]): (float(r["score"]), float(r["max_score"]))
                for r in rows}

    exported = scores()
    assert set(exported) == {(a, s) for a in ASSIGNMENTS for s in students}
    for assignment in ASSIGNMENTS:
        auto, manual = _points(assignment)
        assert exported[(assignment, "solved")] == (auto, auto + manual), \
            f"{assignment}: the solved copy lost autograded points\n{log[-4000:]}"
        assert exported[(assignment, "blank")] == (0.0, auto + manual), \
            f"{assignment}: the blank copy scored\n{log[-4000:]}"

    # cell by cell, as the formgrader shows them; then the teacher grades the written answers
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for assignment in ASSIGNMENTS:
            source = _source_notebook(assignment)
            kinds = _kinds(nbformat.read(source, as_version=4))
            for student in students:
                for cell in kinds["autograded"] + kinds["manual"]:
                    meta = _nbgrader_meta(cell)
                    grade = gb.find_grade(meta["grade_id"], source.stem, assignment, student)
                    where = f"{assignment} {meta['grade_id']} ({student})"
                    written = cell in kinds["manual"]
                    if student == "blank":
                        assert (grade.auto_score, grade.needs_manual_grade) == (0, False), where
                    elif written:
                        assert grade.auto_score is None and grade.needs_manual_grade, where
                        grade.manual_score = meta["points"]     # what the formgrader stores
                    else:
                        assert (grade.auto_score, grade.needs_manual_grade) \
                            == (meta["points"], False), where
        gb.db.commit()

    nbgrader(course, env, "export", "--to", str(course / "grades.csv"))
    exported = scores()
    for assignment in ASSIGNMENTS:
        auto, manual = _points(assignment)
        assert exported[(assignment, "solved")] == (auto + manual, auto + manual), assignment
        assert exported[(assignment, "blank")] == (0.0, auto + manual), assignment
