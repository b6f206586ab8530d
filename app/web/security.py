"""Security headers on every HTTP answer: a Content-Security-Policy that lets a page load only
this server's own scripts, styles, images and sockets (no inline script, style or handler, no
eval; htmx is configured accordingly in templates/base.html), that no site may frame;
``Referrer-Policy: no-referrer``, as a seat page's URL is that seat's credential; and
``X-Content-Type-Options: nosniff``; and ``Cache-Control: no-store`` on a seat's pages and on
the redirects to one (their URL is the credential: no cache may keep them). A pure ASGI
middleware, so it costs one call per answer; it is the outermost, so even the invalid-host 400
carries them.

The forms (those that need no seat token: create a room, join one, the language switch, a
record upload; and every form of a seat's page, whose link another site would have to know) are
refused when a browser says another site sent them (:func:`refuse_cross_site`):
``Sec-Fetch-Site`` when the browser sends it, else ``Origin``. Programs that send neither are
let through: only a browser carries a visitor's cookies and address to another site's form.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.rooms.errors import Forbidden

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",  # Swagger UI's stylesheet draws its icons from data: URLs
        "connect-src 'self'",  # fetches and this server's own websockets (ws: and wss: included)
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),  # frame-ancestors for browsers that predate it
]
NO_STORE = (b"cache-control", b"no-store")
SEAT_PATH = "/seat/"  # /rooms/<id>/seat/<token>..., a seat's private link
SAME_SITE = ("same-origin", "none")  # Sec-Fetch-Site of this site's own pages, or of a typed URL


def origin_matches(origin: str, host: str, allowed: set[str]) -> bool:
    """Whether ``origin`` is this server's own (its host is the request's Host) or listed in
    ALLOWED_ORIGINS."""
    return origin.rstrip("/") in allowed or urlsplit(origin).netloc.lower() == host.lower()


def cross_site(headers: Headers, allowed: set[str]) -> bool:
    """Whether a browser says another site sent this request."""
    origin = headers.get("origin")
    if headers.get("sec-fetch-site") in SAME_SITE:
        return False
    if origin is None:
        return "sec-fetch-site" in headers  # same-site or cross-site, and no origin to allow
    return not origin_matches(origin, headers.get("host", ""), allowed)


async def refuse_cross_site(request: HTTPConnection) -> None:
    """403 for a form sent from another site's page (the dependency of the forms' routes)."""
    if cross_site(request.headers, request.app.state.settings.origins()):
        raise Forbidden("this form can be sent only from this site's own pages")


def seat_answer(path: str, headers: list[tuple[bytes, bytes]]) -> bool:
    """Whether an answer is a seat's page, or a redirect to one."""
    return SEAT_PATH in path or any(name == b"location" and SEAT_PATH.encode() in value for name, value in headers)


class SecurityHeaders:
    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", ()), *HEADERS]
                if seat_answer(scope["path"], headers):
                    headers.append(NO_STORE)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
