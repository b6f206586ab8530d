"""The OpenAPI document as the in-process tests' apps serve it, made once per test process: the
tests that read what it says (schemas, bounds, statuses, security, headers) share it, where each
used to make an app and have it build the document afresh (about half a second each: FastAPI
builds a pydantic adapter for every field of every route). ``tests/test_api.py`` checks that an
app serves exactly this document."""

from __future__ import annotations

import functools
from typing import Any

import orjson
from fastapi import FastAPI

from app.config import Settings
from app.main import create_app
from tests.support.rendering import RENDERER


@functools.cache
def document_app() -> FastAPI:
    """An app with the tests' settings, never started (the document needs no database)."""
    return create_app(Settings(database_url="sqlite://", allowed_hosts="arena.test"), renderer=RENDERER)


@functools.cache
def served_document() -> dict[str, Any]:
    """``/openapi.json`` as :func:`document_app` serves it (a JSON round trip of what its route
    answers)."""
    return orjson.loads(orjson.dumps(document_app().openapi()))
