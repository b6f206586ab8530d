"""HEAD wherever GET is answered (RFC 9110 asks it of every server).

FastAPI's routes answer only the methods they name, so a HEAD of a page or an API call would be
405. This middleware serves a HEAD request as the GET it stands for and sends only the
answer's status and headers: the same status, content type and length as the GET, no body. An
answer that streams (a line-delimited event stream) is ended after its headers, and its
producer stopped at its next line.
"""

from __future__ import annotations

import contextlib

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadersSent(Exception):
    """Raised into a streaming answer whose HEAD request has had its headers already."""


class HeadAsGet:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return
        done = False

        async def headers_only(message: Message) -> None:
            nonlocal done
            if done:
                raise HeadersSent
            if message["type"] == "http.response.body":
                message, done = {"type": "http.response.body", "body": b"", "more_body": False}, True
            await send(message)

        with contextlib.suppress(HeadersSent):
            await self.app({**scope, "method": "GET"}, receive, headers_only)
