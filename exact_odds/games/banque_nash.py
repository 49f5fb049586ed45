"""The Nash equilibria of baccara banque when player 2 chooses by his own total alone (the
``second_sees_first = False`` rule sets: Ethier and Lee's simplifying assumption), exactly.

The game splits in three. When one player holds a natural the other plays chemin de fer against the
banker, a zero-sum game of its own (its saddle point is the cooperative solution's,
:func:`exact_odds.games.banque.cooperative`). Otherwise (the *main* game) player 1 draws on 5 with
probability x, player 2 with probability z, and the banker's gain from drawing in each cell is a
bilinear function of (x, z): his indifference curves cut the unit square into an arrangement of
vertices, arcs and regions. In a region the banker plays pure and the players' indifference fixes
(x, z) by two linear equations; on an arc one cell is tied and a quadratic fixes the point; at a
vertex two cells are; along the square's edges one player plays pure. :func:`nash` visits each
piece, so it finds every equilibrium: isolated ones exactly (rationals, or numbers a + b sqrt(d) of
:mod:`exact_odds.games.surd`), and a note for any continuum (none has been met).
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, product

from ..errors import InputError
from .banque import BanqueGame, Cooperative, banker_gain, cooperative
from .banque_table import NATURAL
from .bilinear import Poly, at, between, corners, crossings, curve, enclose, exact_sorted, sign
from .linalg import optimum
from .surd import Surd, roots

Exact = Fraction | Surd


@dataclass(frozen=True)
class NashCertificate:
    """What each side would gain by its best deviation (all zero at an equilibrium), and the payoffs."""

    banker_gain: Exact
    first_gain: Exact
    second_gain: Exact
    payoffs: tuple[Exact, Exact, Exact]

    @property
    def holds(self) -> bool:
        return self.banker_gain == 0 and self.first_gain == 0 and self.second_gain == 0


@dataclass(frozen=True)
class Nash:
    """A Nash equilibrium: each information set's probability of drawing, the banker's by cell, the
    three payoffs per unit staked (banker, player 1, player 2) and the certificate."""

    draws: dict[str, Exact]
    banker: tuple[Exact, ...]
    certificate: NashCertificate


@dataclass(frozen=True)
class NashSearch:
    """Every Nash equilibrium the search found, how many pieces of the arrangement it visited, and
    notes on any continuum of equilibria (a piece where one is not isolated)."""

    equilibria: tuple[Nash, ...]
    vertices: int
    arcs: int
    regions: int
    continua: tuple[str, ...]
    unresolved: tuple[str, ...]
    """Pieces not solved (arcs where several cells are tied at once): empty when the search is exhaustive."""

    @property
    def exhaustive(self) -> bool:
        return not self.unresolved


class _Main:
    """The main game: the cells where both players may have chosen, as functions of (x, z)."""

    def __init__(self, game: BanqueGame, first: int, second: int):
        self.game = game
        self.cells = [c for c, (state) in enumerate(game.table.cells) if state[1] != NATURAL and state[2] != NATURAL]
        for c in self.cells:
            assert game.variables[c] == (first, second), "the main game's cells read the two main information sets"
        self.gain: dict[int, Poly] = {c: banker_gain(game.banker[c]) for c in self.cells}
        self.fixed: dict[int, int] = {c: fixed for c in self.cells if (fixed := game.fixed[c]) is not None}
        pure = {c: corners(self.gain[c]) for c in self.cells}
        self.curves = [c for c in self.cells if c not in self.fixed and any(self.gain[c]) and min(pure[c]) <= 0 <= max(pure[c])]
        self.always = [c for c in self.cells if c not in self.fixed and not any(self.gain[c])]
        self.strict = {c: int(max(pure[c]) > 0) for c in self.cells if c not in self.fixed and c not in self.curves and c not in self.always}
        groups: dict[tuple[Fraction, ...], list[int]] = {}
        for c in self.curves:
            lead = next(value for value in self.gain[c] if value)
            groups.setdefault(tuple(Fraction(value, lead) for value in self.gain[c]), []).append(c)
        self.groups = list(groups.values())
        """The curves by their zero set: several cells may share one (cards drawn with replacement)."""
        self.settled = {**self.fixed, **self.strict}
        """The banker's choice where it is the same all over the square."""
        self.free = [*self.curves, *self.always]
        # each player's gain from drawing, a + b (other player's mix), per banker choice
        self.slopes: dict[int, tuple[Poly, Poly]] = {
            c: ((game.first[c][0][1], game.first[c][0][3], game.first[c][1][1], game.first[c][1][3]),
                (game.second[c][0][2], game.second[c][0][3], game.second[c][1][2], game.second[c][1][3])) for c in self.cells}
        self.base = [0, 0, 0, 0]
        for c, choice in self.settled.items():
            one, two = self.slopes[c]
            self.base[0] += one[2 * choice]
            self.base[1] += one[2 * choice + 1]
            self.base[2] += two[2 * choice]
            self.base[3] += two[2 * choice + 1]

    def incentives(self, y: dict[int, Exact], x: Exact, z: Exact) -> tuple[Exact, Exact]:
        """Player 1's and player 2's gain from drawing (scaled), against the banker's ``y`` (read at the
        cells not settled)."""
        first: Exact = self.base[0] + self.base[1] * z
        second: Exact = self.base[2] + self.base[3] * x
        for c in self.free:
            draw = y[c]
            (a0, b0, a1, b1), (c0, d0, c1, d1) = self.slopes[c]
            if draw == 0:
                first, second = first + a0 + b0 * z, second + c0 + d0 * x
            elif draw == 1:
                first, second = first + a1 + b1 * z, second + c1 + d1 * x
            else:
                first += (1 - draw) * (a0 + b0 * z) + draw * (a1 + b1 * z)
                second += (1 - draw) * (c0 + d0 * x) + draw * (c1 + d1 * x)
        return first, second

    def replies(self, x: Exact, z: Exact) -> tuple[dict[int, Exact], list[int]]:
        """The banker's best replies at (x, z) at the cells not settled: his strict choices, and the
        cells where he is tied."""
        y: dict[int, Exact] = {}
        tied = list(self.always)
        for c in self.curves:
            side = sign(at(self.gain[c], x, z))
            if side == 0:
                tied.append(c)
            else:
                y[c] = Fraction(int(side > 0))
        return y, tied


def _conditions(share: Exact, incentive_base: Exact, slopes: Sequence[Exact]) -> list[tuple[Exact, list[Exact], str]]:
    sense = "==" if 0 < share < 1 else ">=" if share == 1 else "<="
    return [(incentive_base, list(slopes), sense)]


def _solve_ties(main: _Main, x: Exact, z: Exact) -> tuple[dict[int, Exact] | None, bool]:
    """A banker strategy in equilibrium with (x, z) (the tied cells' mixes that make each player's
    choice a best reply), and whether it is the only one; (None, True) when there is none."""
    y, tied = main.replies(x, z)
    base_y = dict(y)
    for c in tied:
        base_y[c] = Fraction(0)
    first, second = main.incentives(base_y, x, z)
    slopes_1, slopes_2 = [], []
    for c in tied:
        unit = dict(base_y)
        unit[c] = Fraction(1)
        one, two = main.incentives(unit, x, z)
        slopes_1.append(one - first)
        slopes_2.append(two - second)
    conditions = _conditions(x, first, slopes_1) + _conditions(z, second, slopes_2)
    solution, unique = _feasible(conditions, len(tied))
    if solution is None:
        return None, True
    y.update(zip(tied, solution))
    return y, unique


def _feasible(conditions: list[tuple[Exact, list[Exact], str]], size: int) -> tuple[list[Exact] | None, bool]:
    """A point t of [0, 1]^size with base + slopes . t (==, >=, <=) 0 for each condition, and
    whether it is the only one. Exact linear programs when everything is rational; with square
    roots, the cases met at an arc or a vertex (at most two tied cells)."""
    if all(not isinstance(value, Surd) or value.rational is not None for base, slopes, _ in conditions for value in (base, *slopes)):
        rational = [(Fraction(_rational(base)), [Fraction(_rational(s)) for s in slopes], sense) for base, slopes, sense in conditions]
        return _feasible_rational(rational, size)
    if any(sense != "==" for _, _, sense in conditions):
        raise InputError("a player at 0 or 1 at an irrational point is not solved")  # the square's edges meet the curves at rationals
    return _box_vertices([(base, slopes) for base, slopes, _ in conditions], size)


def _box_vertices(equalities: list[tuple[Exact, list[Exact]]], size: int) -> tuple[list[Exact] | None, bool]:
    """The points of {t in [0, 1]^size: base + slopes . t = 0 for each equality} (at most two
    equalities), by their vertices: at most two coordinates strictly inside (0, 1), solving a square
    part of the equalities, the others at 0 or 1. The set is one point when it has one vertex."""
    found: list[list[Exact]] = []
    for inside in range(min(size, 2) + 1):
        for chosen in combinations(range(size), inside):
            others = [j for j in range(size) if j not in chosen]
            for corner in product((0, 1), repeat=len(others)):
                point = _corner_point(equalities, size, chosen, others, corner)
                if point is not None and not any(all(a == b for a, b in zip(point, other)) for other in found):
                    found.append(point)
    return (found[0], len(found) == 1) if found else (None, True)


def _corner_point(equalities: list[tuple[Exact, list[Exact]]], size: int, chosen: tuple[int, ...], others: list[int],
                  corner: tuple[int, ...]) -> list[Exact] | None:
    point: list[Exact] = [Fraction(0)] * size
    for j, value in zip(others, corner):
        point[j] = Fraction(value)
    rests = [(base + sum((slopes[j] * point[j] for j in others), Fraction(0)), [slopes[j] for j in chosen]) for base, slopes in equalities]
    if len(chosen) == 1:
        pivot = next(((base, row) for base, row in rests if row[0] != 0), None)
        if pivot is None:
            return None
        point[chosen[0]] = -pivot[0] / pivot[1][0]
    elif len(chosen) == 2:
        if len(rests) < 2:
            return None
        (b1, (a11, a12)), (b2, (a21, a22)) = rests[:2]
        determinant = a11 * a22 - a12 * a21
        if determinant == 0:
            return None
        point[chosen[0]], point[chosen[1]] = (-b1 * a22 + b2 * a12) / determinant, (-b2 * a11 + b1 * a21) / determinant
    if not all(0 <= value <= 1 for value in point):
        return None
    if all(sign(base + sum((s * v for s, v in zip(slopes, point)), Fraction(0))) == 0 for base, slopes in equalities):
        return point
    return None


def _rational(value: Exact) -> Fraction:
    if isinstance(value, Surd):
        assert value.rational is not None
        return value.rational
    return value


def _feasible_rational(conditions: list[tuple[Fraction, list[Fraction], str]], size: int) -> tuple[list[Exact] | None, bool]:
    rows: list[list[Fraction]] = []
    bounds: list[Fraction] = []
    for base, slopes, sense in conditions:
        if sense in ("==", "<="):
            rows.append(list(slopes))
            bounds.append(-base)
        if sense in ("==", ">="):
            rows.append([-s for s in slopes])
            bounds.append(base)
    for j in range(size):
        rows.append([Fraction(int(i == j)) for i in range(size)])
        bounds.append(Fraction(1))
    if size == 0:
        return ([], True) if all(0 <= bound for bound in bounds) else (None, True)
    found = optimum([Fraction(0)] * size, rows, bounds)
    if found is None:
        return None, True
    unique = True
    for j in range(size):
        for direction in (1, -1):
            extreme = optimum([Fraction(direction * int(i == j)) for i in range(size)], rows, bounds)
            assert extreme is not None
            unique = unique and extreme.value == direction * found.point[j]
    return list(found.point), unique


def nash(game: BanqueGame, subgames: Cooperative | None = None) -> NashSearch:
    """Every Nash equilibrium of a banque game where player 2 reads only his own total (the games
    after one player's natural from ``subgames``, the cooperative solution, when given)."""
    if game.table.rules.second_sees_first:
        raise InputError("the Nash equilibria are solved when player 2 chooses by his own total alone (second_sees_first = false): "
                         "with player 1's third card read, open (docs/banque.md)", parameter="rules")
    first = game.infosets.index(next(name for name in game.infosets if name.startswith("player 1") and "vs" not in name))
    second = game.infosets.index(next(name for name in game.infosets if name.startswith("player 2") and "vs" not in name))
    main = _Main(game, first, second)
    pieces = _Pieces(main)
    points, continua = pieces.search()
    subgames = subgames or cooperative(game)
    found = []
    for x, z, y in points:
        draws: dict[str, Exact] = dict(subgames.draws)
        draws[game.infosets[first]], draws[game.infosets[second]] = x, z
        banker = [y.get(c, Fraction(main.settled[c]) if c in main.settled else subgames.banker[c]) for c in range(len(game.table.cells))]
        found.append(Nash(draws, tuple(banker), nash_certificate(game, [draws[name] for name in game.infosets], banker)))
    return NashSearch(tuple(found), pieces.vertices, pieces.arcs, pieces.regions, tuple(continua), tuple(pieces.unresolved))


class _Pieces:
    """The arrangement of the banker's indifference curves in the unit square, visited piece by piece."""

    def __init__(self, main: _Main):
        self.main = main
        self.vertices = self.arcs = self.regions = 0
        self.found: list[tuple[Exact, Exact, dict[int, Exact]]] = []
        self.continua: list[str] = []
        self.unresolved: list[str] = []
        """Arcs shared by several cells' curves: two equations in several banker mixes along the arc,
        which this search does not solve (their equilibria, if any, are not found)."""

    def search(self) -> tuple[list[tuple[Exact, Exact, dict[int, Exact]]], list[str]]:
        points = self._vertex_points()
        for x, z in points:
            self._try(x, z)
        self._edges(points)
        self._arcs(points)
        self._regions(points)
        unique: list[tuple[Exact, Exact, dict[int, Exact]]] = []
        for point in self.found:
            if not any(point[0] == other[0] and point[1] == other[1] for other in unique):
                unique.append(point)
        return unique, self.continua

    def _try(self, x: Exact, z: Exact) -> None:
        if _excluded_at(self.main, x, z):
            return
        y, unique = _solve_ties(self.main, x, z)
        if y is None:
            return
        self.found.append((x, z, y))
        if not unique:
            self.continua.append(f"at player mixes ({x}, {z}) the banker's equilibrium strategies form a continuum")

    def _vertex_points(self) -> list[tuple[Exact, Exact]]:
        """The corners, where each curve meets the square's edges, and where two curves cross."""
        points: list[tuple[Exact, Exact]] = [(Fraction(a), Fraction(b)) for a in (0, 1) for b in (0, 1)]
        for c in self.main.curves:
            gain = self.main.gain[c]
            for edge in (0, 1):
                # x = edge: gain[0] + gain[1] edge + (gain[2] + gain[3] edge) z = 0
                slope, constant = gain[2] + gain[3] * edge, gain[0] + gain[1] * edge
                if slope == 0 and constant == 0:
                    raise InputError("a banker indifferent along a whole edge of the square is not solved")
                if slope and 0 < Fraction(-constant, slope) < 1:
                    points.append((Fraction(edge), Fraction(-constant, slope)))
                slope, constant = gain[1] + gain[3] * edge, gain[0] + gain[2] * edge
                if slope == 0 and constant == 0:
                    raise InputError("a banker indifferent along a whole edge of the square is not solved")
                if slope and 0 < Fraction(-constant, slope) < 1:
                    points.append((Fraction(-constant, slope), Fraction(edge)))
        curves = [group[0] for group in self.main.groups]
        for i, c in enumerate(curves):
            for d in curves[i + 1:]:
                points += crossings(self.main.gain[c], self.main.gain[d])
        self.vertices = len(points)
        return points

    def _edges(self, points: list[tuple[Exact, Exact]]) -> None:
        """The open intervals of the square's edges between the points on them: one player pure,
        the banker pure, the other player's indifference fixed by the banker's strategy alone."""
        for axis in (0, 1):
            for edge in (Fraction(0), Fraction(1)):
                stops = exact_sorted([point[1 - axis] for point in points if point[axis] == edge] + [Fraction(0), Fraction(1)])
                for low, high in zip(stops, stops[1:]):
                    sample = between(low, high)
                    x, z = (edge, sample) if axis == 0 else (sample, edge)
                    y, tied = self.main.replies(x, z)
                    if tied:
                        raise InputError("a banker tied along an edge of the square is not solved")
                    first, second = self.main.incentives(y, x, z)
                    other = second if axis == 0 else first
                    if other != 0:
                        continue
                    self.continua.append(f"on the edge {'x' if axis == 0 else 'z'} = {edge} between {low} and {high}: the other player is "
                                         "indifferent against a pure banker; equilibria there when the pure player's choice is a best reply")

    def _arcs(self, points: list[tuple[Exact, Exact]]) -> None:
        """Each curve's open arcs between the points on it: one cell tied, both players mixing."""
        for group in self.main.groups:
            c = group[0]
            h, gain = curve(self.main.gain[c])
            on = exact_sorted([p[0] if h is not None else p[1] for p in points if sign(at(gain, p[0], p[1])) == 0])
            poles = [Fraction(-gain[2], gain[3])] if h is not None and gain[3] and 0 < Fraction(-gain[2], gain[3]) < 1 else []
            stops = exact_sorted([*on, *poles, Fraction(0), Fraction(1)])
            for low, high in zip(stops, stops[1:]):
                if low == high:
                    continue
                sample = between(low, high)
                point = (sample, h(sample)) if h is not None else (Fraction(-gain[0], gain[1]), sample)
                if not (0 < point[0] < 1 and 0 < point[1] < 1):
                    continue
                self.arcs += 1
                if len(group) > 1 or self.main.always:
                    tied = [*group, *self.main.always]
                    y, _ = self.main.replies(*point)
                    if not self._excluded(tied, y, h, gain, low, high, DEPTH):
                        self.unresolved.append(f"the arc of cells {', '.join(self.main.game.cell_name(t) for t in group)} between {low} and {high}")
                    continue
                self._arc(c, gain, h, point, low, high)

    def _excluded(self, tied: list[int], y: dict[int, Exact], h: Callable[[Exact], Exact] | None, gain: Poly, low: Exact, high: Exact,
                  depth: int) -> bool:
        """Whether no equilibrium with both players mixing lies on the arc between ``low`` and ``high``
        (x, or z on a vertical line), several cells tied: a player whose gain from drawing keeps one
        sign over the arc, whatever the tied cells' mixes, does not mix there. Otherwise the arc is
        halved, ``depth`` times at most."""
        if h is not None:
            xs, zs = (low, high), (h(low), h(high))
        else:
            x0 = Fraction(-gain[0], gain[1])
            xs, zs = (x0, x0), (low, high)
        x_range, z_range = enclose(*xs), enclose(*zs)
        fixed = {c: value for c, value in y.items() if c not in tied}
        first, second = self.main.incentives({**fixed, **{t: Fraction(0) for t in tied}}, Fraction(0), Fraction(0))
        first_1, second_1 = self.main.incentives({**fixed, **{t: Fraction(0) for t in tied}}, Fraction(1), Fraction(1))
        for constant, slope, index, span in ((first, first_1 - first, 0, z_range), (second, second_1 - second, 1, x_range)):
            lows, highs = [], []
            for end in span:
                value = constant + slope * end
                terms = [self.main.slopes[t][index] for t in tied]
                changes = [(a1 - a0) + (b1 - b0) * end for a0, b0, a1, b1 in terms]
                lows.append(value + sum(min(Fraction(0), change) for change in changes))
                highs.append(value + sum(max(Fraction(0), change) for change in changes))
            if min(lows) > 0 or max(highs) < 0:
                return True
        if depth == 0:
            return False
        middle = between(low, high) if not (isinstance(low, Fraction) and isinstance(high, Fraction)) else (low + high) / 2
        return (self._excluded(tied, y, h, gain, low, middle, depth - 1) and self._excluded(tied, y, h, gain, middle, high, depth - 1))

    def _arc(self, c: int, gain: Poly, h: Callable[[Exact], Exact] | None, sample: tuple[Exact, Exact], low: Exact, high: Exact) -> None:
        y, tied = self.main.replies(*sample)
        assert tied == [c], "one cell tied along the arc"
        base = dict(y)
        for t in tied:
            base[t] = Fraction(0)
        # incentives as functions of (x, z): first = a0 + a1 z + y_c (b0 + b1 z), second = c0 + c1 x + y_c (d0 + d1 x)
        coefficients = []
        for draw in (Fraction(0), Fraction(1)):
            trial = dict(base)
            trial[c] = draw
            f0, s0 = self.main.incentives(trial, Fraction(0), Fraction(0))
            f1, s1 = self.main.incentives(trial, Fraction(1), Fraction(1))
            coefficients.append((f0, f1 - f0, s0, s1 - s0))
        (a0, a1, c0, c1), (e0, e1, g0, g1) = coefficients
        b0, b1, d0, d1 = e0 - a0, e1 - a1, g0 - c0, g1 - c1
        # eliminate y_c: (a0 + a1 z)(d0 + d1 x) - (c0 + c1 x)(b0 + b1 z) = 0 on the curve
        if h is not None:
            n0, n1, m0, m1 = -gain[0], -gain[1], gain[2], gain[3]  # z = (n0 + n1 x) / (m0 + m1 x)
            # multiply by (m0 + m1 x): (a0 (m0 + m1 x) + a1 (n0 + n1 x))(d0 + d1 x) - (c0 + c1 x)(b0 (m0 + m1 x) + b1 (n0 + n1 x))
            p = (a0 * m0 + a1 * n0, a0 * m1 + a1 * n1)
            q = (b0 * m0 + b1 * n0, b0 * m1 + b1 * n1)
            quadratic = (p[1] * d1 - c1 * q[1], p[0] * d1 + p[1] * d0 - c0 * q[1] - c1 * q[0], p[0] * d0 - c0 * q[0])
        else:
            x0 = Fraction(-gain[0], gain[1])
            quadratic = (Fraction(0), a1 * (d0 + d1 * x0) - (c0 + c1 * x0) * b1, a0 * (d0 + d1 * x0) - (c0 + c1 * x0) * b0)
        if all(value == 0 for value in quadratic):
            self.continua.append(f"along the arc of cell {self.main.game.cell_name(c)} between {low} and {high} both players are indifferent")
            return
        for root in roots(*(_rational(value) for value in quadratic)):
            if not low < root < high:
                continue
            x, z = (root, h(root)) if h is not None else (Fraction(-gain[0], gain[1]), root)
            if 0 < x < 1 and 0 < z < 1:
                self._try(x, z)

    def _regions(self, points: list[tuple[Exact, Exact]]) -> None:
        """The open regions: the banker pure, each player's indifference linear in the other's mix.
        A sweep in x: between two x where the curves' order may change, the curves' heights sort the
        slab into regions; walking up the slab, each curve crossed flips its cell's choice, and the
        players' gains from drawing (integers a + b z, c + d x) follow."""
        main = self.main
        events = [p[0] for p in points if 0 < p[0] < 1]
        for c in main.curves:
            gain = main.gain[c]
            if gain[3] and 0 < Fraction(-gain[2], gain[3]) < 1:
                events.append(Fraction(-gain[2], gain[3]))
            if gain[2] == gain[3] == 0:
                events.append(Fraction(-gain[0], gain[1]))
        stops = exact_sorted([*events, Fraction(0), Fraction(1)])
        for left, right in zip(stops, stops[1:]):
            if left != right:
                self._slab(left, right)

    def _slab(self, left: Exact, right: Exact) -> None:
        main = self.main
        x_s = between(left, right)
        heights = []
        for c in main.curves:
            gain = main.gain[c]
            slope = gain[2] + gain[3] * x_s
            if slope:
                value = -(gain[0] + gain[1] * x_s) / slope
                if 0 < value < 1:
                    heights.append((value, c, int(slope > 0)))
        heights.sort(key=lambda item: item[0])
        levels = [Fraction(0), *(value for value, _, _ in heights), Fraction(1)]
        y, tied = main.replies(x_s, between(levels[0], levels[1]) if len(levels) > 1 else Fraction(1, 2))
        if tied:
            raise InputError("a banker indifferent over a whole region is not solved")
        sums = [0, 0, 0, 0]  # player 1's a + b z, player 2's c + d x, against the pure banker y
        sums[0], sums[1], sums[2], sums[3] = main.base
        for c in main.curves:
            a0, b0, a1, b1 = main.slopes[c][0]
            c0, d0, c1, d1 = main.slopes[c][1]
            draw = y[c] == 1
            sums[0] += a1 if draw else a0
            sums[1] += b1 if draw else b0
            sums[2] += c1 if draw else c0
            sums[3] += d1 if draw else d0
        crossing = 0
        for low, high in zip(levels, levels[1:]):
            while crossing < len(heights) and heights[crossing][0] <= low and low != 0:
                _, c, above = heights[crossing]
                if (y[c] == 1) != bool(above):
                    step = 1 if above else -1
                    (a0, b0, a1, b1), (c0, d0, c1, d1) = main.slopes[c]
                    sums[0] += step * (a1 - a0)
                    sums[1] += step * (b1 - b0)
                    sums[2] += step * (c1 - c0)
                    sums[3] += step * (d1 - d0)
                    y[c] = Fraction(above)
                crossing += 1
            if low == high:
                continue
            self.regions += 1
            self._region_point(sums, y, left, right, x_s, low, high)

    def _region_point(self, sums: list[int], y: dict[int, Exact], left: Exact, right: Exact, x_s: Fraction, low: Exact, high: Exact) -> None:
        """The point where both players are indifferent against the region's pure banker, if it is in the region."""
        first, slope_1, second, slope_2 = sums
        if slope_1 == 0 or slope_2 == 0:
            if (slope_1 == 0 and first == 0) or (slope_2 == 0 and second == 0):
                self.continua.append(f"in the region at ({x_s}, {between(low, high)}) a player is indifferent against a pure banker")
            return
        z, x = Fraction(-first, slope_1), Fraction(-second, slope_2)
        if not (left < x < right and 0 < z < 1):
            return
        y_here, tied_here = self.main.replies(x, z)
        if not tied_here and y_here == y:
            self.found.append((x, z, dict(y)))


def _excluded_at(main: _Main, x: Exact, z: Exact) -> bool:
    """Whether a mixing player at (x, z) has a gain from drawing of one sign whatever the tied
    cells' mixes (so (x, z) is no equilibrium): a quick test before the exact one."""
    y, tied = main.replies(x, z)
    if not tied:
        return False
    zero = {**y, **{t: Fraction(0) for t in tied}}
    first, second = main.incentives(zero, x, z)
    for share, value, index, other in ((x, first, 0, z), (z, second, 1, x)):
        if not 0 < share < 1:
            continue
        changes = [(a1 - a0) + (b1 - b0) * other for a0, b0, a1, b1 in (main.slopes[t][index] for t in tied)]
        low = value + sum((change for change in changes if change < 0), Fraction(0))
        high = value + sum((change for change in changes if change > 0), Fraction(0))
        if low > 0 or high < 0:
            return True
    return False


DEPTH = 24
"""How many times an arc shared by several cells may be halved to show it holds no equilibrium."""


def nash_certificate(game: BanqueGame, draws: Sequence[Exact], banker: Sequence[Exact]) -> NashCertificate:
    """Each side's payoff and best deviation from the payoffs alone (in the numbers' own field)."""
    total = game.table.total * game.scale
    payoffs: list[Exact] = [Fraction(value) for value in game.constant]
    best_banker: Exact = Fraction(game.constant[0])
    slopes: list[Exact] = [Fraction(0)] * len(draws)
    for c, (first, second) in enumerate(game.variables):
        x, z = draws[first], draws[second]
        values = [[at(poly, x, z) for poly in side] for side in (game.banker[c], game.first[c], game.second[c])]
        draw = banker[c]
        for side in range(3):
            payoffs[side] += (1 - draw) * values[side][0] + draw * values[side][1]
        fixed = game.fixed[c]
        best_banker = best_banker + (values[0][fixed] if fixed is not None else values[0][0] if values[0][0] >= values[0][1] else values[0][1])
        for side, variable, other in ((1, first, z), (2, second, x)):
            polys = game.first[c] if side == 1 else game.second[c]
            index = 1 if side == 1 else 2
            slopes[variable] += (1 - draw) * (polys[0][index] + polys[0][3] * other) + draw * (polys[1][index] + polys[1][3] * other)
    gains = []
    for side in (1, 2):
        gain: Exact = Fraction(0)
        for i, name in enumerate(game.infosets):
            if game.players[i] == side:
                best = Fraction(1) if slopes[i] > 0 else Fraction(0)
                gain = gain + (best - draws[i]) * slopes[i]
        gains.append(gain / total)
    return NashCertificate((best_banker - payoffs[0]) / total, gains[0], gains[1], (payoffs[0] / total, payoffs[1] / total, payoffs[2] / total))

