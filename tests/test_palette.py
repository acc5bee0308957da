"""The explorers' palettes stay distinguishable under deuteranopia (rejlab/plot/_style.py):
Machado, Oliveira and Fernandes (2009, IEEE TVCG 15(6)) at severity 1.0 on linear sRGB, then
CIELAB (D65) and CIEDE2000 (Sharma, Wu and Dalal 2005). Colours drawn together, and a curve over a
region fill, differ by at least 10, seen at a glance (2.3 is just noticeable), with and without
the simulation; two region fills by at least 5, since each region also has its own hatching."""

import itertools
import math

import numpy as np
import pytest

from rejlab.plot import _style as style

#: Machado et al. (2009), deuteranomaly at severity 1.0, on linear RGB.
DEUTERANOPIA = np.array([[0.367322, 0.860646, -0.227968],
                         [0.280085, 0.672501, 0.047413],
                         [-0.011820, 0.042940, 0.968881]])
AT_A_GLANCE, WITH_HATCHING = 10.0, 5.0


def rgb(hex_colour: str) -> np.ndarray:
    return np.array([int(hex_colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)])


def to_linear(c):
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def deuteranopia(c):
    """The colour a deuteranope sees, back in sRGB."""
    c = np.clip(DEUTERANOPIA @ to_linear(c), 0.0, 1.0)
    return np.where(c <= 0.0031308, 12.92 * c, 1.055 * c ** (1 / 2.4) - 0.055)


def lab(c):
    """CIELAB (D65 white) of an sRGB colour in [0, 1]."""
    xyz = np.array([[0.4124564, 0.3575761, 0.1804375],
                    [0.2126729, 0.7151522, 0.0721750],
                    [0.0193339, 0.1191920, 0.9503041]]) @ to_linear(c)
    t = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return (116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2]))


def delta_e2000(lab1, lab2) -> float:
    """CIEDE2000 colour difference (Sharma, Wu and Dalal 2005, Eqs. 1-22)."""
    (L1, a1, b1), (L2, a2, b2) = lab1, lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar ** 7 / (c_bar ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        dh -= 360 if dh > 180 else (-360 if dh < -180 else 0)
    d_l, d_c = L2 - L1, c2p - c1p
    d_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_bar, cp_bar = (L1 + L2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + (360 if h1p + h2p < 360 else -360)) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_bar - 30)) + 0.24 * math.cos(math.radians(2 * h_bar))
         + 0.32 * math.cos(math.radians(3 * h_bar + 6)) - 0.20 * math.cos(math.radians(4 * h_bar - 63)))
    d_theta = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_bar ** 7 / (cp_bar ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c, s_h = 1 + 0.045 * cp_bar, 1 + 0.015 * cp_bar * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h))


@pytest.mark.parametrize("lab1, lab2, expected", [   # Sharma et al. (2005), Table 1, pairs 1, 7, 17
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
])
def test_delta_e2000_matches_the_published_test_pairs(lab1, lab2, expected):
    assert delta_e2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert delta_e2000(lab2, lab1) == pytest.approx(expected, abs=1e-4)


def test_the_simulation_keeps_white_black_and_greys():
    for grey in (0.0, 0.4, 1.0):
        assert np.allclose(deuteranopia(np.full(3, grey)), grey, atol=1e-4)
    # and it does merge what deuteranopes confuse: red and green come far closer
    red, green = rgb("#FF0000"), rgb("#00FF00")
    assert delta_e2000(lab(deuteranopia(red)), lab(deuteranopia(green))) < \
        0.5 * delta_e2000(lab(red), lab(green))


def _min_pair(colours: dict, simulate) -> tuple[float, str, str]:
    return min((delta_e2000(lab(simulate(c1)), lab(simulate(c2))), n1, n2)
               for (n1, c1), (n2, c2) in itertools.combinations(colours.items(), 2))


LINES_AND_MARKERS = {
    "the four subsets": {k: rgb(s["color"]) for k, s in style.SUBSET_STYLE.items()},
    "the two rejectors": {k: rgb(s["color"]) for k, s in style.REJECTOR_STYLE.items()},
    "series on shared axes": {c: rgb(c) for c in style.SERIES_COLORS},
}


@pytest.mark.parametrize("group", sorted(LINES_AND_MARKERS))
@pytest.mark.parametrize("vision", ["deuteranopia", "typical"])
def test_colours_drawn_together_differ_at_a_glance(group, vision):
    simulate = deuteranopia if vision == "deuteranopia" else (lambda c: c)
    diff, a, b = _min_pair(LINES_AND_MARKERS[group], simulate)
    assert diff >= AT_A_GLANCE, f"{group} under {vision}: {a} and {b} differ by {diff:.1f}"


def test_operating_set_regions_and_the_curves_across_them_stay_apart_under_deuteranopia():
    # translucent fills on white
    fills = {k: s["alpha"] * rgb(s["color"]) + 1 - s["alpha"] for k, s in style.REGION_STYLE.items()}
    curves = {k: rgb(s["color"]) for k, s in style.REJECTOR_STYLE.items()}
    for (fill, f), (curve, c) in itertools.product(fills.items(), curves.items()):
        diff = delta_e2000(lab(deuteranopia(f)), lab(deuteranopia(c)))
        assert diff >= AT_A_GLANCE, f"curve {curve} over region {fill}: {diff:.1f}"
    diff, a, b = _min_pair(fills, deuteranopia)
    assert diff >= WITH_HATCHING, f"regions {a} and {b} differ by {diff:.1f}"
    hatches = [s["hatch"] for s in style.REGION_STYLE.values() if s["hatch"]]
    assert len(set(hatches)) == len(hatches)       # the second cue: no two regions share one
    assert sum(1 for s in style.REGION_STYLE.values() if not s["hatch"]) <= 1
