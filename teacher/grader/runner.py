"""The runner: runs one submission's code cells inside the sandbox and reports plain data.

This file is copied into each sandbox (it is not imported by the grader). It reads one job
from standard input, then:

1. drops to the unprivileged user the grader named (when the sandbox starts as root), and
   sets the resource limits (CPU seconds, address space, processes, file size, open files)
   before any of the student's code runs;
2. runs the job's code cells in order in IPython's ``InteractiveShell``, in this process, so
   that magics (``%time``, ``%timeit``, ``%matplotlib``) behave as in the lab, each cell with
   a limit on the CPU time it uses and its text output captured and truncated (a process the
   cell forks ends when it comes back to the runner);
3. exports the answers the job names, evaluated in the notebook's namespace, and calls the
   function answers on the inputs the grader drew, all as plain JSON (numbers, strings,
   booleans, None, lists; NaN and infinities tagged; arrays flattened with their shape;
   nothing pickled), size-capped.

Results go out as JSON lines on the file descriptor ``--channel`` names, one per cell as it
ends, then the answers: a crash or a kill leaves the grader the cells that finished. The
student's code can of course change anything in this process, this runner included: all it
can change is its own report, which the grader parses strictly and judges against values it
computes itself.
"""

import hashlib
import io
import json
import math
import os
import resource
import signal
import sys

#: Tags of the values JSON cannot hold by itself (the grader's ``answers.py`` reads them).
TAG = "$"


class CellTimeLimit(Exception):
    """A cell ran past its time limit."""


class OutputLimit(Exception):
    """A cell printed more than its output limit."""


class CappedText(io.TextIOBase):
    """A text stream that keeps the first ``cap`` characters; the first write past the cap
    raises :class:`OutputLimit` in the student's code, later ones are dropped."""

    def __init__(self, cap):
        self.cap, self.parts, self.size, self.flooded = cap, [], 0, False

    def writable(self):
        return True

    def write(self, text):
        text = str(text)
        room = self.cap - self.size
        if len(text) <= room:
            self.parts.append(text)
            self.size += len(text)
            return len(text)
        if not self.flooded:
            self.parts.append(text[:max(room, 0)])
            self.size = self.cap
            self.flooded = True
            raise OutputLimit(f"more than {self.cap} characters of output")
        return len(text)

    def text(self):
        return "".join(self.parts) + ("\n[output truncated]" if self.flooded else "")


def plain(value, depth=0):
    """``value`` as JSON-ready plain data (see the module docstring)."""
    if depth > 12:
        return {TAG: "unsupported", "type": "nested too deep"}
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if math.isnan(value):
            return {TAG: "nan"}
        if math.isinf(value):
            return {TAG: "inf" if value > 0 else "-inf"}
        return value
    module = type(value).__module__.split(".")[0]
    if module == "numpy":
        import numpy as np

        if isinstance(value, np.ndarray):
            kind = {"b": "bool", "i": "int", "u": "int", "f": "float"}.get(value.dtype.kind, "object")
            items = value.ravel().tolist() if kind != "object" else list(value.ravel())
            return {TAG: "ndarray", "dtype": kind, "shape": list(value.shape),
                    "data": [plain(v, depth + 1) for v in items]}
        if isinstance(value, np.generic):
            return plain(value.item(), depth + 1)
    if isinstance(value, (list, tuple)):
        return [plain(v, depth + 1) for v in value]
    if isinstance(value, (set, frozenset)):
        items = [plain(v, depth + 1) for v in value]
        return {TAG: "set", "items": sorted(items, key=lambda v: json.dumps(v, sort_keys=True))}
    if isinstance(value, dict):
        return {TAG: "dict", "items": {str(k): plain(v, depth + 1) for k, v in value.items()}}
    return {TAG: "unsupported", "type": type(value).__name__[:80]}


def unplain(value):
    """The grader's inputs (plain data) as Python values: tagged sets, dicts and arrays."""
    if isinstance(value, list):
        return [unplain(v) for v in value]
    if not isinstance(value, dict):
        return value
    tag = value.get(TAG)
    if tag in ("nan", "inf", "-inf"):
        return float(tag)
    if tag == "set":
        return {unplain(v) for v in value["items"]}
    if tag == "dict":
        return {k: unplain(v) for k, v in value["items"].items()}
    if tag == "tuple":
        return tuple(unplain(v) for v in value["items"])
    if tag == "ndarray":
        import numpy as np

        data = [unplain(v) for v in value["data"]]
        return np.asarray(data, dtype=value["dtype"]).reshape(value["shape"])
    raise ValueError(f"unknown input tag {tag!r}")


def digest(value):
    """A fingerprint of an array's numbers (SHA-256 of them as float64), for answers too big
    to send whole; the grader takes the same fingerprint of its own array."""
    import numpy as np

    array = np.ascontiguousarray(np.asarray(value, dtype=float))
    return {"shape": list(array.shape), "sha256": hashlib.sha256(array.tobytes()).hexdigest()}


def set_limits(limits):
    """Lower this process's limits (and its children's) for good: soft and hard alike."""
    for name, key in (("RLIMIT_CPU", "cpu_seconds"), ("RLIMIT_AS", "memory_bytes"),
                      ("RLIMIT_NPROC", "processes"), ("RLIMIT_FSIZE", "file_bytes"),
                      ("RLIMIT_NOFILE", "open_files"), ("RLIMIT_CORE", "core_bytes")):
        if key in limits:
            value = int(limits[key])
            # the CPU limit's hard value one second later: SIGXCPU first, then SIGKILL
            hard = value + 1 if name == "RLIMIT_CPU" else value
            resource.setrlimit(getattr(resource, name), (value, hard))


def drop_privileges(uid, gid):
    """Become ``uid``/``gid`` with no supplementary groups; from root that also drops every
    capability, for good."""
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
    if os.getuid() != uid or os.geteuid() != uid:
        raise SystemExit("the sandbox could not drop its privileges")


def _alarm(signum, frame):
    raise CellTimeLimit("the cell used up its CPU time")


class Runner:
    def __init__(self, job, channel):
        from IPython.core.interactiveshell import InteractiveShell
        from traitlets.config import Config

        config = Config()
        # no history thread: a thread's lock copied into a forked child could hang it
        config.HistoryManager.enabled = False
        config.InteractiveShell.colors = "NoColor"
        config.InteractiveShell.xmode = "Context"
        self.shell = InteractiveShell.instance(config=config)
        self.job, self.channel = job, channel
        self.limits = job.get("limits", {})
        self.pid = os.getpid()

    def send(self, record):
        self.channel.write(json.dumps(record, allow_nan=False) + "\n")
        self.channel.flush()

    def leave_if_forked(self):
        """A process the student's code forked ends here, rather than run the notebook on."""
        if os.getpid() != self.pid:
            os._exit(0)

    def captured(self, call):
        """Run ``call()`` with its output captured and its time limited; (result, text, error)."""
        stream = CappedText(int(self.limits.get("output_chars", 20000)))
        saved = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = stream
        # the cell's limit counts the CPU time it uses, not the wall clock: a busy machine
        # must not stop an honest cell (the sandbox's wall time limit stops a sleeping one)
        signal.signal(signal.SIGPROF, _alarm)
        signal.setitimer(signal.ITIMER_PROF, float(self.limits.get("cell_seconds", 30)))
        result = error = None
        try:
            result = call()
        except BaseException as exc:          # noqa: BLE001 (any failure is the student's)
            error = exc
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            sys.stdout, sys.stderr = saved
        self.leave_if_forked()
        return result, stream.text(), error

    def run_cells(self):
        for index, cell in enumerate(self.job["cells"]):
            outcome, text, error = self.captured(
                lambda: self.shell.run_cell(cell["source"], store_history=True))
            if error is None and outcome is not None:
                error = outcome.error_before_exec or outcome.error_in_exec
            self.send({"kind": "cell", "index": index, "key": cell.get("key"), "output": text,
                       "error": None if error is None else _describe(error)})

    def answers(self):
        namespace = self.shell.user_ns
        exports = {}
        for name, expression in self.job.get("exports", {}).items():
            # a copy of the namespace as the globals: comprehensions in an expression see it
            scope = dict(namespace, __digest__=digest)
            value, _, error = self.captured(lambda: eval(expression, scope))  # noqa: S307
            exports[name] = _fitted(value, error, self.limits)
        calls = []
        for call in self.job.get("calls", []):
            def run(call=call):
                function = namespace.get(call["function"])
                if not callable(function):
                    raise NameError(f"{call['function']} is not a function of the notebook")
                kwargs = unplain(call["kwargs"]) if "kwargs" in call else {}
                return function(*unplain(call.get("args", [])), **kwargs)
            value, _, error = self.captured(run)
            calls.append(_fitted(value, error, self.limits))
        self.send({"kind": "answers", "exports": exports, "calls": calls})


def _describe(error):
    text = str(error)
    return (f"{type(error).__name__}: {text}" if text else type(error).__name__)[:500]


def _fitted(value, error, limits):
    """One answer as plain data, or a tagged error when it failed or is too large."""
    if error is not None:
        return {TAG: "error", "message": _describe(error)}
    try:
        data = plain(value)
        size = len(json.dumps(data, allow_nan=False))
    except (TypeError, ValueError, RecursionError, OverflowError) as exc:
        return {TAG: "error", "message": f"could not be exported: {_describe(exc)}"}
    if size > int(limits.get("answer_chars", 2_000_000)):
        return {TAG: "error", "message": f"too large to export ({size} characters)"}
    return data


def main(argv):
    job = json.loads(sys.stdin.buffer.read(50_000_000))
    sys.stdin.close()
    if "--uid" in argv:
        drop_privileges(int(argv[argv.index("--uid") + 1]), int(argv[argv.index("--gid") + 1]))
    channel = os.fdopen(int(argv[argv.index("--channel") + 1]), "w", encoding="utf-8")
    sys.path[:0] = job.get("paths", [])
    runner = Runner(job, channel)
    runner.shell.user_ns.update({name: unplain(v) for name, v in job.get("given", {}).items()})
    set_limits(runner.limits)
    runner.run_cells()
    runner.answers()
    # the CPU time the run used, for the grader's own measurements (bench/autograde_60.py)
    used = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    runner.send({"kind": "end", "cpu_seconds": sum(u.ru_utime + u.ru_stime for u in used)})


if __name__ == "__main__":
    main(sys.argv[1:])
