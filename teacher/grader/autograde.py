"""Grade every collected submission of an assignment, in parallel sandboxes, into nbgrader.

    make autograde ASSIGNMENT=hw1_rejection_measures [COURSE=teacher] [JOBS=2]
    cd <course> && python -m grader.autograde hw1_rejection_measures [--jobs N] [--no-copy-check]

1. Every notebook under ``<course>/submitted/<student>/<assignment>/`` is graded
   (:func:`grader.submission.grade`) by a pool of workers, one sandbox each at a time: the
   verdict of each submission is cached in the course folder, keyed by the content of its
   jobs. A failure of one submission (its time, its memory, a crash, a flood) is that
   submission's verdict, with its reason; the others are untouched.
2. Then one ``nbgrader autograde <assignment> --force`` in the course folder, whose
   ``SandboxGrader`` finds every verdict in the cache, writes ``autograded/`` and stores the
   scores in ``gradebook.db`` as nbgrader always does.
3. A table of the scores, each failure's reason, and the copy check (``grader.copycheck``).

Exit status 0 when every submission was graded, 1 when nbgrader failed on one, 2 on bad
usage (no such course or assignment, or no bubblewrap: it never grades without).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import copycheck, sandbox, submission


def submissions(course: Path, assignment: str) -> list:
    """(student, notebook path) of every collected submission, by student id."""
    found = []
    for path in sorted((course / "submitted").glob(f"*/{assignment}/*.ipynb")):
        if ".ipynb_checkpoints" not in path.parts:
            found.append((path.parts[-3], path))
    return found


def grade_all(course: Path, assignment: str, jobs: int, limits=sandbox.Limits(), log=print):
    """{student: verdict or the error that stopped its grading}, graded ``jobs`` at a time."""
    submission.cohort_key(course)        # made once, before the workers need it

    def one(item):
        student, path = item
        try:
            return student, submission.grade(course, assignment, student, submission.read(path),
                                             limits)
        except sandbox.SandboxUnavailable:
            raise
        except Exception as exc:        # noqa: BLE001 (one bad file must not stop the class)
            return student, exc

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = dict(pool.map(one, submissions(course, assignment)))
    return results


def course_limits(course: Path) -> sandbox.Limits:
    """The sandbox limits the course's ``nbgrader_config.py`` sets (``c.SandboxGrader.*``), so
    that the pool and nbgrader's pass plan the same jobs and share the cache."""
    from traitlets.config.loader import PyFileConfigLoader

    from .nbgrader_plugin import SandboxGrader

    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    return SandboxGrader(config=config).limits()


def nbgrader_autograde(course: Path, assignment: str) -> int:
    env = dict(os.environ)
    # nbgrader runs alembic beside this Python; the course's config imports its grader
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    done = subprocess.run([sys.executable, "-m", "nbgrader", "autograde", assignment, "--force"],
                          cwd=course, env=env)
    return done.returncode


def table(results: dict) -> str:
    lines = []
    for student, verdict in sorted(results.items()):
        if isinstance(verdict, Exception):
            lines.append(f"{student:20s}  not graded: {type(verdict).__name__}: {verdict}")
            continue
        earned, possible = submission.score(verdict)
        line = f"{student:20s} {earned:6.2f} / {possible:g}"
        if verdict["reason"]:
            line += f"   stopped: {verdict['reason']}"
        lines.append(line)
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("assignment")
    parser.add_argument("--course", type=Path, default=Path.cwd(),
                        help="the nbgrader course folder (default: the current folder)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="sandboxes at once (default: one per core)")
    parser.add_argument("--no-copy-check", action="store_true", help="skip the copy check")
    args = parser.parse_args(argv)
    course = args.course.resolve()
    try:
        sandbox.bwrap()
        if not (course / "nbgrader_config.py").is_file():
            raise ValueError(f"{args.course} is not a course folder (no nbgrader_config.py)")
        submission.source_notebook(course, args.assignment)
        submission.judge_module(args.assignment)
    except (sandbox.SandboxUnavailable, ValueError, ImportError) as exc:
        print(f"autograde: {exc}", file=sys.stderr)
        return 2
    try:
        results = grade_all(course, args.assignment, args.jobs, course_limits(course))
    except sandbox.SandboxUnavailable as exc:
        print(f"autograde: {exc}", file=sys.stderr)
        return 2
    if not results:
        print(f"autograde: no submission of {args.assignment} under {course / 'submitted'}")
        return 0
    status = nbgrader_autograde(course, args.assignment)
    print(f"\n{args.assignment}: {len(results)} submissions (autograded points)")
    print(table(results))
    if not args.no_copy_check:
        print("\n" + copycheck.report(course, args.assignment, results))
    failed = any(isinstance(v, Exception) for v in results.values())
    return 1 if status or failed else 0


if __name__ == "__main__":
    sys.exit(main())
