"""Headless Chromium for the browser tests (tests/test_book.py, tests/test_browser.py)."""

import contextlib
import os
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("REJLAB_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--disable-sync",
                 "--no-first-run", "--disable-background-networking", "--disable-component-update",
                 "--disable-quic"]  # the machine has no network: Chromium must not call home


def _launch_chromium(p, executable=CHROMIUM):
    if not Path(executable).exists():
        pytest.fail(f"chromium is missing: no executable at {executable} "
                    "(install it with `apt-get install chromium`, or set REJLAB_CHROMIUM)")
    try:
        return p.chromium.launch(executable_path=str(executable), headless=True,
                                 args=CHROMIUM_ARGS, timeout=60_000)
    except Exception as exc:  # playwright raises its own Error types
        pytest.fail(f"chromium failed to start from {executable}: {exc}")


@contextlib.contextmanager
def chromium():
    """Headless Chromium, closed on exit; fails with a message when it or playwright is missing."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the Python package playwright is not installed (pip install playwright)")
    with sync_playwright() as p:     # its exit stops the browser
        yield _launch_chromium(p)


def open_page(browser, base: str, local_only, timeout_ms: int = 60_000, **options):
    """``(page, blocked)``: a page of a new context (``options``) reaching no host but ``base``'s."""
    context = browser.new_context(**options)
    blocked = local_only(context, base)
    page = context.new_page()
    page.set_default_timeout(timeout_ms)
    return page, blocked
