"""The face of a game's solutions seen from one side, as a polytope with a proof of its extent.

A side's *face* at a solution is the set of its strategies that form a solution with the other
side's strategy: a box of draw probabilities cut by linear conditions (best replies on both sides).
Each free coordinate's exact least and greatest value over the face come from two small exact
linear programs (:func:`exact_odds.games.linalg.optimum`), each with its proof (a point that
attains it and dual multipliers that bound it), so that a reader can check, from the conditions
alone, whether the face is one point (the side's strategy is unique there) or not, and then see
its vertices: the alternative strategies.

>>> z = Fraction(1, 3)
>>> face = extent(("x", "y"), (z, 1 - z), [Condition("sum", (Fraction(1), Fraction(1)), Fraction(-1), "==")])
>>> face.unique, [(bound.low, bound.high) for bound in face.bounds]
(False, [(Fraction(0, 1), Fraction(1, 1)), (Fraction(0, 1), Fraction(1, 1))])
>>> vertices(face)
[(Fraction(0, 1), Fraction(1, 1)), (Fraction(1, 1), Fraction(0, 1))]
"""

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, product

from .linalg import Optimum, optimum, solve_linear

SENSES = ("<=", ">=", "==")
MAX_VERTICES = 256
"""The most vertices of a face that :func:`vertices` lists (its count is always given)."""


@dataclass(frozen=True)
class Condition:
    """``coefficients . z + constant`` is at most, at least or equal to zero (``sense``), z the
    face's free coordinates; ``source`` names what it comes from (a cell or an information set)."""

    source: str
    coefficients: tuple[Fraction, ...]
    constant: Fraction
    sense: str

    def holds(self, z: Sequence[Fraction]) -> bool:
        value = self.constant + sum((a * b for a, b in zip(self.coefficients, z)), Fraction(0))
        return value <= 0 if self.sense == "<=" else value >= 0 if self.sense == ">=" else value == 0

    def rows(self) -> list[tuple[list[Fraction], Fraction]]:
        """The condition as rows ``row . z <= bound`` (an equality as two)."""
        rows = []
        if self.sense in ("<=", "=="):
            rows.append((list(self.coefficients), -self.constant))
        if self.sense in (">=", "=="):
            rows.append(([-a for a in self.coefficients], self.constant))
        return rows


@dataclass(frozen=True)
class Bound:
    """The least (``low``) and greatest (``high``) value of one free coordinate over the face, each
    with its proof: ``high`` maximises z_j, ``low`` is minus the maximum of -z_j, over :func:`lp_rows`."""

    coordinate: str
    low: Fraction
    high: Fraction
    low_proof: Optimum
    high_proof: Optimum


@dataclass(frozen=True)
class Face:
    """A side's face: its free coordinates (named), the solution's values there, the conditions
    that cut the unit box, and each coordinate's extent (:class:`Bound`)."""

    coordinates: tuple[str, ...]
    point: tuple[Fraction, ...]
    conditions: tuple[Condition, ...]
    bounds: tuple[Bound, ...]

    @property
    def unique(self) -> bool:
        """The face is one point: every free coordinate's least value is its greatest."""
        return all(bound.low == bound.high for bound in self.bounds)


def face_record(face: Face, *, proof_points: bool) -> dict[str, object]:
    """A face as its certificate: the conditions, and each free coordinate's least and greatest value
    with their proofs: the multipliers that bound it (one per row of the conditions, an equality
    giving its <= row then its >= row, then one per coordinate's z <= 1) and, with ``proof_points``,
    the point that attains it."""
    def proof(found: Optimum, side: str) -> dict[str, object]:
        multipliers = [str(value) for value in found.multipliers]
        if proof_points:
            return {f"{side}_proof": {"point": [str(value) for value in found.point], "multipliers": multipliers}}
        return {f"{side}_multipliers": multipliers}

    return {
        "coordinates": list(face.coordinates),
        "point": [str(value) for value in face.point],
        "conditions": [{"source": condition.source, "coefficients": [str(a) for a in condition.coefficients],
                        "constant": str(condition.constant), "sense": condition.sense} for condition in face.conditions],
        "extent": [{"coordinate": bound.coordinate, "low": str(bound.low), "high": str(bound.high),
                    **proof(bound.low_proof, "low"), **proof(bound.high_proof, "high")} for bound in face.bounds],
        "unique": face.unique,
    }


def lp_rows(conditions: Sequence[Condition], size: int) -> tuple[list[list[Fraction]], list[Fraction]]:
    """The conditions, then ``z_j <= 1`` for each coordinate, as ``rows . z <= bounds`` (with z >= 0)."""
    rows: list[list[Fraction]] = []
    bounds: list[Fraction] = []
    for condition in conditions:
        for row, bound in condition.rows():
            rows.append(row)
            bounds.append(bound)
    for j in range(size):
        rows.append([Fraction(int(i == j)) for i in range(size)])
        bounds.append(Fraction(1))
    return rows, bounds


def extent(coordinates: Sequence[str], point: Sequence[Fraction], conditions: Sequence[Condition]) -> Face:
    """The face of the unit box cut by ``conditions`` that contains ``point``, with each
    coordinate's exact extent over it (two exact linear programs a coordinate)."""
    size = len(coordinates)
    if not all(condition.holds(point) for condition in conditions) or not all(0 <= value <= 1 for value in point):
        raise ValueError("the solution is not on its own face")
    rows, bounds = lp_rows(conditions, size)
    found = []
    for j, name in enumerate(coordinates):
        extremes = []
        for sign in (1, -1):
            result = optimum([Fraction(sign * int(i == j)) for i in range(size)], rows, bounds)
            assert result is not None, "the face holds the solution"
            extremes.append(result)
        high, low = extremes
        found.append(Bound(name, -low.value, high.value, low, high))
    return Face(tuple(coordinates), tuple(point), tuple(conditions), tuple(found))


def vertices(face: Face, limit: int = MAX_VERTICES) -> list[tuple[Fraction, ...]]:
    """The vertices of the face (at most ``limit``, sorted): each is where the coordinates not at
    0 or 1 are fixed by as many independent conditions holding with equality (every equality, and
    some of the inequalities)."""
    size = len(face.coordinates)
    if face.unique:
        return [face.point]
    equations, inequalities = _distinct(face.conditions)
    found: set[tuple[Fraction, ...]] = set()
    for tight in range(max(0, min(len(inequalities), size - len(equations))) + 1):
        for chosen in combinations(inequalities, tight):
            rows = [*equations, *chosen]
            for inner in combinations(range(size), len(rows)):
                outer = [j for j in range(size) if j not in inner]
                for corner in product((0, 1), repeat=len(outer)):
                    point = _solve_corner(rows, inner, outer, corner, size)
                    if point is not None and all(condition.holds(point) for condition in face.conditions):
                        found.add(point)
    return sorted(found)[:limit]


Row = tuple[tuple[Fraction, ...], Fraction]
"""``coefficients . z = bound``."""


def _distinct(conditions: Sequence[Condition]) -> tuple[list[Row], list[Row]]:
    """The conditions as rows scaled to a leading coefficient of 1, without repeats: the equalities
    (independent ones only) and the inequalities (at their boundary)."""
    equations: list[Row] = []
    inequalities: list[Row] = []
    for condition in conditions:
        lead = next((a for a in condition.coefficients if a), None)
        if lead is None:
            continue
        row = (tuple(a / lead for a in condition.coefficients), -condition.constant / lead)
        target = equations if condition.sense == "==" else inequalities
        if row not in target:
            target.append(row)
    independent: list[Row] = []
    for row in equations:
        trial = [*independent, row]
        if _rank(trial) == len(trial):
            independent.append(row)
    return independent, [row for row in inequalities if _rank([*independent, row]) > len(independent)]


def _rank(rows: Sequence[Row]) -> int:
    """The rank of the rows' coefficients (Gaussian elimination over Fractions)."""
    matrix = [list(row[0]) for row in rows]
    rank = 0
    for column in range(len(matrix[0]) if matrix else 0):
        pivot = next((i for i in range(rank, len(matrix)) if matrix[i][column]), None)
        if pivot is None:
            continue
        matrix[rank], matrix[pivot] = matrix[pivot], matrix[rank]
        for i in range(rank + 1, len(matrix)):
            factor = matrix[i][column] / matrix[rank][column]
            matrix[i] = [a - factor * b for a, b in zip(matrix[i], matrix[rank])]
        rank += 1
    return rank


def _solve_corner(rows: Sequence[Row], inner: tuple[int, ...], outer: list[int], corner: tuple[int, ...], size: int) -> tuple[Fraction, ...] | None:
    """The point with the ``outer`` coordinates at ``corner`` and the ``inner`` ones solving the
    rows with equality, if it is unique and in the unit box."""
    point = [Fraction(0)] * size
    for j, value in zip(outer, corner):
        point[j] = Fraction(value)
    if inner:
        matrix = [[coefficients[j] for j in inner] for coefficients, _ in rows]
        rhs = [bound - sum((coefficients[j] * point[j] for j in outer), Fraction(0)) for coefficients, bound in rows]
        solved, _ = solve_linear(matrix, rhs)
        if solved is None or not all(0 <= value <= 1 for value in solved):
            return None
        for j, share in zip(inner, solved):
            point[j] = share
    return tuple(point)
