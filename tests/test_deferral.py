"""Learning to defer against loops, the mean over every order of the rows (the curve's ties),
exact fractions and SciPy's minimiser of Mozannar & Sontag's surrogate; the lesson's data."""

import itertools
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import scipy.optimize as optimize
from hypothesis import given, settings, strategies as st

import rejlab as rl


def curve_in_order(accurate, expert_accurate, order):
    """Correct answers after deferring the first k of ``order``, k = 0 .. n, by a loop."""
    out = []
    for k in range(len(order) + 1):
        deferred = set(order[:k])
        out.append(sum(int(expert_accurate[i] if i in deferred else accurate[i]) for i in range(len(order))))
    return out


def curve_by_every_order(accurate, expert_accurate, score):
    """The tie convention from its definition: the mean, over every order of the rows, of the
    curve that defers by decreasing score and, among equal scores, by row order (exact)."""
    n = len(score)
    total = [Fraction(0)] * (n + 1)
    orders = list(itertools.permutations(range(n)))
    for perm in orders:
        order = sorted(perm, key=lambda i: -score[i])       # a stable sort keeps perm's order
        total = [t + c for t, c in zip(total, curve_in_order(accurate, expert_accurate, order))]
    return [t / (len(orders) * n) for t in total]


small = st.integers(1, 5).flatmap(lambda n: st.tuples(
    st.lists(st.booleans(), min_size=n, max_size=n), st.lists(st.booleans(), min_size=n, max_size=n),
    st.lists(st.sampled_from([0.1, 0.4, 0.4, 0.7]), min_size=n, max_size=n)))

samples = st.integers(1, 60).flatmap(lambda n: st.tuples(
    st.lists(st.booleans(), min_size=n, max_size=n), st.lists(st.booleans(), min_size=n, max_size=n),
    st.lists(st.integers(0, 8).map(lambda x: x / 8), min_size=n, max_size=n)))


def test_defer_is_the_comparison_of_the_expected_losses_in_fractions():
    c = [Fraction(x, 20) for x in range(21)]
    for e, cost in itertools.product([Fraction(x, 20) for x in range(21)], (0, Fraction(1, 10),
                                                                           Fraction(3, 10))):
        want = [(1 - e) + cost < 1 - ci for ci in c]
        got = rl.defer([float(x) for x in c], [float(e)] * len(c), float(cost))
        mismatched = [ci for ci, w, g in zip(c, want, got) if w != g]
        # a float rounding may only ever decide an exact tie
        assert all((1 - e) + cost == 1 - ci for ci in mismatched), (e, cost, mismatched)


@settings(max_examples=60)
@given(st.integers(1, 40), st.integers(2, 5), st.integers(0, 2**32 - 1), st.floats(0, 1, allow_nan=False))
def test_with_an_expert_always_right_the_rule_is_chows_at_the_tie_too(n, k, seed, rho):
    proba = np.random.default_rng(seed).dirichlet(np.ones(k), size=n)
    c = rl.max_probability(proba)
    np.testing.assert_array_equal(rl.defer(c, np.ones(n), rho), rl.chow_rule(proba, rho))
    # at the tie max p = 1 - rho both keep
    c, ones = np.array([0.7, 0.75, 0.69]), np.ones(3)
    assert rl.defer(c, ones, 0.3).tolist() == [False, False, True]
    assert rl.chow_rule(np.column_stack((c, 1 - c)), 0.3).tolist() == [False, False, True]


@settings(max_examples=50)
@given(small)
def test_the_curve_is_the_mean_over_every_order_of_the_rows(data):
    a, ea, score = data
    want = curve_by_every_order(a, ea, score)
    got = rl.deferral_curve(a, ea, score)
    np.testing.assert_allclose(got.accuracy, [float(w) for w in want], rtol=0, atol=1e-12)
    np.testing.assert_array_equal(got.n_deferred, np.arange(len(a) + 1))
    np.testing.assert_allclose(got.rate, np.arange(len(a) + 1) / len(a))


@settings(max_examples=60)
@given(samples, st.integers(0, 2**32 - 1), st.floats(0, 1), st.floats(0, 1))
def test_the_curve_in_any_row_order_below_the_oracle_and_the_rules_point_on_it(data, seed, cost, other):
    a, ea, score = map(np.array, data)
    first = rl.deferral_curve(a, ea, score).accuracy
    p = np.random.default_rng(seed).permutation(a.size)
    np.testing.assert_allclose(rl.deferral_curve(a[p], ea[p], score[p]).accuracy, first, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(rl.deferral_curve(a, ea, 3 * score ** 3 + 1).accuracy, first)
    assert first[0] == a.mean() and first[-1] == ea.mean()   # the classifier, then the expert alone
    # no order beats deferring where only the expert is right
    assert np.all(first <= rl.deferral_curve(a, ea, ea.astype(float) - a).accuracy + 1e-12)
    # without ties: deferring by decreasing score, by a loop
    distinct = np.random.default_rng(a.size).permutation(a.size).astype(float)
    want = curve_in_order(data[0], data[1], list(np.argsort(-distinct)))
    np.testing.assert_array_equal(rl.deferral_curve(a, ea, distinct).accuracy, np.array(want) / a.size)
    # the rule is the point of the gain curve above its cost
    rng, tied = np.random.default_rng(a.size), score
    c, e = rng.random(a.size), rng.random(a.size)
    deferred = rl.defer(c, e, cost)
    point = rl.deferral_point(a, ea, deferred)
    right = sum(int(ea[i] if deferred[i] else a[i]) for i in range(a.size))   # a loop
    assert point == (deferred.sum() / a.size, right / a.size)
    curve = rl.deferral_curve(a, ea, e - c)
    assert curve.accuracy[int(deferred.sum())] == pytest.approx(point.accuracy, abs=1e-12)
    assert point.cost(cost) == pytest.approx((1 - point.accuracy) + cost * point.rate)
    low, high = sorted((cost, other))      # a higher cost defers a subset, tied confidences too
    assert not np.any(rl.defer(tied, e, high) & ~rl.defer(tied, e, low))


def expected_surrogate(logits, p, e):
    """E[L_CE | x] = -sum_y p_y log q_y - e log q_defer, q the softmax of the K + 1 logits."""
    z = logits - logits.max()
    log_q = z - np.log(np.exp(z).sum())
    return -(p @ log_q[:-1]) - e * log_q[-1]


def test_the_expert_is_right_with_its_accuracy_and_confidence_and_a_better_one_only_helps():
    stats = pytest.importorskip("scipy.stats")
    team = rl.datasets.expert_toy(2000, seed=0)
    for k, e_k in enumerate(rl.datasets.EXPERT_ACCURACY):
        right = int(team.expert_accurate[team.toy.y == k].sum())
        assert stats.binomtest(right, 2000, e_k).pvalue > 1e-4
    # the law of total probability: E[e(x)] is the expert's accuracy, sum_k e_k / 4
    assert team.expert_confidence.mean() == pytest.approx(np.mean(rl.datasets.EXPERT_ACCURACY),
                                                          abs=4 / math.sqrt(8000))
    # its confidence by a loop, and a better expert
    team, _, e, _, _ = team_by_loops(20, 5, (0.9, 0.8, 0.3, 0.6))
    np.testing.assert_allclose(team.expert_confidence, e, rtol=1e-12)
    np.testing.assert_array_equal(team.accurate, team.toy.accurate)
    np.testing.assert_array_equal(team.confidence, team.toy.proba.max(axis=1))
    # a better expert only turns wrong answers right
    weak = rl.datasets.expert_toy(100, seed=4, expert_accuracy=(0.6, 0.6, 0.3, 0.3))
    strong = rl.datasets.expert_toy(100, seed=4, expert_accuracy=(0.9, 0.6, 0.5, 0.3))
    assert not np.any(weak.expert_accurate & ~strong.expert_accurate)
    np.testing.assert_array_equal(weak.toy.X, strong.toy.X)
    perfect = rl.datasets.expert_toy(100, seed=4, expert_accuracy=(1, 1, 1, 1))
    assert perfect.expert_accurate.all() and np.all(perfect.expert_confidence == 1.0)


LESSON = Path(__file__).resolve().parents[1] / "notebooks" / "17_learning_to_defer.ipynb"


def printed_by_lesson():
    cells = json.loads(LESSON.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", ""))
                     for cell in cells for o in cell.get("outputs", []))


def team_by_loops(n_per_class=250, seed=0, accuracy_of_class=(0.95, 0.95, 0.5, 0.5)):
    """The lesson's 1000 samples by default: posteriors from the Gaussian densities, c, e and the
    nearest centre written out; the expert's answers are data (its draws are checked above)."""
    team = rl.datasets.expert_toy(n_per_class, seed=seed, expert_accuracy=accuracy_of_class)
    c, e, right = [], [], []
    for (x1, x2), y in zip(team.toy.X, team.toy.y):
        w = [math.exp(-((x1 - m1) ** 2 + (x2 - m2) ** 2) / 2) for m1, m2 in rl.datasets.CENTRES]
        c.append(max(w) / sum(w))
        e.append(sum(wk * ek for wk, ek in zip(w, accuracy_of_class)) / sum(w))
        right.append(w.index(max(w)) == y)
    return team, c, e, right, [bool(v) for v in team.expert_accurate]


def test_the_numbers_lesson_17_prints_by_loops():
    team, c, e, right, expert = team_by_loops()
    n, text = len(c), printed_by_lesson()
    for k in range(4):
        idx = [i for i in range(n) if team.toy.y[i] == k]
        assert (f"class {k}: classifier right on {sum(right[i] for i in idx) / len(idx):.3f}, "
                f"expert on {sum(expert[i] for i in idx) / len(idx):.3f}") in text
    assert f"classifier right on {sum(right) / n:.3f}, expert on {sum(expert) / n:.3f}" in text

    by_gain = sorted(range(n), key=lambda i: c[i] - e[i])
    gain_curve = [correct / n for correct in curve_in_order(right, expert, by_gain)]
    for cost in (0.0, 0.05, 0.1, 0.2, 0.3):     # keep costs 1 - c, deferring 1 - e + cost
        deferred = {i for i in range(n) if (1 - e[i]) + cost < 1 - c[i]}
        rate, acc = len(deferred) / n, sum(expert[i] if i in deferred else right[i] for i in range(n)) / n
        losses = [(1 - gain_curve[j]) + cost * j / n for j in range(n + 1)]
        best = losses.index(min(losses))          # the first least loss on the sample
        assert (f"cost {cost:.2f}: the rule defers {rate:.3f}, loss {(1 - acc) + cost * rate:.4f} | least "
                f"loss on this sample: rate {best / n:.3f}, loss {losses[best]:.4f}") in text
        if cost == 0.1:
            k = len(deferred)
            assert f"the rule defers {rate:.3f}: the system is right on {acc:.3f}" in text
    draws, curves = np.random.default_rng(0).random(n), {}                  # the lesson's random order
    for name, order in (("least confident first", sorted(range(n), key=lambda i: c[i])),
                        ("largest expected gain first", by_gain),
                        ("at random", sorted(range(n), key=lambda i: -draws[i]))):
        curve = curves[name] = [correct / n for correct in curve_in_order(right, expert, order)]
        best = max(range(n + 1), key=lambda j: (curve[j], -j))
        assert (f"{name:28s}: {curve[k]:.3f} with {k} deferred; at most {curve[best]:.3f} "
                f"(rate {best / n:.3f})") in text
    # "1.4 points below" the gain order at the rule's rate
    assert round(curves["largest expected gain first"][k] - curves["least confident first"][k], 3) == 0.014


def test_the_maths_references_examples_the_cost_along_the_curve_and_the_minimiser_by_hand():
    text = (Path(__file__).resolve().parents[1] / "docs" / "maths.md").read_text(encoding="utf-8")
    # least confident first: the sample of score -0.5 (expert only), then -0.6 (expert only),
    # then -0.7 (classifier only), then -0.9 (both right)
    want = [Fraction(v, 4) for v in (2, 3, 4, 3, 3)]
    assert [Fraction(x, 4) for x in curve_in_order([1, 0, 1, 0], [1, 1, 0, 1], [3, 1, 2, 0])] == want
    assert "give accuracies 0.5, 0.75, 1, 0.75, 0.75" in text
    np.testing.assert_allclose(rl.deferral_curve([1, 0, 1, 0], [1, 1, 0, 1],
                                                 [-0.9, -0.6, -0.7, -0.5]).accuracy, [float(w) for w in want])
    assert "one right for both and one right for the expert only, give 0.5, 0.75, 1" in text
    assert curve_by_every_order([1, 0], [1, 1], [0.3, 0.3]) == [Fraction(1, 2), Fraction(3, 4), 1]
    # the lesson's exercise point, in fractions: q = (0.5, 0.3, 0.2, 0.6) / 1.6
    q = [float(Fraction(x, 10) / Fraction(16, 10)) for x in (5, 3, 2, 6)]
    assert f"$q^* = ({', '.join(map(str, q))})$" in text           # (0.3125, 0.1875, 0.125, 0.375)
    np.testing.assert_allclose(rl.deferral_surrogate_minimizer([[0.5, 0.3, 0.2]], [0.6])[0], q)
    assert "it falls 1.4 points below the gain order at the rule's rate" in text
    # the cost along the curve and its least point
    a, ea, score = [1, 0, 1, 0, 0], [1, 1, 0, 1, 0], [0.1, 0.9, 0.5, 0.8, 0.2]
    curve = rl.deferral_curve(a, ea, score)
    correct = [2, 3, 4, 3, 3, 3]          # deferred in the order 1, 3, 2, 4, 0
    for cost in (0.0, 0.3, 0.6, 1.0):
        want = [(5 - r) / 5 + cost * k / 5 for k, r in enumerate(correct)]
        np.testing.assert_allclose(curve.cost(cost), want)
        assert curve.min_cost(cost) == int(np.argmin(want))
    assert curve.min_cost(0.6) == 2 and curve.min_cost(1.0) == 0   # k = 0, 2 tie at 0.6: the first
    # the minimiser's largest output is the rule at cost zero
    team = rl.datasets.expert_toy(150, seed=2)
    q = rl.deferral_surrogate_minimizer(team.toy.proba, team.expert_confidence)
    np.testing.assert_allclose(q.sum(axis=1), 1.0)
    np.testing.assert_array_equal(q.argmax(axis=1) == 4, rl.defer(team.confidence, team.expert_confidence))
    np.testing.assert_allclose(q[:, -1] * (1 + team.expert_confidence), team.expert_confidence)
    # the minimiser is the surrogate's minimum found by SciPy
    for seed in range(6):
        rng = np.random.default_rng(seed)
        p, e = rng.dirichlet(np.ones(3 + seed % 3)), rng.random()
        found = optimize.minimize(expected_surrogate, np.zeros(p.size + 1), args=(p, e),
                                  method="BFGS", options={"gtol": 1e-10}).x
        q = np.exp(found - found.max())
        np.testing.assert_allclose(q / q.sum(), rl.deferral_surrogate_minimizer([p], [e])[0], atol=1e-6)
