"""What JSON Schema can say, the contract says (issue 27): seats are numbered within the
games' bounds wherever they appear, a join takes a name or a bot (and a seat only with a bot),
names and chat lines hold no control character, and idempotency keys have their lengths and
pattern; the server refuses what the schema refuses."""

from __future__ import annotations

import re
import sys

import pytest
from pydantic import BaseModel
from typing_extensions import TypedDict, is_typeddict

from app.api import answers, routes
from tests.conftest import auth
from tests.support.document import served_document

KEY = "0b7c2d4e-9f18-4a3b-8c5d-6e7f8a9b0c1d"
KEYED = ("JoinRoom", "StartRoom", "SubmitAction")  # the bodies with an idempotency key


def schemas_of() -> dict:
    return served_document()["components"]["schemas"]


def branch(schema: dict, kind: str = "integer") -> dict:
    """The ``kind`` branch of a field's schema (``anyOf`` with null for an optional one)."""
    return next(s for s in schema.get("anyOf", [schema]) if s.get("type") == kind)


def api_models() -> set[str]:
    """The API's own models (answers and bodies; the games' view types say their own fields)."""
    return {
        name
        for module in (answers, routes)
        for name, value in vars(module).items()
        if isinstance(value, type) and issubclass(value, BaseModel) and value.__module__ == module.__name__
    }


def test_every_seat_field_is_numbered_0_to_4_and_a_room_has_2_to_5_seats():
    schemas = schemas_of()
    seats = [
        (name, field)
        for name in api_models() & set(schemas)
        for field in schemas[name].get("properties", {})
        if field in ("seat", "left", "removed") and name != "Created"  # (the host's: always 0)
    ]
    assert len(seats) >= 15, seats
    for name, field in seats:
        bounds = branch(schemas[name]["properties"][field])
        assert (bounds["minimum"], bounds["maximum"]) == (0, 4), (name, field)
    for name, field in (("Payload", "to_act"), ("Payload", "connected"), ("PresenceEvent", "connected")):
        items = schemas[name]["properties"][field]["items"]
        assert (items["minimum"], items["maximum"]) == (0, 4), (name, field)
    counts = schemas["CreateRoom"]["properties"]["seats"], schemas["Room"]["properties"]["num_seats"]
    assert [(count["minimum"], count["maximum"]) for count in counts] == [(2, 5), (2, 5)]


async def test_the_schema_says_a_name_or_a_bot_and_the_server_refuses_the_rest(client):
    join = schemas_of()["JoinRoom"]
    assert join["if"] == {"not": {"required": ["bot"]}} and join["then"] == {"required": ["name"]}
    assert join["dependentSchemas"] == {"bot": {"not": {"required": ["name"]}}}
    assert join["dependentRequired"] == {"seat": ["bot"], "idempotency_key": ["name"]}
    r = await client.post("/api/rooms", json={"game": "troika", "seats": 3, "name": "Ana"})
    room_id, host = r.json()["room"]["id"], r.json()["token"]
    url = f"/api/rooms/{room_id}/seats"
    keyed_bot = {"bot": "random", "idempotency_key": KEY}  # (a bot is seated once per call: a key would be ignored)
    for body in (
        {},
        {"name": "Bo", "bot": "random"},
        {"name": "Bo", "seat": 1},
        {"seat": 1},
        {"idempotency_key": KEY},
        keyed_bot,
    ):
        r = await client.post(url, json=body, headers=auth(host))
        assert r.status_code == 400 and r.json()["error"] == "invalid_request", (body, r.text)
    for seat in (5, -1):
        r = await client.post(url, json={"bot": "random", "seat": seat}, headers=auth(host))
        assert r.status_code == 400 and "seat" in r.json()["message"], (seat, r.text)
    assert (await client.post(url, json={"bot": "random", "seat": 2}, headers=auth(host))).status_code == 201
    assert (await client.post(url, json={"name": "Bo"})).status_code == 201
    seats = (await client.get(f"/api/rooms/{room_id}")).json()["seats"]
    assert [(s["name"], s["bot"]) for s in seats][1:] == [("Bo", None), (seats[2]["name"], "random")]


@pytest.mark.parametrize(
    ("schema", "field"),
    [("CreateRoom", "name"), ("JoinRoom", "name"), ("ChatLine", "text")],
)
def test_names_and_chat_lines_are_published_as_text_with_no_control_character(schema, field):
    pattern = re.compile(branch(schemas_of()[schema]["properties"][field], "string")["pattern"])
    for fine in ("Ana", "Zé Maria", "good luck!", "a\tb", "two\nlines", "🂡"):
        assert pattern.fullmatch(fine), fine  # (whitespace is folded into spaces by the server)
    for refused in ("", "a\x00b", "bell\x07", "esc\x1b[0m", "del\x7f", "c1\x9b"):
        assert not pattern.fullmatch(refused), refused


async def test_the_server_refuses_the_control_characters_the_pattern_refuses(client):
    for bad in ("a\x00b", "bell\x07", "del\x7f", "c1\x9b"):
        r = await client.post("/api/rooms", json={"game": "troika", "seats": 2, "name": bad})
        assert r.status_code == 400, (bad, r.text)


def test_keys_are_published_with_their_lengths_and_pattern():
    schemas = schemas_of()
    keys = {name: branch(schemas[name]["properties"]["idempotency_key"], "string") for name in KEYED}
    bounds = {name: (key["minLength"], key["maxLength"]) for name, key in keys.items()}
    assert bounds == {"JoinRoom": (16, 64), "StartRoom": (1, 64), "SubmitAction": (1, 64)}
    pattern = re.compile(keys["SubmitAction"]["pattern"])
    assert pattern.fullmatch(KEY) and not pattern.fullmatch("tab\tkey") and not pattern.fullmatch("nul\x00")


def test_bounds_are_written_as_json_schema_says_them():
    """Every bound in the document, a query's or a body's, is ``minimum``/``maximum`` (or their
    exclusive forms, or lengths), never pydantic's own ``ge``/``le``/``gt``/``lt``; and the
    query bounds are there (a page's ``limit``)."""
    document = served_document()
    found: list[str] = []
    bounded = 0

    def walk(node: object, where: str) -> None:
        nonlocal bounded
        if isinstance(node, dict):
            found.extend(f"{where}.{key}" for key in ("ge", "le", "gt", "lt") if key in node)
            bounded += "minimum" in node or "maximum" in node
            for key, value in node.items():
                walk(value, f"{where}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}[{i}]")

    walk(document, "")
    assert found == []
    limit = next(p for p in document["paths"]["/api/rooms"]["get"]["parameters"] if p["name"] == "limit")
    assert (branch(limit["schema"])["minimum"], branch(limit["schema"])["maximum"]) == (1, 100)
    assert bounded > 10


def test_a_typed_views_field_docstrings_are_its_descriptions_each_module_parsed_once():
    """The games' views are TypedDicts whose field docstrings are the published descriptions;
    ``app.api.docstrings`` reads them as pydantic does, parsing each module once (on Python
    3.11 pydantic's own reading parsed the class's whole module at each use: 230 parses)."""
    from pydantic._internal import _generate_schema

    from app.api.docstrings import classes_in, pydantic_reading, read_once

    player = schemas_of()["TroikaPlayer"]["properties"]
    assert player["hand_count"]["description"] == "How many tiles it holds in its hand."
    assert player["hand"]["description"] == "The viewer's own, or everyone's once the game is over."
    assert _generate_schema.extract_docstrings_from_cls is read_once
    parsed = classes_in.cache_info()
    assert 0 < parsed.misses <= 10 < parsed.hits, parsed  # (a module per game's types, the API's own)
    typed = [
        cls
        for name, module in list(sys.modules.items())
        if name.startswith("app.")
        for cls in vars(module).values()
        if isinstance(cls, type) and is_typeddict(cls) and cls.__module__ == name
    ]
    assert len(typed) >= 60
    for cls in typed:
        assert read_once(cls, True) == pydantic_reading(cls, True), cls.__qualname__

    class Local(TypedDict):  # (a class inside a function is left to pydantic)
        field: int
        """Said under it."""

    assert read_once(Local, True) == {"field": "Said under it."}


def test_a_class_named_twice_in_one_module_is_left_to_pydantic(tmp_path):
    """Read by name, the second of two classes with one name would answer for the first."""
    from app.api.docstrings import classes_in

    module = tmp_path / "twice.py"
    module.write_text('class A:\n    x: int\n    """one"""\n\n\nclass A:\n    y: int\n\n\nclass B:\n    z: int\n')
    assert sorted(classes_in(str(module))) == ["B"]
