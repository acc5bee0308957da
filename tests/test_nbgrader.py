"""The homework: the source notebooks of ``teacher/source/`` read without nbgrader, then a new
cohort graded as a teacher grades it (``tools/assignments.py --seed``, ``make autograde``, the
written answers by hand, ``nbgrader export``): solved, untouched and copied submissions.

Fetching, submitting and collecting through the exchange: tests/test_classroom.py, on the hub;
the line that used to switch the tests off, beside wrong answers: tests/test_grader_attacks.py.
"""

import csv
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[1]
TEACHER = REPO / "teacher"
ASSIGNMENTS = sorted(p.name for p in (TEACHER / "source").iterdir() if p.is_dir())
MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION", "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS")
GRADED_NOTE = "# Marked by the course's grader after you submit ("
SOLUTION_LINES = re.compile(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*(\n|\Z)", re.M)
SEED_LINE = re.compile(r"^SEED = (\d+)\b", re.M)
COHORT_SEED = 4711                 # the round trip's cohort: not the source's own seed


def _meta(cell) -> dict:
    return cell.metadata.get("nbgrader", {})


def _source_notebook(assignment: str) -> Path:
    (path,) = (TEACHER / "source" / assignment).glob("*.ipynb")
    return path


def _nb(assignment: str):
    return nbformat.read(_source_notebook(assignment), as_version=4)


def _kinds(nb) -> dict[str, list]:
    meta = [(c, _meta(c)) for c in nb.cells]
    return {"answers": [c for c, m in meta if m.get("solution") and not m.get("grade")],
            "autograded": [c for c, m in meta if m.get("grade") and not m.get("solution")],
            "manual": [c for c, m in meta if m.get("grade") and m.get("solution")]}


def _cell_points(assignment: str, role: str = "autograded") -> dict[str, float]:
    return {_meta(c)["grade_id"]: float(_meta(c)["points"]) for c in _kinds(_nb(assignment))[role]}


def _points(assignment: str) -> tuple[float, float]:
    """(autograded points, points graded by hand) of an assignment."""
    return tuple(sum(_cell_points(assignment, role).values()) for role in ("autograded", "manual"))


# --- The source notebooks themselves (no nbgrader needed) -------------------------------------

HEADING_POINTS = re.compile(r"^#+ .*\((\d+) points?\b", re.M)


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_a_source_notebook_is_well_formed_seeded_and_its_points_add_up(assignment):
    nb = _nb(assignment)
    nbformat.validate(nb)          # (unique grade ids: nbgrader's generate, in the round trip)
    kinds = _kinds(nb)
    # each code answer has at least one autograded cell
    assert len(kinds["answers"]) >= 3 and len(kinds["autograded"]) >= len(kinds["answers"])
    for cell in kinds["manual"]:
        # a written answer graded by hand, the teacher's grading notes in it
        meta = _meta(cell)
        assert cell.cell_type == "markdown" and not meta["locked"] and meta["points"] > 0
        assert "Grading notes" in cell.source, f"{meta['grade_id']}: no grading notes"
        before = nb.cells[nb.cells.index(cell) - 1]
        assert before.cell_type == "markdown" and _meta(before).get("locked"), \
            f"{meta['grade_id']}: its question must stand in a locked cell just above it"
    # the judging is the grader's (teacher/grader/): a graded cell is a note, so nothing of the
    # tests reaches a student, and Validate claims nothing
    for cell in kinds["autograded"]:
        meta = _meta(cell)
        assert cell.cell_type == "code" and meta["locked"] and meta["points"] > 0
        assert cell.source.startswith(GRADED_NOTE) and f"({meta['points']:g} point" in cell.source
        assert all(line.startswith("#") for line in cell.source.splitlines()), meta["grade_id"]
        assert "checks nothing" in cell.source
    assert "HIDDEN TESTS" not in _source_notebook(assignment).read_text(encoding="utf-8")
    # stored without outputs: nbgrader generates from the source, the grader fills it
    assert all(c.get("execution_count") is None for c in nb.cells if c.cell_type == "code")
    assert "How it is marked" in nb.cells[0].source
    # (the set-up draws the student's data as the grader does: every solved notebook of the
    # round trip below gets full marks on its own student's data)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert SEED_LINE.search(code[0].source), "the one SEED line is in the set-up cell"
    # every random draw of the locked cells comes from the student's own data, never a literal
    for cell in code:
        if _meta(cell).get("solution"):
            continue
        for call in re.findall(r"(?:seed|random_state)=([^,)\s]+)", cell.source):
            assert call in ("SEED", "VARIANT"), f"{_meta(cell)['grade_id']}: {call}"
        assert "default_rng" not in cell.source, _meta(cell)["grade_id"]
    # the points a heading states are the points its cells give
    stated, given, current = {}, {}, None
    for cell in nb.cells:
        meta = _meta(cell)
        if cell.cell_type == "markdown" and not meta.get("solution"):
            for match in HEADING_POINTS.finditer(cell.source):
                current = match.group(0)
                stated[current], given[current] = int(match.group(1)), 0
        if meta.get("grade"):
            assert current is not None, f"{meta['grade_id']}: graded before any heading"
            given[current] += meta["points"]
    assert stated and stated == given


def test_the_capstone_has_written_answers_graded_by_hand_and_a_rubric():
    capstones = [a for a in ASSIGNMENTS if a.startswith("capstone")]
    assert capstones, "no capstone in teacher/source"
    for assignment in capstones:
        auto, manual = _points(assignment)
        assert auto > 0 and manual > 0
        text = _source_notebook(assignment).read_text(encoding="utf-8")
        assert f"{auto + manual:g} points" in text and f"{auto:g} are autograded" in text \
            and f"{manual:g} are your" in text, "the introduction states the points"
        rubric = (TEACHER / "source" / assignment / "rubric.md").read_text(encoding="utf-8")
        for answer, points in (("A", 2), ("B", 3), ("C", 5)):
            assert f"Written answer {answer}" in rubric and f"({points} points)" in rubric
        # the rubric's table of autograded parts gives the notebook's points
        rows = re.findall(r"^\| [1-6][ab]? · [^|]+\| (\d+) \|", rubric, re.M)
        assert sum(map(int, rows)) == auto


def test_the_course_config_sizes_a_cells_time_and_make_assignments_seeds():
    # the successor of Execute.timeout: the sandbox's limit on a cell (CPU seconds)
    text = (TEACHER / "nbgrader_config.py").read_text(encoding="utf-8")
    (timeout,) = re.findall(r"^c\.SandboxGrader\.cell_timeout = (\d+)", text, re.M)
    assert 0 < int(timeout) <= 60
    target = (REPO / "Makefile").read_text(encoding="utf-8").split("\nassignments:", 1)[1].split("\n\n", 1)[0]
    assert "tools/assignments.py" in target and "--seed $(SEED)" in target


def test_the_seeding_tool_gives_a_cohort_its_own_key_and_wants_one_seed_line(tmp_path, tool):
    assignments_tool = tool("assignments")
    assert assignments_tool.write_key(tmp_path, 11)
    first = (tmp_path / "cohort.key").read_text(encoding="utf-8").splitlines()
    assert re.fullmatch(r"[0-9a-f]{64}", first[0]) and first[1] == "seed 11"
    assert (tmp_path / "cohort.key").stat().st_mode & 0o077 == 0, "readable by its owner only"
    assert not assignments_tool.write_key(tmp_path, 11)          # the same cohort keeps it
    assert assignments_tool.write_key(tmp_path, 12)              # a new cohort, a new key
    assert (tmp_path / "cohort.key").read_text(encoding="utf-8").split()[0] != first[0]
    # a source without exactly one SEED line (in a code cell) is refused
    for cells, says in (([{"cell_type": "code", "source": "SEED = 1\nSEED = 2"}], "2 lines"),
                        ([{"cell_type": "markdown", "source": "SEED = 1"}], "0 lines")):
        with pytest.raises(assignments_tool.SeedError, match=says):
            assignments_tool.with_seed({"cells": cells}, 3)


# --- The submissions --------------------------------------------------------------------------

#: The numbers a copying submission types in after an answer cell (the solved student's), by
#: assignment; COPIED: the graded cells that mark them (hw1-q2-answer's: hw1-q2-tests).
COPIED_NUMBERS = {
    "hw1_rejection_measures": {"hw1-q2-answer": ("best_r", "best_Q", "best_Q_interval"),
                               "hw1-q3-answer": ("A_rejecting", "phi_rejecting", "A_gain", "A_interval")},
    "capstone_digits": {"capstone-q5-numbers": ("aurc_val", "excess_aurc_val", "failure_auroc_val",
                                                "Q_interval_val")},
}
COPIED = {a: {gid.rsplit("-", 1)[0] + "-tests" for gid in cells} for a, cells in COPIED_NUMBERS.items()}


def _solutions(source: Path) -> dict:
    return {_meta(c)["grade_id"]: SOLUTION_LINES.sub("", c.source)
            for c in nbformat.read(source, as_version=4).cells if _meta(c).get("solution")}


def _fill(release: Path, dst: Path, answers: dict) -> None:
    """The students' version with ``answers[grade_id]`` typed into those answer cells."""
    nb = nbformat.read(release, as_version=4)
    filled = 0
    for cell in nb.cells:
        gid = _meta(cell).get("grade_id")
        if _meta(cell).get("solution") and gid in answers:
            stub = "raise NotImplementedError()" if cell.cell_type == "code" else "YOUR ANSWER HERE"
            assert stub in cell.source, f"{gid}: the students' version has no {stub!r}"
            cell.source = answers[gid]
            filled += 1
    assert filled == len(answers)
    dst.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, dst)


def _copied(cohort, source: Path, assignment: str) -> dict:
    """The solutions with the solved student's numbers typed in after their answer cells."""
    values, answers = cohort.reference(assignment, "solved"), _solutions(source)
    for gid, names in COPIED_NUMBERS[assignment].items():
        answers[gid] += "\n# the solved student's numbers, typed in\n" + "".join(
            f"{name} = {values[name]!r}\n" for name in names)
    return answers


#: (student, assignment) -> the kind of that submission.
SUBMISSIONS = {**{(kind, a): kind for a in ASSIGNMENTS for kind in ("solved", "blank")},
               **{("copied", a): "copied" for a in COPIED}}


def _expected_auto(kind: str, assignment: str) -> float:
    cells = _cell_points(assignment)
    lost = {"solved": set(), "blank": set(cells), "copied": COPIED.get(assignment, set())}[kind]
    return sum(points for gid, points in cells.items() if gid not in lost)


# --- The round trip ---------------------------------------------------------------------------

@pytest.mark.slow
def test_generate_autograde_grade_by_hand_and_export_for_a_new_cohort(tmp_path, new_cohort):
    cohort = new_cohort(tmp_path, COHORT_SEED)        # a seed that is not the sources' own
    course, env = cohort.course, cohort.env

    # The students' version: the cohort's seed, no solution, no grader, no rubric.
    for assignment in ASSIGNMENTS:
        source = _source_notebook(assignment)
        assert not re.search(rf"SEED = {COHORT_SEED}\b", source.read_text(encoding="utf-8"))
        release = course / "release" / assignment / source.name
        text = release.read_text(encoding="utf-8")
        assert f"SEED = {COHORT_SEED}" in text and GRADED_NOTE in text
        assert [m for m in MARKERS if m in text] == [], release.name
        assert sorted(p.name for p in release.parent.iterdir()) == [source.name], \
            "only the notebook is handed out (the rubric and the grader stay in the course folder)"
        assert "Grading notes" not in text, "the grading notes must stay teacher-side"

    for (student, assignment), kind in SUBMISSIONS.items():
        source = _source_notebook(assignment)
        answers = {"solved": lambda: _solutions(source), "blank": dict,
                   "copied": lambda: _copied(cohort, source, assignment)}[kind]()
        _fill(course / "release" / assignment / source.name,
              course / "submitted" / student / assignment / source.name, answers)

    # make autograde, one assignment at a time, as a TA runs it
    logs = {}
    for assignment in ASSIGNMENTS:
        done = cohort.autograde(assignment)
        logs[assignment] = done.stdout + done.stderr
        assert done.returncode == 0, logs[assignment][-4000:]

    def exported() -> dict:
        done = subprocess.run([sys.executable, "-m", "nbgrader", "export", "--to", "grades.csv"], cwd=course,
                              env=env, capture_output=True, text=True, timeout=900)
        log = done.stdout + done.stderr
        assert done.returncode == 0 and "ERROR" not in log, log[-4000:]
        with open(course / "grades.csv", newline="", encoding="utf-8") as f:
            return {(r["student_id"], r["assignment"]): (float(r["score"]), float(r["max_score"]))
                    for r in csv.DictReader(f) if (r["student_id"], r["assignment"]) in SUBMISSIONS}

    scores = exported()
    for (student, assignment), kind in SUBMISSIONS.items():
        auto, manual = _points(assignment)
        assert scores[(student, assignment)] == (_expected_auto(kind, assignment), auto + manual), \
            f"{assignment}, {kind}: {scores[(student, assignment)]}\n{logs[assignment][-3000:]}"
    for assignment in COPIED:
        assert "another student's numbers: copied answered" in logs[assignment], logs[assignment][-2000:]

    # the capstone's report on the sealed test digits, in the autograded notebook
    autograded = nbformat.read(course / "autograded" / "solved" / "capstone_digits" /
                               "capstone_digits.ipynb", as_version=4)
    (report,) = [c for c in autograded.cells if _meta(c).get("grade_id") == "capstone-q4b-tests"]
    assert "sealed test digits" in report.outputs[0]["text"]

    # cell by cell, as the formgrader shows them; then the teacher grades the written answers
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for (student, assignment), kind in SUBMISSIONS.items():
            for cell in _kinds(_nb(assignment))["manual"]:
                meta = _meta(cell)
                grade = gb.find_grade(meta["grade_id"], _source_notebook(assignment).stem, assignment,
                                      student)
                expected = (0, False) if kind == "blank" else (None, True)
                assert (grade.auto_score, grade.needs_manual_grade) == expected, (meta, student)
                if kind == "solved":
                    grade.manual_score = meta["points"]     # what the formgrader stores
        gb.db.commit()

    scores = exported()
    for assignment in ASSIGNMENTS:
        assert scores[("solved", assignment)] == (sum(_points(assignment)),) * 2, assignment
