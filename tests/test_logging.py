"""The server's log as a host reads it (``troika-arena serve``): the app's own lines appear
beside uvicorn's, each with its level, and no seat token appears in any line at any level,
uvicorn's trace lines included (they print a request's whole scope, its path and query)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time

import httpx
import pytest
from websockets.sync.client import connect

from app.logs import TokenRedactingFilter, log_config
from tests.support.servers import free_port

pytestmark = pytest.mark.server


def test_the_app_logs_beside_uvicorn_and_no_level_prints_a_token(tmp_path):
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path}/arena.db", "LOG_LEVEL": "trace"}
    log = (tmp_path / "server.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(port)], env=env, stdout=log, stderr=log
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{base}/healthz", timeout=1)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline and proc.poll() is None, "the server did not start"
                time.sleep(0.1)
        created = httpx.post(f"{base}/api/rooms", json={"game": "troika", "seats": 2, "name": "Ana"}).json()
        room, token = created["room"]["id"], created["token"]
        assert httpx.get(f"{base}/rooms/{room}/seat/{token}").status_code == 200
        with connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}?format=json&token={token}", origin=base) as socket:
            assert '"view"' in socket.recv(timeout=10)
        guest = httpx.post(f"{base}/api/rooms/{room}/seats", json={"name": "Bo"}).json()["token"]
        assert httpx.post(f"{base}/api/rooms/{room}/start", headers={"Authorization": f"Bearer {token}"}).is_success
        with connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}?token={guest}", origin=base) as page_socket:
            assert "Your hand" in page_socket.recv(timeout=10)  # (the page's frames: its table, its hand)
        # the server decodes a percent-encoded name and value; the access log prints them as sent
        encoded = "".join(f"%{ord(c):02X}" for c in guest)
        with connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}?format=json&tok%65n={encoded}", origin=base) as s:
            assert '"view"' in s.recv(timeout=10)
        assert httpx.get(f"{base}/rooms/{room}/s%65at/{token}").status_code == 200
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()
    text = (tmp_path / "server.log").read_text()
    assert "INFO:     Troika Arena ready on sqlite" in text  # (the app's line, dropped before)
    assert "seat/[redacted]" in text and "token=[redacted]" in text and "TRACE:" in text
    assert token not in text and guest not in text and encoded not in text and encoded[:12] not in text
    assert "tok%65n=[redacted]" in text
    # no frame is logged, even at trace: a frame is a seat's view, its hand (a probe read every
    # hand of a game in a debug log), or its page's click, a face-down choice
    assert "Your hand" not in text and "Frame(" not in text and '"hand"' not in text


def test_a_token_is_redacted_from_an_argument_of_any_type():
    record = logging.LogRecord("uvicorn.asgi", 5, "", 0, "%s %s %d %r", None, None)
    record.args = ({"path": "/rooms/r/seat/SECRET1", "query_string": b"token=SECRET2"}, b"token=SECRET3", 7, None)
    TokenRedactingFilter().filter(record)
    line = record.getMessage()
    assert "SECRET" not in line and line.count("[redacted]") == 3 and " 7 None" in line
    encoded = logging.LogRecord("uvicorn.access", 20, "", 0, "%s", None, None)
    encoded.args = ("/ws/rooms/r?x=1&T%6F%6Ben=S%45CRET4&%74oken=SECRET5&a=/S%65AT/SECRET6 /seat/SECRET7?",)
    TokenRedactingFilter().filter(encoded)
    assert encoded.getMessage() == (
        "/ws/rooms/r?x=1&T%6F%6Ben=S%45CRET4&%74oken=[redacted]&a=/S%65AT/SECRET6 /seat/[redacted]?"
    )  # (a name in other letters is another parameter, as the server reads it)
    plain = logging.LogRecord("uvicorn.access", 20, "", 0, "%s %d", ("GET /", 200), None)
    TokenRedactingFilter().filter(plain)
    assert plain.args == ("GET /", 200)  # (uvicorn's access formatter reads its arguments by type)


def test_the_websockets_frame_lines_are_dropped_and_a_token_never_prints_a_whole_object():
    frame = logging.LogRecord("uvicorn.error", 10, "", 0, "< %s", ('TEXT \'{"action": "commit"}\'',), None)
    assert not TokenRedactingFilter().filter(frame)

    class Shown:  # an object whose repr is its whole content, its str a short excerpt
        def __repr__(self) -> str:
            return "hand 1 2 3 at /seat/SECRET1 " + "x" * 500

        def __str__(self) -> str:
            return "/seat/SECRET1 …"

    record = logging.LogRecord("uvicorn.error", 10, "", 0, "sent %s", (Shown(),), None)
    assert TokenRedactingFilter().filter(record) and record.getMessage() == "sent /seat/[redacted] …"


def test_the_app_loggers_get_the_level_and_every_handler_redacts():
    config = log_config("debug")
    assert config["loggers"]["troika_arena"]["level"] == "DEBUG" and config["loggers"]["app"]["level"] == "DEBUG"
    assert all(handler["filters"] == ["redact"] for handler in config["handlers"].values())
