"""The course's grader, piece by piece (``teacher/grader/``): reports, the sandbox's limits, the
cells as it runs them, the copy check. The sandbox needs ``bwrap`` (``apt-get install bubblewrap``).
"""

import json
import math
import os
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
TEACHER = REPO / "teacher"
if str(TEACHER) not in sys.path:
    sys.path.insert(0, str(TEACHER))

from grader import answers, copycheck, judge, runner, sandbox, submission  # noqa: E402

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None,
                                 reason="the sandbox needs bubblewrap (apt-get install bubblewrap)")


# --- Answers: plain JSON, read strictly (a round trip reads every honest report) --------------


@pytest.mark.parametrize("raw, says", [
    (pickle.dumps({"kind": "answers", "exports": {}, "calls": []}), "not"),
    (b'{"kind": "answers", "exports": {"x": NaN}, "calls": []}\n', "NaN"),
    (b'{"kind": "answers", "exports": {"x": Infinity}, "calls": []}\n', "Infinity"),
    (b'{"kind": "answers", "kind": "answers", "exports": {}, "calls": []}\n', "twice"),
    (b"[" * 200 + b"]" * 200 + b"\n", "nested too deep"),
    (b'{"kind": "pickle", "data": "gASVAAAA"}\n', "unknown record"),
    (b'{"kind": "cell", "index": "0", "output": 3}\n', "malformed"),
    (b'{"kind": "answers", "exports": {"x": "' + b"a" * 2000 + b'"}, "calls": []}\n', "a line of"),
])
def test_a_report_that_is_not_plain_data_is_refused(raw, says, monkeypatch):
    monkeypatch.setattr(answers, "MAX_LINE", 1000)
    cells, got, problem, _ = answers.parse_report(raw)
    assert got is None and problem and says in problem, problem


def test_decode_takes_only_its_tags_and_a_string_or_a_failure_is_not_a_number():
    for value in ({"$": "pickle", "data": "gASVAAAA"}, {"$": "object", "module": "os", "name": "system"},
                  {"x": 1}, {"$": "ndarray", "dtype": "float", "shape": [2], "data": [1.0]},
                  {"$": "ndarray", "dtype": "float", "shape": [1], "data": [{"$": "set", "items": []}]},
                  {"$": "ndarray", "dtype": "object; import os", "shape": [0], "data": []}):
        with pytest.raises(answers.AnswerError):
            answers.decode(value)
    for value in (answers.decode("nan"), True):
        with pytest.raises(judge.Missing):
            judge.number(value)
    assert math.isnan(judge.number(answers.decode({"$": "nan"})))
    assert judge.number(answers.decode({"$": "-inf"})) == -math.inf
    with pytest.raises(answers.Unanswered, match="ZeroDivisionError"):
        answers.decode({"$": "error", "message": "ZeroDivisionError: division by zero"})
    assert judge.close(math.nan, math.nan) and not judge.close(math.nan, 0.0)
    assert judge.close(math.inf, math.inf) and not judge.close(math.inf, 1e308)


def test_the_runner_and_the_grader_speak_the_same_tags():
    grid = np.arange(6).reshape(2, 3)
    for value, back in [(1, 1), (2.5, 2.5), (math.nan, math.nan), (-math.inf, -math.inf),
                        ("nan", "nan"), (True, True), (None, None), ({3, 1}, frozenset({1, 3})),
                        ((1, 2), [1, 2]), ({"rho": 0.25}, {"rho": 0.25}), (grid, grid),
                        (np.array([True, False]), np.array([True, False])), (np.float64(0.5), 0.5),
                        (np.int64(7), 7), ([np.nan, 1.0], [math.nan, 1.0])]:
        got = answers.decode(answers.loads(json.dumps(runner.plain(value), allow_nan=False)))
        np.testing.assert_equal(got, back)
        assert type(got) is type(back), (value, got)
    # the grader's inputs reach the runner as the same Python values
    for value in ([True, False], {1, 2}, (0.5, math.inf), {"a": [1]}, np.array([0.1, 0.2])):
        again = runner.unplain(json.loads(json.dumps(answers.encode(value), allow_nan=False)))
        np.testing.assert_equal(again, value)
        assert type(again) is type(value)
    assert runner.plain(object())["$"] == "unsupported"


# --- The sandbox ------------------------------------------------------------------------------


def _job(*cells, **kw):
    return sandbox.Job(cells=tuple({"key": f"c{i}", "source": src} for i, src in enumerate(cells)),
                       student="tester", **kw)


SMALL = sandbox.Limits(cell_seconds=5, wall_seconds=60, cpu_seconds=20, memory_mb=1024,
                       processes=16, file_mb=4, disk_mb=8, stream_bytes=100_000)


def test_without_bwrap_the_grading_command_says_so_in_one_line(tmp_path):
    (tmp_path / "course").mkdir()
    done = subprocess.run([sys.executable, "-m", "grader.autograde", "hw1_rejection_measures",
                           "--course", str(tmp_path / "course")], cwd=TEACHER, capture_output=True,
                          text=True, env=dict(os.environ, PATH=str(tmp_path)), timeout=120)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "bubblewrap" in done.stderr


# The reasons of a crash and of raw output flooding: tests/test_grader_attacks.py, in the table
# make autograde prints.
@needs_bwrap
@pytest.mark.parametrize("code, limits, says", [
    ("while True:\n    pass", sandbox.Limits(cell_seconds=1), "CellTimeLimit"),
    ("x = bytearray(4 * 1024 ** 3)", SMALL, "MemoryError"),
    # children that end at once stay until reaped, so the loop meets the process limit
    ("import os\nwhile True:\n    if os.fork() == 0:\n        os._exit(0)", SMALL, "BlockingIOError"),
    ("with open('big', 'wb') as f:\n    while True:\n        f.write(b'0' * 2 ** 20)", SMALL,
     "File too large"),
    ("for i in range(100):\n    with open(f'f{i}', 'wb') as f:\n        f.write(b'0' * 3 * 2 ** 20)",
     SMALL, "No space left"),
    ("while True:\n    print('x' * 1000)", SMALL, "OutputLimit"),
    ("import os\nos.kill(os.getppid(), 9)", SMALL, "PermissionError"),
    # the run's limits: what follows cannot run
    ("import ctypes\nctypes.string_at(0)", SMALL, "run: crashed the interpreter (SIGSEGV)"),
    ("import os\nos._exit(3)", SMALL, "run: ended its own process (exit status 3)"),
    ("while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n"
     "        pass", sandbox.Limits(cell_seconds=60, wall_seconds=60, cpu_seconds=2), "run: CPU time"),
    # waiting uses no CPU time: the run's wall-clock limit stops it
    ("import select\nselect.select([], [], [])",
     sandbox.Limits(cell_seconds=1, wall_seconds=4, cpu_seconds=60), "run: time limit (4 s)"),
])
def test_a_limit_ends_the_cell_and_the_next_runs_or_ends_the_run_with_its_reason(code, limits, says):
    out = sandbox.run(_job("before = 1", code, "after = 1", exports={"after": "after"}), limits)
    assert out.cells[0]["error"] is None          # the cells before it are reported
    if says.startswith("run: "):
        assert out.answers is None and out.reason and says[5:] in out.reason, out.reason
    else:
        assert out.reason is None and says in out.cells[1]["error"], (out.reason, out.cells[1])
        assert answers.decode(out.answers["exports"]["after"]) == 1


@needs_bwrap
def test_kill_minus_one_reaches_nothing_outside(tmp_path):
    guard = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        out = sandbox.run(_job("import os, signal\nos.kill(-1, signal.SIGKILL)"), SMALL)
        assert guard.poll() is None                # a process of ours, still alive
    finally:
        guard.stdin.close()
        guard.wait()
    assert out.reason is None or "killed" in out.reason


@needs_bwrap
def test_a_cell_cannot_write_outside_its_folder():
    # what a submission can see of the course: the exfiltrating one of test_grader_attacks.py
    error = sandbox.run(_job("open('/usr/x', 'w')"), SMALL).cells[0]["error"]
    assert "Read-only file system" in error or "Permission denied" in error


@needs_bwrap
def test_a_package_a_question_forbids_refuses_to_import():
    out = sandbox.run(_job("import sklearn", "import rejlab", "import numpy", rejlab=False,
                           hide=("rejlab", "sklearn")), SMALL)
    errors = [c["error"] for c in out.cells]
    assert "not available in this question" in errors[0]
    assert errors[1].startswith(("ModuleNotFoundError", "ImportError")) and errors[2] is None


# --- The notebook as the grader runs it; the copy check ---------------------------------------


def _cell(gid, source, locked, cell_type="code"):
    return {"cell_type": cell_type, "source": source, "metadata": {"nbgrader": {
        "grade_id": gid, "locked": locked, "solution": not locked, "grade": False}}}


def test_locked_cells_come_from_the_teacher_and_a_deleted_one_comes_back():
    teacher = {"cells": [_cell("setup", "SEED = 1", True), _cell("answer", "x = 0", False),
                         _cell("data", "y = 2", True), _cell("answer2", "z = 0", False)]}
    student = {"cells": [_cell("setup", "SEED = 99", True), {"cell_type": "code",
                                                             "source": "mine = 1", "metadata": {}},
                         _cell("answer", "x = 1", False), _cell("answer2", "z = 1", False)]}
    cells = submission.code_cells(student, teacher)
    assert [(c.key, c.source, c.locked) for c in cells] == [
        ("setup", "SEED = 1", True), ("cell1", "mine = 1", False), ("answer", "x = 1", False),
        ("data", "y = 2", True), ("answer2", "z = 1", False)]
    assert cells[3].index is None


def test_the_copy_check_finds_another_students_numbers_and_similar_code():
    def verdict(exports, reference):
        return {"exports": {k: answers.encode(v) for k, v in exports.items()}, "reference": reference}
    verdicts = {"ada": verdict({"best_Q": 0.8123, "A_gain": 0.041}, {"best_Q": 0.8123, "A_gain": 0.041}),
                "eve": verdict({"best_Q": 0.8123, "A_gain": 0.041}, {"best_Q": 0.7755, "A_gain": 0.05}),
                # one answer that happens to be another student's: chance, not listed
                "bob": verdict({"best_Q": 0.7755, "A_gain": 0.02}, {"best_Q": 0.7777, "A_gain": 0.02})}
    assert copycheck.copied_numbers(verdicts) == [("eve", "ada", ["best_Q", "A_gain"])]
    code = copycheck._tokens("def f(a, b):\n    total = 0\n" + "    total += a * b\n" * 12)
    again = copycheck._tokens("def f(a, b):  # mine\n    total = 1\n" + "    total += a * b\n" * 12)
    other = copycheck._tokens("\n".join(f"v{i} = sorted(set(range({i})))" for i in range(20)))
    found = copycheck.similar_code({"ada": code, "eve": again, "bob": other})
    assert [(a, b) for a, b, _ in found] == [("ada", "eve")]


# --- Questions that check what they say -------------------------------------------------------


@needs_bwrap
@pytest.mark.slow
def test_numpy_only_answers_that_reach_rejlab_earn_nothing(tmp_path):
    """hw2's beta through a default argument, and hw1's measures importing rejlab inside: in
    the sandbox where rejlab refuses to import, neither gives an answer; the rest counts."""
    course = tmp_path / "course"
    course.mkdir()
    for folder in ("source", "grader"):
        shutil.copytree(TEACHER / folder, course / folder,
                        ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints"))
    cases = {"hw2_operating_sets_and_cost": (
        "hw2-q1-beta", "def beta(A1, r1, A0, r0, f=rl.relative_optimality):\n    return f(A1, r1, A0, r0)",
        {"hw2-q1-tests": 0.0, "hw2-q3-tests": 1.0}), "hw1_rejection_measures": (
        "hw1-q1-measures", "def measures(accurate, rejected):\n    import rejlab\n"
        "    op = rejlab.operating_point(accurate, rejected)\n    return op.A, op.Q, op.phi",
        {"hw1-q1-tests": 0.0, "hw1-q2-tests": 1.0})}
    for assignment, (gid, code, expected) in cases.items():
        nb = submission.read(submission.source_notebook(course, assignment))
        for cell in nb["cells"]:          # (a cell's source: a list of lines or one string)
            cell["source"] = code if cell["metadata"].get("nbgrader", {}).get("grade_id") == gid \
                else re.sub(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*\n", "", "".join(cell["source"]),
                            flags=re.M)
        verdict = submission.grade(course, assignment, "mallory", nb)
        for graded_id, fraction in expected.items():
            assert verdict["marks"][graded_id]["fraction"] == fraction, verdict["marks"][graded_id]
        assert "without rejlab" in verdict["marks"][next(iter(expected))]["message"]
