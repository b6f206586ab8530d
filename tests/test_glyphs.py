"""The pages draw no character that only an emoji font has: the turn timer's stopwatch (U+23F1)
showed as an empty box in Chromium on a Debian machine without one (a player's probe,
2026-12-07), and is now an inline SVG. What the templates, scripts and styles hold stays in the
blocks the common fonts cover (DejaVu draws the arrows, ◆, ★ and the ballot boxes in use): none
from Miscellaneous Technical (U+2300-U+23FF: stopwatch, alarm clock, hourglass) or from the
emoji planes (U+1F000 and above)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [
    *(ROOT / "templates").rglob("*.html"),
    *(ROOT / "static" / "js").glob("*.js"),
    *(ROOT / "static" / "css").glob("*.css"),
]


def font_dependent(character: str) -> bool:
    return 0x2300 <= ord(character) <= 0x23FF or ord(character) >= 0x1F000


def test_no_page_draws_a_character_only_an_emoji_font_has():
    found = {
        f"{path.relative_to(ROOT)}: {unicodedata.name(ch, hex(ord(ch)))}"
        for path in SOURCES
        for ch in path.read_text(encoding="utf-8")
        if font_dependent(ch)
    }
    assert len(SOURCES) > 20 and not found, sorted(found)


def test_the_rule_finds_the_stopwatch_and_lets_the_diamond_be():
    assert font_dependent("\u23f1") and font_dependent("\U0001f3b2")
    assert not any(map(font_dependent, "◆★☐☑→↗€"))
