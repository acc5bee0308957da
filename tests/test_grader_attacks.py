"""Attacks on the grading through the real command (``make autograde``: parallel sandboxes, then
``nbgrader autograde``): in a new cohort's ``submitted/``, homework 1 solved and one notebook per
attack that used to earn marks or stop the class, each beside wrong answers (every function and
number -1), so that it earns nothing unless it beats the grader. Slow; it needs bubblewrap.
"""

import hashlib
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
ASSIGNMENT = "hw1_rejection_measures"
COHORT_SEED = 4242
SOLUTION_LINES = re.compile(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*(\n|\Z)", re.M)
WRONG = {
    "hw1-q1-measures": "def measures(accurate, rejected):\n    return (-1.0, -1.0, -1.0)",
    "hw1-q2-answer": "best_r = -1.0\nbest_Q = -1.0",
    "hw1-q3-answer": "A_rejecting = -1.0\nphi_rejecting = -1.0\nA_gain = -1.0",
}


def attacks(course: Path) -> dict:
    """student -> the code of an attack (a cell of its own, after the first answer)."""
    return {
        # the line that used to switch the tests off; any rebinding in the student's process is
        # this one, since the grading runs outside it
        "override": "np.isclose = lambda *a, **k: np.True_; np.allclose = lambda *a, **k: True; "
                    "np.array_equal = lambda *a, **k: True",
        "sqlite": "import sqlite3\nfor path in [" + repr(str(course / "gradebook.db")) +
                  ", '../../../gradebook.db', 'gradebook.db']:\n    try:\n"
                  "        db = sqlite3.connect(path)\n"
                  "        db.execute('update grade set auto_score = 10')\n        db.commit()\n"
                  "    except Exception as e:\n        print('sqlite:', e)",
        "py-beside": "from helper import *",
        "b-killparent": "import os as o\no.kill(o.getppid(), 9)",
        "fork-loop": "import os\ntry:\n    while True:\n        os.fork()\nexcept OSError as e:\n"
                     "    print('fork:', e)",
        "flood-raw": "import os\nwhile True:\n    os.write(1, b'y' * 65536)",
        "fill-disk": "for i in range(10000):\n    with open(f'fill{i}', 'wb') as f:\n"
                     "        f.write(b'0' * 2 ** 24)",
        "loop": "while True:\n    pass",
        "crash": "import os\nos.abort()",
        # no course path in its code: it looks for the course the way a student could
        "exfil": "import glob, os, sys\n"
                 "for path in ['../../../source/hw2_operating_sets_and_cost/"
                 "hw2_operating_sets_and_cost.ipynb', '../../../grader/hw1_rejection_measures.py',"
                 " '../../../cohort.key', '../../../gradebook.db', '/work/../teacher']:\n"
                 "    try:\n        print(open(path).read())\n"
                 "    except Exception as e:\n        print('no:', path, e)\n"
                 "print(os.getcwd(), sys.path, dict(os.environ))\n"
                 "print(open('/proc/self/mountinfo').read())\n"
                 "for root in ['/', '/sandbox', '/work', '/root', '/tmp', '/home']:\n"
                 "    print(root, sorted(os.listdir(root)) if os.path.isdir(root) else None)\n"
                 "print(glob.glob('/*/*'), glob.glob('/sandbox/**/*.key', recursive=True))\n"
                 "for p in glob.glob('/sandbox/site0/*.pth') + glob.glob('/sandbox/site0/__editable__*'):\n"
                 "    print(p, open(p).read())",
    }


def _meta(cell):
    return cell.metadata.get("nbgrader", {})


def _fill(release: Path, answers: dict, extra: str | None = None) -> nbformat.NotebookNode:
    nb = nbformat.read(release, as_version=4)
    for cell in nb.cells:
        if _meta(cell).get("grade_id") in answers:
            cell.source = answers[_meta(cell)["grade_id"]]
    if extra is not None:
        first = next(i for i, c in enumerate(nb.cells) if _meta(c).get("solution"))
        nb.cells.insert(first + 1, nbformat.v4.new_code_cell(extra))
    return nb


def _digest(folder: Path) -> dict:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and "__pycache__" not in p.parts
            and ".grading" not in p.parts}


@pytest.fixture(scope="module")
def graded(tmp_path_factory, new_cohort):
    tmp = tmp_path_factory.mktemp("attacks")
    # this course's TA keeps a looping cell short (the default is 30 s)
    cohort = new_cohort(tmp, COHORT_SEED, "\nc.SandboxGrader.cell_timeout = 10\n"
                                          "c.SandboxGrader.notebook_timeout = 120\n")
    course = cohort.course
    source = course / "cohort" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    release = course / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    solutions = {_meta(c)["grade_id"]: SOLUTION_LINES.sub("", c.source)
                 for c in nbformat.read(source, as_version=4).cells if _meta(c).get("solution")}
    # ada, solved: the grading works in this course, so the attacks' zeros mean something
    submissions = {"ada": _fill(release, solutions)}
    for student, code in attacks(course).items():
        submissions[student] = _fill(release, WRONG, code)
    for student, nb in submissions.items():
        path = course / "submitted" / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
        path.parent.mkdir(parents=True)
        nbformat.write(nb, path)
    beside = course / "submitted" / "py-beside" / ASSIGNMENT
    for name in ("numpy.py", "rejlab.py", "helper.py"):
        (beside / name).write_text(f"import os\nos.system('touch {tmp / 'pwned'}')\n"
                                   "isclose = close = lambda *a, **k: True\n", encoding="utf-8")
    before = _digest(course)
    done = cohort.autograde(ASSIGNMENT, "JOBS=2", timeout=900)
    return {"course": course, "done": done, "before": before, "env": cohort.env,
            "students": sorted(submissions), "pwned": tmp / "pwned"}


def test_every_submission_is_graded_every_attack_earns_nothing_and_the_course_is_intact(graded):
    from nbgrader.api import Gradebook

    course, done = graded["course"], graded["done"]
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        notebooks = {s.id: gb.find_submission(ASSIGNMENT, s.id).notebooks[0] for s in gb.students}
        grades = {student: {g.name: g.auto_score for g in nb.grades} for student, nb in notebooks.items()}
    assert sorted(grades) == graded["students"], "a submission was left ungraded"
    for student, cells in grades.items():
        assert all(score is not None for score in cells.values()), (student, cells)
    assert sum(grades["ada"].values()) == 10, grades["ada"]
    for student in attacks(course):
        assert sum(grades[student].values()) == 0, (student, grades[student])
    # the killer is graded, and so is every student after it
    assert "b-killparent" in grades and len([s for s in grades if s > "b-killparent"]) == 9
    for student, says in (("crash", "crashed the interpreter (SIGABRT)"),
                          ("flood-raw", "bytes of output")):
        line = next(ln for ln in done.stdout.splitlines() if ln.startswith(student + " "))
        assert says in line, line
    # nbgrader's pass reused the pool's verdicts: two sandbox runs per submission (the notebook
    # with rejlab, measures without), once each
    outcomes = list((course / ".grading" / "outcomes").glob("*.json"))
    assert len(outcomes) == 2 * len(graded["students"])
    # the gradebook and the course are intact
    with sqlite3.connect(course / "gradebook.db") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    after = _digest(course)
    for rel, digest in graded["before"].items():
        if rel.startswith(("source/", "cohort/", "grader/", "release/")) or rel in (
                "cohort.key", "nbgrader_config.py"):
            assert after.get(rel) == digest, f"{rel} changed"
    assert not (course / "submitted" / "sqlite" / ASSIGNMENT / "gradebook.db").exists()
    assert not graded["pwned"].exists()          # the files beside a notebook never ran


def test_the_feedback_of_an_exfiltrating_submission_shows_nothing_of_the_course(graded):
    course, env = graded["course"], graded["env"]
    done = subprocess.run([sys.executable, "-m", "nbgrader", "generate_feedback", ASSIGNMENT,
                           "--student=exfil", "--force"], cwd=course, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    html = (course / "feedback" / "exfil" / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text(encoding="utf-8")
    assert "no:" in html and "/sandbox" in html            # it ran and printed what it found
    key = (course / "cohort.key").read_text(encoding="utf-8").splitlines()[0]
    forbidden = [str(course), str(REPO), key,
                 # judge code
                 "calls_right", "def judge(", "_function_mark", "def runs(", "sealed_test_digits",
                 # other assignments' material and the rubric
                 "Homework 2 · Operating sets", "np.where(np.asarray(r1) > np.asarray(r0)",
                 "Capstone rubric", "Grading notes", "### BEGIN SOLUTION"]
    for text in forbidden:
        assert text not in html, f"the feedback shows {text[:60]!r}"
    # what the student does see: their own marks, with the grader's message
    assert "0 / 3 points" in html and "run without rejlab" in html
