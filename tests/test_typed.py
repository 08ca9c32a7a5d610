"""One reading of typed numbers (issue 30): what was typed is what you get, or one sentence why not."""

import math
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from playground.errors import InvalidDataError
from playground.typed import (
    COMMA,
    EMPTY,
    NOT_A_CLASS,
    NOT_A_NUMBER,
    NOT_FINITE,
    OUT_OF_RANGE,
    TypedValueError,
    class_number,
    coordinate,
    read_number,
)


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("0.5", 0.5),
        (" -2 ", -2.0),
        ("+.5", 0.5),
        ("5.", 5.0),
        ("1e-3", 0.001),
        ("2E3", 2000.0),
        ("−1.25", -1.25),  # the minus sign
        ("１．５", 1.5),  # full-width digits and point
        ("－０．２５", -0.25),  # full-width minus
        ("＋３", 3.0),
        ("١٫٥", 1.5),  # Arabic-Indic digits, Arabic decimal separator
        ("۱.۵", 1.5),  # Extended Arabic-Indic (Persian) digits
        ("१.५", 1.5),  # Devanagari digits
        ("２Ｅ３", 2000.0),
        ("1e999", math.inf),  # well formed; a coordinate refuses it as out of range
    ],
)
def test_numbers_are_read_as_the_digits_they_are(text, number):
    assert read_number(text) == number


@pytest.mark.parametrize(
    ("text", "kind", "message"),
    [
        ("", EMPTY, "the cell is empty."),
        ("   ", EMPTY, "the cell is empty."),
        ("1,5", COMMA, "1,5 has a comma; write numbers with a decimal point and no thousands separator"),
        ("1,000", COMMA, "1,000 has a comma"),
        ("1,000.5", COMMA, "1,000.5 has a comma"),
        ("１，５", COMMA, "１，５ has a comma"),
        ("nan", NOT_FINITE, "nan is not a finite number (NaN and infinity are not allowed)."),
        ("-Infinity", NOT_FINITE, "-Infinity is not a finite number"),
        ("inf", NOT_FINITE, "inf is not a finite number"),
        ("abc", NOT_A_NUMBER, "abc is not a number."),
        ("1_000", NOT_A_NUMBER, "1_000 is not a number."),  # Python's float() would read 1000
        ("0x10", NOT_A_NUMBER, "0x10 is not a number."),
        ("½", NOT_A_NUMBER, "½ is not a number."),
        ("1 5", NOT_A_NUMBER, "1 5 is not a number."),
        ("1.2.3", NOT_A_NUMBER, "1.2.3 is not a number."),
        ("--1", NOT_A_NUMBER, "--1 is not a number."),
        ("e5", NOT_A_NUMBER, "e5 is not a number."),
    ],
)
def test_other_text_is_refused_with_one_sentence(text, kind, message):
    with pytest.raises(TypedValueError) as raised:
        read_number(text)
    assert raised.value.kind == kind
    assert str(raised.value).startswith(message)
    assert isinstance(raised.value, InvalidDataError)


def test_a_long_or_unprintable_value_is_quoted_short_and_printable():
    with pytest.raises(TypedValueError) as raised:
        read_number("x\x00" + "y" * 100)
    assert str(raised.value) == "x?" + "y" * 28 + "… is not a number."


@pytest.mark.parametrize(
    ("value", "number"),
    [("1000000", 1e6), ("-1000000", -1e6), ("0", 0.0), (3, 3.0), (-2.5, -2.5), (10**6, 1e6)],
)
def test_coordinates_within_the_limit_are_taken(value, number):
    assert coordinate(value) == number


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ("1000000.5", OUT_OF_RANGE),
        ("-1e7", OUT_OF_RANGE),
        ("1e999", OUT_OF_RANGE),
        (10**400, OUT_OF_RANGE),
        (float("nan"), NOT_FINITE),
        (float("-inf"), NOT_FINITE),
        (True, NOT_A_NUMBER),
        (None, EMPTY),
        ([1], NOT_A_NUMBER),
    ],
)
def test_coordinates_past_the_limit_or_not_numbers_are_refused(value, kind):
    with pytest.raises(TypedValueError) as raised:
        coordinate(value)
    assert raised.value.kind == kind


def test_the_range_message_names_the_value_and_the_limit():
    with pytest.raises(TypedValueError, match=r"^1e7 is outside the range ±1,000,000 the playground accepts\.$"):
        coordinate(" 1e7 ")


@pytest.mark.parametrize(("value", "k"), [("1", 1), ("6", 6), ("2.0", 2), ("２", 2), ("٢", 2), (" 3 ", 3), (4, 4)])
def test_classes_are_the_whole_numbers_one_to_six(value, k):
    assert class_number(value) == k


@pytest.mark.parametrize("value", ["0", "7", "2.5", "-1", "1e3", 7, 2.5])
def test_other_classes_are_refused(value):
    with pytest.raises(TypedValueError) as raised:
        class_number(value)
    assert raised.value.kind == NOT_A_CLASS
    assert str(raised.value) == f"{value} is not a class; classes are 1 to 6."


def test_a_refusal_pickles_with_its_kind():
    with pytest.raises(TypedValueError) as raised:
        read_number("1,5")
    again = pickle.loads(pickle.dumps(raised.value))
    assert (type(again), again.kind, str(again)) == (TypedValueError, COMMA, str(raised.value))


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_a_float_written_by_python_reads_back_exactly(x):
    assert read_number(repr(x)) == x


@given(st.text(max_size=20))
def test_any_text_gives_a_number_or_a_typed_refusal(text):
    try:
        number = read_number(text)
    except TypedValueError as err:
        assert err.kind in (EMPTY, COMMA, NOT_FINITE, NOT_A_NUMBER) and str(err)
    else:
        assert not math.isnan(number)
