"""The one whole-number reader and the one canonical JSON text (``app.reading``): the strings
read as whole numbers and those refused ("1.0", "+1", " 1", "1_0", "true", other scripts'
digits, "²"), the bounds on digits and the sign; and canonical JSON that tells values apart
as JSON does, whatever the order of keys.
"""

from __future__ import annotations

import math

import pytest

from app.reading import canonical_json, whole_number, written_whole

REFUSED = ["", "1.0", "+1", " 1", "1 ", "1_0", "true", "1e3", "0x1", "١", "²", "-", "--1", "1-", "\n1", "1\n"]


@pytest.mark.parametrize("text", REFUSED)
def test_a_text_that_is_not_digits_alone_is_no_whole_number(text):
    assert whole_number(text) is None and not written_whole(text)
    assert whole_number(text, signed=True, most_digits=None) is None


@pytest.mark.parametrize(("text", "number"), [("0", 0), ("7", 7), ("01", 1), ("123456789", 123456789)])
def test_digits_alone_are_a_whole_number_leading_zeros_and_all(text, number):
    assert whole_number(text) == number and written_whole(text)


def test_the_sign_and_the_number_of_digits_are_the_callers():
    assert whole_number("-3") is None and whole_number("-3", signed=True) == -3
    assert whole_number("1" * 9, most_digits=9) == 111_111_111 and whole_number("1" * 10, most_digits=9) is None
    assert whole_number("9" * 18) == 10**18 - 1 and whole_number("9" * 19) is None
    assert whole_number("9" * 40, most_digits=None) == 10**40 - 1
    assert whole_number(7) is None and whole_number(None) is None and whole_number(True) is None


def test_canonical_json_tells_values_apart_as_json_does_and_ignores_key_order():
    assert (
        canonical_json({"b": [1, True], "a": "x"})
        == canonical_json({"a": "x", "b": [1, True]})
        == ('{"a":"x","b":[1,true]}')
    )
    distinct = [1, 1.0, True, "1", None, math.nan, math.inf, 2**70, [1], {"1": 1}]
    assert len({canonical_json(value) for value in distinct}) == len(distinct)
    assert canonical_json({"n": None, "é": "ã"}) == '{"n":null,"é":"ã"}'
