"""The course as a git repository on this machine, which the classroom's nbgitpuller link clones.

``classroom/hub.py`` publishes at each start what the students receive (the
student edition where the project has its builder, else the repository's own
files) into ``STATE/git/rejlab`` and commits what changed, so that a
student's next visit to the link merges it, as on a hub that pulls from
GitHub.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import urllib.parse
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LANDING = "notebooks/00_start_here.ipynb"


class CourseError(Exception):
    """One line for the user: what went wrong and what to do."""


def _git(*args: str, cwd: Path) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        last = (done.stderr or done.stdout).strip().splitlines() or ["no output"]
        raise CourseError(f"git {' '.join(args)} failed in {cwd}: {last[-1]}")
    return done.stdout


def student_edition_tool(repo: Path = REPO) -> Path | None:
    """The builder of the student edition, where the project has one."""
    tool = repo / "tools" / "student_edition.py"
    return tool if tool.exists() else None


def _listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                  if p.is_file() and ".git" not in p.relative_to(folder).parts)


def course_files(source: Path | None, state: Path,
                 repo: Path = REPO) -> tuple[Path, list[str], str]:
    """(folder, relative file names, description) of what the students receive.

    ``source`` when given; else the student edition, built afresh into
    ``state/student-edition`` by the project's own builder (what ``make
    student-edition`` writes to ``_build/student/``); else, in a project
    without one, the repository's own files (``git ls-files``).
    """
    if source is None and (tool := student_edition_tool(repo)) is not None:
        source = state / "student-edition"
        done = subprocess.run([sys.executable, str(tool), str(source)], cwd=repo,
                              capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
            raise CourseError(f"the student edition could not be built ({tool.name} exited "
                              f"with {done.returncode}: {last[0]}): fix what it names, then "
                              "run make classroom again")
        description = f"the student edition ({tool.relative_to(repo)}, built into {source})"
    elif source is None:
        names = [n for n in _git("ls-files", "-z", cwd=repo).split("\0")
                 if n and (repo / n).is_file()]
        return repo, names, f"the repository's own files ({repo})"
    else:
        description = f"the folder {source}"
    if not (source / LANDING).is_file():
        raise CourseError(f"the course source {source} has no {LANDING}: give a folder that "
                          "holds the course")
    return source, _listing(source), description


def publish_course(source: Path | None, state: Path, repo: Path = REPO) -> tuple[Path, str]:
    """Copy the course into ``state/git/rejlab`` (a git repository on ``main``) and commit it."""
    folder, names, description = course_files(source, state, repo)
    git_repo = state / "git" / "rejlab"
    if not (git_repo / ".git").exists():
        git_repo.mkdir(parents=True, exist_ok=True)
        _git("init", "-q", "-b", "main", cwd=git_repo)
    for entry in git_repo.iterdir():          # the tree as the source has it now
        if entry.name != ".git":
            shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
    for name in names:
        target = git_repo / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(folder / name, target)
    _git("add", "-A", cwd=git_repo)
    if _git("status", "--porcelain", cwd=git_repo).strip():
        _git("-c", "user.name=rejlab classroom", "-c", "user.email=classroom@127.0.0.1",
             "commit", "-q", "-m", f"The course, from {description}", cwd=git_repo)
    return git_repo, description


def pull_link(base: str, git_repo: Path, landing: str = LANDING) -> str:
    """The nbgitpuller link: clone (first visit) or merge (later ones), then open ``landing``."""
    query = urllib.parse.urlencode({"repo": git_repo.as_uri(), "branch": "main",
                                    "urlpath": f"lab/tree/{git_repo.name}/{landing}"})
    return f"{base}/hub/user-redirect/git-pull?{query}"


def git_config(state: Path, git_repo: Path) -> Path:
    """A git system config that lets the students clone the course's repository.

    The repository belongs to root, and git refuses to read a repository of
    another user unless a protected config (system or global, not the command
    line) names it safe; the servers point ``GIT_CONFIG_SYSTEM`` here, which
    still includes the machine's own ``/etc/gitconfig``.
    """
    path = state / "etc" / "gitconfig"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# Written by classroom/hub.py for the users' servers.\n"
                    "[include]\n\tpath = /etc/gitconfig\n"
                    f"[safe]\n\tdirectory = {git_repo}\n\tdirectory = {git_repo / '.git'}\n",
                    encoding="utf-8")
    return path
