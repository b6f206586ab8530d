"""The room's own sections of a table, around the game's: the table's state, the room's head,
presence and turn timer above it; the seats while the room waits for players (or is closed);
why an abandoned game closed, play again, the review of one's moves, the coach's hint (in a
room with hints), the autopilot, the log, the host's "close this game" and the fair-deal panel
around a game in play or over."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.web.sections import AFTER, HEAD, LEAD, Part

if TYPE_CHECKING:
    from app.web.tables import Seen

ROOM = "fragments/sections.html"
SHOWN = ("playing", "finished", "abandoned")  # the statuses whose page shows the game's table


def parts(t: Seen, game_parts: list[Part]) -> list[Part]:
    p, r, seat = t.p, t.p["room"], t.seat
    status = p["status"]
    seat_url = f"/rooms/{r['id']}/seat/{t.token}" if t.token else None
    host = seat is not None and r["seats"][seat]["host"]
    state = {"version": p["version"], "status": status, "your_turn": p["your_turn"]}
    head = {k: r[k] for k in ("game", "id", "listed", "seed_hash", "hints", "options", "turn_seconds")} | {
        "status": status
    }
    listed = [
        Part("table-state", HEAD, ROOM, "state", state),
        Part("room-head", HEAD, ROOM, "head", head),
        Part("presence", HEAD, ROOM, "presence", presence(r, status, p["connected"], seat, seat_url if host else None)),
        Part("turn-timer", HEAD, ROOM, "timer", timer(t)),
    ]
    if status not in SHOWN or not game_parts:
        return [*listed, Part("seats", AFTER, ROOM, "seats", waiting(t, seat_url, host))]
    if status == "abandoned":
        listed.append(
            Part("closed-note", LEAD, ROOM, "closed_note", {"status": status, "closed_reason": r["closed_reason"]})
        )
    if status == "finished":
        listed.append(Part("play-again", LEAD, ROOM, "play_again", {"seat_url": seat_url, "next_room": r["next_room"]}))
    if seat_url and status in ("finished", "abandoned"):
        listed.append(Part("review", LEAD, ROOM, "review", {"seat_url": seat_url}))
    if seat_url and status == "playing" and r["hints"]:
        coach = {"seat_url": seat_url, "your_turn": p["your_turn"], "version": p["version"]}
        listed.append(Part("coach", LEAD, ROOM, "coach", coach))
    listed += game_parts
    if seat is not None and status == "playing":
        bot = r["seats"][seat]["bot"]
        # (first on the table while a bot plays the seat: its "Take my seat back" above the table's "Your turn")
        listed.append(Part("autopilot", LEAD if bot else AFTER, ROOM, "autopilot", {"seat_url": seat_url, "bot": bot}))
    listed.append(log(t, f"{seat_url}/log" if seat_url else f"/rooms/{r['id']}/log"))
    if host and status == "playing":
        listed.append(Part("close-room-panel", AFTER, ROOM, "close_panel", {"status": status, "seat_url": seat_url}))
    if status in ("finished", "abandoned"):
        fairness = {k: r[k] for k in ("id", "seed_hash", "seed")} | {"seat": seat}  # (a seat's replay: its own view)
        listed.append(Part("fairness", AFTER, ROOM, "fairness", fairness))
    return listed


def log(t: Seen, url: str) -> Part:
    """The log's last lines, newest first, each numbered as in the whole log and a section of
    its own (a change adds lines at the head and drops the oldest), and the whole log's link."""
    total, entries = t.p["log_total"], t.p["log"]
    lines = tuple(
        Part(f"log-{n}", AFTER, ROOM, "log_line", {"n": n, "text": t.said(entry)})
        for n, entry in zip(range(total, 0, -1), reversed(entries), strict=False)
    )
    listing = Part("log-lines", AFTER, ROOM, "log_lines", {"lines": [line.id for line in lines]}, lines, "log-lines")
    more = Part("log-more", AFTER, ROOM, "log_more", {"total": total, "url": url})
    return Part("log", AFTER, ROOM, "log", {}, (listing, more))


def presence(
    r: dict[str, Any], status: str, connected: list[int], seat: int | None, host_url: str | None
) -> dict[str, Any]:
    """Who is connected (a bot with no human behind it always is, and so is the page's own seat,
    served before its socket opens), and the host's buttons for an absent player: let a bot
    play (in play) and a new link (also while waiting)."""
    players = []
    for s in r["seats"]:
        if not s["name"]:
            continue
        online = s["seat"] in (*connected, seat) or bool(s["bot"] and not s["human"])
        away_human = host_url is not None and not online and s["human"]
        players.append(
            {
                "seat": s["seat"],
                "name": s["name"],
                "bot": s["bot"],
                "stand_in": s["stand_in"],  # (the turn timer's: the seat's time ran out)
                "online": online,
                "replace": away_human and status == "playing" and not s["bot"],
                "reissue": away_human and status in ("open", "playing") and s["seat"] != seat,
            }
        )
    return {"players": players, "host_url": host_url}


def timer(t: Seen) -> dict[str, Any]:
    """The turn timer's deadline and the players it runs for: the awaited seats a person plays
    (a bot's seat, its own or a stand-in's, moves without it: the banner named bots too)."""
    r = t.p["room"]
    played_by_bots = {s["seat"] for s in r["seats"] if s["bot"]}
    players = [t.names[s] for s in t.p["to_act"] if s not in played_by_bots]
    if not r["turn_deadline"] or not players:
        return {}
    return {"deadline": r["turn_deadline"], "seconds": r["turn_seconds"], "players": players}


def waiting(t: Seen, seat_url: str | None, host: bool) -> dict[str, Any]:
    r, status = t.p["room"], t.p["status"]
    free = sum(1 for s in r["seats"] if s["name"] is None)
    held_for = [s["held_for"] for s in r["seats"] if s["held_for"]] if status == "open" else []
    return {
        "id": r["id"],
        "game": r["game"],
        "seat": t.seat,
        "seat_url": seat_url,
        "host": host,
        "hosting": host and status == "open",
        "status": status,
        "free": free,
        "held_for": held_for,
        "host_name": next((s["name"] for s in r["seats"] if s["host"]), None),
        "held_until": r["held_until"] if held_for else None,
        "closed_reason": r["closed_reason"],
        "seats": [{k: s[k] for k in ("seat", "name", "host", "bot", "human", "held_for")} for s in r["seats"]],
    }
