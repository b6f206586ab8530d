"""The published contract: the OpenAPI document the app serves at /openapi.json, and the
AsyncAPI document of its live socket at /asyncapi.json.

FastAPI builds it from the routes, their typed bodies and answers, and the error statuses each
route lists (``app.api.errors.answers``). One thing is taken out: FastAPI documents a 422
``{"detail": [...]}`` on every route that reads a parameter, while this server answers a
request that does not validate with 400 and the one error shape, which each route lists. One
thing is added: the frames of the live socket (``Push``), which no route answers, and the bounds
of the actions a client builds rather than picks (:func:`with_unlisted_bounds`). A ``const``
inside a union is written as a one-value ``enum``, which client generators read better. The AsyncAPI
document (3.0) describes that socket, its query parameters and each frame it sends, and names
the same schemas.
"""

from __future__ import annotations

import typing
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import TypeAdapter

from app.api.answers import ChatEvent, EndEvent, PresenceEvent, Push, ViewEvent
from app.games.registry import GAMES

API_VERSION = "1.0"  # the contract's version (docs/api.md, "Changes in 1.0"), not the package's
FASTAPI_VALIDATION = "#/components/schemas/HTTPValidationError"
REF = "#/components/schemas/{model}"
# shapes no route answers, published for the live socket (and documented in docs/api.md)
SOCKET_SCHEMAS: dict[str, Any] = {"Push": Push}
# each frame the socket sends, by name: (its schema's name, what it is)
SOCKET_FRAMES = {
    "view": (ViewEvent.__name__, "the viewer's payload: at once, and after every change of the room or its game"),
    "presence": (PresenceEvent.__name__, "a change of presence alone: the seats with a socket open"),
    "chat": (ChatEvent.__name__, "new chat lines"),
    "end": (EndEvent.__name__, "the game is over or the room closed, after the final view"),
}


def operation_id(route: APIRoute) -> str:
    """A route's operationId: its function's name in camelCase (``join_room``: ``joinRoom``)."""
    first, *rest = route.name.split("_")
    return first + "".join(word.capitalize() for word in rest)


def install_contract(app: FastAPI) -> None:
    """Serve the document described above as ``app.openapi()``, built once."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = get_openapi(
                title=app.title,
                version=app.version,
                summary=app.summary,
                description=app.description,
                routes=app.routes,
            )
            document = with_unlisted_bounds(with_socket_schemas(without_fastapi_validation(document)))
            app.openapi_schema = with_union_consts_as_enums(document)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    async def asyncapi_json() -> JSONResponse:
        return JSONResponse(asyncapi(app.version, openapi()))

    app.add_api_route("/asyncapi.json", asyncapi_json, methods=["GET"], include_in_schema=False)


def without_fastapi_validation(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` without FastAPI's own 422 answers and their schemas."""
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            answer = operation.get("responses", {}).get("422", {})
            if (
                answer.get("content", {}).get("application/json", {}).get("schema", {}).get("$ref")
                == FASTAPI_VALIDATION
            ):
                del operation["responses"]["422"]
    schemas = document.get("components", {}).get("schemas", {})
    schemas.pop("HTTPValidationError", None)
    schemas.pop("ValidationError", None)
    return document


def with_socket_schemas(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with :data:`SOCKET_SCHEMAS` among its components (a model the routes
    share keeps the routes' definition)."""
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    for name, shape in SOCKET_SCHEMAS.items():
        schema = TypeAdapter(shape).json_schema(ref_template=REF, mode="serialization")
        for defined, definition in schema.pop("$defs", {}).items():
            schemas.setdefault(defined, definition)
        schemas[name] = schema
    return document


def with_unlisted_bounds(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with the bounds the games read their unlisted actions by (Vem aí's
    ``Attack`` and ``Campaign``, which a client builds from its cards rather than picks from
    ``legal_actions``) stated on their fields: whole numbers from 0, card ids distinct and at
    most a deck's Groups (``FieldType.json_schema``; the edge refuses what they refuse, 400)."""
    schemas = document["components"]["schemas"]
    for game in GAMES.values():
        for shape in typing.get_args(game.action_type) or (game.action_type,):
            kind = typing.get_args(typing.get_type_hints(shape)["type"])[0]
            for name, field in game.unlisted.get(kind, {}).items():
                schemas[shape.__name__]["properties"][name].update(field.json_schema())
    return document


def with_union_consts_as_enums(node: Any) -> Any:
    """``node`` with every ``const`` branch of an ``anyOf`` written as a one-value ``enum``
    (Troika's ``tile``: ``"unknown"`` or a marked tile's id). The two say the same; a client
    generated by openapi-python-client 0.29 from a ``const`` branch refuses the union's other
    branches (it raised on every marked tile), and parses an ``enum`` branch as one choice of
    several."""
    if isinstance(node, list):
        return [with_union_consts_as_enums(item) for item in node]
    if not isinstance(node, dict):
        return node
    shown = {key: with_union_consts_as_enums(value) for key, value in node.items()}
    if isinstance(shown.get("anyOf"), list):
        shown["anyOf"] = [as_enum(branch) for branch in shown["anyOf"]]
    return shown


def as_enum(branch: Any) -> Any:
    """A ``const`` schema as a one-value ``enum`` (any other branch as it is)."""
    if not isinstance(branch, dict) or "const" not in branch:
        return branch
    return {**{key: value for key, value in branch.items() if key != "const"}, "enum": [branch["const"]]}


def asyncapi(version: str, document: dict[str, Any]) -> dict[str, Any]:
    """The AsyncAPI 3.0 document of the live socket, with the OpenAPI ``document``'s schemas."""
    ref = "#/components/messages/"
    query = {
        "type": "object",
        "properties": {
            "format": {"enum": ["json", "html"], "default": "html", "description": "json for a program"},
            "token": {"type": "string", "description": "a seat token; none for a spectator"},
        },
    }
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Troika Arena live socket",
            "version": version,
            "description": "A room pushed to one viewer whenever it changes; it only sends (frames sent to "
            "it are dropped: moves go through POST /api/rooms/{room_id}/actions). Connect with an Origin header "
            "of the server's own URL; a foreign Origin or a token that holds no seat (403), an empty token (401), "
            "a missing room (404) or another format (400) is refused at the handshake with the API's error "
            "answer as its body. The server closes with 1008 past its caps or for too many frames, 1009 "
            "for a frame too large, 1011 when it is in trouble (reconnect after a pause).",
        },
        "channels": {
            "room": {
                "address": "/ws/rooms/{room_id}",
                "parameters": {"room_id": {"description": "the room's id"}},
                "bindings": {"ws": {"query": query}},
                "messages": {name: {"$ref": ref + name} for name in SOCKET_FRAMES},
            }
        },
        "operations": {
            "receiveRoom": {
                "action": "receive",
                "channel": {"$ref": "#/channels/room"},
                "messages": [{"$ref": f"#/channels/room/messages/{name}"} for name in SOCKET_FRAMES],
            }
        },
        "components": {
            "messages": {
                name: {"name": name, "summary": summary, "payload": {"$ref": REF.format(model=schema)}}
                for name, (schema, summary) in SOCKET_FRAMES.items()
            },
            "schemas": document["components"]["schemas"],
        },
    }
