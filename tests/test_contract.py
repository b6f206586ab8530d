"""The published contract is checked against reality (issue 17, point 2): full games of every
game and seat count, played through the API by random legal moves against a live server, have
every answer validated against the schemas of /openapi.json and every socket push against the
messages of /asyncapi.json (JSON Schema validation of their components, with every object
closed), so a schema that drifts from the code fails here. Errors are checked too, and that
every status answered is one the call declares."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import jsonschema_rs
import pytest
from websockets.asyncio.client import connect

from app.games.registry import GAMES
from app.games.vem_ai_troika import GAME as VEM
from tests.conftest import auth
from tests.support.document import served_document
from tests.support.servers import in_process_server
from tests.support.sockets import ws_url
from tests.support.vem_scenarios import G, act, adv

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

CASES = [(slug, n, {}) for slug, game in GAMES.items() for n in range(game.min_players, game.max_players + 1)]
CASES += [("vem-ai-a-troika", 3, {"advanced": True})]  # the advanced game's views and actions
NAMES = ["Ana", "Bruno", "Carla", "Duarte", "Eva"]
MOVES_AT_MOST = 3000


class Contract:
    """The schemas of one OpenAPI document, as JSON Schema validators."""

    def __init__(self, document: dict[str, Any], slug: str):
        self.document, self.slug = document, slug
        self.validators: dict[str, jsonschema_rs.Draft202012Validator] = {}
        self.checked = 0

    def validator(self, schema: dict[str, Any]) -> jsonschema_rs.Draft202012Validator:
        key = json.dumps(schema, sort_keys=True)
        if key not in self.validators:
            root = {**schema, "components": self.document["components"]}
            self.validators[key] = jsonschema_rs.Draft202012Validator(root)
        return self.validators[key]

    def component(self, name: str) -> dict[str, Any]:
        return {"$ref": f"#/components/schemas/{name}"}

    def check(self, value: Any, schema: dict[str, Any], where: str) -> None:
        errors = list(self.validator(schema).iter_errors(value))
        assert not errors, f"{where}: {errors[0].message} at {list(errors[0].instance_path)}"
        self.checked += 1

    def payload(self, payload: Any, where: str) -> None:
        """Check a payload's view against its own game's view schema too (the payload's schema
        allows any game's view; this names the field that is wrong). A replay's step holds one."""
        if isinstance(payload, dict) and isinstance(payload.get("payload"), dict):
            payload = payload["payload"]
        if isinstance(payload, dict) and payload.get("view") is not None:
            self.check(payload["view"], self.component(GAMES[self.slug].view_type.__name__), f"{where}: the view")

    def answer(self, response: httpx.Response, path: str) -> Any:
        """Check an answer against what its operation declares for its status; its JSON."""
        method = response.request.method.lower()
        declared = self.document["paths"][path][method]["responses"]
        status = str(response.status_code)
        assert status in declared, f"{method} {path} answered {status}, which it does not declare"
        body = response.json()
        self.payload(body, f"{method} {path}")
        self.check(body, declared[status]["content"]["application/json"]["schema"], f"{method} {path} {status}")
        return body


async def call(client, contract, method, path, path_params=None, **kwargs) -> Any:
    response = await client.request(method, path.format(**(path_params or {})), **kwargs)
    return response, contract.answer(response, path)


async def listen(ws, frames: list[str]) -> None:
    async for frame in ws:
        frames.append(frame)


async def play_a_whole_game(client, contract, base, slug, seats, options, rng) -> dict[str, Any]:
    room = "/api/rooms/{room_id}"
    body = {"game": slug, "seats": seats, "name": "Ana", "options": options}
    r, created = await call(client, contract, "POST", "/api/rooms", json=body)
    assert r.status_code == 201
    room_id, tokens = created["room"]["id"], [created["token"]]
    at = {"room_id": room_id}
    for name in NAMES[1:seats]:
        _, joined = await call(client, contract, "POST", room + "/seats", at, json={"name": name})
        tokens.append(joined["token"])
    frames: dict[int | None, list[str]] = {seat: [] for seat in [None, *range(seats)]}
    sockets = [
        await connect(
            ws_url(base, room_id, None if seat is None else tokens[seat]), additional_headers={"Origin": base}
        )
        for seat in frames
    ]
    listeners = [asyncio.create_task(listen(ws, frames[seat])) for ws, seat in zip(sockets, frames, strict=True)]
    try:
        await call(client, contract, "POST", room + "/chat", at, json={"text": "good luck"}, headers=auth(tokens[0]))
        _, reply = await call(client, contract, "POST", room + "/start", at, headers=auth(tokens[0]))
        await call(client, contract, "GET", room, at)
        await call(client, contract, "GET", room + "/chat", at)
        for move in range(MOVES_AT_MOST):
            if reply["status"] != "playing":
                break
            options: list[dict[str, Any]] = []
            for seat in rng.sample(reply["to_act"], len(reply["to_act"])):  # a seat that may act now
                at_seat = auth(tokens[seat])
                _, legal = await call(client, contract, "GET", room + "/legal-actions", at, headers=at_seat)
                options = [a["action"] for a in legal["legal_actions"]]
                if options:  # a reaction window awaits seats that have answered already
                    break
            choice = rng.choice([a for a in options if a["type"] != "troika"] or options)
            if move == 0:  # no replay before the end
                r, _ = await call(client, contract, "GET", room + "/replay", at)
                assert r.status_code == 409
            if move % 25 == 0:  # every viewer's view, the log and a refused move now and then
                for viewer in frames:
                    headers = {} if viewer is None else auth(tokens[viewer])
                    await call(client, contract, "GET", room + "/view", at, headers=headers)
                    await call(client, contract, "GET", room + "/log", at, headers=headers)
                stale = {"version": legal["version"] + 1, "action": choice}
                r, _ = await call(
                    client, contract, "POST", room + "/actions", at, json=stale, headers=auth(tokens[seat])
                )
                assert r.status_code == 409
            body = {"version": legal["version"], "action": choice}
            r, reply = await call(
                client, contract, "POST", room + "/actions", at, json=body, headers=auth(tokens[seat])
            )
            assert r.status_code == 200, reply
        assert reply["status"] == "finished", f"{slug} {seats}: not over after {MOVES_AT_MOST} moves"
        r, _ = await call(client, contract, "GET", room + "/record", at)
        assert r.status_code == 200
        for params in ({}, {"step": 0}, {"step": reply["version"] // 2, "seat": seats - 1}):  # the replay's steps
            r, _ = await call(client, contract, "GET", room + "/replay", at, params=params)
            assert r.status_code == 200
        await settle(frames, reply["version"])
    finally:
        for ws in sockets:
            await ws.close()
        await asyncio.gather(*listeners, return_exceptions=True)
    return {"frames": frames, "last": reply, "tokens": tokens}


async def settle(frames: dict[int | None, list[str]], version: int) -> None:
    """Wait until every socket has had the push of ``version``."""
    for _ in range(500):
        if all(any(f'"version":{version},' in frame for frame in got) for got in frames.values()):
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"not every socket had the push of version {version}")


def check_pushes(socket: Contract, frames: dict[int | None, list[str]]) -> None:
    """Check every frame against the AsyncAPI document: one of the socket's messages."""
    messages = socket.document["components"]["messages"].values()
    any_frame = {"oneOf": [message["payload"] for message in messages]}
    for seat, got in frames.items():
        assert got, f"seat {seat} had no push"
        for frame in dict.fromkeys(got):  # each distinct frame once
            socket.check(json.loads(frame), any_frame, f"push to seat {seat}")
            socket.payload(json.loads(frame), f"push to seat {seat}")


@pytest.mark.parametrize(("slug", "seats", "options"), CASES)
async def test_every_answer_and_push_of_a_whole_game_matches_the_published_schemas(sqlite_url, slug, seats, options):
    async with in_process_server(sqlite_url) as (base, _), httpx.AsyncClient(base_url=base) as client:
        before = (await client.get("/openapi.json")).text
        contract = Contract(json.loads(before), slug)
        rng = random.Random(f"{slug}{seats}{options}")
        played = await play_a_whole_game(client, contract, base, slug, seats, options, rng)
        socket = Contract((await client.get("/asyncapi.json")).json(), slug)
        # the documents are the same after a game as before it: they hold nothing of any game
        assert (await client.get("/openapi.json")).text == before
        secrets = [*played["tokens"], played["last"]["room"]["seed"]]
        assert not any(secret in before or secret in json.dumps(socket.document) for secret in secrets)
        assert socket.document["asyncapi"].startswith("3.")
        check_pushes(socket, played["frames"])
        assert contract.checked > 50


def test_an_attacks_support_matches_the_published_view_schema():
    """What whole random games reach only now and then, checked from an exact state: an attack's
    declared support (a random 3-seat game met one in CI, and the schema typed its card as an id)."""
    contract = Contract(served_document(), "vem-ai-a-troika")
    state = adv(3, hands={0: ["Sindicatos"], 1: ["Tabloides"], 2: ["Claque"]}, tables={1: ["Pensionistas"]})
    attack = {"type": "attack", "target": G["Pensionistas"], "mode": "control", "cards": [G["Sindicatos"]]}
    state = act(act(state, 0, attack), 2, {"type": "support", "side": "attack", "card": G["Claque"]})
    for seat in (None, 0, 1, 2):
        view = VEM.view(state, seat)
        assert view["attack"]["support"][0]["card"]["name"] == "Claque"
        contract.check(view, contract.component("VemView"), f"the view of seat {seat}")
