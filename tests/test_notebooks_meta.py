"""Every lesson notebook, and every teacher's solution notebook, is stored the way nbval needs it.

nbval only compares cells that were stored with outputs, so a notebook saved
without outputs would "pass" while checking nothing. These tests read the
.ipynb files (no kernel) and check, for the lessons in notebooks/ and the
worked solutions in teacher/solutions/: outputs are stored, the notebook was
executed top to bottom, nothing is skipped, the kernelspec is python3, and
every cell whose output is a live widget or a figure (never comparable) is
marked NBVAL_IGNORE_OUTPUT.

The solutions are checked further: every registered exercise is solved in
some solution notebook by a ``rl.exercises.check`` cell whose stored output
says it is correct, every registered misconception's message appears there,
and no lesson links into ``teacher/`` (the solutions are never linked from
the student lessons).
"""

import json
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOKS_DIR.glob("*.ipynb"))
SOLUTIONS_DIR = ROOT / "teacher" / "solutions"
SOLUTIONS = sorted(SOLUTIONS_DIR.glob("*.ipynb"))
#: Everything nbval runs: the lessons and the teacher's solutions.
EXECUTED = NOTEBOOKS + SOLUTIONS

LESSONS = [
    "00_start_here", "01_partitions", "02_four_subsets_and_measures",
    "03_measures_vs_rejection", "04_operating_sets", "04b_relative_optimality",
    "05_the_cost_of_rejection", "06_rejector_as_binary_classifier",
    "07_neighborhood_systems", "08_unified_accuracy_aa_rar", "09_multilabel_evaluation",
    "10_context_and_rejection", "11_evaluate_your_classifier", "12_how_sure_are_you",
    "13_same_ideas_other_names", "14_can_we_promise_a_risk", "15_calibration_and_rejection",
    "17_learning_to_defer",
]

# Outputs nbval cannot compare meaningfully: live widgets and figures.
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
IMAGE_MIMES = ("image/png", "image/jpeg", "image/svg+xml")


def read(path):
    return nbformat.read(path, as_version=4)


def code_cells(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


def is_ignored(cell):
    lines = [line.strip() for line in cell.source.splitlines()]
    tags = cell.get("metadata", {}).get("tags", [])
    return "# NBVAL_IGNORE_OUTPUT" in lines or "nbval-ignore-output" in tags


def shows_widget_or_figure(cell):
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        if WIDGET_MIME in data or any(m in data for m in IMAGE_MIMES):
            return True
        if str(data.get("text/plain", "")).startswith("<Figure"):
            return True
    return False


def ids(paths):
    return [p.stem for p in paths]


def test_there_are_solution_notebooks():
    assert SOLUTIONS, f"no solution notebooks found in {SOLUTIONS_DIR}"


def test_there_are_notebooks():
    assert NOTEBOOKS, f"no notebooks found in {NOTEBOOKS_DIR}"


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_lesson_of_the_course_map_exists(lesson):
    assert (NOTEBOOKS_DIR / f"{lesson}.ipynb").is_file(), f"notebooks/{lesson}.ipynb is missing"


@pytest.mark.parametrize("path", EXECUTED, ids=ids(EXECUTED))
def test_kernelspec_is_python3(path):
    assert read(path).metadata.get("kernelspec", {}).get("name") == "python3"


@pytest.mark.parametrize("path", EXECUTED, ids=ids(EXECUTED))
def test_stored_with_outputs_and_executed_top_to_bottom(path):
    cells = code_cells(read(path))
    assert cells, "a notebook needs code cells"
    counts = [c.execution_count for c in cells]
    missing = [i for i, n in enumerate(counts) if n is None]
    assert not missing, f"code cells {missing} have no execution count (stored without outputs?)"
    # one fresh run from the top numbers the cells 1, 2, 3, ...
    assert counts == list(range(1, len(cells) + 1)), (
        f"execution counts {counts}: re-execute the notebook top to bottom before committing")
    assert any(c.outputs for c in cells), "no cell has a stored output"


@pytest.mark.parametrize("path", EXECUTED, ids=ids(EXECUTED))
def test_no_stored_errors(path):
    for i, cell in enumerate(code_cells(read(path))):
        errors = [o for o in cell.outputs if o.output_type == "error"]
        assert not errors, f"code cell {i} stored an error: {errors[0].get('ename')}"


@pytest.mark.parametrize("path", EXECUTED, ids=ids(EXECUTED))
def test_no_cell_is_skipped(path):
    for i, cell in enumerate(read(path).cells):
        assert "NBVAL_SKIP" not in cell.source, f"cell {i} uses NBVAL_SKIP"
        assert "nbval-skip" not in cell.get("metadata", {}).get("tags", []), f"cell {i} has tag nbval-skip"


@pytest.mark.parametrize("path", EXECUTED, ids=ids(EXECUTED))
def test_widget_and_figure_cells_are_ignored_by_nbval(path):
    for i, cell in enumerate(code_cells(read(path))):
        if shows_widget_or_figure(cell):
            assert is_ignored(cell), (
                f"code cell {i} shows a widget or a figure: start it with '# NBVAL_IGNORE_OUTPUT'")


@pytest.mark.parametrize("path", EXECUTED, ids=ids(EXECUTED))
def test_starts_by_importing_rejlab(path):
    first = code_cells(read(path))[0]
    assert "import rejlab as rl" in first.source


def test_the_meta_checks_can_fail():
    """The two predicates above recognise what they are meant to."""
    widget = nbformat.v4.new_code_cell("rl.widgets.four_subsets_explorer()")
    widget.outputs = [nbformat.v4.new_output("display_data", data={WIDGET_MIME: {}, "text/plain": "X"})]
    assert shows_widget_or_figure(widget) and not is_ignored(widget)
    widget.source = "# NBVAL_IGNORE_OUTPUT\n" + widget.source
    assert is_ignored(widget)
    printed = nbformat.v4.new_code_cell("print(1)")
    printed.outputs = [nbformat.v4.new_output("stream", name="stdout", text="1\n")]
    assert not shows_widget_or_figure(printed)


def markdown_links(path):
    import re

    text = "\n".join(c.source for c in read(path).cells if c.cell_type == "markdown")
    return re.findall(r"\]\(([^)\s]+)\)", text)


@pytest.mark.parametrize("index", range(len(LESSONS)), ids=LESSONS)
def test_each_lesson_links_to_the_previous_and_the_next(index):
    links = markdown_links(NOTEBOOKS_DIR / f"{LESSONS[index]}.ipynb")
    if index > 0:
        assert f"{LESSONS[index - 1]}.ipynb" in links, "no link to the previous lesson"
    if index < len(LESSONS) - 1:
        assert f"{LESSONS[index + 1]}.ipynb" in links, "no link to the next lesson"


def test_start_here_maps_every_lesson():
    links = markdown_links(NOTEBOOKS_DIR / "00_start_here.ipynb")
    missing = [lesson for lesson in LESSONS if f"{lesson}.ipynb" not in links]
    assert not missing, f"lesson 00's map has no link to {missing}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids(NOTEBOOKS))
def test_relative_links_resolve(path):
    for link in markdown_links(path):
        if "://" in link or link.startswith(("#", "mailto:")):
            continue
        target = (path.parent / link.split("#")[0]).resolve()
        assert target.exists(), f"link {link!r} points to no file"


def _header(path):
    nb = read(path)
    return next(c.source for c in nb.cells if c.cell_type == "markdown")


@pytest.mark.parametrize("lesson", LESSONS)
def test_each_lesson_states_objectives_and_time_at_the_top(lesson):
    import re

    head = _header(NOTEBOOKS_DIR / f"{lesson}.ipynb")
    assert head.startswith("# "), "the first cell starts with the lesson's title"
    assert re.search(r"\*\*Objectives[.:]?\*\*", head), "no **Objectives.** in the first cell"
    bullets = re.findall(r"^\s*[*-] ", head.split("Objectives", 1)[1], flags=re.M)
    assert len(bullets) >= 2, "the objectives are a list of at least two items"
    m = re.search(r"\*\*Time[.:]?\*\*[.:]?\s*[Aa]bout (\d+) minutes", head)
    assert m and 5 <= int(m.group(1)) <= 120, "no '**Time:** about N minutes' in the first cell"


def test_there_is_no_lesson_outside_the_course_map():
    assert sorted(p.stem for p in NOTEBOOKS) == sorted(LESSONS)


# --- the teacher's solutions --------------------------------------------------------


def _stored_text(cell):
    """Everything a code cell printed or displayed as text, from its stored outputs."""
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            parts.append(out.get("text", ""))
        parts.append(str(out.get("data", {}).get("text/plain", "")))
    return "\n".join(parts)


def _solution_cells():
    return [(path.name, cell) for path in SOLUTIONS for cell in code_cells(read(path))]


def _exercises():
    """The course's exercises: the lessons' ids, such as "03-2" (tests may register more)."""
    import rejlab as rl

    return {id: ex for id, ex in rl.exercises.EXERCISES.items()
            if re.fullmatch(r"(demo|\d\d[a-z]?)-\d+", id)}


def test_every_exercise_is_solved_with_a_check_that_passes():
    solved = set()
    for _, cell in _solution_cells():
        text = _stored_text(cell)
        for id in _exercises():
            if f'rl.exercises.check("{id}"' in cell.source and f"✅ {id}: correct." in text:
                solved.add(id)
    missing = sorted(set(_exercises()) - solved)
    assert not missing, (f"no solution notebook in teacher/solutions/ checks these exercises "
                         f"with a stored ✅: {missing}")


def test_every_misconception_message_is_shown_in_the_solutions():
    shown = "\n".join(_stored_text(cell) for _, cell in _solution_cells())
    assert len(_exercises()) >= 55
    missing = [(id, message[:50]) for id, ex in _exercises().items()
               for message in ex.misconceptions if f"❌ {id}: not yet. {message}" not in shown]
    assert not missing, f"registered misconceptions no solution notebook shows: {missing}"


def test_the_solution_checks_can_fail():
    """The two solution checks recognise a passing check cell, and only that."""
    cell = nbformat.v4.new_code_cell('rl.exercises.check("02-1", A)')
    cell.outputs = [nbformat.v4.new_output("execute_result", data={
        "text/plain": "❌ 02-1: not yet. You divided by n."}, execution_count=1)]
    assert "✅ 02-1: correct." not in _stored_text(cell)
    cell.outputs[0]["data"]["text/plain"] = "✅ 02-1: correct. Rejecting six leaves four kept."
    assert "✅ 02-1: correct." in _stored_text(cell)


def _all_links_and_mentions(path):
    text = "\n".join(c.source for c in read(path).cells)
    return markdown_links(path), text


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids(NOTEBOOKS))
def test_no_lesson_links_to_the_teacher_folder(path):
    links, text = _all_links_and_mentions(path)
    into_teacher = [link for link in links if "teacher/" in link or "solutions" in link]
    assert not into_teacher, f"a lesson links to the teacher's material: {into_teacher}"
    assert "teacher/solutions" not in text, "a lesson names the solutions folder"


def test_the_teacher_link_check_can_fail(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
        "See [the answers](../teacher/solutions/solutions_00_03.ipynb).")])
    nbformat.write(nb, tmp_path / "x.ipynb")
    links, text = _all_links_and_mentions(tmp_path / "x.ipynb")
    assert links == ["../teacher/solutions/solutions_00_03.ipynb"] and "teacher/solutions" in text


def _integral_floats(node, path="$"):
    if isinstance(node, float) and node.is_integer():
        yield path
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _integral_floats(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _integral_floats(value, f"{path}[{i}]")


def _as_the_lab_writes(text):
    """What JupyterLab saves after opening a notebook stored as ``text``: its kernelspec from the
    kernelspecs API, every number through JavaScript's JSON (no integral float), nbformat's writer."""
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec("python3")
    nb = json.loads(text, parse_float=lambda s: int(float(s)) if float(s).is_integer() else float(s))
    nb["metadata"]["kernelspec"] = {"display_name": spec.display_name, "language": spec.language,
                                    "name": "python3"}
    return nbformat.writes(nbformat.from_dict(nb)) + "\n"


@pytest.mark.parametrize("path", EXECUTED, ids=ids(EXECUTED))
def test_opening_a_notebook_in_the_lab_leaves_it_unmodified(path):
    text = path.read_text(encoding="utf-8")
    assert not list(_integral_floats(json.loads(text))), "integral floats the lab would rewrite"
    assert _as_the_lab_writes(text) == text, \
        f"{path.name}: the lab would save it changed; store it with tools/execute_notebooks.py --as-stored"


def test_the_unmodified_check_can_fail():
    text = (NOTEBOOKS_DIR / "00_start_here.ipynb").read_text(encoding="utf-8")
    assert _as_the_lab_writes(text.replace('"Python 3 (ipykernel)"', '"Python 3"')) != \
        text.replace('"Python 3 (ipykernel)"', '"Python 3"')
    assert list(_integral_floats(json.loads('{"a": [1.0, 0.5]}'))) == ["$.a[0]"]
