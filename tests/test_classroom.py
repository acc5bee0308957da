"""The classroom hub (``make classroom``, ``classroom/hub.py``), tried as a class would use it.

The end-to-end test drives the real launcher in headless Chromium (any other host aborted): the
instructor releases homework 1; alice follows the course link, runs a lesson and submits the
teacher's solutions (saved through the contents API as alice: typing them would test JupyterLab's
editor); the students try, as their system users, what they may not reach; the instructor
collects, autogrades in sandboxes, returns her feedback and exports the grades; Ctrl-C stops it
all (146 to 222 s on the project's 2-core machine at a load of 2 to 6, 4 December 2026). It needs
root (the launcher makes system users); the bad-input tests need no network (npm is pointed at a
closed port or at a local server that answers 404).
"""
import contextlib
import csv
import functools
import html
import http.server
import importlib.util
import io
import json
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import quote

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[1]
HUB = REPO / "classroom" / "hub.py"
# make classroom's environment (.venv-hub, or the one make test names): a Python every user can
# run, as the students' servers must (the test's own may live in root's closed home)
HUB_PYTHON = REPO / os.environ.get("REJLAB_HUB_VENV", ".venv-hub") / "bin" / "python"
HW1 = "hw1_rejection_measures"
LESSON = "02_four_subsets_and_measures.ipynb"
PASSWORD = "classroom-test-pw"
READY_S = 600            # npm ci the first time, then the hub: usually ~5 s
STOP_S = 90
PAGE_MS = 90_000


sys.path.insert(0, str(HUB.parent))     # the launcher and its siblings, as it imports them
import course_repository  # noqa: E402
import hub  # noqa: E402
import student_lab  # noqa: E402

from tests import test_browser as browser_helpers  # noqa: E402


def _hub_python() -> str:
    if not HUB_PYTHON.exists():
        pytest.fail(f"{HUB_PYTHON} is missing: make .venv-hub/.hub (make test makes it)")
    return str(HUB_PYTHON)


def _refused(tmp_path: Path, *args: str, env: dict | None = None, python: str = sys.executable,
             nobody: bool = False) -> str:
    """The launcher's one line on stderr, having exited 2 (run by nobody: see ``_as_nobody``)."""
    command = [python, str(HUB), "--state", str(tmp_path / "state"), *args]
    done = subprocess.run(_as_nobody(tmp_path, command) if nobody else command, capture_output=True,
                          text=True, env=env, cwd="/" if nobody else None, timeout=300,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("classroom: "), done.stderr
    return line


# --- Bad input: one line, exit 2, nothing started ---------------------------------------------

def test_a_bad_option_or_a_start_without_root_is_refused_with_one_line_before_any_set_up(tmp_path):
    closed = tmp_path / "closed"
    closed.mkdir(mode=0o700)
    state = closed / "state"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        for args, nobody, says in [
                (["--port", str(port)], False, [f"port {port}", "taken", "PORT=0"]),
                (["--port", "eighty"], False, ["--port", "eighty"]),
                (["--students", "alice,instructor"], False, ["--students"]),
                (["--state", str(state)], False, [str(closed), "closed to other users", "--state"]),
                ([], True, ["root", "system user", "sudo make classroom"])]:   # nobody can't make users
            line = _refused(tmp_path, *args, python=_hub_python(), nobody=nobody)
            assert all(word in line for word in says), line
    assert not (tmp_path / "state").exists() and not state.exists(), "nothing set up"


NOBODY = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


def _as_nobody(tmp_path: Path, command: list[str], repo: Path = REPO) -> list[str]:
    """``command`` as a user of no privilege (nobody), in a namespace where the folders closed
    to other users above ``repo`` (as CI's clone has them) are opened as the launcher opens
    them for the hub."""
    opened = [folder for folder in hub.all_closed(repo) if folder in repo.parents]
    stand_ins = tmp_path / "stand-ins"
    stand_ins.mkdir(mode=0o700)
    return hub.in_own_namespace([*NOBODY, *command], hub.opening_commands(opened, stand_ins, repo))


def test_a_python_other_users_cannot_run_is_refused(tmp_path):
    pytest.importorskip("jupyterhub")           # the launcher looks for the hub first
    python = Path(sys.executable).resolve()     # the test's own
    if not hub.all_closed(python) and not hub.all_closed(Path(sys.base_prefix).resolve()):
        pytest.skip(f"this test's Python ({python}) is one every user can run")
    line = _refused(tmp_path)
    assert all(s in line for s in (str(python), "other users cannot enter", "HUB_PYTHON=/usr/bin/python3"))


def test_a_clone_under_closed_folders_is_opened_to_the_hub_alone(tmp_path):
    # a clone as CI makes it: /.../outer (0700)/inner (0700)/repo, with a secret beside each
    outer = tmp_path / "outer"
    repo = outer / "inner" / "repo"
    (repo / "rejlab").mkdir(parents=True)
    (repo / "rejlab" / "code.py").write_text("seen\n")
    for folder in (outer, outer / "inner"):
        (folder / "secret").write_text("kept\n")
        folder.chmod(0o700)
    tmp_path.chmod(0o755)
    assert [f for f in hub.all_closed(repo) if f in repo.parents][-2:] == [outer, outer / "inner"]
    look = (f"cat {repo}/rejlab/code.py; ls {outer} {outer}/inner; "
            f"cat {outer}/secret {outer}/inner/secret 2>&1")
    done = subprocess.run(_as_nobody(tmp_path, ["sh", "-c", look], repo),
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.split("\n")[:5] == ["seen", f"{outer}:", "inner", "", f"{outer}/inner:"]
    assert "kept" not in done.stdout and "No such file" in done.stdout, done.stdout
    # outside that namespace nothing changed: still closed, and nothing left mounted
    outside = subprocess.run([*NOBODY, "sh", "-c", f"cat {repo}/rejlab/code.py"], capture_output=True)
    assert outside.returncode != 0 and outer.stat().st_mode & 0o777 == 0o700
    assert all(not any(p.iterdir()) for p in (tmp_path / "stand-ins").glob("*/*"))


@pytest.mark.parametrize("registry, says", [
    ("closed", ["npm registry", "unreachable", "npm config set registry"]),
    ("empty", ["configurable-http-proxy could not be installed", "404"]),
    ("no npm", ["Node.js and npm", "apt-get install npm"]),
])
def test_npm_or_a_registry_without_the_proxy_is_named(tmp_path, registry, says):
    if registry != "no npm" and shutil.which("npm") is None:
        pytest.fail("npm is not installed (apt-get install npm; .ci/run installs it)")
    (tmp_path / "empty").mkdir()
    # a port nothing listens on, a registry that has nothing (404 for every package), or no npm
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(
        http.server.SimpleHTTPRequestHandler, directory=str(tmp_path / "empty")))
    if registry == "empty":
        threading.Thread(target=server.serve_forever, daemon=True).start()
    else:
        server.server_close()
    address = f"127.0.0.1:{server.server_address[1]}"
    env = dict(os.environ, npm_config_registry=f"http://{address}/", npm_config_fetch_retries="0",
               npm_config_cache=str(tmp_path / "npm-cache"),       # nothing cached
               npm_config_userconfig=str(tmp_path / "npmrc"))
    if registry == "no npm":
        (tmp_path / "bin").mkdir()                # git, but no node and no npm
        (tmp_path / "bin" / "git").symlink_to(shutil.which("git"))
        env["PATH"] = str(tmp_path / "bin")
    node_dir = tmp_path / "node"
    node_dir.mkdir()
    for name in ("package.json", "package-lock.json"):
        shutil.copy2(REPO / "classroom" / name, node_dir)
    try:
        line = _refused(tmp_path, "--node-dir", str(node_dir), env=env)
    finally:
        if registry == "empty":
            server.shutdown()
            server.server_close()
    assert all(word in line for word in says) and (registry != "closed" or address in line), line
    assert not (node_dir / "node_modules").exists(), "no half-installed proxy may be left"


# --- The servers' PATH, the course source, the student's own lab ------------------------------

def test_every_server_is_given_a_path_with_the_graders_sandbox(tmp_path, monkeypatch):
    tools = tmp_path / "tools"           # bwrap and git somewhere the system's PATH is not
    tools.mkdir()
    for name in ("bwrap", "git"):
        (tools / name).write_text("#!/bin/sh\n")
        (tools / name).chmod(0o755)
    monkeypatch.setenv("PATH", str(tools))
    path, bwrap = hub.server_path()
    assert bwrap == str(tools / "bwrap")
    assert path.split(os.pathsep) == [str(Path(sys.executable).parent), str(tools), *hub.SYSTEM_PATH]
    # a launcher started with a PATH without them (a service's) still finds the system's
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    assert hub.server_path()[1] == shutil.which("bwrap", path=os.pathsep.join(hub.SYSTEM_PATH))


def _git(repo: Path, *args: str) -> list[str]:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout.split()


def _project(tmp_path: Path, builder: str | None) -> Path:
    """A project folder: three tracked files, and a student-edition builder if given."""
    repo = tmp_path / "project"
    (repo / "notebooks").mkdir(parents=True)
    (repo / course_repository.LANDING).write_text("{}")
    (repo / "answers.md").write_text("key material\n")
    (repo / "README.md").write_text("for students\n")
    if builder is not None:
        (repo / "tools").mkdir()
        (repo / "tools" / "student_edition.py").write_text(builder)
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    return repo


# a builder like tools/student_edition.py: DEST as its argument, the lessons without the keys
BUILDER = """import pathlib, sys
dest = pathlib.Path(sys.argv[1])
(dest / "notebooks").mkdir(parents=True, exist_ok=True)
(dest / "notebooks" / "00_start_here.ipynb").write_text("{}")
(dest / "README.md").write_text(pathlib.Path("README.md").read_text())
"""


def test_without_a_student_edition_the_link_clones_the_repositorys_files_into_lesson_00(tmp_path):
    repo = _project(tmp_path, builder=None)
    git_repo, description = course_repository.publish_course(None, tmp_path / "state", repo)
    assert sorted(_git(git_repo, "ls-files")) == ["README.md", "answers.md", course_repository.LANDING]
    assert "the repository's own files" in description
    assert course_repository.student_edition_tool(repo) is None
    link = course_repository.pull_link("http://127.0.0.1:9", git_repo)
    assert link.startswith("http://127.0.0.1:9/hub/user-redirect/git-pull?repo=file%3A%2F%2F")
    assert "branch=main" in link and "urlpath=lab%2Ftree%2Frejlab%2Fnotebooks%2F00_start_here.ipynb" in link
    with pytest.raises(course_repository.CourseError, match="has no notebooks/00_start_here.ipynb"):
        course_repository.course_files(tmp_path / "empty", tmp_path / "state")


def test_the_link_pulls_the_student_edition_where_the_project_has_one(tmp_path):
    repo = _project(tmp_path, builder=BUILDER)
    state = tmp_path / "state"
    git_repo, description = course_repository.publish_course(None, state, repo)
    assert sorted(_git(git_repo, "ls-files")) == ["README.md", course_repository.LANDING], \
        "the edition, not the repository"
    assert "student edition" in description and (state / "student-edition").is_dir()
    (repo / "README.md").write_text("updated\n")     # the next start commits the change
    course_repository.publish_course(None, state, repo)
    assert (git_repo / "README.md").read_text() == "updated\n"
    assert len(_git(git_repo, "log", "--format=%h")) == 2
    assert course_repository.student_edition_tool(REPO) == REPO / "tools" / "student_edition.py"
    # an edition that cannot be built is named
    (repo / "tools" / "student_edition.py").write_text("import sys\nsys.exit('key material in x')\n")
    with pytest.raises(course_repository.CourseError,
                       match=r"student edition could not be built .*key material in x"):
        course_repository.publish_course(None, state, repo)


@pytest.mark.slow
def test_the_lab_make_lab_opens_has_no_grading_tools(tmp_path):
    # make test installs nbgrader where make lab runs; the Makefile switches it off (next test)
    if importlib.util.find_spec("nbgrader") is None:
        pytest.skip("nbgrader is not installed here: nothing to switch off")
    env = {k: v for k, v in os.environ.items() if k != "JUPYTER_CONFIG_PATH"}
    env["JUPYTER_CONFIG_DIR"] = str(tmp_path / "user-config")  # not ~/.jupyter
    listed = [subprocess.run([sys.executable, "-m", "jupyter", *args, "list"], capture_output=True,
                             text=True, env=env, timeout=300)
              for args in (["labextension"], ["server", "extension"])]
    state = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(d.stdout + d.stderr for d in listed))
    assert re.search(r"@jupyter/nbgrader v\S+ disabled", state), state
    for name in ("formgrader", "assignment_list", "course_list"):
        extension = rf"nbgrader\.server_extensions\.{name}"
        assert re.search(f"{extension} disabled", state) and not re.search(f"{extension} enabled", state)


def test_student_lab_keeps_other_settings_and_is_idempotent(tmp_path):
    page_config = tmp_path / "etc" / "jupyter" / "labconfig" / "page_config.json"
    page_config.parent.mkdir(parents=True)
    page_config.write_text(json.dumps({"disabledExtensions": ["other"], "lockedExtensions": {"x": True}}))
    first, second = ([p.read_text() for p in student_lab.apply(tmp_path)] for _ in range(2))
    assert first == second
    page, server = json.loads(first[0]), json.loads(first[1])["ServerApp"]["jpserver_extensions"]
    assert page["lockedExtensions"] == {"x": True} and page["disabledExtensions"]["other"] is True
    assert page["disabledExtensions"]["@jupyter/nbgrader"] is True
    assert server["nbgrader.server_extensions.formgrader"] is False


def test_make_classroom_runs_the_launcher_in_its_own_environment_and_make_lab_has_no_grading():
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert "STUDENT_LAB = $(BIN)/python classroom/student_lab.py" in makefile
    for marker in ("lab:", "$(VENV)/.grading:", "$(VENV)/.all:"):
        assert "$(STUDENT_LAB)" in makefile.split("\n" + marker, 1)[1].split("\n\n", 1)[0], marker
    target = makefile.split("\nclassroom:", 1)[1].split("\n\n", 1)[0]
    assert "classroom/hub.py" in target and "$(HUB_BIN)/python" in target
    assert ".[lab,hub]" in makefile.split("\n$(HUB_VENV)/.hub:", 1)[1].split("\n\n", 1)[0]
    ignored = (REPO / ".gitignore").read_text(encoding="utf-8").split()
    assert "classroom/node_modules/" in ignored and ".venv-hub/" in ignored


# --- The end-to-end test ----------------------------------------------------------------------

def _stop(classroom, sig: int, group: bool) -> list[int]:
    """Send ``sig`` to the launcher (or its group): it exits 0 having said so, nothing it started
    runs (the proxy, whose port is the hub's, neither) and no user it made is left."""
    import psutil

    proc, info, out, copier = classroom
    started = [info["hub_pid"]] + [p.pid for p in hub.descendants(info["hub_pid"])]
    (os.killpg if group else os.kill)(proc.pid, sig)
    assert proc.wait(timeout=STOP_S) == 0
    copier.join(timeout=STOP_S)            # the output copied to its end
    assert "classroom stopped" in out.read_text()

    def running(pid):
        with contextlib.suppress(psutil.NoSuchProcess):
            return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    assert [pid for pid in started if running(pid)] == [], "processes left running"
    for name in info["system_users"].values():
        with pytest.raises(KeyError):
            pwd.getpwnam(name)
    return started


@contextlib.contextmanager
def running_classroom(tmp_path: Path):
    """The launcher as ``make classroom`` runs it; yields (process, info, its output's path, the
    thread copying that output) once it has printed its last line (it has written
    ``classroom.json`` by then): the thread signals that line, or the end of the output."""
    out = tmp_path / "launcher.out"
    # the users' homes are in the state folder: somewhere they can enter (tmp_path is not)
    state = Path(tempfile.mkdtemp(prefix="rejlab-classroom-test-")) / "state"
    state.parent.chmod(0o755)
    proc = subprocess.Popen([_hub_python(), str(HUB), "--state", str(state), "--students", "alice,bob",
                             "--password", PASSWORD], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    ready = threading.Event()

    def copy():
        with open(out, "wb") as sink:
            for line in proc.stdout:
                sink.write(line)
                sink.flush()
                if line.startswith(b"Ctrl-C stops"):
                    ready.set()
        ready.set()                        # the launcher has ended

    copier = threading.Thread(target=copy, daemon=True)
    copier.start()
    try:
        if not ready.wait(READY_S) or proc.poll() is not None:
            pytest.fail(f"make classroom not ready in {READY_S} s (exit {proc.poll()}):\n{out.read_text()}")
        yield proc, json.loads((state / "classroom.json").read_text()), out, copier
    finally:
        if proc.poll() is None:            # the test failed before its own Ctrl-C
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=STOP_S)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        shutil.rmtree(state.parent, ignore_errors=True)


def _open_lab(page, url: str, user: str, lands: str = "") -> None:
    """``user`` logs in from ``url`` into JupyterLab (``/user/<user>/lab<lands>``), restored."""
    page.goto(url)
    page.locator("#username_input").fill(user)
    page.locator("#password_input").fill(PASSWORD)
    page.locator("#login_submit").click()
    page.wait_for_url(re.compile(rf"/user/{user}/lab{lands}"))
    page.wait_for_function("() => !!(window.jupyterapp && window.jupyterapp.shell)", polling=250)
    assert page.evaluate("async () => { await window.jupyterapp.restored; return true; }")


HAS_COMMANDS_JS = "names => names.map(name => window.jupyterapp.commands.hasCommand(name))"
NBGRADER_COMMANDS = ["nbgrader:open-formgrader", "nbgrader:open-create-assignment",
                     "nbgrader:open-assignment-list"]


def _formgrader_click(page, row_text: str, column: str) -> str:
    """Click a Formgrader row's button; wait for its result dialog; return its text."""
    row = page.locator("tr", has=page.locator("td", has_text=re.compile(rf"^\s*{row_text}\s*$")))
    row.locator(f"td.{column} a").click()
    dialog = page.locator("#success-modal, #error-modal")
    dialog.wait_for(state="visible")
    text = dialog.inner_text()
    assert dialog.get_attribute("id") == "success-modal", f"{column}: {text}"
    dialog.locator(".modal-footer button").click()
    dialog.wait_for(state="detached")
    return text


def _solved(released: dict, source: Path) -> dict:
    """The released notebook with the teacher's solution in each answer cell."""
    def answers(cells):
        return {c.metadata["nbgrader"]["grade_id"]: c for c in cells
                if c.metadata.get("nbgrader", {}).get("solution")}
    solutions = answers(nbformat.read(source, as_version=4).cells)
    nb = nbformat.reads(json.dumps(released), as_version=4)
    cells = answers(nb.cells)
    assert solutions and set(cells) == set(solutions), "every answer cell of the fetched copy"
    for gid, cell in cells.items():
        cell.source = re.sub(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*\n", "",
                             solutions[gid].source, flags=re.M)
    return json.loads(nbformat.writes(nb))


def _her_data_graded(course: Path, student: str, other: str) -> dict:
    """``student``'s verdict, from the grader's cache in the course folder: her notebook ran in
    sandboxes and was judged against her own data, not ``other``'s (so her full marks are hers)."""
    if str(REPO / "teacher") not in sys.path:   # the course's grader, which the course folder copies
        sys.path.insert(0, str(REPO / "teacher"))
    judge, submission = (importlib.import_module(f"grader.{name}") for name in (HW1, "submission"))
    context = importlib.import_module("grader.judge").Context
    grading = course / ".grading"
    outcomes = [json.loads(p.read_text()) for p in (grading / "outcomes").glob("*.json")]
    assert len(outcomes) == len(judge.runs(context(HW1, student, 0, b"", judge.DATA))), \
        "one sandbox per run the judge plans (the notebook, and its NumPy-only question)"
    assert all(o["cpu_seconds"] and o["reason"] is None for o in outcomes), outcomes
    verdict = json.loads((grading / "verdicts" / HW1 / f"{student}.json").read_text())
    seed = submission.cohort_seed(json.loads(submission.source_notebook(course, HW1).read_text()))
    own, others = (_flat_numbers(judge.reference(context(HW1, who, seed, b"", judge.DATA)))
                   for who in (student, other))
    assert verdict["student"] == student and _flat_numbers(verdict["reference"]) == pytest.approx(own)
    assert own != pytest.approx(others), "two students, two variants"
    return verdict


FORGED = "2000-01-01 00:00:00.000000 UTC"     # what alice writes into her submission's timestamp.txt

# tried by a process of a student's system user: each (what, path[, text]) allowed or denied
TRY = """
import json, os, pathlib, sys
do = {"list": os.listdir, "read": pathlib.Path.read_bytes, "write": pathlib.Path.write_text}
said = []
for what, path, *text in json.loads(sys.argv[1]):
    try:
        do[what](pathlib.Path(path), *text)
        said.append("allowed")
    except PermissionError:
        said.append("denied")
print(json.dumps(said))
"""


def _try_as(user, attempts: list[tuple]) -> list[str]:
    """Each attempt by a process of ``user`` (a pwd entry) in the system's Python, which all may run."""
    done = subprocess.run(
        ["/usr/bin/python3", "-I", "-c", TRY, json.dumps([[a[0], str(a[1]), *a[2:]] for a in attempts])],
        user=user.pw_uid, group=user.pw_gid, extra_groups=[], cwd="/", capture_output=True,
        text=True, env={"PATH": "/usr/bin:/bin", "HOME": user.pw_dir}, timeout=120,
        stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _servers_and_kernels(hub_pid: int) -> dict[int, dict]:
    """The users' servers and kernels, {uid each runs as: {"server" or "kernel": a process}}."""
    import psutil

    running: dict[int, dict] = {}
    for process in hub.descendants(hub_pid):
        with contextlib.suppress(psutil.Error):
            command = " ".join(process.cmdline())
            kind = ("server" if "jupyterhub-singleuser" in command
                    else "kernel" if "ipykernel_launcher" in command else None)
            if kind:
                running.setdefault(process.uids().real, {})[kind] = process
    return running


def _flat_numbers(answers: dict) -> dict:
    """name -> number, an interval's ends as name[0], name[1] (pytest.approx compares no nesting)."""
    return {key: number for name, value in answers.items() for key, number in (
        [(f"{name}[{i}]", float(end)) for i, end in enumerate(value)]
        if isinstance(value, (list, tuple)) else [(name, value)])}


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.deploy
def test_a_class_on_the_hub_end_to_end(tmp_path, local_only):
    if sys.version_info < (3, 11) or importlib.util.find_spec("jupyterhub") is None:
        pytest.skip("the hub's environment (the hub extra, Python >= 3.11) is not installed")
    _hub_python()
    from jupyterhub.traitlets import ByteSpecification  # the spawner's reading of 640M, 2G
    from nbgrader.api import Gradebook
    from nbgrader.utils import parse_utc
    from playwright.sync_api import Error as PlaywrightError, expect, sync_playwright

    hub_bytes = functools.partial(ByteSpecification().validate, None)

    source = REPO / "teacher" / "source" / HW1 / f"{HW1}.ipynb"
    with running_classroom(tmp_path) as classroom:
        _, info, out, _ = classroom
        base = info["url"].rstrip("/")
        printed, memory = out.read_text(), info["memory"]
        # what the teacher is told, and the grader's sandbox (bwrap) on the PATH every server gets
        assert all(said in printed for said in (
            base, PASSWORD, info["link"], "instructor", "alice, bob", memory["student"]["limit"],
            "does not enforce", memory["instructor"]["limit"], f"bubblewrap sandbox ({info['bwrap']}"
        )), printed
        assert info["bwrap"] and str(Path(info["bwrap"]).parent) in info["server_path"].split(os.pathsep)
        system = {user: pwd.getpwnam(name) for user, name in info["system_users"].items()}
        uids = {user: entry.pw_uid for user, entry in system.items()}
        assert set(uids) == {"instructor", "alice", "bob"} and len(set(uids.values()) - {0}) == 3, \
            "a system user of its own for each account, none root"
        homes = Path(info["state"]) / "home"
        for user in uids:                # lets the test reach window.jupyterapp
            config = homes / user / ".jupyter" / "jupyter_server_config.json"
            config.write_text(json.dumps({"LabApp": {"expose_app_in_browser": True}}))
            os.chown(config, uids[user], system[user].pw_gid)
        step = "starting chromium"
        with sync_playwright() as p:
            browser = browser_helpers._launch_chromium(p)
            pages, contexts, blocked = {}, {}, []
            try:
                for user in ("instructor", "alice", "bob"):
                    contexts[user] = browser.new_context(viewport={"width": 1280, "height": 900})
                    contexts[user].set_default_timeout(PAGE_MS)   # each wait but expect()'s
                    blocked += [local_only(contexts[user], base)]
                    pages[user] = contexts[user].new_page()
                teacher, alice, bob = pages["instructor"], pages["alice"], pages["bob"]

                step = "the instructor logs in and has every nbgrader tool"
                _open_lab(teacher, f"{base}/hub/login", "instructor")
                assert teacher.evaluate(HAS_COMMANDS_JS, NBGRADER_COMMANDS) == [True] * 3

                step = "the instructor generates and releases homework 1"
                grader = pages["formgrader"] = contexts["instructor"].new_page()  # a second tab
                grader.goto(f"{base}/user/instructor/formgrader/manage_assignments")
                grader.locator("td", has_text=HW1).first.wait_for()
                _formgrader_click(grader, HW1, "assign")
                assert "Successfully released" in _formgrader_click(grader, HW1, "release")

                step = "alice follows the course link into lesson 00: no grading tools"
                _open_lab(alice, info["link"], "alice", "/tree/rejlab/notebooks/00_")
                alice.wait_for_function(browser_helpers.KERNEL_IDLE_JS, polling=250)
                alice.locator(".jp-Notebook .jp-RenderedMarkdown h1").first.wait_for()
                pulled = homes / "alice" / "rejlab"
                assert (pulled / course_repository.LANDING).is_file() and (pulled / ".git").is_dir()
                assert alice.evaluate(HAS_COMMANDS_JS, NBGRADER_COMMANDS) == [False, False, True]
                assert alice.request.get(f"{base}/user/alice/formgrader").status == 404
                alice.screenshot(path=str(tmp_path / "student-lab-after-pull.png"))

                step = "alice runs lesson 02: its explorer is drawn"
                alice.evaluate("path => window.jupyterapp.commands.execute('docmanager:open', "
                               "{path})", f"rejlab/notebooks/{LESSON}")
                alice.wait_for_function("name => { const w = window.jupyterapp.shell.currentWidget;"
                                        " return !!(w && w.context && w.context.path.endsWith(name)); }",
                                        arg=LESSON, polling=250)
                alice.wait_for_function(browser_helpers.KERNEL_IDLE_JS, polling=250)
                assert alice.evaluate(browser_helpers.RUN_ALL_JS, PAGE_MS) is True
                image = alice.locator(".jp-Cell:has(.rejlab-readout) img.widget-image").first
                expect(image).to_have_attribute("src", re.compile(r"\S"), timeout=PAGE_MS)
                alice.wait_for_function(browser_helpers.IMAGE_JS, arg=image.element_handle())

                step = "alice's server reports the students' memory limit, the instructor's his"
                for page, user, role in ((alice, "alice", "student"), (teacher, "instructor", "instructor")):
                    metrics = page.request.get(f"{base}/user/{user}/api/metrics/v1").json()
                    assert metrics["limits"]["memory"]["rss"] == hub_bytes(memory[role]["limit"]), user
                    assert metrics["rss"] > 0, user
                shown = re.compile(rf"Mem:\s+[\d.]+ / {hub_bytes(memory['student']['limit']) / 2**20:.2f} MB")
                expect(alice.locator("#jp-main-statusbar")).to_contain_text(shown, timeout=PAGE_MS)

                step = "bob's kernel runs beside alice's, each as its user's system user"
                _open_lab(bob, f"{base}/hub/login", "bob")
                bob_kernel = bob.evaluate("async () => (await window.jupyterapp.serviceManager"
                                          ".kernels.startNew({name: 'python3'})).id")
                assert [k["id"] for k in bob.request.get(f"{base}/user/bob/api/kernels").json()
                        ] == [bob_kernel]
                running = _servers_and_kernels(info["hub_pid"])
                assert 0 not in running, f"something of the users' runs as root: {running}"
                for user in uids:
                    want = {"server"} if user == "instructor" else {"server", "kernel"}
                    assert want <= set(running.get(uids[user], {})), f"{user}: {running}"
                assert running[uids["instructor"]]["server"].environ()["PATH"] == info["server_path"]
                # her homework's data is drawn for the user her kernel names (rejlab.course.homework)
                assert running[uids["alice"]]["kernel"].environ()["JUPYTERHUB_USER"] == "alice"

                step = "alice fetches homework 1, writes her answers and submits"
                alice.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").click()
                alice.locator(".lm-Menu-itemLabel", has_text="Assignment List").click()
                alice.locator("#released_assignments_list").get_by_role("button", name="Fetch").click()
                fetched = alice.locator("#fetched_assignments_list")
                fetched.get_by_role("button", name="Submit").wait_for()
                path = f"{HW1}/{HW1}.ipynb"       # saved by the lab's contents client, as alice
                got = alice.request.get(f"{base}/user/alice/api/contents/{path}").json()
                saved = alice.evaluate("""async ([path, content]) => {
                    const model = await window.jupyterapp.serviceManager.contents.save(
                        path, {type: 'notebook', format: 'json', content});
                    return {path: model.path, type: model.type}; }""",
                                       [path, _solved(got["content"], source)])
                assert saved == {"path": path, "type": "notebook"}
                fetched.get_by_role("button", name="Submit").click()
                submitted = alice.locator("#submitted_assignments_list")
                expect(submitted).to_contain_text(HW1, timeout=PAGE_MS)

                step = "what the students can reach, tried as their system users"
                course = Path(info["course_folder"])
                inbound = Path(info["exchange"]) / info["course_id"] / "inbound"
                (submission,) = inbound.glob(f"alice+{HW1}+*")
                stated = parse_utc((submission / "timestamp.txt").read_text())
                private = [("list", course), ("read", course / "gradebook.db"),
                           ("list", homes / "instructor")]
                assert _try_as(system["alice"], private + [
                    ("write", submission / "timestamp.txt", FORGED)]) == [
                    "denied", "denied", "denied", "allowed"], "alice back-dates her own"
                assert _try_as(system["bob"], private + [
                    ("list", inbound), ("list", submission),
                    ("read", submission / HW1 / f"{HW1}.ipynb")]) == ["denied"] * 6

                step = "the instructor collects and autogrades"
                grader.reload()
                grader.locator("td", has_text=HW1).first.wait_for()
                said = _formgrader_click(grader, HW1, "collect")
                assert f"states {FORGED[:19]} UTC but was last changed at" in said, said
                # nbgrader's owner check would call it a "cheating attempt?" (its owner is
                # rejlabXXXX-alice, not alice); the hub's collect checks against her system user
                assert "cheating attempt" not in said and "was made by" not in said, said
                collected = course / "submitted" / "alice" / HW1 / "timestamp.txt"
                recorded = parse_utc(collected.read_text())
                assert recorded >= stated > parse_utc(FORGED), "the back-dating did not hold"
                grader.goto(f"{base}/user/instructor/formgrader/manage_submissions/{HW1}")
                grader.locator("td", has_text="alice").first.wait_for()
                _formgrader_click(grader, "alice", "autograde")
                points = float(sum(c.metadata["nbgrader"]["points"]
                                   for c in nbformat.read(source, as_version=4).cells
                                   if c.metadata.get("nbgrader", {}).get("grade")
                                   and not c.metadata["nbgrader"].get("solution")))
                score = grader.locator("tr", has=grader.locator("td", has_text="alice"))
                expect(score).to_contain_text(f"{points:g} / {points:g}", timeout=PAGE_MS)
                with Gradebook(f"sqlite:///{course / 'gradebook.db'}", info["course_id"]) as gb:
                    assert gb.find_submission(HW1, "alice").timestamp == recorded
                grader.screenshot(path=str(tmp_path / "instructor-grades.png"))

                step = "the grader judged alice's answers, run in sandboxes, on her data"
                verdict = _her_data_graded(course, "alice", "bob")

                step = "the instructor returns alice's feedback and she fetches it"
                _formgrader_click(grader, "alice", "generate-feedback")
                _formgrader_click(grader, "alice", "release-feedback")
                alice.bring_to_front()
                with alice.expect_response(lambda r: "assignments/fetch_feedback" in r.url):
                    submitted.get_by_role("button", name="Fetch Feedback").click()
                contents = f"{base}/user/alice/api/contents"
                (folder,) = alice.request.get(f"{contents}/{HW1}/feedback").json()["content"]
                feedback = alice.request.get(
                    f"{contents}/{quote(folder['path'])}/{HW1}.html").json()["content"]
                text = html.unescape(re.sub(r"<[^>]*>", "", feedback))     # what a reader sees
                assert "homework 1 for alice" in text, "her notebook ran with her id"
                assert f"{points} / {points}" in text, "her score"
                assert verdict["marks"]["hw1-q2-tests"]["message"] in text, "the judge's word"
                paths = [str(course), str(homes / "instructor"), info["state"], str(REPO)]
                assert [p for p in paths if p in feedback] == [], "a course path in the feedback"

                step = "the instructor exports the grades in a terminal"
                teacher.bring_to_front()          # the lab's tab, open since the login
                teacher.evaluate("() => window.jupyterapp.commands.execute('terminal:create-new')")
                terminal = teacher.locator(".jp-Terminal .xterm-helper-textarea")
                terminal.wait_for(state="attached")
                terminal.focus()
                teacher.keyboard.type("cd ~/course && nbgrader export --to grades.csv\n")
                for _ in range(PAGE_MS // 500):     # until the file holds the last student's row
                    grades = teacher.request.get(f"{base}/user/instructor/api/contents/course/grades.csv")
                    if grades.status == 200 and ",bob," in grades.json()["content"]:
                        break
                    teacher.wait_for_timeout(500)
                else:
                    raise AssertionError(f"no grades.csv with bob's row within {PAGE_MS} ms")
                rows = {(r["assignment"], r["student_id"]): r
                        for r in csv.DictReader(io.StringIO(grades.json()["content"]))}
                assert [float(rows[(HW1, "alice")][k]) for k in ("score", "max_score")] == [points] * 2
                assert float(rows[(HW1, "bob")]["score"]) == 0.0
                assert not [u for b in blocked for u in b], \
                    f"the hub's pages asked for other hosts (aborted): {blocked}"
            except (PlaywrightError, AssertionError) as exc:
                for user, page in pages.items():
                    with contextlib.suppress(Exception):
                        page.screenshot(path=str(tmp_path / f"failure-{user}.png"))
                log = Path(info["log"])
                pytest.fail(f"browser failed or timed out while {step}: {exc}\n--- hub log ---\n"
                            + (log.read_text(errors="replace")[-4000:] if log.exists() else ""))
            finally:
                browser.close()

        # Ctrl-C: SIGINT to the launcher's group, as a terminal sends it
        assert len(_stop(classroom, signal.SIGINT, group=True)) >= 6, "hub, proxy, 3 servers, kernels"


@pytest.mark.slow
def test_sigterm_stops_the_classroom_and_removes_its_users(tmp_path):
    # as a service manager stops it: SIGTERM to the launcher alone, not to its group
    with running_classroom(tmp_path) as classroom:
        _stop(classroom, signal.SIGTERM, group=False)

