"""The homework, and the round trip through nbgrader's own command line.

The source notebooks of ``teacher/source/`` are checked first, without nbgrader: each is
well formed (answer cells, locked test cells with visible and hidden tests, written answers
with grading notes and their question locked above them), draws all its data from one
``SEED`` line, compares with nothing a student's cell can rebind (every test cell starts
with ``grading.check_genuine(globals())`` and none calls ``np.isclose``, ``np.allclose`` or
``np.array_equal``), states no expected number as a literal, uses no sample a lesson prints,
and the points its headings state are the points its cells give.

Then the round trip, in a temporary copy of the course folder, as a teacher runs it for a new
cohort: ``tools/assignments.py --seed`` (``make assignments SEED=...``) generates the
students' versions at a seed other than the source's, the test collects five kinds of
submission, scans them with ``tools/check_submissions.py``, runs ``nbgrader autograde`` and
reads the scores with ``nbgrader export``:

- *solved*: the students' version with the teacher's solutions typed in (every assignment):
  full marks on the autograded cells, and the maximum once the written answers are graded;
- *blank*: the students' version untouched (every assignment): zero;
- *tampered*: the one line ``np.isclose = lambda *a, **k: np.True_; np.allclose = ...;
  np.array_equal = ...`` in the first answer, every answer wrong (homework 1 and 2, where it
  used to score 10/10 and 8/10): flagged by the scanner, and zero;
- *hard-coded*: the solutions with their numbers typed in as literals, the numbers of the
  source's own seed, not the cohort's (homework 1 and the capstone): zero on every test cell
  whose numbers it copied, full marks on the functions and objects it computed;
- *peeking* (the capstone): opens the sealed test digits, chooses the rejector and criterion
  of the lowest test cost, and reports with them: it loses part 4b's points (the choice used
  is not the one sealed) and nothing else.

Written answers are graded by hand (nbgrader's "manually graded answer" cells): autograde
leaves them ungraded when the student wrote something and gives them 0 when the student left
them untouched; the test checks both, cell by cell in the gradebook, then plays the teacher's
part (a manual score for each written answer, as the formgrader stores it) and exports again.

nbgrader needs Python >= 3.11 (the ``grading`` extra installs nothing below): the round trip
skips, with that message, on Python 3.10.
"""

from __future__ import annotations

import ast
import contextlib
import csv
import importlib.util
import io
import json
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
HIDDEN = re.compile(r"^[ \t]*### BEGIN HIDDEN TESTS.*?^[ \t]*### END HIDDEN TESTS[^\n]*\n?",
                    re.M | re.S)
SOLUTION_LINES = re.compile(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*(\n|\Z)", re.M)
SEED_LINE = re.compile(r"^SEED = (\d+)\b", re.M)
COHORT_SEED = 4711                 # the round trip's cohort: not the source's own seed




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


def _cell_points(assignment: str) -> dict[str, float]:
    kinds = _kinds(nbformat.read(_source_notebook(assignment), as_version=4))
    return {_nbgrader_meta(c)["grade_id"]: float(_nbgrader_meta(c)["points"])
            for c in kinds["autograded"]}


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
    # each code answer has at least one autograded test cell
    assert len(kinds["answers"]) >= 3 and len(kinds["autograded"]) >= len(kinds["answers"])
    for cell in kinds["answers"]:
        assert cell.cell_type == "code" and "### BEGIN SOLUTION" in cell.source
    for cell in kinds["autograded"]:
        meta = _nbgrader_meta(cell)
        assert cell.cell_type == "code" and meta["locked"] and meta["points"] > 0
        assert "### BEGIN HIDDEN TESTS" in cell.source, f"{meta['grade_id']}: no hidden test"
        visible = HIDDEN.sub("", cell.source)
        assert "assert" in visible, f"{meta['grade_id']}: no visible test either"
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


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_test_cell_first_checks_that_numpy_and_rejlab_are_genuine(assignment):
    nb = nbformat.read(_source_notebook(assignment), as_version=4)
    setup = next(c for c in nb.cells if c.cell_type == "code")
    assert _nbgrader_meta(setup)["locked"] and not _nbgrader_meta(setup)["grade"]
    assert "import rejlab.grading as grading" in setup.source
    assert setup.source.strip().splitlines()[-1].startswith("grading.snapshot(globals())"), \
        "the set-up cell ends with the record of the genuine state"
    for cell in _kinds(nb)["autograded"]:
        first = cell.source.strip().splitlines()[0]
        assert first == "grading.check_genuine(globals())", _nbgrader_meta(cell)["grade_id"]
        # the comparisons a student's cell can rebind are not used at all
        assert not re.search(r"\bnp\.(isclose|allclose|array_equal)\(", cell.source), \
            _nbgrader_meta(cell)["grade_id"]


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_each_assignment_draws_its_data_from_one_seed(assignment):
    nb = nbformat.read(_source_notebook(assignment), as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    lines = [m for c in code for m in SEED_LINE.finditer(c.source)]
    assert len(lines) == 1 and SEED_LINE.search(code[0].source), "one SEED line, in the set-up"
    # every random draw of the locked cells is seeded by SEED, never by a literal
    for cell in code:
        if _nbgrader_meta(cell).get("solution"):
            continue
        for call in re.findall(r"(?:seed|random_state)=([^,)\s]+)", cell.source):
            assert call == "SEED", f"{_nbgrader_meta(cell)['grade_id']}: seeded by {call}"
        for call in re.findall(r"default_rng\(([^)]*)\)", cell.source):
            assert "SEED" in call, f"{_nbgrader_meta(cell)['grade_id']}: default_rng({call})"


def _literal_expectations(source: str) -> list:
    """Numbers other than 0 and 1 given as the expected side of a test's comparison."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("close", "all_close", "same") and len(node.args) >= 2:
            expected = node.args[1]
            if isinstance(expected, ast.Constant) and isinstance(expected.value, (int, float)) \
                    and expected.value not in (0, 1):
                found.append(ast.unparse(node))
        elif isinstance(node, ast.Compare) and any(isinstance(op, ast.Eq) for op in node.ops):
            for side in [node.left, *node.comparators]:
                if isinstance(side, ast.Constant) and isinstance(side.value, float):
                    found.append(ast.unparse(node))
                if isinstance(side, ast.Tuple) and all(isinstance(e, ast.Constant) and
                                                       isinstance(e.value, (int, float))
                                                       for e in side.elts):
                    found.append(ast.unparse(node))
    return found


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_no_expected_value_is_a_literal(assignment):
    nb = nbformat.read(_source_notebook(assignment), as_version=4)
    for cell in _kinds(nb)["autograded"]:
        found = _literal_expectations(cell.source)
        assert not found, f"{_nbgrader_meta(cell)['grade_id']} expects literals: {found}"


def test_the_literal_check_can_fail():
    assert _literal_expectations("assert grading.close(x, 0.7)\nassert (a, b) == (718, 539)")
    assert not _literal_expectations("assert grading.close(x, rl.aurc(a, c))\nassert y == 1")


def test_no_homework_uses_a_sample_a_lesson_prints():
    used = set()
    for path in sorted((REPO / "notebooks").glob("*.ipynb")):
        text = path.read_text(encoding="utf-8")
        used |= {int(n) for n in re.findall(r"four_gaussians\((\d+)", text)}
    for assignment in ASSIGNMENTS:
        text = _source_notebook(assignment).read_text(encoding="utf-8")
        for size, seed in re.findall(r"four_gaussians\((\d+), seed=(\w+)", text):
            assert seed == "SEED" and int(size) not in used, \
                f"{assignment}: four_gaussians({size}, seed={seed}) is a lesson's sample"


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
    (timeout,) = re.findall(r"^c\.Execute\.timeout = (\d+)", text, re.M)
    assert 0 < int(timeout) <= 60
    ignore = re.search(r"^c\.CourseDirectory\.ignore = (\[.*\])", text, re.M)
    assert ignore and "rubric.md" in ast.literal_eval(ignore.group(1))


def test_the_course_config_reads_the_cohort_when_there_is_one(tmp_path):
    from traitlets.config.loader import PyFileConfigLoader

    shutil.copy2(TEACHER / "nbgrader_config.py", tmp_path)

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

#: The numbers a hard-coded submission types in (the solution's, at the source's seed).
HARD_CODED = {
    "hw1_rejection_measures": ("best_r", "best_Q", "A_rejecting", "phi_rejecting", "A_gain"),
    "capstone_digits": ("aurc_test", "excess_aurc_test", "failure_auroc_test",
                        "Q_interval_test", "saving", "saving_interval"),
}
#: The test cells whose answers the hard-coded submission copied.
COPIED = {
    "hw1_rejection_measures": {"hw1-q2-tests", "hw1-q3-tests"},
    "capstone_digits": {"capstone-q5-tests", "capstone-q6-tests"},
}

PEEKING_Q4 = '''\
rejector = "breaking_ties"                  # a first choice, to get the test digits out
criterion = "max_Q"
criterion_options = {}
threshold = rl.select_threshold(accurate_val, conf_val[rejector], criterion=criterion)
'''

PEEKING_Q4B = '''\
sealed = held.seal(rejector=rejector, criterion=criterion, criterion_options=criterion_options,
                   threshold=threshold.value)
X_test, y_test = sealed.open()
proba_test = model.predict_proba(X_test)
accurate_test = rl.accuracy_vector(y_test, model.classes_[proba_test.argmax(axis=1)])
best = None                                 # choose again, by the cost on the test digits
for name in REJECTOR_NAMES:
    for crit, opts in (("max_Q", {}), ("min_cost", dict(rho=RHO)),
                       ("target_accuracy", dict(target_accuracy=0.97))):
        t = rl.select_threshold(accurate_val, conf_val[name], criterion=crit, **opts)
        op = rl.operating_point(accurate_test,
                                rl.reject_below(rl.confidence_from_proba(proba_test, name), t))
        cost = rl.cost(op.A, op.r, RHO)
        if best is None or cost < best[0]:
            best = (cost, name, crit, opts, t)
_, rejector, criterion, criterion_options, threshold = best
conf_test = rl.confidence_from_proba(proba_test, rejector)
rejected_test = rl.reject_below(conf_test, threshold)
test_point = rl.operating_point(accurate_test, rejected_test)
'''

PEEKING_LOST = {"capstone-q4b-tests"}


def _solutions(source: Path) -> dict:
    solutions = {}
    for cell in nbformat.read(source, as_version=4).cells:
        meta = _nbgrader_meta(cell)
        if meta.get("solution"):
            solutions[meta["grade_id"]] = SOLUTION_LINES.sub("", cell.source)
    return solutions


def _code_answers(source: Path) -> list:
    """The grade ids of the code answer cells (the written answers are markdown)."""
    return [_nbgrader_meta(c)["grade_id"] for c in nbformat.read(source, as_version=4).cells
            if c.cell_type == "code" and _nbgrader_meta(c).get("solution")]


def _fill(release: Path, dst: Path, answers: dict) -> None:
    """The students' version with ``answers[grade_id]`` typed into those answer cells."""
    nb = nbformat.read(release, as_version=4)
    filled = 0
    for cell in nb.cells:
        gid = _nbgrader_meta(cell).get("grade_id")
        if _nbgrader_meta(cell).get("solution") and gid in answers:
            stub = "raise NotImplementedError()" if cell.cell_type == "code" else "YOUR ANSWER HERE"
            assert stub in cell.source, f"{gid}: the students' version has no {stub!r}"
            cell.source = answers[gid]
            filled += 1
    assert filled == len(answers)
    dst.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, dst)


def _wrong(code: str) -> str:
    """An answer that runs and is wrong: every function returns 0, every name is 0."""
    out = []
    for node in ast.parse(code).body:
        if isinstance(node, ast.FunctionDef):
            out.append(f"def {node.name}(*args, **kwargs):\n    return 0")
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                out += [f"{n.id} = 0" for n in ast.walk(target) if isinstance(n, ast.Name)]
    return "\n".join(out)


def _values_at_the_source_seed(source: Path, names) -> dict:
    """The solution's values of ``names``, run in this process at the source notebook's seed
    (its own records of the genuine state left out: they belong to a kernel)."""
    nb = nbformat.read(source, as_version=4)
    code = "\n".join(SOLUTION_LINES.sub("", c.source) for c in nb.cells
                     if c.cell_type == "code" and not _nbgrader_meta(c).get("grade"))
    code = "\n".join(line for line in code.splitlines() if not line.startswith("grading."))
    scope: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, str(source), "exec"), scope)      # noqa: S102 (the course's own code)
    return {name: scope[name] for name in names}


def _literal(value) -> str:
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(_literal(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return repr(float(value))


def _hard_coded(source: Path, assignment: str) -> dict:
    values = _values_at_the_source_seed(source, HARD_CODED[assignment])
    answers = _solutions(source)
    for gid in _code_answers(source):
        code = answers[gid]
        assigned = {n.id for node in ast.parse(code).body if isinstance(node, ast.Assign)
                    for target in node.targets for n in ast.walk(target)
                    if isinstance(n, ast.Name)}
        typed = [f"{name} = {_literal(values[name])}" for name in HARD_CODED[assignment]
                 if name in assigned]
        if typed:
            answers[gid] = code.rstrip("\n") + "\n# the numbers of the solution, typed in\n" \
                + "\n".join(typed) + "\n"
    return answers


def _submissions() -> dict:
    """(student, assignment) -> how to build that submission from the release and source."""
    kinds = {}
    for assignment in ASSIGNMENTS:
        kinds[("solved", assignment)] = "solved"
        kinds[("blank", assignment)] = "blank"
    for assignment in ("hw1_rejection_measures", "hw2_operating_sets_and_cost"):
        kinds[("tampered", assignment)] = "tampered"
    for assignment in HARD_CODED:
        kinds[("hardcoded", assignment)] = "hardcoded"
    kinds[("peeking", "capstone_digits")] = "peeking"
    return kinds


def _build(kind: str, assignment: str, release: Path, source: Path, dst: Path) -> None:
    if kind == "blank":
        dst.parent.mkdir(parents=True)
        shutil.copy2(release, dst)
        return
    answers = _solutions(source)
    if kind == "tampered":
        code = _code_answers(source)
        answers = {gid: _wrong(answers[gid]) for gid in code}
        answers[code[0]] += "\n" + OVERRIDE + "\n"
    elif kind == "hardcoded":
        answers = _hard_coded(source, assignment)
    elif kind == "peeking":
        answers["capstone-q4-threshold"] = PEEKING_Q4
        answers["capstone-q4b-open"] = PEEKING_Q4B
    _fill(release, dst, answers)


def _expected_auto(kind: str, assignment: str) -> float:
    """The autograded marks each kind of submission must get."""
    cells = _cell_points(assignment)
    lost = {"solved": set(), "blank": set(cells), "tampered": set(cells),
            "hardcoded": COPIED.get(assignment, set()), "peeking": PEEKING_LOST}[kind]
    return sum(points for gid, points in cells.items() if gid not in lost)


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
    # one BLAS thread per kernel: the assignments are small, and on a busy machine the
    # threads of a logistic regression only wait for each other (60 times slower, measured)
    env.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    return env


def nbgrader(course: Path, env: dict, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course, env=env,
                          capture_output=True, text=True, timeout=900)
    log = done.stdout + done.stderr
    assert done.returncode == 0 and "ERROR" not in log, \
        f"nbgrader {' '.join(args)} failed ({done.returncode}):\n{log[-4000:]}"
    return log


@pytest.mark.slow
def test_generate_scan_autograde_export_for_a_new_cohort(tmp_path, tool):
    _need_nbgrader()
    course = tmp_path / "course"
    course.mkdir()
    shutil.copy2(TEACHER / "nbgrader_config.py", course)
    shutil.copytree(TEACHER / "source", course / "source",
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    env = _env(tmp_path)

    # make assignments SEED=... for a cohort whose seed is not the source's
    done = subprocess.run([sys.executable, str(REPO / "tools" / "assignments.py"),
                           "--seed", str(COHORT_SEED), "--course", str(course)],
                          env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr

    # The students' version: the cohort's seed, no solution, no hidden test, no rubric.
    for assignment in ASSIGNMENTS:
        source = _source_notebook(assignment)
        (seed,) = re.findall(r"SEED = (\d+)\b", source.read_text(encoding="utf-8"))
        assert int(seed) != COHORT_SEED
        release = course / "release" / assignment / source.name
        text = release.read_text(encoding="utf-8")
        assert f"SEED = {COHORT_SEED}" in text
        for marker in MARKERS:
            assert marker not in text, f"{release.name} still contains {marker!r}"
        cells = nbformat.read(source, as_version=4).cells
        shown = "\n".join(HIDDEN.sub("", c.source) for c in cells)
        hidden = [line.strip() for c in cells
                  for region in re.findall(r"### BEGIN HIDDEN TESTS(.*?)### END HIDDEN TESTS",
                                           c.source, re.S)
                  for line in region.splitlines()
                  if len(line.strip()) > 20 and line.strip() not in shown]
        assert hidden and not any(line in text for line in hidden)
        assert "raise NotImplementedError()" in text
        assert sorted(p.name for p in release.parent.iterdir()) == [source.name], \
            "only the notebook is handed out (the rubric stays in the course folder)"
        if _points(assignment)[1]:
            assert "YOUR ANSWER HERE" in text
            assert "Grading notes" not in text, "the grading notes must stay teacher-side"

    kinds = _submissions()
    for (student, assignment), kind in kinds.items():
        source = _source_notebook(assignment)
        release = course / "release" / assignment / source.name
        _build(kind, assignment, release, source,
               course / "submitted" / student / assignment / source.name)

    # make check-submissions DIR=submitted: the tampered ones, and only they, are flagged
    notebooks, flags = tool("check_submissions").scan(course / "submitted", course / "source")
    assert len(notebooks) == len(kinds)
    flagged = {(f.notebook.parts[-3], f.notebook.parts[-2]) for f in flags if not f.warning}
    assert flagged == {key for key, kind in kinds.items() if kind == "tampered"}, \
        "\n".join(map(str, flags))
    assert any("np.isclose" in f.message for f in flags)

    log = nbgrader(course, env, "autograde", "*")
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
            f"{assignment}, {kind}: {exported[(student, assignment)]}\n{log[-3000:]}"

    # cell by cell, as the formgrader shows them; then the teacher grades the written answers
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for (student, assignment), kind in kinds.items():
            source = _source_notebook(assignment)
            nb_kinds = _kinds(nbformat.read(source, as_version=4))
            for cell in nb_kinds["manual"]:
                meta = _nbgrader_meta(cell)
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
