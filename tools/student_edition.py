"""Build the student edition of the course: what students may see, and nothing that grades.

    python tools/student_edition.py                          # into _build/student/
    python tools/student_edition.py DEST --github ada/rejlab-student
    make student-edition [GITHUB=OWNER/NAME]

The edition is a tree ready to publish as its own repository (or an orphan branch) for
students: the lessons (``notebooks/``, stored with their outputs, byte for byte as here), the
library (``rejlab/``, which the lessons and the students' homework import), ``binder/`` and
``pyproject.toml`` (Binder and ``pip install .`` build from them), the pages the lessons link
to (``docs/maths.md``, ``docs/references.md``, ``docs/glossary.md``), the licences, and a
README for students written here from the repository's own (its teacher's, developer's and
grading sections left out). Left out altogether: ``teacher/`` (the nbgrader course with its
solutions, model answers and grading notes, the course's grader with its judges, the
cohort's secret key, and the lessons' worked solutions), the teacher guide
``docs/teaching.md`` (it discusses the grading), and the tests, tools, benchmarks and site
sources.

The builder refuses to write an edition that holds key material (exit status 1, naming the
file): a solution or hidden-test marker, a grading note or model answer, nbgrader metadata,
a path into ``teacher/``, judge code, the cohort's key or a mention of its file, or a file
identical to one of ``teacher/``. ``DEST`` is replaced
whole, except its ``.git`` (a clone of the published edition keeps its history: rebuild, then
commit and push from ``DEST``); it must not be the repository itself or hold it.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DEST = ROOT / "_build" / "student"
DEFAULT_GITHUB = "OWNER/rejlab-student"

#: What the edition holds: folders (copied whole, caches left out) and single files.
FOLDERS = ("notebooks", "rejlab", "binder")
FILES = ("pyproject.toml", "LICENSE", "LICENSE-CONTENT.md", "docs/maths.md",
         "docs/references.md", "docs/glossary.md")
#: Mentions of what the edition leaves out, taken out of the files it copies (the terms stay).
EDITS = {"LICENSE-CONTENT.md": (
    re.compile(r",\s+the teacher's material \(`teacher/`\)\s+and\s+the"), " and the")}
CACHES = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints", "*.egg-info")

#: Text that only the teacher's material holds (the grader's judges, ``judge(ctx, results)``,
#: and the cohort's key live in teacher/ too, so the folder's exclusion and the copy check
#: below keep them out; the lessons' self-checks have a ``judge(answer)`` of their own).
KEY_MATERIAL = re.compile(
    r"### (BEGIN|END) SOLUTION|(BEGIN|END) HIDDEN TESTS|Grading notes|\*\*Model answer|"
    r'"nbgrader"\s*:|\bteacher/|solutions_\d\d_\d\d|rubric\.md|cohort\.key|def judge\(ctx\b', re.I)

#: Sections of the repository's README that a student reads as they are.
README_SECTIONS = ("Ten lines of Python", "The course", "Evaluate your own classifier")
#: Sentences of those sections that point at what the edition leaves out.
README_DROP = (
    re.compile(r" ?The teacher guide is \[`docs/teaching\.md`\]\(docs/teaching\.md\)\."),)

GITIGNORE = ".venv/\n__pycache__/\n*.egg-info/\n.ipynb_checkpoints/\n"


class KeyMaterialError(Exception):
    """The edition would hold something of the teacher's."""


def _sections(readme: str) -> tuple[str, dict]:
    """(the text before the first ``##`` heading, heading -> section text)."""
    parts = re.split(r"^## (.+)$", readme, flags=re.M)
    return parts[0], {parts[i].strip(): parts[i + 1].strip("\n") for i in range(1, len(parts), 2)}


def student_readme(readme: str, github: str = DEFAULT_GITHUB) -> str:
    """The edition's README: the repository's introduction and the sections a student needs,
    with the launch badge of the published edition and its own start and layout."""
    intro, sections = _sections(readme)
    title_and_prose = intro.split("[![Launch on Binder]")[0].rstrip()
    badge = (f"[![Launch on Binder](https://mybinder.org/badge_logo.svg)]"
             f"(https://mybinder.org/v2/gh/{github}/main"
             f"?urlpath=lab/tree/notebooks/00_start_here.ipynb)")
    kept = []
    for name in README_SECTIONS:
        text = sections[name]
        for pattern in README_DROP:
            text = pattern.sub("", text)
        kept.append(f"## {name}\n\n{text.strip()}\n")
    start = """## Start here

Click the badge above to open the course on Binder, with nothing to install (a session is
temporary: download what you want to keep with *File → Download*). Or, on your own machine
with Python 3.10 or later:

```bash
python -m venv .venv && .venv/bin/pip install -e ".[lab]"
.venv/bin/jupyter lab notebooks/00_start_here.ipynb
```

On your course's JupyterHub, the link your teacher gives you copies this repository into your
home folder and opens lesson 00; opening it again later brings in the updates without
overwriting your own changes.
"""
    layout = """## Layout

```
notebooks/     the course: lesson 00 to lesson 13, stored with their outputs
rejlab/        the library the lessons call (import rejlab as rl)
docs/          the maths reference, the references, the glossary
binder/        what mybinder.org installs
```

The lessons' self-checks (`rl.exercises.check(...)`) tell you whether an answer is right and
give hints, never the answer. Your homework comes from your teacher, with its own notebook.
"""
    licence = """## Licence

The code (the `rejlab` package) is under the BSD 3-Clause licence, [`LICENSE`](LICENSE). The
lessons (`notebooks/`) and the documentation (`docs/`) are under the Creative Commons
Attribution 4.0 International licence, CC BY 4.0, [`LICENSE-CONTENT.md`](LICENSE-CONTENT.md);
code cells inside the lessons may be reused under either licence.
"""
    return "\n\n".join([title_and_prose, badge, start, *kept, layout, licence]).rstrip() + "\n"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def key_material(tree: Path, teacher: Path = ROOT / "teacher") -> list:
    """(relative path, what) for every file of ``tree`` that holds the teacher's material."""
    teachers = {_digest(p) for p in teacher.rglob("*") if p.is_file()} if teacher.is_dir() \
        else set()
    # the cohort's secret key, wherever a file might quote it
    keys = [line.strip() for line in (teacher / "cohort.key").read_text(encoding="utf-8")
            .splitlines()[:1]] if (teacher / "cohort.key").is_file() else []
    found = []
    for path in sorted(p for p in tree.rglob("*") if p.is_file()):
        rel = path.relative_to(tree).as_posix()
        if rel.split("/")[0] == "teacher" or rel == "docs/teaching.md":
            found.append((rel, "a teacher's file"))
            continue
        if _digest(path) in teachers:
            found.append((rel, "a copy of a file of teacher/"))
            continue
        text = path.read_bytes().decode("utf-8", errors="replace")
        match = KEY_MATERIAL.search(text)
        if match:
            found.append((rel, f"holds {match.group(0)!r}"))
        elif any(key and key in text for key in keys):
            found.append((rel, "holds the cohort's secret key"))
    return found


def build(dest: Path = DEFAULT_DEST, github: str = DEFAULT_GITHUB, root: Path = ROOT) -> list:
    """Write the edition into ``dest`` (replaced whole); return its files, relative."""
    dest = Path(dest).resolve()
    if dest == root or root.is_relative_to(dest):
        raise ValueError(f"dest: {dest} would replace the repository")
    staging = dest.with_name(dest.name + ".partial")
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir(parents=True)
    for folder in FOLDERS:
        shutil.copytree(root / folder, staging / folder, ignore=CACHES)
    for name in FILES:
        (staging / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / name, staging / name)
        if name in EDITS:
            pattern, replacement = EDITS[name]
            text = (root / name).read_text(encoding="utf-8")
            (staging / name).write_text(pattern.sub(replacement, text), encoding="utf-8")
    (staging / "README.md").write_text(
        student_readme((root / "README.md").read_text(encoding="utf-8"), github), encoding="utf-8")
    (staging / ".gitignore").write_text(GITIGNORE, encoding="utf-8")
    found = key_material(staging, root / "teacher")     # before any .git moves in
    if found:
        shutil.rmtree(staging)
        raise KeyMaterialError("; ".join(f"{rel}: {what}" for rel, what in found))
    if (dest / ".git").is_dir():               # a clone of the published edition: keep its history
        shutil.move(str(dest / ".git"), str(staging / ".git"))
    if dest.exists():
        shutil.rmtree(dest)
    staging.rename(dest)                       # written whole, or not at all
    return sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*")
                  if p.is_file() and ".git" not in p.relative_to(dest).parts[:1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest", nargs="?", type=Path, default=DEFAULT_DEST,
                        help="where to write the edition (default: _build/student)")
    parser.add_argument("--github", default=DEFAULT_GITHUB,
                        help="OWNER/NAME of the published edition, for its Binder badge "
                             f"(default: {DEFAULT_GITHUB})")
    args = parser.parse_args(argv)
    if not re.fullmatch(r"[A-Za-z0-9-]+/[A-Za-z0-9._-]+", args.github):
        print(f"student-edition: --github must be OWNER/NAME, got {args.github!r}", file=sys.stderr)
        return 2
    try:
        files = build(args.dest, args.github)
    except (KeyMaterialError, ValueError) as exc:
        print(f"student-edition: {exc}", file=sys.stderr)
        return 1
    print(f"student edition: {len(files)} files in {args.dest} (publish it as its own "
          f"repository, e.g. github.com/{args.github})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
