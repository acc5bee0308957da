"""Every lesson and teacher's solution notebook is stored as nbval needs it: nbval compares only
cells stored with outputs, and a widget or figure never compares, so its cell is marked
NBVAL_IGNORE_OUTPUT. The solutions solve every exercise and show every misconception's message."""

import json
import re
from pathlib import Path

import nbformat
import pytest

import rejlab as rl

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOKS_DIR.glob("*.ipynb"))
SOLUTIONS = sorted((ROOT / "teacher" / "solutions").glob("*.ipynb"))
EXECUTED = NOTEBOOKS + SOLUTIONS        # everything nbval runs

#: The course, in order: the lessons on disk (the README's course table names each,
#: tests/test_readme.py; the teacher guide has a row for each, tests/test_docs.py).
LESSONS = [p.stem for p in NOTEBOOKS]

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
IMAGE_MIMES = ("image/png", "image/jpeg", "image/svg+xml")


def read(path):
    return nbformat.read(path, as_version=4)


def is_ignored(cell):
    lines = [line.strip() for line in cell.source.splitlines()]
    return "# NBVAL_IGNORE_OUTPUT" in lines or "nbval-ignore-output" in cell.metadata.get("tags", [])


def shows_widget_or_figure(cell):
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        if WIDGET_MIME in data or any(m in data for m in IMAGE_MIMES) \
                or str(data.get("text/plain", "")).startswith("<Figure"):
            return True
    return False


@pytest.mark.parametrize("path", EXECUTED, ids=[p.stem for p in EXECUTED])
def test_stored_as_nbval_needs_it_and_opened_in_the_lab_unmodified(path):
    text = path.read_text(encoding="utf-8")      # an integral float such as 1.0 counts as changed
    assert _as_the_lab_writes(text) == text, \
        f"{path.name}: the lab would save it changed; store it with tools/execute_notebooks.py --as-stored"
    nb = read(path)
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"
    cells = [c for c in nb.cells if c.cell_type == "code"]
    assert cells and "import rejlab as rl" in cells[0].source
    # one fresh run from the top numbers the cells 1, 2, 3, ... (None: stored without outputs)
    counts = [c.execution_count for c in cells]
    assert counts == list(range(1, len(cells) + 1)), \
        f"execution counts {counts}: re-execute the notebook top to bottom before committing"
    assert any(c.outputs for c in cells), "no cell has a stored output"
    for i, cell in enumerate(nb.cells):
        assert "NBVAL_SKIP" not in cell.source and "nbval-skip" not in cell.metadata.get(
            "tags", []), f"cell {i} is skipped"
        if cell.cell_type == "code":
            errors = [o.get("ename") for o in cell.outputs if o.output_type == "error"]
            assert not errors, f"cell {i} stored an error: {errors}"
            assert is_ignored(cell) or not shows_widget_or_figure(cell), \
                f"cell {i} shows a widget or a figure: start it with '# NBVAL_IGNORE_OUTPUT'"


def test_the_meta_checks_can_fail():
    text = (NOTEBOOKS_DIR / "00_start_here.ipynb").read_text(encoding="utf-8")
    renamed = text.replace('"Python 3 (ipykernel)"', '"Python 3"')
    integral = text.replace('"nbformat": 4,', '"nbformat": 4.0,')
    assert _as_the_lab_writes(renamed) != renamed and _as_the_lab_writes(integral) != integral
    widget = nbformat.v4.new_code_cell("rl.widgets.four_subsets_explorer()")
    widget.outputs = [nbformat.v4.new_output("display_data", data={WIDGET_MIME: {}, "text/plain": "X"})]
    assert shows_widget_or_figure(widget) and not is_ignored(widget)
    widget.source = "# NBVAL_IGNORE_OUTPUT\n" + widget.source
    assert is_ignored(widget)


@pytest.mark.parametrize("index, lesson", list(enumerate(LESSONS)), ids=LESSONS)
def test_each_lesson_states_objectives_at_the_top_and_links_its_neighbours(index, lesson):
    # its time, "**Time:** about N minutes" split three ways: tests/test_docs.py, beside the guide's
    markdown = [c.source for c in read(NOTEBOOKS_DIR / f"{lesson}.ipynb").cells if c.cell_type == "markdown"]
    links = re.findall(r"\]\(([^)\s]+)\)", "\n".join(markdown))
    neighbours = LESSONS[max(index - 1, 0):index] + LESSONS[index + 1:index + 2]
    assert [f"{n}.ipynb" for n in neighbours if f"{n}.ipynb" not in links] == []
    head = markdown[0]
    assert head.startswith("# "), "the first cell starts with the lesson's title"
    assert re.search(r"\*\*Objectives[.:]?\*\*", head), "no **Objectives.** in the first cell"
    bullets = re.findall(r"^\s*[*-] ", head.split("Objectives", 1)[1], flags=re.M)
    assert len(bullets) >= 2, "the objectives are a list of at least two items"


def _stored_text(cell):
    """Everything a code cell printed or displayed as text, from its stored outputs."""
    return "\n".join(out.get("text", "") if out.get("output_type") == "stream"
                     else str(out.get("data", {}).get("text/plain", "")) for out in cell.get("outputs", []))


def test_every_exercise_is_solved_and_every_misconception_shown_in_the_solutions():
    cells = [cell for path in SOLUTIONS for cell in read(path).cells if cell.cell_type == "code"]
    exercises = {id: ex for id, ex in rl.exercises.EXERCISES.items()      # the lessons' (tests may add)
                 if re.fullmatch(r"(demo|\d\d[a-z]?)-\d+", id)}
    assert len(exercises) >= 55
    solved = {id for cell in cells for id in exercises
              if f'rl.exercises.check("{id}"' in cell.source
              and f"✅ {id}: correct." in _stored_text(cell)}
    assert sorted(set(exercises) - solved) == [], "exercises no solution checks with a stored ✅"
    shown = "\n".join(_stored_text(cell) for cell in cells)
    missing = [(id, message[:50]) for id, ex in exercises.items()
               for message in ex.misconceptions if f"❌ {id}: not yet. {message}" not in shown]
    assert not missing, f"registered misconceptions no solution notebook shows: {missing}"


def _as_the_lab_writes(text):
    """What JupyterLab saves after opening a notebook stored as ``text``: its kernelspec from the
    kernelspecs API, every number through JavaScript's JSON (no integral float), nbformat's writer."""
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec("python3")
    nb = json.loads(text, parse_float=lambda s: int(float(s)) if float(s).is_integer() else float(s))
    nb["metadata"]["kernelspec"] = {"display_name": spec.display_name, "language": spec.language,
                                    "name": "python3"}
    return nbformat.writes(nbformat.from_dict(nb)) + "\n"
