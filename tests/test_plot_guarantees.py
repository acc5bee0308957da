"""Drawings of lessons 14-15: a guarantee study, the reliability diagram, the bin counts."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

import rejlab as rl


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_guarantee_study_draws_one_point_per_certified_sample():
    s = rl.datasets.guarantee_study(0.2, 0.1, method="ltt", n_per_class=50, n_splits=80)
    ax = rl.plot.guarantee_study(s)
    kept = rl.plot.find_artist(ax, "guarantee-kept")
    over = rl.plot.find_artist(ax, "guarantee-exceeded")
    assert kept.get_xdata().size + over.get_xdata().size == int(s.certified.sum())
    np.testing.assert_array_equal(over.get_ydata(), s.risk[s.exceeded])
    assert np.all(kept.get_ydata() <= 0.2)
    best = rl.plot.find_artist(ax, "guarantee-best")
    assert best.get_xdata()[0] == s.best_coverage
    np.testing.assert_array_equal(rl.plot.find_artist(ax, "population-risk").get_ydata(),
                                  s.curve_risk)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    nothing = s.n_splits - int(s.certified.sum())
    assert any(f"{nothing} samples promised nothing" in t for t in texts) == (nothing > 1)
    # a second call replaces its artists instead of piling them up
    rl.plot.guarantee_study(s, ax=ax)
    assert sum(line.get_gid() == "guarantee-exceeded" for line in ax.lines) == 1


def test_reliability_diagram_draws_the_bins_it_is_given():
    toy = rl.datasets.four_gaussians(100, seed=0)
    b = rl.calibration_bins(toy.accurate, toy.confidence(), n_bins=10)
    ax = rl.plot.reliability_diagram(b, label="toy")
    bars = rl.plot.find_artist(ax, "reliability-accuracy")
    full = b.counts > 0
    assert len(bars.get_paths()) == int(full.sum())
    heights = [p.get_extents().height for p in bars.get_paths()]
    np.testing.assert_allclose(heights, b.accuracy[full])
    gaps = rl.plot.find_artist(ax, "reliability-gap")
    np.testing.assert_allclose([p.get_extents().height for p in gaps.get_paths()],
                               np.abs(b.gap[full]), atol=1e-12)
    assert f"ECE = {b.ece:.3f}" in ax.get_title() and "toy" in ax.get_title()
    fewer = rl.calibration_bins(toy.accurate, toy.confidence(), n_bins=3)
    rl.plot.reliability_diagram(fewer, ax=ax)
    assert sum(c.get_gid() == "reliability-accuracy" for c in ax.collections) == 1
    assert len(rl.plot.find_artist(ax, "reliability-accuracy").get_paths()) == 3


def test_bin_counts_draws_the_counts():
    toy = rl.datasets.four_gaussians(100, seed=0)
    b = rl.calibration_bins(toy.accurate, toy.confidence(), n_bins=20)
    ax = rl.plot.bin_counts(b)
    bars = rl.plot.find_artist(ax, "reliability-counts")
    np.testing.assert_allclose([p.get_extents().height for p in bars.get_paths()],
                               b.counts[b.counts > 0])
    assert ax.get_title().startswith(f"{int((b.counts == 0).sum())} of 20 bins empty")


def test_max_risk_must_leave_a_risk_axis():
    with pytest.raises(ValueError, match="max_risk"):
        rl.plot.guarantee_study(rl.datasets.guarantee_study(0.2, 0.1, n_per_class=5, n_splits=2),
                                max_risk=0)
