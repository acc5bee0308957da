"""A real browser opens the four-subsets lesson and moves its ``r`` slider.

JupyterLab runs headless on 127.0.0.1 (random free port, random token, private
settings and workspaces), Debian's Chromium is driven by Playwright through its
executable path, and the test presses ArrowRight on the slider as a person
would. It then checks that the readout printed on the page shows the measures
rejlab computes for the new ``r``, that the figure is a rendered image (not a
"Loading widget..." placeholder), and saves a screenshot under ``tmp_path``.

Select it with ``pytest -m browser``; it needs ``/usr/bin/chromium``
(``apt-get install chromium``; override the path with ``REJLAB_CHROMIUM``).
Every wait is bounded; the server is shut down however the test ends.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import rejlab as rl

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[1]
NOTEBOOK = "02_four_subsets_and_measures.ipynb"
CHROMIUM = os.environ.get("REJLAB_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
    # The machine has no network: keep Chromium from trying to reach Google.
    "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]
SERVER_START_S = 90      # JupyterLab usually answers in ~4 s
KERNEL_IDLE_MS = 90_000  # kernel start + first idle
WIDGET_MS = 60_000       # run-all-cells until the explorer is on the page
UPDATE_MS = 30_000       # one slider move until the readout follows
ARROW_PRESSES = 5        # step 0.01: 0.20 -> 0.25

# Explorer contract (lesson 02): rl.widgets.four_subsets_explorer() defaults.
N_PER_CLASS, SEED, R0, STEP = 150, 0, 0.2, 0.01
READOUT_FIELDS = ("r", "A", "Q", "φ", "A∩N", "M∩N", "A∩R", "M∩R")

# Silence the "Would you like to receive official Jupyter news?" toast.
NOTIFICATION_SETTINGS = {"fetchNews": "false", "checkForUpdates": False}


# --------------------------------------------------------------------------
# What rejlab says the readout must show (computed here, not copied).

def _fmt(x: float) -> str:
    """The readout's number format: 3 decimals, NaN and inf spelled out."""
    if math.isnan(x):
        return "undefined (NaN)"
    if math.isinf(x):
        return "∞" if x > 0 else "-∞"
    return f"{x:.3f}"


def expected_readout(r: float) -> dict[str, str]:
    """Readout fields for rejection fraction ``r`` on the lesson's data."""
    _, y, proba = rl.datasets.four_gaussians(N_PER_CLASS, seed=SEED)
    accurate = rl.accuracy_vector(y, proba.argmax(1))
    rejected = rl.reject_lowest(rl.max_probability(proba), fraction=r)
    op = rl.operating_point(accurate, rejected)
    an, mn, ar, mr = op.counts
    return {"r": _fmt(op.r), "A": _fmt(op.A), "Q": _fmt(op.Q), "φ": _fmt(op.phi),
            "A∩N": str(an), "M∩N": str(mn), "A∩R": str(ar), "M∩R": str(mr)}


def parse_readout(text: str) -> dict[str, str]:
    """``"r = 0.200 | A = 0.812 | ..."`` -> ``{"r": "0.200", "A": "0.812", ...}``."""
    fields = {}
    for part in text.split("|"):
        name, sep, value = part.partition("=")
        if sep:
            fields[name.strip()] = value.strip()
    return fields


def test_expected_readout_follows_the_slider_setting():
    """Guard for the browser test's oracle: moving r must change the readout."""
    before, after = expected_readout(R0), expected_readout(R0 + ARROW_PRESSES * STEP)
    assert before != after
    assert after["r"] == "0.250"
    counts = [int(after[k]) for k in ("A∩N", "M∩N", "A∩R", "M∩R")]
    assert sum(counts) == 4 * N_PER_CLASS
    assert int(after["A∩R"]) + int(after["M∩R"]) == round(0.25 * 4 * N_PER_CLASS)
    assert parse_readout("r = 0.200 | φ = ∞ | A∩N = 3") == {"r": "0.200", "φ": "∞", "A∩N": "3"}


# --------------------------------------------------------------------------
# JupyterLab server fixture.

def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _log_tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _stop(proc: subprocess.Popen, base: str, token: str) -> None:
    """Ask the server to shut down (it stops its kernels), then kill its group."""
    if proc.poll() is None:
        try:
            req = urllib.request.Request(f"{base}/api/shutdown?token={token}", method="POST",
                                         data=b"")
            urllib.request.urlopen(req, timeout=5).close()
        except (OSError, urllib.error.URLError):
            pass
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            pass
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        if proc.poll() is not None:
            break
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            pass
    # Stragglers of the group (the server itself has exited by now).
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _copy_log(stream, path, announced):
    """Copy the server's output to ``path``; set ``announced`` when it prints its URL (or ends)."""
    with open(path, "wb") as log:
        for line in iter(stream.readline, b""):
            log.write(line)
            log.flush()
            if b"is running at" in line or b"http://127.0.0.1:" in line:
                announced.set()
    announced.set()


@contextlib.contextmanager
def running_lab(tmp_path: Path, port: int | None = None):
    """JupyterLab on 127.0.0.1:<free port> serving a copy of ``notebooks/``.

    A copy, so that the browser's autosave never writes into the repository.
    Yields ``(base_url, token, root_dir)``; the server is stopped in
    ``finally`` whatever happens. Fails (never hangs) when it does not start.
    """
    source = REPO / "notebooks"
    if not (source / NOTEBOOK).exists():
        pytest.fail(f"lesson notebook missing: {source / NOTEBOOK}")
    root = tmp_path / "course"
    shutil.copytree(source, root / "notebooks",
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints"))

    settings = tmp_path / "lab-user-settings"
    notif = settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    notif.parent.mkdir(parents=True)
    notif.write_text(json.dumps(NOTIFICATION_SETTINGS))
    workspaces = tmp_path / "lab-workspaces"
    workspaces.mkdir()

    port, token = port or _free_port(), secrets.token_hex(16)
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ)
    env.update({
        "JUPYTER_CONFIG_DIR": str(tmp_path / "jupyter-config"),   # ignore ~/.jupyter
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "jupyter-runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(settings),
        "JUPYTERLAB_WORKSPACES_DIR": str(workspaces),
    })
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser",
           "--ip=127.0.0.1", f"--port={port}", "--ServerApp.port_retries=0",
           f"--ServerApp.token={token}", f"--ServerApp.root_dir={root}",
           "--LabApp.expose_app_in_browser=True",
           f"--LabApp.workspaces_dir={workspaces}",
           f"--LabApp.user_settings_dir={settings}",
           "--allow-root"]
    log_path = tmp_path / "jupyterlab.log"
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    announced = threading.Event()   # the server printed its URL: it binds the port next
    copier = threading.Thread(target=_copy_log, args=(proc.stdout, log_path, announced),
                              daemon=True)
    copier.start()
    try:
        deadline = time.monotonic() + SERVER_START_S
        while not announced.wait(timeout=0.5):      # woken by the log line or by an exit
            if proc.poll() is not None or time.monotonic() > deadline:
                break
        while True:
            code = proc.poll()
            if code is not None:
                copier.join(timeout=5)
                pytest.fail(f"JupyterLab failed to start (exit code {code}): "
                            f"{' '.join(cmd)}\n--- server log ---\n{_log_tail(log_path)}")
            try:
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2) as r:
                    if r.status == 200:
                        break
            except (OSError, urllib.error.URLError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"JupyterLab failed to start: no answer on {base} within "
                            f"{SERVER_START_S} s\n--- server log ---\n{_log_tail(log_path)}")
            # the port opens a moment after the announcement: wait on the process itself
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=0.1)
        yield base, token, root
    finally:
        _stop(proc, base, token)


@pytest.fixture
def lab_server(tmp_path):
    with running_lab(tmp_path) as server:
        yield server


def test_a_server_that_cannot_start_fails_with_a_message(tmp_path):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:  # port taken
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        with pytest.raises(pytest.fail.Exception, match="JupyterLab failed to start"):
            with running_lab(tmp_path, port=busy.getsockname()[1]):
                pass


def test_missing_chromium_fails_with_a_message(tmp_path):
    with pytest.raises(pytest.fail.Exception, match="chromium is missing"):
        _launch_chromium(None, tmp_path / "no-such-chromium")


# --------------------------------------------------------------------------
# The browser test.

KERNEL_IDLE_JS = """() => {
  const app = window.jupyterapp;
  const w = app && app.shell.currentWidget;
  const s = w && w.sessionContext && w.sessionContext.session;
  return !!(s && s.kernel && s.kernel.status === 'idle');
}"""

RUN_ALL_JS = """async (ms) => {
  const run = window.jupyterapp.commands.execute('notebook:run-all-cells');
  const late = new Promise((_, reject) => setTimeout(
      () => reject(new Error('run-all-cells still running after ' + ms + ' ms')), ms));
  return await Promise.race([run, late]);
}"""

IMAGE_JS = """(img) => !!img.getAttribute('src') && img.complete && img.naturalWidth > 0"""


def _launch_chromium(p, executable=CHROMIUM):
    if not Path(executable).exists():
        pytest.fail(f"chromium is missing: no executable at {executable} "
                    "(install it with `apt-get install chromium`, or set REJLAB_CHROMIUM)")
    try:
        return p.chromium.launch(executable_path=str(executable), headless=True,
                                 args=CHROMIUM_ARGS, timeout=60_000)
    except Exception as exc:  # playwright raises its own Error types
        pytest.fail(f"chromium failed to start from {executable}: {exc}")


def test_slider_moves_the_four_subsets_readout(lab_server, tmp_path, local_only):
    try:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        pytest.fail("the Python package playwright is not installed (pip install playwright)")

    base, token, _root = lab_server
    screenshot = tmp_path / "four_subsets_after_slider.png"
    step = "starting chromium"
    with sync_playwright() as p:
        browser = _launch_chromium(p)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 1000})
            external = local_only(context, base)   # nothing may leave 127.0.0.1
            page = context.new_page()
            page.set_default_timeout(UPDATE_MS)

            step = "opening the notebook"
            page.goto(f"{base}/lab/tree/notebooks/{NOTEBOOK}?reset&token={token}",
                      wait_until="domcontentloaded", timeout=60_000)
            step = "waiting for the kernel to be idle"
            page.wait_for_function(KERNEL_IDLE_JS, timeout=KERNEL_IDLE_MS, polling=250)

            # Run every cell and wait (bounded) for the run to finish: the stored
            # widget state in the notebook renders stale copies of the explorer
            # until its cell has run again.
            step = "running all cells"
            ran = page.evaluate(RUN_ALL_JS, WIDGET_MS)
            assert ran is True, "a cell of the lesson raised an error in JupyterLab"
            slider = page.locator(".widget-slider").filter(
                has=page.locator(".widget-label", has_text=re.compile(r"^\s*r\s*$")))
            cell = page.locator(".jp-Cell").filter(has=slider).filter(
                has=page.locator(".rejlab-readout")).first
            readout = cell.locator(".rejlab-readout")
            readout.wait_for(state="visible", timeout=WIDGET_MS)
            slider = cell.locator(".widget-slider").filter(
                has=page.locator(".widget-label", has_text=re.compile(r"^\s*r\s*$")))
            image = cell.locator("img.widget-image")

            # The widget really rendered: controls, readout and a decoded PNG.
            step = "checking the rendered explorer"
            assert slider.count() == 1
            expect(image).to_have_attribute("src", re.compile(r"\S"), timeout=UPDATE_MS)
            page.wait_for_function(IMAGE_JS, arg=image.element_handle(), timeout=UPDATE_MS)
            assert cell.get_by_text("Loading widget...").count() == 0
            assert cell.get_by_text("Error displaying widget").count() == 0
            before = parse_readout(readout.inner_text())
            assert before == expected_readout(R0), "readout before moving the slider"
            src_before = image.get_attribute("src")

            # Move the slider as a person would: focus the handle, press ArrowRight.
            step = "moving the slider with the keyboard"
            handle = slider.locator(".noUi-handle")
            handle.focus()
            for _ in range(ARROW_PRESSES):
                handle.press("ArrowRight")
            target = R0 + ARROW_PRESSES * STEP
            expect(slider.locator(".widget-readout")).to_have_text(
                f"{target:.2f}", timeout=UPDATE_MS)

            # The kernel recomputed and the page now shows rejlab's numbers.
            # (Locators, not element handles: the HTML widget replaces its span.)
            step = "waiting for the readout to follow the slider"
            want = expected_readout(target)
            expect(readout).to_contain_text(f"r = {want['r']} ", timeout=UPDATE_MS)
            after = parse_readout(readout.inner_text())
            assert tuple(after) == READOUT_FIELDS
            assert after == want, "readout after moving the slider"
            assert after != before

            # ... and redrew the figure (a new PNG in the image widget).
            step = "waiting for the figure to be redrawn"
            expect(image).not_to_have_attribute("src", src_before, timeout=UPDATE_MS)
            page.wait_for_function(IMAGE_JS, arg=image.element_handle(), timeout=UPDATE_MS)
            # Let the last redraw land (the kernel works through every key
            # press in turn) so that the screenshot shows the final figure.
            page.wait_for_function(KERNEL_IDLE_JS, timeout=UPDATE_MS, polling=100)
            page.wait_for_function(IMAGE_JS, arg=image.element_handle(), timeout=UPDATE_MS)

            cell.scroll_into_view_if_needed()
            page.screenshot(path=str(screenshot))
            assert screenshot.stat().st_size > 10_000
            assert not external, f"JupyterLab asked for other hosts (aborted): {external[:5]}"
        except PlaywrightError as exc:  # includes its TimeoutError
            try:
                page.screenshot(path=str(tmp_path / "timeout.png"))
            except Exception:
                pass
            pytest.fail(f"browser failed or timed out while {step}: {exc}")
        finally:
            browser.close()


def test_the_local_only_route_aborts_other_hosts(local_only):
    # the guard both browser tests rely on: an outside request is aborted and recorded
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = _launch_chromium(p)
        try:
            context = browser.new_context()
            blocked = local_only(context, "http://127.0.0.1:9")
            page = context.new_page()
            with pytest.raises(PlaywrightError):
                page.goto("http://example.invalid/", timeout=10_000)
            assert blocked == ["http://example.invalid/"]
        finally:
            browser.close()
