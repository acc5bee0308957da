"""The curves explorer on the smallest toy data: four samples, maybe not one mistake.

With one sample per class every sample may be right at both ends of the
separation slider, so no phi is finite: the explorer still opens, and its
points are the operating points of its data.
"""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

import rejlab as rl


@pytest.mark.parametrize("seed", [0, 12, 1])
def test_curves_explorer_opens_on_one_sample_per_class(seed):
    e = rl.widgets.curves_explorer(n_per_class=1, seed=seed)
    for s in (0.5, 3.0):
        e.controls["separation"].value = s
        for r in (0.0, 0.5, 1.0):
            e.controls["r"].value = r
            assert e.error == ""
            toy = rl.datasets.four_gaussians(1, seed=seed, separation=s)
            for name in rl.REJECTORS:
                want = rl.operating_point(toy.accurate,
                                          rl.reject_lowest(toy.confidence(name), fraction=r))
                got = e.state.points[name]
                np.testing.assert_array_equal([got.r, got.A, got.Q, got.phi],
                                              [want.r, want.A, want.Q, want.phi])
    lo, hi = e.figure.axes[2].get_ylim()  # the phi panel keeps finite limits
    assert np.isfinite([lo, hi]).all() and lo < hi
