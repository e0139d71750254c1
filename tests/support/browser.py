"""Debian's Chromium under Playwright, for the report's browser tests (`make browser` installs
it; `playwright install` cannot download its own browser here)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from .paths import REPO

CHROMIUM = Path("/usr/bin/chromium")
BROWSER_MISSING = REPO / ".venv" / ".browser-missing"  # written by a failed `make browser`
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def skip_without_chromium() -> None:
    """Skip the test when Chromium is missing, with the reason `make browser` left: for a test
    that prints with it (the PDF) as for one that drives it."""
    if not CHROMIUM.exists():
        reason = (
            BROWSER_MISSING.read_text().strip()
            if BROWSER_MISSING.exists()
            else f"{CHROMIUM} is missing (make browser installs it)"
        )
        pytest.skip(reason)


@contextmanager
def chromium() -> Iterator[object]:
    """A browser context with a fresh profile; skips the test when Chromium is missing."""
    skip_without_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 1000},
        )
        yield context
        context.close()
