"""Vem aí a Troika in a real browser: a seat's legal actions over the API (``legal_of``), a hand
card ticked on the page (``pick_card``), and the check that a seat's page shows its own hand in
order and no card of the other player's hand (``check_page``)."""

from __future__ import annotations

import httpx
from playwright.sync_api import Page

from tests.support.browser_games import auth

GROUP_IDS = "els => els.map(e => Number(e.dataset.id))"


def legal_of(api: httpx.Client, room: str, token: str) -> list[dict]:
    return api.get(f"/api/rooms/{room}/legal-actions", headers=auth(token)).json()["legal_actions"]


def pick_card(page: Page, gid: int) -> None:
    page.locator(f'#your-hand label.pick:has(input[value="{gid}"])').click()


def check_page(page: Page, view: dict, other_hand: list[dict]) -> None:
    """This seat's hand is on its page, in order; no card of the other's hand is anywhere on it."""
    hand = page.locator("#your-hand .vem-card.group").evaluate_all(GROUP_IDS)
    assert hand == [c["id"] for c in view["hand"]]
    # A card shown in the last Elections may since have been reshuffled and drawn.
    shown = set(page.locator("#room-main .vem-card.group:not(#election *)").evaluate_all(GROUP_IDS))
    assert not shown & {c["id"] for c in other_hand}, "another player's card is on the page"
    for seat, player in enumerate(view["players"]):
        backs = page.locator(f"#player-{seat} .in-hand .vem-card.back").count()
        assert backs == player["hand_count"] - player["money"]
