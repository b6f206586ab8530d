"""What the browser is told and who may talk to the server: security headers on every page
(a Content-Security-Policy with no inline code, no framing, no referrer, no sniffing) and the
Host allow-list (ALLOWED_HOSTS) that closes DNS rebinding, for pages, the API and websocket
handshakes."""

from __future__ import annotations

import asyncio
import base64
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from app.config import Settings
from tests.conftest import create_started_room
from tests.support.pages import assert_secure_page, inline_code
from tests.support.registered import seated
from tests.support.rooms import make_room
from tests.support.servers import free_port, in_process_server

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
HTML = {"accept": "text/html"}


def without_jinja(source: str) -> str:
    """A template's HTML with its Jinja expressions and tags blanked: a quote inside
    ``title="{{ _("away") if x else y }}"`` would otherwise end the attribute early for the
    parser and make words of the expression look like attributes (``online`` like ``on...``)."""
    return re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", "x", source, flags=re.DOTALL)


def test_no_template_or_script_relies_on_inline_code():
    for template in sorted(TEMPLATES.rglob("*.html")):
        assert inline_code(without_jinja(template.read_text())) == [], template.name
    assert inline_code(without_jinja('<a title="{{ _("on") }}" onclick="x()">')) == ["<a onclick=...>"]


async def test_every_page_type_carries_the_security_headers(client):
    pages = ["/", "/lobby/rooms", "/rules", "/docs", "/no-such-page", "/rooms/no-room"]
    r = await client.post("/rooms", data={"game": "troika", "seats": "2", "name": "Ana"}, headers=HTML)
    waiting_room = r.headers["location"]
    pages += [waiting_room, waiting_room.split("/seat/")[0], waiting_room.replace("/seat/", "/seat/x")]
    for game, seats in seated(2):
        room_id, tokens = await create_started_room(client, game, seats)
        pages += [f"/rooms/{room_id}", f"/rooms/{room_id}/seat/{tokens[1]}", f"/rules/{game}"]
    pages.append("/rules/vem-ai-a-troika/cards")
    statuses = {}
    for path in pages:
        r = await client.get(path, headers=HTML)
        assert_secure_page(r)
        statuses[path] = r.status_code
    assert sorted(set(statuses.values())) == [200, 403, 404], statuses
    r = await client.post(waiting_room + "/chat", data={"text": "hello"}, headers=HTML)  # an htmx reply
    assert r.status_code == 200
    assert_secure_page(r)


async def handshake_status(base: str, path: str, host: str, origin: str) -> int:
    """The HTTP status a websocket handshake to ``path`` gets, sent with these Host and Origin
    headers over a raw connection (101: accepted)."""
    url = urlsplit(base)
    reader, writer = await asyncio.open_connection(url.hostname, url.port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    await writer.drain()
    status = int((await asyncio.wait_for(reader.readline(), 10)).split()[1])
    writer.close()
    return status


def test_the_default_hosts_are_the_bind_address_and_loopback_names():
    assert Settings(host="127.0.0.1").hosts() == ["127.0.0.1", "[::1]", "localhost"]
    assert Settings(host="0.0.0.0").hosts() == ["0.0.0.0", "127.0.0.1", "[::1]", "localhost"]
    assert Settings(host="fd00::7").hosts() == ["127.0.0.1", "[::1]", "[fd00::7]", "localhost"]  # as Host writes it
    listed = Settings(allowed_hosts=" Games.Example.org, *.example.net, [FD00::8] ").hosts()
    assert listed == ["*.example.net", "127.0.0.1", "[::1]", "[fd00::8]", "games.example.org", "localhost"]


async def test_a_foreign_host_header_is_refused_for_pages_api_and_sockets(sqlite_url):
    async with in_process_server(sqlite_url, allowed_hosts="games.example.org") as (base, _):
        port = urlsplit(base).port
        async with httpx.AsyncClient(base_url=base) as client:
            room_id, _ = await make_room(client)
            for path in ("/", f"/rooms/{room_id}", "/api/games", "/healthz"):
                assert (await client.get(path, headers={"Host": "evil.example"})).status_code == 400, path
                for host in (f"localhost:{port}", f"127.0.0.1:{port}", "games.example.org"):
                    assert (await client.get(path, headers={"Host": host})).status_code == 200, (path, host)
        socket = f"/ws/rooms/{room_id}?format=json"
        # DNS rebinding: evil.example resolves to this server; the browser sends its own name as
        # both Host and Origin, so the Origin check alone cannot tell.
        assert await handshake_status(base, socket, "evil.example", "http://evil.example") == 400
        assert await handshake_status(base, socket, f"localhost:{port}", f"http://localhost:{port}") == 101
        assert await handshake_status(base, socket, "games.example.org", "https://games.example.org") == 101


@pytest.mark.parametrize("address", ["127.0.0.2", "::1"])
def test_serve_answers_to_the_address_its_host_flag_binds(tmp_path, address):
    """``troika-arena serve --host ADDR``: ADDR is the bind address, so it is an allowed host
    (an IPv6 one too, which a Host header writes in brackets: it was refused, 400)."""
    port = free_port()
    url = f"http://[{address}]:{port}" if ":" in address else f"http://{address}:{port}"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path}/arena.db", "LOG_LEVEL": "warning"}
    env.pop("HOST", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--host", address, "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status = httpx.get(f"{url}/healthz", timeout=1).status_code
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline and proc.poll() is None, "the server did not start"
                time.sleep(0.1)
        assert status == 200
    finally:
        proc.terminate()
        proc.wait(timeout=10)
