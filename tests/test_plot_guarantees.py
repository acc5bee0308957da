"""Drawings of lessons 14-15: a guarantee study, the reliability diagram, the bin counts."""

import numpy as np
import pytest

import rejlab as rl
from rejlab.plot import find_artist

pytestmark = pytest.mark.usefixtures("close_figures")


def _heights(collection):
    return [p.get_extents().height for p in collection.get_paths()]


def test_guarantee_study_draws_one_point_per_certified_sample():
    s = rl.datasets.guarantee_study(0.2, 0.1, method="ltt", n_per_class=50, n_splits=80)
    ax = rl.plot.guarantee_study(s)
    kept, over = find_artist(ax, "guarantee-kept"), find_artist(ax, "guarantee-exceeded")
    assert kept.get_xdata().size + over.get_xdata().size == int(s.certified.sum())
    np.testing.assert_array_equal(over.get_ydata(), s.risk[s.exceeded])
    assert np.all(kept.get_ydata() <= 0.2)
    assert find_artist(ax, "guarantee-best").get_xdata()[0] == s.best_coverage
    np.testing.assert_array_equal(find_artist(ax, "population-risk").get_ydata(), s.curve_risk)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    nothing = s.n_splits - int(s.certified.sum())
    assert any(f"{nothing} samples promised nothing" in t for t in texts) == (nothing > 1)
    rl.plot.guarantee_study(s, ax=ax)          # replaced, not piled up
    assert sum(line.get_gid() == "guarantee-exceeded" for line in ax.lines) == 1
    with pytest.raises(ValueError, match="max_risk"):      # it must leave a risk axis
        rl.plot.guarantee_study(s, max_risk=0)


def test_reliability_diagram_and_bin_counts_draw_the_bins_they_are_given():
    toy = rl.datasets.four_gaussians(100, seed=0)
    b = rl.calibration_bins(toy.accurate, toy.confidence(), n_bins=10)
    ax = rl.plot.reliability_diagram(b, label="toy")
    full = b.counts > 0
    np.testing.assert_allclose(_heights(find_artist(ax, "reliability-accuracy")), b.accuracy[full])
    np.testing.assert_allclose(_heights(find_artist(ax, "reliability-gap")), np.abs(b.gap[full]), atol=1e-12)
    assert f"ECE = {b.ece:.3f}" in ax.get_title() and "toy" in ax.get_title()
    rl.plot.reliability_diagram(rl.calibration_bins(toy.accurate, toy.confidence(), n_bins=3), ax=ax)
    assert sum(c.get_gid() == "reliability-accuracy" for c in ax.collections) == 1
    assert len(find_artist(ax, "reliability-accuracy").get_paths()) == 3
    b = rl.calibration_bins(toy.accurate, toy.confidence(), n_bins=20)
    ax = rl.plot.bin_counts(b)
    np.testing.assert_allclose(_heights(find_artist(ax, "reliability-counts")), b.counts[b.counts > 0])
    assert ax.get_title().startswith(f"{int((b.counts == 0).sum())} of 20 bins empty")
