"""The reference bot (``examples/arena_bot.py``) plays a whole game of each kind against a live
server, as a third party would run it: its own process, the invite link, the documented API;
and it imports nothing from the project (the standard library and httpx only)."""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import json
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.conftest import auth
from tests.support.registered import seated
from tests.support.servers import free_port, server_process

pytestmark = pytest.mark.server  # real server processes, sockets or subprocesses

BOT = Path(__file__).resolve().parents[1] / "examples" / "arena_bot.py"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('bot')}/arena.db"
    with server_process(url, free_port(), BOT_DELAY_SECONDS="0", BOT_BUDGET_SECONDS="0.02") as (_, base):
        yield base


def run_bot(invite: str, seed: int) -> subprocess.Popen:
    """The reference bot in its own process, as "Robo", joining by ``invite``."""
    command = [sys.executable, str(BOT), invite, "--name", "Robo", "--seed", str(seed)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def test_the_bot_imports_only_the_standard_library_and_httpx():
    imported = set()
    for node in ast.walk(ast.parse(BOT.read_text())):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert imported - sys.stdlib_module_names == {"httpx"}, imported


@pytest.mark.parametrize(("game", "seats"), seated(3))
def test_the_bot_joins_by_the_invite_link_and_plays_to_the_end(server, game, seats):
    api = httpx.Client(base_url=server)
    # The reference bot takes the last seat. In Troika it starts round 1: with a random first
    # player the two random players can end every round by calling "Troika!" before its first
    # turn, and it never moves (it happened in CI: game over at version 6).
    options = {"first_player": str(seats - 1)} if game == "troika" else {}
    body = {"game": game, "seats": seats, "name": "Ana", "options": options}
    created = api.post("/api/rooms", json=body).json()
    room, host = created["room"]["id"], created["token"]
    for _ in range(seats - 2):
        api.post(f"/api/rooms/{room}/seats", json={"bot": "random"}, headers=auth(host))
    api.put(f"/api/rooms/{room}/seats/me/autopilot", json={"bot": "random"}, headers=auth(host))
    bot = run_bot(f"{server}/rooms/{room}", seed=7)
    try:
        deadline = time.monotonic() + 20
        while "Robo" not in [s["name"] for s in api.get(f"/api/rooms/{room}").json()["seats"]]:
            assert time.monotonic() < deadline and bot.poll() is None, "the bot did not take a seat"
            time.sleep(0.1)
        assert api.post(f"/api/rooms/{room}/start", headers=auth(host)).status_code == 200
        output, _ = bot.communicate(timeout=180)
    finally:
        bot.kill()
    assert bot.returncode == 0, output
    info = api.get(f"/api/rooms/{room}").json()
    assert info["status"] == "finished" and "game over at version" in output, output
    robo = next(s["seat"] for s in info["seats"] if s["name"] == "Robo")
    record = api.get(f"/api/rooms/{room}/record").json()
    moves = [a for a in record["actions"] if a["seat"] == robo]
    assert moves and f"after {len(moves)} moves of mine" in output, output


class CuttableLink:
    """A TCP relay to the server that can cut every connection through it and, for a while,
    refuse new ones: a network drop, as the bot would meet it."""

    def __init__(self, upstream: str):
        host, port = upstream.removeprefix("http://").split(":")
        self.upstream = (host, int(port))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.base = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.open: list[socket.socket] = []
        self.refusing = False
        self.lock = threading.Lock()  # a connection accepted while cutting is cut too
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self) -> None:
        while True:
            client, _ = self.listener.accept()
            server = socket.create_connection(self.upstream)
            with self.lock:
                if self.refusing:
                    for end in (client, server):
                        end.close()
                    continue
                self.open += [client, server]
            for source, target in ((client, server), (server, client)):
                threading.Thread(target=self.pump, args=(source, target), daemon=True).start()

    @staticmethod
    def pump(source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        for end in (source, target):
            end.close()

    def cut(self) -> None:
        with self.lock:
            self.refusing = True
            for end in self.open:
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
            self.open = []


def test_the_bot_resumes_a_stream_dropped_before_the_start(server):
    """Its stream drops in the waiting room and the game starts while it is away (the start
    keeps the version at 0): resumed after the change it last read, it is sent the start and
    plays to the end."""
    api, link = httpx.Client(base_url=server), CuttableLink(server)
    created = api.post("/api/rooms", json={"game": "triatri", "seats": 2, "name": "Ana"}).json()
    room, host = created["room"]["id"], created["token"]
    api.put(f"/api/rooms/{room}/seats/me/autopilot", json={"bot": "random"}, headers=auth(host))
    bot = run_bot(f"{link.base}/rooms/{room}", seed=3)
    try:
        deadline = time.monotonic() + 20
        while 1 not in api.get(f"/api/rooms/{room}/view").json()["connected"]:  # its stream is open
            assert time.monotonic() < deadline and bot.poll() is None, "the bot did not follow the room"
            time.sleep(0.1)
        link.cut()
        assert api.post(f"/api/rooms/{room}/start", headers=auth(host)).status_code == 200
        time.sleep(0.5)
        link.refusing = False
        try:
            output, _ = bot.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            bot.kill()
            pytest.fail(f"the bot did not finish: {bot.communicate()[0]}")
    finally:
        bot.kill()
    assert bot.returncode == 0 and "stream lost" in output, output
    assert api.get(f"/api/rooms/{room}").json()["status"] == "finished"
    record = api.get(f"/api/rooms/{room}/record").json()
    assert any(a["seat"] == 1 for a in record["actions"]), output


@pytest.mark.parametrize("status", ["finished", "closed", "abandoned"])
def test_a_stream_resumed_after_the_final_view_ends_the_bot_whatever_ended_the_room(status):
    """Resumed after the room's final view (the end event lost with the link), the stream sends
    only what came since and closes: the bot takes the final view it holds as the end, for a
    game closed by its host (``abandoned``) as for one played out, instead of resuming again."""
    spec = importlib.util.spec_from_file_location("arena_bot", BOT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    chat = {"event": "chat", "change": 41, "seat": 0, "text": "gg"}
    since = httpx.MockTransport(lambda request: httpx.Response(200, text=json.dumps(chat) + "\n"))
    bot = module.Bot("http://arena.test", "ROOM", "Robo", 1)
    bot.http = httpx.Client(base_url="http://arena.test", transport=since)
    bot.change = 40
    bot.last_view = {"event": "view", "change": 40, "version": 12, "status": status, "outcome": None}
    end = bot.follow()
    assert end == {"event": "end", "version": 12, "status": status, "outcome": None} and bot.change == 41
    bot.last_view["status"] = "playing"  # a stream closed mid-game is resumed, not taken as the end
    assert bot.follow() is None
