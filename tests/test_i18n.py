"""The two languages: the Portuguese catalog translates every message the code and templates say
(extracted afresh, as README "Translations" does, so a message missing from the catalog fails
here), with the same placeholders; the compiled .mo says what the .po says; a reader's language
comes from the ``lang`` cookie, else Accept-Language; the header's switch remembers a choice."""

from __future__ import annotations

import gettext
import json
import random
import re
import tomllib
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import _parse_mappings_from_toml
from babel.messages.pofile import read_po
from markupsafe import escape

from app.games.base import Message, say, spoken
from app.games.registry import GAMES
from app.games.vem_ai_troika.deck import bonuses_message
from app.games.vem_ai_troika.effects import effect_message
from app.i18n import LOCALES, choose, from_accept_language, translations
from app.web.render import CompiledTemplates, Renderer
from tests.conftest import create_started_room
from tests.support.rendering import room_fragment

ROOT = Path(__file__).resolve().parents[1]
PO = LOCALES / "pt_PT" / "LC_MESSAGES" / "messages.po"
MO = PO.with_suffix(".mo")
PERCENT = re.compile(r"%\((\w+)\)[sd]")
BRACES = re.compile(r"\{(\w+)\}")
OMITTED = {"gloss"}  # placeholders a translation may leave out


def catalog():
    with PO.open("rb") as po:
        return read_po(po, locale="pt_PT")


def texts(value) -> list[str]:
    return list(value) if isinstance(value, tuple) else [value]


def key(message_id: str | tuple[str, ...], context: str | None) -> tuple[str | None, str]:
    return context, message_id if isinstance(message_id, str) else message_id[0]


def extracted() -> set[tuple[str | None, str]]:
    """Every message the code and templates mark (its context and id), by the mapping in
    pyproject.toml."""
    with (ROOT / "pyproject.toml").open("rb") as config:
        method_map, options_map = _parse_mappings_from_toml(config, "pyproject.toml", style="pyproject.toml")
    keywords = {"_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "say": None, "N_": None}
    found = extract_from_dir(str(ROOT), method_map, options_map, keywords=keywords)
    return {key(message, context) for _, _, message, _, context in found}


def test_every_extracted_message_is_in_the_catalog():
    assert tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["babel"]["mappings"]
    ids = {key(m.id, m.context) for m in catalog() if m.id}
    missing = sorted(extracted() - ids)
    assert not missing, f"run the README's 'Translations' steps; not in the catalog: {missing[:10]}"


def test_every_message_has_a_portuguese_translation_with_the_same_placeholders():
    """Every placeholder of a translation is one of its English (else formatting it fails), and
    none is left out but the English gloss of a Portuguese name, which a Portuguese reader
    does not need."""
    untranslated, mismatched = [], []
    messages = [m for m in catalog() if m.id]
    assert len(messages) > 50
    for message in messages:
        if message.fuzzy or not all(texts(message.string)):
            untranslated.append(message.id)
            continue
        for pattern in (PERCENT, BRACES):
            wanted = {name for text in texts(message.id) for name in pattern.findall(text)}
            found = [set(pattern.findall(text)) for text in texts(message.string)]
            if any(names - wanted for names in found) or wanted - set().union(*found) - OMITTED:
                mismatched.append(message.id)
    assert not untranslated, f"no Portuguese for: {untranslated[:10]}"
    assert not mismatched, f"placeholders differ in: {mismatched[:10]}"


def test_no_message_counts_with_a_plural_in_brackets():
    """A count is said so that it reads right whatever it is ("Sets: 0", "1 of the 2 seats still free"),
    never with "(s)" tacked on ("0 set(s)", the TriATri end-of-game line) in either language."""
    bracketed = re.compile(r"\w\((s|es)\)")
    found = [m.id for m in catalog() if m.id and any(bracketed.search(t) for t in (*texts(m.id), *texts(m.string)))]
    assert not found, found


def test_portuguese_quotes_with_guillemets():
    """European Portuguese quotes «so»: the review said “Pôr verde 7 …” · melhor: «Pôr …»,
    one move in English quotes beside the other in guillemets (a player's probe, 2026-12-07)."""
    quoted = [m.id for m in catalog() if m.id and any(q in t for t in texts(m.string) for q in "“”")]
    assert not quoted, quoted
    assert any("«" in t for m in catalog() if m.id for t in texts(m.string)), "no guillemets: this proves nothing"


def test_a_list_of_names_is_never_the_subject_of_a_portuguese_verb_in_the_singular():
    """``%(names)s`` may be several players ("Ana, Bruno"): the Portuguese says it without a verb
    that agrees with it ("à espera de Ana, Bruno para comprometer ..."): "à espera de que
    %(names)s comprometa" was wrong for two or more, and "à espera que %(names)s digam" for one."""
    said = [m.string for m in catalog() if m.id and "%(names)s" in str(m.id) and m.string]
    assert said, "no message lists names: this test would prove nothing"
    assert [s for s in said if "que %(names)s" in s] == []  # ("à espera que Ana digam" was wrong for one)


def test_the_compiled_catalog_is_the_po_file():
    with MO.open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    for message in catalog():
        if message.id and isinstance(message.id, str):
            said = compiled.pgettext(message.context, message.id) if message.context else compiled.gettext(message.id)
            assert said == message.string, f"recompile: {message.id!r}"
    assert translations("pt-PT").gettext("Start the game") == "Começar o jogo"


@pytest.mark.parametrize(
    ("cookie", "header", "chosen"),
    [
        (None, None, "en"),
        (None, "pt-PT,pt;q=0.9,en;q=0.8", "pt-PT"),
        (None, "pt-BR", "pt-PT"),
        (None, "en-GB,en;q=0.9,pt;q=0.8", "en"),
        (None, "fr-FR, pt;q=0.5, en;q=0.4", "pt-PT"),
        (None, "pt;q=0, en;q=0.1", "en"),
        (None, "pt;q=abc, de", "en"),
        ("en", "pt-PT", "en"),
        ("pt-PT", "en", "pt-PT"),
        ("xx", "pt", "pt-PT"),
    ],
)
def test_the_readers_language(cookie, header, chosen):
    assert choose(cookie, header) == chosen


def test_a_huge_accept_language_is_read_in_bounded_time():
    assert from_accept_language("de;q=0.1," * 100_000) is None


def test_messages_are_spoken_in_english_or_translated():
    message = say("Seat {seat} says {what}.", seat=2, what=say("Chat"))
    assert spoken(message) == "Seat 2 says Chat."
    pt = translations("pt-PT").gettext
    assert spoken(message, pt) == "Seat 2 says Conversa."  # the id itself is not in the catalog


async def test_pages_follow_accept_language_and_the_switch_remembers_a_choice(client):
    english = await client.get("/")
    assert '<html lang="en">' in english.text and "New room" in english.text
    portuguese = await client.get("/", headers={"Accept-Language": "pt-PT,pt;q=0.9"})
    assert '<html lang="pt-PT">' in portuguese.text and "Nova sala" in portuguese.text
    assert "New room" not in portuguese.text
    assert portuguese.headers["content-language"] == "pt-PT"
    assert "Accept-Language" in portuguese.headers["vary"]

    switched = await client.post("/language", data={"lang": "pt-PT", "next": "/rules"})
    assert switched.status_code == 303 and switched.headers["location"] == "/rules"
    assert "lang=pt-PT" in switched.headers["set-cookie"]
    rules = await client.get("/rules", headers={"Accept-Language": "en"})
    assert '<html lang="pt-PT">' in rules.text and "Regras" in rules.text

    back = await client.post("/language", data={"lang": "en", "next": "//evil.example/x"})
    assert back.status_code == 303 and back.headers["location"] == "/"
    refused = await client.post("/language", data={"lang": "klingon"})
    assert refused.status_code == 400
    assert "lang=klingon" not in refused.headers.get("set-cookie", "")


def visible_text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def table_text(html: str) -> str:
    """The visible text of a room fragment without its log (the engines' lines: tested apart)."""
    return visible_text(html.split('<section class="panel log"')[0])


@pytest.mark.parametrize(
    ("game", "seats", "english", "portuguese"),
    [
        ("troika", 3, ["Face-up tiles on the table", "Your hand", "Tokens:"], ["Peças viradas para cima", "A sua mão"]),
        (
            "vem-ai-a-troika",
            3,
            ["Choose your Leader", "Treasury", "Group pile", "Power"],
            ["Escolha o seu Líder", "Tesouro"],
        ),
    ],
)
async def test_a_table_renders_in_the_readers_language(client, game, seats, english, portuguese):
    room_id, tokens = await create_started_room(client, game, seats)
    seat_page = f"/rooms/{room_id}/seat/{tokens[0]}"
    in_english = table_text((await client.get(seat_page, headers={"Accept-Language": "en"})).text)
    in_portuguese = table_text((await client.get(seat_page, headers={"Accept-Language": "pt-PT"})).text)
    assert all(phrase in in_english for phrase in english)
    assert not [phrase for phrase in english if phrase in in_portuguese]
    assert all(phrase in in_portuguese for phrase in portuguese)


def message_ids(message: Message) -> list[str]:
    """The id of ``message`` and of every message among its arguments."""
    nested = [v for value in message["args"].values() for v in (value if isinstance(value, list) else [value])]
    return [message["msg"], *(i for v in nested if isinstance(v, dict) for i in message_ids(v))]


@pytest.mark.parametrize(
    ("slug", "options"), [(slug, {}) for slug in sorted(GAMES)] + [("vem-ai-a-troika", {"advanced": True})]
)
def test_every_message_a_game_says_has_a_portuguese_translation(slug, options):
    """Random games to the end: every log line and every button label, nested messages too,
    is a message of the catalog (so translated, by the test above), never a text built on the
    fly."""
    game, translated = GAMES[slug], {m.id for m in catalog() if m.id and isinstance(m.id, str)}
    said: set[str] = set()
    kinds: set[str] = set()  # the kinds of move offered
    for index in range(4):
        r = random.Random(index)
        state = game.setup(3, options, f"i18n-{index}")
        while game.outcome(state) is None:
            seat = r.choice(sorted(game.to_act(state)))
            legal = game.legal_actions(state, seat)
            kinds.update(action["type"] for action in legal)
            said.update(i for action in legal for i in message_ids(game.label(action, state)))
            state = game.apply(state, seat, r.choice(legal))
        said.update(i for entry in state["log"] for i in message_ids(entry))
    assert len(said) >= 2 * len(kinds), "fewer messages than a label and a log line per kind of move"
    assert not sorted(said - translated)


async def test_the_log_is_said_in_the_readers_language_with_the_players_names(client):
    room_id, tokens = await create_started_room(client, "troika", 3)
    view = (await client.get(f"/api/rooms/{room_id}/view")).json()
    first = view["room"]["seats"][view["view"]["first_player"]]["name"]
    seat_page = (await client.get(f"/rooms/{room_id}/seat/{tokens[0]}", headers={"Accept-Language": "pt-PT"})).text
    log = visible_text(seat_page.split('<section class="panel log"')[1])
    assert f"Começa a ronda 1: {first} começa" in log and "Recebe um" in log
    assert "Round 1 begins" not in log and "Seat " not in log
    api_log = (await client.get(f"/api/rooms/{room_id}/view", headers={"Accept-Language": "pt-PT"})).json()["log"]
    assert api_log[0]["text"].startswith(f"Round 1 begins: {first} starts")  # the API stays English


RULES = ROOT / "templates" / "rules"
TRANSLATED_RULES = ["troika.html", "triatri.html", "vem-ai-a-troika.html"]
RULING = re.compile(r"<dt>([A-Z]\d+)\b")
ANCHOR = re.compile(r'\bid="([^"]+)"')


@pytest.mark.parametrize("name", TRANSLATED_RULES)
def test_a_rules_page_has_its_portuguese_with_the_same_rulings_and_sections(name):
    """A rules page is written in Portuguese as a whole (templates/rules/pt-PT): it cites the
    same rulings, keeps the same anchors and has as many sections as the English page."""
    english, portuguese = (RULES / name).read_text(), (RULES / "pt-PT" / name).read_text()
    assert RULING.findall(portuguese) == RULING.findall(english)
    assert ANCHOR.findall(portuguese) == ANCHOR.findall(english)
    for tag in ("<h2", "<h3", "<dt>", "<li", "<table"):
        assert portuguese.count(tag) == english.count(tag), tag


async def test_the_rules_pages_follow_the_readers_language(client):
    portuguese = (await client.get("/rules/troika", headers={"Accept-Language": "pt-PT"})).text
    assert "Chamar &#34;Troika!&#34;" in portuguese or 'Chamar "Troika!"' in portuguese
    assert "Calling" not in portuguese and '<html lang="pt-PT">' in portuguese
    english = (await client.get("/rules/troika", headers={"Accept-Language": "en"})).text
    assert 'Calling "Troika!"' in english and "Chamar" not in english


async def test_triatris_colour_circle_shows_the_tables_symbols_not_english_initials(client):
    """The circle of colours on TriATri's rules page showed R, G and B, English initials that a
    Portuguese reader's "vermelho" and "verde" would both make V: it shows the fire, wood and
    water of the table's own cards, in both languages."""
    for language in ("en", "pt-PT"):
        page = (await client.get("/rules/triatri", headers={"Accept-Language": language})).text
        circle = re.findall(r'<span class="card card-(red|green|blue)">(.*?)</span>', page, re.S)[:3]
        assert [colour for colour, _ in circle] == ["red", "green", "blue"], language
        assert all(shown.startswith('<svg class="suit"') for _, shown in circle), language


async def test_the_vem_ai_card_list_and_an_events_text_follow_the_readers_language(client):
    page = (await client.get("/rules/vem-ai-a-troika/cards", headers={"Accept-Language": "pt-PT"})).text
    assert "Vem aí a Troika: as cartas" in page and "O jogo acaba depois de resolvido este Evento." in page
    assert "The game ends once" not in page
    assert "que controla" in page and "you control" not in page  # the variable values, the card actions
    english = (await client.get("/rules/vem-ai-a-troika/cards")).text
    assert "The game ends once this Event has been resolved." in english


def test_a_payment_reads_with_its_to_joined_and_place_the_verb_is_not_place_the_rank():
    """A payment's "to" is said with its payee, so Portuguese joins the two ("ao Tesouro", never
    "a o Tesouro"); the English reads as before. Vem aí's "Place" (a card on the table) is a
    verb, told from a results table's "Place" by its context ("Colocar", not "Lugar")."""
    catalog = translations("pt-PT")
    assert (catalog.pgettext("verb", "Place"), catalog.gettext("Place")) == ("Colocar", "Lugar")
    pt = catalog.gettext
    to_treasury = effect_message({"do": "pay", "who": "all", "amount": 1})
    to_government = effect_message({"do": "pay", "who": "all", "amount": 2, "to": "government"})
    assert spoken(to_treasury) == "Every player pays 1 Mega-Euro to the Treasury."
    assert spoken(to_government) == "Every player pays 2 Mega-Euro to the Government."
    assert spoken(to_treasury, pt).endswith("paga 1 Mega-Euro ao Tesouro.")
    assert spoken(to_government, pt).endswith("paga 2 Mega-Euro ao Governo.")


async def test_a_refusal_is_said_in_the_readers_language(client):
    room_id, tokens = await create_started_room(client, "troika", 3, options={"first_player": 0})
    act = f"/rooms/{room_id}/seat/{tokens[0]}/act"
    form = {"action": '{"type": "pass"}', "version": "0"}
    portuguese = (await client.post(act, data=form, headers={"Accept-Language": "pt-PT", "HX-Request": "true"})).text
    assert ">Primeiro vire para cima uma peça virada para baixo" in portuguese
    english = (await client.post(act, data=form, headers={"Accept-Language": "en", "HX-Request": "true"})).text
    assert ">First turn a face-down tile face up" in english
    missing = await client.get("/rooms/nope", headers={"Accept-Language": "pt-PT", "Accept": "text/html"})
    assert missing.status_code == 404 and "essa sala não existe" in missing.text


async def test_the_advanced_cards_actions_read_in_the_readers_language(client):
    room_id, tokens = await create_started_room(client, "vem-ai-a-troika", 3, options={"advanced": True})
    # inside on purpose: the cards' own action and bonus messages are in the game's deck; the view has them spoken
    info, live = await client.app.state.rooms.game_state(room_id)
    deck, pt = live.state["deck"], translations("pt-PT").gettext
    in_portuguese = room_fragment(info, live, 0, tokens[0], lang="pt-PT")
    in_english = room_fragment(info, live, 0, tokens[0])
    hands = [live.state["deck"]["groups"][gid]["hand_action"] for gid in live.state["players"][0]["hand"]]
    leaders = [deck["leaders"][lid]["table_action"] for lid in live.state["players"][0]["offer"]]
    for action in hands + leaders:
        english = spoken(json.loads(action["said"]))
        assert english == action["text"] and escape(english) in in_english
        assert escape(spoken(json.loads(action["said"]), pt)) in in_portuguese
        assert escape(english) not in in_portuguese
    cards = [deck["groups"][gid] for gid in live.state["players"][0]["hand"]]
    cards += [deck["leaders"][lid] for lid in live.state["players"][0]["offer"]]
    varied = [bonuses_message(card) for card in cards if card.get("variable")]
    for said in varied:
        assert escape(spoken(said)) in in_english and escape(spoken(said, pt)) in in_portuguese


def test_a_card_with_several_variable_values_says_them_joined_by_semicolons():
    card = {
        "variable": [
            {"adds": "power", "amount": 1, "per": "colour", "of": "blue"},
            {"adds": "votes", "amount": 2, "per": "named", "of": "Juízes"},
        ]
    }
    said = bonuses_message(card)
    assert spoken(said) == "+1 Power per blue Group you control; +2 Votes if you control Juízes"
    assert spoken(said, translations("pt-PT").gettext) == (
        "+1 Poder por cada Grupo (azul) que controla; +2 Votos se controlar Juízes"
    )
    assert bonuses_message({}) is None


def test_a_template_is_compiled_once_for_every_language(monkeypatch):
    """The languages' environments share their compiled templates (``CompiledTemplates``): the
    second language loads the first's code, compiling nothing, and still speaks its own words."""
    compiled = CompiledTemplates()
    renderer = Renderer(compiled=compiled)
    english = renderer.fragment("en", "fragments/chat_log.html", messages=[], seat=None)
    kept = dict(compiled.codes)
    assert kept, "the first language's compile is kept"

    def compile_again(*args, **kwargs):
        raise AssertionError("a template was compiled again for a second language")

    monkeypatch.setattr(renderer.env("pt-PT"), "compile", compile_again)
    portuguese = renderer.fragment("pt-PT", "fragments/chat_log.html", messages=[], seat=None)
    assert "No messages yet." in english and "Ainda não há mensagens." in portuguese
    assert compiled.codes == kept


@pytest.mark.parametrize(
    ("lang", "names", "said"),
    [
        ("pt-PT", ["Ana", "Zé", "Rita"], "Ana, Zé e Rita"),
        ("pt-PT", ["Ana", "Zé"], "Ana e Zé"),
        ("en", ["Ana", "Zé", "Rita"], "Ana, Zé and Rita"),
        ("en", ["Ana"], "Ana"),
        ("en", ["<b>"], "&lt;b&gt;"),
    ],
)
def test_names_in_a_sentence_end_with_and_in_the_readers_language(lang, names, said):
    """ "à espera de Ana, Zé, Rita" read as an unfinished list (a probe, 2026-12-07)."""
    env = Renderer().env(lang)
    assert env.from_string("{{ names | and_list }}").render(names=names) == said
    seated = env.from_string('{{ seats | and_list("strong", names) }}').render(seats=[2, 0], names={0: "A&B", 2: "Eva"})
    assert seated == f"<strong>Eva</strong> {'e' if lang == 'pt-PT' else 'and'} <strong>A&amp;B</strong>"


def test_one_loose_gem_is_worth_in_the_singular_in_portuguese():
    env = Renderer().env("pt-PT")
    worth = '{{ ngettext("worth", "worth", n) }}'
    assert [env.from_string(worth).render(n=n) for n in (1, 2)] == ["vale", "valem"]


async def test_a_missing_page_is_said_in_the_readers_language(client):
    r = await client.get("/rules/vem-ai-a-troika-cards", headers={"accept": "text/html", "cookie": "lang=pt-PT"})
    assert r.status_code == 404 and "esta página não existe" in r.text.lower() and "no such page" not in r.text
    r = await client.get("/api/nothing-here", headers={"accept-language": "pt-PT"})
    assert r.json() == {"error": "not_found", "message": "no such page or call"}  # (the API speaks English)
