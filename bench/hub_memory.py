"""Benchmark: a student's server on the classroom hub after a session, the instructor's while grading.

Run by hand, as root (the hub makes system users), with the hub's environment made
(``make .venv-hub/.hub``; ``make classroom`` and ``make test`` make it)::

    .venv/bin/python bench/hub_memory.py [--lessons A,B] [--homework NAME] [--save classroom/hub_memory.json]

It starts ``make classroom``'s launcher (``classroom/hub.py``, on 127.0.0.1)
and drives it in headless Chromium as a class does, the way
``tests/test_classroom.py``'s end-to-end test does (its helpers): the
instructor releases the homework in the Formgrader; a student follows the
course's nbgitpuller link, which opens lesson 00 in her lab, and runs it; she
opens two more lessons and runs each (default: the two heaviest of
``classroom/kernel_memory.json``); she fetches the homework (default: the
capstone, the heaviest), her answers are written into it (the teacher's
solutions), she runs it and submits it. After each step it reads, for every
process of her system user, the resident memory (``VmRSS``) and its peak
(``VmHWM``): her server and one kernel per notebook, each kernel named after
its notebook (her server's sessions), and what her lab's status bar shows
(jupyter-resource-usage: the resident memory of the server and its kernels,
summed). Then the instructor collects and autogrades her submission in the
Formgrader while the resident memory of all the instructor's processes
(server, nbgrader, the grading kernel) is sampled every 0.1 s: its peak.

Memory here is resident memory, summed over processes: what the status bar
shows, and no less than what Kubernetes charges a container (where memory
that several of one student's processes share, the libraries, counts once).

``--save FILE`` writes the figures as JSON (``classroom/hub_memory.json`` is
the copy that ``classroom/z2jh-values.yaml``, the guide's sizing and
``tests/test_z2jh_values.py`` follow). Linux only (it reads ``/proc``).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import pwd
import re
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MIB = 1024.0 * 1024.0
PAGE_MS = 300_000           # a busy machine: a lesson that fits models runs for a while


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _status_mib(pid: int, field: str) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024 / MIB
    return 0.0


def _processes(uid: int) -> list:
    import psutil

    return [p for p in psutil.process_iter(["uids", "cmdline"])
            if p.info["uids"] is not None and p.info["uids"].real == uid]


def snapshot(uid: int, sessions: list[dict]) -> dict:
    """A user's server and kernels now: resident and peak MiB, kernels by notebook."""
    import psutil

    notebook = {s["kernel"]["id"]: Path(s["path"]).stem for s in sessions if s.get("kernel")}
    server, kernels, other = None, {}, 0.0
    for process in _processes(uid):
        try:
            command = " ".join(process.info["cmdline"] or [])
            figures = {"rss": round(_status_mib(process.pid, "VmRSS"), 1),
                       "peak": round(_status_mib(process.pid, "VmHWM"), 1)}
        except (OSError, psutil.Error):
            continue                       # ended meanwhile
        if "jupyterhub-singleuser" in command:
            server = figures
        elif "ipykernel_launcher" in command:
            kernel = re.search(r"kernel-([0-9a-f-]+)\.json", command)
            kernels[notebook.get(kernel.group(1) if kernel else "", "other")] = figures
        else:
            other += figures["rss"]
    return {"server": server, "kernels": kernels, "other_rss": round(other, 1)}


class PeakSampler(threading.Thread):
    """The highest resident memory, summed over a user's processes, sampled every 0.1 s."""

    def __init__(self, uid: int):
        super().__init__(daemon=True)
        self.uid, self.peak, self.done = uid, 0.0, threading.Event()

    def run(self):
        while not self.done.wait(0.1):
            total = 0.0
            for process in _processes(self.uid):
                try:
                    total += _status_mib(process.pid, "VmRSS")
                except OSError:
                    pass
            self.peak = max(self.peak, total)


VERSIONS = """
import json, platform
from importlib.metadata import PackageNotFoundError, version
found = {"python": platform.python_version()}
for name in ("jupyterhub", "jupyterlab", "jupyter-server", "nbgrader", "nbgitpuller",
             "jupyter-resource-usage", "ipykernel", "numpy", "matplotlib", "scikit-learn"):
    try:
        found[name] = version(name)
    except PackageNotFoundError:
        pass
print(json.dumps(found))
"""


def _versions(python: str) -> dict[str, str]:
    """The versions in the hub's environment (``python``'s), where the servers and kernels ran."""
    done = subprocess.run([python, "-c", VERSIONS], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def heaviest_lessons(count: int = 2) -> list[str]:
    peaks = json.loads((ROOT / "classroom" / "kernel_memory.json").read_text())["kernel_peak_mib"]
    others = sorted((p, stem) for stem, p in peaks.items() if not stem.startswith("00_"))
    return [stem for _, stem in others[-count:]]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lessons", default=",".join(heaviest_lessons()),
                        help="the two lessons opened after the link's (default: the heaviest two "
                             "of classroom/kernel_memory.json)")
    parser.add_argument("--homework", default="capstone_digits", help="the homework fetched and run")
    parser.add_argument("--save", type=Path, help="write the figures to this JSON file")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        print("hub_memory: the classroom makes system users: run it as root", file=sys.stderr)
        return 2
    classroom = _load("test_classroom", ROOT / "tests" / "test_classroom.py")
    browser_helpers = _load("browser_helpers", ROOT / "tests" / "test_browser.py")
    from playwright.sync_api import expect, sync_playwright

    lessons = [name.strip() for name in args.lessons.split(",") if name.strip()]
    homework = args.homework
    source = ROOT / "teacher" / "source" / homework / f"{homework}.ipynb"
    steps, figures = [], {}
    with tempfile.TemporaryDirectory() as tmp, \
            classroom.running_classroom(Path(tmp)) as (_proc, info, _out, _copier), \
            sync_playwright() as p:
        base = info["url"].rstrip("/")
        uid = {user: pwd.getpwnam(name).pw_uid for user, name in info["system_users"].items()}
        for user in ("instructor", "alice"):     # lets the bench reach window.jupyterapp
            config = Path(info["state"]) / "home" / user / ".jupyter" / "jupyter_server_config.json"
            config.write_text(json.dumps({"LabApp": {"expose_app_in_browser": True}}))
            os.chown(config, uid[user], uid[user])
        browser = browser_helpers._launch_chromium(p)
        pages = {}
        for user in ("instructor", "alice"):
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            context.set_default_timeout(PAGE_MS)
            pages[user] = context.new_page()
        teacher, alice = pages["instructor"], pages["alice"]

        def measure(after: str) -> None:
            sessions = alice.request.get(f"{base}/user/alice/api/sessions").json()
            shot = snapshot(uid["alice"], sessions)
            bar = alice.request.get(f"{base}/user/alice/api/metrics/v1").json()["rss"] / MIB
            shot.update(after=after, status_bar_mib=round(bar, 1))
            steps.append(shot)
            kernels = ", ".join(f"{k} {v['rss']:.0f}" for k, v in shot["kernels"].items())
            print(f"{after:45s} server {shot['server']['rss']:6.1f} MiB, kernels: {kernels}; "
                  f"status bar {bar:.1f} MiB", flush=True)

        def run_notebook(path: str) -> None:
            alice.evaluate("path => { window.jupyterapp.commands.execute('docmanager:open', "
                           "{path}); return true; }", path)     # (the widget: not for Python)
            alice.wait_for_function(browser_helpers.OPENED_JS, arg=path, timeout=PAGE_MS,
                                    polling=250)
            alice.wait_for_function(browser_helpers.KERNEL_IDLE_JS, timeout=PAGE_MS, polling=250)
            assert alice.evaluate(browser_helpers.RUN_ALL_JS, PAGE_MS) is True
            alice.wait_for_function(browser_helpers.KERNEL_IDLE_JS, timeout=PAGE_MS, polling=250)

        teacher.goto(f"{base}/hub/login")
        classroom._login(teacher, "instructor")
        teacher.wait_for_url(re.compile(r"/user/instructor/lab"))
        classroom._wait_lab(teacher)
        grader = teacher.context.new_page()
        grader.goto(f"{base}/user/instructor/formgrader/manage_assignments")
        grader.locator("td", has_text=homework).first.wait_for()
        classroom._formgrader_click(grader, homework, "assign")
        classroom._formgrader_click(grader, homework, "release")

        alice.goto(info["link"])
        classroom._login(alice, "alice")
        alice.wait_for_url(re.compile(r"/user/alice/lab/tree/rejlab/notebooks/00_"))
        classroom._wait_lab(alice)
        alice.wait_for_function(browser_helpers.KERNEL_IDLE_JS, timeout=PAGE_MS, polling=250)
        measure("the lab open on lesson 00 (the link)")
        assert alice.evaluate(browser_helpers.RUN_ALL_JS, PAGE_MS) is True
        alice.wait_for_function(browser_helpers.KERNEL_IDLE_JS, timeout=PAGE_MS, polling=250)
        measure("lesson 00 run")
        for lesson in lessons:
            run_notebook(f"rejlab/notebooks/{lesson}.ipynb")
            measure(f"lesson {lesson} run")

        alice.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").click()
        alice.locator(".lm-Menu-itemLabel", has_text="Assignment List").click()
        alice.locator("#released_assignments_list").get_by_role("button", name="Fetch").click()
        fetched = alice.locator("#fetched_assignments_list")
        fetched.get_by_role("button", name="Submit").wait_for()
        path = f"{homework}/{homework}.ipynb"
        got = alice.request.get(f"{base}/user/alice/api/contents/{path}").json()
        classroom._save_notebook(alice, path, classroom._solved(got["content"], source))
        run_notebook(path)
        measure(f"homework {homework} run")
        alice.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").click()
        alice.locator(".lm-Menu-itemLabel", has_text="Assignment List").click()
        fetched.get_by_role("button", name="Submit").click()
        expect(alice.locator("#submitted_assignments_list")).to_contain_text(homework,
                                                                           timeout=PAGE_MS)

        idle = sum(_status_mib(pr.pid, "VmRSS") for pr in _processes(uid["instructor"]))
        sampler = PeakSampler(uid["instructor"])
        sampler.start()
        grader.reload()
        grader.locator("td", has_text=homework).first.wait_for()
        classroom._formgrader_click(grader, homework, "collect")
        grader.goto(f"{base}/user/instructor/formgrader/manage_submissions/{homework}")
        grader.locator("td", has_text="alice").first.wait_for()
        classroom._formgrader_click(grader, "alice", "autograde")
        sampler.done.set()
        sampler.join()
        figures["instructor"] = {"before_grading_mib": round(idle, 1),
                                 "grading_peak_mib": round(sampler.peak, 1)}
        print(f"{'the instructor, before grading':45s} {idle:6.1f} MiB")
        print(f"{'the instructor, autograding ' + homework:45s} {sampler.peak:6.1f} MiB at its peak")
        browser.close()

    last = steps[-1]
    figures.update({
        "command": "sudo .venv/bin/python bench/hub_memory.py --save classroom/hub_memory.json",
        "link_lesson": "00_start_here", "lessons": lessons, "homework": homework,
        "server_peak_mib": last["server"]["peak"],
        "kernel_peak_mib": {name: k["peak"] for name, k in last["kernels"].items()},
        "status_bar_after_mib": last["status_bar_mib"],
        "steps": [{"after": s["after"], "server_mib": s["server"]["rss"],
                   "kernels_mib": {name: k["rss"] for name, k in s["kernels"].items()},
                   "status_bar_mib": s["status_bar_mib"]} for s in steps],
        "measured_with": _versions(classroom._hub_python()),
        "machine": f"{os.cpu_count()} cores, Linux",
    })
    print(json.dumps(figures, indent=2))
    if args.save:
        args.save.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        print(f"figures written to {args.save}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
