"""The context explorer (lesson 10), the scene maps and SCR against JCR, driven without a browser."""

import numpy as np
import pytest

import rejlab as rl
from rejlab import context as ctx

pytestmark = pytest.mark.usefixtures("close_figures")


def test_the_jcr_point_follows_gamma_and_strength_zero_is_the_plain_classifier_and_matches_rejlab():
    explorer = rl.widgets.context_explorer()
    s, c = explorer.state, explorer.controls
    assert (s.strength, s.failure_probability) == (2.0, pytest.approx(0.19))
    assert s.accuracy_with_context > s.accuracy_without_context
    assert "JCR" in explorer.readout.value and "SCR" in explorer.readout.value
    rs = []
    for gamma in (0.0, 0.25, 0.5):
        c["failure_probability"].value = gamma
        rs.append(explorer.state.jcr.r)
    assert rs[0] == 0.0 < rs[1] <= rs[2]
    c["strength"].value = 0.0
    assert explorer.state.accuracy_with_context == pytest.approx(explorer.state.accuracy_without_context)
    c["strength"].value, c["failure_probability"].value = 1.5, 0.2
    s = explorer.state
    ex = ctx.context_experiment(rl.datasets.synthetic_scene(**rl.widgets.EXPLORER_SCENE), 1.5, (0.2,))
    assert (s.jcr.r, s.jcr.Q) == pytest.approx((ex.jcr_points[0].r, ex.jcr_points[0].Q))
    np.testing.assert_allclose(s.scr.Q, ex.scr.Q)
    k = ex.jcr_points[0].counts.ar + ex.jcr_points[0].counts.mr
    assert s.scr_same_r.r == pytest.approx(ex.scr.r[k])
    before = explorer.redraws          # a setting seen before is redrawn (from the cache)
    for gamma in (0.21, 0.2, 0.21):
        c["failure_probability"].value = gamma
    assert explorer.redraws == before + 3


def test_scene_plots_and_jcr_vs_scr_draw_and_update_in_place():
    scene = rl.datasets.synthetic_scene((40, 40), n_classes=4, seed=5)
    ex = ctx.context_experiment(scene, 1.0, (0.0, 0.3))
    axes = rl.plot.context_maps(ex)
    assert len(axes) == 3 and "ground truth" in axes[0].get_title()
    ax = rl.plot.scene_map(scene.ground_truth, n_classes=4)
    rej = ex.jcr[1].rejected
    rl.plot.scene_map(ex.context.labels, ax, n_classes=4, rejected=rej)
    assert len(ax.images) == 1 and rej.any()                  # updated, not stacked
    # rejected pixels keep their class colour, darkened: a map rejecting everything still
    # shows its fields, and a rejected pixel is darker than the same class kept
    rgb, colors = ax.images[0].get_array(), rl.plot.class_colors(4)[ex.context.labels]
    share = rgb[rej].sum() / colors[rej].sum()
    assert 0 < share < 0.5
    np.testing.assert_allclose(rgb[rej], share * colors[rej])
    np.testing.assert_allclose(rgb[~rej], colors[~rej])
    all_rejected = rl.plot.scene_map(ex.context.labels, n_classes=4,
                                     rejected=np.ones(rej.shape, bool)).images[0].get_array()
    assert len(np.unique(all_rejected.reshape(-1, 3), axis=0)) > 1   # not one black square
    assert len(rl.plot.jcr_scr_curves(ex)) == 3
    scr, jcr = ex.scr, ex.jcr_points[1]          # SCR against JCR's point, moved in place
    ax = rl.plot.jcr_vs_scr(scr, ex.jcr_points[0])
    n = len(ax.get_children())
    assert rl.plot.jcr_vs_scr(scr, jcr, ax) is ax and len(ax.get_children()) == n
    for m in ("A", "Q"):
        line, point = rl.plot.find_artist(ax, f"scr-{m}"), rl.plot.find_artist(ax, f"jcr-{m}")
        np.testing.assert_array_equal(line.get_xdata(), scr.r)
        np.testing.assert_array_equal(line.get_ydata(), getattr(scr, m))
        assert (point.get_xdata()[0], point.get_ydata()[0]) == (jcr.r, getattr(jcr, m))
    low, high = ax.get_ylim()
    assert low <= min(np.nanmin(scr.Q), jcr.Q) and high >= 1.0
    rl.plot.jcr_scr_rho_zero(ex)
    rl.plot.rejection_maps(ex, 1)
    with pytest.raises(ValueError, match="n_classes"):
        rl.plot.scene_map(scene.ground_truth, n_classes=2)
