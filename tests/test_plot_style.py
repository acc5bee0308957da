"""The shared style: course RC, rejector words and colours, format_r, panels, find_artist."""

import math

import matplotlib
import matplotlib.pyplot as plt
import pytest
from hypothesis import given, strategies as st
from matplotlib.figure import Figure

import rejlab as rl
from rejlab.plot import RC, REJECTOR_STYLE, format_r


def test_style_applies_the_course_rc_and_a_layout_that_fits():
    with matplotlib.rc_context():
        rl.plot.style()
        assert {key: matplotlib.rcParams[key] for key in RC} == RC
        assert matplotlib.rcParams["figure.constrained_layout.use"]
        fig, _ = plt.subplots()
        assert fig.get_layout_engine() is not None
        plt.close(fig)


def test_every_rejector_has_words_and_a_colour_of_its_own():
    assert set(REJECTOR_STYLE) == set(rl.REJECTORS)
    colors = [s["color"] for s in REJECTOR_STYLE.values()]
    assert len(set(colors)) == len(colors)
    regions = {rl.plot.OKABE_ITO[k] for k in ("bluish_green", "vermillion", "orange")}
    assert not set(colors) & regions   # curves stay visible over the operating-set regions
    for name, st_ in REJECTOR_STYLE.items():
        assert rl.plot.rejector_label(name) == st_["label"] and "_" not in st_["label"]
    assert rl.plot.rejector_label("my model") == "my model"


@given(st.floats(0, 1))
def test_format_r_never_hides_a_non_zero_r_nor_an_r_below_one(r):
    shown = float(format_r(r))
    assert (shown == 0) == (r == 0) and (shown == 1) == (r == 1)
    assert math.isclose(shown, r, rel_tol=0.2, abs_tol=0.006)


def test_panels_makes_the_axes_once_and_find_artist_finds_by_gid():
    fig = Figure()
    first = rl.plot.panels(fig, 3, width_ratios=[1, 2, 1])
    assert len(first) == 3 and rl.plot.panels(fig, 3) == first
    assert first[1].get_position().width > first[0].get_position().width
    with pytest.raises(ValueError, match="ncols"):
        rl.plot.panels(fig, 4)
    with pytest.raises(ValueError, match="width_ratios"):
        rl.plot.panels(Figure(), 2, width_ratios=[1, 2, 3])
    (line,) = first[0].plot([0, 1], [0, 1], gid="mine")       # on axes and on figures
    (legend := fig.legend([line], ["x"])).set_gid("lg")
    assert rl.plot.find_artist(first[0], "mine") is line and rl.plot.find_artist(fig, "lg") is legend
    assert rl.plot.find_artist(first[0], "other") is None
