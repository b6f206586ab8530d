"""The hostile-input probe's findings 20 to 24 (issue 28, point 8), each pinned.

20: an uploaded record's names and room id are checked as a room's own are (a 300 KB name made
a replay page of 80 MB), a replay page stays within a small multiple of its record's size, and
no uploaded text reaches the process-wide cache of named log lines, nor the renderer's cards. 21: a seat in a form's
path is strict digits, as in the API. 23: the forms refuse a post another site's page sent
(those that need no token, and a seat's), and let this site's own through. 24: a seat's pages (whose URL is the
credential) are never stored by a cache; the language cookie is Secure under https; the
invalid-host 400 carries the security headers.
"""

from __future__ import annotations

import json
import random

import httpx
import pytest

from app.rooms.replays import Replay
from tests.conftest import auth, create_started_room, play_random_moves, running_app
from tests.support.pages import EXPECTED, assert_secure_page

HTML = {"accept": "text/html"}
NEW_ROOM = {"game": "troika", "seats": "3", "name": "Ana"}
CROSS_SITE = [
    {"sec-fetch-site": "cross-site", "origin": "http://evil.example"},
    {"sec-fetch-site": "same-site", "origin": "http://other.arena.test"},
    {"sec-fetch-site": "cross-site"},
    {"origin": "http://evil.example"},  # a browser that sends no Sec-Fetch-Site
    {"origin": "null"},  # a sandboxed frame's form
]
SAME_SITE = [
    {"sec-fetch-site": "same-origin", "origin": "http://arena.test"},
    {"sec-fetch-site": "none"},  # typed by the user
    {"origin": "http://arena.test"},
    {},  # a program: no browser, no visitor's cookies to abuse
]


async def finished_record(client, game="triatri", seats=2, seed=5) -> dict:
    room, tokens = await create_started_room(client, game, seats)
    await play_random_moves(client, room, tokens, 3000, random.Random(seed), avoid=())
    return (await client.get(f"/api/rooms/{room}/record")).json()


async def upload(client, record: dict | bytes, headers=HTML) -> httpx.Response:
    text = record if isinstance(record, bytes) else json.dumps(record).encode()
    return await client.post("/replay", files={"record": ("game.json", text, "application/json")}, headers=headers)


async def test_an_uploaded_records_names_and_room_are_checked_as_a_rooms_own(client):
    record = await finished_record(client)
    cases = [
        ({"players": ["A" * 300_000, "B"]}, "the name of seat 0: name must be at most 24 characters"),
        ({"players": ["Ana", "x" * 25]}, "the name of seat 1: name must be at most 24 characters"),
        ({"players": ["Ana", "Bo\u0000b"]}, "the name of seat 1: name must contain only printable characters"),
        ({"players": ["Ana", "  Bob"]}, "the name of seat 1: name must be trimmed"),
        ({"players": ["Ana", ""]}, "the name of seat 1: name must not be empty"),
        ({"players": ["Ana", 7]}, "the name of seat 1: name must be text"),
        ({"players": ["Ana"]}, "players must list one name per seat"),
        ({"players": "Ana"}, "players must list one name per seat"),
        ({"room": "r" * 300_000}, "room must be a room id"),
        ({"room": "<b>x</b>"}, "room must be a room id"),
    ]
    for change, words in cases:
        r = await upload(client, {**record, **change})
        assert r.status_code == 400 and words in r.text, (words, r.text[-600:])
        assert len(r.content) < 20_000  # the refusal does not echo the name
    assert client.app.state.replays._uploaded == {}  # (inside: a refused upload must leave nothing held)
    for fine in ({"players": ["Ana Maria", "Strong bot 2"]}, {"players": ["Ana", None]}, {"room": None}):
        r = await upload(client, {**record, **fine})
        assert r.status_code == 303, (fine, r.text[-400:])


async def test_no_card_of_an_uploaded_record_is_kept_by_the_renderer(client):
    record = await finished_record(client, "vem-ai-a-troika", 2, seed=3)
    location = (await upload(client, record)).headers["location"].split("?")[0]
    cards = client.app.state.renderer.cards  # (inside: what is checked is the cache's content)
    cards.clear()
    for step in (0, len(record["actions"]) // 2, len(record["actions"])):
        page = await client.get(f"{location}?step={step}&as=everyone", headers=HTML)
        assert page.status_code == 200 and "vem-card" in page.text
    assert len(cards) == 0
    room, tokens = await create_started_room(client, "vem-ai-a-troika", 2)
    assert (await client.get(f"/rooms/{room}/seat/{tokens[0]}")).status_code == 200
    assert len(cards) > 0, "a room of this server's own keeps its cards"


async def test_a_replay_page_stays_within_a_small_multiple_of_its_record(client):
    """The probe's record (two names of 300 KB) is refused; with the largest names a record
    may hold, on every table of a step, the page stays within four times the record plus the
    page's own frame and up to five tables (100 KB), whatever step and viewpoint is asked for."""
    record = await finished_record(client, "vem-ai-a-troika", 3, seed=3)
    probe = {**record, "players": ["A" * 300_000, "B" * 300_000, "C"]}  # the probe's record
    for players in (probe["players"], ["W" * 24, "M" * 24, "Q" * 24]):
        text = json.dumps({**record, "players": players}).encode()
        answer = await upload(client, text)
        if answer.status_code == 400:
            continue  # refused: nothing is shown
        location, largest = answer.headers["location"].split("?")[0], 0
        for step in (0, len(record["actions"]) // 2, len(record["actions"])):
            for viewpoint in ("spectator", "everyone", "0"):
                page = await client.get(f"{location}?step={step}&as={viewpoint}", headers=HTML)
                assert page.status_code == 200
                largest = max(largest, len(page.content))
        assert largest < 4 * len(text) + 100_000, (largest, len(text))


def kept_texts(app) -> str:
    """Everything the server keeps of what it rendered and built (the renderer's cards and
    sections, the rooms' builds with their named log lines), as one text to search."""
    renderer, builds = app.state.renderer, app.state.payloads._built
    kept = [*renderer.cards.values(), *renderer.sections.own.values(), *renderer.sections.whole.values()]
    for built in builds.values():
        kept += [*built.texts.values(), *(line.decode() for line in (built.named or {}).values())]
    return "\n".join(map(str, kept))


async def test_no_uploaded_text_reaches_what_the_server_keeps_of_its_rooms(client):
    record = await finished_record(client)
    record["players"] = ["Uploaded Ana", "Uploaded Bo"]
    location = (await upload(client, record)).headers["location"].split("?")[0]
    room, tokens = await create_started_room(client, "triatri", 2)  # a room of this server ...
    await play_random_moves(client, room, tokens, 4, random.Random(1), avoid=())
    await client.get(f"/rooms/{room}/seat/{tokens[0]}", headers={**HTML, "cookie": "lang=pt-PT"})
    # (inside: what is checked is the content of the server's caches, which no public call shows)
    assert "Bruno" in kept_texts(client.app)  # ... whose names, lines and tables are kept
    for step in range(0, len(record["actions"]) + 1, 5):
        for viewpoint in ("spectator", "everyone"):
            for lang in ("en", "pt-PT"):
                headers = {**HTML, "cookie": f"lang={lang}"}
                page = await client.get(f"{location}?step={step}&as={viewpoint}", headers=headers)
                assert page.status_code == 200 and "Uploaded Ana" in page.text
    assert "Uploaded" not in kept_texts(client.app)
    assert Replay.of(record).names == {0: "Uploaded Ana", 1: "Uploaded Bo"}


@pytest.mark.parametrize("written", ["1.0", "+1", " 1", "1_0", "１", "1e0", "0x1", "one", "01", "-01"])
async def test_a_seat_in_a_form_path_is_strict_digits_as_in_the_api(client, written):
    created = await client.post("/rooms", data={"game": "troika", "seats": "3", "name": "Ana"}, headers=HTML)
    host = created.headers["location"]
    room_id = host.split("/")[2]
    token = host.split("/")[-1]
    await client.post(f"/rooms/{room_id}/join", data={"name": "Bo"}, headers=HTML)
    assert (await client.post(host + "/bots", data={"level": "random"}, headers=HTML)).status_code == 200
    before = (await client.get(f"/api/rooms/{room_id}")).json()["seats"]
    assert before[2]["bot"] == "random"
    for path in (f"/bots/{written}/remove", f"/reissue/{written}", f"/replace/{written}"):
        r = await client.post(host + path, headers=HTML)
        assert r.status_code in (400, 404), (path, r.status_code)  # 404: no route matches the text at all
        api = await client.delete(f"/api/rooms/{room_id}/seats/{written}", headers=auth(token))
        assert api.status_code in (400, 404) and r.status_code == api.status_code, (path, api.status_code)
    assert (await client.get(f"/api/rooms/{room_id}")).json()["seats"] == before
    assert (await client.post(host + "/bots/2/remove", headers=HTML)).status_code == 200  # the plain digit works
    assert (await client.get(f"/api/rooms/{room_id}")).json()["seats"][2]["bot"] is None


async def rooms_count(client) -> int:
    return len((await client.get("/api/rooms")).json())


async def test_the_token_less_forms_refuse_a_cross_site_post_and_let_this_sites_own_through(client):
    created = 0
    for headers in CROSS_SITE:
        r = await client.post("/rooms", data={**NEW_ROOM, "name": "Csrf"}, headers={**HTML, **headers})
        assert r.status_code == 403 and "only from this site" in r.text, headers
        assert_secure_page(r)
    assert await rooms_count(client) == 0
    for headers in SAME_SITE:
        r = await client.post("/rooms", data=NEW_ROOM, headers={**HTML, **headers})
        assert r.status_code == 303, (headers, r.text[-300:])
        created += 1
    assert await rooms_count(client) == created
    room_id = r.headers["location"].split("/")[2]
    for headers in CROSS_SITE:
        r = await client.post(f"/rooms/{room_id}/join", data={"name": "Csrf"}, headers={**HTML, **headers})
        assert r.status_code == 403, headers
        r = await client.post("/language", data={"lang": "pt-PT", "next": "/"}, headers={**HTML, **headers})
        assert r.status_code == 403 and "set-cookie" not in r.headers, headers
        r = await upload(client, b"{}", headers={**HTML, **headers})
        assert r.status_code == 403, headers
    seats = (await client.get(f"/api/rooms/{room_id}")).json()["seats"]
    assert [s["name"] for s in seats] == ["Ana", None, None]
    for name, headers in zip(("Bo", "Carla"), SAME_SITE[:2], strict=True):
        r = await client.post(f"/rooms/{room_id}/join", data={"name": name}, headers={**HTML, **headers})
        assert r.status_code == 303, headers
        r = await client.post("/language", data={"lang": "pt-PT", "next": "/"}, headers={**HTML, **headers})
        assert r.status_code == 303 and "lang=pt-PT" in r.headers["set-cookie"], headers
        assert (await upload(client, b"{}", headers={**HTML, **headers})).status_code == 400  # read, then refused


async def test_the_room_pages_join_sent_by_htmx_refuses_as_the_browsers_own_post_does(client):
    """The room page's join form, sent by htmx, answers a refusal with the page's message (200,
    X-Refused) and a seat with HX-Redirect to the seat's link; another site's htmx post is still
    refused before anything is read, and no refusal takes a seat (a name taken in another case,
    a character too long or thousands too long, or of spaces alone)."""
    htmx = {**HTML, "hx-request": "true"}
    room_id = (await client.post("/rooms", data=NEW_ROOM, headers=HTML)).headers["location"].split("/")[2]
    for headers in CROSS_SITE:
        r = await client.post(f"/rooms/{room_id}/join", data={"name": "Csrf"}, headers={**htmx, **headers})
        assert r.status_code == 403, headers
    for name in ("ANA", "x" * 25, "x" * 5000, "   "):
        r = await client.post(f"/rooms/{room_id}/join", data={"name": name}, headers=htmx)
        assert r.status_code == 200 and r.headers["x-refused"] == "1", name
        assert 'id="flash"' in r.text and "Traceback" not in r.text and "hx-redirect" not in r.headers, name
    assert [s["name"] for s in (await client.get(f"/api/rooms/{room_id}")).json()["seats"]] == ["Ana", None, None]
    r = await client.post(f"/rooms/{room_id}/join", data={"name": "Bo"}, headers=htmx)
    assert r.status_code == 204 and r.headers["hx-redirect"].startswith(f"/rooms/{room_id}/seat/")
    assert (await client.get(r.headers["hx-redirect"], headers=HTML)).status_code == 200
    assert [s["name"] for s in (await client.get(f"/api/rooms/{room_id}")).json()["seats"]] == ["Ana", "Bo", None]


async def test_a_seats_forms_refuse_a_cross_site_post_too(client):
    """A seat's forms carry its token in their path, which another site would have to know; still,
    a browser that says another site's page sent one is refused, and nothing changes: every POST
    route under a seat's link, as the app lists them (a new form is covered when it is added)."""
    created = await client.post("/rooms", data=NEW_ROOM, headers=HTML)
    host = created.headers["location"]
    room_id = host.split("/")[2]
    await client.post(f"/rooms/{room_id}/join", data={"name": "Bo"}, headers=HTML)
    before = (await client.get(f"/api/rooms/{room_id}")).json()
    paths = sorted(
        route.path
        for route in client.app.routes
        if "POST" in getattr(route, "methods", ()) and route.path.startswith("/rooms/{room_id}/seat/{token}/")
    )
    assert len(paths) >= 13, paths
    fields = {"level": "random", "text": "csrf", "action": '{"type": "pass"}', "version": "0"}
    for path in paths:
        url = path.format(room_id=room_id, token=host.split("/")[-1], bot_seat=1, target=1)
        for headers in CROSS_SITE:
            r = await client.post(url, data=fields, headers={**HTML, **headers})
            assert r.status_code == 403 and "only from this site" in r.text, (path, headers, r.status_code)
    assert (await client.get(f"/api/rooms/{room_id}")).json() == before
    assert (await client.get(f"/api/rooms/{room_id}/chat")).json()["messages"] == []
    r = await client.post(host + "/bots", data={"level": "random"}, headers={**HTML, **SAME_SITE[0]})
    assert r.status_code == 200 and "X-Refused" not in r.headers, "this site's own page still seats a bot"


async def test_an_origin_listed_in_allowed_origins_may_post_the_forms(sqlite_url):
    async with running_app(sqlite_url, allowed_origins="https://play.example.org") as client:
        headers = {**HTML, "sec-fetch-site": "cross-site", "origin": "https://play.example.org"}
        r = await client.post("/rooms", data={"game": "troika", "seats": "3", "name": "Ana"}, headers=headers)
        assert r.status_code == 303
        headers["origin"] = "https://play.example.org.evil.example"
        r = await client.post("/rooms", data={"game": "troika", "seats": "3", "name": "Ana"}, headers=headers)
        assert r.status_code == 403


async def test_a_seats_pages_and_the_redirects_to_them_are_never_stored(client):
    r = await client.post("/rooms", data={"game": "troika", "seats": "2", "name": "Ana"}, headers=HTML)
    assert r.status_code == 303 and r.headers["cache-control"] == "no-store"
    host = r.headers["location"]
    room_id = host.split("/")[2]
    r = await client.post(f"/rooms/{room_id}/join", data={"name": "Bo"}, headers=HTML)
    assert r.status_code == 303 and r.headers["cache-control"] == "no-store"
    seat_answers = [
        await client.get(host, headers=HTML),
        await client.get(host + "/log", headers=HTML),
        await client.post(host + "/chat", data={"text": "hi"}, headers=HTML),
        await client.post(host + "/start", headers=HTML),
        await client.get(host.replace("/seat/", "/seat/x"), headers=HTML),  # a wrong link: 403, not stored either
    ]
    for answer in seat_answers:
        assert answer.headers["cache-control"] == "no-store", answer.url
        assert_secure_page(answer)
    for public in ("/", f"/rooms/{room_id}", "/rules"):
        assert "cache-control" not in (await client.get(public, headers=HTML)).headers, public


async def test_the_language_cookie_is_secure_when_served_over_https(sqlite_url):
    async with running_app(sqlite_url) as client:
        r = await client.post("/language", data={"lang": "pt-PT", "next": "/"}, headers=HTML)
        assert "secure" not in r.headers["set-cookie"].lower()
        client.base_url = httpx.URL("https://arena.test")
        r = await client.post("/language", data={"lang": "pt-PT", "next": "/"}, headers=HTML)
        cookie = r.headers["set-cookie"].lower()
        assert "; secure" in cookie and "httponly" in cookie and "samesite=lax" in cookie


async def test_the_invalid_host_answer_carries_the_security_headers(client):
    for path in ("/", "/api/games", "/rooms/x/seat/y"):
        r = await client.get(path, headers={**HTML, "host": "evil.example"})
        assert r.status_code == 400 and r.text == "Invalid host header"
        assert {k: r.headers.get(k) for k in EXPECTED} == EXPECTED
        assert "default-src 'self'" in r.headers["content-security-policy"]
