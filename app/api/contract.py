"""The published contract: the OpenAPI document the app serves at /openapi.json, and the
AsyncAPI document of its live socket at /asyncapi.json.

FastAPI builds it from the routes, their typed bodies and answers, and the error statuses each
route lists (``app.api.errors.answers``). One thing is taken out: FastAPI documents a 422
``{"detail": [...]}`` on every route that reads a parameter, while this server answers a
request that does not validate with 400 and the one error shape, which each route lists. One
thing is added: the frames of the live socket (``Push``), which no route answers. The AsyncAPI
document (3.0) describes that socket, its query parameters and each frame it sends, and names
the same schemas.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import TypeAdapter

from app.api.answers import ChatEvent, EndEvent, PresenceEvent, Push, ViewEvent

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
            app.openapi_schema = with_socket_schemas(without_fastapi_validation(document))
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
            "of the server's own URL; a missing room or a token that holds no seat is refused at the "
            "handshake (403). The server closes with 1008 past its caps or for too many frames, 1009 "
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
