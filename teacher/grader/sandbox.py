"""The sandbox: one submission's code in its own process, behind bubblewrap.

:func:`run` starts ``bwrap`` (https://github.com/containers/bubblewrap) with

- its own PID, network, IPC and UTS namespaces: no network, and neither ``kill -9 -1`` nor
  ``os.kill(os.getppid(), 9)`` reaches a process outside; ``--die-with-parent`` and
  ``--new-session`` (no typing into the grader's terminal);
- a root of its own, read-only, holding read-only binds of what Python needs and nothing
  else: ``/usr``, the interpreter's prefix, the grading environment's site-packages and,
  when the question allows it, rejlab's package folder; a package a question forbids is
  replaced by one that refuses to import. No course folder, gradebook, grader, other
  student or other assignment is in it, and nothing is bound from a path under the course;
- one writable folder, ``/work``, a memory file system of ``disk_mb``: a submission that
  fills it fills only its own;
- the runner (``runner.py``) and the job on its standard input, answers back on a pipe.

When the grader runs as root, the runner drops to an unprivileged uid of its own before any
student code runs (one uid per concurrent sandbox, so ``RLIMIT_NPROC`` bounds a fork loop
per sandbox); otherwise bwrap maps the grader's own uid into a user namespace, where the
process limit counts that sandbox's processes only. Limits on CPU seconds, address space,
processes, file size and open files are set by the runner; this side enforces the wall time
(the whole sandbox is killed) and caps the bytes it reads back. Without ``bwrap`` on the
PATH, :func:`run` refuses (:class:`SandboxUnavailable`): student code never runs outside it.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path

import rejlab

from .answers import parse_report

RUNNER = Path(__file__).with_name("runner.py")
#: The first uid of the sandboxes when the grader runs as root (one per concurrent sandbox).
UID_BASE = int(os.environ.get("REJLAB_SANDBOX_UID_BASE", "2100000000"))
#: How many sandboxes may run at once on this machine (uid slots).
SLOTS = 64
#: What a forbidden package's ``__init__.py`` becomes inside the sandbox.
REFUSED = 'raise ImportError("{name} is not available in this question: write it yourself")\n'


class SandboxUnavailable(RuntimeError):
    """The sandbox cannot run here (no bwrap, or bwrap cannot create its namespaces)."""


@dataclass(frozen=True)
class Limits:
    """What one sandbox may use. ``cell_seconds`` is the successor of nbgrader's
    ``Execute.timeout``, counted in CPU seconds (a loaded machine slows an honest cell's clock,
    not its CPU time): a cell past it stops with an error and the next one runs.
    ``wall_seconds`` stops the whole run, whatever it does (sleeping included)."""

    cell_seconds: float = 30
    wall_seconds: float = 300
    cpu_seconds: int = 300
    memory_mb: int = 3072
    processes: int = 64
    file_mb: int = 32
    disk_mb: int = 64
    open_files: int = 256
    output_chars: int = 20_000          # per cell, kept by the runner
    stream_bytes: int = 1_000_000       # written past the runner's capture (os.write(1, ...))
    answer_chars: int = 2_000_000       # per exported answer
    channel_bytes: int = 40_000_000     # the whole report

    def for_runner(self) -> dict:
        return {"cell_seconds": self.cell_seconds, "cpu_seconds": self.cpu_seconds,
                "memory_bytes": self.memory_mb << 20, "processes": self.processes,
                "file_bytes": self.file_mb << 20, "open_files": self.open_files,
                "core_bytes": 0, "output_chars": self.output_chars,
                "answer_chars": self.answer_chars}


@dataclass(frozen=True)
class Job:
    """What one sandbox runs: code cells in order (``{"key", "source"}``), names put in the
    namespace first (``given``, plain data), answers to export (name -> expression), function
    calls on the grader's inputs, and whether rejlab is there (``hide`` lists the packages
    that refuse to import)."""

    cells: tuple
    student: str
    given: dict = field(default_factory=dict)
    exports: dict = field(default_factory=dict)
    calls: tuple = ()
    rejlab: bool = True
    hide: tuple = ()

    def payload(self, limits: Limits) -> dict:
        data = asdict(self)
        data["limits"] = limits.for_runner()
        return data


@dataclass
class Outcome:
    """What came back: the cells' records, the answers (None when the run ended before them)
    and, when the run ended early, why, in one sentence for the student's feedback."""

    cells: list
    answers: dict | None
    reason: str | None = None
    stream: str = ""
    cpu_seconds: float | None = None

    def to_json(self) -> dict:
        return asdict(self)


def bwrap() -> str:
    """The path of ``bwrap``, or :class:`SandboxUnavailable` saying how to install it."""
    path = shutil.which("bwrap")
    if path is None:
        raise SandboxUnavailable("grading needs bubblewrap (bwrap) to run student code in a "
                                 "sandbox: apt-get install bubblewrap (it never runs it without)")
    return path


def _site_paths() -> list:
    paths = []
    for key in ("purelib", "platlib"):
        path = Path(sysconfig.get_paths()[key]).resolve()
        if path not in paths:
            paths.append(path)
    return paths


def _memfd(name: str, text: str) -> int:
    fd = os.memfd_create(name, 0)
    os.write(fd, text.encode("utf-8"))
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _dirs(path: Path) -> list:
    """bwrap arguments that create ``path``'s parents traversable by the sandbox's user."""
    args = []
    for parent in reversed(path.parents[:-1]):
        args += ["--perms", "0755", "--dir", str(parent)]
    return args


class _Slot:
    """An unprivileged uid for one sandbox, held with a lock file while it runs."""

    def __init__(self):
        folder = Path(tempfile.gettempdir()) / "rejlab-sandbox-slots"
        folder.mkdir(mode=0o700, exist_ok=True)
        for n in range(SLOTS):
            handle = open(folder / f"{n}.lock", "w")
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                handle.close()
                continue
            self.handle, self.uid = handle, UID_BASE + n
            return
        raise SandboxUnavailable(f"more than {SLOTS} sandboxes at once on this machine")

    def release(self):
        self.handle.close()


def command(job: Job, limits: Limits, fds: list, root: bool) -> tuple:
    """(the bwrap command line for ``job``, the import paths inside); the file descriptors
    bwrap reads are appended to ``fds``."""
    prefix = Path(sys.base_prefix).resolve()
    python = Path(sys.executable).resolve()
    if not python.is_relative_to(prefix):
        python = prefix / "bin" / python.name
    args = [bwrap(), "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--die-with-parent", "--new-session"]
    if not root:
        args += ["--unshare-user"]
    args += ["--ro-bind", "/usr", "/usr"]
    for link in ("lib", "lib64", "bin", "sbin"):
        if Path("/usr", link).exists():
            args += ["--symlink", f"usr/{link}", f"/{link}"]
    if not prefix.is_relative_to("/usr"):
        args += _dirs(prefix) + ["--ro-bind", str(prefix), str(prefix)]
    paths = []
    args += ["--perms", "0755", "--dir", "/sandbox"]
    for n, site in enumerate(_site_paths()):
        inside = f"/sandbox/site{n}"
        args += ["--ro-bind", str(site), inside]
        paths.append(inside)
        for name in job.hide:
            if (site / name / "__init__.py").exists():
                fd = _memfd(name, REFUSED.format(name=name))
                fds.append(fd)
                args += ["--perms", "0444", "--ro-bind-data", str(fd),
                         f"{inside}/{name}/__init__.py"]
    if job.rejlab:
        args += ["--perms", "0755", "--dir", "/sandbox/lib",
                 "--ro-bind", str(Path(rejlab.__file__).resolve().parent), "/sandbox/lib/rejlab"]
        paths.insert(0, "/sandbox/lib")
    runner = _memfd("runner", RUNNER.read_text(encoding="utf-8"))
    fds.append(runner)
    args += ["--perms", "0444", "--ro-bind-data", str(runner), "/sandbox/runner.py",
             "--proc", "/proc", "--dev", "/dev",
             "--perms", "1777", "--size", str(limits.disk_mb << 20), "--tmpfs", "/work",
             "--remount-ro", "/", "--chdir", "/work", "--clearenv"]
    env = {"HOME": "/work", "TMPDIR": "/work", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
           "MPLBACKEND": "Agg", "MPLCONFIGDIR": "/work/.matplotlib", "OMP_NUM_THREADS": "1",
           "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "REJLAB_STUDENT": job.student,
           # no /dev/shm in the sandbox: joblib would warn in every notebook that it runs serially
           "JOBLIB_MULTIPROCESSING": "0",
           "REJLAB_SANDBOX_PATHS": os.pathsep.join(paths)}
    for key, value in env.items():
        args += ["--setenv", key, value]
    if root:
        args += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    args += ["--", str(python), "-I", "-S", "-B", "/sandbox/runner.py"]
    return args, paths


def _drain(stream, cap, sink, on_overflow):
    """Read ``stream`` to its end, keeping at most ``cap`` bytes; past it, call ``on_overflow``
    once (the reading goes on, so the writer never blocks on a full pipe)."""
    kept = 0
    overflowed = False
    while True:
        chunk = stream.read(65536)
        if not chunk:
            return
        if kept < cap:
            sink.append(chunk[:cap - kept])
        kept += len(chunk)
        if kept > cap and not overflowed:
            overflowed = True
            on_overflow()


def run(job: Job, limits: Limits = Limits()) -> Outcome:
    """Run ``job`` in a fresh sandbox; never raises for anything the student's code does."""
    root = os.geteuid() == 0
    fds: list = []
    slot = _Slot() if root else None
    read_end, write_end = os.pipe()
    try:
        args, paths = command(job, limits, fds, root)
        payload = job.payload(limits)
        payload["paths"] = paths
        # the runner writes its report on the pipe's write end, which bwrap passes through
        args += ["--channel", str(write_end)]
        if root:
            args += ["--uid", str(slot.uid), "--gid", str(slot.uid)]
        process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, pass_fds=(*fds, write_end),
                                   start_new_session=True)
        os.close(write_end)
        write_end = -1
        stopped = []

        def stop(why):
            if not stopped:
                stopped.append(why)
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

        stream, report = [], []
        threads = [
            threading.Thread(target=_drain, daemon=True, args=(
                process.stdout, limits.stream_bytes, stream,
                lambda: stop(f"it wrote more than {limits.stream_bytes} bytes of output past "
                             "the notebook's cells and was stopped"))),
            threading.Thread(target=_drain, daemon=True, args=(
                os.fdopen(read_end, "rb", closefd=True), limits.channel_bytes, report,
                lambda: stop(f"it sent more than {limits.channel_bytes} bytes of answers and "
                             "was stopped"))),
        ]
        read_end = -1
        for thread in threads:
            thread.start()
        try:
            process.stdin.write(json.dumps(payload, allow_nan=False).encode("utf-8"))
            process.stdin.close()
        except BrokenPipeError:
            pass
        try:
            process.wait(timeout=limits.wall_seconds)
        except subprocess.TimeoutExpired:
            stop(f"it ran past the notebook's time limit ({limits.wall_seconds:g} s) and was "
                 "stopped")
            process.wait()
        for thread in threads:
            thread.join()
    finally:
        for fd in fds + [read_end, write_end]:
            if fd >= 0:
                os.close(fd)
        if slot is not None:
            slot.release()
    return _outcome(process.returncode, b"".join(stream), b"".join(report),
                    stopped[0] if stopped else None, limits)


#: Signals a sandbox can end with, and what they mean for the student.
SIGNALS = {signal.SIGXCPU: "it used up its CPU time ({cpu} s) and was stopped",
           signal.SIGKILL: "it was killed (past its memory or CPU time)",
           signal.SIGXFSZ: "it wrote a file larger than its limit and was stopped"}


def _outcome(returncode, stream, report, stopped, limits) -> Outcome:
    text = stream.decode("utf-8", errors="replace")
    if not report and text.startswith("bwrap:"):
        # the sandbox itself did not start: the machine's fault, never the student's
        raise SandboxUnavailable(f"the sandbox did not start: {text.strip().splitlines()[0]}")
    cells, answers, problem, cpu = parse_report(report)
    reason = stopped or problem
    if reason is None and returncode != 0:
        if returncode > 128:
            number = returncode - 128
            try:
                name = signal.Signals(number).name
            except ValueError:
                name = f"signal {number}"
            reason = SIGNALS.get(number, "it crashed the interpreter ({name})").format(
                cpu=limits.cpu_seconds, name=name)
        else:
            reason = f"it ended its own process (exit status {returncode})"
    if reason is None and answers is None:
        reason = "it ended its own process before the answers were read"
    if reason is not None and answers is None:
        where = len(cells) + 1
        reason += f", in or after code cell {where}" if where > 1 else ""
    return Outcome(cells, answers, reason, text[:4000], cpu)
