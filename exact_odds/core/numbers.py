"""Exact numbers to and from text: strict parsers for the numbers a user types (one per kind, each
error naming what and the value), and exact decimals for the numbers printed.

Only ASCII digits count (``²`` and ``٣`` are not numbers here), lengths are bounded, and an exact
number is an integer, a decimal or a fraction, never a float.

>>> parse_count("12", "--decks")
12
>>> parse_exact("-2.5", "--x"), parse_exact("9/11", "--x")
(Fraction(-5, 2), Fraction(9, 11))
>>> parse_percent("2.5%", "--commission")
Fraction(5, 2)
>>> parse_count("1_0", "--decks")
Traceback (most recent call last):
exact_odds.errors.InputError: --decks must be a whole number written with the digits 0-9, not '1_0'
"""

import math
import re
from fractions import Fraction
from typing import Any

from ..errors import InputError

MAX_DIGITS = 12
"""A count has at most this many digits (a trillion): larger counts are never meaningful here."""
MAX_NUMBER_TEXT = 40
"""An exact number is at most this many characters long."""
EXACT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:/[0-9]+)?")


def shown(text: object, limit: int = 40) -> str:
    """A user's value quoted for an error message, cut short when long."""
    quoted = repr(text)
    return quoted if len(quoted) <= limit else quoted[: limit - 4] + "...'"


def parse_count(text: object, what: str, minimum: int = 0, maximum: int | None = None, parameter: str | None = None) -> int:
    """A whole number from ``minimum`` to ``maximum``, written with ASCII digits only (an error
    names ``what``, and the :class:`InputError`'s ``parameter`` is ``parameter``)."""
    words = str(text).strip()
    if not re.fullmatch(r"[0-9]+", words, flags=re.ASCII):
        raise InputError(f"{what} must be a whole number written with the digits 0-9, not {shown(text)}", parameter=parameter)
    if len(words.lstrip("0")) > MAX_DIGITS:
        raise InputError(f"{what} is too large: {shown(text)} (at most {MAX_DIGITS} digits)", parameter=parameter)
    value = int(words)
    if value < minimum:
        raise InputError(f"{what} must be at least {minimum}, not {shown(text)}", parameter=parameter)
    if maximum is not None and value > maximum:
        raise InputError(f"{what} must be at most {maximum:,}, not {shown(text)}", parameter=parameter)
    return value


def parse_whole(text: object, what: str, parameter: str | None = None) -> int:
    """A whole number written with ASCII digits and, if negative, a minus sign (its range is the
    caller's to check).

    >>> parse_whole(" -3 ", "--after-cut")
    -3
    """
    words = str(text).strip()
    if not re.fullmatch(r"-?[0-9]+", words, flags=re.ASCII):
        raise InputError(f"{what} must be a whole number written with the digits 0-9, not {shown(text)}", parameter=parameter)
    if len(words.lstrip("-").lstrip("0")) > MAX_DIGITS:
        raise InputError(f"{what} is too large: {shown(text)} (at most {MAX_DIGITS} digits)", parameter=parameter)
    return int(words)


def parse_exact(text: object, what: str, example: str = "5, 2.5 or 5/2", longest: int = MAX_NUMBER_TEXT,
                parameter: str | None = None) -> Fraction:
    """An exact number of at most ``longest`` characters: an integer, a decimal or a fraction
    (``-3``, ``0.54``, ``19/20``)."""
    words = str(text).strip()
    if len(words) > longest and EXACT.fullmatch(words):
        raise InputError(f"{what} is too long: {shown(text)} (an exact number of at most {longest} characters)", parameter=parameter)
    if len(words) > longest or not EXACT.fullmatch(words):
        raise InputError(f"{what} must be an exact number such as {example}, not {shown(text)}", parameter=parameter)
    try:
        return Fraction(words)
    except ZeroDivisionError:
        raise InputError(f"{what}: {shown(text)} divides by zero", parameter=parameter) from None


def parse_percent(text: object, what: str, parameter: str | None = None) -> Fraction:
    """A percentage as an exact number, with or without a trailing ``%``."""
    words = str(text).strip()
    return parse_exact(words[:-1] if words.endswith("%") else words, what, "5, 2.5 or 2.5%", parameter=parameter)


def parse_probability(text: object, what: str, parameter: str | None = None) -> Fraction:
    """An exact probability from 0 to 1 (``9/11``, ``0.25``, ``1``)."""
    value = parse_exact(text, what, "9/11 or 0.25", parameter=parameter)
    if not 0 <= value <= 1:
        raise InputError(f"{what} must be a probability from 0 to 1, not {shown(text)}", parameter=parameter)
    return value


def exact_value(value: object, what: str, parameter: str | None = None) -> Fraction:
    """An exact number as a program passes one: an int (numpy's too) or a Fraction; a bool, a float
    (never exact here) or anything else refused, naming ``what``.

    >>> exact_value(5, "commission"), exact_value(Fraction(1, 2), "tie_pays")
    (Fraction(5, 1), Fraction(1, 2))
    >>> exact_value(2.5, "commission")
    Traceback (most recent call last):
    exact_odds.errors.InputError: commission must be an exact number (an int or a Fraction), not 2.5
    """
    import numbers

    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return Fraction(int(value))
    if isinstance(value, Fraction):
        return value
    raise InputError(f"{what} must be an exact number (an int or a Fraction), not {shown(value)}", parameter=parameter)


def index_in(value: object, size: int, what: str, parameter: str | None = None) -> int:
    """``value`` as an index from 0 to ``size`` - 1 (an int, numpy's too, not a bool).

    >>> index_in(3, 2, "shoe")
    Traceback (most recent call last):
    exact_odds.errors.InputError: shoe must be a whole number from 0 to 1, not 3
    """
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 0 <= int(value) < size:
        span = f"from 0 to {size - 1}" if size else "(there is none)"
        raise InputError(f"{what} must be a whole number {span}, not {shown(value)}", parameter=parameter)
    return int(value)


def text_of(value: object, what: str, parameter: str | None = None) -> str:
    """``value`` if it is text (a ``str``), else refused naming ``what``."""
    if not isinstance(value, str):
        raise InputError(f"{what} must be text (a str), not {shown(value)}", parameter=parameter)
    return value


def parse_toml(text: str) -> dict[str, Any]:
    """A TOML document (tomllib is imported here, when a file is read: the main bets need none).
    Malformed text raises ``tomllib.TOMLDecodeError``, a ``ValueError``; so do arrays or inline
    tables nested deeper than tomllib can recurse (a ``RecursionError`` inside it).

    >>> parse_toml("a = " + "[" * 5000 + "]" * 5000)
    Traceback (most recent call last):
    ValueError: arrays or inline tables nested too deeply
    """
    import tomllib

    try:
        return tomllib.loads(text)
    except RecursionError:
        raise ValueError("arrays or inline tables nested too deeply") from None


def fixed(value: Fraction, places: int) -> str:
    """A fraction rounded to ``places`` decimals (exact rounding, half away from zero)."""
    scaled = abs(value) * 10**places
    digits = str(math.floor(scaled + Fraction(1, 2))).rjust(places + 1, "0")
    sign = "-" if value < 0 and digits.strip("0") else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}" if places else f"{sign}{digits}"


def percent(value: Fraction, places: int = 4) -> str:
    return fixed(value * 100, places) + "%"


def money(amount: Fraction) -> str:
    """An amount exactly: in cents, or in as many decimals as it needs, or as a fraction.

    >>> money(Fraction(190)), money(Fraction(5, 2)), money(Fraction(19, 2000)), money(Fraction(8, 3))
    ('190', '2.50', '0.0095', '8/3')
    """
    if amount.denominator == 1:
        return str(amount.numerator)
    twos, fives, rest = 0, 0, amount.denominator
    while rest % 2 == 0:
        rest, twos = rest // 2, twos + 1
    while rest % 5 == 0:
        rest, fives = rest // 5, fives + 1
    return fixed(amount, max(2, twos, fives)) if rest == 1 else f"{amount.numerator}/{amount.denominator}"


def square_root(value: Fraction, places: int) -> str:
    """The square root of a non-negative fraction to ``places`` decimals, exactly (never a float,
    so no pay is too large).

    >>> square_root(Fraction(2), 4), square_root(Fraction(10) ** 320, 2)[:6]
    ('1.4142', '100000')
    """
    scaled = value * 10 ** (2 * places)
    root = math.isqrt(scaled.numerator // scaled.denominator)
    if (Fraction(2 * root + 1, 2)) ** 2 <= scaled:
        root += 1
    digits = str(root).rjust(places + 1, "0")
    return f"{digits[:-places]}.{digits[-places:]}" if places else digits
