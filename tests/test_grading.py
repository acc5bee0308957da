"""rejlab.grading: the checks of the graded notebooks.

The record and its check run in a fresh interpreter (the record is the process's, as in a
kernel), and once in a real kernel, where a student's cell could hook IPython itself; the
comparisons are held against a naive reference with Hypothesis.
"""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, strategies as st

import rejlab as rl
from rejlab import grading

FLOATS = st.floats(allow_nan=True, allow_infinity=True, width=64)


@given(FLOATS, FLOATS)
def test_close_is_the_plain_tolerance_rule(a, b):
    if math.isnan(a) or math.isnan(b):
        expected = math.isnan(a) and math.isnan(b)
    elif math.isinf(a) or math.isinf(b):
        expected = a == b
    else:
        gap, size = abs(Fraction(a) - Fraction(b)), abs(Fraction(b))
        expected = gap <= Fraction(1e-12) + Fraction(1e-9) * size
    assert grading.close(a, b) is expected


def test_answers_are_converted_once_to_exact_builtin_values():
    assert grading.number(np.float32(0.5)) == 0.5 and type(grading.number(np.int64(3))) is float
    assert grading.number(np.array(2.5)) == 2.5
    assert grading.numbers(np.array([1, 2]), 2) == (1.0, 2.0)

    class Sly(float):
        def __eq__(self, other):
            return True

    for bad in ("0.5", [0.5], None, Sly(0.1), object()):
        with pytest.raises(AssertionError, match="best_r should be a number"):
            grading.number(bad, "best_r")
    with pytest.raises(AssertionError, match="3 numbers, not 2"):
        grading.numbers((1, 2), 3)
    assert grading.floats([[1, 2]]) == ((1, 2), (1.0, 2.0))
    assert grading.flags(np.array([True, False])) == ((2,), (True, False))
    with pytest.raises(AssertionError, match="booleans"):
        grading.flags([0, 1])
    assert grading.elements({1, np.int64(2), "a"}) == {1, 2, "a"}
    with pytest.raises(AssertionError, match="ints or strings"):
        grading.elements({0.5})
    assert grading.text(np.str_("white")) == "white"
    with pytest.raises(AssertionError, match="a string"):
        grading.text(3)


def test_same_broken_and_restore():
    op = rl.operating_point([1, 0, 1, 1], [0, 1, 0, 0])
    assert grading.same(op, rl.operating_point([1, 0, 1, 1], [0, 1, 0, 0]))
    assert not grading.same(op, rl.operating_point([1, 0, 1, 1], [0, 0, 0, 1]))
    assert grading.same({"a": np.array([1.0, np.nan])}, {"a": np.array([1.0, np.nan])})
    assert not grading.same({"a": 1}, {"a": 1, "b": 2}) and not grading.same("x", 1.0)
    assert grading.same(np.array(["1", "neither"]), np.array(["1", "neither"]))
    assert not grading.same([True, False], np.array([True, True]))
    namespace = {"x": np.array([1.0, 2.0]), "y": "wrong", "model": object()}
    reference = {"x": np.array([1.0, 2.0]), "y": "right", "z": 3.0, "model": object()}
    found = grading.broken(namespace, reference, compare={"model": lambda mine, ref: True})
    assert found == ["y", "z"]
    assert grading.restore(namespace, reference, found) == ("y", "z")
    assert namespace["y"] == "right" and namespace["z"] == 3.0
    assert grading.broken(namespace, reference, compare={"model": lambda m, r: 1 / 0}) == ["model"]


def test_calls_rejlab_sees_rejlab_behind_any_name():
    scope = {"rl": rl, "alias": rl.operating_point, "np": np}

    exec(textwrap.dedent("""
        def direct(a):
            return rl.aurc(a, a)
        def aliased(a):
            return alias(a, a)
        def nested(a):
            def inner():
                return rl.cost(1, 0, 0.5)
            return inner()
        def plain(a):
            return np.sum(a)
    """), scope)
    assert [grading.calls_rejlab(scope[f]) for f in ("direct", "aliased", "nested", "plain")] \
        == [True, True, True, False]


RECORD_SCRIPT = textwrap.dedent("""
    import builtins, sys
    import numpy as np
    import rejlab as rl
    import rejlab.grading as grading
    from sklearn.linear_model import LogisticRegression

    ns = {"np": np, "rl": rl, "grading": grading, "SEED": 2024, "GRID": np.linspace(0, 1, 3),
          "__builtins__": builtins}
    grading.snapshot(ns)
    grading.check_genuine(ns)

    def caught(what):
        try:
            grading.check_genuine(ns)
        except AssertionError as exc:
            print(what, "->", exc)
        else:
            print(what, "-> missed")

    real = np.isclose
    np.isclose = lambda *a, **k: np.True_
    caught("np.isclose"); np.isclose = real
    real = rl.curves.RejectionCurves.best_Q
    rl.curves.RejectionCurves.best_Q = lambda self: 0
    caught("a rejlab method"); rl.curves.RejectionCurves.best_Q = real
    real = sys.modules["numpy"]
    sys.modules["numpy"] = None
    caught("sys.modules"); sys.modules["numpy"] = real
    real = builtins.abs
    builtins.abs = lambda x: 0
    caught("builtins.abs"); builtins.abs = real
    ns["float"] = lambda x: 1.0
    caught("a shadowed float"); del ns["float"]
    ns["SEED"] = 0
    caught("SEED"); ns["SEED"] = 2024
    ns["GRID"][0] = 9
    caught("GRID in place"); ns["GRID"][0] = 0
    real = LogisticRegression.predict_proba
    LogisticRegression.predict_proba = lambda self, X: 0
    caught("a scikit-learn method"); LogisticRegression.predict_proba = real
    sys.settrace(lambda *a: None)
    caught("a trace function")
    grading.check_genuine(ns)
    print("restored: genuine")
""")


def test_the_record_catches_each_rebinding_and_passes_once_undone():
    done = subprocess.run([sys.executable, "-c", RECORD_SCRIPT], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    lines = dict(line.split(" -> ", 1) for line in done.stdout.splitlines() if " -> " in line)
    expected = {"np.isclose": "numpy.isclose was rebound",
                "a rejlab method": "RejectionCurves.best_Q was rebound",
                "sys.modules": "sys.modules['numpy'] was replaced",
                "builtins.abs": "builtins.abs was rebound",
                "a shadowed float": "the notebook rebinds the built-in 'float'",
                "SEED": "'SEED', defined by the set-up cell, was rebound",
                "GRID in place": "'GRID', defined by the set-up cell, was rebound",
                "a scikit-learn method": "LogisticRegression.predict_proba was rebound",
                "a trace function": "sys.gettrace() changed"}
    for what, says in expected.items():
        assert says in lines.get(what, "missed"), (what, lines.get(what))
    assert done.stdout.strip().endswith("restored: genuine")


@pytest.mark.slow
def test_in_a_kernel_hooks_that_would_hide_a_failure_are_caught_and_undone():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    cells = [
        "import numpy as np\nimport rejlab as rl\nimport rejlab.grading as grading\n"
        "SEED = 1\ngrading.snapshot(globals())",
        "def answer():\n    return 0",
        "grading.check_genuine(globals())\nassert answer() == 0",
        # a student's cell: swallow every error, and clear a cell's outputs after it ran
        "from IPython.display import clear_output\n"
        "get_ipython().set_custom_exc((Exception,), lambda *a, **k: None)\n"
        "get_ipython().events.register('post_run_cell', clear_output)",
        "grading.check_genuine(globals())",
        "assert 1 == 2, 'a failing test'",
    ]
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    nbclient.NotebookClient(nb, kernel_name="python3", allow_errors=True, timeout=120).execute()
    errors = [[o.get("evalue", "") for o in c.outputs if o.output_type == "error"]
              for c in nb.cells]
    assert errors[2] == [] and errors[0] == []
    assert any("custom exception handlers changed" in e and "post_run_cell" in e
               for e in errors[4]), errors[4]
    assert errors[5] == ["a failing test"], "the hooks were taken back: the failure shows"
