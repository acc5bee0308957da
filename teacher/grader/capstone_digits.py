"""The capstone's judge, and its sealed test digits.

The student's notebook never holds test digits. They exist here only: the test pool of
scikit-learn's digits (``homework.digit_pools``, disjoint from every student's development
digits), scanned (``homework.scan_digits``) with noise drawn from the cohort's secret key
and the student's id. Without the key, which ``make assignments`` writes into the course
folder and nothing releases, no one can rebuild them, and no choice can be made on them:
the student submits the choice made on validation data (``choice``), and this judge reports
it on the sealed test digits in the feedback.

Each part is judged from the student's own earlier answers where they are well formed (the
split of part 1 refits the model of part 2, whose probabilities feed parts 3 to 5), and from
the grader's own where they are not, so that a slip costs one part.
"""

from __future__ import annotations

import numpy as np
from sklearn.datasets import load_digits
from sklearn.decomposition import PCA
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import rejlab as rl
from rejlab.course import homework

from .judge import MALFORMED, Mark, Missing, Run, calls_right, checked, close, number, numbers, share

DATA = homework.capstone_digits
N_BOOT = 1000
GRID = np.linspace(0, 0.5, 51)
RHO = 0.25
REJECTORS = ("max_probability", "breaking_ties")
SPLIT = ("X_train", "X_val", "y_train", "y_val")
EXPORTS = {name: name for name in SPLIT + (
    "proba_val", "accurate_val", "conf_val", "rejector", "criterion", "criterion_options",
    "choice", "aurc_val", "excess_aurc_val", "failure_auroc_val", "Q_interval_val")}
EXPORTS.update({
    "bands_val": "{k: (b.Q.estimate, b.Q.low, b.Q.high) for k, b in bands_val.items()}",
    "comparison": "(comparison.aurc.estimate, comparison.aurc.low, comparison.aurc.high, "
                  "list(comparison.better))",
    "threshold": "threshold.value",
    "val_point": "(val_point.r, val_point.A, val_point.Q)",
})


def sealed_test_digits(ctx):
    """(X_test, y_test): the test pool, scanned with the cohort key's noise for this student."""
    X, y = load_digits(return_X_y=True)
    test = homework.digit_pools(len(y))
    return homework.scan_digits(X[test], ctx.rng("sealed test digits")), y[test]


def saving_and_interval(accurate, rejected, rho, n_boot, seed):
    """The saving per digit over reading every digit, and its percentile-bootstrap interval
    (part 6, as the notebook states it)."""
    accurate, rejected = np.asarray(accurate, dtype=bool), np.asarray(rejected, dtype=bool)
    per_digit = np.where(rejected, np.where(accurate, -rho, 1 - rho), 0.0)
    rows = np.random.default_rng(seed).integers(0, per_digit.size, size=(n_boot, per_digit.size))
    low, high = np.percentile(per_digit[rows].mean(axis=1), [2.5, 97.5])
    return float(per_digit.mean()), (float(low), float(high))


def _saving_inputs(ctx):
    rng = ctx.rng("saving")
    calls = []
    for _ in range(6):
        n = int(rng.integers(150, 600))
        accurate = rng.random(n) < rng.uniform(0.75, 0.95)
        rejected = rng.random(n) < rng.uniform(0.02, 0.3)
        calls.append((accurate, rejected, round(float(rng.uniform(0.1, 0.5)), 3),
                      int(rng.choice([200, 500])), int(rng.integers(0, 2**31))))
    return calls


def runs(ctx):
    return [Run("lab", exports=dict(EXPORTS),
                calls=tuple(("saving_and_interval", args) for args in _saving_inputs(ctx)))]


def _model(variant):
    return make_pipeline(StandardScaler(), PCA(n_components=10, random_state=variant),
                         LogisticRegression(max_iter=2000))


def _split(data):
    return train_test_split(data.X_dev, data.y_dev, test_size=3 / 7, random_state=data.variant,
                            stratify=data.y_dev)


def _array(lab, name, shape=None, kind="iuf"):
    """An exported array of the expected kind and shape, or :class:`Missing`."""
    value = lab.value(name)
    if not isinstance(value, np.ndarray) or value.dtype.kind not in kind or (
            shape is not None and value.shape != shape):
        raise Missing(f"{name} is not the array asked for")
    return value


def reference(ctx):
    d = ctx.data
    X_train, X_val, y_train, y_val = _split(d)
    model = _model(d.variant).fit(X_train, y_train)
    proba = model.predict_proba(X_val)
    acc = rl.accuracy_vector(y_val, model.classes_[proba.argmax(axis=1)])
    conf = rl.max_probability(proba)
    threshold = rl.select_threshold(acc, conf, criterion="min_cost", rho=RHO)
    bands = rl.bootstrap_threshold(acc, conf, threshold, n_boot=N_BOOT, seed=d.variant)
    return {"aurc_val": float(rl.aurc(acc, conf)), "excess_aurc_val": float(rl.excess_aurc(acc, conf)),
            "failure_auroc_val": float(rl.failure_auroc(acc, conf)),
            "Q_interval_val": [float(bands.Q.low), float(bands.Q.high)]}


def judge(ctx, results):
    lab, d = results["lab"], ctx.data
    marks, ref = {}, dict(zip(SPLIT, _split(d)))

    # Part 1: the split asked for
    def same_as_asked(name):
        return lambda: np.array_equal(_array(lab, name, ref[name].shape), ref[name])
    marks["capstone-q1-tests"] = share([(1, *checked(n, same_as_asked(n), f"{n}: right.",
                                                     f"{n} is not the split asked for."))
                                        for n in SPLIT])

    # Part 2: the model asked for, fit on the student's own training digits
    split = dict(ref)
    try:
        mine = {n: _array(lab, n, None) for n in SPLIT}
        if mine["X_train"].ndim == 2 and mine["X_train"].shape[1:] == (64,) and \
                mine["X_val"].shape[1:] == (64,) and len(mine["y_train"]) == len(mine["X_train"]) \
                and len(mine["y_val"]) == len(mine["X_val"]):
            split = mine
    except Missing:
        pass
    model = _model(d.variant).fit(split["X_train"], split["y_train"])
    proba = model.predict_proba(split["X_val"])
    n_val = len(split["y_val"])

    def proba_ok():
        return np.allclose(_array(lab, "proba_val", proba.shape), proba, rtol=1e-6, atol=1e-9)

    def accurate_ok():
        mine = _array(lab, "accurate_val", (n_val,), "b")
        theirs = _array(lab, "proba_val", (n_val, 10)) if proba_ok() else proba
        return np.array_equal(mine, rl.accuracy_vector(split["y_val"],
                                                       model.classes_[theirs.argmax(axis=1)]))
    marks["capstone-q2-tests"] = share([
        (1, *checked("proba_val", proba_ok, "proba_val: right.", "proba_val is not the model "
                     "asked for, fit on your training digits only, on your validation digits.")),
        (1, *checked("accurate_val", accurate_ok, "accurate_val: right.",
                     "accurate_val is not the accuracy vector of your validation digits.")),
    ])
    P = lab.value("proba_val") if _ok(proba_ok) else proba
    acc = lab.value("accurate_val") if _ok(accurate_ok) else \
        rl.accuracy_vector(split["y_val"], model.classes_[P.argmax(axis=1)])

    # Part 3: confidences, bands of Q, the paired comparison
    conf = {k: rl.REJECTORS[k](P) for k in REJECTORS}
    bands = {k: rl.bootstrap_curves(acc, conf[k], fractions=GRID, n_boot=N_BOOT, seed=d.variant)
             for k in REJECTORS}
    comparison = rl.compare_rejectors(acc, conf["max_probability"], conf["breaking_ties"],
                                      fractions=GRID, n_boot=N_BOOT, seed=d.variant)

    def conf_ok():
        mine = lab.value("conf_val")
        return isinstance(mine, dict) and set(mine) == set(REJECTORS) and all(
            _close_all(mine[k], conf[k]) for k in REJECTORS)

    def bands_ok():
        mine = lab.value("bands_val")
        return isinstance(mine, dict) and set(mine) == set(REJECTORS) and all(
            len(mine[k]) == 3 and all(_close_all(m, e) for m, e in zip(
                mine[k], (bands[k].Q.estimate, bands[k].Q.low, bands[k].Q.high)))
            for k in REJECTORS)

    def comparison_ok():
        mine = lab.value("comparison")
        expected = (comparison.aurc.estimate, comparison.aurc.low, comparison.aurc.high)
        return len(mine) == 4 and all(close(number(m), e) for m, e in zip(mine[:3], expected)) \
            and [str(b) for b in mine[3]] == [str(b) for b in comparison.better]
    marks["capstone-q3-tests"] = share([
        (1, *checked("conf_val", conf_ok, "conf_val: right.", "conf_val is not the two "
                     "rejectors' confidences of your validation digits.")),
        (1, *checked("bands_val", bands_ok, "bands_val: right.", "bands_val is not the bands "
                     "asked for (GRID, N_BOOT, your VARIANT).")),
        (1, *checked("comparison", comparison_ok, "comparison: right.",
                     "comparison is not the paired comparison asked for.")),
    ])

    # Part 4a: a valid choice, and the threshold its criterion chooses on validation
    def choice_valid():
        rejector, criterion = lab.value("rejector"), lab.value("criterion")
        options = lab.value("criterion_options")
        if rejector not in REJECTORS or criterion not in rl.selective.CRITERIA or \
                not isinstance(options, dict):
            return False
        rl.select_threshold(acc, conf[rejector], criterion=criterion, **options)
        return True
    valid = _ok(choice_valid)
    if valid:
        rejector, criterion = lab.value("rejector"), lab.value("criterion")
        options = lab.value("criterion_options")
    else:
        rejector, criterion, options = "max_probability", "min_cost", {"rho": RHO}
    threshold = rl.select_threshold(acc, conf[rejector], criterion=criterion, **options)
    marks["capstone-q4-tests"] = share([
        (1, valid, "The choice: valid." if valid else "rejector, criterion and "
         "criterion_options are not a choice rl.select_threshold accepts."),
        (1, *checked("threshold", lambda: close(number(lab.value("threshold"), "threshold"),
                                                threshold.value),
                     "threshold: right.", "threshold is not the one your criterion chooses "
                                          "on your validation digits.")),
    ])

    # Part 4b: the choice on record, the validation point; the report on the sealed digits
    record = dict(rejector=rejector, criterion=criterion, criterion_options=options,
                  threshold=threshold.value)

    def record_ok():
        mine = lab.value("choice")
        return isinstance(mine, dict) and set(mine) == set(record) and all(
            mine[k] == record[k] for k in ("rejector", "criterion", "criterion_options")) and \
            close(number(mine["threshold"], "choice['threshold']"), record["threshold"])
    point = rl.operating_point(acc, rl.reject_below(conf[rejector], threshold))
    marks["capstone-q4b-tests"] = share([
        (1, *checked("choice", record_ok, "choice: right.", "choice is not your choice of 4a, "
                     "recorded as asked.")),
        (1, *checked("val_point", lambda: all(close(m, e) for m, e in zip(
            numbers(lab.value("val_point"), 3, "val_point"), (point.r, point.A, point.Q))),
            "val_point: right.", "val_point is not the operating point of your validation "
                                 "digits at your threshold.")),
    ])
    report = test_report(ctx, model, rejector, threshold) if valid else (
        "No test report: your notebook gave no valid choice to apply to your test digits.")
    marks["capstone-q4b-tests"] = Mark(marks["capstone-q4b-tests"].fraction,
                                       f"{marks['capstone-q4b-tests'].message}\n\n{report}")

    # Part 5: the field's numbers on validation
    bands_at = rl.bootstrap_threshold(acc, conf[rejector], threshold, n_boot=N_BOOT, seed=d.variant)
    expected = {"aurc_val": rl.aurc(acc, conf[rejector]),
                "excess_aurc_val": rl.excess_aurc(acc, conf[rejector]),
                "failure_auroc_val": rl.failure_auroc(acc, conf[rejector])}
    parts = [(1, *checked(n, lambda n=n: close(number(lab.value(n), n), float(e)),
                          f"{n}: right.", f"{n} is not right.")) for n, e in expected.items()]
    parts.append((1, *checked("Q_interval_val", lambda: all(close(m, e) for m, e in zip(
        numbers(lab.value("Q_interval_val"), 2, "Q_interval_val"),
        (bands_at.Q.low, bands_at.Q.high))), "Q_interval_val: right.",
        "Q_interval_val is not the interval asked for.")))
    marks["capstone-q5-tests"] = share(parts)

    # Part 6: the saving, on digits drawn when it grades
    inputs = _saving_inputs(ctx)
    good, problem = calls_right(
        lab.calls(), [saving_and_interval(*args) for args in inputs],
        lambda g, e: len(g) == 2 and close(number(g[0]), e[0])
        and all(close(m, x) for m, x in zip(numbers(g[1], 2, "the interval"), e[1])))
    marks["capstone-q6-tests"] = Mark(good / len(inputs), (
        f"saving_and_interval on {len(inputs)} sets of digits drawn when it was graded: right "
        f"on {good}.") + (f" For example: {problem}." if problem else ""))
    return marks


def test_report(ctx, model, rejector, threshold) -> str:
    """The choice on the sealed test digits, as the feedback shows it."""
    X_test, y_test = sealed_test_digits(ctx)
    proba = model.predict_proba(X_test)
    accurate = rl.accuracy_vector(y_test, model.classes_[proba.argmax(axis=1)])
    confidence = rl.REJECTORS[rejector](proba)
    bands = rl.bootstrap_threshold(accurate, confidence, threshold, n_boot=N_BOOT,
                                   seed=ctx.data.variant)
    saving, (low, high) = saving_and_interval(accurate, rl.reject_below(confidence, threshold),
                                              RHO, N_BOOT, ctx.data.variant)

    def band(b):
        return f"{b.estimate:.4f} [{b.low:.4f}, {b.high:.4f}]"
    return (f"Your choice on your sealed test digits ({len(y_test)} digits the grader scanned for "
            f"you; the notebook never held them): {rejector}, threshold {threshold.value:.4f}, "
            f"the model refit as asked on your training digits. Rejected fraction r = "
            f"{band(bands.r)}, accuracy of the kept digits A = {band(bands.A)}, Q = "
            f"{band(bands.Q)}; accuracy without rejection {accurate.mean():.4f}; saving per "
            f"digit at rho = {RHO} {saving:.4f} [{low:.4f}, {high:.4f}] (95 % intervals).")


def _ok(test) -> bool:
    try:
        return bool(test())
    except (Missing, *MALFORMED):
        return False


def _close_all(mine, expected) -> bool:
    expected = np.ravel(np.asarray(expected, dtype=float))
    got = numbers(mine, len(expected))
    return all(close(g, float(e)) for g, e in zip(got, expected))
