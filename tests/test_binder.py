"""``binder/`` really reproduces the course: read in the form Binder expects, then built as
repo2docker builds it (``make binder-check``), every lesson under nbval in that environment."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[1]
BINDER = REPO / "binder"
NOT_COPIED = (".git", ".venv", ".venv-py310", "venv", "build", "_build", "dist", "*.egg-info", "__pycache__",
              ".pytest_cache", ".hypothesis", ".ipynb_checkpoints")


def _pins() -> dict[str, str]:
    """``binder/requirements.txt`` as {canonical name: version}; '.' as {'.': ''}."""
    pins = {}
    for raw in (BINDER / "requirements.txt").read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        name, sep, version = line.partition("==")
        assert line in ("", ".") or (sep and version.strip()), \
            f"binder/requirements.txt: not pinned with ==: {raw!r}"
        if line:
            pins["." if line == "." else canonicalize_name(name.strip())] = version.strip()
    return pins


def test_binder_is_what_repo2docker_reads_and_pins_what_rejlab_and_the_lessons_need():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    pins = _pins()
    # rejlab itself, its lab extra and the lessons' test run; no environment.yml (repo2docker
    # would ignore runtime.txt and requirements.txt), no postBuild (the widgets ship prebuilt)
    assert {".", "jupyterlab-widgets", "nbval", "pytest"} <= set(pins)
    assert not (BINDER / "environment.yml").exists() and not (BINDER / "postBuild").exists()
    for spec in project["dependencies"] + project["optional-dependencies"]["lab"]:
        req = Requirement(spec)
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} (pyproject) is not pinned in binder/"
        assert req.specifier.contains(pins[name], prereleases=True), (
            f"binder pins {req.name}=={pins[name]}, pyproject asks {req.specifier}")
    runtime = re.fullmatch(r"python-(3\.\d+)", (BINDER / "runtime.txt").read_text().strip())
    minimum = project["requires-python"].removeprefix(">=")
    assert runtime and [int(x) for x in runtime[1].split(".")] >= [int(x) for x in minimum.split(".")]


def _clean_env(venv: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")
           and not k.startswith(("JUPYTER", "PYTEST"))}
    return dict(env, PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}", VIRTUAL_ENV=str(venv))


def _run(*cmd, cwd, env, timeout=120):
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)
    # the ends of the output, without the ANSI colour codes of IPython's tracebacks
    ends = [re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", out)[-4000:] for out in (proc.stdout, proc.stderr)]
    assert proc.returncode == 0, f"exit {proc.returncode}: {' '.join(map(str, cmd))}\n" + "\n---\n".join(ends)
    return proc


@pytest.mark.slow
@pytest.mark.deploy
def test_binder_environment_runs_every_lesson(tmp_path):
    notebooks = sorted((REPO / "notebooks").glob("*.ipynb"))
    assert notebooks, "no lesson notebooks to check"

    # A copy of the work tree: pip builds '.' in place (build/, *.egg-info).
    repo = tmp_path / "repo"
    shutil.copytree(REPO, repo, ignore=shutil.ignore_patterns(*NOT_COPIED))
    venv = tmp_path / "binder-venv"
    env = _clean_env(venv)
    python = venv / "bin" / "python"

    _run(sys.executable, "-m", "venv", str(venv), cwd=tmp_path, env=env, timeout=300)
    # As repo2docker: pip from the repository root, binder/requirements.txt alone (~50 s, warm cache).
    _run(python, "-m", "pip", "install", "--no-input", "-r", "binder/requirements.txt", cwd=repo, env=env,
         timeout=1800)

    # rejlab comes from the new environment, not from a source tree.
    where = _run(python, "-c", "import rejlab; print(rejlab.__file__)", cwd=tmp_path, env=env).stdout
    assert Path(where.strip()).is_relative_to(venv), where

    # Every installed distribution is pinned at the version installed: nothing
    # floats, so a launch next year resolves to the same environment.
    frozen = _run(python, "-m", "pip", "list", "--format=freeze", "--exclude-editable", cwd=tmp_path, env=env)
    pins = _pins()
    installed = {canonicalize_name(name): version
                 for name, _, version in (line.partition("==") for line in frozen.stdout.splitlines())}
    unpinned = {name: (version, pins.get(name)) for name, version in installed.items()
                if name not in ("pip", "setuptools", "wheel", "rejlab") and pins.get(name) != version}
    assert not unpinned, f"installed, not pinned so in binder/requirements.txt: {unpinned}"

    proc = _run(python, "-m", "pytest", "-p", "no:cacheprovider", "--color=no", "-rfE", "--nbval",
                "--nbval-current-env", "--nbval-sanitize-with", "tests/nbval_sanitize.cfg", "notebooks/",
                cwd=repo, env=env, timeout=1800)
    summary = proc.stdout.strip().splitlines()[-1]
    assert re.search(r"\d+ passed", summary) and not re.search("failed|error", summary), summary
    for nb in notebooks:            # every lesson notebook was collected
        assert f"notebooks/{nb.name}" in proc.stdout, f"{nb.name} not run under nbval"

    # Passed: drop the 600 MB environment (pytest keeps the last three tmp dirs).
    shutil.rmtree(venv, ignore_errors=True)
