"""A classroom on this machine: JupyterHub with an instructor, students, nbgitpuller and nbgrader.

    python classroom/hub.py [--port N] [--state DIR] [--students alice,bob,carol]

(``make classroom`` runs it in its own environment, ``.venv-hub``.) Everything
listens on 127.0.0.1 only. The launcher

1. installs the hub's proxy, configurable-http-proxy, from npm into
   ``classroom/node_modules`` the first time (``npm ci`` on the committed
   ``package-lock.json``);
2. makes the course a local git repository, ``STATE/git/rejlab``, that the
   nbgitpuller link clones into each student's home: the student edition
   where ``tools/student_edition.py`` exists (built afresh, as ``make
   student-edition`` builds ``_build/student/``, into
   ``STATE/student-edition``), else the repository's own files (``git
   ls-files``); each start commits what changed, so a student's next visit to
   the link merges it;
3. sets up nbgrader for the hub: a hub-wide ``nbgrader_config.py`` (the
   ``course_id`` and the exchange, a folder every server can write), and the
   instructor's private course folder ``~instructor/course`` (a copy of
   ``teacher/``); a Jupyter config folder per role, first on every server's
   ``JUPYTER_CONFIG_PATH``, switches nbgrader's lab and server extensions on
   or off: students get the Assignments list, only the instructor the
   Formgrader;
4. starts JupyterHub (``classroom/jupyterhub_config.py``: the dummy
   authenticator with one printed password, a local process per user with its
   own home folder under ``STATE/home``, the memory limit and guarantee of
   ``classroom/z2jh-values.yaml`` passed to each server) on free ports, waits
   until it answers, prints the URL, the accounts and the link, and writes
   them to ``STATE/classroom.json``;
5. on Ctrl-C (or SIGTERM) stops the hub, which stops every user's server, then
   ends whatever is left of the hub's processes (servers, kernels, terminals,
   the proxy) and exits 0.

When it cannot start (a port taken, npm missing or the npm registry
unreachable, configurable-http-proxy not installable, the hub not answering)
it prints one line saying which and what to do, leaves nothing running, and
exits with status 2.

The local spawner runs every user's server as this machine's user: fine for
a demonstration and a test, not for real students (see the guide's hub
section for a deployment: ``classroom/z2jh-values.yaml``).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
COURSE_ID = "rejlab"
INSTRUCTOR = "instructor"
STUDENTS = ("alice", "bob", "carol")
LANDING = "notebooks/00_start_here.ipynb"
START_S = 120          # the hub and its proxy usually answer within ~5 s
NPM_TIMEOUT_S = 600
NODE_MAJOR = 20        # configurable-http-proxy 5 needs Node.js 20 or later

# nbgrader's lab plugins and server extensions, on or off per role.
NBGRADER_LAB = "@jupyter/nbgrader"
INSTRUCTOR_ONLY_PLUGINS = ("formgrader", "course-list", "create-assignment")
NBGRADER_SERVER = ("formgrader", "course_list", "assignment_list", "validate_assignment")
INSTRUCTOR_ONLY_SERVER = ("formgrader", "course_list")
HUB_SERVER_EXTENSIONS = ("nbgitpuller", "jupyter_resource_usage")
HUB_LAB_EXTENSIONS = ("@jupyter-server/resource-usage",)
# course files nbgrader generates or collects: never copied into the hub's course folder
GENERATED = ("release", "submitted", "autograded", "feedback", "gradebook.db", ".nbgrader.log",
             ".ipynb_checkpoints", "__pycache__")


class CannotStart(Exception):
    """One line for the user: what went wrong and what to do."""


def say(line: str = "") -> None:
    print(line, flush=True)


# --------------------------------------------------------------------------
# Ports

def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def choose_ports(port: int) -> dict[str, int]:
    """The public port (``port``, or a free one for 0), the hub's API and the proxy's API."""
    if port:
        if not 1 <= port <= 65535:
            raise CannotStart(f"--port must be between 1 and 65535 (or 0 for a free port), "
                              f"got {port}")
        if not port_is_free(port):
            raise CannotStart(f"port {port} on 127.0.0.1 is taken: stop what listens there, "
                              "or choose another (make classroom PORT=0 picks a free one)")
    ports = {"public": port or free_port()}
    for name in ("hub", "proxy_api"):
        while (candidate := free_port()) in ports.values():
            pass
        ports[name] = candidate
    return ports


# --------------------------------------------------------------------------
# configurable-http-proxy from npm

def _npm_error_line(output: str) -> str:
    """npm's first error line that says something (its last line when none does)."""
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    said = [ln for ln in lines if re.match(r"npm error \w", ln) and "complete log" not in ln]
    return (said or lines or ["no output"])[0 if said else -1]


def npm_registry() -> str:
    try:
        done = subprocess.run(["npm", "config", "get", "registry"], capture_output=True,
                              text=True, timeout=60, stdin=subprocess.DEVNULL)
        return done.stdout.strip() or "the npm registry"
    except (OSError, subprocess.TimeoutExpired):
        return "the npm registry"


def ensure_proxy(node_dir: Path) -> Path:
    """configurable-http-proxy installed in ``node_dir/node_modules`` (``npm ci`` the first time)."""
    chp = node_dir / "node_modules" / ".bin" / "configurable-http-proxy"
    if chp.exists():
        return chp
    if shutil.which("node") is None or shutil.which("npm") is None:
        raise CannotStart("configurable-http-proxy needs Node.js and npm, which are not "
                          "installed: install them (apt-get install npm), then run make "
                          "classroom again")
    version = subprocess.run(["node", "--version"], capture_output=True, text=True,
                             stdin=subprocess.DEVNULL).stdout.strip()
    major = re.match(r"v(\d+)", version)
    if not major or int(major.group(1)) < NODE_MAJOR:
        raise CannotStart(f"configurable-http-proxy needs Node.js {NODE_MAJOR} or later, this "
                          f"machine has {version or 'an unknown version'}: install a newer "
                          "Node.js, then run make classroom again")
    if not (node_dir / "package-lock.json").exists():
        raise CannotStart(f"{node_dir / 'package-lock.json'} is missing: restore it from the "
                          "repository (git checkout classroom/package-lock.json)")
    say(f"installing configurable-http-proxy with npm into {node_dir / 'node_modules'} "
        "(once) ...")
    try:
        done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                              cwd=node_dir, capture_output=True, text=True,
                              timeout=NPM_TIMEOUT_S, stdin=subprocess.DEVNULL)
        output, code = done.stdout + done.stderr, done.returncode
    except subprocess.TimeoutExpired:
        output, code = "ETIMEDOUT", -1
    if code == 0 and chp.exists():
        return chp
    shutil.rmtree(node_dir / "node_modules", ignore_errors=True)   # never half-installed
    if re.search(r"ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|ECONNRESET|ENETUNREACH|"
                 r"EHOSTUNREACH|network", output):
        raise CannotStart(f"the npm registry ({npm_registry()}) is unreachable, so "
                          "configurable-http-proxy cannot be installed: connect to it, or point "
                          "npm at a mirror (npm config set registry URL), then run make "
                          "classroom again")
    raise CannotStart(f"configurable-http-proxy could not be installed by npm ci in {node_dir} "
                      f"({_npm_error_line(output)}): fix what npm names, or install it there "
                      "by hand (npm ci), then run make classroom again")


# --------------------------------------------------------------------------
# The course as a git repository that nbgitpuller clones

def _git(*args: str, cwd: Path) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        last = (done.stderr or done.stdout).strip().splitlines() or ["no output"]
        raise CannotStart(f"git {' '.join(args)} failed in {cwd}: {last[-1]}")
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
            raise CannotStart(f"the student edition could not be built ({tool.name} exited "
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
        raise CannotStart(f"the course source {source} has no {LANDING}: give a folder that "
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


# --------------------------------------------------------------------------
# Homes, Jupyter config per role, nbgrader

def _write_json(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def role_config(folder: Path, instructor: bool) -> None:
    """A role's Jupyter config folder: which of nbgrader's parts are on.

    It sits first on the servers' ``JUPYTER_CONFIG_PATH``, above the user's
    own folder and the environment's (where ``make lab``'s settings switch
    nbgrader off), so it decides.
    """
    disabled = {NBGRADER_LAB: False, **{ext: False for ext in HUB_LAB_EXTENSIONS}}
    for plugin in INSTRUCTOR_ONLY_PLUGINS:
        disabled[f"{NBGRADER_LAB}:{plugin}"] = not instructor
    _write_json(folder / "labconfig" / "page_config.json", {"disabledExtensions": disabled})
    server = {f"nbgrader.server_extensions.{name}": instructor or name not in INSTRUCTOR_ONLY_SERVER
              for name in NBGRADER_SERVER}
    server.update({name: True for name in HUB_SERVER_EXTENSIONS})
    _write_json(folder / "jupyter_server_config.json",
                {"ServerApp": {"jpserver_extensions": server}})


def prepare_home(home: Path) -> None:
    """The user's lab settings (no "Jupyter news" toast) and terminal (the hub's commands)."""
    home.mkdir(parents=True, exist_ok=True)
    # JupyterLab's terminal is a login shell, which resets PATH: put this environment's
    # commands (nbgrader, jupyter, python) first again, as an activated environment would
    (home / ".profile").write_text(
        "# Written by classroom/hub.py: the classroom's environment first on PATH.\n"
        f"export PATH={shlex.quote(str(Path(sys.executable).parent))}:\"$PATH\"\n",
        encoding="utf-8")
    _write_json(home / ".jupyter" / "lab" / "user-settings" / "@jupyterlab" / "apputils-extension"
                / "notification.jupyterlab-settings",
                {"fetchNews": "false", "checkForUpdates": False})


def student_identity(home: Path, student: str) -> None:
    """Tell nbgrader who submits from this home.

    nbgrader names a submission after the server's OS user, reading
    ``JUPYTERHUB_USER`` only when that user is ``jovyan`` (as on Zero to
    JupyterHub). The local spawner runs every server as this machine's
    user, so each student's own nbgrader config names them.
    """
    config = home / ".jupyter"
    config.mkdir(parents=True, exist_ok=True)
    (config / "nbgrader_config.py").write_text(
        "# Written by classroom/hub.py: this student's submissions carry their hub name.\n"
        "c = get_config()  # noqa: F821\n"
        f"c.CourseDirectory.student_id = {student!r}\n", encoding="utf-8")


def setup_nbgrader(state: Path, students: list[str]) -> Path:
    """Hub-wide nbgrader config and exchange; the instructor's private course folder."""
    exchange = state / "exchange"
    exchange.mkdir(parents=True, exist_ok=True)
    exchange.chmod(0o1777)                     # every user writes, as nbgrader's docs ask
    etc = state / "etc" / "jupyter" / "hub"
    etc.mkdir(parents=True, exist_ok=True)
    (etc / "nbgrader_config.py").write_text(
        "# Hub-wide nbgrader configuration of the local classroom (written by classroom/hub.py;\n"
        "# every user's server reads it through JUPYTER_CONFIG_PATH).\n"
        "c = get_config()  # noqa: F821\n"
        f"c.CourseDirectory.course_id = {COURSE_ID!r}\n"
        f"c.Exchange.root = {str(exchange)!r}\n", encoding="utf-8")

    home = state / "home" / INSTRUCTOR
    course = home / "course"
    if not course.exists():
        shutil.copytree(REPO / "teacher", course, ignore=shutil.ignore_patterns(*GENERATED))
        # The formgrader runs from the home folder, the terminal from the course folder:
        # one gradebook for both, whatever the course's own config says.
        with open(course / "nbgrader_config.py", "a", encoding="utf-8") as fh:
            fh.write("\n# The hub's copy (classroom/hub.py): one gradebook wherever nbgrader runs.\n"
                     f"c.CourseDirectory.db_url = 'sqlite:///{course / 'gradebook.db'}'\n")
    (home / ".jupyter").mkdir(parents=True, exist_ok=True)
    (home / ".jupyter" / "nbgrader_config.py").write_text(
        "# The instructor's nbgrader configuration (classroom/hub.py): the course folder.\n"
        "c = get_config()  # noqa: F821\n"
        f"c.CourseDirectory.root = {str(course)!r}\n", encoding="utf-8")
    from nbgrader.api import Gradebook  # the students appear in the gradebook before they submit

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", COURSE_ID) as gb:
        for student in students:
            gb.update_or_create_student(student, first_name=student.capitalize(),
                                        last_name="Demo")
    return course


# --------------------------------------------------------------------------
# Memory per user, from the deployment's values

def memory_settings(values: Path = HERE / "z2jh-values.yaml") -> dict[str, str]:
    import yaml

    memory = yaml.safe_load(values.read_text(encoding="utf-8"))["singleuser"]["memory"]
    return {"limit": str(memory["limit"]), "guarantee": str(memory["guarantee"])}


# --------------------------------------------------------------------------
# The hub's processes

def descendants(pid: int) -> list:
    import psutil

    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []


def _signal(process, sig) -> bool:
    """Send ``sig`` to a psutil process if it still runs; whether it did."""
    import psutil

    try:
        if process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
            process.send_signal(sig)
            return True
    except psutil.Error:
        pass
    return False


def stop(proc: subprocess.Popen, known: list) -> None:
    """SIGTERM the hub (it stops every user's server and the proxy), then end what is left.

    ``known`` are the hub's descendants seen while it ran (servers start in
    sessions of their own, so they would outlive a hub that died first).
    """
    import psutil

    started = {p.pid: p for p in [*known, *descendants(proc.pid)]}.values()
    if proc.poll() is None:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=30)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        psutil.wait_procs([p for p in started if _signal(p, sig)], timeout=10)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)          # the hub's own group, whatever it holds
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=10)


def wait_ready(proc: subprocess.Popen, base: str, token: str, log: Path) -> str:
    """Wait (bounded) until the hub answers through its proxy; return its version."""
    deadline = time.monotonic() + START_S
    request = urllib.request.Request(f"{base}/hub/api/", headers={"Authorization": f"token {token}"})
    while True:
        if proc.poll() is not None:
            raise CannotStart(f"JupyterHub exited with status {proc.returncode} while starting: "
                              f"read {log}")
        try:
            with urllib.request.urlopen(request, timeout=2) as r:
                return json.load(r).get("version", "?")
        except (OSError, ValueError):
            pass
        if time.monotonic() > deadline:
            raise CannotStart(f"JupyterHub did not answer on {base} within {START_S} s: "
                              f"read {log}")
        time.sleep(0.25)


class _Parser(argparse.ArgumentParser):
    def error(self, message):            # one line, as for every other refusal
        print(f"classroom: {message} (see --help)", file=sys.stderr)
        sys.exit(2)


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(description=__doc__.split("\n\n")[0],
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0,
                        help="the hub's port on 127.0.0.1 (default 0: a free one)")
    parser.add_argument("--state", type=Path, default=REPO / "_build" / "classroom",
                        help="homes, exchange, gradebook and hub database (kept between runs; "
                             "default _build/classroom)")
    parser.add_argument("--students", default=",".join(STUDENTS),
                        help="comma-separated student accounts (default alice,bob,carol)")
    parser.add_argument("--password", default=None,
                        help="the password of every account (default: a random one, printed)")
    parser.add_argument("--course-source", type=Path, default=None,
                        help="folder of the course the link pulls (default: the student "
                             "edition, built by tools/student_edition.py where the project "
                             "has it; else the repository's own files)")
    parser.add_argument("--node-dir", type=Path, default=HERE,
                        help="folder with package.json where configurable-http-proxy is "
                             "installed (default classroom/)")
    args = parser.parse_args(argv)

    proc = None
    known: list = []
    stopping = False

    def on_signal(signum, frame):
        nonlocal stopping
        if not stopping:
            stopping = True
            raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    # this environment's commands first (nbgrader runs alembic; the servers, jupyter)
    os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent),
                                          os.environ.get("PATH", "")])
    try:
        students = [s.strip() for s in args.students.split(",") if s.strip()]
        bad = [s for s in students if not re.fullmatch(r"[a-z][a-z0-9_-]{0,31}", s)
               or s == INSTRUCTOR]
        if not students or bad:
            raise CannotStart(f"--students must be comma-separated lower-case names other than "
                              f"{INSTRUCTOR!r}, got {args.students!r}")
        ports = choose_ports(args.port)
        if shutil.which("git") is None:
            raise CannotStart("git is not installed (nbgitpuller needs it): apt-get install git")
        chp = ensure_proxy(args.node_dir.resolve())
        missing = [name for name in ("jupyterhub", "nbgitpuller", "nbgrader", "psutil", "yaml")
                   if importlib.util.find_spec(name) is None]
        if missing:
            raise CannotStart(f"{missing[0]} is not installed in {sys.executable}: run make "
                              "classroom (it installs the hub's environment, .venv-hub)")
        state = args.state.resolve()
        for sub in ("hub", "home"):
            (state / sub).mkdir(parents=True, exist_ok=True)
        source = args.course_source.resolve() if args.course_source else None
        git_repo, description = publish_course(source, state)
        course = setup_nbgrader(state, students)
        for role in ("instructor", "student"):
            role_config(state / "etc" / "jupyter" / role, instructor=role == "instructor")
        for user in [INSTRUCTOR, *students]:
            prepare_home(state / "home" / user)
        for student in students:
            student_identity(state / "home" / student, student)
        memory = memory_settings()
        password = args.password or secrets.token_urlsafe(9)
        token = secrets.token_hex(32)
        base = f"http://127.0.0.1:{ports['public']}"
        settings = {
            "ports": ports, "state": str(state), "proxy_command": str(chp),
            "password": password, "service_token": token, "instructor": INSTRUCTOR,
            "students": students, "mem_limit": memory["limit"],
            "mem_guarantee": memory["guarantee"], "config_dir": str(state / "etc" / "jupyter"),
            "singleuser": str(Path(sys.executable).with_name("jupyterhub-singleuser")),
        }
        settings_file = state / "hub" / "settings.json"
        settings_file.touch(mode=0o600)
        _write_json(settings_file, settings)
        env = dict(os.environ, REJLAB_CLASSROOM_SETTINGS=str(settings_file))
        log = state / "hub.log"
        with open(log, "ab") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "jupyterhub", "-f", str(HERE / "jupyterhub_config.py")],
                cwd=state / "hub", env=env, stdout=out, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True)
        version = wait_ready(proc, base, token, log)
        known = descendants(proc.pid)
        link = pull_link(base, git_repo)
        info = {"url": f"{base}/", "hub_version": version, "password": password,
                "instructor": INSTRUCTOR, "students": students, "link": link,
                "course_source": description, "course_repository": str(git_repo),
                "course_folder": str(course), "exchange": str(state / "exchange"),
                "course_id": COURSE_ID, "mem_limit": memory["limit"],
                "mem_guarantee": memory["guarantee"], "hub_pid": proc.pid,
                "service_token": token, "log": str(log), "state": str(state)}
        ready = state / "classroom.json"
        with tempfile.NamedTemporaryFile("w", dir=state, delete=False, suffix=".tmp") as tmp:
            json.dump(info, tmp, indent=2)
        os.chmod(tmp.name, 0o600)
        os.replace(tmp.name, ready)            # whole or not at all: the ready signal
        say(f"rejlab classroom: JupyterHub {version} at {base}/ (this machine only)")
        say(f"  accounts, all with the password {password}:")
        say(f"    {INSTRUCTOR:12s} the instructor: Nbgrader menu -> Formgrader; course folder "
            "~/course (private)")
        say(f"    {', '.join(students):12s} students: Nbgrader menu -> Assignment List")
        say("  the course link (a student opens it once logged in: the first visit clones the "
            "course into ~/rejlab, later ones merge updates):")
        say(f"    {link}")
        say(f"  course source: {description}")
        say(f"  nbgrader: course_id {COURSE_ID}, exchange {state / 'exchange'}")
        say(f"  memory per user: limit {memory['limit']}, guarantee {memory['guarantee']}, "
            "passed to each server (MEM_LIMIT, MEM_GUARANTEE) and shown in the lab's status "
            "bar; this local spawner does not enforce them (Kubernetes does: "
            "classroom/z2jh-values.yaml)")
        say(f"  state (homes, exchange, gradebook, hub database): {state}; hub log: {log}")
        say("Ctrl-C stops the hub and every user's server.")
        while proc.poll() is None:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                known = [p for p in known if p.is_running()] + descendants(proc.pid)
        say(f"JupyterHub exited with status {proc.returncode}: read {log}")
        stop(proc, known)
        return 1
    except CannotStart as exc:
        if proc is not None:
            stop(proc, known)
        print(f"classroom: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if proc is not None:
            say("stopping the hub and every user's server ...")
            stop(proc, known)
        say("classroom stopped: nothing left running")
        return 0


if __name__ == "__main__":
    sys.exit(main())
