"""Pages and fragments as the server renders them, read by the in-process tests: forms posted
as a browser or htmx posts them (``HTML``, ``HTMX``, ``create_by_form``), a page's words and a
slice of its HTML (``text``, ``between``), a Vem aí a Troika seat's table rendered from an exact
game state (``arrange``, ``render``), a template rendered as a page in English
(``render_template``), and the security headers and no-inline-code rule every page keeps
(``EXPECTED``, ``inline_code``, ``assert_secure_page``), and a check that an upload's spooled
file is closed however its form ends (``files_closed``)."""

from __future__ import annotations

import contextlib
import copy
import gc
import re
import warnings
from html.parser import HTMLParser

from tests.conftest import create_started_room
from tests.support.rendering import RENDERER, room_fragment
from tests.support.vem_scenarios import arrange as scenario

HTML = {"accept": "text/html"}


HTMX = {**HTML, "hx-request": "true"}  # as htmx posts a form


async def create_by_form(client, game="troika", seats="2", name="Ana", files=None, turn_timer="0", **options):
    data = {"game": game, "seats": seats, "name": name, "turn_timer": turn_timer}
    data |= {f"opt_{k}": v for k, v in options.items()}
    return await client.post("/rooms", data=data, files=files, headers=HTML)


@contextlib.contextmanager
def files_closed():
    """Fail if an uploaded file's spool is left for the collector to close (a ResourceWarning
    "Unclosed file <tempfile.SpooledTemporaryFile …>"), as it was when a form's route raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        yield
        gc.collect()
    left = [str(w.message) for w in caught if "SpooledTemporaryFile" in str(w.message)]
    assert not left, left


WEB_LEADERS = ["O Tecnocrata", "O Autarca Eterno", "O Comentador de Domingo"]


def arrange(n=2, **kwargs):
    return scenario(n, leaders=WEB_LEADERS, **kwargs)


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def between(html: str, start: str, end: str) -> str:
    """The HTML after the tag that contains ``start``, up to ``end``."""
    begin = html.index(">", html.index(start)) + 1
    return html[begin : html.index(end, begin)]


async def render(client, state, seat):
    """The room fragment of ``seat`` (None: a spectator) with the room's game set to ``state``."""
    room_id, tokens = await create_started_room(client, "vem-ai-a-troika", len(state["players"]))
    # Inside on purpose: an exact game state is set, which no public call can do.
    info, live = await client.app.state.rooms.game_state(room_id)
    live.hold(copy.deepcopy(state))  # (held, a state is the game's: the test goes on with its own)
    return room_fragment(info, live, seat, None if seat is None else tokens[seat])


EXPECTED = {
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
}


class InlineCode(HTMLParser):
    """Collects what a strict CSP would block in a page: inline scripts and styles, style
    attributes, inline event handlers (``on...`` and htmx's ``hx-on``), ``javascript:`` URLs."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        names = {name for name, _ in attrs}
        if (tag == "script" and "src" not in names) or tag == "style":
            self.found.append(f"inline <{tag}>")
        for name, value in attrs:
            if name == "style" or name.startswith(("on", "hx-on", "data-hx-on")):
                self.found.append(f"<{tag} {name}=...>")
            if (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}=javascript:...>")


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    return parser.found


def assert_secure_page(response) -> None:
    where = f"{response.request.method} {response.request.url.path}"
    assert response.headers["content-type"].startswith("text/html"), where
    policy = {part.split()[0]: part.split()[1:] for part in response.headers["content-security-policy"].split("; ")}
    assert policy["script-src"] == ["'self'"] and policy["style-src"] == ["'self'"], where
    assert policy["default-src"] == ["'self'"] and policy["frame-ancestors"] == ["'none'"], where
    assert {k: response.headers.get(k) for k in EXPECTED} == EXPECTED, where
    assert inline_code(response.text) == [], where


def render_template(name, **context):
    """A page in English, through the app's own Jinja environment (its i18n extension)."""
    return RENDERER.env("en").get_template(name).render(**context)
