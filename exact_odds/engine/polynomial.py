"""A bet's expectation on n cards as a polynomial in the counts of the cards' classes.

With n cards in the shoe, the numerator the batch path gives a bet (its expectation times
``scale * falling(n, depth)``, :mod:`exact_odds.engine.batch`) is a sum over the ordered sequences
of ``depth`` cards: a polynomial of degree at most ``depth`` in the counts of the classes of cards
the bet tells apart. The last class holds n less the others, so the numerator is a polynomial in
the other F counts x_1 .. x_F. In the binomial basis,

    a(x) = sum over m with m_1 + ... + m_F <= D of  beta_m * C(x_1, m_1) * ... * C(x_F, m_F),

and the coefficients are integers: beta_m is the m-th forward difference of a at the origin, read
off the values of a at the C(F + D, D) points with x_1 + ... + x_F <= D (:func:`newton`), each a shoe
the batch path weighs. Walking the compositions of n cards class by class (:mod:`exact_odds.engine.walk`),
fixing x_1 leaves a polynomial in the others whose coefficients are sums of C(x_1, d) times those of
a: :func:`transitions` says which.

>>> points = multi_indices(2, 2)
>>> points.tolist()
[[0, 0], [0, 1], [1, 0], [0, 2], [1, 1], [2, 0]]
>>> values = [x * y + x for x, y in points.tolist()]  # x y + x = C(x, 1) C(y, 1) + C(x, 1)
>>> newton(np.array(values)[:, None], 2, 2)[:, 0].tolist()
[0, 0, 1, 0, 1, 0]
"""

from functools import lru_cache
from math import comb

import numpy as np

from ..core.features import Array


@lru_cache(maxsize=64)
def multi_indices(variables: int, degree: int) -> Array:
    """Every m of ``variables`` non-negative integers summing to at most ``degree``, in graded order
    (by their sum, then lexicographically): the points the values are read at, and the layout of the
    coefficients. The ones summing to at most e < degree come first, so a polynomial of degree e
    is a prefix."""
    rows: list[tuple[int, ...]] = []

    def extend(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == variables:
            if not left:
                rows.append(prefix)
            return
        for part in range(left + 1):
            extend(prefix + (part,), left - part)

    for total in range(degree + 1):
        extend((), total)
    indices = np.array(rows, dtype=np.int64).reshape(len(rows), variables)
    indices.setflags(write=False)
    return indices


def _positions(variables: int, degree: int) -> dict[tuple[int, ...], int]:
    return {tuple(row): place for place, row in enumerate(multi_indices(variables, degree).tolist())}


def newton(values: Array, variables: int, degree: int) -> Array:
    """The coefficients (rows of :func:`multi_indices`, a column per polynomial) of the
    polynomials of degree at most ``degree`` whose values at those points are ``values``: the
    forward differences at the origin, taken axis by axis (each axis's differences use only
    points of the simplex). Exact: int64 while every difference fits (each is at most 2^degree times
    the largest value in size), else Python integers."""
    kind = np.int64 if not values.size or int(np.abs(values.astype(object)).max()) < 2 ** (62 - degree) else object
    coefficients = np.array(values, dtype=kind)
    points = multi_indices(variables, degree)
    place = _positions(variables, degree)
    for axis in range(variables):
        step = np.zeros(variables, dtype=np.int64)
        step[axis] = 1
        below = np.array([place.get(tuple(point), -1) for point in (points - step).tolist()])
        for order in range(1, degree + 1):  # the order-th differences along the axis, from the top down
            for height in range(degree, order - 1, -1):
                rows = np.flatnonzero(points[:, axis] == height)
                coefficients[rows] -= coefficients[below[rows]]
    return coefficients


@lru_cache(maxsize=32)
def transitions(variables: int, degree: int) -> tuple[Array, Array]:
    """How fixing the first of ``variables`` variables at x gives the coefficients of the
    polynomial in the others: child[i] = sum over d of C(x, d) * parent[map_d[i]], for the first
    C(degree - d + variables - 1, variables - 1) children i (those of degree at most degree - d).
    Returned flat for every step from ``variables`` variables down to 1: the maps (int32) and where
    the map of (step, d) starts (int64, (variables - 1) * (degree + 1) + 1 entries)."""
    maps: list[int] = []
    starts = [0]
    for remaining in range(variables, 1, -1):
        parent = _positions(remaining, degree)
        children = multi_indices(remaining - 1, degree).tolist()
        for first in range(degree + 1):
            maps += [parent[(first, *child)] for child in children if sum(child) <= degree - first]
            starts.append(len(maps))
    flat, where = np.array(maps, dtype=np.int32), np.array(starts, dtype=np.int64)
    flat.setflags(write=False)
    where.setflags(write=False)
    return flat, where


def coefficient_bound(coefficients: Array, largest: tuple[int, ...]) -> int:
    """A bound on every value, and every partial sum, the walk computes from ``coefficients`` at
    counts x_i <= largest[i]: the sum over the terms of |beta_m| * prod max(1, C(largest_i, m_i))."""
    if not coefficients.size:
        return 0
    indices = multi_indices(len(largest), _degree(len(coefficients), len(largest)))
    tables = np.array([[max(1, comb(most, part)) for part in range(indices.max(initial=0) + 1)] for most in largest], dtype=object)
    factors = _products(tables, indices)
    return max(int(value) for value in (np.abs(coefficients.astype(object)).T @ factors).tolist())


def _products(tables: Array, indices: Array) -> Array:
    """Per row m of ``indices``, the product over i of tables[i, m_i] (Python integers)."""
    factors = np.ones(len(indices), dtype=object)
    for variable in range(indices.shape[1]):
        factors = factors * tables[variable, indices[:, variable]]
    return factors


def _degree(terms: int, variables: int) -> int:
    degree = 0
    while len(multi_indices(variables, degree)) < terms:
        degree += 1
    return degree


def evaluate(coefficients: Array, points: Array) -> list[list[int]]:
    """The polynomials at each row of ``points`` (free counts), exactly, in Python integers: for checks."""
    indices = multi_indices(points.shape[1], _degree(len(coefficients), points.shape[1]))
    top = int(indices.max(initial=0))
    columns = coefficients.astype(object)
    rows = []
    for point in points.tolist():
        tables = np.array([[comb(count, part) for part in range(top + 1)] for count in point], dtype=object).reshape(len(point), top + 1)
        rows.append([int(value) for value in (_products(tables, indices) @ columns).tolist()])
    return rows
