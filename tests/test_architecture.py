"""The layers of the package point one way (docs/architecture.md): every import inside ``rejlab``,
nested ones too, read with ``ast``; a failure lists each offending import with its file and line."""

import ast
import graphlib
import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy
import pytest

import rejlab as rl

ROOT = Path(__file__).resolve().parents[1] / "rejlab"

#: Layer of each top-level part of the package; a module may import its own
#: layer and the layers listed for it.
LAYER_OF = dict.fromkeys(["_validate", "_sets", "_version", "_ranking", "_labels", "_set_checks",
                          "_constraints", "_kinds"], "foundation")
LAYER_OF.update(dict.fromkeys(
    ["_blocks", "_signatures", "_conversions", "_formulas", "_label_counts", "_report_inputs",
     "_report_text", "_risk_coverage", "partitions", "measures", "curves", "binary", "rejectors",
     "optimality", "prices", "selective", "bootstrap", "comparison", "coverings", "accuracy",
     "multilabel", "report", "context", "datasets", "guarantees", "_risk_control", "_resampling",
     "calibration", "conformal", "deferral", "novelty", "abstention"], "maths"))
LAYER_OF.update(plot="plot", course="course", cli="cli", __main__="cli")
#: Drawing and widgets are the plot's and the course's: the maths imports neither.
EXTERNAL = {"matplotlib": "plot", "ipywidgets": "course"}
ALLOWED = {"foundation": {"foundation"}, "maths": {"foundation", "maths"},
           "plot": {"foundation", "maths", "plot"}, "course": {"foundation", "maths", "plot", "course"},
           "cli": {"foundation", "maths", "plot", "cli"}}


MODULES = {".".join(("rejlab", *path.relative_to(ROOT).with_suffix("").parts)).removesuffix(".__init__"): path
           for path in ROOT.rglob("*.py")}


def _package_of(name, path):
    return name if path.name == "__init__.py" else name.rsplit(".", 1)[0]


def _resolve(target):
    """The module a dotted import target lives in (a name inside a module maps to the module)."""
    while target not in MODULES and "." in target:
        target = target.rsplit(".", 1)[0]
    return target


def _from_module(node, package):
    """The module an ``ImportFrom`` names, its relative level resolved against ``package``."""
    if not node.level:
        return node.module or ""
    base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
    return ".".join(p for p in (base, node.module) if p)


def _targets(node, package):
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    module = _from_module(node, package)
    return [f"{module}.{a.name}" if f"{module}.{a.name}" in MODULES else module for a in node.names]


def _import_nodes(tree):
    return [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]


def _imports(name, path):
    package = _package_of(name, path)
    found = [(node.lineno, _resolve(t)) for node in _import_nodes(ast.parse(path.read_text("utf-8")))
             for t in _targets(node, package) if t.split(".")[0] in ("rejlab", *EXTERNAL)]
    return [(line, target) for line, target in found if target != name]


def _layer(module):
    return EXTERNAL.get(module) or (LAYER_OF[module.split(".")[1]] if "." in module else "face")


EDGES = {name: _imports(name, path) for name, path in MODULES.items()}


def test_every_module_has_a_layer_and_imports_point_down_only():
    unknown = sorted(m for m in MODULES if m != "rejlab" and m.split(".")[1] not in LAYER_OF)
    assert not unknown, f"give these modules a layer in LAYER_OF: {unknown}"
    bad = [f"{MODULES[name]}:{line} ({_layer(name)}) imports {target} ({_layer(target)})"
           for name, edges in EDGES.items() if name != "rejlab" for line, target in edges
           if target == "rejlab" or _layer(target) not in ALLOWED[_layer(name)]]
    assert not bad, "imports running up the layers:\n" + "\n".join(bad)


def test_no_import_cycles():
    graph = {name: {t for _, t in edges if t != name} for name, edges in EDGES.items()}
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as exc:
        pytest.fail(f"import cycle: {exc.args[1]}")


# --- rooms: one topic per module, private names kept private, imports at the top ----------

#: Longest module allowed: a module over this holds more than one topic.
MAX_LINES = 600


def test_no_module_exceeds_the_room_size():
    big = {str(path.relative_to(ROOT.parent)): n for path in MODULES.values()
           if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not big, f"modules over {MAX_LINES} lines (split them by topic): {big}"


def _private_imports(name, path):
    """Underscore names (not modules) that ``path`` imports from other modules of the package."""
    found = []
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        module = _from_module(node, _package_of(name, path)) if isinstance(node, ast.ImportFrom) else ""
        if module.split(".")[0] != "rejlab":
            continue
        found += [f"{path.name}:{node.lineno} imports {a.name} from {module}" for a in node.names
                  if a.name.startswith("_") and not a.name.startswith("__")
                  and f"{module}.{a.name}" not in MODULES]
    return found


def test_private_names_stay_in_their_module(tmp_path):
    """What two modules share lives, without underscore, in an internal (underscore) module."""
    found = [line for name, path in MODULES.items() for line in _private_imports(name, path)]
    assert not found, "private names crossing modules:\n" + "\n".join(found)
    fake = tmp_path / "curves.py"    # the check can fail
    fake.write_text((ROOT / "curves.py").read_text(encoding="utf-8") + "\nfrom ._ranking import _sortable\n")
    assert _private_imports("rejlab.curves", fake)


#: Imports that may stay inside a function: heavy or with side effects, and needed on one path
#: (pyplot chooses a backend; the CLI's drawing only ``--out`` needs; the command's modules, which
#: ``rejlab.cli.main`` loads once its Ctrl-C and SIGTERM handling is in place).
LAZY_IMPORTS = ("matplotlib.pyplot", "sklearn", "scipy", "matplotlib.figure", "rejlab.plot",
                "rejlab.cli._run")
MAX_LOCAL_IMPORTS = 15


def test_imports_sit_at_the_top_but_the_lazy_ones():
    found = [(f"{path.relative_to(ROOT.parent)}:{node.lineno}", _targets(node, _package_of(name, path)))
             for name, path in MODULES.items() for func in ast.walk(ast.parse(path.read_text("utf-8")))
             if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) for node in _import_nodes(func)]
    eager = [where for where, targets in found if not all(t.startswith(LAZY_IMPORTS) for t in targets)]
    assert not eager, "imports inside functions that belong at the top:\n" + "\n".join(eager)
    assert len(found) <= MAX_LOCAL_IMPORTS, [where for where, _ in found]


def test_the_face_lists_each_name_once_and_every_name_resolves():
    assert len(rl.__all__) == len(set(rl.__all__))
    owners = {}
    for owner in rl._OWNERS:
        for name in set(importlib.import_module(f"rejlab.{owner}").__all__) & set(rl.__all__):
            owners.setdefault(name, []).append(owner)
    twice = {name: where for name, where in owners.items() if len(where) > 1}
    assert not twice, f"face names owned by two modules: {twice}"
    assert all(getattr(rl, name) is not None for name in rl.__all__)
    modules = {"datasets", "plot", "context", "cli", "course", "__version__"}
    assert set(rl.__all__) - modules == set(owners), "a face name no owner module defines"


def test_the_library_stands_without_the_course(tmp_path):
    """A copy of the package without ``rejlab/course/`` imports and computes; the lessons'
    spellings of the course's names are then an AttributeError, nothing else."""
    spellings = ("rl.widgets", "rl.exercises", "rl.datasets.max_q_points", "rl.plot.max_q_points")
    shutil.copytree(ROOT, tmp_path / "rejlab", ignore=shutil.ignore_patterns("course", "__pycache__"))
    script = """
import rejlab as rl, rejlab.plot, rejlab.cli, rejlab.context
import numpy as np
toy = rl.datasets.four_gaussians(50, seed=0)
c = toy.confidence("max_probability")
print(rl.operating_point(toy.accurate, rl.reject_lowest(c, fraction=0.2)).Q > 0,
      rl.aurc(toy.accurate, c) > 0, rl.absolute_accuracy([{1, 2}, {3}], [{1}, {2, 3}]),
      str(rl.rejection_report(toy.y, proba=toy.proba)).startswith("Rejection report"))
for spelling in SPELLINGS:
    try:
        eval(spelling)
    except (AttributeError, ModuleNotFoundError):
        print("absent", spelling)
""".replace("SPELLINGS", repr(spellings))
    # -S: no site hooks, so no editable install maps rejlab.course back to this checkout; the
    # copy comes first on the path, then the packages rejlab needs (NumPy, matplotlib)
    packages = str(Path(numpy.__file__).parents[1])
    done = subprocess.run([sys.executable, "-S", "-c", script], cwd=tmp_path, capture_output=True,
                          text=True, env={"PYTHONPATH": os.pathsep.join([str(tmp_path), packages]),
                                          "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"True True {2 / 3} True", lines
    assert lines[1:] == [f"absent {s}" for s in spellings]
    assert "rejlab.course" not in done.stderr
