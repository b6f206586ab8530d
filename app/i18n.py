"""The languages the browser pages speak, and how a reader's language is chosen.

English is the language of the source (every message id is its English text); Portuguese
(pt-PT) comes from the gettext catalog ``app/locales/pt_PT/LC_MESSAGES/messages.mo``, compiled
from the ``.po`` beside it and read with the standard library's :mod:`gettext` (README,
"Translations", has the extract, update and compile workflow). A reader's language is the one
the ``lang`` cookie names (set by the switch in the page header), else the best of the
browser's ``Accept-Language`` that we speak, else English.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

LOCALES = Path(__file__).resolve().parent / "locales"
DOMAIN = "messages"
ENGLISH = "en"
# language tag (as in <html lang> and the cookie) -> its name in itself and its catalog's locale
LANGUAGES = {"en": ("English", None), "pt-PT": ("Português", "pt_PT")}
COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The translations of ``lang`` (English: none, the ids are English)."""
    locale = LANGUAGES.get(lang, (None, None))[1]
    if locale is None:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALES, languages=[locale])


def known(tag: str | None) -> str | None:
    """The language we speak that ``tag`` names ("pt", "pt-PT", "pt-BR", "en-GB"...), if any;
    any Portuguese is served as pt-PT, the only Portuguese we have."""
    primary = (tag or "").strip().lower().replace("_", "-").split("-")[0]
    return {"en": "en", "pt": "pt-PT"}.get(primary)


def from_accept_language(header: str | None) -> str | None:
    """The best language of an ``Accept-Language`` header that we speak (by its q weights,
    the earlier of equal ones), or None."""
    best: tuple[float, int, str] | None = None
    for index, part in enumerate((header or "")[:1000].split(",")):
        tag, _, params = part.partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        lang = known(tag)
        if lang and weight > 0 and (best is None or (-weight, index) < best[:2]):
            best = (-weight, index, lang)
    return best[2] if best else None


def choose(cookie: str | None, accept_language: str | None) -> str:
    """The reader's language: the cookie's choice, else the browser's, else English."""
    if cookie in LANGUAGES:
        return cookie
    return from_accept_language(accept_language) or ENGLISH
