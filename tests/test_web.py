"""The browser routes, in-process: forms create, join, start and act; errors come back as
readable text in place; HTML in names is escaped; a custom deck file is validated on upload."""

from __future__ import annotations

import json
import re

from app.bots.ratings import RATINGS
from app.games.vem_ai_troika import default_deck
from app.web.render import as_sentence
from tests.support.pages import HTML, HTMX, create_by_form, files_closed


async def test_lobby_lists_every_game_with_its_options(client):
    page = (await client.get("/", headers=HTML)).text
    for title in ("Troika", "TriATri", "Vem aí a Troika"):
        assert f"Create {title} room" in page
    assert 'name="opt_first_player"' in page and "seat 1" in page
    assert 'name="opt_deck"' in page and 'type="file"' in page


async def test_forms_create_join_start_and_play(client):
    r = await create_by_form(client, name="<script>x()</script>", first_player="0")
    assert r.status_code == 303, r.text[-300:]
    host_url = r.headers["location"]
    room_id = host_url.split("/")[2]
    page = (await client.get(host_url, headers=HTML)).text
    assert "<script>x()</script>" not in page and "&lt;script&gt;x()&lt;/script&gt;" in page
    assert f'ws-connect="/ws/rooms/{room_id}?token=' in page
    assert 'data-grace="60"' in page and "away for 60 seconds" in page  # the lobby's default grace
    watching = (await client.get(f"/rooms/{room_id}", headers=HTML)).text
    assert "data-grace" not in watching, "a spectator has no seat to hand over, so no grace"
    assert "Take a seat to chat." in watching  # (a seat is free)
    r = await client.post(f"/rooms/{room_id}/join", data={"name": "Bo"}, headers=HTML)
    assert r.status_code == 303 and "/seat/" in r.headers["location"]
    r = await client.post(host_url + "/start", headers=HTML)
    assert r.status_code == 200 and 'data-status="playing"' in r.text and 'id="flash"' in r.text
    watching = (await client.get(f"/rooms/{room_id}", headers=HTML)).text
    assert "Only the players can chat; you are watching." in watching and "Take a seat" not in watching
    page = (await client.get(host_url, headers=HTML)).text
    version = re.search(r'data-version="(\d+)"', page).group(1)
    assert "Your turn:" in page and version == "0"
    action = json.dumps({"type": "reveal", "tile": "unknown"})
    r = await client.post(host_url + "/act", data={"action": action, "version": version}, headers=HTMX)
    assert r.status_code == 200 and 'data-version="1"' in r.text
    assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 1


async def test_an_illegal_or_malformed_click_shows_the_reason_in_place(client):
    r = await create_by_form(client, seats="2")
    host_url = r.headers["location"]
    room_id = host_url.split("/")[2]
    await client.post(f"/rooms/{room_id}/join", data={"name": "Bo"}, headers=HTML)
    await client.post(host_url + "/start", headers=HTML)
    r = await client.post(host_url + "/act", data={"action": "{oops", "version": "0"}, headers=HTMX)
    assert r.status_code == 200 and ">That request was malformed.</div>" in r.text  # (the API's clause, as a sentence)
    bad = json.dumps({"type": "take_up", "value": 99})
    r = await client.post(host_url + "/act", data={"action": bad, "version": "0"}, headers=HTMX)
    assert r.status_code == 200 and 'class="flash shown"' in r.text
    assert (await client.get(f"/api/rooms/{room_id}/view")).json()["version"] == 0


async def test_a_foreign_seat_link_is_refused_with_a_page(client):
    r = await create_by_form(client)
    room_id = r.headers["location"].split("/")[2]
    page = await client.get(f"/rooms/{room_id}/seat/forged-token", headers=HTML)
    assert page.status_code == 403 and "holds no seat" in page.text and "<html" in page.text


async def test_deck_upload_is_validated_and_named_in_the_error(client):
    broken = default_deck()
    broken["groups"][3]["power"] = 9
    with files_closed():  # refused or taken, every upload's spool is closed
        files = {"opt_deck": ("mine.json", json.dumps(broken), "application/json")}
        r = await create_by_form(client, game="vem-ai-a-troika", files=files)
        assert r.status_code == 400 and "groups[3].power" in r.text
        files = {"opt_deck": ("mine.json", "{not json", "application/json")}
        r = await create_by_form(client, game="vem-ai-a-troika", files=files)
        assert r.status_code == 400 and "not valid JSON" in r.text
        files = {"opt_deck": ("mine.json", json.dumps(default_deck()), "application/json")}
        r = await create_by_form(client, game="vem-ai-a-troika", files=files, turn_timer="120")
        assert r.status_code == 303, r.text[-300:]
    # the room says its deck was uploaded, whatever its name (a changed copy of the default passed
    # as the default: a probe, 2026-12-07), and its turn timer, to a friend before the start
    page = (await client.get(r.headers["location"], headers=HTML)).text
    assert "uploaded deck: Troika Arena default deck" in page and "turn timer 120 s" in page


async def test_the_host_fills_seats_with_bots_from_the_waiting_room(client):
    r = await create_by_form(client, seats="3")
    host_url = r.headers["location"]
    room_id = host_url.split("/")[2]
    page = (await client.get(host_url, headers=HTML)).text
    assert page.count("+ strong bot") == 2 and page.count("+ random bot") == 2
    # each level with its Troika rating, weakest first; the random bot, the ladder's 0, without
    offered = re.findall(r"\+ (\w+) bot(?: <span class=\"rating\">Elo (\d+)</span>)?", page)[:3]
    ranked = sorted(RATINGS["troika"].items(), key=lambda r: r[1])
    assert offered == [(level, str(elo) if elo else "") for level, elo in ranked] and ranked[0] == ("random", 0)
    r = await client.post(host_url + "/bots", data={"seat": "2", "level": "strong"}, headers=HTML)
    assert r.status_code == 200 and "Strong bot 3" in r.text
    r = await client.post(host_url + "/bots", data={"seat": "2", "level": "random"}, headers=HTML)
    assert "is not free" in r.text
    r = await client.post(host_url + "/bots/2/remove", headers=HTML)
    assert "Strong bot 3" not in r.text
    # a host reading Portuguese seats a bot named in Portuguese, as they would name a player
    r = await client.post(
        host_url + "/bots", data={"seat": "2", "level": "expert"}, headers={**HTML, "cookie": "lang=pt-PT"}
    )
    assert r.status_code == 200 and "Bot especialista 3" in r.text
    assert (await client.get(f"/api/rooms/{room_id}")).json()["seats"][2]["name"] == "Bot especialista 3"
    assert (await client.post(host_url + "/bots/2/remove", headers=HTML)).status_code == 200
    guest = await client.post(f"/rooms/{room_id}/join", data={"name": "Bo"}, headers=HTML)
    guest_page = (await client.get(guest.headers["location"], headers=HTML)).text
    assert "+ strong bot" not in guest_page, "only the host sees the bot buttons"
    # Why Start is greyed out, in words a phone shows (a title shows only on hover); who starts.
    host_page = (await client.get(host_url, headers=HTML)).text
    assert re.search(r'disabled aria-describedby="start-why">Start the game</button>', host_page)
    why = '<span class="muted small" id="start-why">1 seat still free: a friend, or a bot, fills it</span>'
    assert why in host_page
    assert "starts the game once every seat is taken" not in host_page
    assert '<p class="muted" id="start-who">Ana starts the game once every seat is taken.</p>' in guest_page
    await client.post(host_url + "/bots", data={"seat": "2", "level": "random"}, headers=HTML)
    full = (await client.get(guest.headers["location"], headers=HTML)).text
    assert '<p class="muted" id="start-who">Every seat is taken: Ana starts the game.</p>' in full


async def test_a_click_resent_after_a_dropped_connection_is_applied_once(client):
    r = await create_by_form(client, seats="2", first_player="0")
    host_url = r.headers["location"]
    room_id = host_url.split("/")[2]
    await client.post(f"/rooms/{room_id}/join", data={"name": "Bo"}, headers=HTML)
    await client.post(host_url + "/start", headers=HTML)
    click = {"action": json.dumps({"type": "reveal", "tile": "unknown"}), "version": "0"}
    first = await client.post(host_url + "/act", data=click, headers=HTMX)
    again = await client.post(host_url + "/act", data=click, headers=HTMX)
    assert 'class="flash"' in first.text and 'class="flash"' in again.text, "no error either time"
    record = (await client.get(f"/api/rooms/{room_id}/view")).json()
    assert record["version"] == 1


def test_the_pages_gettext_says_what_jinjas_own_says():
    """``app.web.render.quick_gettext`` keeps each translation, but says exactly what Jinja's
    new-style gettext says: the translation as markup, variables escaped into it, ``%%`` read
    as ``%`` with or without variables."""
    import jinja2

    from app.i18n import translations
    from tests.support.rendering import RENDERER

    source = (
        '{{ _("Power") }}|{{ _("hand %(count)s/6", count="<b>") }}|{{ _("100%% sure") }}|'
        '{% trans name="<i>" %}{{ name }} wins!{% endtrans %}'
    )
    for lang, pages in RENDERER.pages.items():
        jinjas = jinja2.Environment(autoescape=True, extensions=["jinja2.ext.i18n"])
        jinjas.install_gettext_translations(translations(lang), newstyle=True)
        expected = jinjas.from_string(source).render()
        assert pages.env.from_string(source).render() == expected
        assert pages.env.from_string(source).render() == expected  # from what it kept
        assert "&lt;b&gt;" in expected and "100% sure" in expected
    assert RENDERER.pages["pt-PT"].env.from_string('{{ _("Power") }}').render() == "Poder"


def test_a_flashed_message_is_shown_as_a_sentence():
    assert as_sentence("that move is not legal now") == "That move is not legal now."
    assert as_sentence("Welcome back!") == "Welcome back!" and as_sentence("a new link:") == "A new link:"
    assert as_sentence("É a sua vez.") == "É a sua vez." and as_sentence("  ") == ""


async def test_the_rooms_head_names_the_options_not_at_their_default(client):
    """A friend who joins sees which game they join: Vem aí's advanced rules, who starts."""
    made = await client.post(
        "/api/rooms",
        json={"game": "vem-ai-a-troika", "seats": 3, "name": "Ana", "options": {"advanced": True, "first_player": 1}},
    )
    room_id = made.json()["room"]["id"]
    head = re.search(
        r'<header class="room-head.*?</header>', (await client.get(f"/rooms/{room_id}", headers=HTML)).text, re.S
    )
    shown = " ".join(re.sub(r"<[^>]+>", " ", head.group(0)).split())
    assert "· advanced rules · seat 2 starts round 1" in shown
    plain = await client.post("/api/rooms", json={"game": "vem-ai-a-troika", "seats": 3, "name": "Ana"})
    page = (await client.get(f"/rooms/{plain.json()['room']['id']}", headers=HTML)).text
    assert 'class="room-option"' not in page  # (the defaults: nothing to name)
    portuguese = await client.get(f"/rooms/{room_id}", headers={**HTML, "Accept-Language": "pt-PT"})
    assert "regras avançadas" in portuguese.text and "o lugar 2 começa a ronda 1" in portuguese.text


async def test_a_refused_deck_and_option_are_said_in_the_readers_language(client):
    """A deck's fault on a Portuguese page was said in English (a probe, 2026-12-07): the field's
    path stays as the file spells it, what is wrong with it is said in the page's language; the
    API, read by programs, keeps the English."""
    broken = default_deck()
    broken["groups"][3]["power"] = 9
    files = {"opt_deck": ("mine.json", json.dumps(broken), "application/json")}
    portuguese = {**HTML, "cookie": "lang=pt-PT"}
    data = {"game": "vem-ai-a-troika", "seats": "2", "name": "Ana", "turn_timer": "0"}
    r = await client.post("/rooms", data=data, files=files, headers=portuguese)
    assert r.status_code == 400 and "opções inválidas: groups[3].power: tem de ser um número inteiro de 0 a 4" in r.text
    del broken["leaders"][0]["table_action"]
    broken["groups"][3]["power"] = 1
    files = {"opt_deck": ("mine.json", json.dumps(broken), "application/json")}
    r = await client.post("/rooms", data={**data, "opt_advanced": "on"}, files=files, headers=portuguese)
    assert "leaders[0].table_action: o jogo avançado precisa da Ação de Mesa de cada Líder" in r.text
    files = {"opt_deck": ("mine.json", '{"name":\n  nope}', "application/json")}
    r = await client.post("/rooms", data=data, files=files, headers=portuguese)
    assert "o ficheiro mine.json não é JSON válido (linha 2, coluna 3)" in r.text  # (not the parser's English)
    body = {"game": "vem-ai-a-troika", "seats": 2, "name": "Ana", "options": {"deck": broken, "advanced": "yes"}}
    r = await client.post("/api/rooms", json=body, headers={"accept-language": "pt-PT"})
    assert r.status_code == 400 and r.json()["message"] == "invalid options: option 'advanced' must be true or false"
