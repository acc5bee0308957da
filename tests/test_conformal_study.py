"""The course's study of conformal risk control beside SGR and Learn then Test (lesson 16).

Each number the lesson prints is rebuilt here by another route: CRC's threshold sample by
sample with the library's one-sample function, the population by a large fresh sample, the
exact expectation in fractions, SGR and Learn then Test by lesson 14's study.
"""

import math
from pathlib import Path

import numpy as np
import pytest

import rejlab as rl
from rejlab.course.datasets._guarantees import validation_rows
from tests.test_conformal import exact_expectation


@pytest.fixture(scope="module")
def study():
    return rl.datasets.conformal_study(0.1, n_per_class=25, n_splits=30, seed=3)


@pytest.fixture(scope="module")
def lesson_study():   # the lesson's and docs/maths.md's: 200 samples, 400 splits
    return rl.datasets.conformal_study(0.1, n_per_class=50, n_splits=400)


def exact_expected_joint_risk(n):
    return float(exact_expectation(0.1, n, 1 - rl.datasets.expected_accuracy(1.0)))


def test_crc_sample_by_sample_sgr_and_ltt_as_lesson_14s_study_and_the_exact_expectation(study):
    values = [rl.conformal_risk_control(a, c, 0.1).value
              for block in validation_rows(25, 30, 3, "max_probability") for a, c in zip(*block)]
    assert np.array_equal(study.crc.threshold, values)
    p = rl.datasets.population_point(np.maximum(values, 0.0))
    assert study.crc.coverage == pytest.approx(1 - p.r, abs=1e-12)
    assert study.crc.joint_risk == pytest.approx((1 - p.r) * (1 - p.A), abs=1e-12)
    for name, method in (("SGR", "sgr"), ("Learn then Test", "ltt")):
        g = rl.datasets.guarantee_study(0.1, 0.1, method=method, n_per_class=25, n_splits=30, seed=3)
        judged = study.rules[name]
        assert np.array_equal(judged.coverage, g.coverage)
        assert np.nanmean(judged.selective_risk > 0.1) == pytest.approx(g.exceedance)
    assert study.expected_joint_risk == pytest.approx(exact_expected_joint_risk(100), rel=1e-9)
    assert 0.1 - 2 / 101 <= study.expected_joint_risk <= 0.1


def test_the_comparison_on_one_sample_against_a_large_fresh_sample():
    cmp = rl.datasets.conformal_comparison(0.1, n_per_class=50, seed=0)
    cal = rl.datasets.four_gaussians(50, seed=0)
    t = rl.conformal_risk_control(cal.accurate, cal.confidence("max_probability"), 0.1)
    assert cmp.crc.threshold.value == t.value and cmp.n == 200
    big = rl.datasets.four_gaussians(100_000, seed=11)         # 400,000 fresh samples
    c = big.confidence("max_probability")
    for judged in cmp.methods.values():
        kept = ~rl.reject_below(c, judged.threshold)
        assert kept.mean() == pytest.approx(judged.coverage, abs=0.004)
        assert rl.joint_risk(big.accurate, c, judged.threshold) == pytest.approx(judged.joint_risk, abs=0.003)
    assert cmp.crc.selective_risk == pytest.approx(cmp.crc.joint_risk / cmp.crc.coverage)


def test_the_figures_return_their_axes_and_redraw_in_place(study):
    import matplotlib.pyplot as plt
    ax = rl.plot.conformal_study(study)
    assert ax is rl.plot.conformal_study(study, ax=ax)
    assert len([a for a in ax.get_children() if a.get_gid() == "crc-mean"]) == 1
    cmp = rl.datasets.conformal_comparison(0.2, n_per_class=25)
    ax2 = rl.plot.conformal_comparison(cmp)
    n_lines = len(ax2.lines)
    assert rl.plot.conformal_comparison(cmp, ax=ax2) is ax2 and len(ax2.lines) == n_lines
    plt.close("all")


def test_the_numbers_of_the_maths_reference_section_n(lesson_study):
    # among them the selective recipe's mean selective risk, 0.1044: above its level 0.1 (its worked
    # ten-sample example, λ̂ = 0.5, is tests/test_conformal.py's)
    text = " ".join((Path(__file__).parents[1] / "docs" / "maths.md").read_text().split())
    section = text[text.index("## (n) Conformal risk control"):]
    s = lesson_study
    joint = s.crc.joint_risk                  # the promise kept on average, within the noise
    assert abs(joint.mean() - s.expected_joint_risk) < 3 * joint.std(ddof=1) / math.sqrt(joint.size)
    shown = {"0.0995": s.expected_joint_risk, "0.0900": 0.1 - 2 / 201,
             "0.1007": s.crc.joint_risk.mean(), "0.590": s.crc.coverage.mean(),
             "0.591": s.best_coverage, "0.006": s.rules["SGR"].coverage.mean(),
             "0.074": s.rules["Learn then Test"].coverage.mean(), "0.340": s.sgr.best_coverage,
             "0.1044": np.nanmean(s.selective_recipe.selective_risk)}
    assert f"{exact_expected_joint_risk(200):.4f}" == "0.0995"
    for text_value, value in shown.items():
        assert f"{value:.{len(text_value) - 2}f}" == text_value and text_value in section
    assert f"{np.mean(s.crc.joint_risk > 0.1):.0%}" == "48%" and "48 %" in section
    assert f"{np.mean(s.selective_recipe.selective_risk > 0.1):.1%}" == "54.5%" and "54.5 %" in section
