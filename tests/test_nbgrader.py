"""The homework, and the round trip through nbgrader's own command line.

The source notebooks of ``teacher/source/`` are checked first, without nbgrader: well formed,
every student's data drawn from one ``SEED`` line and the student's id, no sample a lesson
prints, a judge in ``teacher/grader/``, and the points the headings state are the cells'.

Then the round trip, as a teacher runs it for a new cohort: ``tools/assignments.py --seed``
generates the students' versions and the cohort's key; two students fetch homework 1 from
nbgrader's exchange, submit it, and the teacher collects it; the other submissions are placed in
``submitted/`` as ``zip_collect`` would; ``make autograde`` grades each assignment and
``nbgrader export`` reads the scores:

- *solved* (the teacher's solutions typed in, every assignment): full marks on the autograded
  cells, and the maximum once the written answers are graded;
- *blank* (the students' version untouched, every assignment): zero;
- *tampered* (the line that used to switch the tests off, ``np.isclose = lambda *a, **k:
  np.True_ ...``, beside wrong answers; homework 1 and 2): zero;
- *copied* (the solutions with the solved student's numbers typed in as literals; homework 1
  and the capstone): zero on every graded cell whose numbers it copied, full marks on the rest.

Written answers are graded by hand: autograde leaves them ungraded when the student wrote
something and gives 0 when the student left them untouched; the test checks both in the
gradebook, then plays the teacher's part (a manual score for each) and exports again.
"""

from __future__ import annotations

import ast
import csv
import json
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
    """The nbgrader cells of a notebook by role."""
    meta = [(c, _meta(c)) for c in nb.cells]
    return {"answers": [c for c, m in meta if m.get("solution") and not m.get("grade")],
            "autograded": [c for c, m in meta if m.get("grade") and not m.get("solution")],
            "manual": [c for c, m in meta if m.get("grade") and m.get("solution")]}


def _cell_points(assignment: str, role: str = "autograded") -> dict[str, float]:
    return {_meta(c)["grade_id"]: float(_meta(c)["points"]) for c in _kinds(_nb(assignment))[role]}


def _points(assignment: str) -> tuple[float, float]:
    """(autograded points, points graded by hand) of an assignment."""
    return tuple(sum(_cell_points(assignment, role).values()) for role in ("autograded", "manual"))


# --------------------------------------------------------------------------
# The source notebooks themselves (no nbgrader needed)

@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_source_assignment_is_well_formed(assignment):
    nb = _nb(assignment)
    nbformat.validate(nb)
    cells = [c for c in nb.cells if _meta(c)]
    ids = [_meta(c)["grade_id"] for c in cells]
    assert len(ids) == len(set(ids)), "grade_id must be unique"
    kinds = _kinds(nb)
    # each code answer has at least one autograded cell
    assert len(kinds["answers"]) >= 3 and len(kinds["autograded"]) >= len(kinds["answers"])
    for cell in kinds["answers"]:
        assert cell.cell_type == "code" and "### BEGIN SOLUTION" in cell.source
    for cell in kinds["manual"]:
        # a written answer graded by hand: the teacher's model answer and grading notes
        # sit between the solution markers (the students' version replaces them)
        meta = _meta(cell)
        assert cell.cell_type == "markdown" and not meta["locked"] and meta["points"] > 0
        assert "### BEGIN SOLUTION" in cell.source and "### END SOLUTION" in cell.source
        assert "Grading notes" in cell.source, f"{meta['grade_id']}: no grading notes"
        before = nb.cells[nb.cells.index(cell) - 1]
        assert before.cell_type == "markdown" and _meta(before).get("locked"), \
            f"{meta['grade_id']}: its question must stand in a locked cell just above it"
    # stored without outputs: nbgrader generates from the source, the grader fills it
    assert all(c.get("execution_count") is None for c in nb.cells if c.cell_type == "code")
    assert "How it is marked" in nb.cells[0].source


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_graded_cells_hold_no_test_and_say_who_marks_them(assignment):
    """The judging is the grader's (teacher/grader/), outside every notebook: a graded cell is
    a note, so nothing of the tests reaches a student, and Validate claims nothing."""
    nb = _nb(assignment)
    for cell in _kinds(nb)["autograded"]:
        meta = _meta(cell)
        assert cell.cell_type == "code" and meta["locked"] and meta["points"] > 0
        assert cell.source.startswith(GRADED_NOTE) and f"({meta['points']:g} point" in cell.source
        assert all(line.startswith("#") for line in cell.source.splitlines()), meta["grade_id"]
        assert "checks nothing" in cell.source
    text = _source_notebook(assignment).read_text(encoding="utf-8")
    assert "HIDDEN TESTS" not in text and "rejlab.grading" not in text and "grading." not in text
    assert (TEACHER / "grader" / f"{assignment}.py").is_file(), "every assignment has its judge"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_each_assignment_draws_its_data_from_one_seed_and_the_students_id(assignment):
    nb = _nb(assignment)
    code = [c for c in nb.cells if c.cell_type == "code"]
    lines = [m for c in code for m in SEED_LINE.finditer(c.source)]
    assert len(lines) == 1 and SEED_LINE.search(code[0].source), "one SEED line, in the set-up"
    setup = code[0].source
    assert "STUDENT = homework.student_id()" in setup
    assert f"homework.{assignment}(SEED, STUDENT)" in setup, "the data function the grader calls"
    # every random draw of the locked cells comes from the student's own data, never a literal
    for cell in code:
        if _meta(cell).get("solution"):
            continue
        for call in re.findall(r"(?:seed|random_state)=([^,)\s]+)", cell.source):
            assert call in ("SEED", "VARIANT"), f"{_meta(cell)['grade_id']}: {call}"
        assert "default_rng" not in cell.source, _meta(cell)["grade_id"]


def test_no_homework_uses_a_sample_a_lesson_prints():
    used = set()
    for path in sorted((REPO / "notebooks").glob("*.ipynb")):
        text = path.read_text(encoding="utf-8")
        used |= {int(n) for n in re.findall(r"four_gaussians\((\d+)", text)}
    text = (REPO / "rejlab" / "course" / "homework.py").read_text(encoding="utf-8")
    drawn = re.findall(r"four_gaussians\((\d+), seed=(\w+)", text)
    assert drawn
    for size, seed in drawn:
        assert seed == "variant" and int(size) not in used, \
            f"four_gaussians({size}, seed={seed}) is a lesson's sample"


HEADING_POINTS = re.compile(r"^#+ .*\((\d+) points?\b", re.M)


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_points_a_heading_states_are_the_points_its_cells_give(assignment):
    nb = _nb(assignment)
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


def test_the_course_config_sizes_the_timeout_and_keeps_the_rubric_private():
    text = (TEACHER / "nbgrader_config.py").read_text(encoding="utf-8")
    # the successor of Execute.timeout: the sandbox's limit on a cell (CPU seconds)
    (timeout,) = re.findall(r"^c\.SandboxGrader\.cell_timeout = (\d+)", text, re.M)
    assert 0 < int(timeout) <= 60
    assert re.search(r"^c\.Autograde\.autograde_preprocessors = \[SandboxGrader,", text, re.M)
    assert "Execute" not in re.search(r"autograde_preprocessors = \[[^]]*\]", text).group(0)
    ignore = re.search(r"^c\.CourseDirectory\.ignore = (\[.*\])", text, re.M)
    assert ignore and "rubric.md" in ast.literal_eval(ignore.group(1))


def test_the_course_config_reads_the_cohort_when_there_is_one(tmp_path):
    pytest.importorskip("nbgrader")         # the config imports nbgrader's preprocessors
    from traitlets.config.loader import PyFileConfigLoader

    shutil.copy2(TEACHER / "nbgrader_config.py", tmp_path)
    shutil.copytree(TEACHER / "grader", tmp_path / "grader",
                    ignore=shutil.ignore_patterns("__pycache__"))

    def source_directory():
        config = PyFileConfigLoader("nbgrader_config.py", path=str(tmp_path)).load_config()
        return config.CourseDirectory.get("source_directory", "source")

    assert source_directory() == "source"
    (tmp_path / "cohort").mkdir()
    assert source_directory() == "cohort"


def test_assignments_target_runs_the_seeding_tool():
    text = (REPO / "Makefile").read_text(encoding="utf-8")
    target = text.split("\nassignments:", 1)[1].split("\n\n", 1)[0]
    assert "tools/assignments.py" in target and "--seed $(SEED)" in target


def test_a_cohort_gets_a_secret_key_of_its_own(tmp_path, tool):
    assignments_tool = tool("assignments")
    assert assignments_tool.write_key(tmp_path, 11)
    first = (tmp_path / "cohort.key").read_text(encoding="utf-8").splitlines()
    assert re.fullmatch(r"[0-9a-f]{64}", first[0]) and first[1] == "seed 11"
    assert (tmp_path / "cohort.key").stat().st_mode & 0o077 == 0, "readable by its owner only"
    assert not assignments_tool.write_key(tmp_path, 11)          # the same cohort keeps it
    assert assignments_tool.write_key(tmp_path, 12)              # a new cohort, a new key
    assert (tmp_path / "cohort.key").read_text(encoding="utf-8").split()[0] != first[0]


def test_with_seed_rewrites_the_one_seed_line_and_refuses_two(tool):
    assignments_tool = tool("assignments")
    nb = json.loads(_source_notebook(ASSIGNMENTS[0]).read_text(encoding="utf-8"))
    out = assignments_tool.with_seed(nb, 99)
    assert [m for c in out["cells"] for m in SEED_LINE.findall("".join(c["source"]))] == ["99"]
    twice = {"cells": [{"cell_type": "code", "source": "SEED = 1\nSEED = 2"}]}
    with pytest.raises(assignments_tool.SeedError, match="2 lines"):
        assignments_tool.with_seed(twice, 3)
    with pytest.raises(assignments_tool.SeedError, match="0 lines"):
        assignments_tool.with_seed({"cells": [{"cell_type": "markdown", "source": "SEED = 1"}]}, 3)


# --------------------------------------------------------------------------
# The submissions

OVERRIDE = ("np.isclose = lambda *a, **k: np.True_; np.allclose = lambda *a, **k: True; "
            "np.array_equal = lambda *a, **k: True")

#: The numbers a copying submission types in (the solved student's), by assignment.
COPIED_NUMBERS = {
    "hw1_rejection_measures": ("best_r", "best_Q", "best_Q_interval", "A_rejecting", "phi_rejecting",
                               "A_gain", "A_interval"),
    "capstone_digits": ("aurc_val", "excess_aurc_val", "failure_auroc_val", "Q_interval_val"),
}
#: The graded cells whose numbers the copying submission copied.
COPIED = {
    "hw1_rejection_measures": {"hw1-q2-tests", "hw1-q3-tests"},
    "capstone_digits": {"capstone-q5-tests"},
}
#: Two students who fetch homework 1 from the exchange and submit it.
THROUGH_THE_EXCHANGE = {"solved": "hw1_rejection_measures", "blank": "hw1_rejection_measures"}


def _solutions(source: Path) -> dict:
    return {_meta(c)["grade_id"]: SOLUTION_LINES.sub("", c.source)
            for c in nbformat.read(source, as_version=4).cells if _meta(c).get("solution")}


def _code_answers(source: Path) -> list:
    """The grade ids of the code answer cells (the written answers are markdown)."""
    return [_meta(c)["grade_id"] for c in nbformat.read(source, as_version=4).cells
            if c.cell_type == "code" and _meta(c).get("solution")]


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


def _wrong(code: str) -> str:
    """An answer that runs and is wrong: every function returns -1, every name is -1."""
    out = []
    for node in ast.parse(code).body:
        if isinstance(node, ast.FunctionDef):
            out.append(f"def {node.name}(*args, **kwargs):\n    return -1")
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                out += [f"{n.id} = -1" for n in ast.walk(target) if isinstance(n, ast.Name)]
    return "\n".join(out)


def _copied(cohort, source: Path, assignment: str) -> dict:
    """The solutions with the solved student's numbers typed in after each answer cell."""
    values = cohort.reference(assignment, "solved")
    answers = _solutions(source)
    for gid in _code_answers(source):
        code = answers[gid]
        assigned = {n.id for node in ast.parse(code).body if isinstance(node, ast.Assign)
                    for target in node.targets for n in ast.walk(target)
                    if isinstance(n, ast.Name)}
        typed = [f"{name} = {values[name]!r}" for name in COPIED_NUMBERS[assignment]
                 if name in assigned]
        if typed:
            answers[gid] = code.rstrip("\n") + "\n# the solved student's numbers, typed in\n" \
                + "\n".join(typed) + "\n"
    return answers


def _submissions() -> dict:
    """(student, assignment) -> the kind of that submission."""
    return {**{(kind, a): kind for a in ASSIGNMENTS for kind in ("solved", "blank")},
            **{("tampered", a): "tampered" for a in ("hw1_rejection_measures",
                                                     "hw2_operating_sets_and_cost")},
            **{("copied", a): "copied" for a in COPIED}}


def _build(kind: str, cohort, assignment: str, release: Path, source: Path, dst: Path) -> None:
    if kind == "blank":
        if release != dst:
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(release, dst)
        return
    answers = _solutions(source)
    if kind == "tampered":
        code = _code_answers(source)
        answers = {gid: _wrong(answers[gid]) for gid in code}
        answers[code[0]] += "\n" + OVERRIDE + "\n"
    elif kind == "copied":
        answers = _copied(cohort, source, assignment)
    _fill(release, dst, answers)


def _expected_auto(kind: str, assignment: str) -> float:
    """The autograded marks each kind of submission must get."""
    cells = _cell_points(assignment)
    lost = {"solved": set(), "blank": set(cells), "tampered": set(cells),
            "copied": COPIED.get(assignment, set())}[kind]
    return sum(points for gid, points in cells.items() if gid not in lost)


# --------------------------------------------------------------------------
# The round trip

def nbgrader(course: Path, env: dict, *args: str, cwd: Path | None = None) -> str:
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=cwd or course, env=env,
                          capture_output=True, text=True, timeout=900)
    log = done.stdout + done.stderr
    assert done.returncode == 0 and "ERROR" not in log, \
        f"nbgrader {' '.join(args)} failed ({done.returncode}):\n{log[-4000:]}"
    return log


def _exchange(cohort, tmp_path: Path, kinds: dict) -> None:
    """Release homework 1, let two students fetch and submit it, and collect it."""
    course, env = cohort.course, cohort.env
    exchange = tmp_path / "exchange"
    exchange.mkdir(mode=0o777)
    with open(course / "nbgrader_config.py", "a", encoding="utf-8") as f:
        f.write(f"\nc.Exchange.root = {str(exchange)!r}\n")
    assignment = "hw1_rejection_measures"
    nbgrader(course, env, "release_assignment", assignment)
    for student in THROUGH_THE_EXCHANGE:
        home = tmp_path / "homes" / student
        home.mkdir(parents=True)
        (home / "nbgrader_config.py").write_text(
            f"c = get_config()\nc.Exchange.root = {str(exchange)!r}\n"
            "c.CourseDirectory.course_id = 'rejlab'\n", encoding="utf-8")
        student_env = dict(env, HOME=str(home))
        nbgrader(course, student_env, "fetch_assignment", assignment, cwd=home)
        notebook = home / assignment / f"{assignment}.ipynb"
        source = _source_notebook(assignment)
        _build(kinds[(student, assignment)], cohort, assignment, notebook, source, notebook)
        # one OS user plays every student here: the student id is given as a hub gives it
        nbgrader(course, student_env, "submit", assignment, f"--student={student}", cwd=home)
    nbgrader(course, env, "collect", assignment)
    for student in THROUGH_THE_EXCHANGE:
        assert (course / "submitted" / student / assignment / f"{assignment}.ipynb").is_file()


@pytest.mark.slow
def test_generate_submit_collect_autograde_export_for_a_new_cohort(tmp_path, new_cohort):
    cohort = new_cohort(tmp_path, COHORT_SEED)        # a seed that is not the sources' own
    course, env = cohort.course, cohort.env
    assert (course / "cohort.key").is_file()

    # The students' version: the cohort's seed, no solution, no grader, no rubric.
    for assignment in ASSIGNMENTS:
        source = _source_notebook(assignment)
        (seed,) = re.findall(r"SEED = (\d+)\b", source.read_text(encoding="utf-8"))
        assert int(seed) != COHORT_SEED
        release = course / "release" / assignment / source.name
        text = release.read_text(encoding="utf-8")
        assert f"SEED = {COHORT_SEED}" in text and GRADED_NOTE in text
        for marker in MARKERS:
            assert marker not in text, f"{release.name} still contains {marker!r}"
        assert "raise NotImplementedError()" in text
        assert sorted(p.name for p in release.parent.iterdir()) == [source.name], \
            "only the notebook is handed out (the rubric and the grader stay in the course folder)"
        if _points(assignment)[1]:
            assert "YOUR ANSWER HERE" in text
            assert "Grading notes" not in text, "the grading notes must stay teacher-side"

    kinds = _submissions()
    _exchange(cohort, tmp_path, kinds)
    for (student, assignment), kind in kinds.items():
        if THROUGH_THE_EXCHANGE.get(student) == assignment:
            continue
        source = _source_notebook(assignment)
        release = course / "release" / assignment / source.name
        _build(kind, cohort, assignment, release, source,
               course / "submitted" / student / assignment / source.name)

    # make autograde, one assignment at a time, as a TA runs it
    logs = {}
    for assignment in ASSIGNMENTS:
        done = cohort.autograde(assignment)
        logs[assignment] = done.stdout + done.stderr
        assert done.returncode == 0, logs[assignment][-4000:]
    nbgrader(course, env, "export", "--to", str(course / "grades.csv"))

    def scores() -> dict:
        with open(course / "grades.csv", newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        return {(r["student_id"], r["assignment"]): (float(r["score"]), float(r["max_score"]))
                for r in rows if (r["student_id"], r["assignment"]) in kinds}

    exported = scores()
    assert set(exported) == set(kinds)
    table = "\n".join(f"{kind:10s} {assignment:28s} {exported[(s, assignment)][0]:g} / "
                      f"{exported[(s, assignment)][1]:g} (autograded: {_points(assignment)[0]:g})"
                      for (s, assignment), kind in sorted(kinds.items()))
    print("marks before the written answers are graded:\n" + table)
    for (student, assignment), kind in kinds.items():
        auto, manual = _points(assignment)
        assert exported[(student, assignment)] == (_expected_auto(kind, assignment),
                                                   auto + manual), \
            f"{assignment}, {kind}: {exported[(student, assignment)]}\n{logs[assignment][-3000:]}"
    for assignment in COPIED:
        assert "another student's numbers: copied answered" in logs[assignment], \
            logs[assignment][-2000:]

    # the capstone's report on the sealed test digits, in the autograded notebook
    autograded = nbformat.read(course / "autograded" / "solved" / "capstone_digits" /
                               "capstone_digits.ipynb", as_version=4)
    (report,) = [c for c in autograded.cells
                 if _meta(c).get("grade_id") == "capstone-q4b-tests"]
    assert "sealed test digits" in report.outputs[0]["text"]

    # cell by cell, as the formgrader shows them; then the teacher grades the written answers
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for (student, assignment), kind in kinds.items():
            source = _source_notebook(assignment)
            nb_kinds = _kinds(nbformat.read(source, as_version=4))
            for cell in nb_kinds["manual"]:
                meta = _meta(cell)
                grade = gb.find_grade(meta["grade_id"], source.stem, assignment, student)
                where = f"{assignment} {meta['grade_id']} ({student})"
                if kind in ("blank", "tampered"):
                    assert (grade.auto_score, grade.needs_manual_grade) == (0, False), where
                else:
                    assert grade.auto_score is None and grade.needs_manual_grade, where
                    if kind == "solved":
                        grade.manual_score = meta["points"]     # what the formgrader stores
        gb.db.commit()

    nbgrader(course, env, "export", "--to", str(course / "grades.csv"))
    exported = scores()
    for assignment in ASSIGNMENTS:
        auto, manual = _points(assignment)
        assert exported[("solved", assignment)] == (auto + manual, auto + manual), assignment
        assert exported[("blank", assignment)] == (0.0, auto + manual), assignment
