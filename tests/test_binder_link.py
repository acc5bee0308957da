"""`make binder-link` (tools/binder_link.py), run as ``make`` runs it on real repositories
(``git init``) whose ``origin`` takes each form GitHub hands out, or none, or another host's."""

import doctest
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TOOL = REPO / "tools" / "binder_link.py"
LESSON = "notebooks/00_start_here.ipynb"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True)


def make_repo(tmp_path: Path, origin: str | None, branch: str = "main") -> Path:
    repo = tmp_path / "clone"
    repo.mkdir()
    git(repo, "init", "-q", "-b", branch)
    if origin is not None:
        git(repo, "remote", "add", "origin", origin)
    return repo


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("origin", [
    *(f"https://github.com/ada-l/course-kit{tail}" for tail in ("", ".git", "/")),
    "https://someone@github.com/ada-l/course-kit.git", "git@github.com:ada-l/course-kit",
    "git@github.com:ada-l/course-kit.git", "ssh://git@github.com/ada-l/course-kit.git",
    "ssh://git@github.com:22/ada-l/course-kit"])
def test_every_github_form_gives_the_lab_url_of_lesson_00(tmp_path, origin):
    out = run("--repo", str(make_repo(tmp_path, origin, branch="spring-term")))
    assert (out.returncode, out.stdout, out.stderr) == (
        0, f"https://mybinder.org/v2/gh/ada-l/course-kit/spring-term?urlpath=lab/tree/{LESSON}\n", "")


def test_origin_head_wins_over_the_checked_out_branch_and_the_options_over_both(tmp_path):
    repo = make_repo(tmp_path, "git@github.com:ada-l/rejlab.git", branch="feature")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@e.org", "commit", "-q", "--allow-empty", "-m", "s")
    git(repo, "update-ref", "refs/remotes/origin/trunk", "HEAD")
    git(repo, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk")
    out = run("--repo", str(repo))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("https://mybinder.org/v2/gh/ada-l/rejlab/trunk?")
    out = run("--repo", str(repo), "--branch", "release/2027",
              "--path", "notebooks/03_measures_vs_rejection.ipynb")
    assert out.stdout.strip() == ("https://mybinder.org/v2/gh/ada-l/rejlab/release%2F2027"
                                  "?urlpath=lab/tree/notebooks/03_measures_vs_rejection.ipynb")


@pytest.mark.parametrize("origin, says", [
    (None, ["no 'origin' remote", "github.com"]),
    ("not a git repository", ["no 'origin' remote"]),
    *[(origin, [origin, "not a GitHub repository"]) for origin in (
        "https://gitlab.com/ada-l/rejlab.git", "git@bitbucket.org:ada-l/rejlab.git", "/srv/git/rejlab.git",
        "https://github.com/ada-l",                   # an account, not a repository
        "https://github.com/ada-l/rejlab/tree/main",  # a page, not a clone URL
        "https://github.com.evil.example/ada-l/rejlab.git")],
])
def test_no_github_origin_is_one_line_and_exit_2(tmp_path, origin, says):
    repo = tmp_path if origin == "not a git repository" else make_repo(tmp_path, origin)
    out = run("--repo", str(repo))
    assert out.returncode == 2 and out.stdout == ""
    (line,) = out.stderr.splitlines()
    assert line.startswith("binder-link: ") and all(word in line for word in says), line


def test_docstring_examples(tool):
    failures, tried = doctest.testmod(tool("binder_link"))   # tools/ is not in the doctest run
    assert tried >= 3 and failures == 0


def test_readme_badge_follows_the_pattern_and_says_how_to_refresh_it_with_make_binder_link():
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert "tools/binder_link.py" in makefile.split("\nbinder-link:", 1)[1].split("\n\n", 1)[0]
    text = (REPO / "README.md").read_text(encoding="utf-8")
    badge = text.split("[![Launch on Binder]", 1)[1].split("\n", 1)[0]
    assert f"(https://mybinder.org/v2/gh/OWNER/rejlab/main?urlpath=lab/tree/{LESSON})" in badge
    note = text.split(badge, 1)[1].split("\n\n", 2)[1]
    assert "make binder-link" in note and "OWNER" in note
    for command in ("make book", "make assignments", "make binder-link"):
        assert sum(line.startswith(command) for line in text.splitlines()) == 1, command
