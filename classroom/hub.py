"""A classroom on this machine: JupyterHub with an instructor, students, nbgitpuller and nbgrader.

    sudo python classroom/hub.py [--port N] [--state DIR] [--students alice,bob,carol]

(``make classroom`` runs it in its own environment, ``.venv-hub``.) It needs
root: every user's server runs as a system user of its own. Everything
listens on 127.0.0.1 only. The launcher

1. installs the hub's proxy, configurable-http-proxy, from npm into
   ``classroom/node_modules`` the first time (``npm ci`` on the committed
   ``package-lock.json``);
2. makes the course a local git repository, ``STATE/git/rejlab``
   (``classroom/course_repository.py``), that the nbgitpuller link clones
   into each student's home: the student edition
   where ``tools/student_edition.py`` exists (built afresh, as ``make
   student-edition`` builds ``_build/student/``, into
   ``STATE/student-edition``), else the repository's own files (``git
   ls-files``); each start commits what changed, so a student's next visit to
   the link merges it;
3. makes a system user for every account (``classroom/accounts.py``:
   ``rejlabXXXX-alice``, not root, no password), its home ``STATE/home/NAME``
   closed to everyone else (mode 0700);
4. sets up nbgrader for the hub: a hub-wide ``nbgrader_config.py`` (the
   ``course_id``; the exchange, a folder every server can write, whose
   submissions only their maker and the instructor can read and whose times
   a student cannot back-date: ``classroom/private_exchange.py``), and the
   instructor's course folder ``~instructor/course`` (a copy of ``teacher/``,
   its grader included, with the gradebook), private to the instructor, where
   the Formgrader's Autograde runs each submission in the grader's bubblewrap
   sandbox (``bwrap`` is on every server's PATH); a Jupyter config folder
   per role, first on every server's ``JUPYTER_CONFIG_PATH``, switches
   nbgrader's lab and server extensions on or off: students get the
   Assignments list, only the instructor the Formgrader;
5. starts JupyterHub (``classroom/jupyterhub_config.py``: the dummy
   authenticator with one printed password, each user's server a local
   process of that user's system user, the memory limits and guarantees of
   ``classroom/z2jh-values.yaml``, the students' and the larger one of the
   instructor, passed to each server; when the repository lies under folders
   other users cannot enter, in a mount namespace of its own where those
   folders show only the way to it: ``reachable``) on free ports, waits
   until it answers, prints the URL, the accounts and the link, and writes them to
   ``STATE/classroom.json``;
6. on Ctrl-C (or SIGTERM) stops the hub, which stops every user's server,
   ends whatever is left of the hub's and the users' processes (servers,
   kernels, terminals, the proxy), removes the system users (their files
   stay, and the next start gives them back) and exits 0.

When it cannot start (not root, a Python, repository or state folder other
users cannot reach, a port taken, npm missing or the npm registry unreachable,
configurable-http-proxy not installable, the hub not answering) it prints
one line saying which and what to do, leaves nothing running and no user
behind, and exits with status 2.

The dummy authenticator and local processes make a dry run, not a class (see
the guide's hub section for a deployment: ``classroom/z2jh-values.yaml``).
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
import stat
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the launcher's siblings, however it is loaded (as a script, or by a test from its path)
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import accounts  # noqa: E402
import course_repository  # noqa: E402

REPO = HERE.parent
COURSE_ID = "rejlab"
INSTRUCTOR = "instructor"
STUDENTS = ("alice", "bob", "carol")
# an account's name, short enough for its system user's (rejlabXXXX-NAME, at most 32 characters)
NAME_MAX = accounts.NAME_MAX - len(accounts.user_prefix(Path("/")))
NAME = rf"[a-z][a-z0-9_-]{{0,{NAME_MAX - 1}}}"
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
# course files nbgrader generates or collects, and the grader's cache: never copied into the
# hub's course folder
GENERATED = ("release", "submitted", "autograded", "feedback", "gradebook.db", ".nbgrader.log",
             ".grading", ".ipynb_checkpoints", "__pycache__")
# the system's commands, after this environment's on every user's server's PATH
SYSTEM_PATH = ("/usr/local/bin", "/usr/bin", "/bin")


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
# Homes, Jupyter config per role, nbgrader

def _write_json(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def role_config(folder: Path, instructor: bool) -> None:
    """A role's Jupyter config folder: which of nbgrader's parts are on.

    It sits first on the servers' ``JUPYTER_CONFIG_PATH``, above the user's
    own folder and the environment's (where ``make lab``'s settings switch
    nbgrader off), so it decides. A student's also tells nbgrader who submits:
    nbgrader names a submission after the server's system user, reading
    ``JUPYTERHUB_USER`` only when that user is ``jovyan`` (as on Zero to
    JupyterHub), and here the student ``alice`` runs as ``rejlabXXXX-alice``.
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
    if not instructor:      # (the instructor's collect and autograde take every student)
        (folder / "nbgrader_config.py").write_text(
            "# Written by classroom/hub.py: a student's submissions carry their hub name.\n"
            "import os\n\n"
            "c = get_config()  # noqa: F821\n"
            "c.CourseDirectory.student_id = os.environ['JUPYTERHUB_USER']\n", encoding="utf-8")


def prepare_home(account: accounts.Account) -> None:
    """The user's lab settings (no "Jupyter news" toast) and terminal (the hub's commands).

    The home, and everything in it, is the user's, closed to everyone else.
    """
    home = account.home
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
    accounts.own(home, account, mode=0o700)


def exchange_folders(exchange: Path, instructor: accounts.Account) -> None:
    """nbgrader's exchange, made the way its release makes it, plus the sticky bit on inbound.

    The root is everyone's (nbgrader's students check they can write it);
    the course's folders are the instructor's. Students create their
    submissions in ``inbound`` but cannot list it; its set-group-id bit gives
    each submission the instructor's group, and its sticky bit lets only a
    submission's maker (or the instructor) rename or delete it.
    """
    exchange.mkdir(parents=True, exist_ok=True)
    exchange.chmod(0o1777)
    course = exchange / COURSE_ID
    for folder, mode in ((course, 0o755), (course / "outbound", 0o755),
                         (course / "feedback", 0o711), (course / "inbound", 0o3733)):
        folder.mkdir(exist_ok=True)
        os.chown(folder, instructor.uid, instructor.gid)
        folder.chmod(mode)
    for released in ("outbound", "feedback"):      # what the instructor put there
        for item in (course / released).iterdir():
            accounts.own(item, instructor)


def setup_nbgrader(state: Path, students: list[str], users: dict[str, accounts.Account]) -> Path:
    """Hub-wide nbgrader config and exchange; the instructor's private course folder."""
    exchange = state / "exchange"
    exchange_folders(exchange, users[INSTRUCTOR])
    etc = state / "etc" / "jupyter" / "hub"
    etc.mkdir(parents=True, exist_ok=True)
    (etc / "nbgrader_config.py").write_text(
        "# Hub-wide nbgrader configuration of the local classroom (written by classroom/hub.py;\n"
        "# every user's server reads it through JUPYTER_CONFIG_PATH).\n"
        "import sys\n\n"
        "c = get_config()  # noqa: F821\n"
        f"c.CourseDirectory.course_id = {COURSE_ID!r}\n"
        f"c.Exchange.root = {str(exchange)!r}\n"
        "# submissions closed to other students; times no earlier than the files' last change\n"
        f"sys.path.insert(0, {str(HERE)!r})\n"
        "c.ExchangeFactory.submit = 'private_exchange.PrivateSubmit'\n"
        "c.ExchangeFactory.collect = 'private_exchange.FileTimeCollect'\n"
        f"c.FileTimeCollect.user_prefix = {accounts.user_prefix(state)!r}\n", encoding="utf-8")

    home = users[INSTRUCTOR].home
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


def server_path() -> tuple[str, str | None]:
    """Every user's server's ``PATH``, and the grader's sandbox, ``bwrap`` (None: not installed).

    This environment's commands first (jupyter, nbgrader, python), then the folders of
    ``bwrap`` and ``git`` wherever they are installed, then the system's. The PATH is set,
    not inherited from whoever started the launcher (a terminal's, ``sudo``'s): the
    Formgrader's Autograde runs each submission through ``bwrap``, which the course's grader
    looks up on the instructor's server's PATH (and refuses to grade without), and
    nbgitpuller runs ``git`` in the students'.
    """
    system = os.pathsep.join(SYSTEM_PATH)
    found = {name: shutil.which(name) or shutil.which(name, path=system)
             for name in ("bwrap", "git")}
    folders = [str(Path(sys.executable).parent)]
    folders += [str(Path(path).parent) for path in found.values() if path]
    return os.pathsep.join(dict.fromkeys([*folders, *SYSTEM_PATH])), found["bwrap"]


def closed_to_others(path: Path) -> Path | None:
    """The first folder on ``path``'s way from ``/`` (or ``path`` itself) that other users cannot enter."""
    closed = all_closed(path)
    return closed[0] if closed else None


def all_closed(path: Path) -> list[Path]:
    """Every folder on ``path``'s way from ``/`` (``path`` included) that other users cannot
    enter, the outermost first."""
    return [item for item in reversed([path, *path.parents])
            if item.exists() and not item.stat().st_mode & stat.S_IXOTH]


def reachable(state: Path, repo: Path = REPO) -> list[Path]:
    """The folders above the repository to open to the users' servers; refuse what cannot be.

    The users' servers run this environment's Python and read the repository (rejlab, which
    the environment installs in place, and ``classroom/``) and the state folder. A folder
    *above* the repository that other users cannot enter (a clone in a closed workspace, as
    CI makes) is opened to the hub's processes only, in the hub's own mount namespace: each
    such folder is shown there with only the way to the repository in it
    (:func:`opening_commands`), so the rest of it stays closed. Anything else closed on the
    way -- the Python's own installation, the repository itself, a folder of the environment
    or the state folder below it -- is refused, naming it.
    """
    python = Path(sys.executable).resolve()
    openable = set(repo.parents)
    for path in (python, Path(sys.base_prefix).resolve()):
        if closed := all_closed(path):
            raise CannotStart(f"the hub's Python ({python}, in {sys.prefix}) is under {closed[0]}, "
                              "which other users cannot enter, so their servers could not run "
                              "it: make the hub's environment with a Python they can run (rm -rf "
                              ".venv-hub; make classroom HUB_PYTHON=/usr/bin/python3)")
    opened: list[Path] = []
    for path, what in ((Path(sys.prefix), f"the hub's environment ({sys.prefix})"),
                       (repo, f"the repository ({repo})"),
                       (state, f"the state folder ({state})")):
        for closed in all_closed(path):
            if closed not in openable:
                if path == state:
                    raise CannotStart(f"{closed} is closed to other users, so the students' "
                                      f"servers could not reach their homes in {state}: give "
                                      "--state a folder every user can enter (e.g. "
                                      "/srv/rejlab-classroom)")
                raise CannotStart(f"{closed} is closed to other users, so their servers could "
                                  f"not read {what}: let other users enter it (chmod o+x "
                                  f"{closed}), or clone the repository where they can")
            if closed not in opened:
                opened.append(closed)
    if opened and shutil.which("unshare") is None:
        raise CannotStart(f"{opened[0]} is closed to other users, and without unshare "
                          "(util-linux) the hub cannot open the way to the repository to its "
                          f"servers: install util-linux, or clone the repository where other "
                          "users can enter")
    return sorted(opened, key=lambda p: len(p.parts))


def opening_commands(opened: list[Path], stand_ins: Path, repo: Path = REPO) -> list[list[str]]:
    """The ``mount`` commands that, in the hub's own mount namespace, open ``opened``.

    Each closed folder ``C`` is covered by a stand-in folder (mode 0755, in ``stand_ins``,
    which the caller makes and removes) holding one entry, the next folder on the way to the
    repository, bound there from ``C``: its other entries are not shown. The innermost first,
    so that an outer folder's stand-in carries the inner one's (``--rbind``).
    """
    commands = []
    for n, closed in enumerate(sorted(opened, key=lambda p: len(p.parts), reverse=True)):
        step = repo.relative_to(closed).parts[0]
        stand_in = stand_ins / str(n)
        (stand_in / step).mkdir(parents=True)
        stand_in.chmod(0o755)
        (stand_in / step).chmod(0o755)
        commands += [["mount", "--rbind", str(closed / step), str(stand_in / step)],
                     ["mount", "--rbind", str(stand_in), str(closed)]]
    return commands


def in_own_namespace(command: list[str], mounts: list[list[str]]) -> list[str]:
    """``command``, run after ``mounts`` in a mount namespace of its own (none: unchanged)."""
    if not mounts:
        return command
    script = "".join(f"{shlex.join(m)} && " for m in mounts) + 'exec "$@"'
    return ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c", script,
            "sh", *command]


# --------------------------------------------------------------------------
# Memory per user, from the deployment's values

def memory_settings(values: Path = HERE / "z2jh-values.yaml") -> dict[str, dict[str, str]]:
    """Each role's memory limit and guarantee: the students' (``singleuser.memory``), the instructor's.

    The instructor's override (``custom.rejlab.instructorMemory``) is what the
    values file's hook gives the teaching staff on Kubernetes: room to grade.
    """
    import yaml

    values = yaml.safe_load(values.read_text(encoding="utf-8"))
    roles = {"student": values["singleuser"]["memory"],
             "instructor": values["custom"]["rejlab"]["instructorMemory"]}
    return {role: {"limit": str(memory["limit"]), "guarantee": str(memory["guarantee"])}
            for role, memory in roles.items()}


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
    stand_ins: Path | None = None
    users: dict[str, accounts.Account] = {}
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
        if os.geteuid() != 0:
            raise CannotStart("each user's server runs as a system user of its own, which only "
                              "root can make and start: run it as root (sudo make classroom)")
        students = [s.strip() for s in args.students.split(",") if s.strip()]
        bad = [s for s in students if not re.fullmatch(NAME, s) or s == INSTRUCTOR]
        if not students or bad:
            raise CannotStart(f"--students must be comma-separated lower-case names of at most "
                              f"{NAME_MAX} characters other than {INSTRUCTOR!r}, "
                              f"got {args.students!r}")
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
        opened = reachable(state)
        for sub, mode in (("", 0o755), ("hub", 0o700), ("home", 0o755)):
            (state / sub).mkdir(parents=True, exist_ok=True)
            (state / sub).chmod(mode)
        source = args.course_source.resolve() if args.course_source else None
        try:
            git_repo, description = course_repository.publish_course(source, state)
        except course_repository.CourseError as exc:
            raise CannotStart(str(exc)) from None
        # Ctrl-C waits until every user is made and known, so none is left behind
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        try:
            users = accounts.make([INSTRUCTOR, *students], accounts.user_prefix(state),
                                  state / "home", made=users)
            accounts.give_back(users, state / "hub" / "users.json", state / "exchange")
        except accounts.AccountError as exc:
            raise CannotStart(str(exc)) from None
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
        course = setup_nbgrader(state, students, users)
        for role in ("instructor", "student"):
            role_config(state / "etc" / "jupyter" / role, instructor=role == "instructor")
        for account in users.values():
            prepare_home(account)
        memory = memory_settings()
        path, bwrap = server_path()
        password = args.password or secrets.token_urlsafe(9)
        token = secrets.token_hex(32)
        base = f"http://127.0.0.1:{ports['public']}"
        settings = {
            "ports": ports, "state": str(state), "proxy_command": str(chp),
            "password": password, "service_token": token, "instructor": INSTRUCTOR,
            "students": students, "memory": memory,
            "system_users": {name: a.system for name, a in users.items()},
            "config_dir": str(state / "etc" / "jupyter"),
            "git_config": str(course_repository.git_config(state, git_repo)),
            "singleuser": str(Path(sys.executable).with_name("jupyterhub-singleuser")),
            "path": path,
        }
        settings_file = state / "hub" / "settings.json"
        settings_file.touch(mode=0o600)
        _write_json(settings_file, settings)
        env = dict(os.environ, REJLAB_CLASSROOM_SETTINGS=str(settings_file))
        log = state / "hub.log"
        log.touch(mode=0o600)
        mounts = []
        if opened:              # the way to the repository, open in the hub's namespace only
            stand_ins = Path(tempfile.mkdtemp(prefix="rejlab-classroom-open-"))
            mounts = opening_commands(opened, stand_ins)
        with open(log, "ab") as out:
            proc = subprocess.Popen(
                in_own_namespace([sys.executable, "-m", "jupyterhub", "-f",
                                  str(HERE / "jupyterhub_config.py")], mounts),
                cwd=state / "hub", env=env, stdout=out, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True)
        version = wait_ready(proc, base, token, log)
        known = descendants(proc.pid)
        link = course_repository.pull_link(base, git_repo)
        info = {"url": f"{base}/", "hub_version": version, "password": password,
                "instructor": INSTRUCTOR, "students": students, "link": link,
                "system_users": settings["system_users"],
                "course_source": description, "course_repository": str(git_repo),
                "course_folder": str(course), "exchange": str(state / "exchange"),
                "course_id": COURSE_ID, "memory": memory, "hub_pid": proc.pid,
                "service_token": token, "log": str(log), "state": str(state),
                "server_path": path, "bwrap": bwrap,
                "opened": [str(folder) for folder in opened]}
        ready = state / "classroom.json"
        with tempfile.NamedTemporaryFile("w", dir=state, delete=False, suffix=".tmp") as tmp:
            json.dump(info, tmp, indent=2)
        os.chmod(tmp.name, 0o600)
        os.replace(tmp.name, ready)            # whole or not at all: the ready signal
        said = settings["system_users"]
        say(f"rejlab classroom: JupyterHub {version} at {base}/ (this machine only)")
        say(f"  accounts, all with the password {password}, each its own system user "
            "(removed at stop):")
        say(f"    {INSTRUCTOR:12s} the instructor ({said[INSTRUCTOR]}): Nbgrader menu -> "
            "Formgrader; course folder and gradebook ~/course, closed to the students")
        say(f"    {', '.join(students):12s} students ({', '.join(said[s] for s in students)}): "
            "Nbgrader menu -> Assignment List")
        say("  the course link (a student opens it once logged in: the first visit clones the "
            "course into ~/rejlab, later ones merge updates):")
        say(f"    {link}")
        say(f"  course source: {description}")
        say(f"  nbgrader: course_id {COURSE_ID}, exchange {state / 'exchange'} (a student reads "
            "no other's submission; collect records no time earlier than a submission's last "
            "change)")
        if bwrap:
            say(f"  grading: the Formgrader's Autograde runs each submission in a bubblewrap "
                f"sandbox ({bwrap}, on the servers' PATH), as the instructor's user")
        else:
            say("  grading: bubblewrap is not installed, so the Formgrader's Autograde refuses "
                "to grade (apt-get install bubblewrap, then start the classroom again)")
        say(f"  memory: each student limit {memory['student']['limit']}, guarantee "
            f"{memory['student']['guarantee']}; the instructor limit "
            f"{memory['instructor']['limit']}, guarantee {memory['instructor']['guarantee']} "
            "(grading); passed to each server (MEM_LIMIT, MEM_GUARANTEE) and shown in the "
            "lab's status bar; this local spawner does not enforce them (Kubernetes does: "
            "classroom/z2jh-values.yaml)")
        say(f"  state (homes, exchange, gradebook, hub database): {state}; hub log: {log}")
        if opened:
            say(f"  {', '.join(map(str, opened))}: closed to other users, shown to the hub's "
                "servers (in its own mount namespace) with only the way to the repository")
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
        return 0
    finally:
        # whatever ended the launcher: no process of the users, and no user, left behind
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        for line in accounts.remove(users):
            print(f"classroom: {line}", file=sys.stderr)
        if stand_ins is not None:        # empty folders outside the namespace: rmdir, never rm -r
            for folder in sorted(stand_ins.rglob("*"), key=lambda p: len(p.parts), reverse=True):
                with contextlib.suppress(OSError):
                    folder.rmdir()
            with contextlib.suppress(OSError):
                stand_ins.rmdir()
        if stopping:
            say("classroom stopped: nothing left running")


if __name__ == "__main__":
    sys.exit(main())
