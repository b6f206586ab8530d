"""The published contract: the OpenAPI document the app serves at /openapi.json.

FastAPI builds it from the routes, their typed bodies and answers, and the error statuses each
route lists (``app.api.errors.answers``). One thing is taken out: FastAPI documents a 422
``{"detail": [...]}`` on every route that reads a parameter, while this server answers a
request that does not validate with 400 and the one error shape, which each route lists. One
thing is added: the frames of the live socket (``Push``), which no route answers.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import TypeAdapter

from app.api.answers import Push

FASTAPI_VALIDATION = "#/components/schemas/HTTPValidationError"
REF = "#/components/schemas/{model}"
# shapes no route answers, published for the live socket (and documented in docs/api.md)
SOCKET_SCHEMAS: dict[str, Any] = {"Push": Push}


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
