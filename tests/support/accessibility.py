"""Accessibility as axe-core measures it (bundled by axe-playwright-python and injected by
Playwright, never from a CDN): a page's violations of serious or critical impact, read once
the highlight transitions of the last update have ended (``serious_violations``)."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from tests.support.browser_games import FINITE_ANIMATIONS_ENDED

AXE = Axe()


SERIOUS = ("serious", "critical")


def serious_violations(page: Page) -> list[str]:
    """Each serious or critical violation as its rule and the first few elements it names, once
    the highlight transitions of the last update have ended (axe measures what stays)."""
    page.evaluate(FINITE_ANIMATIONS_ENDED)
    results = AXE.run(page)
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}"
        for v in results.response["violations"]
        if v["impact"] in SERIOUS
    ]
