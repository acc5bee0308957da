"""Systems that may abstain: scores against loops and fractions, the rule's optimality by brute
force, its link to Chow's rule, the cost and rho_0, and the simulated data of lesson 19."""

import itertools
import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import rejlab as rl


def naive_scores(correct, answered, t):
    """Counts by a loop over the questions, then the definitions in exact fractions."""
    n, right, wrong = len(correct), 0, 0
    for c, a in zip(correct, answered):
        if a:
            right += bool(c)
            wrong += not c
    t = F(t)
    pen = t / (1 - t)
    return {"answered": F(right + wrong, n), "abstained": F(n - right - wrong, n),
            "accuracy": F(right, n), "error_rate": F(wrong, n),
            "selective_accuracy": F(right, right + wrong) if right + wrong else math.nan,
            "penalty": pen, "score": F(right, n) - pen * F(wrong, n)}


def assert_scores(s, ref):
    for field, value in ref.items():
        assert getattr(s, field) == pytest.approx(float(value), abs=1e-12, nan_ok=True), field


questions = st.integers(1, 40).flatmap(lambda n: st.tuples(
    st.lists(st.booleans(), min_size=n, max_size=n), st.lists(st.booleans(), min_size=n, max_size=n),
    st.lists(st.integers(0, 20).map(lambda k: k / 20), min_size=n, max_size=n)))
targets = st.integers(0, 19).map(lambda k: k / 20)


@settings(max_examples=100)
@given(questions, st.lists(targets, min_size=1, max_size=5), questions)
def test_scores_match_a_loop_in_fractions_and_the_cost_and_flip_at_the_break_even_target(data, ts, b):
    correct, answered, confidence = data
    t = ts[0]
    s = rl.abstention_scores(correct, answered, t=t)
    assert s.n == len(correct)
    assert_scores(s, naive_scores(correct, answered, t))
    # S = 1 - L(A, r; rho) / rho at rho = 1 - t: the penalized score is Condessa's cost
    cost = rl.cost(s.selective_accuracy, s.abstained, 1 - t)
    assert s.score == pytest.approx(1 - cost / (1 - t), abs=1e-9)
    # the rule's scores are those of answering above each target
    s = rl.rule_scores(correct, confidence, ts)
    for i, t in enumerate(ts):
        answered = [c > t for c in confidence]                 # the rule, by a loop
        ref = naive_scores(correct, answered, t)
        assert_scores(rl.AbstentionScores(*(np.asarray(x)[i] if np.ndim(x) else x for x in s)), ref)
    one = rl.rule_scores(correct, confidence, ts[0])
    np.testing.assert_equal(tuple(one), tuple(rl.abstention_scores(
        correct, rl.answer_above(confidence, ts[0]), t=ts[0])))
    # two systems: at the break-even target the scores are equal and the ranking flips
    a, n = data, min(len(data[0]), len(b[0]))
    s1 = rl.abstention_scores(a[0][:n], a[1][:n])
    s2 = rl.abstention_scores(b[0][:n], b[1][:n])
    t0 = rl.break_even_target(s1, s2)
    if s1.abstained == s2.abstained:
        assert math.isnan(t0)
        return
    # scores in exact fractions at targets around t0: the one abstaining more wins above it
    d_acc, d_abs = F(s1.accuracy).limit_denominator(40) - F(s2.accuracy).limit_denominator(40), \
        F(s1.abstained).limit_denominator(40) - F(s2.abstained).limit_denominator(40)
    exact = -d_acc / d_abs
    assert t0 == pytest.approx(float(exact), abs=1e-9)
    if 0 <= exact < 1:      # at exactly 1 (no errors on either side) they never tie
        at = rl.abstention_scores(a[0][:n], a[1][:n], t=float(exact)).score
        other = rl.abstention_scores(b[0][:n], b[1][:n], t=float(exact)).score
        assert at == pytest.approx(other, rel=1e-9, abs=1e-9)
    for t in (0.0, 0.3, 0.6, 0.9):
        diff = (rl.abstention_scores(a[0][:n], a[1][:n], t=t).score
                - rl.abstention_scores(b[0][:n], b[1][:n], t=t).score)
        if abs(t - t0) > 1e-6:
            more_abstains_first = (d_abs > 0) == (t > t0)
            assert (diff > 0) == more_abstains_first or abs(diff) < 1e-12


def test_examples_by_hand_the_sources_on_lesson_19s_data_and_where_its_ranking_flips():
    """The source's two systems at t = 0, 1/2, 3/4 (penalties 0, 1, 3): its rates scored in
    exact arithmetic, by penalized_score and by abstention_scores on seed 0, as lesson 19 prints."""
    ts = (F(0), F(1, 2), F(3, 4))
    assert [t / (1 - t) for t in (*ts, F(9, 10))] == [0, 1, 3, 9]
    np.testing.assert_allclose(rl.penalty([0.0, 0.5, 0.75, 0.9]), [0, 1, 3, 9])
    qa = rl.datasets.qa_answers(seed=0)
    for name, (abstained, acc, err), printed in (
            ("cautious", (F(52, 100), F(22, 100), F(26, 100)), (22, -4, -56)),
            ("guesser", (F(1, 100), F(24, 100), F(75, 100)), (24, -51, -201))):
        assert [acc - t / (1 - t) * err for t in ts] == [F(x, 100) for x in printed]
        want = [x / 100 for x in printed]
        np.testing.assert_allclose(rl.penalized_score(float(acc), float(err), [0, 0.5, 0.75]), want)
        s = rl.abstention_scores(qa.systems[name].correct, qa.systems[name].answered, t=[0.0, 0.5, 0.75])
        np.testing.assert_allclose(s.score, want, atol=1e-12)
        assert s.selective_accuracy == pytest.approx(float(acc / (1 - abstained)), abs=1e-12)
    # the source's ranking flips at t = 2/51
    cautious = rl.abstention_scores([1] * 22 + [0] * 78, [1] * 48 + [0] * 52)
    guesser = rl.abstention_scores([1] * 24 + [0] * 76, [1] * 99 + [0])
    # S_c - S_g = -2/100 + k (75 - 26)/100 = 0 at k = 2/49, t = k / (1 + k) = 2/51
    k = F(2, 49)
    assert k / (1 + k) == F(2, 51)
    assert rl.break_even_target(cautious, guesser) == pytest.approx(2 / 51, abs=1e-12)
    assert rl.break_even_target(guesser, cautious) == pytest.approx(2 / 51, abs=1e-12)
    rho0 = rl.rho_zero(cautious.selective_accuracy, cautious.abstained,
                       guesser.selective_accuracy, guesser.abstained)
    assert rho0 == pytest.approx(49 / 51)
    # an array of targets scores one behaviour at each; nothing answered scores zero
    s = rl.abstention_scores([1, 0, 1, 1, 0], [1, 1, 1, 0, 0], t=[0.0, 0.5, 0.75])
    assert s.accuracy == 0.4 and s.error_rate == 0.2
    np.testing.assert_allclose(s.penalty, [0, 1, 3])
    np.testing.assert_allclose(s.score, [0.4, 0.2, -0.2])
    s = rl.abstention_scores([1, 0, 1], [0, 0, 0], t=0.8)
    assert s.answered == 0 and s.abstained == 1 and s.score == 0
    assert math.isnan(s.selective_accuracy) and math.isnan(s.selective_risk)


@settings(max_examples=100)
@given(st.lists(st.integers(1, 19).map(lambda k: k / 20), min_size=1, max_size=8), targets, st.floats(0, 1))
def test_the_expected_score_and_answering_above_t_maximises_it_over_every_choice(p, t, q):
    for pi in (q, *p):
        e = rl.expected_score(pi, t)
        assert e == pytest.approx((pi - t) / (1 - t), abs=1e-12)
        assert (e > 1e-12) <= (pi > t) and (e < -1e-12) <= (pi < t)
    # brute force: of all 2^n sets of questions to answer, none beats the rule in expectation
    def expected(answered):
        return sum(F(pi).limit_denominator(100) - (1 - F(pi).limit_denominator(100))
                   * F(t).limit_denominator(100) / (1 - F(t).limit_denominator(100))
                   for pi, a in zip(p, answered) if a)

    best = max(expected(choice) for choice in itertools.product((False, True), repeat=len(p)))
    assert expected(rl.answer_above(p, t)) == best
    answered = rl.answer_above(p, t)
    assert sum(rl.expected_score(np.array(p)[answered], t)) == pytest.approx(float(best), abs=1e-9)


def test_the_rule_is_chows_at_the_price_one_minus_t(toy_data):
    conf = rl.max_probability(toy_data.proba)
    for t in (0.3, 0.5, 0.75, 0.9):
        away = np.abs(conf - t) > 1e-9                          # the two differ only at p = t
        np.testing.assert_array_equal(rl.answer_above(conf, t)[away],
                                      ~rl.chow_rule(toy_data.proba, 1 - t)[away])
    assert not rl.answer_above([0.5], 0.5)[0] and not rl.chow_rule([[0.5, 0.5]], 0.5)[0]


def test_every_seed_reproduces_the_reported_rates_and_the_confidences_are_calibrated():
    assert rl.datasets.N_QUESTIONS == 1000
    runs = [rl.datasets.qa_answers(seed=s).systems for s in range(40)]
    for systems in runs + [rl.datasets.qa_answers(seed=123).systems]:
        for name, system in systems.items():
            rates = rl.datasets.QA_REPORTED_RATES[name]
            assert system.name == name and system.confidence.shape == (1000,)
            answered, correct = system.answered.tolist(), system.correct.tolist()
            right = sum(a and c for a, c in zip(answered, correct))
            wrong = sum(a and not c for a, c in zip(answered, correct))
            assert (F(1000 - right - wrong, 1000), F(right, 1000), F(wrong, 1000)) == tuple(
                F(x).limit_denominator(100) for x in rates)
            # it answers its most confident questions
            assert system.confidence[system.answered].min() > system.confidence[~system.answered].max()
    a, b = rl.datasets.qa_answers(seed=3), rl.datasets.qa_answers(seed=3)
    np.testing.assert_array_equal(a.guesser.confidence, b.guesser.confidence)
    assert not np.array_equal(a.guesser.confidence, rl.datasets.qa_answers(seed=4).guesser.confidence)
    for name in ("cautious", "guesser"):   # 40 seeds: right as often as the confidence says
        conf = np.concatenate([run[name].confidence for run in runs])
        right = np.concatenate([run[name].correct for run in runs])
        bins = rl.calibration_bins(right, conf, n_bins=5, binning="equal_mass")
        assert np.nanmax(np.abs(bins.gap)) < 0.03, (name, bins.gap)
