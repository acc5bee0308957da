"""Fixtures shared by the test modules: the course's toy data and the paper's examples.

The four-Gaussians data of lessons 01-06 (150 per class, seed 0) and its
curves are built once per session; every module that needs them asks for
these fixtures rather than building its own copy.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import matplotlib
import pytest
from hypothesis import settings

matplotlib.use("Agg")

# No Hypothesis deadline anywhere: a property's time per example says how busy the machine
# is, not whether the code is right (speed is measured in bench/, never asserted).
settings.register_profile("no-deadline", deadline=None)
settings.load_profile("no-deadline")

#: ``make test-fast`` sets REJLAB_TEST_EXAMPLES (to 10): every property then runs on at most that
#: many examples instead of its own number. The same claims on fewer random cases; ``make test``
#: runs each with its own number.
FAST_EXAMPLES = int(os.environ.get("REJLAB_TEST_EXAMPLES", "0") or 0)


def pytest_collection_modifyitems(config, items):
    """Cap each Hypothesis test at :data:`FAST_EXAMPLES` examples when it is set."""
    if FAST_EXAMPLES <= 0:
        return
    for item in items:
        test = getattr(item, "obj", None)
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if own is not None and own.max_examples > FAST_EXAMPLES:
            test._hypothesis_internal_use_settings = settings(own, max_examples=FAST_EXAMPLES)

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
def tool():
    """``tool("check_submissions")``: a script of ``tools/``, imported by name.

    ``tools/`` goes on ``sys.path`` (``tools/build_book.py`` imports ``binder_link`` that way),
    so every test file that imports a tool shares one module.
    """
    folder = str(Path(__file__).resolve().parents[1] / "tools")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return importlib.import_module


@pytest.fixture(scope="session")
def local_only():
    """Install on a Playwright browser context a route that lets through only ``base``'s host.

    ``blocked = local_only(context, "http://127.0.0.1:8888")`` aborts every
    request to another host (nothing a browser test opens may reach the
    network) and records its URL in ``blocked``, for the test to assert empty.
    """
    from urllib.parse import urlsplit

    def install(context, base):
        host = urlsplit(base).netloc
        blocked: list[str] = []

        def route(r):
            if urlsplit(r.request.url).netloc == host:
                r.continue_()
            else:
                blocked.append(r.request.url)
                r.abort()

        context.route("**/*", route)
        return blocked

    return install
