"""A reference bot for Troika Arena: it plays any of the server's games through the documented
HTTP API alone (docs/api.md), with the standard library and httpx.

    python examples/arena_bot.py http://HOST/rooms/ROOM_ID --name Robo

It takes a free seat through the room's invite link (``POST /api/rooms/<id>/seats``), follows
its seat's event stream (``GET /api/rooms/<id>/stream``: one JSON event a line), and whenever a
``view`` says it is its turn, posts one of the legal moves the view lists
(``POST /api/rooms/<id>/actions`` with the view's version). Its strategy is its own and simple:
never call "Troika!" (a call that fails ends the caller's round) unless nothing else is legal,
and pick among the other moves at random (with a seed), giving a move that lets the turn go
(a pass, a stop, no reaction) a quarter of the chance of one that does something. A refused
move (409: someone moved first; 422: the rules refused it) is left for the next view. Every
event carries ``change``, the id of the room's last change it reflects: when the stream drops
(even before the game starts), the bot resumes with ``?after=<the last change it read>`` and is
sent every change it missed, once. On ``end`` (or a resumed stream of a game that is over) it
prints the outcome and stops. It prints the seat's token, which is the seat: keep it to resume
by hand.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from urllib.parse import urlsplit

import httpx

RISKY = {"troika"}  # a failed call costs the round
OVER = ("finished", "closed", "abandoned")  # a room's statuses once its game is over (or never began)
IDLE = {"pass", "stop", "no_reaction", "no_support", "precampaign_done", "decline"}  # moves that let the turn go
IDLE_WEIGHT = 0.25
RECONNECTS = 5


def parse_invite(link: str) -> tuple[str, str]:
    """The server's base URL and the room id of an invite link ``http://HOST/rooms/<id>``."""
    parts = urlsplit(link)
    path = parts.path.rstrip("/").split("/")
    if parts.scheme not in ("http", "https") or len(path) < 3 or path[-2] != "rooms" or not path[-1]:
        raise SystemExit(f"not an invite link (http://HOST/rooms/ROOM_ID): {link}")
    return f"{parts.scheme}://{parts.netloc}", path[-1]


def choose(legal: list[dict], rng: random.Random) -> dict:
    """One of the listed moves (each ``{"action": ..., "label": ...}``): see the module doc."""
    actions = [entry["action"] for entry in legal]
    safe = [a for a in actions if a.get("type") not in RISKY] or actions
    weights = [IDLE_WEIGHT if a.get("type") in IDLE else 1.0 for a in safe]
    return rng.choices(safe, weights)[0]


class Bot:
    def __init__(self, base: str, room_id: str, name: str, seed: int):
        self.http = httpx.Client(base_url=base, timeout=httpx.Timeout(10.0, read=60.0))
        self.room_id, self.name = room_id, name
        self.rng = random.Random(seed)
        self.token = ""
        self.change = -1  # the change id of the last event read
        self.last_view: dict | None = None
        self.acted_on = -1  # the version of the last view a move was sent for
        self.moves = 0

    def call(self, method: str, path: str, **kwargs) -> httpx.Response:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        return self.http.request(method, f"/api/rooms/{self.room_id}{path}", headers=headers, **kwargs)

    def join(self) -> None:
        answer = self.call("POST", "/seats", json={"name": self.name})
        if answer.status_code != 201:
            raise SystemExit(f"could not take a seat: {answer.status_code} {answer.text}")
        self.token = answer.json()["token"]
        print(f"seat {answer.json()['seat']} taken as {self.name}; token {self.token}", flush=True)

    def play(self) -> dict:
        """Follow the stream until the game ends; the ``end`` event."""
        for attempt in range(RECONNECTS + 1):
            try:
                end = self.follow()
            except (httpx.TransportError, httpx.RemoteProtocolError) as exc:
                print(f"stream lost ({exc}); resuming", flush=True)
                time.sleep(min(2**attempt * 0.2, 5))
                continue
            if end is not None:
                return end
        raise SystemExit("the stream kept dropping; giving up")

    def follow(self) -> dict | None:
        params = {"after": self.change} if self.change >= 0 else {}
        headers = {"Authorization": f"Bearer {self.token}"}
        with self.http.stream("GET", f"/api/rooms/{self.room_id}/stream", params=params, headers=headers) as stream:
            if stream.status_code != 200:
                raise SystemExit(f"could not follow the room: {stream.status_code} {stream.read().decode()}")
            for line in stream.iter_lines():
                if not line.strip():
                    continue  # a keep-alive line
                event = json.loads(line)
                self.change = event["change"]
                if event["event"] == "view":
                    self.last_view = event
                    self.act(event)
                elif event["event"] == "end":
                    return event
        view = self.last_view
        if view is not None and view["status"] in OVER:  # resumed after the end
            return {"event": "end", "version": view["version"], "status": view["status"], "outcome": view["outcome"]}
        return None  # the server closed the stream without an end: resume

    def act(self, view: dict) -> None:
        if not view["your_turn"] or view["version"] <= self.acted_on:
            return
        self.acted_on = view["version"]
        action = choose(view["legal_actions"], self.rng)
        answer = self.call("POST", "/actions", json={"version": view["version"], "action": action})
        if answer.status_code == 200:
            self.moves += 1
        elif answer.status_code not in (409, 422):  # 409/422: wait for the next view
            raise SystemExit(f"move refused: {answer.status_code} {answer.text}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play a seat of a Troika Arena room.")
    parser.add_argument("invite", help="the room's invite link, http://HOST/rooms/ROOM_ID")
    parser.add_argument("--name", default="Reference bot", help="the name to sit under")
    parser.add_argument("--seed", type=int, default=1, help="seed of the bot's choices")
    args = parser.parse_args(argv)
    base, room_id = parse_invite(args.invite)
    bot = Bot(base, room_id, args.name, args.seed)
    bot.join()
    end = bot.play()
    print(f"game over at version {end['version']} after {bot.moves} moves of mine: {json.dumps(end['outcome'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
