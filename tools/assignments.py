"""Generate the students' versions of the homework, for a cohort with its own seed and key.

    python tools/assignments.py               # teacher/source/ as it is (its default seed)
    python tools/assignments.py --seed 4711   # a new cohort: every assignment drawn from 4711
    make assignments SEED=4711

Each assignment of ``teacher/source/`` draws every student's data from the one line
``SEED = <n>`` of its set-up cell and the student's id, and the course's grader recomputes
every expected value from that pair. With ``--seed`` the tool copies ``teacher/source/``
into ``teacher/cohort/`` with that line rewritten in every notebook (``teacher/source/``
stays as committed) and runs ``nbgrader generate_assignment`` on the copy; without it, on
``teacher/source/`` itself (and removes an earlier ``teacher/cohort/``). The course's
``nbgrader_config.py`` reads ``teacher/cohort/`` when it exists, so every later nbgrader
command (a single ``generate_assignment``, ``autograde``, the formgrader) works with the seed
of the last ``make assignments``. Either way the students' versions land in
``teacher/release/``.

It also writes the cohort's secret key, ``teacher/cohort.key`` (readable by its owner only,
never released, ignored by git): the grader draws from it the fresh inputs it calls the
students' functions on and the capstone's sealed test digits. A new seed gets a new key;
running it again with the same seed keeps the key. A notebook without exactly one
``SEED = <n>`` line is refused (exit status 2).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COURSE = ROOT / "teacher"
SEED_LINE = re.compile(r"^SEED = \d+\b", re.M)
COHORT = "cohort"          # the seeded copy of source/, inside the course folder
KEY = "cohort.key"         # the cohort's secret key, inside the course folder


class SeedError(Exception):
    """A source notebook does not have exactly one ``SEED = <n>`` line."""


def with_seed(notebook: dict, seed: int, name: str = "notebook") -> dict:
    """The notebook with its one ``SEED = <n>`` line (in a code cell) set to ``seed``.

    >>> nb = {"cells": [{"cell_type": "code", "source": "import numpy\\nSEED = 3   # the data"}]}
    >>> with_seed(nb, 11)["cells"][0]["source"]
    'import numpy\\nSEED = 11   # the data'
    """
    hits = 0
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        found = len(SEED_LINE.findall(text))
        if found:
            hits += found
            cell["source"] = SEED_LINE.sub(f"SEED = {int(seed)}", text)
    if hits != 1:
        raise SeedError(f"{name} has {hits} lines 'SEED = <n>' (it needs exactly one)")
    return notebook


def seeded_copy(source: Path, dest: Path, seed: int) -> list:
    """Copy ``source`` (the assignments' folders) to ``dest``, every notebook with ``seed``."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(source, dest, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    notebooks = sorted(dest.glob("*/*.ipynb"))
    for path in notebooks:
        nb = json.loads(path.read_text(encoding="utf-8"))
        rel = path.relative_to(dest)
        path.write_text(json.dumps(with_seed(nb, seed, str(rel)), indent=1, ensure_ascii=False)
                        + "\n", encoding="utf-8")
    return notebooks


def write_key(course: Path, seed) -> bool:
    """Make the cohort's secret key unless the one there is already this seed's; True when
    a new key was written. The file holds the key (64 hex digits) and the seed it is for."""
    path = course / KEY
    tag = f"seed {seed if seed is not None else 'default'}"
    if path.exists():
        lines = path.read_text(encoding="utf-8").splitlines()
        if len(lines) >= 2 and lines[1].strip() == tag:
            return False
    tmp = path.with_name(f".{KEY}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(f"{secrets.token_hex(32)}\n{tag}\n")
    tmp.replace(path)
    return True


def generate(course: Path, source_directory: str = "source", log_level: str = "WARN") -> list:
    """``nbgrader generate_assignment --force`` for every assignment of the source directory."""
    env = dict(os.environ)
    # nbgrader runs alembic (beside this Python) to create the gradebook
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    names = sorted(p.name for p in (course / source_directory).iterdir() if p.is_dir())
    # one nbgrader run for all of them ("*" is a pattern nbgrader expands itself)
    subprocess.run([sys.executable, "-m", "nbgrader", "generate_assignment", "*", "--force",
                    f"--log-level={log_level}",
                    f"--CourseDirectory.source_directory={source_directory}"],
                   cwd=course, env=env, check=True)
    return names


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=None,
                        help="draw every assignment from this seed (a new cohort)")
    parser.add_argument("--course", type=Path, default=COURSE,
                        help="the nbgrader course folder (default: teacher/)")
    args = parser.parse_args(argv)
    if args.seed is not None and args.seed < 0:
        print("assignments: --seed must be an integer >= 0", file=sys.stderr)
        return 2
    source = "source"
    try:
        if args.seed is not None:
            seeded_copy(args.course / "source", args.course / COHORT, args.seed)
            source = COHORT
        elif (args.course / COHORT).exists():
            shutil.rmtree(args.course / COHORT)    # nbgrader_config.py would prefer it
        names = generate(args.course, source)
        new_key = write_key(args.course, args.seed)
    except SeedError as exc:
        print(f"assignments: {exc}", file=sys.stderr)
        return 2
    except subprocess.CalledProcessError as exc:
        print(f"assignments: nbgrader failed ({exc.returncode})", file=sys.stderr)
        return 1
    seed = f"seed {args.seed}" if args.seed is not None else "the default seed of source/"
    print(f"students' versions of {', '.join(names)} ({seed}): {args.course / 'release'} "
          f"(hand these out; the course folder keeps the solutions, the grader and the "
          f"cohort's {'new ' if new_key else ''}secret key, {KEY})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
