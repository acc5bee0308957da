"""Calibration: reliability bins and ECE against loops, temperature scaling, what it does to rejection."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import rejlab as rl


def naive_bins(accurate, confidence, n_bins, binning):
    """Edges by the definition, then every sample placed by a loop over the bins."""
    c = [float(x) for x in confidence]
    if binning == "equal_width":
        edges = [b / n_bins for b in range(n_bins + 1)]
    else:
        edges = [0.0] + [float(np.quantile(c, b / n_bins)) for b in range(1, n_bins)] + [1.0]
    members = [[] for _ in range(n_bins)]
    for a, x in zip(accurate, c):
        for b in range(n_bins):
            last = b == n_bins - 1
            if edges[b] <= x < edges[b + 1] or (last and x >= edges[b]):
                members[b].append((a, x))
                break
        else:  # below the first edge cannot happen for x >= 0
            raise AssertionError(x)
    return edges, members


def naive_ece(accurate, confidence, n_bins, binning):
    _, members = naive_bins(accurate, confidence, n_bins, binning)
    total = 0.0
    for m in members:
        if m:
            acc = sum(a for a, _ in m) / len(m)
            conf = sum(x for _, x in m) / len(m)
            total += len(m) * abs(acc - conf)
    return total / len(accurate)


data = st.integers(1, 60).flatmap(lambda n: st.tuples(
    st.lists(st.booleans(), min_size=n, max_size=n),
    st.lists(st.one_of(st.floats(0, 1), st.sampled_from([0.0, 0.25, 0.5, 1.0])),
             min_size=n, max_size=n)))


@settings(max_examples=100, deadline=None)
@given(data=data, n_bins=st.integers(1, 20), binning=st.sampled_from(rl.calibration.BINNINGS))
def test_bins_and_ece_agree_with_loops(data, n_bins, binning):
    accurate, confidence = data
    b = rl.calibration_bins(accurate, confidence, n_bins=n_bins, binning=binning)
    edges, members = naive_bins(accurate, confidence, n_bins, binning)
    np.testing.assert_array_equal(b.edges, edges)
    assert b.counts.tolist() == [len(m) for m in members] and b.n == len(accurate)
    for i, m in enumerate(members):
        if m:
            assert b.accuracy[i] == pytest.approx(sum(a for a, _ in m) / len(m))
            assert b.confidence[i] == pytest.approx(sum(x for _, x in m) / len(m))
        else:
            assert np.isnan(b.accuracy[i]) and np.isnan(b.confidence[i])
    ece = rl.expected_calibration_error(accurate, confidence, n_bins=n_bins, binning=binning)
    assert ece == pytest.approx(naive_ece(accurate, confidence, n_bins, binning), abs=1e-12)
    assert 0.0 <= ece <= 1.0 and ece <= b.mce + 1e-12


def test_on_the_toy_empty_bins_at_the_bottom_more_bins_more_noise_and_a_constant_confidence(toy_data):
    a, c = toy_data.accurate, toy_data.confidence()
    b = rl.calibration_bins(a, c, n_bins=10)
    assert b.counts[:2].sum() == 0 and np.isnan(b.accuracy[:2]).all()  # max p >= 1/4
    mass = rl.calibration_bins(a, c, n_bins=10, binning="equal_mass")
    assert mass.counts.min() >= 59 and mass.counts.max() <= 61
    assert b.ece == pytest.approx(naive_ece(a, c, 10, "equal_width"))
    # a constant confidence at the accuracy is calibrated and ranks nothing
    constant = np.full(a.size, a.mean())
    for binning in rl.calibration.BINNINGS:
        assert rl.expected_calibration_error(a, constant, binning=binning) == pytest.approx(0, abs=1e-12)
    assert rl.failure_auroc(a, constant) == 0.5
    assert rl.aurc(a, constant, ties="average") == pytest.approx(1 - a.mean())
    assert rl.aurc(a, c) < 1 - a.mean() - 0.05
    # the exact posteriors are calibrated; ECE still grows with the number of bins
    eces = [rl.expected_calibration_error(a, c, n_bins=b) for b in (5, 50, 200)]
    assert eces[0] < eces[1] < eces[2]


def _proba(k):
    return st.integers(2, 12).flatmap(lambda n: st.lists(
        st.lists(st.floats(0.01, 1.0), min_size=k, max_size=k), min_size=n, max_size=n)).map(
        lambda rows: np.array(rows) / np.array(rows).sum(axis=1, keepdims=True))


@settings(max_examples=60, deadline=None)
@given(p=st.integers(2, 5).flatmap(_proba), t=st.floats(0.1, 10))
def test_apply_temperature_is_the_formula(p, t):
    q = rl.apply_temperature(p, t)
    want = p ** (1 / t) / (p ** (1 / t)).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(q, want, rtol=1e-10)
    # so it keeps the predicted class, and a temperature above 1 flattens every row
    unique = np.sort(p, axis=1)[:, -1] > np.sort(p, axis=1)[:, -2] + 1e-9
    np.testing.assert_array_equal(q.argmax(axis=1)[unique], p.argmax(axis=1)[unique])
    assert t < 1 or np.all(q.max(axis=1) <= p.max(axis=1) + 1e-12)
    np.testing.assert_allclose(rl.apply_temperature(np.log(p), t, from_logits=True), want, rtol=1e-10)
    np.testing.assert_array_equal(rl.datasets.temper(p, t), q)       # one formula, one place
    np.testing.assert_allclose(rl.apply_temperature(p, 1.0), p, rtol=1e-12)


def _nll(z, y, t):
    q = rl.apply_temperature(z, t, from_logits=True)
    return -np.mean(np.log(q[np.arange(y.size), y]))


def test_fit_temperature_is_the_minimum_of_a_brute_force_grid_its_range_ends_and_its_checks():
    toy = rl.datasets.four_gaussians(200, seed=3)
    over = rl.apply_temperature(toy.proba, 0.5)            # an overconfident model
    fit = rl.fit_temperature(over, toy.y)
    z = np.log(over)
    grid = np.exp(np.linspace(np.log(0.5), np.log(5), 2001))
    nll = [_nll(z, toy.y, t) for t in grid]
    assert fit.temperature == pytest.approx(grid[int(np.argmin(nll))], rel=2e-3)
    assert fit.nll <= min(nll) + 1e-12 and fit.nll < fit.nll_at_one and not fit.at_bound
    assert fit.nll_at_one == pytest.approx(_nll(z, toy.y, 1.0))
    assert fit.temperature == pytest.approx(2.0, rel=0.15)       # undoes T = 0.5
    logits = rl.fit_temperature(3 * z, toy.y, from_logits=True)   # logits scaled by 3: T x 3
    assert logits.temperature == pytest.approx(3 * fit.temperature, rel=1e-9)
    # at the ends of its range
    y = np.array([0, 1, 0, 1])
    perfect = np.array([[0.9, 0.1], [0.2, 0.8], [0.7, 0.3], [0.4, 0.6]])   # all right: T -> 0
    fit = rl.fit_temperature(perfect, y)
    assert fit.at_bound and fit.temperature == pytest.approx(rl.calibration.TEMPERATURE_RANGE[0])
    wrong = perfect[:, ::-1]                               # all wrong: flatten fully, T -> inf
    fit = rl.fit_temperature(wrong, y)
    assert fit.at_bound and fit.temperature == pytest.approx(rl.calibration.TEMPERATURE_RANGE[1])


@settings(max_examples=100, deadline=None)
@given(data=st.integers(1, 40).flatmap(lambda n: st.tuples(
    st.lists(st.booleans(), min_size=n, max_size=n),
    st.lists(st.integers(-20, 20), min_size=n, max_size=n))),
    scale=st.integers(1, 5), shift=st.integers(-50, 50), ties=st.sampled_from(["index", "average"]))
def test_a_monotone_map_of_one_score_changes_no_ranking_number(data, scale, shift, ties):
    accurate, c = np.array(data[0]), np.array(data[1], dtype=np.int64)
    for mapped in (scale * c + shift, c ** 3, np.exp(c / 10.0)):   # all strictly increasing
        assert rl.aurc(accurate, mapped, ties=ties) == rl.aurc(accurate, c, ties=ties)
        assert rl.failure_auroc(accurate, mapped) == rl.failure_auroc(accurate, c) or \
            (np.isnan(rl.failure_auroc(accurate, c)) and np.isnan(rl.failure_auroc(accurate, mapped)))
        np.testing.assert_array_equal(rl.rejection_curves(accurate, mapped).Q,
                                      rl.rejection_curves(accurate, c).Q)


@settings(max_examples=60, deadline=None)
@given(p=_proba(2), t=st.floats(0.2, 5), accurate=st.lists(st.booleans(), min_size=12, max_size=12))
def test_with_two_classes_a_temperature_keeps_the_ranking_and_aurc(p, t, accurate):
    a = np.array(accurate[:p.shape[0]])
    c, ct = rl.max_probability(p), rl.max_probability(rl.apply_temperature(p, t))
    i, j = np.triu_indices(c.size, 1)
    assert np.all(np.sign(c[i] - c[j]) * np.sign(ct[i] - ct[j]) >= 0)
    if np.array_equal(np.sign(c[i] - c[j]), np.sign(ct[i] - ct[j])):   # no tie made or undone
        assert rl.aurc(a, ct) == pytest.approx(rl.aurc(a, c), abs=1e-12)


def test_with_four_classes_a_temperature_can_reorder_samples_and_moves_aurc_and_chow(toy_data):
    """A flat runner-up and a strong runner-up react differently to one temperature: the maths
    reference's two rows swap order at T = 0.5 (their values, and breaking ties' swap at T = 8:
    tests/test_docs.py), so AURC moves."""
    p = np.array([[0.60, 0.38, 0.01, 0.01], [0.55, 0.15, 0.15, 0.15]])
    c = {t: rl.max_probability(rl.apply_temperature(p, t)) for t in (0.5, 1.0)}
    assert c[1.0][0] > c[1.0][1] and c[0.5][0] < c[0.5][1]
    assert rl.aurc([True, False], c[1.0]) != rl.aurc([True, False], c[0.5])
    # on the toy a temperature moves AURC a little and Chow's rule a lot
    a = toy_data.accurate
    aurc = {t: rl.aurc(a, rl.max_probability(rl.apply_temperature(toy_data.proba, t)))
            for t in (0.5, 1.0, 2.0)}
    assert aurc[0.5] != aurc[1.0] != aurc[2.0]
    assert max(abs(x - aurc[1.0]) for x in aurc.values()) < 0.01
    chow = {t: rl.chow_rule(rl.apply_temperature(toy_data.proba, t), 0.3).mean() for t in (0.5, 1.0, 2.0)}
    assert chow[0.5] < chow[1.0] - 0.1 and chow[2.0] > chow[1.0] + 0.3
    assert math.isfinite(aurc[2.0])


def test_apply_temperature_returns_its_limit_on_extreme_finite_inputs():
    for proba, temperature, from_logits, limit in [
        ([[0.8, 0.2]], 1e-310, False, [[1.0, 0.0]]), ([[0.2, 0.3, 0.5]], 5e-324, False, [[0.0, 0.0, 1.0]]),
        ([[1e308, 0.0]], 0.5, True, [[1.0, 0.0]]), ([[-1e308, 1e308]], 1e-300, True, [[0.0, 1.0]]),
        # an ordinary row beside an extreme one keeps its own value
        ([[1e308, 0.0], [2.0, 0.0]], 0.5, True,
         [[1.0, 0.0], rl.apply_temperature([[2.0, 0.0]], 0.5, from_logits=True)[0]])]:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = rl.apply_temperature(proba, temperature, from_logits=from_logits)
        np.testing.assert_array_equal(got, limit)
