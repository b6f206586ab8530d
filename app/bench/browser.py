"""The load generator's browser: a room page's websocket, opened and read as htmx reads it.

The room page (templates/room.html) opens ``/ws/rooms/<id>?token=<token>`` (no token for a
spectator) through htmx's websocket extension, from a browser that sends its ``Origin`` and
``User-Agent``. The extension parses every message as an HTML fragment and swaps each of its
top-level elements into the page by id (``hx-swap-oob``, ``true`` unless it says otherwise):
the socket's first frame is the whole ``#room-main``, the later ones only the table's sections
that changed. A :class:`Page` holds the table and applies each frame the same way, with lxml
(``pip install -e '.[bench]'``): an element replaces the one with its id (``true``,
``outerHTML``), removes it (``delete``), or puts its children first or last in the element the
selector names (``afterbegin:#id``, ``beforeend:#id``). What the driver needs is read from the
table as it then is: the version, the status and the actions of the seat's plain action forms
(the forms of campaigns and attacks are filled in by the page's script, so they are not clicked
here). A seat awaited with no plain form left asks GET /legal-actions, as the page's script
reads its options.
"""

from __future__ import annotations

from typing import Any

import orjson
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.typing import Origin

USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) troika-arena-bench Chrome/130"
PLAIN_ACTIONS = './/form[not(contains(@class, "vem-combo"))]/input[@name="action"]/@value'
ANY_ACTION = './/input[@name="action"]'


def fragments(text: str | bytes) -> list[Any]:
    """The frame's top-level elements, as the ws extension's ``makeFragment`` yields them."""
    from lxml import html  # the bench extra: not needed to serve

    return [element for element in html.fragments_fromstring(text) if not isinstance(element, str)]


class Page:
    """The elements a page holds that frames swap by id (``#room-main``, ``#chat-log``...), as
    htmx's out-of-band swaps change them."""

    def __init__(self, text: str | bytes = "") -> None:
        from lxml import html  # the bench extra: not needed to serve

        self.root = html.Element("div")  # a tree of its own: an element is in the page if its root is this
        self.ids: dict[str, Any] = {}
        if text:
            self.apply(text)

    def find(self, id: str) -> Any:
        element = self.ids.get(id)
        if element is None or element.getroottree().getroot() is not self.root:
            found = self.root.xpath(f'.//*[@id="{id}"]')
            element = self.ids[id] = found[0] if found else None
        return element

    def index(self, element: Any) -> None:
        """Note the elements with an id in what was just swapped in (a lookup is then a dict's)."""
        for each in element.iter():
            if each.get("id"):
                self.ids[each.get("id")] = each

    def apply(self, text: str | bytes) -> None:
        """Swap the frame's top-level elements in, one after the other, as htmx does (an
        element whose target is missing is appended at the top level: a page's first frame)."""
        for element in fragments(text):
            swap = element.attrib.pop("hx-swap-oob", "true")
            style, _, selector = swap.partition(":")
            target = self.find(selector.removeprefix("#") if selector else element.get("id", ""))
            if target is None:
                element.tail = None
                self.root.append(element)
            elif style in ("true", "outerHTML"):
                element.tail = target.tail
                target.getparent().replace(target, element)
            elif style == "delete":
                target.drop_tree()
                continue
            elif style in ("afterbegin", "beforeend"):
                children = list(element)
                for child in reversed(children) if style == "afterbegin" else children:
                    target.insert(0, child) if style == "afterbegin" else target.append(child)
                for child in children:
                    self.index(child)
                continue
            else:
                raise ValueError(f"a swap htmx's ws extension would not make here: {swap}")
            self.index(element)

    def view(self) -> dict[str, Any] | None:
        """What the driver keeps of the table: its version, status and the actions it offers
        (``legal_actions`` None: awaited, but only through forms the page's script fills), or
        None before the table came."""
        state, main = self.find("table-state"), self.find("room-main")
        if state is None or main is None:
            return None
        actions = [{"action": orjson.loads(str(value))} for value in main.xpath(PLAIN_ACTIONS)]
        awaited = bool(actions) or bool(main.xpath(ANY_ACTION))
        return {
            "version": int(state.get("data-version")),
            "status": state.get("data-status"),
            "legal_actions": actions if actions or not awaited else None,
        }


def refused(text: str | bytes) -> bool:
    """Whether a frame says a click was refused (the flash toast, with its reason)."""
    if b'id="flash"' not in (text if isinstance(text, bytes) else text.encode()):
        return False
    return any(e.get("id") == "flash" and e.text_content().strip() for e in fragments(text))


def reply_version(reply: str) -> int | None:
    """The version of the room in a form's HTML reply (its ``#table-state``), if it has one."""
    view = Page(reply).view()
    return None if view is None else view["version"]


async def connect(ws_base: str, origin: str, room_id: str, token: str | None) -> ClientConnection:
    url = f"{ws_base}/ws/rooms/{room_id}" + (f"?token={token}" if token else "")
    return await ws_connect(
        url, origin=Origin(origin), user_agent_header=USER_AGENT, max_size=2**22, ping_interval=None
    )
