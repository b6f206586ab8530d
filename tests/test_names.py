"""Players are named, never numbered, in what a client reads: every log line and move label
(views, GET /log, GET /legal-actions, the replay) says the players' names in its text and in
its message's arguments alike, so a client that says the message from ``msg`` and ``args`` in
its own language shows the names the text shows (the engines write "Seat N", counted from 0)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from app.games.base import spoken
from tests.conftest import auth, create_started_room

SEAT = re.compile(r"\bSeat \d+\b")
NAMES = {"Ana", "Bruno", "Carla"}


def said_items(payload: dict[str, Any]) -> list[dict[str, Any]]:
    return [*payload["log"], *({"text": a["label"], **a} for a in payload["legal_actions"])]


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in strings(item)]
    return []


def check_named(items: list[dict[str, Any]], mentions: set[str]) -> None:
    for item in items:
        assert not SEAT.search(item["text"]), item
        assert not any(SEAT.search(text) for text in strings(item["args"])), item
        assert spoken(item) == item["text"], item  # msg and args say what the text says
        mentions |= {text for text in strings(item["args"]) if text in NAMES}


@pytest.mark.parametrize(("game", "options"), [("troika", {}), ("vem-ai-a-troika", {"advanced": True})])
async def test_log_lines_and_move_labels_name_the_players_in_their_args(client, game, options):
    room_id, tokens = await create_started_room(client, game, 3, options)
    rng, mentions = random.Random(5), set()
    labels_naming = False
    for _ in range(150):
        movers = []
        for seat, token in enumerate(tokens):
            payload = (await client.get(f"/api/rooms/{room_id}/view", headers=auth(token))).json()
            check_named(said_items(payload), mentions)
            labels_naming |= any(set(strings(a["args"])) & NAMES for a in payload["legal_actions"])
            movers += [seat] if payload["legal_actions"] else []
        if payload["status"] != "playing":
            break
        seat = rng.choice(movers)
        legal = (await client.get(f"/api/rooms/{room_id}/legal-actions", headers=auth(tokens[seat]))).json()
        check_named([{"text": a["label"], **a} for a in legal["legal_actions"]], mentions)
        choices = [a["action"] for a in legal["legal_actions"] if a["action"]["type"] != "troika"]
        action = rng.choice(choices or [a["action"] for a in legal["legal_actions"]])
        body = {"version": legal["version"], "action": action}
        assert (await client.post(f"/api/rooms/{room_id}/actions", json=body, headers=auth(tokens[seat]))).is_success
    log = (await client.get(f"/api/rooms/{room_id}/log", headers=auth(tokens[0]))).json()["log"]
    check_named(log, mentions)
    assert mentions == NAMES, mentions  # every player was named somewhere
    if game == "vem-ai-a-troika":
        assert labels_naming, "no move label named a player (an attack names its target)"
