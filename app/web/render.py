"""Rendering of pages and fragments, in the reader's language: the app's :class:`Renderer`.

A room's table is built from the seat's payload by ``app.web.tables`` (its sections, each
rendered from inputs made in Python) with the renderer's environments, and what it renders is
kept in its bounded caches (cards, sections); the chat log has its own small fragments,
swapped in out of band. The renderer is a service like the others: ``create_app`` makes one
(``app.state.renderer``), and nothing here is kept at module level but constants.

Every text is rendered in the reader's language (``app.i18n``): each language has its own
Jinja environment with the i18n extension and that language's gettext translations installed,
so a template's ``_()`` and ``{% trans %}`` cost one catalog lookup and nothing per request.
The engines' messages (log lines, action labels) are shown through ``said``: their English text
as the payload has it, or their translation.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import jinja2
import orjson
from cachetools import LRUCache
from fastapi import Request
from fastapi.responses import Response
from fastapi.templating import Jinja2Templates
from jinja2 import pass_context
from jinja2.runtime import Context, Macro
from markupsafe import Markup
from starlette.requests import HTTPConnection

from app.bots import ratings
from app.files import project_file
from app.games.base import Message, say, signed, spoken
from app.games.registry import ENTRIES, GAMES
from app.i18n import COOKIE, ENGLISH, LANGUAGES, choose, translations
from app.reading import canonical_json
from app.web.sections import Kept, slot

TEMPLATES_DIR = project_file("templates")
# where templates are looked for: the app's, then those of each game kept outside it
TEMPLATE_DIRS = (TEMPLATES_DIR, *(entry.templates for entry in ENTRIES.values() if entry.templates))
CARDS_HELD = 4096  # distinct (template, macro, arguments, card values, language) renders kept


def quick_gettext(catalog: gettext.NullTranslations) -> Callable[..., Markup]:
    """Jinja's new-style ``gettext`` (and ``_``) for an autoescaping environment, as Jinja's own
    does it (the translation is markup, the variables are escaped into it), with each message's
    translation looked up once and kept: a table render says a few hundred messages, and Jinja's
    own path (a context call, a lookup and a Markup formatting for each) was a third of the
    render's time (issue 14's profile)."""
    translated: dict[str, Markup] = {}  # message -> its translation, as markup
    plain: dict[str, Markup] = {}  # message -> what it says with no variables

    def translate(message: str, /, **variables: Any) -> Markup:
        if not variables and message in plain:
            return plain[message]
        text = translated.get(message)
        if text is None:
            text = translated[message] = Markup(catalog.gettext(message))
        if variables:
            return text % variables
        said = plain[message] = text % {}
        return said

    return translate


RENDERING: ContextVar[list[Context] | None] = ContextVar("rendering", default=None)
KEEPING_CARDS: ContextVar[bool] = ContextVar("keeping_cards", default=True)


@contextmanager
def uncached() -> Iterator[None]:
    """Within this block (in this task), no card rendered is kept in the renderer's memo
    (:meth:`Renderer.memo`): a replay's, whose record may be uploaded, its deck a stranger's."""
    reset = KEEPING_CARDS.set(False)
    try:
        yield
    finally:
        KEEPING_CARDS.reset(reset)


class ReleasingTemplate(jinja2.Template):
    """A template whose render lets go of its contexts when it ends, so that what it was given
    is freed at once. Jinja's macros reach their context (for the globals they read), and the
    context holds the macros: each render is a reference cycle, and it held the seat's whole
    payload (a few hundred containers a table) until the garbage collector found it. At 300
    browser rooms the collections then took 9% of the server's time (issue 14's fifth pass).
    At the end of a render, the contexts made for it (its own, its includes' and its imports'
    "with context") are emptied; a module imported without context is Jinja's cached one, made
    once, and is left alone. ``tests/test_web_garbage.py`` counts what is left."""

    def new_context(
        self, vars: dict[str, Any] | None = None, shared: bool = False, locals: Mapping[str, Any] | None = None
    ) -> Context:
        context = super().new_context(vars, shared, locals)
        made = RENDERING.get()
        if made is not None and (shared or not made):  # the render's own (the first), an include's...
            made.append(context)
        return context

    def render(self, *args: Any, **kwargs: Any) -> str:
        made: list[Context] = []
        rendering = RENDERING.set(made)
        try:
            return super().render(*args, **kwargs)
        finally:
            RENDERING.reset(rendering)
            for context in made:
                context.vars.clear()
                context.exported_vars.clear()
                context.parent = {}


def has_template(name: str) -> bool:
    """Whether a template of that name exists in one of the folders templates are looked for in."""
    return any((folder / name).exists() for folder in TEMPLATE_DIRS)


# the selectors of every game's table pieces, for static/js/noticing.js (the page's arena-pieces meta)
PIECES = ", ".join(selector for entry in ENTRIES.values() for selector in entry.pieces)


class CompiledTemplates(jinja2.BytecodeCache):
    """Compiled templates kept in memory by name and source checksum (Jinja's bytecode cache),
    shared by the environments of every language: they are configured alike and compile the same
    code, so a template is compiled once, not once per language. Tests share one among all
    their renderers."""

    def __init__(self) -> None:
        self.codes: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.codes.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)  # (Jinja compiles afresh if the source changed)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.codes[bucket.key] = bucket.bytecode_to_string()


def as_sentence(text: str) -> str:
    """A message (the API's refusals are lower-case clauses: "that move is not legal now") as a
    sentence shown alone: a capital first and a full stop last, unless it has its own."""
    text = text.strip()
    if not text:
        return text
    return text[0].upper() + text[1:] + ("" if text[-1] in ".!?:…" else ".")


def and_list(items: Any, and_word: str, wrap: str = "", names: Mapping[Any, str] | None = None) -> Markup:
    """Names as a sentence lists them, "Ana, Zé and Rita" ("Ana, Zé e Rita"), each escaped and,
    with ``wrap`` (a tag name such as "strong"), each in that element; ``names``: the names of
    ``items`` (seats) where they are not names themselves."""
    named = [names[item] for item in items] if names is not None else list(items)
    shown = [Markup(f"<{wrap}>%s</{wrap}>") % name if wrap else Markup.escape(name) for name in named]
    if len(shown) < 2:
        return Markup("").join(shown)
    return Markup(", ").join(shown[:-1]) + Markup(" %s ") % and_word + shown[-1]


def environment(lang: str, memo: Callable[..., Any], compiled: CompiledTemplates) -> jinja2.Environment:
    """The Jinja environment of one language: its translations installed once, for good;
    ``memo`` is the renderer's card cache (:meth:`Renderer.memo`), ``compiled`` where compiled
    templates are kept."""
    # auto_reload off: templates are files of the installed package, and checking their
    # modification time on every render cost ~5% of the server's time under load (issue 14)
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIRS),
        autoescape=True,
        extensions=["jinja2.ext.i18n"],
        auto_reload=False,
        bytecode_cache=compiled,
    )
    env.template_class = ReleasingTemplate
    env.policies["ext.i18n.trimmed"] = True  # {% trans %} blocks: whitespace collapsed, as extracted
    catalog = translations(lang)
    env.install_gettext_translations(catalog, newstyle=True)  # type: ignore[attr-defined]
    env.globals["gettext"] = env.globals["_"] = quick_gettext(catalog)
    translate = catalog.gettext
    env.globals.update(
        GAMES=GAMES, GAME_ENTRIES=ENTRIES, GAME_PIECES=PIECES, lang=lang, LANGUAGES=LANGUAGES, memo=memo, slot=slot
    )
    env.globals.update(BOT_NAMES=ratings.NAMES, bot_levels=ratings.levels)  # the bot levels offered
    env.filters["sentence"] = as_sentence
    env.filters["and_list"] = lambda items, wrap="", names=None: and_list(items, translate("and"), wrap, names)
    env.filters["signed"] = signed  # a token or score change, with a true minus sign
    env.filters["minus"] = lambda total: str(total).replace("-", "\u2212")  # a total, a true minus if negative
    env.globals["spoken_in"] = lambda message: spoken(message, translate)  # a view's message, in this language
    env.globals["spoken_json"] = lambda text: spoken(orjson.loads(text), translate)  # one kept as JSON text
    # A game's fixed words (templates/games/<slug>/words.html), made once per language: Jinja
    # would otherwise look the imported module up again at every render of the table
    env.globals["words"] = {
        slug: env.get_template(f"games/{slug}/words.html").module
        for slug in GAMES
        if has_template(f"games/{slug}/words.html")
    }
    return env


class Renderer:
    """The app's renderer: a Jinja environment per language, and what has been rendered with
    them, kept by value in bounded caches (least recently used first to go): cards
    (:meth:`memo`) and table sections (``app.web.sections.Kept``). One per app (``create_app``);
    tests share one per process, and their other renderers its compiled templates."""

    def __init__(
        self, cards_held: int = CARDS_HELD, sections: Kept | None = None, compiled: CompiledTemplates | None = None
    ):
        self.cards: LRUCache[tuple[Any, ...], Any] = LRUCache(cards_held)
        self.sections = sections or Kept()
        compiled = compiled or CompiledTemplates()
        self.pages = {lang: Jinja2Templates(env=environment(lang, self.memo, compiled)) for lang in LANGUAGES}

    def env(self, lang: str) -> jinja2.Environment:
        return self.pages[lang].env

    @pass_context
    def memo(self, context: Context, macro: Macro, card: Mapping[str, Any], *args: Any) -> Any:
        """``macro(card, *args)``, rendered once per distinct card and kept: a card's HTML
        depends only on its own (flat) values, the macro's arguments and the language, and the
        Vem aí table draws dozens of cards per render, each a macro call (issue 14's profile:
        macro calls were two thirds of the table's render time)."""
        key = (context.name, macro.name, args, tuple(card.items()), context.get("lang"))
        html = self.cards.get(key)
        if html is None:
            html = macro(card, *args)
            if KEEPING_CARDS.get():  # (not within ``uncached``)
                self.cards[key] = html
        return html

    def page(
        self,
        request: Request,
        name: str,
        context: dict[str, Any],
        status_code: int = 200,
        headers: Mapping[str, str] | None = None,
    ) -> Response:
        """A page in the reader's language; caches are told it depends on the cookie and the header."""
        lang = language_of(request)
        vary = {"Content-Language": lang, "Vary": "Accept-Language, Cookie", **(headers or {})}
        return self.pages[lang].TemplateResponse(request, name, context, status_code=status_code, headers=vary)

    def fragment(self, lang: str, name: str, **context: Any) -> str:
        """A template rendered in ``lang`` outside a page (a pushed fragment, a form's reply)."""
        return self.env(lang).get_template(name).render(**context)

    def chat_log(self, messages: list[dict[str, Any]], seat: int | None, lang: str = ENGLISH) -> str:
        """The whole ``#chat-log``, swapped in by id."""
        return self.fragment(lang, "fragments/chat_log.html", messages=messages, seat=seat)

    def chat_lines(self, messages: list[dict[str, Any]], seat: int | None, lang: str = ENGLISH) -> str:
        """New chat lines, appended to ``#chat-log`` by an out-of-band ``beforeend`` swap."""
        return self.fragment(lang, "fragments/chat_log.html", messages=messages, seat=seat, append=True)


def renderer_of(connection: HTTPConnection) -> Renderer:
    """The renderer of the app serving ``connection``."""
    renderer: Renderer = connection.app.state.renderer
    return renderer


def language_of(connection: HTTPConnection) -> str:
    """The reader's language: the ``lang`` cookie's, else the browser's (``app.i18n``)."""
    return choose(connection.cookies.get(COOKIE), connection.headers.get("accept-language"))


def page(
    request: Request,
    name: str,
    context: dict[str, Any],
    status_code: int = 200,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """:meth:`Renderer.page` with the app's renderer."""
    return renderer_of(request).page(request, name, context, status_code, headers)


def fragment(connection: HTTPConnection, lang: str, name: str, **context: Any) -> str:
    """:meth:`Renderer.fragment` with the app's renderer."""
    return renderer_of(connection).fragment(lang, name, **context)


def said_to(connection: HTTPConnection, message: Message) -> str:
    """``message`` in the reader's language."""
    return spoken(message, translations(language_of(connection)).gettext)


IN_A_ROOM = re.compile(r"^/rooms/([A-Za-z0-9_-]{1,64})/")  # a room's own pages and forms


def error_page(request: Request, status: int, message: str | Message, headers: Mapping[str, str] | None) -> Response:
    """An error as a page (``app.api.errors.ErrorPage``), its message in the reader's language;
    refused on a room's page or form (a name taken, a replay before the end), it links back to
    the room's page, unless there is no such room."""
    text = said_to(request, say(message) if isinstance(message, str) else message)
    in_room = IN_A_ROOM.match(request.url.path)
    room = in_room.group(1) if in_room and status != 404 else None
    context = {"status": status, "message": text, "room": room}
    return page(request, "error.html", context, status_code=status, headers=headers)


def action_key(action: dict[str, Any]) -> str:
    """An action as its canonical JSON text: how a table's buttons carry it, and how a
    button's action is looked up among the legal ones."""
    return canonical_json(action)


def speaker(lang: str) -> Any:
    """``said(entry)``: the text of a log entry or a labelled action in ``lang`` (English: the
    payload's own text). Its arguments name the players already (``app.rooms.model.with_names``,
    ``labelled``): naming its text again took a player called "Seat 1" for seat 1's player."""
    if lang == ENGLISH:
        return lambda item: item["text"] if "text" in item else item["label"]
    translate = translations(lang).gettext
    return lambda item: spoken(item, translate)
