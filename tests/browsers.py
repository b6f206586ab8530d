"""Playwright fixtures shared by the browser tests: Debian's Chromium (never a downloaded
browser) and a live server on a fresh SQLite database."""

from __future__ import annotations

import pytest
from playwright.sync_api import sync_playwright

from tests.servers import free_port, server_process

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
    with server_process(sqlite_url, free_port()) as (_, base):
        yield base
