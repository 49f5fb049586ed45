"""Bilinear polynomials g(x, z) = g0 + g1 x + g2 z + g3 x z on the unit square, in exact numbers
(rationals and a + b sqrt(d), :mod:`exact_odds.games.surd`): their values, their zero curves, where
two cross, and the exact orderings a walk of the arrangement of such curves needs. In baccara
banque x and z are player 1's and player 2's probabilities of drawing on 5, and the curves are the
banker's indifference curves (:mod:`exact_odds.games.banque_nash` walks them).

>>> diagonal, hyperbola = (0, 1, -1, 0), (-1, 0, 0, 2)  # x - z and 2 x z - 1
>>> crossings(diagonal, (-1, 1, 1, 0))  # x - z = 0 and x + z - 1 = 0
[(Fraction(1, 2), Fraction(1, 2))]
>>> [(str(x), str(z)) for x, z in crossings(diagonal, hyperbola)]  # x = z = 1/sqrt(2)
[('(sqrt(2))/2', '(sqrt(2))/2')]
>>> at(hyperbola, Fraction(1, 2), Fraction(1, 3)), corners(hyperbola)
(Fraction(-2, 3), [-1, -1, -1, 1])
"""

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cmp_to_key
from math import floor

from .surd import Exact, Surd, compare, roots

Poly = tuple[int, int, int, int]
"""Integer coefficients of 1, X1, X2 and X1 X2 (in baccara banque X1 the probability that player 1
draws at the cell's option point, X2 player 2's)."""


def at(poly: Poly, first: Exact, second: Exact) -> Exact:
    """The polynomial at player 1's and player 2's draw probabilities (exact numbers)."""
    return poly[0] + poly[1] * first + poly[2] * second + poly[3] * first * second


def corners(poly: Poly) -> list[int]:
    """The polynomial at the four pure pairs (0, 0), (0, 1), (1, 0), (1, 1)."""
    return [poly[0] + poly[1] * a + poly[2] * b + poly[3] * a * b for a in (0, 1) for b in (0, 1)]


def sign(value: Exact) -> int:
    """-1, 0 or 1 as an exact number is negative, zero or positive."""
    return value.sign() if isinstance(value, Surd) else (value > 0) - (value < 0)


def between(low: Exact, high: Exact) -> Fraction:
    """A rational strictly between two exact numbers (low < high), with a power of two below.

    >>> between(Fraction(1, 3), Fraction(1, 2))
    Fraction(3, 8)
    """
    scale = 2
    while True:
        candidate = Fraction(floor(low * scale) + 1, scale)
        if candidate < high:
            return candidate
        scale *= 2


def enclose(first: Exact, second: Exact) -> tuple[Fraction, Fraction]:
    """Rationals below and above two exact numbers (2^-60 apart from them at most)."""
    scale = 2**60
    low, high = (first, second) if first <= second else (second, first)
    return Fraction(floor(low * scale), scale), Fraction(floor(high * scale) + 1, scale)


def exact_sorted(values: Sequence[Exact]) -> list[Exact]:
    """Sorted exactly, without repeats."""
    ordered: list[Exact] = []
    for value in sorted(values, key=cmp_to_key(compare)):
        if not ordered or value != ordered[-1]:
            ordered.append(value)
    return ordered


def curve(gain: Poly) -> tuple[Callable[[Exact], Exact] | None, Poly]:
    """The zero curve z = h(x) of a bilinear polynomial (None when it is a vertical line x = -g0/g1)."""
    if gain[2] == 0 and gain[3] == 0:
        return None, gain
    return (lambda x: -(gain[0] + gain[1] * x) / (gain[2] + gain[3] * x)), gain


def crossings(first: Poly, second: Poly) -> list[tuple[Exact, Exact]]:
    """Where two bilinear polynomials are both zero inside the open unit square (the first's curve
    met by the second: a quadratic's roots)."""
    h, _ = curve(first)
    if h is None:
        x0 = Fraction(-first[0], first[1])
        slope, constant = second[2] + second[3] * x0, second[0] + second[1] * x0
        return [(x0, -constant / slope)] if slope and 0 < -constant / slope < 1 and 0 < x0 < 1 else []
    n0, n1, m0, m1 = -first[0], -first[1], first[2], first[3]
    # second at z = (n0 + n1 x)/(m0 + m1 x), times (m0 + m1 x)
    quadratic = (Fraction(second[1] * m1 + second[3] * n1), Fraction(second[0] * m1 + second[1] * m0 + second[2] * n1 + second[3] * n0),
                 Fraction(second[0] * m0 + second[2] * n0))
    found = []
    for x in roots(*quadratic):
        if 0 < x < 1 and m0 + m1 * x != 0:
            z = h(x)
            if 0 < z < 1:
                found.append((x, z))
    return found
