"""Data sets: the papers' worked examples and synthetic problems, all seeded."""

from ._gaussians import *  # noqa: F401,F403  four_gaussians (seed 000 toy problem)
from ._paper_examples import *  # noqa: F401,F403  seed 001 examples and Table 1
from ._scene import *  # noqa: F401,F403  synthetic hyperspectral scene and loader
