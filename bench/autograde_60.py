"""Benchmark: the time to autograde a class of 60 submissions with the course's grader.

Run by hand: ``.venv/bin/python bench/autograde_60.py [--students 60] [--assignment NAME]
[--jobs N]`` (needs bubblewrap and nbgrader). It builds a temporary course folder as a TA
would (a copy of ``teacher/``, ``tools/assignments.py --seed`` for a new cohort), puts one
submission per student in ``submitted/<student>/<assignment>/`` (the teacher's solutions
typed into the students' version: every student runs the whole notebook, the common case),
then times ``python -m grader.autograde`` (what ``make autograde`` runs): the parallel pool of
sandboxes with their judging, then ``nbgrader autograde`` reading the cached verdicts, and
checks that every submission got full marks. Printed: the total, its two phases, the time per
submission, and a baseline measured in the same run (one bare sandbox, ``x = 1``) with the
ratio of a submission's cost to it; the machine's load average before and after, since the
machine may be shared; and the CPU time the sandboxes (as each runner reports it) and the
grader used, which the load does not change, with the time it gives on idle cores.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SOLUTION_LINES = re.compile(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*(\n|\Z)", re.M)


def _text(cell) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def build(course: Path, assignment: str, students: int, env: dict) -> None:
    course.mkdir()
    shutil.copy2(REPO / "teacher" / "nbgrader_config.py", course)
    for folder in ("source", "grader"):
        shutil.copytree(REPO / "teacher" / folder, course / folder,
                        ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints"))
    subprocess.run([sys.executable, str(REPO / "tools" / "assignments.py"), "--seed", "9001",
                    "--course", str(course)], env=env, check=True, capture_output=True)
    source = json.loads((course / "cohort" / assignment / f"{assignment}.ipynb").read_text())
    solutions = {c["metadata"]["nbgrader"]["grade_id"]: SOLUTION_LINES.sub("", _text(c))
                 for c in source["cells"] if c["metadata"].get("nbgrader", {}).get("solution")}
    release = json.loads((course / "release" / assignment / f"{assignment}.ipynb").read_text())
    for cell in release["cells"]:
        gid = cell["metadata"].get("nbgrader", {}).get("grade_id")
        if gid in solutions and cell["cell_type"] == "code":
            cell["source"] = solutions[gid]
    for n in range(students):
        path = course / "submitted" / f"student{n:03d}" / assignment / f"{assignment}.ipynb"
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(release), encoding="utf-8")


def _children_cpu() -> float:
    """CPU seconds of this process's finished children (the grader, nbgrader, bwrap)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def baseline() -> float:
    sys.path.insert(0, str(REPO / "teacher"))
    from grader import sandbox

    start = time.perf_counter()
    sandbox.run(sandbox.Job(cells=({"key": "a", "source": "x = 1"},), student="bench"))
    return time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=60)
    parser.add_argument("--assignment", default="hw1_rejection_measures")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    # make bench runs every benchmark in the test environment: say what is missing, and pass
    if shutil.which("bwrap") is None or importlib.util.find_spec("nbgrader") is None:
        print("autograde_60: skipped (needs bubblewrap and nbgrader: apt-get install bubblewrap; "
              "pip install -e '.[grading]')")
        return 0
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        course = Path(tmp) / "course"
        build(course, args.assignment, args.students, env)
        bare = baseline()
        start, before = time.perf_counter(), _children_cpu()
        done = subprocess.run([sys.executable, "-m", "grader.autograde", args.assignment,
                               "--jobs", str(args.jobs), "--no-copy-check"], cwd=course, env=env,
                              capture_output=True, text=True)
        total, grader_cpu = time.perf_counter() - start, _children_cpu() - before
        sandbox_cpu = sum(json.loads(p.read_text())["cpu_seconds"] or 0.0
                          for p in (course / ".grading" / "outcomes").glob("*.json"))
        if done.returncode != 0:
            print(done.stdout[-3000:] + done.stderr[-3000:], file=sys.stderr)
            return 1
        start = time.perf_counter()
        again = subprocess.run([sys.executable, "-m", "nbgrader", "autograde", args.assignment,
                                "--force"], cwd=course, env=env, capture_output=True, text=True)
        nbgrader_pass = time.perf_counter() - start
        rows = [ln for ln in done.stdout.splitlines() if ln.startswith("student")]
        full = sum(1 for ln in rows if re.search(r"(\d+\.\d+) / (\d+)", ln)
                   and float(ln.split()[1]) == float(ln.split()[3]))
    per = total / args.students
    print(f"autograde {args.students} submissions of {args.assignment}, {args.jobs} sandboxes at "
          f"once, on {os.cpu_count()} cores (load average {load_before[0]:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after)")
    print(f"  total {total:.0f} s ({per:.1f} s a submission); of it nbgrader's pass on the "
          f"cached verdicts about {nbgrader_pass:.0f} s (measured again alone: "
          f"{'ok' if again.returncode == 0 else 'failed'})")
    print(f"  baseline: one bare sandbox (x = 1) {bare:.2f} s; a submission costs "
          f"{per / bare:.1f} bare sandboxes of wall time")
    cpu = sandbox_cpu + grader_cpu
    print(f"  CPU time, which a shared machine's load does not change: {sandbox_cpu:.0f} s in the "
          f"sandboxes + {grader_cpu:.0f} s of the grader and nbgrader = {cpu:.0f} s, "
          f"{cpu / args.students:.1f} s a submission; on {os.cpu_count()} idle cores about "
          f"{cpu / (os.cpu_count() or 1):.0f} s for the class")
    print(f"  full marks: {full} of {len(rows)} submissions")
    return 0 if full == len(rows) == args.students else 1


if __name__ == "__main__":
    sys.exit(main())
