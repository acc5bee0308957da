"""The classroom hub (``make classroom``, ``classroom/hub.py``), tried as a class would use it.

The end-to-end test starts the real launcher on 127.0.0.1 (JupyterHub, configurable-http-proxy
from npm, the dummy authenticator, each user's server a process of that user's own system user)
and drives it in headless Chromium, every request that leaves the hub's address aborted: the
instructor generates and releases homework 1 in the Formgrader; alice follows the printed
nbgitpuller link into lesson 00, runs lesson 02 and moves its slider; the memory limits are
reported (a local spawner does not enforce them: the test checks they are set); bob's kernel runs
beside hers, every server and kernel as its user's own system user; alice fetches homework 1,
her answers are written **through the contents API, as alice** (the teacher's solutions, as a
student who got everything right would type them: typing them in the browser would test
JupyterLab's editor, not the classroom) and she submits. Then, tried as the students' system
users: neither reads the course folder or gradebook, bob reaches nothing of alice's, and alice
back-dates her own ``timestamp.txt``, which she can. The instructor collects (the time recorded
is not the back-dated one, and no "cheating attempt?" note: every student is a system user of
their own) and autogrades in bubblewrap sandboxes, her answers judged against her own data;
her feedback shows her marks and no line of the grader's code or path of the course; ``nbgrader
export`` typed in a terminal gives her full marks and bob 0. Ctrl-C (SIGINT to the launcher's
group, as a terminal sends it) stops everything and removes the system users it made.

The test took 715 to 731 s on this project's 2-core machine with a load average of 15 to 17
(3 December 2026; this whole file, 943 s); it prints the time each step ended. It needs root
(the launcher makes system users). Screenshots go to ``tmp_path``, and also to
``$REJLAB_CLASSROOM_SHOTS`` when that is set; the classroom's state goes to a folder under the
system's temporary folder that every user can enter (``tmp_path`` is closed to them). The
bad-input tests need no network: npm is pointed at a closed port on 127.0.0.1 or at a local
server that answers 404.
"""
from __future__ import annotations

import contextlib
import csv
import functools
import html.parser
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
import time
from pathlib import Path
from urllib.parse import quote

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[1]
HUB = REPO / "classroom" / "hub.py"
# make classroom's environment (.venv-hub, or the one make test names when .venv serves): its
# Python is one every user can run, as the students' servers must (the test's own may live in
# root's closed home)
HUB_PYTHON = REPO / os.environ.get("REJLAB_HUB_VENV", ".venv-hub") / "bin" / "python"
HW1 = "hw1_rejection_measures"
LESSON = "02_four_subsets_and_measures.ipynb"
PASSWORD = "classroom-test-pw"
READY_S = 600            # npm ci the first time, then the hub: usually ~5 s
STOP_S = 90
PAGE_MS = 90_000


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hub = _load("classroom_hub", HUB)
course_repository = _load("course_repository", REPO / "classroom" / "course_repository.py")


def _run_launcher(tmp_path: Path, *args: str, env: dict | None = None, timeout: int = 300,
                  python: str = sys.executable):
    return subprocess.run([python, str(HUB), "--state", str(tmp_path / "state"), *args],
                          capture_output=True, text=True, env=env, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def _hub_python() -> str:
    if not HUB_PYTHON.exists():
        pytest.fail(f"{HUB_PYTHON} is missing: make .venv-hub/.hub (make test makes it)")
    return str(HUB_PYTHON)


def _one_line_exit_2(done) -> str:
    assert done.returncode == 2, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("classroom: ") and "Traceback" not in done.stderr
    return lines[0]


# --------------------------------------------------------------------------
# Bad input: one line, exit 2, nothing started

def test_a_port_taken_is_refused_with_one_line(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        line = _one_line_exit_2(_run_launcher(tmp_path, "--port", str(port)))
    assert f"port {port}" in line and "taken" in line and "PORT=0" in line
    assert not (tmp_path / "state").exists(), "nothing may be set up before the ports are known"


def test_a_bad_option_is_refused_with_one_line(tmp_path):
    line = _one_line_exit_2(_run_launcher(tmp_path, "--port", "eighty"))
    assert "--port" in line and "eighty" in line
    line = _one_line_exit_2(_run_launcher(tmp_path, "--students", "alice,instructor"))
    assert "--students" in line


NOBODY = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


def _as_nobody(tmp_path: Path, command: list[str], repo: Path = REPO) -> list[str]:
    """``command`` as a user of no privilege (nobody), in a namespace where the folders closed
    to other users above ``repo`` (as CI's clone has them) are opened as the launcher opens
    them for the hub."""
    opened = [folder for folder in hub.all_closed(repo) if folder in repo.parents]
    stand_ins = tmp_path / "stand-ins"
    stand_ins.mkdir(mode=0o700)
    return hub.in_own_namespace([*NOBODY, *command], hub.opening_commands(opened, stand_ins, repo))


def test_without_root_the_launcher_says_what_it_needs(tmp_path):
    # nobody can run the environment's Python, not make users
    command = [_hub_python(), str(HUB), "--state", str(tmp_path / "state")]
    done = subprocess.run(_as_nobody(tmp_path, command), capture_output=True, text=True,
                          cwd="/", timeout=300, stdin=subprocess.DEVNULL)
    line = _one_line_exit_2(done)
    assert "root" in line and "system user" in line and "sudo make classroom" in line


def test_a_state_folder_other_users_cannot_enter_is_refused(tmp_path):
    closed = tmp_path / "closed"
    closed.mkdir(mode=0o700)
    line = _one_line_exit_2(_run_launcher(tmp_path, "--state", str(closed / "state"),
                                          python=_hub_python()))
    assert str(closed) in line and "closed to other users" in line and "--state" in line
    assert not (closed / "state").exists()


def test_a_python_other_users_cannot_run_is_refused(tmp_path):
    pytest.importorskip("jupyterhub")           # the launcher looks for the hub first
    python = Path(sys.executable).resolve()     # the test's own
    if not hub.all_closed(python) and not hub.all_closed(Path(sys.base_prefix).resolve()):
        pytest.skip(f"this test's Python ({python}) is one every user can run")
    line = _one_line_exit_2(_run_launcher(tmp_path))
    assert str(python) in line and "other users cannot enter" in line
    assert "HUB_PYTHON=/usr/bin/python3" in line


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


def _node_dir(tmp_path: Path) -> Path:
    node_dir = tmp_path / "node"
    node_dir.mkdir()
    for name in ("package.json", "package-lock.json"):
        shutil.copy2(REPO / "classroom" / name, node_dir)
    return node_dir


@pytest.mark.parametrize("registry, says", [
    ("closed", ["npm registry", "unreachable", "npm config set registry"]),
    ("empty", ["configurable-http-proxy could not be installed", "404"]),
])
def test_an_npm_registry_without_the_proxy_is_named(tmp_path, registry, says):
    if shutil.which("npm") is None:
        pytest.fail("npm is not installed (apt-get install npm; .ci/run installs it)")
    (tmp_path / "empty").mkdir()
    # a port nothing listens on, or a registry that has nothing (404 for every package)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(
        _Quiet, directory=str(tmp_path / "empty")))
    if registry == "closed":
        server.server_close()
    else:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    address = f"127.0.0.1:{server.server_address[1]}"
    env = dict(os.environ, npm_config_registry=f"http://{address}/", npm_config_fetch_retries="0",
               npm_config_cache=str(tmp_path / "npm-cache"),       # nothing cached
               npm_config_userconfig=str(tmp_path / "npmrc"))
    node_dir = _node_dir(tmp_path)
    try:
        line = _one_line_exit_2(_run_launcher(tmp_path, "--node-dir", str(node_dir), env=env))
    finally:
        if registry != "closed":
            server.shutdown()
            server.server_close()
    assert all(word in line for word in says) and (registry != "closed" or address in line), line
    assert not (node_dir / "node_modules").exists(), "no half-installed proxy may be left"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def test_no_npm_is_named(tmp_path):
    bin_dir = tmp_path / "bin"            # git, but no node and no npm
    bin_dir.mkdir()
    (bin_dir / "git").symlink_to(shutil.which("git"))
    env = dict(os.environ, PATH=str(bin_dir))
    done = _run_launcher(tmp_path, "--node-dir", str(_node_dir(tmp_path)), env=env)
    line = _one_line_exit_2(done)
    assert "Node.js and npm" in line and "apt-get install npm" in line


# --------------------------------------------------------------------------
# What each role gets, the course source, the student's own lab

def test_students_get_the_assignments_list_and_only_the_instructor_the_formgrader(tmp_path):
    for role in ("student", "instructor"):
        hub.role_config(tmp_path / role, instructor=role == "instructor")
    page = {r: json.loads((tmp_path / r / "labconfig" / "page_config.json").read_text())
            ["disabledExtensions"] for r in ("student", "instructor")}
    server = {r: json.loads((tmp_path / r / "jupyter_server_config.json").read_text())
              ["ServerApp"]["jpserver_extensions"] for r in ("student", "instructor")}
    assert page["student"]["@jupyter/nbgrader"] is False
    assert page["student"]["@jupyter/nbgrader:formgrader"] is True
    assert page["student"]["@jupyter/nbgrader:create-assignment"] is True
    assert not any(page["instructor"].values()), "the instructor has every nbgrader part"
    assert server["student"]["nbgrader.server_extensions.assignment_list"] is True
    assert server["student"]["nbgrader.server_extensions.formgrader"] is False
    assert all(server["instructor"].values())
    assert server["student"]["nbgitpuller"] and server["student"]["jupyter_resource_usage"]


def test_every_server_is_given_a_path_with_the_graders_sandbox(tmp_path, monkeypatch):
    tools = tmp_path / "tools"           # bwrap and git somewhere the system's PATH is not
    tools.mkdir()
    for name in ("bwrap", "git"):
        (tools / name).write_text("#!/bin/sh\n")
        (tools / name).chmod(0o755)
    monkeypatch.setenv("PATH", str(tools))
    path, bwrap = hub.server_path()
    folders = path.split(os.pathsep)
    assert bwrap == str(tools / "bwrap")
    assert folders == [str(Path(sys.executable).parent), str(tools), *hub.SYSTEM_PATH]
    # a launcher started with a PATH without them (a service's) still finds the system's
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    path, bwrap = hub.server_path()
    assert bwrap == shutil.which("bwrap", path=os.pathsep.join(hub.SYSTEM_PATH))
    config = (REPO / "classroom" / "jupyterhub_config.py").read_text(encoding="utf-8")
    assert '"PATH": settings["path"]' in config, "the spawner gives every server that PATH"


def _project(tmp_path: Path, builder: str | None) -> Path:
    """A project folder: two tracked files, and a student-edition builder if given."""
    repo = tmp_path / "project"
    (repo / "notebooks").mkdir(parents=True)
    (repo / course_repository.LANDING).write_text("{}")
    (repo / "answers.md").write_text("key material\n")
    if builder is not None:
        (repo / "tools").mkdir()
        (repo / "tools" / "student_edition.py").write_text(builder)
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    return repo


def _tracked(git_repo: Path) -> list[str]:
    return sorted(subprocess.run(["git", "ls-files"], cwd=git_repo, capture_output=True,
                                 text=True, check=True).stdout.split())


# a builder like tools/student_edition.py: DEST as its argument, the lessons without the keys
BUILDER = """import pathlib, sys
dest = pathlib.Path(sys.argv[1])
(dest / "notebooks").mkdir(parents=True, exist_ok=True)
(dest / "notebooks" / "00_start_here.ipynb").write_text("{}")
readme = pathlib.Path("README.md")
(dest / "README.md").write_text(readme.read_text() if readme.exists() else "for students")
"""


def test_without_a_student_edition_the_link_clones_the_repositorys_files_into_lesson_00(tmp_path):
    repo = _project(tmp_path, builder=None)
    git_repo, description = course_repository.publish_course(None, tmp_path / "state", repo)
    assert _tracked(git_repo) == ["answers.md", course_repository.LANDING]
    assert "the repository's own files" in description
    assert course_repository.student_edition_tool(repo) is None
    link = course_repository.pull_link("http://127.0.0.1:9", git_repo)
    assert link.startswith("http://127.0.0.1:9/hub/user-redirect/git-pull?repo=file%3A%2F%2F")
    assert "branch=main" in link
    assert "urlpath=lab%2Ftree%2Frejlab%2Fnotebooks%2F00_start_here.ipynb" in link
    with pytest.raises(course_repository.CourseError, match="has no notebooks/00_start_here.ipynb"):
        course_repository.course_files(tmp_path / "empty", tmp_path / "state")


def test_the_link_pulls_the_student_edition_where_the_project_has_one(tmp_path):
    repo = _project(tmp_path, builder=BUILDER)
    state = tmp_path / "state"
    git_repo, description = course_repository.publish_course(None, state, repo)
    assert _tracked(git_repo) == ["README.md", course_repository.LANDING], "the edition, not the repository"
    assert "student edition" in description and (state / "student-edition").is_dir()
    (repo / "README.md").write_text("updated\n")     # the next start commits the change
    course_repository.publish_course(None, state, repo)
    assert (git_repo / "README.md").read_text() == "updated\n"
    log = subprocess.run(["git", "log", "--format=%s"], cwd=git_repo, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert len(log) == 2
    # the real project: the switch follows whether its builder exists
    tool = REPO / "tools" / "student_edition.py"
    assert course_repository.student_edition_tool(REPO) == (tool if tool.exists() else None)


def test_a_student_edition_that_cannot_be_built_is_named(tmp_path):
    repo = _project(tmp_path, builder="import sys\nsys.exit('key material in notebooks/x')\n")
    with pytest.raises(course_repository.CourseError, match=r"student edition could not be built .*"
                                              r"key material in notebooks/x"):
        course_repository.publish_course(None, tmp_path / "state", repo)


def _extension_state(env: dict) -> str:
    outputs = []
    for args in (["labextension", "list"], ["server", "extension", "list"]):
        done = subprocess.run([sys.executable, "-m", "jupyter", *args], capture_output=True,
                              text=True, env=env, timeout=300)
        outputs.append(re.sub(r"\x1b\[[0-9;]*m", "", done.stdout + done.stderr))
    return "\n".join(outputs)


@pytest.mark.slow
def test_the_lab_make_lab_opens_has_no_grading_tools(tmp_path):
    # make test installs nbgrader into the environment make lab opens; the Makefile
    # switches its lab and server extensions off there (classroom/student_lab.py)
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert "STUDENT_LAB = $(BIN)/python classroom/student_lab.py" in makefile
    for marker in ("lab:", "$(VENV)/.grading:", "$(VENV)/.all:"):
        recipe = makefile.split("\n" + marker, 1)[1].split("\n\n", 1)[0]
        assert "$(STUDENT_LAB)" in recipe, marker
    if importlib.util.find_spec("nbgrader") is None:
        pytest.skip("nbgrader is not installed here: nothing to switch off")
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp_path / "user-config"))  # not ~/.jupyter
    env.pop("JUPYTER_CONFIG_PATH", None)
    state = _extension_state(env)
    assert re.search(r"@jupyter/nbgrader v\S+ disabled", state), state
    for name in ("formgrader", "assignment_list", "course_list"):
        assert re.search(rf"nbgrader\.server_extensions\.{name} disabled", state), state
        assert not re.search(rf"nbgrader\.server_extensions\.{name} enabled", state), state


def test_student_lab_keeps_other_settings_and_is_idempotent(tmp_path):
    student_lab = _load("student_lab", REPO / "classroom" / "student_lab.py")
    etc = tmp_path / "etc" / "jupyter"
    (etc / "labconfig").mkdir(parents=True)
    (etc / "labconfig" / "page_config.json").write_text(
        json.dumps({"disabledExtensions": ["other"], "lockedExtensions": {"x": True}}))
    first = [p.read_text() for p in student_lab.apply(tmp_path)]
    second = [p.read_text() for p in student_lab.apply(tmp_path)]
    assert first == second
    page = json.loads(first[0])
    assert page["lockedExtensions"] == {"x": True}
    assert page["disabledExtensions"]["other"] is True
    assert page["disabledExtensions"]["@jupyter/nbgrader"] is True
    server = json.loads(first[1])["ServerApp"]["jpserver_extensions"]
    assert server["nbgrader.server_extensions.formgrader"] is False


def test_make_classroom_runs_the_launcher_in_its_own_environment():
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    target = makefile.split("\nclassroom:", 1)[1].split("\n\n", 1)[0]
    assert "classroom/hub.py" in target and "$(HUB_BIN)/python" in target
    assert ".[lab,hub]" in makefile.split("\n$(HUB_VENV)/.hub:", 1)[1].split("\n\n", 1)[0]
    ignored = (REPO / ".gitignore").read_text(encoding="utf-8").split()
    assert "classroom/node_modules/" in ignored and ".venv-hub/" in ignored


# --------------------------------------------------------------------------
# The end-to-end test

def _screenshot(page, tmp_path: Path, name: str) -> Path:
    page.screenshot(path=str(tmp_path / name))
    if os.environ.get("REJLAB_CLASSROOM_SHOTS"):
        extra = Path(os.environ["REJLAB_CLASSROOM_SHOTS"])
        extra.mkdir(parents=True, exist_ok=True)
        shutil.copy2(tmp_path / name, extra / name)
    return tmp_path / name


def _log_tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _alive(pids) -> list[int]:
    import psutil

    def running(pid):
        with contextlib.suppress(psutil.NoSuchProcess):
            return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    return [pid for pid in pids if running(pid)]


def _assert_stopped(proc, out, copier, info, started_pids) -> None:
    """The launcher exited 0 having said so; nothing it started runs, no user it made is left,
    and its port refuses connections."""
    assert proc.wait(timeout=STOP_S) == 0
    copier.join(timeout=STOP_S)            # the launcher's last lines are in the file
    assert "classroom stopped" in out.read_text()
    assert _alive(started_pids) == [], "processes left running"
    for name in info["system_users"].values():
        with pytest.raises(KeyError):
            pwd.getpwnam(name)
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", int(info["url"].rstrip("/").rsplit(":", 1)[1])),
                                 timeout=2)


@contextlib.contextmanager
def running_classroom(tmp_path: Path):
    """The launcher as ``make classroom`` runs it; yields (process, info, stdout path, copier).

    Ready when the launcher prints its last line (it has written
    ``classroom.json`` by then): a thread copies its output to a file and
    signals that line, or the end of the output.
    """
    out = tmp_path / "launcher.out"
    # the users' homes are in the state folder: somewhere they can enter (tmp_path is not)
    state = Path(tempfile.mkdtemp(prefix="rejlab-classroom-test-")) / "state"
    state.parent.chmod(0o755)
    proc = subprocess.Popen(
        [_hub_python(), str(HUB), "--state", str(state),
         "--students", "alice,bob", "--password", PASSWORD],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        start_new_session=True)
    ready = threading.Event()

    def copy():
        with open(out, "wb") as fh:
            for line in proc.stdout:
                fh.write(line)
                fh.flush()
                if line.startswith(b"Ctrl-C stops"):
                    ready.set()
        ready.set()                        # the launcher has ended

    copier = threading.Thread(target=copy, daemon=True)
    copier.start()
    try:
        if not ready.wait(READY_S):
            pytest.fail(f"the classroom was not ready within {READY_S} s:\n{out.read_text()}")
        info = state / "classroom.json"
        if proc.poll() is not None or not info.exists():
            pytest.fail(f"make classroom exited with {proc.wait()}:\n{out.read_text()}")
        yield proc, json.loads(info.read_text()), out, copier
    finally:
        if proc.poll() is None:            # the test failed before its own Ctrl-C
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=STOP_S)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        shutil.rmtree(state.parent, ignore_errors=True)


def _login(page, user: str) -> None:
    page.locator("#username_input").fill(user)
    page.locator("#password_input").fill(PASSWORD)
    page.locator("#login_submit").click()


LAB_READY_JS = "() => !!(window.jupyterapp && window.jupyterapp.shell)"


def _wait_lab(page) -> None:
    """Until JupyterLab has started and restored its layout (every plugin activated)."""
    page.wait_for_function(LAB_READY_JS, timeout=PAGE_MS, polling=250)
    assert page.evaluate("async () => { await window.jupyterapp.restored; return true; }")


# The text of the current terminal tab (JupyterLab's Terminal keeps its xterm.js in _term).
TERMINAL_TEXT_JS = """(() => {
  const w = window.jupyterapp.shell.currentWidget;
  const term = w && w.content && w.content._term;
  if (!term) return '';
  const b = term.buffer.active, lines = [];
  for (let i = 0; i < b.length; i++) lines.push(b.getLine(i).translateToString(true));
  return lines.join('\\n');
})()"""


def _save_notebook(page, path: str, content: dict) -> dict:
    """Save a notebook into the user's home through the lab's own contents client (as the user)."""
    return page.evaluate("""async ([path, content]) => {
        const model = await window.jupyterapp.serviceManager.contents.save(
            path, {type: 'notebook', format: 'json', content});
        return {path: model.path, type: model.type};
    }""", [path, content])


def _formgrader_click(page, row_text: str, column: str) -> str:
    """Click a Formgrader row's button; wait for its result dialog; return its text."""
    row = page.locator("tr", has=page.locator("td", has_text=re.compile(rf"^\s*{row_text}\s*$")))
    row.locator(f"td.{column} a").click()
    dialog = page.locator("#success-modal, #error-modal")
    dialog.wait_for(state="visible", timeout=PAGE_MS)
    text = dialog.inner_text()
    assert dialog.get_attribute("id") == "success-modal", f"{column}: {text}"
    dialog.locator(".modal-footer button").click()
    dialog.wait_for(state="detached", timeout=PAGE_MS)
    return text


def _solved(released: dict, source: Path) -> dict:
    """The released notebook with the teacher's solution in each answer cell."""
    solutions = {}
    for cell in nbformat.read(source, as_version=4).cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution"):
            solutions[meta["grade_id"]] = re.sub(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*\n", "",
                                                 cell.source, flags=re.M)
    nb = nbformat.reads(json.dumps(released), as_version=4)
    filled = 0
    for cell in nb.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        if cell.metadata.get("nbgrader", {}).get("solution") and gid in solutions:
            cell.source = solutions[gid]
            filled += 1
    assert solutions and filled == len(solutions), "every answer cell of the fetched copy filled"
    return json.loads(nbformat.writes(nb))


def _autograded_points(source: Path) -> float:
    cells = nbformat.read(source, as_version=4).cells
    return float(sum(c.metadata["nbgrader"]["points"] for c in cells
                     if c.metadata.get("nbgrader", {}).get("grade")
                     and not c.metadata["nbgrader"].get("solution")))


# what a line of code prints in the kernel of the notebook on show (its stream output)
KERNEL_SAYS_JS = """async (code) => {
    const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    const future = kernel.requestExecute({code});
    let said = '';
    future.onIOPub = msg => { if (msg.header.msg_type === 'stream') said += msg.content.text; };
    await future.done;
    return said;
}"""


def _course_grader(name: str):
    """A module of the course's grader (``teacher/grader``, which the hub's course folder copies)."""
    if str(REPO / "teacher") not in sys.path:
        sys.path.insert(0, str(REPO / "teacher"))
    return importlib.import_module(f"grader.{name}")


def _her_data_graded(course: Path, student: str, other: str) -> dict:
    """What the grader's cache in the hub's course folder says of ``student``'s submission.

    Her notebook ran in sandboxes (their outcomes are cached there), and the grader judged her
    answers against her own data: the expected values of her verdict are the judge's for
    ``student`` (not for ``other``), and her answers, exported from the sandbox, are those
    values (she typed the teacher's solutions, which compute them from her data).
    """
    judge, answers = _course_grader(HW1), _course_grader("answers")
    context = _course_grader("judge").Context
    grading = course / ".grading"
    outcomes = [json.loads(p.read_text()) for p in (grading / "outcomes").glob("*.json")]
    assert len(outcomes) == len(judge.runs(context(HW1, student, 0, b"", judge.DATA))), \
        "one sandbox per run the judge plans (the notebook, and its NumPy-only question)"
    assert all(o["cpu_seconds"] and o["reason"] is None for o in outcomes), outcomes
    verdict = json.loads((grading / "verdicts" / HW1 / f"{student}.json").read_text())
    seed = _course_grader("submission").cohort_seed(
        json.loads(_course_grader("submission").source_notebook(course, HW1).read_text()))
    own, others = (_flat_numbers(judge.reference(context(HW1, who, seed, b"", judge.DATA)))
                   for who in (student, other))
    assert verdict["student"] == student and _flat_numbers(verdict["reference"]) == pytest.approx(own)
    assert own != pytest.approx(others), "two students, two variants"
    exported = {name: answers.decode(value) for name, value in verdict["exports"].items()}
    assert _flat_numbers(exported) == pytest.approx(own), "her answers are her own variant's numbers"
    return verdict


def _page_text(page: str) -> str:
    """The text of an HTML page (what a reader sees, highlighted code joined up again)."""
    reader, parts = html.parser.HTMLParser(), []
    reader.handle_data = parts.append
    reader.feed(page)
    return "".join(parts)


# a line of the grader that is code: a statement, no string in it, long enough to be its own
GRADER_CODE = re.compile(r"^(def |class |return |import |from |if |elif |for |while |with |"
                         r"[\w.\[\], ]+ = )")


def _grader_code_lines(notebook: Path) -> list[str]:
    """The lines of code of the course's grader (``teacher/grader/*.py``) that its notebook
    does not hold itself."""
    own = {ln.strip() for cell in nbformat.read(notebook, as_version=4).cells
           for ln in cell.source.splitlines()}
    lines = {ln.strip() for path in (REPO / "teacher" / "grader").glob("*.py")
             for ln in path.read_text(encoding="utf-8").splitlines()}
    return sorted(ln for ln in lines - own if len(ln) >= 20 and GRADER_CODE.match(ln)
                  and not set("'\"#") & set(ln))


# what a student writes into her own submission's timestamp.txt after submitting
FORGED = "2000-01-01 00:00:00.000000 UTC"

# tried by a process of a student's system user: each (what, path[, text]) allowed or denied
TRY = """
import json, os, sys
said = []
for what, path, *text in json.loads(sys.argv[1]):
    try:
        if what == "list":
            os.listdir(path)
        elif what == "read":
            open(path, "rb").close()
        else:
            with open(path, "w") as fh:
                fh.write(text[0])
        said.append("allowed")
    except PermissionError:
        said.append("denied")
print(json.dumps(said))
"""


def _try_as(user, attempts: list[tuple]) -> list[str]:
    """Each attempt, made by a process of the system user ``user`` (a pwd entry): allowed or denied.

    The process runs the system's Python, which every user can run wherever the repository
    lives (the hub's environment may sit in a clone that only the hub's namespace opens)."""
    python = shutil.which("python3", path="/usr/bin:/bin")
    assert python, "no system Python (/usr/bin/python3) to try things as a student with"
    done = subprocess.run(
        [python, "-I", "-c", TRY, json.dumps([[a[0], str(a[1]), *a[2:]] for a in attempts])],
        user=user.pw_uid, group=user.pw_gid, extra_groups=[], cwd="/", capture_output=True,
        text=True, env={"PATH": "/usr/bin:/bin", "HOME": user.pw_dir}, timeout=120,
        stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _servers_and_kernels(hub_pid: int) -> dict[int, list[str]]:
    """The users' servers and kernels, by the uid each runs as."""
    import psutil

    running: dict[int, list[str]] = {}
    for process in hub.descendants(hub_pid):
        with contextlib.suppress(psutil.Error):
            command = " ".join(process.cmdline())
            kind = ("server" if "jupyterhub-singleuser" in command
                    else "kernel" if "ipykernel_launcher" in command else None)
            if kind:
                running.setdefault(process.uids().real, []).append(kind)
    return running


def _hub_users(info: dict) -> dict:
    import urllib.request

    request = urllib.request.Request(info["url"] + "hub/api/users",
                                     headers={"Authorization": f"token {info['service_token']}"})
    with urllib.request.urlopen(request, timeout=10) as r:
        return {u["name"]: u for u in json.load(r)}

def _flat_numbers(answers: dict) -> dict:
    """name -> number, an interval's ends as name[0], name[1] (pytest.approx compares no nesting)."""
    flat = {}
    for name, value in answers.items():
        if isinstance(value, (list, tuple)):
            flat.update({f"{name}[{i}]": float(v) for i, v in enumerate(value)})
        else:
            flat[name] = value
    return flat



@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.deploy
def test_a_class_on_the_hub_end_to_end(tmp_path, local_only):
    if sys.version_info < (3, 11) or importlib.util.find_spec("jupyterhub") is None:
        pytest.skip("the hub's environment (the hub extra, Python >= 3.11) is not installed")
    _hub_python()
    browser_helpers = _load("browser_helpers", REPO / "tests" / "test_browser.py")
    from nbgrader.api import Gradebook
    from nbgrader.utils import parse_utc
    from playwright.sync_api import Error as PlaywrightError, expect, sync_playwright

    source = REPO / "teacher" / "source" / HW1 / f"{HW1}.ipynb"
    started = time.monotonic()
    with running_classroom(tmp_path) as (proc, info, out, copier):
        base = info["url"].rstrip("/")
        printed = out.read_text()
        assert base in printed and PASSWORD in printed and info["link"] in printed
        assert "instructor" in printed and "alice, bob" in printed
        memory = info["memory"]
        assert memory["student"]["limit"] in printed and "does not enforce" in printed
        assert memory["instructor"]["limit"] in printed
        # the grader's sandbox: bwrap, on the PATH every server is given
        assert info["bwrap"] and f"bubblewrap sandbox ({info['bwrap']}" in printed
        assert str(Path(info["bwrap"]).parent) in info["server_path"].split(os.pathsep)
        system = {user: pwd.getpwnam(name) for user, name in info["system_users"].items()}
        uids = {user: entry.pw_uid for user, entry in system.items()}
        assert set(uids) == {"instructor", "alice", "bob"} and 0 not in uids.values()
        assert len(set(uids.values())) == 3, "a system user of its own for each account"
        homes = Path(info["state"]) / "home"
        for user in ("instructor", "alice", "bob"):  # lets the test reach window.jupyterapp
            config = homes / user / ".jupyter" / "jupyter_server_config.json"
            config.write_text(json.dumps({"LabApp": {"expose_app_in_browser": True}}))
            os.chown(config, uids[user], system[user].pw_gid)
        timings: list[tuple[str, float]] = [("the hub ready", time.monotonic() - started)]
        step = "starting chromium"

        def mark(name: str) -> str:     # the step's name, with the time the last one took
            timings.append((step, time.monotonic() - started))
            return name

        with sync_playwright() as p:
            browser = browser_helpers._launch_chromium(p)
            pages, contexts = {}, {}
            try:
                blocked = []
                for user in ("instructor", "alice", "bob"):
                    contexts[user] = browser.new_context(viewport={"width": 1280, "height": 900})
                    contexts[user].set_default_timeout(PAGE_MS)
                    blocked += [local_only(contexts[user], base)]
                    pages[user] = contexts[user].new_page()
                teacher, alice, bob = pages["instructor"], pages["alice"], pages["bob"]

                step = mark("the instructor logs in")
                teacher.goto(f"{base}/hub/login", timeout=PAGE_MS)
                _login(teacher, "instructor")
                teacher.wait_for_url(re.compile(r"/user/instructor/lab"), timeout=PAGE_MS)
                _wait_lab(teacher)
                assert teacher.evaluate(
                    "() => window.jupyterapp.commands.hasCommand('nbgrader:open-formgrader')")

                step = mark("the instructor generates and releases homework 1")
                grader = pages["formgrader"] = contexts["instructor"].new_page()  # a second tab
                grader.goto(f"{base}/user/instructor/formgrader/manage_assignments",
                            timeout=PAGE_MS)
                grader.locator("td", has_text=HW1).first.wait_for(timeout=PAGE_MS)
                _formgrader_click(grader, HW1, "assign")
                assert "Successfully released" in _formgrader_click(grader, HW1, "release")

                step = mark("alice follows the course link and logs in")
                alice.goto(info["link"], timeout=PAGE_MS)
                _login(alice, "alice")
                alice.wait_for_url(re.compile(r"/user/alice/lab/tree/rejlab/notebooks/00_"),
                                   timeout=PAGE_MS)
                _wait_lab(alice)
                alice.wait_for_function(browser_helpers.KERNEL_IDLE_JS, timeout=PAGE_MS,
                                        polling=250)
                alice.locator(".jp-Notebook .jp-RenderedMarkdown h1").first.wait_for(
                    timeout=PAGE_MS)
                pulled = homes / "alice" / "rejlab"
                assert (pulled / course_repository.LANDING).is_file() and (pulled / ".git").is_dir()
                assert not alice.evaluate(
                    "() => window.jupyterapp.commands.hasCommand('nbgrader:open-formgrader')")
                assert alice.evaluate(
                    "() => window.jupyterapp.commands.hasCommand('nbgrader:open-assignment-list')")
                shot_lab = _screenshot(alice, tmp_path, "student-lab-after-pull.png")

                step = mark("alice's server has no formgrader")
                assert alice.request.get(f"{base}/user/alice/formgrader").status == 404

                step = mark("alice opens lesson 02 and moves its slider")
                alice.evaluate("path => window.jupyterapp.commands.execute('docmanager:open', "
                               "{path})", f"rejlab/notebooks/{LESSON}")
                alice.wait_for_function(
                    "name => { const w = window.jupyterapp.shell.currentWidget;"
                    " return !!(w && w.context && w.context.path.endsWith(name)); }",
                    arg=LESSON, timeout=PAGE_MS, polling=250)
                alice.wait_for_function(browser_helpers.KERNEL_IDLE_JS, timeout=PAGE_MS,
                                        polling=250)
                assert alice.evaluate(browser_helpers.RUN_ALL_JS, PAGE_MS) is True
                slider = alice.locator(".widget-slider").filter(
                    has=alice.locator(".widget-label", has_text=re.compile(r"^\s*r\s*$")))
                cell = alice.locator(".jp-Cell").filter(has=slider).filter(
                    has=alice.locator(".rejlab-readout")).first
                image = cell.locator("img.widget-image")
                expect(image).to_have_attribute("src", re.compile(r"\S"), timeout=PAGE_MS)
                src_before = image.get_attribute("src")
                handle = cell.locator(".widget-slider").filter(
                    has=alice.locator(".widget-label", has_text=re.compile(r"^\s*r\s*$"))
                ).locator(".noUi-handle")
                handle.focus()
                for _ in range(3):
                    handle.press("ArrowRight")
                expect(image).not_to_have_attribute("src", src_before, timeout=PAGE_MS)
                alice.wait_for_function(browser_helpers.IMAGE_JS, arg=image.element_handle(),
                                        timeout=PAGE_MS)

                step = mark("alice's kernel names her by her user name")
                said = alice.evaluate(KERNEL_SAYS_JS, "from rejlab.course import homework\n"
                                                      "print(homework.student_id())")
                assert said == "alice\n", said

                step = mark("alice's server reports the students' memory limit, the instructor's his")
                metrics = alice.request.get(f"{base}/user/alice/api/metrics/v1").json()
                limit = metrics["limits"]["memory"]["rss"]
                assert limit == hub_bytes(memory["student"]["limit"]) and metrics["rss"] > 0
                grading = teacher.request.get(f"{base}/user/instructor/api/metrics/v1").json()
                assert grading["limits"]["memory"]["rss"] == hub_bytes(memory["instructor"]["limit"])
                assert hub_bytes(memory["instructor"]["limit"]) > limit
                shown = re.compile(rf"Mem:\s+[\d.]+ / {limit / 2**20:.2f} MB")  # the status bar
                expect(alice.locator("#jp-main-statusbar")).to_contain_text(shown,
                                                                            timeout=PAGE_MS)
                _screenshot(alice, tmp_path, "student-lesson-explorer.png")

                step = mark("bob logs in and starts a kernel beside alice's")
                bob.goto(f"{base}/hub/login", timeout=PAGE_MS)
                _login(bob, "bob")
                bob.wait_for_url(re.compile(r"/user/bob/lab"), timeout=PAGE_MS)
                _wait_lab(bob)
                bob_kernel = bob.evaluate("""async () => {
                    const k = await window.jupyterapp.serviceManager.kernels.startNew(
                        {name: 'python3'});
                    return k.id; }""")
                kernels = {u: pages[u].request.get(f"{base}/user/{u}/api/kernels").json()
                           for u in ("alice", "bob")}
                assert [k["id"] for k in kernels["bob"]] == [bob_kernel]
                assert kernels["alice"], "alice's lesson kernel still runs"
                users = _hub_users(info)
                assert users["alice"]["server"] and users["bob"]["server"]
                running = _servers_and_kernels(info["hub_pid"])
                assert sum(kinds.count("kernel") for kinds in running.values()) >= 2, \
                    "two kernels at once"

                step = mark("every server and kernel runs as its user's own system user")
                assert 0 not in running, f"something of the users' runs as root: {running}"
                for user in ("instructor", "alice", "bob"):
                    assert "server" in running.get(uids[user], []), f"{user}'s server: {running}"
                for user in ("alice", "bob"):
                    assert "kernel" in running.get(uids[user], []), f"{user}'s kernel: {running}"

                servers = {p.uids().real: p for p in hub.descendants(info["hub_pid"])
                           if "jupyterhub-singleuser" in " ".join(p.cmdline())}
                assert servers[uids["instructor"]].environ()["PATH"] == info["server_path"]

                step = mark("alice fetches homework 1 in the Assignments panel")
                alice.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").click()
                alice.locator(".lm-Menu-itemLabel", has_text="Assignment List").click()
                released = alice.locator("#released_assignments_list")
                released.get_by_role("button", name="Fetch").click()
                fetched = alice.locator("#fetched_assignments_list")
                fetched.get_by_role("button", name="Submit").wait_for(timeout=PAGE_MS)

                step = mark("alice's answers are written through the contents API")
                path = f"{HW1}/{HW1}.ipynb"
                got = alice.request.get(f"{base}/user/alice/api/contents/{path}").json()
                saved = _save_notebook(alice, path, _solved(got["content"], source))
                assert saved == {"path": path, "type": "notebook"}

                step = mark("alice submits")
                fetched.get_by_role("button", name="Submit").click()
                submitted = alice.locator("#submitted_assignments_list")
                expect(submitted).to_contain_text(HW1, timeout=PAGE_MS)

                step = mark("what the students can reach, tried as their system users")
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

                step = mark("the instructor collects and autogrades")
                grader.reload(timeout=PAGE_MS)
                grader.locator("td", has_text=HW1).first.wait_for(timeout=PAGE_MS)
                said = _formgrader_click(grader, HW1, "collect")
                assert "Successfully collected" in said
                assert f"states {FORGED[:19]} UTC but was last changed at" in said, said
                # nbgrader's owner check would call every student's submission a "cheating
                # attempt?" (its owner is rejlabXXXX-alice, not alice); the hub's collect
                # checks the owner against the student itself, and alice's is hers
                assert "cheating attempt" not in said and "was made by" not in said, said
                collected = course / "submitted" / "alice" / HW1 / "timestamp.txt"
                recorded = parse_utc(collected.read_text())
                assert recorded >= stated > parse_utc(FORGED), "the back-dating did not hold"
                grader.goto(f"{base}/user/instructor/formgrader/manage_submissions/{HW1}",
                            timeout=PAGE_MS)
                grader.locator("td", has_text="alice").first.wait_for(timeout=PAGE_MS)
                _formgrader_click(grader, "alice", "autograde")
                points = _autograded_points(source)
                score = grader.locator("tr", has=grader.locator("td", has_text="alice"))
                expect(score).to_contain_text(f"{points:g} / {points:g}", timeout=PAGE_MS)
                with Gradebook(f"sqlite:///{course / 'gradebook.db'}", info["course_id"]) as gb:
                    assert gb.find_submission(HW1, "alice").timestamp == recorded
                shot_grades = _screenshot(grader, tmp_path, "instructor-grades.png")

                step = mark("the grader judged alice's answers, run in sandboxes, on her data")
                verdict = _her_data_graded(course, "alice", "bob")

                step = mark("the instructor returns alice's feedback and she fetches it")
                _formgrader_click(grader, "alice", "generate-feedback")
                _formgrader_click(grader, "alice", "release-feedback")
                alice.bring_to_front()
                with alice.expect_response(
                        lambda r: "assignments/fetch_feedback" in r.url, timeout=PAGE_MS):
                    alice.locator("#submitted_assignments_list").get_by_role(
                        "button", name="Fetch Feedback").click()
                contents = f"{base}/user/alice/api/contents"
                fetched_at = alice.request.get(f"{contents}/{HW1}/feedback").json()["content"]
                assert len(fetched_at) == 1, fetched_at
                feedback = alice.request.get(
                    f"{contents}/{quote(fetched_at[0]['path'])}/{HW1}.html").json()["content"]
                text = _page_text(feedback)
                assert "homework 1 for alice" in text, "her notebook ran with her id"
                assert f"{points} / {points}" in text, "her score"
                assert verdict["marks"]["hw1-q2-tests"]["message"] in text, "the judge's word"
                shown = [ln for ln in _grader_code_lines(source) if ln in text or ln in feedback]
                assert shown == [], f"the feedback shows the grader's code: {shown}"
                paths = [str(course), str(homes / "instructor"), info["state"], str(REPO)]
                assert [p for p in paths if p in feedback] == [], "a course path in the feedback"

                step = mark("the instructor exports the grades in a terminal")
                teacher.bring_to_front()          # the lab's tab, open since the login
                teacher.evaluate("() => window.jupyterapp.commands.execute('terminal:create-new')")
                terminal = teacher.locator(".jp-Terminal .xterm-helper-textarea")
                terminal.wait_for(state="attached", timeout=PAGE_MS)
                terminal.focus()
                teacher.keyboard.type("cd ~/course && nbgrader export --to grades.csv "
                                      "&& cat grades.csv\n")
                # what the terminal shows (xterm draws on a canvas: read its buffer)
                teacher.wait_for_function(f"""() => {TERMINAL_TEXT_JS}.includes(',alice,')
                                              && {TERMINAL_TEXT_JS}.includes(',bob,')""",
                                          timeout=PAGE_MS, polling=250)
                grades = teacher.request.get(
                    f"{base}/user/instructor/api/contents/course/grades.csv")
                assert grades.status == 200, "nbgrader export wrote no grades.csv"
                text = grades.json()["content"]
                rows = {(r["assignment"], r["student_id"]): r
                        for r in csv.DictReader(io.StringIO(text))}
                assert float(rows[(HW1, "alice")]["score"]) == points
                assert float(rows[(HW1, "alice")]["max_score"]) == points
                assert float(rows[(HW1, "bob")]["score"]) == 0.0
                _screenshot(teacher, tmp_path, "instructor-grades-csv.png")
                assert not [u for b in blocked for u in b], \
                    f"the hub's pages asked for other hosts (aborted): {blocked}"
            except (PlaywrightError, AssertionError) as exc:
                for user, page in pages.items():
                    with contextlib.suppress(Exception):
                        page.screenshot(path=str(tmp_path / f"failure-{user}.png"))
                pytest.fail(f"browser failed or timed out while {step}: {exc}\n"
                            f"--- hub log ---\n{_log_tail(Path(info['log']))}")
            finally:
                browser.close()

        step = mark("Ctrl-C stops everything")
        started_pids = [info["hub_pid"]] + [p.pid for p in hub.descendants(info["hub_pid"])]
        assert len(started_pids) >= 6, "hub, proxy, three servers, kernels"
        os.killpg(proc.pid, signal.SIGINT)
        _assert_stopped(proc, out, copier, info, started_pids)
    assert shot_lab.stat().st_size > 10_000 and shot_grades.stat().st_size > 10_000
    timings.append((step, time.monotonic() - started))
    print("\nclassroom end to end: " + ", ".join(
        f"{name} until {t:.0f} s" for name, t in timings))
    print(f"classroom end to end: {time.monotonic() - started:.0f} s")


@pytest.mark.slow
def test_sigterm_stops_the_classroom_and_removes_its_users(tmp_path):
    # as a service manager stops it: SIGTERM to the launcher alone, not to its group
    with running_classroom(tmp_path) as (proc, info, out, copier):
        started = [info["hub_pid"]] + [p.pid for p in hub.descendants(info["hub_pid"])]
        proc.send_signal(signal.SIGTERM)
        _assert_stopped(proc, out, copier, info, started)


def hub_bytes(spec: str) -> int:
    """JupyterHub's byte specification (``640M``: powers of 1024), as its spawner reads it."""
    from jupyterhub.traitlets import ByteSpecification

    return ByteSpecification().validate(None, spec)
