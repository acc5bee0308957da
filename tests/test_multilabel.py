"""Multi-label scores: per-sample counts, Godbole and Sarawagi's scores, AA and RAR in one pass."""

import math
import warnings
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.metrics import jaccard_score, precision_score, recall_score

import rejlab as rl


def exact(report):
    return report.AA_exact, report.RAR_exact


def close_to(x, frac):
    return math.isclose(x, float(frac), rel_tol=0, abs_tol=1e-12)


def test_table1_scores_as_in_the_paper():
    t = rl.datasets.table1()
    order = sorted(t.ideal_label_sets)
    truth = [t.ideal_label_sets[p] for p in order]
    m1 = [t.method_1_label_sets[p] for p in order]
    m2 = [t.method_2_label_sets[p] for p in order]
    s1, s2 = rl.multilabel_scores(truth, m1), rl.multilabel_scores(truth, m2)
    for got, want in zip(s1, (Fraction(11, 14), Fraction(6, 7), Fraction(11, 14))):
        assert close_to(got, want)
    for got, want in zip(s2, (Fraction(9, 14), Fraction(5, 7), Fraction(9, 14))):
        assert close_to(got, want)
    # mappings give the same
    assert rl.multilabel_scores(t.ideal_label_sets, t.method_2_label_sets) == s2


def test_table1_two_readings_of_method_2():
    t = rl.datasets.table1()
    # Section 5.2 writes P'' = ({b,c}, {e,c,f}, {a,d,g}): the paper's AA = 3/4, RAR = 2
    assert exact(rl.accuracy_report(t.ideal, t.method_2_sec52)) == (Fraction(3, 4), Fraction(2))
    # Section 5.1's label sets give c only label 2, i.e. P''_1 = {b}: AA = 5/8, RAR = 5/3
    assert exact(rl.accuracy_report(t.ideal, t.method_2_sec51)) == (Fraction(5, 8), Fraction(5, 3))
    assert exact(rl.accuracy_report(t.ideal_label_sets, t.method_2_label_sets)) == \
        (Fraction(5, 8), Fraction(5, 3))
    assert t.method_2_sec51 != t.method_2_sec52
    # method 1 reads the same in both sections
    assert exact(rl.accuracy_report(t.ideal_label_sets, t.method_1_label_sets)) == \
        (Fraction(3, 4), Fraction(3))


@st.composite
def indicator_pairs(draw, min_m=2, max_n=12, max_m=6):
    n = draw(st.integers(1, max_n))
    m = draw(st.integers(min_m, max_m))
    return draw(arrays(np.int8, (n, m), elements=st.integers(0, 1))), \
        draw(arrays(np.int8, (n, m), elements=st.integers(0, 1)))


@settings(max_examples=200, deadline=None)
@given(indicator_pairs())
def test_aa_is_micro_recall(pair):
    T, R = pair
    if not T.any():
        assert math.isnan(rl.absolute_accuracy(T, R))
        return
    assert rl.absolute_accuracy(T, R) == pytest.approx(recall_score(T, R, average="micro"),
                                                       abs=1e-12)


@settings(max_examples=250, deadline=None)
@given(indicator_pairs(), st.sampled_from(["warn", 0, 1, np.nan]))
def test_multilabel_scores_equal_sklearn_samples_average(pair, zero_division):
    T, R = pair
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = rl.multilabel_scores(T, R, zero_division=zero_division)
        if isinstance(zero_division, float):
            # jaccard_score refuses np.nan; rejlab leaves undefined samples out
            defined = (T | R).any(axis=1)
            jac = jaccard_score(T[defined], R[defined], average="samples") \
                if defined.any() else np.nan
        else:
            jac = jaccard_score(T, R, average="samples", zero_division=zero_division)
        theirs = (jac,
                  precision_score(T, R, average="samples", zero_division=zero_division),
                  recall_score(T, R, average="samples", zero_division=zero_division))
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12, equal_nan=True)


def test_zero_division_warn_warns_and_counts_as_zero():
    T = np.array([[1, 0], [0, 0]])
    R = np.array([[1, 0], [0, 0]])
    with pytest.warns(RuntimeWarning, match="ill-defined"):
        s = rl.multilabel_scores(T, R)
    assert s == (0.5, 0.5, 0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert rl.multilabel_scores(T, R, zero_division=1) == (1.0, 1.0, 1.0)


@settings(max_examples=100, deadline=None)
@given(indicator_pairs())
def test_label_sets_and_indicators_give_the_same_scores(pair):
    T, R = pair
    if not (T.any() or R.any()):
        return
    rows_t = [set(np.flatnonzero(r).tolist()) for r in T]
    rows_r = [set(np.flatnonzero(r).tolist()) for r in R]
    keep = T.any(axis=0) | R.any(axis=0)  # label sets only know the labels that occur
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert rl.multilabel_scores(rows_t, rows_r, zero_division=1) == \
            rl.multilabel_scores(T[:, keep], R[:, keep], zero_division=1)


@settings(max_examples=100, deadline=None)
@given(indicator_pairs(max_m=6))
def test_evaluate_multilabel_equals_the_separate_functions(pair):
    T, R = pair
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e = rl.evaluate_multilabel(T, R, zero_division=0)
        s = rl.multilabel_scores(T, R, zero_division=0)
    np.testing.assert_equal((e.accuracy, e.precision, e.recall), tuple(s))
    np.testing.assert_equal(e.AA, rl.absolute_accuracy(T, R))
    assert e.RAR == rl.relative_accuracy_rate(T, R)


@pytest.mark.parametrize("m", [1, 7, 8, 9, 64, 65, 130])
def test_packed_counts_for_every_width(m):
    rng = np.random.default_rng(m)
    T = rng.integers(0, 2, (50, m)).astype(bool)
    R = rng.integers(0, 2, (50, m)).astype(bool)
    c = rl.multilabel_counts(T, R)
    np.testing.assert_array_equal(c.tp, (T & R).sum(axis=1))
    np.testing.assert_array_equal(c.fp, (R & ~T).sum(axis=1))
    np.testing.assert_array_equal(c.fn, (T & ~R).sum(axis=1))


def test_indicator_dtypes_are_read_alike():
    T = np.array([[1, 0, 1], [0, 1, 0]])
    R = np.array([[1, 1, 0], [0, 1, 0]])
    ref = rl.evaluate_multilabel(T, R)
    for dt in (bool, np.int8, np.uint8, np.int64, float):
        assert rl.evaluate_multilabel(T.astype(dt), R.astype(dt)) == ref
    assert rl.evaluate_multilabel(T.tolist(), R.tolist()) == ref


@pytest.mark.parametrize("bad", [2, 0.5, "zero", None, True])
def test_zero_division_values(bad):
    with pytest.raises(ValueError, match="zero_division"):
        rl.multilabel_scores(np.eye(2), np.eye(2), zero_division=bad)


# --- multilabel_measures against scikit-learn ---------------------------------------

# scikit-learn reads a single column as binary, not multi-label: two columns or more
multilabel_pairs = st.tuples(st.integers(1, 9), st.integers(2, 6)).flatmap(
    lambda s: st.tuples(arrays(np.uint8, s, elements=st.integers(0, 1)),
                        arrays(np.uint8, s, elements=st.integers(0, 1))))


def _sklearn_measures(T, P, zero_division):
    from sklearn.metrics import accuracy_score, f1_score, hamming_loss

    kw = dict(zero_division=zero_division)
    out = {} if zero_division != zero_division else {  # jaccard_score refuses np.nan
        "accuracy": jaccard_score(T, P, average="samples", **kw)}
    return {**out,
            "precision": precision_score(T, P, average="samples", **kw),
            "recall": recall_score(T, P, average="samples", **kw),
            "f1": f1_score(T, P, average="samples", **kw),
            "hamming_loss": hamming_loss(T, P),
            "subset_accuracy": accuracy_score(T, P),
            "micro_f1": f1_score(T, P, average="micro", **kw),
            "macro_f1": f1_score(T, P, average="macro", **kw)}


@settings(max_examples=300, deadline=None)
@given(multilabel_pairs, st.sampled_from([0, 1, "warn", np.nan]))
def test_multilabel_measures_equal_scikit_learn(pair, zero_division):
    # empty rows (a sample with no label) and empty columns (a label nobody has) included
    T, P = pair
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = rl.multilabel_measures(T, P, zero_division=zero_division)
        theirs = _sklearn_measures(T, P, zero_division)
    for name, value in theirs.items():
        assert getattr(ours, name) == pytest.approx(value, abs=1e-12, nan_ok=True), name
    e = rl.evaluate_multilabel(T, P, zero_division=0)
    assert ours.RAR == e.RAR and (ours.AA == e.AA or math.isnan(ours.AA) and math.isnan(e.AA))


@settings(max_examples=100, deadline=None)
@given(multilabel_pairs, st.sampled_from([0, 1]))
def test_multilabel_measures_of_label_sets_equal_those_of_the_matrix(pair, zero_division):
    # label sets know only the labels that occur: compare with the matrix of those columns
    T, P = pair
    used = (T | P).any(axis=0)
    if not used.any():
        used[0] = True  # no label at all: one column nobody carries
    got = rl.multilabel_measures(rl.indicator_to_label_sets(T), rl.indicator_to_label_sets(P),
                                 zero_division=zero_division)
    want = rl.multilabel_measures(T[:, used], P[:, used], zero_division=zero_division)
    for a, b in zip(got, want):
        assert a == b or (math.isnan(a) and math.isnan(b))


def test_multilabel_measures_warns_on_zero_division_and_leaves_nan_terms_out():
    T, P = [[1, 0], [0, 0]], [[1, 0], [0, 0]]
    with pytest.warns(RuntimeWarning, match="ill-defined"):
        m = rl.multilabel_measures(T, P)
    assert m.precision == 0.5  # sample 2: 0 / 0 -> 0 under "warn"
    m = rl.multilabel_measures(T, P, zero_division=np.nan)
    assert m.precision == 1.0 and m.f1 == 1.0  # the undefined sample is left out
    with pytest.raises(ValueError, match="zero_division"):
        rl.multilabel_measures(T, P, zero_division=2)


@pytest.mark.parametrize("nan", [float("nan"), np.nan, np.float32("nan"), Decimal("NaN")],
                         ids=["float", "np.nan", "float32", "Decimal"])
@pytest.mark.parametrize("arg", ["y_true", "y_pred"])
def test_nan_like_labels_in_label_sets_are_refused_by_name(nan, arg):
    # a NaN equals only itself as the same object: a set's answer would depend on identity
    good = [{"a"}, {"a", "b"}]
    bad = [{"a"}, {"b", nan}]
    kwargs = {"y_true": good, "y_pred": good, arg: bad}
    with pytest.raises(ValueError, match=f"{arg}.*NaN-like"):
        rl.multilabel_measures(**kwargs)


# --- paired bootstrap of two results: compare_multilabel -----------------------------

def _naive_paired_bootstrap(T, R1, R2, n_boot, seed, level, zero_division):
    """The definition: resample the rows, score both results on the same rows, take quantiles."""
    rng = np.random.default_rng(seed)
    n = T.shape[0]
    reps = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(n_boot):
            rows = rng.integers(0, n, size=n)
            one = rl.multilabel_measures(T[rows], R1[rows], zero_division=zero_division)
            two = rl.multilabel_measures(T[rows], R2[rows], zero_division=zero_division)
            reps.append([a - b for a, b in zip(one, two)])
    reps = np.array(reps, dtype=float)
    low, high = np.nanquantile(reps, [(1 - level) / 2, (1 + level) / 2], axis=0)
    # NumPy interpolates inf - inf to NaN: columns with an infinite replicate (RAR of a
    # resample without a single charged error) are compared in the next test instead
    infinite = np.isinf(reps).any(axis=0)
    return np.where(infinite, np.nan, low), np.where(infinite, np.nan, high)


@settings(max_examples=25, deadline=None)
@given(st.integers(5, 30), st.integers(1, 4), st.integers(0, 2**16),
       st.sampled_from([0, 1, np.nan]), st.sampled_from([0.8, 0.95]))
def test_compare_multilabel_equals_a_naive_resampling_loop(n, m, seed, zero_division, level):
    rng = np.random.default_rng(seed)
    T = rng.random((n, m)) < 0.4
    T[:, 0] |= ~T.any(axis=1)                  # every sample has a true label: RAR stays finite
    R1, R2 = (T ^ (rng.random(T.shape) < p) for p in (0.15, 0.3))
    R1[0] = False                              # an empty prediction: a 0 / 0 precision term
    got = rl.compare_multilabel(T, R1, R2, n_boot=60, seed=seed, level=level,
                                zero_division=zero_division)
    low, high = _naive_paired_bootstrap(T, R1, R2, 60, seed, level, zero_division)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        one = rl.multilabel_measures(T, R1, zero_division=zero_division)
        two = rl.multilabel_measures(T, R2, zero_division=zero_division)
    for j, (name, band) in enumerate(got._asdict().items()):
        want = getattr(one, name) - getattr(two, name)
        assert band.estimate == pytest.approx(want, nan_ok=True), name
        if np.isfinite(low[j]):
            assert band.low == pytest.approx(low[j], abs=1e-12), name
            assert band.high == pytest.approx(high[j], abs=1e-12), name


def test_percentile_bounds_are_numpys_and_keep_an_infinite_tail():
    from rejlab._resampling import quantiles as percentile_bounds

    rng = np.random.default_rng(0)
    x = rng.normal(size=(401, 3))
    x[::4, 1] = np.nan
    low, high = percentile_bounds(x, 0.9)
    assert np.allclose([low, high], np.nanquantile(x, [0.05, 0.95], axis=0), rtol=0, atol=1e-12)
    tail = np.concatenate([np.arange(39.0), [np.inf]])      # the top order statistics: inf
    low, high = percentile_bounds(tail[:, None], 0.99)
    assert np.isfinite(low[0]) and high[0] == np.inf
    assert np.isnan(percentile_bounds(np.full((5, 1), np.nan), 0.9)[0][0])


def test_compare_multilabel_is_paired_and_reads_label_sets_like_matrices():
    rng = np.random.default_rng(3)
    T = rng.random((80, 3)) < 0.5
    T[:, 0] |= ~T.any(axis=1)
    R = T ^ (rng.random(T.shape) < 0.2)
    same = rl.compare_multilabel(T, R, R, n_boot=200, seed=1, zero_division=0)
    for band in same:                              # one result against itself: exactly 0
        assert (band.estimate, band.low, band.high) == (0, 0, 0)
    sets = [lambda Y: [set(np.flatnonzero(row).tolist()) for row in Y]][0]
    from_sets = rl.compare_multilabel(sets(T), sets(R), sets(T), n_boot=50, seed=2, zero_division=0)
    from_matrix = rl.compare_multilabel(T, R, T, n_boot=50, seed=2, zero_division=0)
    for a, b in zip(from_sets, from_matrix):
        assert a == pytest.approx(b)


def test_compare_multilabel_verdict_reads_the_intervals():
    rng = np.random.default_rng(4)
    T = rng.random((400, 4)) < 0.4
    T[:, 0] |= ~T.any(axis=1)
    good = T ^ (rng.random(T.shape) < 0.05)
    bad = T ^ (rng.random(T.shape) < 0.4)
    def verdict(one, two):
        return rl.compare_multilabel(T, one, two, n_boot=200, seed=0, zero_division=0).aa_rar_verdict()

    assert verdict(good, bad) == "more accurate"
    assert verdict(bad, good) == "less accurate"
    near = T ^ (rng.random(T.shape) < 0.051)
    assert verdict(good, near) == "not settled"
    # finds more true labels (AA up) but gives many wrong ones (RAR down): incomparable
    greedy = T | (rng.random(T.shape) < 0.6)
    cmp = rl.compare_multilabel(T, greedy, good, n_boot=200, seed=0, zero_division=0)
    assert cmp.AA.low > 0 and cmp.RAR.high < 0
    assert cmp.aa_rar_verdict() == "incomparable"


def test_compare_multilabel_names_the_result_that_does_not_fit():
    T = np.eye(3, dtype=int)
    with pytest.raises(ValueError, match="y_pred_2"):
        rl.compare_multilabel(T, T, T[:2], n_boot=5)
    with pytest.raises(ValueError, match="y_pred_1"):
        rl.compare_multilabel(T, np.ones((3, 2), dtype=int), T, n_boot=5)
