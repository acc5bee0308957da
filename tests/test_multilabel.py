"""Multi-label scores: per-sample counts, Godbole and Sarawagi's scores, AA and RAR in one pass."""

import warnings
from fractions import Fraction

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays

import rejlab as rl


def test_table1_scores_and_the_two_readings_of_method_2_as_in_the_paper():
    t = rl.datasets.table1()
    order = sorted(t.ideal_label_sets)
    truth = [t.ideal_label_sets[p] for p in order]
    m1 = [t.method_1_label_sets[p] for p in order]
    m2 = [t.method_2_label_sets[p] for p in order]
    s1, s2 = rl.multilabel_scores(truth, m1), rl.multilabel_scores(truth, m2)
    assert s1 == pytest.approx((11 / 14, 6 / 7, 11 / 14), rel=0, abs=1e-12)
    assert s2 == pytest.approx((9 / 14, 5 / 7, 9 / 14), rel=0, abs=1e-12)
    assert rl.multilabel_scores(t.ideal_label_sets, t.method_2_label_sets) == s2  # mappings give the same
    assert t.method_2_sec51 != t.method_2_sec52
    for ideal, method, want in [
            # Section 5.2 writes P'' = ({b,c}, {e,c,f}, {a,d,g}): the paper's AA = 3/4, RAR = 2
            (t.ideal, t.method_2_sec52, (Fraction(3, 4), 2)),
            # Section 5.1's label sets give c only label 2, i.e. P''_1 = {b}: AA = 5/8, RAR = 5/3
            (t.ideal, t.method_2_sec51, (Fraction(5, 8), Fraction(5, 3))),
            (t.ideal_label_sets, t.method_2_label_sets, (Fraction(5, 8), Fraction(5, 3))),
            (t.ideal_label_sets, t.method_1_label_sets, (Fraction(3, 4), 3))]:  # the same in both sections
        report = rl.accuracy_report(ideal, method)
        assert (report.AA_exact, report.RAR_exact) == want


# scikit-learn reads a single column as binary, not multi-label: two columns or more
multilabel_pairs = st.tuples(st.integers(1, 9), st.integers(2, 6)).flatmap(
    lambda s: st.tuples(arrays(np.uint8, s, elements=st.integers(0, 1)),
                        arrays(np.uint8, s, elements=st.integers(0, 1))))


@settings(max_examples=80, deadline=None)
@given(multilabel_pairs, st.sampled_from([0, 1, "warn", np.nan]))
def test_multilabel_measures_equal_scikit_learn_and_read_label_sets_alike(pair, zero_division):
    # empty rows (a sample with no label) and empty columns (a label nobody has) included
    T, P = pair
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = rl.multilabel_measures(T, P, zero_division=zero_division)
        kw = dict(zero_division=zero_division)
        theirs = {"precision": skm.precision_score(T, P, average="samples", **kw),
                  "recall": skm.recall_score(T, P, average="samples", **kw),
                  "f1": skm.f1_score(T, P, average="samples", **kw), "hamming_loss": skm.hamming_loss(T, P),
                  "subset_accuracy": skm.accuracy_score(T, P),
                  "micro_f1": skm.f1_score(T, P, average="micro", **kw),
                  "macro_f1": skm.f1_score(T, P, average="macro", **kw),
                  "AA": skm.recall_score(T, P, average="micro") if T.any() else np.nan}
        # jaccard_score refuses np.nan; rejlab then leaves undefined samples out
        defined = (T | P).any(axis=1) if isinstance(zero_division, float) else slice(None)
        theirs["accuracy"] = skm.jaccard_score(T[defined], P[defined], average="samples", zero_division=(
            0 if isinstance(zero_division, float) else zero_division)) if T[defined].size else np.nan
        scores = rl.multilabel_scores(T, P, zero_division=zero_division)
        evaluation = rl.evaluate_multilabel(T, P, zero_division=zero_division)
    for name, value in theirs.items():
        assert getattr(ours, name) == pytest.approx(value, abs=1e-12, nan_ok=True), name
    # the same numbers, bit for bit, from every function that gives them
    for name in ("AA", "RAR", "accuracy", "precision", "recall"):
        for other in (scores, evaluation):
            if name in other._fields:
                np.testing.assert_equal(getattr(other, name), getattr(ours, name))
    np.testing.assert_equal((rl.absolute_accuracy(T, P), rl.relative_accuracy_rate(T, P)),
                            (ours.AA, ours.RAR))
    # label sets know only the labels that occur: compare with the matrix of those columns
    used = (T | P).any(axis=0)
    if not used.any():
        used[0] = True  # no label at all: one column nobody carries
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = rl.multilabel_measures(rl.indicator_to_label_sets(T), rl.indicator_to_label_sets(P),
                                     zero_division=zero_division)
        want = rl.multilabel_measures(T[:, used], P[:, used], zero_division=zero_division)
    np.testing.assert_equal(tuple(got), tuple(want))


def test_zero_division_indicator_dtypes_and_counts_against_a_loop():
    T = P = np.array([[1, 0], [0, 0]])
    with pytest.warns(RuntimeWarning, match="ill-defined"):
        assert rl.multilabel_scores(T, P) == (0.5, 0.5, 0.5)  # sample 2: 0 / 0 -> 0
    with pytest.warns(RuntimeWarning, match="F1 is ill-defined"):
        assert rl.multilabel_measures(T, P).f1 == 0.5
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert rl.multilabel_scores(T, P, zero_division=1) == (1.0, 1.0, 1.0)
        m = rl.multilabel_measures(T, P, zero_division=np.nan)
    assert m.precision == 1.0 and m.f1 == 1.0  # the undefined sample is left out
    # indicator dtypes are read alike
    T = np.array([[1, 0, 1], [0, 1, 0]])
    R = np.array([[1, 1, 0], [0, 1, 0]])
    ref = rl.evaluate_multilabel(T, R)
    for dt in (bool, np.int8, np.uint8, np.int64, float):
        assert rl.evaluate_multilabel(T.astype(dt), R.astype(dt)) == ref
    assert rl.evaluate_multilabel(T.tolist(), R.tolist()) == ref
    # the per-sample counts against a loop, with one and several 64-bit words per row
    for m in (1, 7, 64, 65):
        rng = np.random.default_rng(m)
        T, R = (rng.integers(0, 2, (50, m)).astype(bool) for _ in range(2))
        c = rl.multilabel_counts(T, R)
        sets = [(set(np.flatnonzero(t)), set(np.flatnonzero(r))) for t, r in zip(T, R)]
        assert c.tp.tolist() == [len(t & r) for t, r in sets]
        assert c.fp.tolist() == [len(r - t) for t, r in sets]
        assert c.fn.tolist() == [len(t - r) for t, r in sets]


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


@settings(max_examples=15, deadline=None)
@given(st.integers(5, 30), st.integers(1, 4), st.integers(0, 2**16),
       st.sampled_from([0, 1, np.nan]), st.sampled_from([0.8, 0.95]))
def test_compare_multilabel_equals_a_naive_resampling_loop(n, m, seed, zero_division, level):
    rng = np.random.default_rng(seed)
    T = rng.random((n, m)) < 0.4
    T[:, 0] |= ~T.any(axis=1)                  # every sample has a true label: RAR stays finite
    R1, R2 = (T ^ (rng.random(T.shape) < p) for p in (0.15, 0.3))
    R1[0] = False                              # an empty prediction: a 0 / 0 precision term
    got = rl.compare_multilabel(T, R1, R2, n_boot=60, seed=seed, level=level, zero_division=zero_division)
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


def test_compare_multilabel_is_paired_reads_label_sets_its_verdict_reads_the_intervals():
    rng = np.random.default_rng(3)
    T = rng.random((80, 3)) < 0.5
    T[:, 0] |= ~T.any(axis=1)
    R = T ^ (rng.random(T.shape) < 0.2)
    same = rl.compare_multilabel(T, R, R, n_boot=200, seed=1, zero_division=0)
    for band in same:                              # one result against itself: exactly 0
        assert (band.estimate, band.low, band.high) == (0, 0, 0)
    sets = rl.indicator_to_label_sets
    from_sets = rl.compare_multilabel(sets(T), sets(R), sets(T), n_boot=50, seed=2, zero_division=0)
    from_matrix = rl.compare_multilabel(T, R, T, n_boot=50, seed=2, zero_division=0)
    for a, b in zip(from_sets, from_matrix):
        assert a == pytest.approx(b)
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
