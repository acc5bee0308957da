"""The student edition (``make student-edition``, ``tools/student_edition.py``), built into a
temporary folder: the repository's course and library, nothing of ``teacher/``, self-sufficient.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TOOL = REPO / "tools" / "student_edition.py"


@pytest.fixture(scope="module")
def student_edition(tool):
    return tool("student_edition")

#: Written the way the teacher's material writes them (the scan must find each).
TEACHER_TEXT = ["### BEGIN SOLUTION", "### END HIDDEN TESTS", "**Grading notes (2 points).**",
                "**Model answer.**", '"nbgrader": {"grade": true}', "see teacher/source/hw1", "rubric.md",
                "solutions_00_03.ipynb", "the key is in cohort.key", "def judge(ctx, results):"]
KEY = "3f" * 32                    # a cohort's secret key, as make assignments writes it


@pytest.fixture(scope="module")
def edition(tmp_path_factory, student_edition):
    dest = tmp_path_factory.mktemp("edition") / "student"
    files = student_edition.build(dest, "ada/rejlab-student")
    return dest, files


def test_the_edition_is_the_repositorys_course_and_nothing_of_the_teachers(edition):
    dest, files = edition
    assert {f.split("/")[0] for f in files} == {
        "notebooks", "rejlab", "binder", "docs", "README.md", "LICENSE", "LICENSE-CONTENT.md",
        "pyproject.toml", ".gitignore"}
    pages = ["docs/glossary.md", "docs/maths.md", "docs/references.md"]
    assert sorted(f for f in files if f.startswith("docs/")) == pages
    lessons = sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb"))
    assert sorted(f.split("/")[1] for f in files if f.startswith("notebooks/")) == lessons
    for rel in files:       # (so no file of those folders is missing from the repository's)
        if rel.startswith(("notebooks/", "rejlab/", "binder/")) or rel in (
                *pages, "LICENSE", "pyproject.toml"):
            assert (dest / rel).read_bytes() == (REPO / rel).read_bytes(), rel
    assert not any("__pycache__" in f or f.endswith(".pyc") for f in files)
    # every file read: the teacher's material is nowhere, under any name
    markers = ["BEGIN SOLUTION", "HIDDEN TESTS", "Grading notes", "teacher/", "Model answer",
               '"nbgrader"', "cohort.key"] + [  # and no function of the grader
        line.strip() for p in (REPO / "teacher" / "grader").glob("*.py")
        for line in p.read_text(encoding="utf-8").splitlines()
        if line.startswith("def ") and not line.startswith("def main(")]
    for path in (p for p in dest.rglob("*") if p.is_file()):
        text = path.read_bytes().decode("utf-8", errors="replace")
        assert [m for m in markers if m in text] == [], path.relative_to(dest)


def test_the_scan_finds_each_kind_of_key_material(tmp_path, student_edition):
    (tmp_path / "teacher").mkdir()
    (tmp_path / "teacher" / "key.txt").write_text("the answer is 42\n", encoding="utf-8")
    (tmp_path / "teacher" / "cohort.key").write_text(f"{KEY}\nseed 7\n", encoding="utf-8")
    tree = tmp_path / "tree"
    tree.mkdir()
    for i, text in enumerate(TEACHER_TEXT):
        (tree / f"f{i}.md").write_text(f"some text\n{text}\n", encoding="utf-8")
    (tree / "copy.txt").write_text("the answer is 42\n", encoding="utf-8")
    (tree / "leak.py").write_text(f"SECRET = {KEY[:40]!r} {KEY[40:]!r}\nk = '{KEY}'\n", encoding="utf-8")
    (tree / "docs").mkdir()
    (tree / "docs" / "teaching.md").write_text("a guide\n", encoding="utf-8")
    found = dict(student_edition.key_material(tree, tmp_path / "teacher"))
    assert set(found) == {f"f{i}.md" for i in range(len(TEACHER_TEXT))} | {
        "copy.txt", "docs/teaching.md", "leak.py"}
    assert found["copy.txt"] == "a copy of a file of teacher/"
    assert found["leak.py"] == "holds the cohort's secret key"


def test_the_readme_is_for_students_and_every_relative_link_resolves_inside_the_edition(edition):
    dest, _ = edition
    broken = []
    for path in list(dest.rglob("*.md")) + list(dest.rglob("*.ipynb")):
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".ipynb":
            text = "\n".join("".join(c["source"]) for c in json.loads(text)["cells"]
                             if c["cell_type"] == "markdown")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            linked = path.parent / target.split("#", 1)[0]
            if not re.match(r"[a-z]+:|#", target) and not (
                    linked.resolve().is_relative_to(dest) and linked.exists()):
                broken.append(f"{path.relative_to(dest)} -> {target}")
    assert not broken, broken
    text = (dest / "README.md").read_text(encoding="utf-8")
    assert "https://mybinder.org/v2/gh/ada/rejlab-student/main?urlpath=lab/tree/notebooks/" \
        "00_start_here.ipynb" in text
    for gone in ("make ", "nbgrader", "teacher/", "teaching.md", "teacher guide", "bench/",
                 "tests/", "tools/", ".ci/"):
        assert gone not in text, gone
    # the lesson table is the repository's, every lesson with its time
    rows = re.findall(r"^\| (\d\d[a-z]?) \|", text, re.M)
    lessons = (REPO / "notebooks").glob("*.ipynb")
    assert sorted(rows) == sorted(p.stem.split("_")[0] for p in lessons)
    assert "## Ten lines of Python" in text and "import rejlab as rl" in text


def test_the_target_writes_the_edition_whole_and_refuses_the_repository(tmp_path):
    target = (REPO / "Makefile").read_text(encoding="utf-8").split("\nstudent-edition:", 1)[1]
    assert "tools/student_edition.py _build/student" in target.split("\n\n", 1)[0]
    stale = tmp_path / "student"
    (stale / ".git").mkdir(parents=True)          # a clone of the published edition
    (stale / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    (stale / "old.txt").write_text("from an older build\n", encoding="utf-8")
    done = subprocess.run([sys.executable, str(TOOL), str(stale)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and "student edition:" in done.stdout, done.stderr
    assert not (stale / "old.txt").exists() and (stale / "README.md").exists()
    assert (stale / ".git" / "HEAD").read_text(encoding="utf-8") == "ref: refs/heads/main\n"
    assert not (tmp_path / "student.partial").exists()
    for bad in ([str(REPO)], [str(tmp_path / "x"), "--github", "no slash"]):
        done = subprocess.run([sys.executable, str(TOOL), *bad], capture_output=True, text=True, timeout=120)
        assert done.returncode in (1, 2) and done.stderr.count("\n") == 1, done.stderr
    assert (REPO / "teacher").is_dir(), "the repository is untouched"


@pytest.mark.slow
def test_a_lesson_runs_under_strict_nbval_inside_the_edition(edition):
    dest, _ = edition
    env = dict(os.environ, PYTHONPATH=str(dest), MPLBACKEND="Agg")
    where = subprocess.run([sys.executable, "-c", "import rejlab; print(rejlab.__file__)"],
                           env=env, cwd=dest / "notebooks", capture_output=True, text=True,
                           timeout=120)
    assert Path(where.stdout.strip()).is_relative_to(dest), where.stdout + where.stderr
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval",
         "--nbval-current-env", "--nbval-sanitize-with", str(REPO / "tests" / "nbval_sanitize.cfg"),
         "--rootdir", str(dest), str(dest / "notebooks" / "00_start_here.ipynb")],
        env=env, cwd=dest, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert re.search(r"\b\d+ passed\b", done.stdout) and "failed" not in done.stdout
