"""Fixtures shared by the test modules: the course's toy data and the paper's examples.

The four-Gaussians data of lessons 01-06 (150 per class, seed 0) and its
curves are built once per session; every module that needs them asks for
these fixtures rather than building its own copy.
"""

from __future__ import annotations

import matplotlib
import pytest

matplotlib.use("Agg")

import rejlab as rl  # noqa: E402

REJECTOR_NAMES = ("max_probability", "breaking_ties")


@pytest.fixture(scope="session")
def toy_data():
    """``rl.datasets.four_gaussians(150, seed=0)``: the data of lessons 01-06."""
    return rl.datasets.four_gaussians(150, seed=0)


@pytest.fixture(scope="session")
def toy_curves(toy_data):
    """Rejection curves of both rejectors on the lesson data, by rejector name."""
    return {name: toy_data.curves(name) for name in REJECTOR_NAMES}


@pytest.fixture(scope="session")
def paper_examples():
    """Examples 1-5 of the neighborhood-system paper, by number."""
    return {k: rl.datasets.paper_example(k) for k in range(1, 6)}
