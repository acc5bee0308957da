"""The library's public numbers on seeded random inputs: ``python tests/numbers_reference.py`` writes
them to ``tests/data/numbers_reference.json.gz`` (the stored file is the rejlab's before it was made
compact), ``tests/test_numbers_unchanged.py`` recomputes and compares. A ``case_*`` function of a seeded
generator returns the outputs to keep, flattened into plain JSON."""

import dataclasses
import gzip
import json
import math
import warnings
from pathlib import Path

import numpy as np

import rejlab as rl

STORE = Path(__file__).parent / "data" / "numbers_reference.json.gz"


def flatten(x):
    """Any result as nested lists and dicts of ints, floats, strings, booleans and None."""
    if x is None or isinstance(x, str):
        return x
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        f = float(x)
        return f if math.isfinite(f) else repr(f)
    if isinstance(x, np.ndarray):
        return [flatten(v) for v in x.tolist()] if x.ndim else flatten(x[()])
    if hasattr(x, "_asdict"):
        return {k: flatten(v) for k, v in x._asdict().items()}
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {f.name: flatten(getattr(x, f.name)) for f in dataclasses.fields(x)}
    if isinstance(x, dict):
        return {str(k): flatten(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [flatten(v) for v in x]
    if isinstance(x, (set, frozenset)):
        return sorted((flatten(v) for v in x), key=repr)
    if hasattr(x, "__dict__"):
        return {k: flatten(v) for k, v in vars(x).items() if not k.startswith("_")}
    return repr(x)


def _scores(rng, n, ties=False):
    accurate = rng.random(n) < rng.uniform(0.55, 0.9)
    confidence = rng.random(n) + 0.3 * accurate
    if ties:
        confidence = np.round(confidence, 1)
    return accurate, confidence


def _proba(rng, n, k):
    logits = rng.normal(size=(n, k)) * rng.uniform(0.5, 3)
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    return p / p.sum(axis=1, keepdims=True)


def _sets(rng, n_elements, n_blocks):
    blocks = [set(np.flatnonzero(rng.random(n_elements) < 0.35).tolist()) for _ in range(n_blocks)]
    for e in range(n_elements):  # each element in some block: a covering
        blocks[int(rng.integers(n_blocks))].add(e)
    return [b if b else {int(rng.integers(n_elements))} for b in blocks]


def _indicator(rng, n, k, p=0.4):
    return (rng.random((n, k)) < p).astype(int)


def _or_refused(fn, *args):
    """``fn(*args)``, or the ValueError's message where the arguments are refused."""
    try:
        return fn(*args)
    except ValueError as exc:
        return f"ValueError: {exc}"


def case_measures(rng):
    out = []
    for n, ties in ((7, False), (40, True), (300, False)):
        a, c = _scores(rng, n, ties)
        rej = rl.reject_lowest(c, fraction=0.3)
        out.append([rl.operating_point(a, rej), rl.subset_counts(a, rej), rl.rejected_fraction(a, rej),
                    rl.nonrejected_accuracy(a, rej), rl.classification_quality(a, rej),
                    rl.rejection_quality(a, rej), rl.reject_lowest(c, count=n // 3), rl.reject_below(c, 0.6)])
    out.append([rl.measures_from_counts(*map(int, row)) for row in rng.integers(0, 9, size=(30, 4))])
    A, r, alpha = rng.uniform(0.3, 1, 20), rng.uniform(0, 0.6, 20), rng.uniform(0.5, 0.9, 20)
    out.append([_or_refused(rl.quality_from_accuracy, A, r, alpha),
                _or_refused(rl.rejection_quality_from_accuracy, A, r, alpha)])
    out.append(rl.accuracy_vector(rng.integers(0, 3, 25), rng.integers(0, 3, 25)))
    return out


def case_curves(rng):
    out = []
    for n, ties in ((9, True), (200, False), (500, True)):
        a, c = _scores(rng, n, ties)
        curves = rl.rejection_curves(a, c)
        out.append([curves, rl.rejection_curves(a, c, thresholds_only=True), curves.best_Q(),
                    rl.rho_zero_curve(curves), rl.cost_curve(curves, 0.3)])
    return out


def case_binary_rejectors(rng):
    p = _proba(rng, 50, 4)
    a, c = _scores(rng, 60)
    conf = rl.confusion_from_counts(rl.subset_counts(a, rl.reject_lowest(c, fraction=0.25)))
    return [rl.max_probability(p), rl.breaking_ties(p), rl.confidence_from_proba(p, "breaking_ties"), conf,
            rl.triplet_from_confusion(*conf[:4]), rl.confusion_from_triplet(0.8, 0.75, 0.2),
            rl.chow_rule(p, 0.3)]


def case_optimality(rng):
    A1, r1, A0, r0 = (rng.uniform(*bounds, 40) for bounds in ((0.5, 1), (0, 0.5)) * 2)
    return [rl.cost(A1, r1, 0.3), rl.relative_optimality(A1, r1, A0, r0),
            rl.compare(A1, r1, A0, r0, 0.4), rl.rho_zero(A1, r1, A0, r0),
            rl.operating_region(A1 * 0.5 + 0.4, r1, 0.78, 0.1, 0.72),
            rl.operating_set(0.8, 0.1, 0.72, np.linspace(0, 1, 41)),
            rl.optimality_matrix(A1[:12], r1[:12])]


def case_selective(rng):
    out = []
    for n, ties in ((12, True), (300, False), (400, True)):
        a, c = _scores(rng, n, ties)
        row = [rl.risk_coverage(a, c), rl.risk_coverage(a, c, ties="average"), rl.failure_auroc(a, c),
               rl.achievable_aurc(a, c)]
        for kw in (dict(ties="index"), dict(ties="average"), dict(convention="fd-shifts")):
            row += [rl.aurc(a, c, **kw), rl.excess_aurc(a, c, **kw), rl.augrc(a, c, **kw),
                    rl.risk_at_coverage(a, c, 0.7, **kw), rl.coverage_at_risk(a, c, 0.1, **kw)]
        if not ties:
            kw = dict(convention="torch-uncertainty")
            row += [rl.aurc(a, c, **kw), rl.excess_aurc(a, c, **kw), rl.augrc(a, c, **kw)]
        row += [rl.select_threshold(a, c), rl.select_threshold(a, c, criterion="min_cost", rho=0.2),
                rl.select_threshold(a, c, criterion="target_accuracy", target_accuracy=float(a.mean()))]
        out.append(row)
    return out


def case_bootstrap(rng):
    a, c = _scores(rng, 150, ties=True)
    _, c2 = _scores(rng, 150)
    fr = np.linspace(0, 0.6, 7)
    return [rl.bootstrap_curves(a, c, fractions=fr, n_boot=60, seed=1),
            rl.bootstrap_curves(a, c, fractions=fr, n_boot=60, seed=2, band="simultaneous"),
            rl.compare_rejectors(a, c, c2, fractions=fr, n_boot=50, seed=3),
            rl.compare_rejectors(a, c, c2, fractions=fr, n_boot=50, seed=3, band="simultaneous"),
            rl.bootstrap_threshold(a, c, 0.7, n_boot=50, seed=4),
            rl.holdout_optimism(a, c, n_splits=20, seed=5)]


def case_comparison(rng):
    a1, c1 = _scores(rng, 120)
    a2, c2 = _scores(rng, 120, ties=True)
    return rl.compare_summaries(a1, c1, a2, c2, n_boot=40, seed=6)


def case_guarantees(rng):
    out = []
    for method in ("sgr", "ltt"):
        a, c = _scores(rng, 400)
        out.append(rl.guaranteed_threshold(a, c, 0.15, 0.1, method=method))
    out.append([rl.binomial_upper_bound(int(e), 40, 0.05) for e in rng.integers(0, 30, 12)])
    return out


def case_calibration(rng):
    p = _proba(rng, 200, 3)
    y = np.array([rng.choice(3, p=row) for row in p])
    a, c = p.argmax(axis=1) == y, p.max(axis=1)
    return [rl.calibration_bins(a, c), rl.calibration_bins(a, c, n_bins=7, binning="equal_mass"),
            rl.expected_calibration_error(a, c), rl.expected_calibration_error(a, c, binning="equal_mass"),
            rl.fit_temperature(p, y), rl.apply_temperature(p, 1.7),
            rl.apply_temperature(np.log(p), 0.6, from_logits=True),
            rl.fit_temperature(np.log(p), y, from_logits=True)]


def case_coverings(rng):
    out = []
    for n_el, n_bl in ((7, 3), (15, 5), (30, 8)):
        cov = _sets(rng, n_el, n_bl)
        out.append([rl.neighborhood(cov, 0), rl.neighborhood_system(cov, 1), rl.subscripts(cov, 2),
                    rl.derived_covering(cov), rl.overlapped_elements(cov),
                    rl.overlapped_elements_theorem(cov), rl.covering_summary(cov), rl.covering_kind(cov),
                    rl.is_covering(cov), rl.is_partition(cov), rl.blocks_to_indicator(cov),
                    rl.blocks_to_label_sets(cov)])
    Y = _indicator(rng, 10, 4)
    Y[:, 0] |= Y.sum(axis=1) == 0
    out.append([rl.indicator_to_blocks(Y), rl.indicator_to_label_sets(Y),
                rl.label_sets_to_blocks([{0, 2}, {1}, {2}]),
                rl.label_sets_to_indicator([{0, 2}, {1}, {2}])])
    return out


def case_accuracy(rng):
    out = []
    for n_el, n_bl in ((8, 3), (20, 5)):
        ideal, r1, r2 = (_sets(rng, n_el, n_bl) for _ in range(3))
        u = range(n_el)
        out.append([rl.absolute_accuracy(ideal, r1, universe=u),
                    rl.relative_accuracy_rate(ideal, r1, universe=u),
                    rl.compare_methods(ideal, r1, r2, universe=u), rl.accuracy_report(ideal, r1, universe=u),
                    rl.t_neg(ideal, r1, universe=u)])
    Y, P = (_indicator(rng, 30, 5) for _ in range(2))
    out.append([rl.absolute_accuracy(Y, P), rl.relative_accuracy_rate(Y, P)])
    return out


def case_multilabel(rng):
    Y, P1, P2 = (_indicator(rng, 60, 5) for _ in range(3))
    return [rl.multilabel_scores(Y, P1, zero_division=0), rl.multilabel_measures(Y, P1, zero_division=1),
            rl.evaluate_multilabel(Y, P1, zero_division=0), rl.multilabel_counts(Y, P1),
            rl.compare_multilabel(Y, P1, P2, n_boot=30, seed=7, zero_division=0)]


def _report_numbers(rep):
    keep = ("curves", "fractions", "points", "best", "best_index", "cost", "min_cost", "min_cost_index",
            "aurc", "excess_aurc", "augrc", "failure_auroc", "bands", "point_bands", "threshold",
            "test_point", "test_point_bands", "tied_fractions")
    return {k: flatten(getattr(rep, k)) for k in keep}


def case_report(rng):
    p = _proba(rng, 240, 3)
    y = np.array([rng.choice(3, p=row) for row in p])
    pv = _proba(rng, 240, 3)
    yv = np.array([rng.choice(3, p=row) for row in pv])
    return [_report_numbers(rl.rejection_report(y, p.argmax(axis=1), np.round(p.max(axis=1), 2), rho=0.25)),
            _report_numbers(rl.rejection_report(y, proba=p, rejector="breaking_ties", n_boot=40, seed=8)),
            _report_numbers(rl.rejection_report(y, proba=p, validation=dict(y_true=yv, proba=pv),
                                                n_boot=30, seed=9, rho=0.2))]


def case_datasets(rng):
    toy = rl.datasets.four_gaussians(40, seed=int(rng.integers(1000)))
    return [toy.X, toy.y, toy.proba, toy.accurate, toy.confidence("breaking_ties"),
            rl.datasets.expected_accuracy(), rl.datasets.posteriors(toy.X[:5]),
            rl.datasets.population_point(0.6, "max_probability"),
            rl.datasets.population_curves("breaking_ties", r=np.linspace(0, 0.9, 4))]


def case_context(rng):
    scene = rl.datasets.synthetic_scene((24, 24), n_classes=4, n_bands=6, seed=3)
    return rl.context.context_experiment(scene, failure_probabilities=(0.1, 0.2), seed=4, max_iter=5)


#: Every ``case_*`` function above, by name.
CASES = {name[len("case_"):]: f for name, f in list(globals().items()) if name.startswith("case_")}

#: Cases whose arithmetic moved to SciPy's special functions: equal within this relative tolerance.
TOLERANCE = {"guarantees": 1e-12}


def compute(name):
    rng = np.random.default_rng([20261203, sorted(CASES).index(name)])
    return flatten(CASES[name](rng))


def main():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = {name: compute(name) for name in CASES}
    STORE.parent.mkdir(exist_ok=True)
    with gzip.open(STORE, "wt", encoding="utf-8") as f:
        json.dump(out, f, separators=(",", ":"))
    print(STORE, STORE.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
