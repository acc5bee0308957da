"""Lessons in JupyterLab, in a real browser: the four-subsets lesson's ``r`` slider moved by
keyboard (the readout and figure follow, the link to ``../docs/references.md`` opens), then
every control of every lesson's explorer over its range.

One JupyterLab on 127.0.0.1 (free port, random token, private settings) serves the module, laid
out as ``make lab`` opens it (``notebooks/`` and ``docs/``); headless Chromium (``REJLAB_CHROMIUM``,
default ``/usr/bin/chromium``) reaches no other host. ``pytest -m browser``; every wait bounded."""

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import types
import urllib.request
from pathlib import Path

import nbformat
import pytest

import rejlab as rl
from tests._browsers import _launch_chromium, chromium, open_page

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[1]
NOTEBOOK = "02_four_subsets_and_measures.ipynb"
SERVER_START_S = 90      # JupyterLab usually answers in ~4 s
KERNEL_IDLE_MS = 90_000  # kernel start + first idle
WIDGET_MS = 60_000       # run-all-cells until the explorer is on the page
UPDATE_MS = 30_000       # one slider move until the readout follows
R0, R1 = 0.2, 0.25       # lesson 02's starting r, and after five ArrowRight presses (step 0.01)
NOTIFICATION_SETTINGS = {"fetchNews": "false", "checkForUpdates": False}


# --- JupyterLab -------------------------------------------------------------------------------
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
    """Ask the server to shut down (it stops its kernels), then end what is left of its group."""
    with contextlib.suppress(OSError):      # urllib's URLError included
        urllib.request.urlopen(urllib.request.Request(f"{base}/api/shutdown?token={token}",
                                                      method="POST", data=b""), timeout=5).close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=15)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=10)


@contextlib.contextmanager
def running_lab(tmp_path: Path, port: int | None = None):
    """``(base_url, token, root_dir)``: JupyterLab serving a copy of ``notebooks/`` (the lab's
    autosave never writes into the repository), stopped whatever happens; fails, never hangs,
    when it does not start."""
    root = tmp_path / "course"
    shutil.copytree(REPO / "notebooks", root / "notebooks",
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    shutil.copytree(REPO / "docs", root / "docs")   # the lessons link ../docs/*.md, as in make lab
    settings = tmp_path / "lab-user-settings"
    notif = settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    notif.parent.mkdir(parents=True)
    notif.write_text(json.dumps(NOTIFICATION_SETTINGS))
    workspaces = tmp_path / "lab-workspaces"
    workspaces.mkdir()

    port, token = port or _free_port(), secrets.token_hex(16)
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp_path / "jupyter-config"),   # not ~/.jupyter
           "JUPYTER_RUNTIME_DIR": str(tmp_path / "jupyter-runtime"),
           "JUPYTERLAB_SETTINGS_DIR": str(settings), "JUPYTERLAB_WORKSPACES_DIR": str(workspaces)}
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
           "--ServerApp.port_retries=0", f"--ServerApp.token={token}", f"--ServerApp.root_dir={root}",
           "--LabApp.expose_app_in_browser=True", f"--LabApp.workspaces_dir={workspaces}",
           f"--LabApp.user_settings_dir={settings}", "--allow-root"]
    log_path = tmp_path / "jupyterlab.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + SERVER_START_S
        while True:
            code = proc.poll()
            if code is not None:
                pytest.fail(f"JupyterLab failed to start (exit code {code}): "
                            f"{' '.join(cmd)}\n--- server log ---\n{_log_tail(log_path)}")
            with contextlib.suppress(OSError):      # urllib's URLError included
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2) as r:
                    if r.status == 200:
                        break
            if time.monotonic() > deadline:
                pytest.fail(f"JupyterLab failed to start: no answer on {base} within "
                            f"{SERVER_START_S} s\n--- server log ---\n{_log_tail(log_path)}")
            with contextlib.suppress(subprocess.TimeoutExpired):     # woken at once by an exit
                proc.wait(timeout=0.2)
        yield base, token, root
    finally:
        _stop(proc, base, token)


@pytest.fixture(scope="module")
def lab_server(tmp_path_factory):
    """One JupyterLab for the module's browser tests (the lesson and every explorer)."""
    with running_lab(tmp_path_factory.mktemp("lab")) as server:
        yield server


def test_the_harness_fails_with_a_message_and_reaches_no_other_host(tmp_path, local_only):
    # a server that cannot start and a missing Chromium fail, never hang; the guard every
    # browser test relies on aborts an outside request and records it
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:  # port taken
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        with pytest.raises(pytest.fail.Exception, match="JupyterLab failed to start"):
            with running_lab(tmp_path, port=busy.getsockname()[1]):
                pass
    with pytest.raises(pytest.fail.Exception, match="chromium is missing"):
        _launch_chromium(None, tmp_path / "no-such-chromium")
    from playwright.sync_api import Error as PlaywrightError

    with chromium() as browser:
        page, blocked = open_page(browser, "http://127.0.0.1:9", local_only)
        with pytest.raises(PlaywrightError):
            page.goto("http://example.invalid/", timeout=10_000)
        assert blocked == ["http://example.invalid/"]


# --- The lesson in the browser ----------------------------------------------------------------
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

OPENED_JS = """(path) => {
  const w = window.jupyterapp.shell.currentWidget;
  return !!(w && w.context && w.context.path === path && w.context.isReady);
}"""


def _open_notebook(browser, lab_server, local_only, name: str):
    """``(page, blocked)``: ``notebooks/<name>`` open in the lab, its kernel idle."""
    base, token, _root = lab_server
    page, blocked = open_page(browser, base, local_only, UPDATE_MS, viewport={"width": 1280, "height": 1000})
    page.goto(f"{base}/lab/tree/notebooks/{name}?reset&token={token}", wait_until="domcontentloaded",
              timeout=60_000)
    page.wait_for_function(KERNEL_IDLE_JS, timeout=KERNEL_IDLE_MS, polling=250)
    return page, blocked


def test_the_course_lab_shows_no_news_toast(lab_server):
    # classroom/student_lab.py (run by the Makefile before make lab and after every install)
    # makes "no news, no update check" the default of the lab's notification settings
    base, token, _root = lab_server
    plugin = "@jupyterlab/apputils-extension:notification"
    with urllib.request.urlopen(f"{base}/lab/api/settings/{plugin}?token={token}", timeout=30) as answer:
        schema = json.load(answer)["schema"]["properties"]
    assert schema["fetchNews"]["default"] == "false", \
        f"the news toast is on in {sys.prefix}: run classroom/student_lab.py there"
    assert schema["checkForUpdates"]["default"] is False


def _python_readout(r: float) -> str:
    """Lesson 02's explorer's readout at ``r``, as text (its numbers: tests/test_widgets_rejection.py)."""
    explorer = rl.widgets.four_subsets_explorer()
    explorer.controls["r"].value = r
    return " ".join(re.sub(r"<[^>]+>", " ", explorer.readout.value).split())


def test_slider_moves_the_four_subsets_readout(lab_server, tmp_path, local_only):
    from playwright.sync_api import expect

    with chromium() as browser:
        page, external = _open_notebook(browser, lab_server, local_only, NOTEBOOK)
        # Opening a lesson must leave it as stored (no autosave, no conflict at git pull):
        # the lab rewrites the kernelspec and the numbers once its kernel is up.
        assert page.evaluate(
            "() => window.jupyterapp.shell.currentWidget.context.model.dirty") is False, \
            "opening the lesson marked it modified: store it as the lab writes it"
        # the stored widget state renders stale copies of the explorer until its cell ran again
        assert page.evaluate(RUN_ALL_JS, WIDGET_MS) is True, "a cell of the lesson raised an error"
        is_r = page.locator(".widget-label", has_text=re.compile(r"^\s*r\s*$"))
        slider = page.locator(".widget-slider").filter(has=is_r)
        cell = page.locator(".jp-Cell").filter(has=slider).filter(has=page.locator(".rejlab-readout")).first
        readout = cell.locator(".rejlab-readout")
        readout.wait_for(state="visible", timeout=WIDGET_MS)
        slider = cell.locator(".widget-slider").filter(has=is_r)
        image = cell.locator("img.widget-image")
        assert slider.count() == 1
        expect(image).to_have_attribute("src", re.compile(r"\S"), timeout=UPDATE_MS)
        page.wait_for_function(IMAGE_JS, arg=image.element_handle())
        assert cell.get_by_text("Loading widget...").count() == 0
        assert cell.get_by_text("Error displaying widget").count() == 0
        shown = lambda: " ".join(readout.inner_text().split())    # noqa: E731
        assert shown() == _python_readout(R0), "readout before moving the slider"
        src_before = image.get_attribute("src")

        handle = slider.locator(".noUi-handle")
        handle.focus()
        for _ in range(round((R1 - R0) / 0.01)):
            handle.press("ArrowRight")
        expect(slider.locator(".widget-readout")).to_have_text(f"{R1:.2f}", timeout=UPDATE_MS)
        # locators, not element handles: the HTML widget replaces its span
        expect(readout).to_contain_text(f"r = {R1:.3f} ", timeout=UPDATE_MS)
        assert shown() == _python_readout(R1), "readout after moving the slider"
        expect(image).not_to_have_attribute("src", src_before, timeout=UPDATE_MS)
        # the kernel works through every key press in turn: the screenshot shows the last figure
        page.wait_for_function(KERNEL_IDLE_JS, polling=100)
        page.wait_for_function(IMAGE_JS, arg=image.element_handle())
        cell.scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path / "four_subsets_after_slider.png"))
        assert (tmp_path / "four_subsets_after_slider.png").stat().st_size > 10_000

        # The lesson's link to the references page opens it in the lab (its root holds
        # notebooks/ and docs/, as in the lab make lab opens).
        link = page.locator('.jp-RenderedMarkdown a[href*="docs/references.md"]').first
        link.scroll_into_view_if_needed()
        link.click()
        page.wait_for_function(OPENED_JS, arg="docs/references.md", polling=100)
        assert "Condessa" in page.evaluate(
            "() => window.jupyterapp.shell.currentWidget.context.model.toString()")
        assert not external, f"JupyterLab asked for other hosts (aborted): {external[:5]}"


# --- Every control of every lesson's explorer, over its whole range, in JupyterLab. -----------
#
# One server and one page for all lessons: a scratch notebook holds, for each lesson, its
# explorer cell after the set-up cells it needs (found by the names the cells define and
# use) in a fresh namespace. Each lesson's test then moves every control of that explorer
# in the page: sliders with the End and Home keys (the front end's own range), menus and
# button rows to every option, on/off cells and check boxes clicked off and on again, buttons
# pressed, number boxes to their bounds. It fails on a figure that moves because the text
# above it changed height, a slider whose keys do not reach its ends, and any console error.
# (Each setting's message and figure: tests/test_widgets_base.py, the lesson sweep, in Python.)

def _cell_names(source):
    """(names a cell defines, names it reads), IPython syntax (``!``, ``%``) included."""
    import ast

    from IPython.core.inputtransformer2 import TransformerManager

    tree = ast.parse(TransformerManager().transform_cell(source))
    defined, read = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (defined if isinstance(node.ctx, (ast.Store, ast.Del)) else read).add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            defined.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            defined.add(node.name)
    return defined, read


def explorer_setup(lesson_path: Path) -> tuple[str, list[str]]:
    """The lesson's explorer (factory name) and its cell preceded by the cells it needs."""
    cells = json.loads(lesson_path.read_text(encoding="utf-8"))["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    calls = [(i, re.findall(r"rl\.widgets\.(\w+_explorer)\(", src)) for i, src in enumerate(code)]
    last, names = max((i, found) for i, found in calls if found)
    needed, chosen = _cell_names(code[last])[1], []
    for i in range(last - 1, -1, -1):
        defined, read = _cell_names(code[i])
        if defined & needed:
            chosen.append(i)
            needed = (needed - defined) | read
    return names[-1], [code[i] for i in sorted(chosen)] + [code[last]]


def explorers_notebook(notebooks: Path) -> dict[str, tuple[int, str]]:
    """Write ``_explorers.ipynb`` (one cell per lesson) beside the lessons; lesson -> (cell, factory)."""
    nb, index = nbformat.v4.new_notebook(), {}
    nb.metadata.kernelspec = {"name": "python3", "language": "python", "display_name": "Python 3"}
    for path in sorted(notebooks.glob("[0-9]*.ipynb")):
        lesson = path.name.split("_")[0]
        factory, sources = explorer_setup(path)
        body = "\n\n".join(sources).replace("# NBVAL_IGNORE_OUTPUT\n", "")
        index[lesson] = (len(nb.cells), factory)
        nb.cells.append(nbformat.v4.new_code_cell(f"%reset -f\n# lesson {lesson}: its explorer\n{body}"))
    nbformat.write(nb, notebooks / EXPLORERS)
    return index


EXPLORERS = "_explorers.ipynb"
RUN_ALL_MS = 300_000        # every lesson's set-up and explorer (the digits model of lesson 11)
SWEEP_MS = 180_000          # one explorer's controls, every setting waited for

SWEEP_JS = r"""async ([cellIndex, ms]) => {
  const sweep = async () => {
    const nb = window.jupyterapp.shell.currentWidget;
    const cell = nb.content.widgets[cellIndex];
    const kernel = nb.sessionContext.session.kernel;
    // ipywidgets sends one update of a model at a time and holds the next until the kernel
    // answered: wait until no control holds one back, then until the kernel has handled all
    let controls = [];
    const pending = () => controls.some(m => m._pending_msgs > 0 || m._msg_buffer);
    const settle = async () => {
      do {
        await kernel.requestExecute({code: '', silent: true, store_history: false}).done;
      } while (pending());
      await new Promise(r => requestAnimationFrame(() => setTimeout(r, 20)));
    };
    let renderer = null, id = null;
    for (const child of cell.outputArea.widgets)
      for (const w of child.widgets) if (w._manager) renderer = w;
    for (let i = 0; i < cell.model.outputs.length; i++) {
      const d = cell.model.outputs.get(i).data['application/vnd.jupyter.widget-view+json'];
      if (d) id = d.model_id;
    }
    if (!renderer || !id) return {error: 'no explorer in cell ' + cellIndex};
    const manager = await renderer._manager.promise;
    const root = await manager.get_model(id);
    const kids = root.get('children');
    const status = kids.find(m => m.get('_model_name') === 'VBoxModel' && m.get('children').length === 2
                             && m.get('children').every(c => c.get('_model_name') === 'HTMLModel'));
    const image = kids.find(m => m.get('_model_name') === 'ImageModel');
    const view = async (m) => (await Promise.all(Object.values(m.views)))[0];
    const rootView = await view(root), imageView = await view(image);
    const top = () => Math.round(imageView.el.getBoundingClientRect().top
                                 - rootView.el.getBoundingClientRect().top);
    const walk = (m) => {
      if (m === status || m === image) return;
      const name = m.get('_model_name');
      if (/Slider|Dropdown|ToggleButtons|ToggleButton|Checkbox|Button|Text/.test(name)
          && !/HTML/.test(name)) controls.push(m);
      (m.get('children') || []).forEach(walk);
    };
    kids.forEach(walk);
    const bad = [], jumps = [];
    const firstTop = top();
    let settings = 0;
    const check = async (what) => {
      await settle(); settings++;
      const t = top(); if (t !== firstTop) jumps.push(what + `: figure at ${t} px, was ${firstTop}`);
    };
    const describe = (m) => (m.get('tooltip') || m.get('description') || m.get('_model_name'));
    const attr = (m) => /Selection/.test(m.get('_model_name')) ? 'index' : 'value';
    const key = async (m, k) => {
      const el = (await view(m)).el.querySelector('.noUi-handle');
      el.focus();
      el.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true, cancelable: true}));
    };
    for (const m of controls) {
      if (m.get('disabled')) continue;
      const name = m.get('_model_name'), label = describe(m);
      if (/Slider/.test(name)) {
        const before = m.get(attr(m));
        await key(m, 'End'); await check(label + ' at its maximum');
        const hi = m.get(attr(m));
        await key(m, 'Home'); await check(label + ' at its minimum');
        const lo = m.get(attr(m));
        if (/Selection/.test(name) ? (lo !== 0 || hi !== m.get('_options_labels').length - 1)
            : (hi !== (/Log/.test(name) ? Math.pow(m.get('base'), m.get('max')) : m.get('max'))
               || lo !== (/Log/.test(name) ? Math.pow(m.get('base'), m.get('min')) : m.get('min'))))
          bad.push(`${label}: End and Home reached ${lo} .. ${hi}`);
        m.set(attr(m), before); m.save_changes(); await settle();
      } else if (/Dropdown|ToggleButtons/.test(name)) {
        const before = m.get('index'), n = m.get('_options_labels').length;
        const enabled = () => controls.map(c => !c.get('disabled')).join();
        const start = enabled();
        for (let i = 0; i < n; i++) {
          m.set('index', i); m.save_changes(); await check(`${label} = ${m.get('_options_labels')[i]}`);
          // an option that switches other controls on or off changes what they mean: every
          // slider at both ends with it
          if (enabled() !== start) for (const s of controls) {
            if (!/Slider/.test(s.get('_model_name')) || s.get('disabled')) continue;
            const keep = s.get(attr(s));
            const option = `${label} = ${m.get('_options_labels')[i]}, ${describe(s)}`;
            await key(s, 'End'); await check(`${option} at its maximum`);
            await key(s, 'Home'); await check(`${option} at its minimum`);
            s.set(attr(s), keep); s.save_changes();
          }
        }
        m.set('index', before); m.save_changes(); await settle();
      } else if (name === 'ToggleButtonModel' || name === 'CheckboxModel') {
        // clicked as a person would (a covering's cell, a check box): off, then on again
        const el = (await view(m)).el;
        const target = name === 'CheckboxModel' ? el.querySelector('input') : el;
        for (const turn of ['once', 'twice']) {
          target.click(); await check(`${label} clicked ${turn} (${m.get('value') ? 'on' : 'off'})`);
        }
      } else if (name === 'ButtonModel') {
        (await view(m)).el.click(); await check(`${label} pressed`);
      } else if (/Text/.test(name)) {
        const before = m.get('value');
        const values = m.get('min') !== undefined && m.get('max') !== undefined
          ? [m.get('min'), m.get('max')] : (name === 'IntTextModel' ? [0, 1, 99] : [before]);
        for (const x of values) { m.set('value', x); m.save_changes(); await check(`${label} = ${x}`); }
        m.set('value', before); m.save_changes(); await settle();
      }
    }
    await check('the starting values');
    return {controls: controls.length, settings, bad, jumps};
  };
  const late = new Promise((_, reject) => setTimeout(
      () => reject(new Error('the sweep is still running after ' + ms + ' ms')), ms));
  return await Promise.race([late, sweep()]);
}"""


def _lessons():
    return sorted(p.name.split("_")[0] for p in (REPO / "notebooks").glob("[0-9]*.ipynb"))


@pytest.fixture(scope="module")
def explorers_page(lab_server, local_only):
    """JupyterLab with the scratch notebook of every lesson's explorer, run once; yields a helper."""
    from playwright.sync_api import Error as PlaywrightError

    index = explorers_notebook(lab_server[2] / "notebooks")
    with chromium() as browser:
        page, external = _open_notebook(browser, lab_server, local_only, EXPLORERS)
        errors = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
        assert page.evaluate(RUN_ALL_JS, RUN_ALL_MS) is True, "a lesson's cell raised an error"
        page.wait_for_function(KERNEL_IDLE_JS, timeout=RUN_ALL_MS, polling=250)
        # loading logged no console error, and no cell shows a widget that failed to display
        assert page.get_by_text("Error displaying widget").count() == 0
        assert not errors, f"console errors: {errors[:5]}"
        yield types.SimpleNamespace(page=page, index=index, errors=errors, external=external,
                                    error_type=PlaywrightError)


@pytest.mark.parametrize("lesson", _lessons())
def test_every_explorer_control_over_its_whole_range_in_jupyterlab(explorers_page, lesson, tmp_path):
    page = explorers_page.page
    cell, factory = explorers_page.index[lesson]
    explorers_page.errors.clear()
    try:
        result = page.evaluate(SWEEP_JS, [cell, SWEEP_MS])
    except explorers_page.error_type as exc:
        page.screenshot(path=str(tmp_path / f"lesson-{lesson}.png"))
        pytest.fail(f"lesson {lesson}: the sweep failed in the page: {exc}")
    assert "error" not in result, result.get("error")    # no explorer rendered in its cell
    problems = result["bad"] + result["jumps"] + [f"console: {e}" for e in explorers_page.errors]
    if problems:
        page.screenshot(path=str(tmp_path / f"lesson-{lesson}.png"))
    assert result["controls"] > 0 and result["settings"] > 0
    assert not problems, f"lesson {lesson} ({factory}): " + "; ".join(problems[:8])
    assert not explorers_page.external, f"asked for other hosts: {explorers_page.external[:5]}"
