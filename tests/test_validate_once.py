"""Each input array is validated once per call of an orchestrator (report, experiment, CLI, explorer).

A profiler hook counts every call of the array checkers (``as_bool_1d``,
``as_finite_1d``, ``labels_1d``, ``probabilities``), however
they are reached (a kind at a door, a helper inside a body), during one
call, and records the array each was given (by argument name and length)
and the module that asked (the first frame outside the checkers and the
door machinery). The orchestrators validate at their door and then call
``func.unchecked``, so each input array is checked once and the arrays made
inside (the accuracy vector, the rejected mask) never.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import rejlab as rl
import rejlab._labels as labels_module
import rejlab._validate as v

CHECKERS = {f.__code__: f.__name__ for f in (v.as_bool_1d, v.as_finite_1d, v.probabilities,
                                              labels_module.labels_1d)}
#: Files of the checkers and of the door: the "asker" is the first frame outside them.
MACHINERY = {str(Path(m.__file__)) for m in (v, labels_module)} | {
    str(Path(rl.__file__).parent / name) for name in ("_constraints.py", "_kinds.py")}


def _asker(frame):
    while frame is not None and frame.f_code.co_filename in MACHINERY:
        frame = frame.f_back
    return Path(frame.f_code.co_filename).name if frame is not None else "?"


def checks_during(call):
    """``call()``, and a Counter of (asker, checker, argument name, length) of every array check."""
    seen = Counter()

    def hook(frame, event, arg):
        if event == "call" and frame.f_code in CHECKERS:
            name = CHECKERS[frame.f_code]
            local = frame.f_locals
            for arg_name, x in [(local.get("name", "proba"), local.get("x", local.get("proba")))]:
                seen[(_asker(frame.f_back), name, arg_name, len(x))] += 1

    sys.setprofile(hook)
    try:
        result = call()
    finally:
        sys.setprofile(None)
    return result, seen


def _data(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    pred = np.where(rng.random(n) < 0.7, y, rng.integers(0, 3, n))
    return y.tolist(), pred.tolist(), rng.random(n).tolist()


def _door(seen):
    """The checks by (checker, argument name, length), whoever asked."""
    door = Counter()
    for k, c in seen.items():
        door[k[1:]] += c
    return door


TEST = _data(50, 0)
VALIDATION = _data(30, 1)
ONCE = {("labels_1d", "y_true", 50): 1, ("labels_1d", "y_pred", 50): 1,
        ("as_finite_1d", "confidence", 50): 1}
VALIDATION_ONCE = {("labels_1d", "y_true", 30): 1, ("labels_1d", "y_pred", 30): 1,
                   ("as_finite_1d", "confidence", 30): 1}


def test_a_report_validates_each_array_once():
    rep, seen = checks_during(lambda: rl.rejection_report(*TEST, rho=0.3))
    assert rep.n == 50
    # the checks of the door are made on behalf of its caller: this file
    assert dict(seen) == {("test_validate_once.py", *k): c for k, c in ONCE.items()}


def test_a_report_with_bootstrap_and_validation_validates_each_array_once():
    y, pred, conf = VALIDATION
    rep, seen = checks_during(lambda: rl.rejection_report(
        *TEST, n_boot=20, seed=0, rho=0.3, validation=dict(y_true=y, y_pred=pred, confidence=conf)))
    assert rep.test_point_bands is not None
    # every input array once, at the door (the validation data's at the validation door);
    # the accuracy vectors and the test point's rejected mask never: the bootstrap and
    # select_threshold run unchecked
    assert dict(_door(seen)) == {**ONCE, **VALIDATION_ONCE}


def test_a_report_from_probabilities_validates_each_array_once():
    y, _, _ = TEST
    proba = np.random.default_rng(2).dirichlet(np.ones(3), 50)
    val_proba = np.random.default_rng(3).dirichlet(np.ones(3), 30)
    rep, seen = checks_during(lambda: rl.rejection_report(
        y, proba=proba, labels=[0, 1, 2], validation=dict(y_true=VALIDATION[0], proba=val_proba)))
    assert rep.labels == (0, 1, 2)
    assert dict(_door(seen)) == {("labels_1d", "y_true", 50): 1, ("probabilities", "proba", 50): 1,
                          ("labels_1d", "labels", 3): 1, ("labels_1d", "y_true", 30): 1,
                          ("probabilities", "proba", 30): 1}


def test_a_report_from_an_estimator_validates_each_array_once():
    class Model:
        classes_ = np.array(["a", "b"])

        def predict_proba(self, X):
            p = 1 / (1 + np.exp(-np.asarray(X, dtype=float)))
            return np.column_stack([1 - p, p])

    X, X_val = np.linspace(-2, 2, 40), np.linspace(-1, 1, 20)
    y, y_val = np.where(X > 0.3, "b", "a").tolist(), np.where(X_val > 0, "b", "a").tolist()
    rep, seen = checks_during(lambda: rl.report_from_estimator(Model(), X, y,
                                                               validation=(X_val, y_val)))
    assert rep.threshold is not None
    assert dict(_door(seen)) == {("labels_1d", "y", 40): 1, ("labels_1d", "estimator.classes_", 2): 1,
                          ("probabilities", "proba", 40): 1, ("labels_1d", "y_val", 20): 1,
                          ("probabilities", "proba", 20): 1}


def test_the_counter_sees_a_check_a_public_function_repeats():
    """The hook is not blind: calling the checked function twice counts two checks."""
    _, seen = checks_during(lambda: [rl.rejection_curves([1, 0, 1], [0.3, 0.2, 0.9])
                                     for _ in range(2)])
    assert seen[("test_validate_once.py", "as_bool_1d", "accurate", 3)] == 2


def _csv(path, rows):
    y, pred, conf = rows
    path.write_text("y_true,y_pred,confidence\n"
                    + "".join(f"{a},{b},{c!r}\n" for a, b, c in zip(y, pred, conf)))
    return str(path)


@pytest.mark.slow
def test_the_command_line_report_validates_each_array_once(tmp_path, capsys):
    """The CLI reads the files, then the report's door checks each column once: the bootstrap,
    the validation threshold, the curves file and the figures run on what it validated."""
    from rejlab.cli import main

    test, val = _csv(tmp_path / "test.csv", TEST), _csv(tmp_path / "val.csv", VALIDATION)
    code, seen = checks_during(lambda: main(["report", test, "--validation", val, "--rho", "0.3",
                                             "--bootstrap", "20", "--seed", "0",
                                             "--out", str(tmp_path / "out")]))
    assert code == 0 and "wrote" in capsys.readouterr().out
    assert dict(_door(seen)) == {**ONCE, **VALIDATION_ONCE}
