"""Each input array is validated once per call of an orchestrator (a report, the command line).

A profiler hook counts every call of the array checkers, however they are reached (a kind at a
door, a helper inside a body), with the argument's name and length and the module that asked
(the first frame outside the checkers and the door machinery).
"""

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
            local = frame.f_locals
            x = local.get("x", local.get("proba"))
            seen[(_asker(frame.f_back), CHECKERS[frame.f_code], local.get("name", "proba"), len(x))] += 1

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
    return dict(sum((Counter({k[1:]: c}) for k, c in seen.items()), Counter()))


TEST, VALIDATION = _data(50, 0), _data(30, 1)
COLUMNS = (("labels_1d", "y_true"), ("labels_1d", "y_pred"), ("as_finite_1d", "confidence"))
ONCE, VALIDATION_ONCE = ({(checker, name, n): 1 for checker, name in COLUMNS} for n in (50, 30))


def test_a_report_validates_each_array_once_on_behalf_of_its_caller_and_the_counter_sees_repeats():
    rep, seen = checks_during(lambda: rl.rejection_report(*TEST, rho=0.3))
    assert rep.n == 50
    assert dict(seen) == {("test_validate_once.py", *k): c for k, c in ONCE.items()}
    # and the counter sees a check that a public function repeats
    _, seen = checks_during(lambda: [rl.rejection_curves([1, 0, 1], [0.3, 0.2, 0.9]) for _ in range(2)])
    assert seen[("test_validate_once.py", "as_bool_1d", "accurate", 3)] == 2


class _Model:
    classes_ = np.array(["a", "b"])

    def predict_proba(self, X):
        p = 1 / (1 + np.exp(-np.asarray(X, dtype=float)))
        return np.column_stack([1 - p, p])


_X, _X_VAL = np.linspace(-2, 2, 40), np.linspace(-1, 1, 20)
_PROBA, _VAL_PROBA = (np.random.default_rng(seed).dirichlet(np.ones(3), n) for seed, n in ((2, 50), (3, 30)))

# every input array once, at the door (the validation data's at the validation door); the
# accuracy vectors and the test point's rejected mask never: the bootstrap and select_threshold
# run unchecked. The attribute named shows that the bands or the validation threshold were made.
ORCHESTRATED = {
    "bootstrap_and_validation": (lambda: rl.rejection_report(
        *TEST, n_boot=20, seed=0, rho=0.3, validation=dict(zip(("y_true", "y_pred", "confidence"),
                                                               VALIDATION))),
        "test_point_bands", {**ONCE, **VALIDATION_ONCE}),
    "probabilities": (lambda: rl.rejection_report(TEST[0], proba=_PROBA, labels=[0, 1, 2],
                                                  validation=dict(y_true=VALIDATION[0], proba=_VAL_PROBA)),
                      "threshold", {("labels_1d", "y_true", 50): 1, ("probabilities", "proba", 50): 1,
                                    ("labels_1d", "labels", 3): 1, ("labels_1d", "y_true", 30): 1,
                                    ("probabilities", "proba", 30): 1}),
    "estimator": (lambda: rl.report_from_estimator(
        _Model(), _X, np.where(_X > 0.3, "b", "a").tolist(),
        validation=(_X_VAL, np.where(_X_VAL > 0, "b", "a").tolist())),
        "threshold", {("labels_1d", "y", 40): 1, ("labels_1d", "estimator.classes_", 2): 1,
                      ("probabilities", "proba", 40): 1, ("labels_1d", "y_val", 20): 1,
                      ("probabilities", "proba", 20): 1}),
}


@pytest.mark.parametrize("call,made,expected", ORCHESTRATED.values(), ids=list(ORCHESTRATED))
def test_a_report_validates_each_array_once(call, made, expected):
    rep, seen = checks_during(call)
    assert getattr(rep, made) is not None
    assert _door(seen) == expected


def _csv(path, rows):
    y, pred, conf = rows
    path.write_text("y_true,y_pred,confidence\n"
                    + "".join(f"{a},{b},{c!r}\n" for a, b, c in zip(y, pred, conf)))
    return str(path)


@pytest.mark.slow
def test_the_command_line_report_validates_each_array_once(tmp_path, capsys):
    """The bootstrap, the validation threshold, the curves file and the figures run on what
    the report's door validated."""
    from rejlab.cli import main

    test, val = _csv(tmp_path / "test.csv", TEST), _csv(tmp_path / "val.csv", VALIDATION)
    code, seen = checks_during(lambda: main(["report", test, "--validation", val, "--rho", "0.3",
                                             "--bootstrap", "20", "--seed", "0",
                                             "--out", str(tmp_path / "out")]))
    assert code == 0 and "wrote" in capsys.readouterr().out
    assert _door(seen) == {**ONCE, **VALIDATION_ONCE}
