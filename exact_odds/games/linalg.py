"""Exact linear algebra over the rationals: a linear program by the two-phase simplex method
(Bland's rule) and square systems by fraction-free (Bareiss) elimination."""

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm


def maximize(objective: Sequence[Fraction], rows: Sequence[Sequence[Fraction]], bounds: Sequence[Fraction]) -> tuple[Fraction, list[Fraction]] | None:
    """max objective . z subject to rows . z <= bounds and z >= 0, exactly: the two-phase simplex
    method with Bland's rule. Returns the optimum and a solution, or None when infeasible.

    >>> maximize([Fraction(1), Fraction(1)], [[Fraction(1), Fraction(2)], [Fraction(3), Fraction(1)]], [Fraction(4), Fraction(6)])
    (Fraction(14, 5), [Fraction(8, 5), Fraction(6, 5)])
    >>> maximize([Fraction(1)], [[Fraction(-1)], [Fraction(1)]], [Fraction(-2), Fraction(1)]) is None
    True
    """
    result = optimum(objective, rows, bounds)
    return None if result is None else (result.value, result.point)


@dataclass(frozen=True)
class Optimum:
    """An optimum of ``max objective . z, rows . z <= bounds, z >= 0`` with its proof: ``point``
    attains ``value``, and the ``multipliers`` (one per row, none negative) combine the rows into
    a row at least ``objective`` in every coordinate whose bound is ``value``, so that no feasible z
    does better (weak duality). :meth:`proves` checks both."""

    value: Fraction
    point: list[Fraction]
    multipliers: list[Fraction]

    def proves(self, objective: Sequence[Fraction], rows: Sequence[Sequence[Fraction]], bounds: Sequence[Fraction]) -> bool:
        """Whether ``point`` is feasible and attains ``value`` and the multipliers bound every feasible point by it."""
        feasible = all(value >= 0 for value in self.point) and all(
            sum((a * z for a, z in zip(row, self.point)), Fraction(0)) <= bound for row, bound in zip(rows, bounds))
        attained = sum((c * z for c, z in zip(objective, self.point)), Fraction(0)) == self.value
        combined = [sum((y * row[j] for y, row in zip(self.multipliers, rows)), Fraction(0)) for j in range(len(objective))]
        bounded = (len(self.multipliers) == len(rows) and all(y >= 0 for y in self.multipliers)
                   and all(total >= c for total, c in zip(combined, objective))
                   and sum((y * bound for y, bound in zip(self.multipliers, bounds)), Fraction(0)) == self.value)
        return feasible and attained and bounded


def optimum(objective: Sequence[Fraction], rows: Sequence[Sequence[Fraction]], bounds: Sequence[Fraction]) -> Optimum | None:
    """:func:`maximize` with the proof of optimality (:class:`Optimum`): the dual multipliers are
    the final reduced costs of the slack columns.

    >>> found = optimum([Fraction(1), Fraction(1)], [[Fraction(1), Fraction(2)], [Fraction(3), Fraction(1)]], [Fraction(4), Fraction(6)])
    >>> found.multipliers, found.proves([Fraction(1), Fraction(1)], [[Fraction(1), Fraction(2)], [Fraction(3), Fraction(1)]], [Fraction(4), Fraction(6)])
    ([Fraction(2, 5), Fraction(1, 5)], True)
    """
    size, count = len(objective), len(rows)
    negative = [i for i in range(count) if bounds[i] < 0]
    width = size + count + len(negative)
    tableau = []
    for i, (row, bound) in enumerate(zip(rows, bounds)):
        sign = -1 if bound < 0 else 1
        line = [sign * Fraction(value) for value in row] + [Fraction(sign * int(j == i)) for j in range(count)]
        line += [Fraction(int(i == j)) for j in negative] + [sign * Fraction(bound)]
        tableau.append(line)
    basis = [size + count + negative.index(i) if i in negative else size + i for i in range(count)]
    if negative:
        costs = [Fraction(0)] * (size + count) + [Fraction(1)] * len(negative) + [Fraction(0)]
        for i in negative:
            costs = [cost - value for cost, value in zip(costs, tableau[i])]
        _pivot_to_optimum(tableau, costs, basis, width)
        if costs[-1] != 0:
            return None
        for i in range(len(tableau) - 1, -1, -1):
            if basis[i] >= size + count:
                column = next((j for j in range(size + count) if tableau[i][j]), None)
                if column is None:
                    del tableau[i], basis[i]
                else:
                    _pivot(tableau, costs, basis, i, column)
        tableau = [row[: size + count] + row[-1:] for row in tableau]
    costs = [-Fraction(value) for value in objective] + [Fraction(0)] * (count + 1)
    for i, variable in enumerate(basis):
        if costs[variable]:
            factor = costs[variable]
            costs = [cost - factor * value for cost, value in zip(costs, tableau[i])]
    _pivot_to_optimum(tableau, costs, basis, size + count)
    solution = [Fraction(0)] * size
    for i, variable in enumerate(basis):
        if variable < size:
            solution[variable] = tableau[i][-1]
    return Optimum(costs[-1], solution, costs[size:size + count])


def _pivot(tableau: list[list[Fraction]], costs: list[Fraction], basis: list[int], leaving: int, entering: int) -> None:
    pivot_row = tableau[leaving]
    pivot = pivot_row[entering]
    pivot_row[:] = [value / pivot if value else value for value in pivot_row]
    nonzero = [(j, value) for j, value in enumerate(pivot_row) if value]
    for row in (*tableau[:leaving], *tableau[leaving + 1:], costs):
        factor = row[entering]
        if factor:
            for j, pivoted in nonzero:
                row[j] -= factor * pivoted
    basis[leaving] = entering


def _pivot_to_optimum(tableau: list[list[Fraction]], costs: list[Fraction], basis: list[int], columns: int) -> None:
    """Bland's rule on the first ``columns`` columns until no reduced cost is negative."""
    while (entering := next((j for j in range(columns) if costs[j] < 0), None)) is not None:
        ratios = [(row[-1] / row[entering], basis[i], i) for i, row in enumerate(tableau) if row[entering] > 0]
        if not ratios:
            raise ValueError("unbounded linear program")
        _pivot(tableau, costs, basis, min(ratios)[2], entering)


def solve_linear(matrix: Sequence[Sequence[Fraction | int]], rhs: Sequence[Fraction | int]) -> tuple[list[Fraction] | None, bool]:
    """The solution of a square system, or (None, False) when it has none and (None, True) when it
    has many (rows scaled to integers, then :func:`solve_integer`).

    >>> solve_linear([[2, 1], [1, 3]], [3, 5])
    ([Fraction(4, 5), Fraction(7, 5)], False)
    >>> solve_linear([[1, 1], [2, 2]], [1, 2]), solve_linear([[1, 1], [2, 2]], [1, 3])
    ((None, True), (None, False))
    """
    rows = []
    for row, right in zip(matrix, rhs):
        entries = [Fraction(value) for value in (*row, right)]
        scale = lcm(*(entry.denominator for entry in entries))
        rows.append([int(entry * scale) for entry in entries])
    solved = solve_integer(rows)
    if isinstance(solved, bool):
        return None, solved
    numerators, determinant = solved
    return [Fraction(numerator, determinant) for numerator in numerators], False


def solve_integer(rows: list[list[int]]) -> tuple[list[int], int] | bool:
    """Solve a square integer system given as augmented rows by fraction-free (Bareiss)
    elimination: the solution's numerators over a common denominator, or False when there is no
    solution and True when there are many."""
    size = len(rows)
    rows = [list(row) for row in rows]
    previous, rank = 1, 0
    for column in range(size):
        found = next((i for i in range(rank, size) if rows[i][column]), None)
        if found is None:
            continue
        rows[rank], rows[found] = rows[found], rows[rank]
        pivot_row = rows[rank]
        pivot = pivot_row[column]
        for i in range(rank + 1, size):
            factor = rows[i][column]
            rows[i] = [(value * pivot - factor * pivoted) // previous for value, pivoted in zip(rows[i], pivot_row)]
        previous = pivot
        rank += 1
    if rank < size:
        return all(not row[-1] for row in rows[rank:])
    determinant = rows[-1][-2]
    numerators = [0] * size
    for i in range(size - 1, -1, -1):
        row = rows[i]
        numerators[i] = (row[-1] * determinant - sum(row[j] * numerators[j] for j in range(i + 1, size))) // row[i]
    if determinant < 0:
        numerators, determinant = [-numerator for numerator in numerators], -determinant
    return numerators, determinant
