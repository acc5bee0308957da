"""The lessons' explorers for the course website, every setting drawn in advance (`make book`).

    python tools/site_frames.py notebooks/02_four_subsets_and_measures.ipynb   # one lesson, timed

The website has no kernel, so it shows the pictures the Python explorers
draw. For each lesson, a worker process runs the lesson's code cells in
order in one namespace, as a kernel would (matplotlib's Agg backend; cells
with shell or magic lines are skipped: the lessons use them only for the
command line). An explorer cell, one whose last statement is
``rl.widgets.<name>(...)`` (after ``# NBVAL_...`` lines), is evaluated where
it stands, so the explorer gets exactly the arguments and the data the
lesson gives it; parsing the call and evaluating it alone would miss
arguments that the lesson computed (lesson 09's table, lesson 11's report).

The factory declares which controls the site moves and over which values:
``factory.site_grid = {control: values}`` next to the factory in its
widgets module, where values is a list, ``"options"`` (every option of a
choice) or ``"range"`` (an integer slider's every value). The worker sets
the controls to every combination (the first control varies fastest), and
keeps per setting the explorer's own picture (``explorer.image`` decoded
and re-encoded as lossless WebP: the same pixels, about half the size of
an optimised PNG; identical pictures are kept once), its readout, its
message (bad settings: the explorer's own message and blank figure) and its
text alternative (:meth:`rejlab.course.widgets.Explorer.alt_text`).

On the way, every figure the lesson's other cells draw is described: its
titles, axis labels and legend entries (the text alternative of its stored
picture on the site), the font size of its tick labels in pixels at its
natural size, and its size when saved as Jupyter's inline backend saves it
(so the build can check that it describes the right stored picture).

For a phone, the same worker lays each explorer's figure out again in one
column (tools/site_layout.py) once its wide frames are drawn, and draws the
grid again on that narrow figure, with the explorer's own code; each lesson
figure is laid out again so too. The narrow pictures are lossless WebP as
well, ``site_layout.NARROW_PX`` pixels wide, their text at least
``site_layout.MIN_TEXT_PX`` pixels where the layout allows it.

Results are cached in ``<cache>/<lesson>-<key>/`` (``manifest.json`` and the
wide frames), the key hashing rejlab's sources, this file, the lesson's code
and the versions of Python, NumPy, matplotlib and Pillow, and the narrow
pictures in ``<cache>/<lesson>-narrow-<key>/``, whose key also hashes
tools/site_layout.py: a change to the narrow layout redraws only the narrow
pictures. A lock file lets a second build wait for the first instead of
drawing the same frames again.
"""

from __future__ import annotations

import ast
import concurrent.futures
import contextlib
import fcntl
import hashlib
import io
import itertools
import json
import multiprocessing
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import site_layout  # noqa: E402  (tools/ is not a package)

ROOT = Path(__file__).resolve().parents[1]
FORMAT = "webp"   # lossless; see encode()
#: The cache folder of a lesson's narrow pictures: ``<lesson>-narrow-<key>``.
NARROW = "-narrow"
_NBVAL = re.compile(r"^[ \t]*#[ \t]*NBVAL_[A-Z_]+[ \t]*$", re.M)
_GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "lambda": "λ", "rho": "ρ", "phi": "φ",
          "kappa": "κ", "mu": "μ", "sigma": "σ", "cap": "∩", "cup": "∪", "leq": "≤", "geq": "≥",
          "times": "×", "infty": "∞", "mathrm": "", "mathit": "", "text": ""}


class FramesError(Exception):
    """A lesson whose explorers cannot be drawn for the site (one line for the build)."""


# --------------------------------------------------------------------------
# Finding the explorer cells

def _shell_or_magic(source: str) -> bool:
    return any(line.lstrip().startswith(("!", "%")) for line in source.splitlines())


def explorer_call(source: str) -> str | None:
    """The factory name when ``source`` ends with ``rl.widgets.<name>(...)``, else None.

    A cell that calls ``rl.widgets.<name>`` in any other way raises
    :class:`FramesError`: the site would silently show a stored picture.
    """
    code = _NBVAL.sub("", source)
    if "widgets." not in code:
        return None
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
             and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Attribute)
             and n.func.value.attr == "widgets" and n.func.attr.endswith("_explorer")]
    if not calls:
        return None
    last = tree.body[-1] if tree.body else None
    if not (isinstance(last, ast.Expr) and last.value in calls and len(calls) == 1):
        raise FramesError("an explorer cell must end with the explorer's call, "
                          "rl.widgets.<name>(...), and call no other explorer")
    return last.value.func.attr


def explorer_cells(nb) -> list[tuple[int, str]]:
    """``(cell index, factory name)`` of every explorer cell of a notebook (nbformat node)."""
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            try:
                name = explorer_call(cell.source)
            except FramesError as exc:
                raise FramesError(f"cell {i}: {exc}") from None
            if name:
                found.append((i, name))
    return found


# --------------------------------------------------------------------------
# Running a lesson

def _matplotlib():
    os.environ.setdefault("MPLBACKEND", "Agg")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _plain(text: str) -> str:
    """Matplotlib text (maybe mathtext) as words: ``$\\phi$`` -> φ."""
    def greek(m):
        return _GREEK.get(m.group(1), m.group(1))
    text = re.sub(r"\\([A-Za-z]+)", greek, text.replace("$", ""))
    text = text.replace("{", "").replace("}", "").replace("_", " ").replace("^", "")
    return re.sub(r"\s+", " ", text).strip()


def describe_figure(fig, calls: list[str]) -> dict:
    """Text alternative, tick-label pixel size and inline-saved size of a pyplot figure."""
    panels = []
    tick_pt = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        title = " ".join(t for t in (_plain(ax.get_title(loc)) for loc in ("left", "center", "right"))
                         if t)
        axes_words = [f"{name} axis: {lab}" for name, lab in
                      (("x", _plain(ax.get_xlabel())), ("y", _plain(ax.get_ylabel()))) if lab]
        legend = ax.get_legend()
        if legend is not None:
            keys = [_plain(t.get_text()) for t in legend.get_texts() if t.get_text()]
            if keys:
                axes_words.append("key: " + ", ".join(keys))
        if title or axes_words:
            panels.append((f"“{title}”" if title else "a panel")
                          + (f" ({'; '.join(axes_words)})" if axes_words else ""))
        for tick in ax.get_xticklabels() + ax.get_yticklabels():
            if tick.get_visible() and tick.get_text():
                tick_pt.append(tick.get_fontsize())
    head = "Figure"
    if fig.get_suptitle():
        head += f" “{_plain(fig.get_suptitle())}”"
    if calls:
        head += " drawn by " + ", ".join(calls)
    if panels:
        head += (f", {len(panels)} panels: " if len(panels) > 1 else ": ") + "; ".join(panels)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches="tight")   # as the inline backend stores it
    from PIL import Image
    with Image.open(io.BytesIO(buf.getvalue())) as im:
        size = list(im.size)
    return {"alt": head + ".", "tick_px": round(min(tick_pt) * fig.dpi / 72, 2) if tick_pt else None,
            "text_px": site_layout.text_px(fig), "size": size}


def _plot_calls(source: str) -> list[str]:
    return sorted(set(re.findall(r"\brl\.plot\.[a-z_]+", source)))


class Lesson:
    """A lesson's code, run cell by cell in one namespace (see the module docstring)."""

    def __init__(self, path: Path, describe: bool = True, narrow: Path | None = None):
        import nbformat

        self.describe = describe
        #: where each figure's narrow picture goes (None: none drawn); one entry per figure
        self.narrow, self.narrow_figures = narrow, []
        self.narrow_seconds = 0.0

        self.path = Path(path)
        self.nb = nbformat.read(self.path, as_version=4)
        self.plt = _matplotlib()
        self.ns = {"__name__": "__main__"}
        self.next_cell = 0
        self.figures: list[dict] = []     # {"cell", "index", "alt", "tick_px", "size"}
        self._shown: list = []
        self._cwd = tempfile.mkdtemp(prefix="rejlab-site-lesson-")

    def close(self):
        self.plt.close("all")
        shutil.rmtree(self._cwd, ignore_errors=True)

    def _show(self):
        for number in self.plt.get_fignums():
            self._shown.append(self.plt.figure(number))
            self.plt.close(number)

    def run_to(self, stop: int):
        """Run the code cells before cell ``stop`` not yet run; figures described on the way
        (unless the lesson was opened with ``describe=False``)."""
        for i in range(self.next_cell, stop):
            cell = self.nb.cells[i]
            if cell.cell_type == "code" and cell.source.strip():
                self._run(i, cell.source, self.describe)
        self.next_cell = max(self.next_cell, stop)

    def _run(self, i, source, describe, evaluate_last=False):
        if _shell_or_magic(source):
            return None
        tree = ast.parse(_NBVAL.sub("", source))
        last = None
        if evaluate_last and tree.body and isinstance(tree.body[-1], ast.Expr):
            last = ast.Expression(tree.body.pop().value)
        self._shown.clear()
        def show(*args, **kwargs):
            self._show()
        old_show, self.plt.show = self.plt.show, show
        old_cwd = os.getcwd()
        out = io.StringIO()
        value = None
        try:
            os.chdir(self._cwd)
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                exec(compile(tree, f"{self.path.name}, cell {i}", "exec"), self.ns)
                if last is not None:
                    value = eval(compile(last, f"{self.path.name}, cell {i}", "eval"), self.ns)
        except Exception as exc:  # a lesson cell that fails: the build says which
            raise FramesError(f"{self.path.name}, cell {i} raised {type(exc).__name__}: "
                              f"{exc}") from None
        finally:
            os.chdir(old_cwd)
            self.plt.show = old_show
        self._show()
        if describe:
            calls = _plot_calls(source)
            for j, fig in enumerate(self._shown):
                self.figures.append({"cell": i, "index": j, **describe_figure(fig, calls)})
                if self.narrow is not None:
                    self._narrow_figure(fig, i, j)
        self._shown.clear()
        return value

    def _narrow_figure(self, fig, cell: int, index: int):
        """The figure laid out again for a phone (after it is described: this changes it)."""
        cpu = time.process_time()
        entry = {"cell": cell, "index": index}
        try:
            drawn = site_layout.narrow_figure(fig)
        except Exception as exc:  # noqa: BLE001  the wide picture serves: the build says why
            drawn = None
            entry["error"] = f"{type(exc).__name__}: {exc}"
        if drawn is not None:
            png, facts = drawn
            name = f"{cell}-{index}.{FORMAT}"
            self.narrow.mkdir(parents=True, exist_ok=True)
            data = encode(png)
            (self.narrow / name).write_bytes(data)
            entry.update(facts, file=name, bytes=len(data))
        self.narrow_figures.append(entry)
        self.narrow_seconds += time.process_time() - cpu

    def explorer(self, cell: int):
        """Run the lesson up to ``cell`` and evaluate it: the explorer, as the lesson builds it."""
        from rejlab.course.widgets import Explorer

        self.run_to(cell)
        value = self._run(cell, self.nb.cells[cell].source, describe=False, evaluate_last=True)
        self.next_cell = cell + 1
        if not isinstance(value, Explorer):
            raise FramesError(f"{self.path.name}, cell {cell} does not end with an explorer")
        return value


def lesson_explorer(path: Path, cell: int):
    """A fresh explorer of lesson ``path``'s cell ``cell``, built as the lesson builds it."""
    lesson = Lesson(path, describe=False)
    try:
        return lesson.explorer(cell)
    finally:
        lesson.close()


# --------------------------------------------------------------------------
# The grid of one explorer

def _choice(control) -> bool:
    return isinstance(getattr(control, "options", None), tuple) and hasattr(control, "index")


def _option_values(control):
    return [o[1] if isinstance(o, tuple) and len(o) == 2 else o for o in control.options]


def _value_label(control, value) -> str:
    if _choice(control):   # ipywidgets' options: values, or (label, value) pairs
        option = control.options[_option_values(control).index(value)]
        return str(option[0] if isinstance(option, tuple) and len(option) == 2 else option)
    if isinstance(value, float):
        fmt = getattr(control, "readout_format", "") or ".3g"
        try:
            text = format(value, fmt)
            if float(text) == value:
                return text
        except ValueError:
            pass
        return f"{value:g}"
    return str(value)


def grid_of(explorer, factory) -> list[dict]:
    """The site controls of an explorer from its factory's ``site_grid``: name, label, values."""
    grid = getattr(factory, "site_grid", None)
    if not isinstance(grid, dict) or not grid:
        raise FramesError(f"{factory.__name__} declares no site_grid (the controls the site "
                          "moves, next to the factory in rejlab/course/widgets/)")
    out = []
    if not set(grid) & set(explorer.controls):
        raise FramesError(f"{factory.__name__}.site_grid names none of its controls "
                          f"{sorted(explorer.controls)}: {sorted(grid)}")
    for name, values in grid.items():
        control = explorer.controls.get(name)
        if control is None:   # a control this explorer was built without (covering: no scores)
            continue
        if values == "options":
            values = _option_values(control)
        elif values == "range":
            values = list(range(control.min, control.max + 1, control.step))
        values = list(values)
        if _choice(control):
            bad = [x for x in values if x not in _option_values(control)]
            kind = "select" if type(control).__name__ in {"Dropdown", "Select", "RadioButtons",
                                                          "ToggleButtons"} else "range"
        else:
            lo, hi = getattr(control, "min", None), getattr(control, "max", None)
            if type(control).__name__ == "FloatLogSlider":   # min and max are exponents
                lo, hi = control.base ** lo, control.base ** hi
            bad = [x for x in values if lo is not None and not lo <= x <= hi]
            kind = "range"
        if bad or not values:
            raise FramesError(f"{factory.__name__}.site_grid[{name!r}] holds values outside the "
                              f"control's range or options: {bad}")
        current = control.value
        if _choice(control) or not isinstance(current, (int, float)):
            default = values.index(current) if current in values else 0
        else:
            default = min(range(len(values)), key=lambda k: abs(values[k] - current))
        out.append({"name": name, "label": control.description or name, "kind": kind,
                    "values": values, "labels": [_value_label(control, x) for x in values],
                    "default": default})
    return out


def set_controls(explorer, setting: dict):
    """Set the explorer's controls to ``setting`` (name -> value), each in turn."""
    for name, value in setting.items():
        explorer.controls[name].value = value


def decode(data: bytes):
    """The RGB pixels of an encoded picture (PNG or WebP) as a NumPy array."""
    import numpy as np
    from PIL import Image
    with Image.open(io.BytesIO(data)) as im:
        return np.asarray(im.convert("RGB"))


def encode(png: bytes) -> bytes:
    """An explorer picture as lossless WebP: the same pixels, about half an optimised PNG.

    Effort ``method=1`` with ``quality=50``: measured on the explorers'
    frames, 44 KB and 25 ms a frame, against 45 KB and 40 ms at method 4 and
    43 KB and 110 ms at quality 100 (an optimised PNG: 85 KB and 70 ms);
    palette PNGs are as small but lose the anti-aliased shades.
    """
    from PIL import Image
    buf = io.BytesIO()
    with Image.open(io.BytesIO(png)) as im:
        im.convert("RGB").save(buf, format="webp", lossless=True, method=1, quality=50)
    return buf.getvalue()


def fixed_controls(explorer, moved: set) -> list[str]:
    """The controls the site does not move, as ``description = value`` (what every frame shows)."""
    return [text for name, text in explorer.control_texts().items() if name not in moved]


def draw_grid(explorer, factory, folder: Path) -> dict:
    """Every setting of the site grid: frames written into ``folder``, the rest returned."""
    start = time.perf_counter()
    controls = grid_of(explorer, factory)
    fixed = fixed_controls(explorer, {c["name"] for c in controls})
    toggles = sum(1 for c in explorer.controls.values() if isinstance(c.value, bool))
    folder.mkdir(parents=True, exist_ok=True)
    seen: dict[bytes, int] = {}
    frames, readouts, messages, alts = [], [], [], []
    size_bytes = 0
    # the first control varies fastest: frame index = i0 + n0 * (i1 + n1 * ...)
    for combo in itertools.product(*[range(len(c["values"])) for c in reversed(controls)]):
        idx = list(reversed(combo))
        set_controls(explorer, {c["name"]: c["values"][k] for c, k in zip(controls, idx)})
        png = explorer.image.value
        key = hashlib.sha256(png).digest()
        if key not in seen:
            seen[key] = len(seen)
            data = encode(png)
            (folder / f"{seen[key]}.{FORMAT}").write_bytes(data)
            size_bytes += len(data)
        frames.append(seen[key])
        readouts.append(explorer.readout.value)
        messages.append(explorer.error)
        alts.append(explorer.alt_text())
    ticks = [t.get_fontsize() for ax in explorer.figure.axes if ax.get_visible()
             for t in ax.get_xticklabels() + ax.get_yticklabels() if t.get_text()]
    return {"factory": factory.__name__, "title": explorer.title, "question": explorer.question,
            "text_px": site_layout.drawn_text_px(explorer.figure),
            "notice": explorer.notice,
            "legend": explorer.legend.value if explorer.legend is not None else "",
            "tick_px": round(min(ticks) * explorer.figure.dpi / 72, 2) if ticks else None,
            "controls": controls, "fixed": fixed, "toggles": toggles, "frames": frames,
            "readouts": readouts, "messages": messages, "alts": alts, "unique": len(seen),
            "bytes": size_bytes, "format": FORMAT,
            "width": explorer.figure.canvas.get_width_height()[0],
            "height": explorer.figure.canvas.get_width_height()[1],
            "seconds": round(time.perf_counter() - start, 2)}


def draw_narrow(explorer, factory, folder: Path) -> dict:
    """The explorer laid out again for a phone (tools/site_layout.py), then every setting of
    its site grid drawn on that figure into ``folder``: the frames and the layout's facts
    (readouts, messages and texts are the wide grid's). Call it after :func:`draw_grid`:
    it changes the explorer's figure."""
    start = time.perf_counter()
    facts = site_layout.narrow_explorer(explorer)
    entry = draw_grid(explorer, factory, folder)
    keep = ("frames", "unique", "bytes", "width", "height", "format")
    return {**{k: entry[k] for k in keep}, "tick_px": facts["tick_px"],
            "text_px": facts["text_px"], "problems": facts["problems"],
            "seconds": round(time.perf_counter() - start, 2)}


def run_lesson(path: str, out: str | None, narrow: str | None = None) -> dict:
    """Run one lesson (a worker's job): its explorers' frames under ``out`` and their narrow
    frames and narrow lesson figures under ``narrow`` (either None: not drawn); its
    manifest, with ``"narrow"``: the narrow part's manifest (or None)."""
    import rejlab.course.widgets as rw

    start, cpu = time.perf_counter(), time.process_time()
    lesson = Lesson(Path(path), narrow=Path(narrow) / "figures" if narrow else None)
    explorers, narrow_explorers, narrow_cpu = [], [], 0.0
    try:
        for cell, name in explorer_cells(lesson.nb):
            factory = getattr(rw, name, None)
            if factory is None:
                raise FramesError(f"{lesson.path.name}, cell {cell}: rl.widgets has no {name}")
            explorer = lesson.explorer(cell)
            if out is not None:
                entry = draw_grid(explorer, factory, Path(out) / str(cell))
                entry["cell"] = cell
                explorers.append(entry)
            if narrow is not None:
                t = time.process_time()
                entry = draw_narrow(explorer, factory, Path(narrow) / str(cell))
                entry["cell"] = cell
                narrow_explorers.append(entry)
                narrow_cpu += time.process_time() - t
        lesson.run_to(len(lesson.nb.cells))
    finally:
        lesson.close()
    cpu_seconds = time.process_time() - cpu
    narrow_cpu += lesson.narrow_seconds
    return {"lesson": Path(path).stem, "explorers": explorers, "figures": lesson.figures,
            "seconds": round(time.perf_counter() - start, 2),
            "cpu_seconds": round(cpu_seconds, 2),
            "narrow": None if narrow is None else {
                "explorers": narrow_explorers, "figures": lesson.narrow_figures,
                "cpu_seconds": round(narrow_cpu, 2)}}


# --------------------------------------------------------------------------
# The cache and the pool

def _versions() -> str:
    from importlib.metadata import PackageNotFoundError, version
    parts = [sys.version]
    for package in ("numpy", "matplotlib", "pillow", "ipywidgets"):
        try:
            parts.append(f"{package}=={version(package)}")
        except PackageNotFoundError:
            parts.append(f"{package} missing")
    return "\n".join(parts)


def _code_key() -> bytes:
    h = hashlib.sha256()
    for path in sorted((ROOT / "rejlab").rglob("*.py")):
        h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    h.update(Path(__file__).read_bytes())
    h.update(_versions().encode())
    return h.digest()


def _narrow_code_key(code_key: bytes) -> bytes:
    return hashlib.sha256(code_key + (Path(__file__).parent / "site_layout.py").read_bytes()
                          ).digest()


def lesson_key(path: Path, code_key: bytes) -> str:
    import nbformat
    nb = nbformat.read(path, as_version=4)
    h = hashlib.sha256(code_key)
    for cell in nb.cells:
        if cell.cell_type == "code":
            h.update(cell.source.encode() + b"\0")
    return h.hexdigest()[:16]


@contextlib.contextmanager
def _locked(cache: Path):
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / ".lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)   # a second build waits here for the first
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def with_narrow(manifest: dict, narrow: dict | None, folder: Path | None) -> dict:
    """A lesson's manifest with its narrow pictures (``narrow``: their manifest, in
    ``folder``): ``"narrow"`` in each explorer entry (its frames' ``folder``) and in each
    figure drawn again for a phone (its picture's ``path``)."""
    if narrow is None:
        return manifest
    by_cell = {e["cell"]: e for e in narrow["explorers"]}
    for entry in manifest["explorers"]:
        if entry["cell"] in by_cell:
            entry["narrow"] = {**by_cell[entry["cell"]], "folder": str(folder / str(entry["cell"]))}
    figures = {(f["cell"], f["index"]): f for f in narrow["figures"]}
    for fig in manifest["figures"]:
        found = figures.get((fig["cell"], fig["index"]))
        if found is not None and "file" in found:
            fig["narrow"] = {**found, "path": str(folder / "figures" / found["file"])}
        elif found is not None:
            fig["no_narrow"] = found.get("error", "a panel placed by hand, not by a gridspec")
    manifest["narrow_cpu_seconds"] = narrow["cpu_seconds"]
    return manifest


def _stem_of(folder_name: str) -> str:
    stem = folder_name.rsplit("-", 1)[0]
    return stem[:-len(NARROW)] if stem.endswith(NARROW) else stem


def lesson_frames(notebooks: list[Path], cache: Path, jobs: int | None = None,
                  log=None, narrow: bool = True) -> dict[str, tuple[Path, dict]]:
    """``{stem: (folder, manifest)}`` for every lesson, drawn now or read from ``cache``
    (``narrow``: with the pictures for a phone, see :func:`with_narrow`)."""
    jobs = jobs or int(os.environ.get("REJLAB_SITE_JOBS", min(2, os.cpu_count() or 1)))
    code_key = _code_key()
    narrow_key = _narrow_code_key(code_key)
    with _locked(cache):
        timings_file = cache / "seconds.json"
        try:
            timings = json.loads(timings_file.read_text())
        except (OSError, ValueError):
            timings = {}
        result, todo, narrow_of = {}, [], {}
        for path in notebooks:
            folder = cache / f"{path.stem}-{lesson_key(path, code_key)}"
            small = cache / f"{path.stem}{NARROW}-{lesson_key(path, narrow_key)}"
            wide_done = (folder / "manifest.json").is_file()
            small_done = not narrow or (small / "manifest.json").is_file()
            if wide_done:
                result[path.stem] = (folder, json.loads((folder / "manifest.json").read_text()))
            if narrow:
                narrow_of[path.stem] = small
                if small_done:
                    result.setdefault(f"{path.stem}{NARROW}", (small, json.loads(
                        (small / "manifest.json").read_text())))
            if not (wide_done and small_done):
                todo.append((path, None if wide_done else folder,
                             None if small_done else small))
        # the longest lessons first, so that two workers finish together
        todo.sort(key=lambda job: -timings.get(job[0].stem, 1.0))
        start = time.perf_counter()
        cpu = {"wide": 0.0, "narrow": 0.0}
        if todo:
            for _, *folders in todo:
                for folder in folders:
                    if folder is not None:
                        shutil.rmtree(folder, ignore_errors=True)
            context = multiprocessing.get_context("fork")
            with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, jobs),
                                                        mp_context=context) as pool:
                futures = {pool.submit(run_lesson, str(p), w and str(w) + ".partial",
                                       n and str(n) + ".partial"): (p, w, n)
                           for p, w, n in todo}
                for future in concurrent.futures.as_completed(futures):
                    path, wide, small = futures[future]
                    manifest = future.result()          # FramesError propagates
                    part = manifest.pop("narrow")
                    spent = part["cpu_seconds"] if part else 0.0
                    cpu["narrow"] += spent
                    for folder, content in ((wide, manifest), (small, part)):
                        if folder is None:
                            continue
                        partial = Path(str(folder) + ".partial")
                        partial.mkdir(parents=True, exist_ok=True)
                        (partial / "manifest.json").write_text(json.dumps(content))
                        partial.rename(folder)              # whole or not at all
                    if wide is not None:
                        cpu["wide"] += manifest["cpu_seconds"] - spent
                        timings[path.stem] = manifest["seconds"]
                        result[path.stem] = (wide, manifest)
                    if small is not None:
                        result[f"{path.stem}{NARROW}"] = (small, part)
            timings_file.write_text(json.dumps(timings, indent=1))
        keep = {folder.name for folder, _ in result.values()} | {".lock", "seconds.json"}
        stems = {p.stem for p in notebooks}
        for entry in cache.iterdir():   # older keys of these lessons
            if entry.name not in keep and _stem_of(entry.name) in stems:
                shutil.rmtree(entry, ignore_errors=True)
        if log is not None:
            log(f"explorer frames: {len(todo)} lessons drawn in {time.perf_counter() - start:.1f} s "
                f"with {jobs} processes ({cpu['wide'] + cpu['narrow']:.0f} CPU seconds: "
                f"{cpu['wide']:.0f} for the wide frames and figures, {cpu['narrow']:.0f} for "
                f"the narrow ones), {len(notebooks) - len(todo)} from the cache ({cache})")
    out = {}
    for path in notebooks:
        folder, manifest = result[path.stem]
        small = result.get(f"{path.stem}{NARROW}")
        out[path.stem] = (folder, with_narrow(manifest, small and small[1],
                                              small and small[0]))
    return out


def main(argv: list[str]) -> int:
    keep = None
    if argv[:1] == ["--keep"]:      # --keep DIR: the pictures stay in DIR/<lesson>/
        keep, argv = Path(argv[1]), argv[2:]
    for name in argv:
        with tempfile.TemporaryDirectory() as tmp:
            out = keep / Path(name).stem if keep else Path(tmp)
            manifest = run_lesson(name, str(out / "wide"), str(out / "narrow"))
        part = manifest["narrow"]
        for e, n in zip(manifest["explorers"], part["explorers"]):
            print(f"{manifest['lesson']} cell {e['cell']} {e['factory']}: {len(e['frames'])} "
                  f"settings, {e['unique']} pictures, {e['bytes'] / 1e6:.2f} MB, {e['seconds']} s, "
                  f"{e['width']} px wide, text {e['text_px']} px, ticks {e['tick_px']} px; "
                  f"narrow: {n['unique']} pictures, {n['bytes'] / 1e6:.2f} MB, {n['seconds']} s, "
                  f"{n['width']} x {n['height']} px, text {n['text_px']} px, ticks "
                  f"{n['tick_px']} px{', problems: ' + '; '.join(n['problems']) if n['problems'] else ''}")
        for f, n in zip(manifest["figures"], part["figures"]):
            print(f"  figure cell {f['cell']}.{f['index']}: {f['size'][0]} px wide, text "
                  f"{f['text_px']} px, ticks {f['tick_px']} px; narrow: " + (
                      f"{n['width']} x {n['height']} px, text {n['text_px']} px, ticks "
                      f"{n['tick_px']} px, {n['bytes'] / 1e3:.0f} KB"
                      + (", problems: " + "; ".join(n["problems"]) if n["problems"] else "")
                      if "file" in n else "none (a panel placed by hand)"))
        print(f"{manifest['lesson']}: {manifest['seconds']} s, {manifest['cpu_seconds']} CPU s "
              f"({part['cpu_seconds']} for the narrow pictures), {len(manifest['figures'])} figures")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
