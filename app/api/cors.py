"""CORS for a browser client on another site: the origins listed in ``ALLOWED_ORIGINS`` may call
the API and read its answers, none by default.

A seat's token is a bearer token in the ``Authorization`` header, never a cookie, so the
answers allow no credentials (``Access-Control-Allow-Credentials`` is never sent, and a
browser sends no cookie of this server with another site's request). A preflight from a listed
origin is answered 200 with the methods and request headers the API takes; one from any other
origin is refused (400, with no ``Access-Control-Allow-Origin``), and an ordinary request from
it is answered with no CORS header, which a browser then keeps from the page. The answer's
own headers a client reads are exposed: ``Location``, ``ETag``, ``Link``, ``Retry-After`` and
the rate-limit fields.
"""

from __future__ import annotations

from fastapi import FastAPI
from starlette.middleware.cors import CORSMiddleware

METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE"]
REQUEST_HEADERS = ["Authorization", "Content-Type", "If-None-Match"]
EXPOSED = ["Location", "ETag", "Link", "Retry-After", "RateLimit", "RateLimit-Policy"]
PREFLIGHT_SECONDS = 600  # how long a browser may keep a preflight's answer


def install_cors(app: FastAPI, origins: set[str]) -> None:
    """Let ``origins`` call the API from a browser (nothing is added without any)."""
    if not origins:
        return
    app.add_middleware(
        CORSMiddleware,
        allow_origins=sorted(origins),
        allow_credentials=False,
        allow_methods=METHODS,
        allow_headers=REQUEST_HEADERS,
        expose_headers=EXPOSED,
        max_age=PREFLIGHT_SECONDS,
    )
