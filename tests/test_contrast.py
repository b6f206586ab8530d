"""Contrast of the table's words on its own colours, read from the stylesheets (axe-core skips
text on a gradient, and the table is all gradients): the felt's quieter words on its lightest
green and the white words of a Vem aí card's band on the band's top reach 4.5:1 (WCAG AA for
small text); TriATri's white card numbers on the light corner of their gradient reach 3.5:1
(bold, with a shadow; they measured 2.1 to 3.1 before)."""

from __future__ import annotations

import re

import pytest

from app.files import project_file

pytestmark = pytest.mark.unit


def css(name: str) -> str:
    return (project_file("static") / "css" / name).read_text(encoding="utf-8")


def luminance(colour: str) -> float:
    channels = [int(colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_formula_matches_known_pairs():
    assert contrast("#ffffff", "#000000") == pytest.approx(21)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # (just under AA)


def test_the_felts_quieter_words_are_readable_on_its_lightest_green():
    arena = css("arena.css")
    muted = re.search(r"--felt-muted:\s*(#[0-9a-f]{6})", arena).group(1)
    lightest = re.search(r"\.felt \{ background: radial-gradient\(ellipse at center, (#[0-9a-f]{6}) 0%", arena).group(1)
    assert ".felt .muted { color: var(--felt-muted); }" in arena
    assert contrast(muted, lightest) >= 4.5, (muted, lightest)


def test_a_vem_cards_band_words_are_readable_on_every_family():
    vem = css("vem-ai-a-troika.css")
    colours = dict(re.findall(r"--v-(\w+):\s*(#[0-9a-f]{6})", vem))
    for family in ("gold", "blue", "red", "grey"):
        rule = re.search(rf"\.vem \.fam-{family} \{{([^}}]*)\}}", vem).group(1)
        band = re.search(r"--fam-band:\s*(#[0-9a-f]{6})", rule)
        top = band.group(1) if band else colours[family]
        assert contrast("#ffffff", top) >= 4.5, (family, top)


def test_triatri_card_numbers_are_readable_on_their_light_corner():
    triatri = css("triatri.css")
    corners = re.findall(r"\.tt-card\.(red|blue|green) \{ background: linear-gradient\(150deg, (#[0-9a-f]{6})", triatri)
    assert len(corners) == 3
    for suit, corner in corners:
        assert contrast("#ffffff", corner) >= 3.5, (suit, corner)
