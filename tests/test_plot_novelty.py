"""The plane of the two scores (lesson 18): the points where they are, the regions each rule keeps."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

import rejlab as rl


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def data():
    return rl.datasets.four_gaussians_with_novelty(40, 30, seed=2)


def test_each_sample_is_drawn_once_at_its_two_scores(data):
    region = rl.scod_region(reject_cost=0.3, novel_cost=1.0)
    ax = rl.plot.novelty_plane(data.max_probability, data.log_ratio, data.accurate, data.novel,
                               region=region, threshold=0.7)
    lo, hi = region.log_ratio[0], region.log_ratio[-1]
    drawn = 0
    for key, mask in (("accurate", data.accurate & ~data.novel),
                      ("misclassified", ~data.accurate & ~data.novel), ("novel", data.novel)):
        points = rl.plot.find_artist(ax, f"novelty-{key}").get_offsets()
        np.testing.assert_array_equal(points[:, 0], data.max_probability[mask])
        np.testing.assert_array_equal(points[:, 1], np.clip(data.log_ratio[mask], lo, hi))
        drawn += len(points)
    assert drawn == data.y.size
    assert ax.get_ylim() == (lo, hi)
    assert rl.plot.find_artist(ax, "novelty-threshold").get_xdata()[0] == 0.7
    assert len(ax.get_legend().get_texts()) == 5


def test_the_shaded_region_is_where_the_rule_keeps(data):
    region = rl.scod_region(reject_cost=0.3, novel_cost=2.0)
    ax = rl.plot.novelty_plane(data.max_probability, data.log_ratio, data.accurate, data.novel,
                               region=region)
    shade = rl.plot.find_artist(ax, "novelty-region")
    path = shade.get_paths()[0]
    m, lr = np.meshgrid(region.max_probability[1:-1:7], region.log_ratio[1:-1:9])
    inside = path.contains_points(np.column_stack([m.ravel(), lr.ravel()]))
    kept = ~rl.scod_rule(m.ravel(), np.exp(lr.ravel()), reject_cost=0.3, novel_cost=2.0)
    # the grid's cells along the border may fall either way: they are few
    assert np.mean(inside == kept) > 0.97


def test_a_second_call_moves_the_points_and_replaces_the_regions(data):
    args = (data.max_probability, data.log_ratio, data.accurate, data.novel)
    ax = rl.plot.novelty_plane(*args, region=rl.scod_region(reject_cost=0.3, novel_cost=1.0),
                               threshold=0.7)
    other = rl.datasets.four_gaussians_with_novelty(40, 10, seed=3)
    rl.plot.novelty_plane(other.max_probability, other.log_ratio, other.accurate, other.novel,
                          ax=ax, region=rl.scod_region(reject_cost=0.2, novel_cost=1.0),
                          threshold=0.8)
    gids = [a.get_gid() for a in [*ax.collections, *ax.patches, *ax.lines]]
    for gid in ("novelty-region", "novelty-band", "novelty-threshold", "novelty-novel"):
        assert gids.count(gid) == 1, gid
    assert len(rl.plot.find_artist(ax, "novelty-novel").get_offsets()) == 10
    rl.plot.novelty_plane(*args, ax=ax)                        # no rule: the regions go
    assert rl.plot.find_artist(ax, "novelty-region") is None
    assert rl.plot.find_artist(ax, "novelty-threshold") is None
