"""Playwright fixtures shared by the browser tests: Debian's Chromium (never a downloaded
browser) and a live server on a fresh SQLite database, whose errors are printed with the test's
output (a failing test shows the server's traceback)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

from app.bench.servers import ARENA, process
from tests.support.servers import free_port

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def live(sqlite_url):
    with process(ARENA, {"DATABASE_URL": sqlite_url}, port=free_port(), access_log=True) as server:
        yield server.base
        said = server.output()
        if "Traceback" in said:
            print(f"--- the server's output, from its first traceback ---\n{said[said.index('Traceback') :][:8000]}")


SCREENS = {"desktop": (1280, 800), "phone": (390, 844)}


@pytest.fixture
def screenshots(tmp_path_factory):
    """shoot(page, name): full-page screenshots of ``page`` at the desktop and phone sizes, in
    $SCREENSHOT_DIR if set (to look at them) or a temporary directory; returns their paths."""
    folder = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path_factory.mktemp("screens"))
    folder.mkdir(parents=True, exist_ok=True)

    def shoot(page, name: str) -> list[Path]:
        paths = []
        for size, (width, height) in SCREENS.items():
            page.set_viewport_size({"width": width, "height": height})
            path = folder / f"{name}-{size}.png"
            # Chromium under load sometimes answers a capture just after a resize with "Unable to
            # capture screenshot" (a CI run): wait for a painted frame, and try once more. The caret
            # is left as it is: "hide" injects a style the CSP refuses.
            page.evaluate("() => new Promise(done => requestAnimationFrame(() => done(true)))")
            try:
                page.screenshot(path=str(path), full_page=True, caret="initial")
            except PlaywrightError:
                page.wait_for_timeout(500)
                page.screenshot(path=str(path), full_page=True, caret="initial")
            paths.append(path)
        page.set_viewport_size({"width": 1280, "height": 800})
        return paths

    return shoot
