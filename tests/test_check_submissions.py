"""The advisory scanner (``tools/check_submissions.py``, ``make check-submissions``): marks no
longer depend on it (the sandbox and the grader decide them); it names what a submission tried,
at its cell and line, for the TA to read.
"""

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SOURCE = REPO / "teacher" / "source"
ASSIGNMENTS = sorted(p.name for p in SOURCE.iterdir() if p.is_dir())
TOOL = REPO / "tools" / "check_submissions.py"
HW1, HW2 = "hw1_rejection_measures", "hw2_operating_sets_and_cost"


@pytest.fixture(scope="module")
def check(tool):
    return tool("check_submissions")


def _notebook(assignment):
    (path,) = (SOURCE / assignment).glob("*.ipynb")
    return path, json.loads(path.read_text(encoding="utf-8"))


def _meta(cell):
    return cell.get("metadata", {}).get("nbgrader", {})


def _answer_cells(nb):
    return [c for c in nb["cells"] if c["cell_type"] == "code" and _meta(c).get("solution")]


def _submit(folder: Path, student: str, assignment: str, nb: dict) -> Path:
    path, _ = _notebook(assignment)
    dst = folder / student / assignment / path.name
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text(json.dumps(nb), encoding="utf-8")
    return dst


def _tampered(assignment: str, extra: str) -> tuple[dict, int]:
    """The source with ``extra`` appended to its first answer cell; (notebook, line of extra)."""
    _, nb = _notebook(assignment)
    cell = _answer_cells(nb)[0]
    before = "".join(cell["source"]).rstrip("\n")      # (a list of lines or one string)
    cell["source"] = before + "\n" + extra + "\n"
    return nb, before.count("\n") + 2


#: (an attempt added to homework 1's first answer cell, what its flag says)
TRICKS = [
    ("import sys\nsys.modules['numpy'] = None", "imports sys"), ("setattr(np, 'isclose', max)", "setattr"),
    ("import builtins; builtins.float = lambda x: 1.0", "builtins"), ("exec('np.isclose = max')", "exec"),
    ("import importlib; importlib.reload(np)", "importlib"), ("print(In[-1])", "reads In"),
    ("import gc; gc.get_objects()", "imports gc"), ("from .helper import measures", "relative import"),
    ("key = open('../../teacher/source/hw1_rejection_measures/hw1_rejection_measures.ipynb').read()",
     "outside the assignment"),
    ("from pathlib import Path\nPath('/work/main/teacher/source').read_text()", "outside the assignment"),
    ("import os; os.listdir('..')", "os.listdir"), ("import os as o; o.kill(o.getppid(), 9)", "imports os"),
    ("import subprocess; subprocess.run(['ls', '../..'])", "subprocess"),
    ("!cat ../../teacher/source/*/*.ipynb", "shell command"), ("code = measures.__code__", "__code__"),
    ("get_ipython().set_custom_exc((Exception,), print)", "get_ipython"),
    ("import ctypes; ctypes.string_at(0)", "imports ctypes"),
    ("import sqlite3\nsqlite3.connect('../../../gradebook.db')", "imports sqlite3"),
    ("x = np.load('payload.npy', allow_pickle=True)", "pickle"),
]


@pytest.mark.parametrize("code, says", TRICKS, ids=[t[0][:40] for t in TRICKS])
def test_each_trick_is_flagged(tmp_path, code, says, check):
    # (the cell and line a flag names: the command's test below)
    nb, _ = _tampered(HW1, code)
    flags = [f for f in check.scan_notebook(_submit(tmp_path, "mallory", HW1, nb), SOURCE) if not f.warning]
    assert any(says in f.message for f in flags), [str(f) for f in flags]


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_solutions_and_the_untouched_notebooks_are_clean(tmp_path, assignment, check):
    _, nb = _notebook(assignment)
    assert check.scan_notebook(_submit(tmp_path, "solved", assignment, nb), SOURCE) == []
    for cell in _answer_cells(nb):
        cell["source"] = "# YOUR CODE HERE\nraise NotImplementedError()"
    assert check.scan_notebook(_submit(tmp_path, "blank", assignment, nb), SOURCE) == []


def test_harmless_code_is_not_flagged_and_a_cell_that_does_not_parse_is_a_warning(tmp_path, check):
    nb, _ = _tampered(HW1, """%matplotlib inline
import math
from collections import Counter
total = math.fsum([0.1, 0.2])          # reading math is fine
counts = Counter('abca')
def helper(values, sum=0):             # a parameter named like a built-in: local
    for v in values:
        sum += v
    return sum
x = np.sort(np.array([3, 1, 2]))       # calling NumPy is fine
print(f'{total:.2f}', x.shape, counts.most_common(1))""")
    assert check.scan_notebook(_submit(tmp_path, "ada", HW1, nb), SOURCE) == []
    nb, line = _tampered(HW2, "def broken(:")
    flags = check.scan_notebook(_submit(tmp_path, "sam", HW2, nb), SOURCE)
    assert flags and all(f.warning for f in flags) and "does not parse" in flags[0].message
    assert flags[0].line == line


def test_moved_deleted_and_altered_cells_are_flagged(tmp_path, check):
    _, nb = _notebook(HW2)
    graded = [i for i, c in enumerate(nb["cells"]) if _meta(c).get("grade")]
    gid = _meta(nb["cells"][graded[0]])["grade_id"]
    moved, deleted, altered, shuffled = (copy.deepcopy(nb) for _ in range(4))
    # code above the set-up cell, a deleted test cell, a test cell made editable, two swapped
    moved["cells"].insert(0, {"cell_type": "code", "metadata": {}, "source": "x = 1",
                              "outputs": [], "execution_count": None})
    del deleted["cells"][graded[0]]
    altered["cells"][graded[0]]["metadata"]["nbgrader"]["locked"] = False
    cells = shuffled["cells"]
    cells[graded[0]], cells[graded[-1]] = cells[graded[-1]], cells[graded[0]]
    for student, notebook, says in (("moved", moved, "above the set-up cell"),
                                    ("deleted", deleted, f"{gid} was deleted"),
                                    ("altered", altered, "'locked' changed"),
                                    ("shuffled", shuffled, "moved out of order")):
        flags = check.scan_notebook(_submit(tmp_path, student, HW2, notebook), SOURCE)
        assert any(says in f.message and not f.warning for f in flags), (student, [str(f) for f in flags])


def test_the_command_exits_1_naming_each_flagged_file_and_line_and_0_when_clean(tmp_path):
    clean, dirty = tmp_path / "clean", tmp_path / "dirty"
    _, nb = _notebook(HW1)
    _submit(clean, "ada", HW1, nb)
    _submit(dirty, "ada", HW1, nb)
    bad, line = _tampered(HW1, "import os; os.listdir('..')")
    bad_path = _submit(dirty, "mallory", HW1, bad)
    beside = bad_path.parent / "numpy.py"         # a Python file beside a notebook: flagged, not scanned
    beside.write_text("isclose = lambda *a, **k: True\n", encoding="utf-8")
    position = nb["cells"].index(_answer_cells(nb)[0]) + 1
    for folder, status in ((clean, 0), (dirty, 1)):
        done = subprocess.run(["make", "-s", "-C", str(REPO), "check-submissions", f"DIR={folder}",
                               f"PYTHON={sys.executable}"], capture_output=True, text=True, timeout=120)
        assert done.returncode == status, done.stdout + done.stderr
        lines = (done.stdout + done.stderr).strip().splitlines()   # make prints it on stderr
        if status:
            flagged = [ln for ln in lines if ln.startswith(str(bad_path))]
            assert flagged and f"cell {position} (hw1-q1-measures), line {line}:" in flagged[0]
            assert f"{beside}: a Python file beside the notebook" in lines, lines
            assert lines[-1] == "2 notebooks scanned: 2 flagged", lines[-1]
        else:
            assert lines == ["1 notebooks scanned: 0 flagged"], lines
    done = subprocess.run([sys.executable, str(TOOL), str(tmp_path / "missing")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
