"""The toy problem's two panels: true classes and the nearest-centre decision."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

import rejlab as rl  # noqa: E402
from rejlab.plot import TOY_CLASS_STYLE, find_artist  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


@pytest.mark.parametrize("separation", [0.5, 1.0, 2.5])
def test_each_sample_is_drawn_once_per_panel_in_its_class_colour(separation):
    toy = rl.datasets.four_gaussians(40, seed=3, separation=separation)
    ax_true, ax_pred = rl.plot.toy_problem(toy)
    for ax, labels, kind in ((ax_true, toy.y, "true"), (ax_pred, toy.y_pred, "pred")):
        total = 0
        for k, style in enumerate(TOY_CLASS_STYLE):
            pts = find_artist(ax, f"toy-{kind}-{k}")
            np.testing.assert_array_equal(pts.get_offsets(), toy.X[labels == k])
            assert to_hex(pts.get_facecolor()[0]) == style["color"].lower()
            total += len(pts.get_offsets())
        assert total == len(toy.y)


def test_the_decision_panel_draws_the_two_axes_the_nearest_centre_rule_uses():
    toy = rl.datasets.four_gaussians(40, seed=3)
    _, ax_pred = rl.plot.toy_problem(toy)
    lines = {(tuple(ln.get_xdata()), tuple(ln.get_ydata())) for ln in ax_pred.lines}
    assert ((0, 1), (0, 0)) in lines and ((0, 0), (0, 1)) in lines  # x2 = 0 and x1 = 0
    # the decision really is the sign pattern of the coordinates
    quadrant = (toy.X[:, 0] > 0).astype(int) + 2 * (toy.X[:, 1] > 0)
    np.testing.assert_array_equal(toy.y_pred, quadrant)
    assert "true class" in rl.plot.toy_problem(toy)[0].get_title()


def test_toy_problem_again_moves_the_points_and_checks_its_input():
    fig, axes = plt.subplots(1, 2)
    rl.plot.toy_problem(rl.datasets.four_gaussians(40, seed=3), axes=axes)
    n = [len(ax.get_children()) for ax in axes]
    other = rl.datasets.four_gaussians(40, seed=4, separation=2.0)
    rl.plot.toy_problem(other, axes=axes)
    assert [len(ax.get_children()) for ax in axes] == n
    np.testing.assert_array_equal(find_artist(axes[0], "toy-true-2").get_offsets(),
                                  other.X[other.y == 2])
    with pytest.raises(ValueError, match="toy"):
        rl.plot.toy_problem((other.X, other.y, other.proba))
    with pytest.raises(ValueError, match="axes"):
        rl.plot.toy_problem(other, axes=axes[:1])
