"""Print the mybinder.org link that opens the course in JupyterLab.

    python tools/binder_link.py                      # lesson 00 on the default branch
    python tools/binder_link.py --path notebooks/03_measures_vs_rejection.ipynb
    python tools/binder_link.py --branch main --repo /path/to/clone

The owner and repository come from the ``origin`` remote, in any of the forms
GitHub hands out: ``https://github.com/OWNER/REPO(.git)``,
``git@github.com:OWNER/REPO(.git)`` and ``ssh://git@github.com/OWNER/REPO(.git)``.
The branch is the remote's default branch (``origin/HEAD``) when git knows it,
else the branch checked out, else ``main``. Without an ``origin`` remote, or
with one that is not on GitHub, it prints one line saying what it needs and
exits with status 2.

``tools/build_book.py`` imports :func:`launch_url` for the launch link of
every lesson page, so the site and ``make binder-link`` agree.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
START = "notebooks/00_start_here.ipynb"
BINDER = "https://mybinder.org/v2/gh"

_NAME = r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"   # a GitHub account name
_REPO = r"[A-Za-z0-9._-]+?"
_GITHUB = re.compile(
    r"^(?:https://(?:[^@/\s]+@)?github\.com/"         # https, optionally with a user
    r"|git@github\.com:"                               # scp-like ssh
    r"|ssh://git@github\.com(?::22)?/)"                # ssh URL
    rf"(?P<owner>{_NAME})/(?P<repo>{_REPO})(?:\.git)?/?$")


class BinderLinkError(Exception):
    """The repository has no origin remote that mybinder.org can build."""


def parse_github(url: str) -> tuple[str, str] | None:
    """``(owner, repo)`` of a GitHub remote URL, or None for any other URL.

    >>> parse_github("git@github.com:ada/rejlab.git")
    ('ada', 'rejlab')
    >>> parse_github("https://gitlab.com/ada/rejlab.git") is None
    True
    """
    match = _GITHUB.match(url.strip())
    if match is None or match["repo"] in {".", ".."}:
        return None
    return match["owner"], match["repo"]


def binder_url(owner: str, repo: str, branch: str, path: str = START) -> str:
    """The mybinder.org URL that opens ``path`` in JupyterLab.

    >>> binder_url("ada", "rejlab", "main")
    'https://mybinder.org/v2/gh/ada/rejlab/main?urlpath=lab/tree/notebooks/00_start_here.ipynb'
    """
    return (f"{BINDER}/{owner}/{repo}/{quote(branch, safe='')}"
            f"?urlpath=lab/tree/{quote(path, safe='/')}")


def _git(repo_dir: Path, *args: str) -> str | None:
    try:
        out = subprocess.run(["git", "-C", str(repo_dir), *args], capture_output=True,
                             text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else None


def origin_url(repo_dir: Path = ROOT) -> str | None:
    """The URL of the ``origin`` remote, or None when there is none."""
    return _git(repo_dir, "remote", "get-url", "origin")


def default_branch(repo_dir: Path = ROOT) -> str:
    """``origin/HEAD``'s branch, else the checked-out branch, else ``main``."""
    head = _git(repo_dir, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD")
    if head and head.startswith("origin/"):
        return head[len("origin/"):]
    current = _git(repo_dir, "symbolic-ref", "--quiet", "--short", "HEAD")  # None if detached
    return current or "main"


def github_origin(repo_dir: Path = ROOT) -> tuple[str, str]:
    """``(owner, repo)`` of the origin remote; BinderLinkError when there is none."""
    url = origin_url(repo_dir)
    if url is None:
        raise BinderLinkError(
            f"no 'origin' remote in {repo_dir}: a Binder link needs the GitHub repository "
            "that hosts the course (git remote add origin https://github.com/OWNER/REPO.git)")
    found = parse_github(url)
    if found is None:
        raise BinderLinkError(
            f"origin is {url}, not a GitHub repository: mybinder.org/v2/gh needs "
            "https://github.com/OWNER/REPO(.git) or git@github.com:OWNER/REPO(.git)")
    return found


def launch_url(repo_dir: Path = ROOT, path: str = START, branch: str | None = None) -> str:
    """The Binder URL of ``path`` for the repository in ``repo_dir``."""
    owner, repo = github_origin(repo_dir)
    return binder_url(owner, repo, branch or default_branch(repo_dir), path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", default=START, help=f"notebook to open (default {START})")
    parser.add_argument("--branch", default=None, help="branch to launch (default: see above)")
    parser.add_argument("--repo", type=Path, default=ROOT, help="the git checkout")
    args = parser.parse_args(argv)
    try:
        print(launch_url(args.repo, args.path, args.branch))
    except BinderLinkError as exc:
        print(f"binder-link: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
