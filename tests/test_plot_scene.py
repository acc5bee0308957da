"""SCR's curves against one JCR point (the context explorer's right panel)."""

import numpy as np
import pytest

import rejlab as rl
from rejlab import context as ctx
from rejlab.plot import find_artist

pytestmark = pytest.mark.usefixtures("close_figures")


def test_jcr_vs_scr_draws_the_curves_and_the_point_it_is_given_and_moves_them():
    scene = rl.datasets.synthetic_scene((24, 24), n_classes=3, seed=2)
    experiment = ctx.context_experiment(scene, 1.0, (0.1, 0.3), per_class=4)
    scr, jcr = experiment.scr, experiment.jcr_points[1]
    ax = rl.plot.jcr_vs_scr(scr, experiment.jcr_points[0])
    n = len(ax.get_children())
    assert rl.plot.jcr_vs_scr(scr, jcr, ax) is ax and len(ax.get_children()) == n
    for m in ("A", "Q"):
        line, point = find_artist(ax, f"scr-{m}"), find_artist(ax, f"jcr-{m}")
        np.testing.assert_array_equal(line.get_xdata(), scr.r)
        np.testing.assert_array_equal(line.get_ydata(), getattr(scr, m))
        assert (point.get_xdata()[0], point.get_ydata()[0]) == (jcr.r, getattr(jcr, m))
    low, high = ax.get_ylim()
    assert low <= min(np.nanmin(scr.Q), jcr.Q) and high >= 1.0
