"""One submission, graded: its sandbox jobs, their outcomes, the judge's marks, a cache.

:func:`grade` takes a course folder, an assignment, the student's id (always the folder the
submission was collected into, never anything the notebook says) and the submitted notebook.
It builds the notebook's code cells as nbgrader's OverwriteCells does (the locked cells from
the teacher's notebook, everything else from the student's), plans the sandbox runs the
assignment's judge asks for, runs them (or reads their outcome from the cache, keyed by the
hash of the job), and has the judge mark the graded cells from the plain answers. The verdict,
cached too, holds the marks, each cell's output for the feedback (course paths scrubbed), and
the student's numbers beside the expected ones for the copy check.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path

import rejlab

from . import sandbox
from .answers import encode
from .judge import Answers, Context

#: The cohort's secret key, in the course folder (``make assignments`` writes it).
KEY_FILE = "cohort.key"
#: The grader's cache, in the course folder (outcomes of sandbox jobs, verdicts).
CACHE = ".grading"
SEED_LINE = re.compile(r"^SEED = (\d+)\b", re.M)
GRADER = Path(__file__).resolve().parent


def cohort_key(course: Path, create: bool = True) -> bytes:
    """The cohort's secret key (32 random bytes, hex, the first line of ``<course>/cohort.key``,
    readable by its owner only; ``make assignments`` writes it); made on first need when
    ``create``, for a course folder that skipped ``make assignments``."""
    path = Path(course) / KEY_FILE
    if not path.exists() and create:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as handle:
                handle.write(secrets.token_hex(32) + "\nmade by the grader\n")
    return bytes.fromhex(path.read_text(encoding="utf-8").splitlines()[0].strip())


def source_notebook(course: Path, assignment: str) -> Path:
    """The teacher's notebook of ``assignment``: the cohort's copy when there is one."""
    folder = "cohort" if (Path(course) / "cohort").is_dir() else "source"
    found = sorted((Path(course) / folder / assignment).glob("*.ipynb"))
    if len(found) != 1:
        raise ValueError(f"no assignment {assignment!r} in {Path(course) / folder} "
                         "(run make assignments first)")
    return found[0]


def read(path: Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def _text(cell) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def _meta(cell) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def cohort_seed(notebook: dict) -> int:
    for cell in notebook["cells"]:
        found = SEED_LINE.findall(_text(cell)) if cell["cell_type"] == "code" else []
        if found:
            return int(found[0])
    raise ValueError("the teacher's notebook has no line 'SEED = <n>'")


def points(notebook: dict) -> dict:
    """grade id -> points of every autograded cell (code, graded, not an answer)."""
    return {_meta(c)["grade_id"]: float(_meta(c)["points"]) for c in notebook["cells"]
            if c["cell_type"] == "code" and _meta(c).get("grade") and not _meta(c).get("solution")}


@dataclass(frozen=True)
class Cell:
    key: str              # the grade id, or "cell<n>" for a cell the student added
    source: str
    index: int | None     # its position in the student's notebook (None: put back)
    locked: bool


def code_cells(student: dict, teacher: dict) -> list:
    """The code cells to run, in the student's order: a locked cell's code is the teacher's,
    every other cell the student's; a locked code cell the student deleted is put back where
    the teacher's notebook has it."""
    locked = {_meta(c)["grade_id"]: _text(c) for c in teacher["cells"]
              if c["cell_type"] == "code" and _meta(c).get("locked") and _meta(c).get("grade_id")}
    cells, seen = [], set()
    for index, cell in enumerate(student.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        gid = _meta(cell).get("grade_id")
        if gid in locked and gid not in seen:
            cells.append(Cell(gid, locked[gid], index, True))
            seen.add(gid)
        else:
            key = gid if gid and gid not in seen else f"cell{index}"
            seen.add(key)
            cells.append(Cell(key, _text(cell), index, False))
    order = [_meta(c).get("grade_id") for c in teacher["cells"] if c["cell_type"] == "code"]
    for position, gid in enumerate(order):
        if gid in locked and gid not in seen:
            later = [c for c in order[position + 1:] if c in seen]
            at = next((i for i, c in enumerate(cells) if c.key == later[0]), len(cells)) \
                if later else len(cells)
            cells.insert(at, Cell(gid, locked[gid], None, True))
            seen.add(gid)
    return cells


def judge_module(assignment: str):
    """The assignment's judge, ``teacher/grader/<assignment>.py``."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", assignment):
        raise ValueError(f"assignment: {assignment!r} is not an assignment's name")
    return importlib.import_module(f"{__package__}.{assignment}")


def jobs(judge, ctx, cells) -> list:
    """(run, job) for every sandbox run the judge plans."""
    planned = []
    for run in judge.runs(ctx):
        if run.upto is None:
            chosen = cells
        else:
            chosen, keys = [], [c.key for c in cells]
            for cell in cells:
                if not cell.locked:
                    chosen.append(cell)
                if cell.key == run.upto:
                    break
            if run.upto not in keys:
                chosen = [c for c in cells if not c.locked]
        job_cells = [{"key": c.key, "source": c.source} for c in chosen]
        if run.preamble:
            job_cells.insert(0, {"key": "preamble", "source": run.preamble})
        planned.append((run, sandbox.Job(
            cells=tuple(job_cells), student=ctx.student,
            given={name: encode(value) for name, value in run.given.items()},
            exports=dict(run.exports), rejlab=run.rejlab, hide=tuple(run.hide),
            calls=tuple({"function": f, "args": [encode(a) for a in args]}
                        for f, args in run.calls))))
    return planned


def _hash(*parts) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(json.dumps(part, sort_keys=True, allow_nan=False).encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()


def _sources() -> str:
    """The grader's own code, so that a change to it invalidates the cache."""
    return _hash(*[p.read_text(encoding="utf-8") for p in sorted(GRADER.glob("*.py"))])


def outcome(course: Path, job: sandbox.Job, limits: sandbox.Limits) -> sandbox.Outcome:
    """The job's outcome, from the cache or from a fresh sandbox."""
    key = _hash(job.payload(limits), (GRADER / "runner.py").read_text(encoding="utf-8"),
                rejlab.__version__)
    path = Path(course) / CACHE / "outcomes" / f"{key}.json"
    if path.exists():
        return sandbox.Outcome(**json.loads(path.read_text(encoding="utf-8")))
    result = sandbox.run(job, limits)
    _write(path, result.to_json())
    return result


def _write(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, allow_nan=False), encoding="utf-8")
    tmp.replace(path)


def scrub(text: str, course: Path) -> str:
    """``text`` without the machine's paths (the course folder, the repository, the Python
    and its packages): a student's print of them reaches no feedback."""
    paths = {str(Path(course).resolve()), str(Path(course).absolute()), str(GRADER),
             str(Path(rejlab.__file__).resolve().parents[1]), sys.prefix, sys.base_prefix,
             str(Path(sys.base_prefix).resolve())}
    for path in sorted((p for p in paths if len(p) > 1), key=len, reverse=True):
        text = text.replace(path, "<hidden>")
    return text


def grade(course: Path, assignment: str, student: str, notebook: dict,
          limits: sandbox.Limits = sandbox.Limits()) -> dict:
    """The verdict of one submission (see the module docstring); cached by content."""
    course = Path(course).resolve()
    teacher = read(source_notebook(course, assignment))
    judge = judge_module(assignment)
    ctx = Context(assignment, student, cohort_seed(teacher), cohort_key(course), judge.DATA)
    cells = code_cells(notebook, teacher)
    planned = jobs(judge, ctx, cells)
    key = _hash([job.payload(limits) for _, job in planned], _sources(), ctx.key.hex(),
                rejlab.__version__)
    path = course / CACHE / "verdicts" / assignment / f"{student}.json"
    if path.exists():
        cached = json.loads(path.read_text(encoding="utf-8"))
        if cached.get("key") == key:
            return cached
    results = {run.name: Answers(run, outcome(course, job, limits)) for run, job in planned}
    marks = judge.judge(ctx, results)
    # the first run is the whole notebook, cell for cell: its outputs go to the feedback
    first, _ = planned[0]
    assert first.upto is None and not first.preamble, "a judge's first run is the notebook"
    lab = results[first.name]
    outputs = {}
    for record in lab.outcome.cells:
        if record["index"] < len(cells) and cells[record["index"]].index is not None:
            outputs[str(cells[record["index"]].index)] = {
                "text": scrub(record["output"], course),
                "error": scrub(record["error"], course) if record["error"] else None}
    reasons = {run.name: answers.stopped for run, answers in
               ((r, results[r.name]) for r, _ in planned) if answers.stopped}
    verdict = {
        "key": key, "assignment": assignment, "student": student,
        "points": points(teacher),
        "marks": {gid: {"fraction": max(0.0, min(1.0, float(m.fraction))),
                        "message": scrub(m.message, course)} for gid, m in marks.items()},
        "outputs": outputs,
        "reason": scrub("; ".join(reasons.values()), course) if reasons else None,
        "exports": (lab.outcome.answers or {}).get("exports", {}),
        "reference": judge.reference(ctx),
    }
    _write(path, verdict)
    return verdict


def score(verdict: dict) -> tuple:
    """(points earned, points possible) of the autograded cells."""
    earned = sum(round(verdict["marks"].get(gid, {"fraction": 0})["fraction"] * p, 2)
                 for gid, p in verdict["points"].items())
    return earned, sum(verdict["points"].values())
