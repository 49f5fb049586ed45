"""Chemin de fer as a game: exact solutions of the models of Kemeny and Snell (A), Downton and
Lockwood (B2) and Ethier and Gamez (B3), with or without a commission on the banker's wins.

The player draws on 0-4, stands on 6-7 and chooses on 5 (seeing his total, or under B3 his two
cards); the banker chooses at every two-card total 0-7 (seeing his total under A, his two cards
under B2 and B3) against the player's third card, face up, or the player's standing. Naturals
(8, 9) end the coup. The player wins +1 or loses 1; the banker wins 1 less a commission ``alpha``
(zero: a zero-sum game). Every coup meets at most one decision of each side, so a payoff is a
constant plus, per banker information set (a *cell*), a term affine in the player's draw
probabilities: the banker's best reply is cell by cell ("additive" games, Foster's algorithm).

Everything is exact: weighted counts of ordered 6-card sequences (value by value, falling
factorials of the shoe's counts), then exact rational linear programming (zero-sum) or an
exhaustive search of the equilibria's supports (bimatrix), and a certificate computed from the
counts alone. docs/chemin.md describes the models, the method and its limits.

>>> from exact_odds.shoe import Shoe
>>> solution = solve("A", Shoe.infinite())
>>> solution.value, solution.player
(Fraction(-679568, 53094899), {5: Fraction(9, 11)})
>>> [(banker, third, draw) for banker, third, draw in solution.banker if 0 < draw < 1]
[(6, 'stood', Fraction(859, 2288))]
>>> solution.certificate.player_guarantees == solution.certificate.banker_guarantees == solution.value
True
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product
from math import lcm


from .errors import InputError
from .grid import grid
from .policy import Policy, with_base
from .report import fixed
from .rules import CHEMIN_DE_FER_A, CHEMIN_DE_FER_B2, CHEMIN_DE_FER_B3, PUNTO_BANCO, DrawRules, OptionPoint, compositions
from .shoe import Shoe

MODELS: dict[str, DrawRules] = {"A": CHEMIN_DE_FER_A, "B2": CHEMIN_DE_FER_B2, "B3": CHEMIN_DE_FER_B3}
FORMATS = ("table", "json", "markdown", "latex")
PAIRS = [(low, high) for low in range(10) for high in range(low, 10)]
BANKER_HANDS = [hand for total in range(8) for hand in compositions(total)]
"""The 44 two-card banker hands that are not naturals, by total."""
FIVES = compositions(5)
THIRDS: tuple[int | None, ...] = (None, *range(10))
"""The banker's view of the player: stood (None), or the player's third card."""

Key = int | tuple[int, int]
"""A total, or a two-card hand (point values, low first)."""
Affine = tuple[int, tuple[int, ...]]
"""An integer affine function of the player's draw probabilities: constant, slopes."""
Profile = tuple[tuple[Fraction, ...], tuple[Fraction, ...]]
"""The player's draw probabilities by information set, the banker's by cell."""


@dataclass(frozen=True)
class Cell:
    """A banker information set with the weighted counts of player wins and banker wins when the
    banker stands (index 0) or draws (1), as affine functions of the player's draw probabilities."""

    banker: Key
    third: int | None
    player_wins: tuple[Affine, Affine]
    banker_wins: tuple[Affine, Affine]


@dataclass(frozen=True)
class Table:
    """The payoff structure of a model on a shoe: counts out of ``total`` ordered 6-card sequences."""

    model: str
    total: int
    naturals: tuple[int, int]
    """Player wins and banker wins on a natural (no decision)."""
    infosets: tuple[Key, ...]
    """The player's information sets at his choice on 5."""
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Certificate:
    """Exact checks of a strategy pair. ``player_guarantees``: the player's payoff with his strategy
    against the banker's best reply; ``banker_guarantees``: the most the player gets against the
    banker's strategy. The gains are what each side would win by its best deviation."""

    zero_sum: bool
    player_guarantees: Fraction
    banker_guarantees: Fraction
    player_payoff: Fraction
    banker_payoff: Fraction
    player_gain: Fraction
    banker_gain: Fraction

    @property
    def holds(self) -> bool:
        """An equilibrium (both gains zero); zero-sum: both guarantees equal the payoff."""
        equilibrium = self.player_gain == 0 and self.banker_gain == 0
        if self.zero_sum:
            return equilibrium and self.player_guarantees == self.banker_guarantees == self.player_payoff
        return equilibrium


@dataclass(frozen=True)
class Solution:
    """A solution of a model: the player's payoff per coup (``value``), the banker's, each side's
    probability of drawing by information set, the certificate and what is known of uniqueness."""

    model: str
    decks: int | str
    commission: Fraction
    value: Fraction
    banker_value: Fraction
    player: dict[Key, Fraction]
    banker: tuple[tuple[Key, int | str, Fraction], ...]
    """(banker total or two cards, player's third card 0-9 or "stood", probability of drawing)."""
    certificate: Certificate
    unique: bool | None
    """True/False when an exhaustive search of the equilibria decided it, None when not shown."""
    notes: tuple[str, ...]

    @property
    def rules(self) -> DrawRules:
        return MODELS[self.model]


# --- the payoff structure ---------------------------------------------------------------------


@lru_cache(maxsize=32)
def _counts(shoe: Shoe) -> tuple[int, tuple[int, int], dict[tuple[int, int], list[list[int]]]]:
    """The finest counts: the total, the naturals' player and banker wins and, per (banker hand,
    slot: 0 the player stood, 1 + his third card), for each choice (stand, draw) 12 integers: player
    wins and banker wins when the player never draws on 5, then for each composition of 5 their
    change when he draws there. A coup's k cards weigh the product of the counts left as each is
    dealt, times ``rest[k]``, the ways to deal the 6 - k cards it does not use."""
    counts = list(shoe.value_counts)
    size = sum(counts)
    replace = shoe.with_replacement
    rest = [1] * 7
    for dealt in range(6):
        for position in range(dealt, 6):
            rest[dealt] *= size if replace else size - position
    used = [0] * 10

    def take(value: int) -> int:
        available = counts[value] - (0 if replace else used[value])
        used[value] += 1
        return available

    cells: dict[tuple[int, int], list[list[int]]] = {
        (hand, slot): [[0] * 12, [0] * 12] for hand in range(len(BANKER_HANDS)) for slot in range(11)}
    naturals = [0, 0]

    def add(row: list[int], context: tuple[int, bool] | None, player_total: int, banker_total: int, weight: int) -> None:
        if player_total == banker_total or not weight:
            return
        side = 0 if player_total > banker_total else 1
        if context is None or not context[1]:
            row[side] += weight
        if context is not None:
            row[2 + 2 * context[0] + side] += weight if context[1] else -weight

    def banker_choices(hand: int, slot: int, context: tuple[int, bool] | None, player_total: int, banker_total: int,
                       weight: int, dealt: int) -> None:
        stand, draw = cells[(hand, slot)]
        add(stand, context, player_total, banker_total, weight * rest[dealt])
        for card in range(10):
            add(draw, context, player_total, (banker_total + card) % 10, weight * take(card) * rest[dealt + 1])
            used[card] -= 1

    hand_index = {hand: index for index, hand in enumerate(BANKER_HANDS)}
    for player_hand, banker_hand in product(PAIRS, PAIRS):
        cards = player_hand + banker_hand
        weight = (2 - (player_hand[0] == player_hand[1])) * (2 - (banker_hand[0] == banker_hand[1]))
        for card in cards:
            weight *= take(card)
        player_total, banker_total = sum(player_hand) % 10, sum(banker_hand) % 10
        if weight and (player_total >= 8 or banker_total >= 8):
            if player_total != banker_total:
                naturals[player_total < banker_total] += weight * rest[4]
        elif weight:
            hand = hand_index[banker_hand]
            if player_total == 5:
                five = FIVES.index(player_hand)
                branches: list[tuple[tuple[int, bool] | None, bool]] = [((five, True), True), ((five, False), False)]
            else:
                branches = [(None, player_total <= 4)]
            for context, draws in branches:
                if not draws:
                    banker_choices(hand, 0, context, player_total, banker_total, weight, 4)
                    continue
                for third in range(10):
                    drawn = weight * take(third)
                    if drawn:
                        banker_choices(hand, third + 1, context, (player_total + third) % 10, banker_total, drawn, 5)
                    used[third] -= 1
        for card in cards:
            used[card] -= 1
    return rest[0], (naturals[0], naturals[1]), cells


@lru_cache(maxsize=64)
def payoff_table(model: str, shoe: Shoe) -> Table:
    """The payoff structure of ``model`` ("A", "B2", "B3") on ``shoe``, exactly."""
    model = _model(model)
    shoe.checked()
    total, naturals, finest = _counts(shoe)
    by_cards = model == "B3"
    infosets: tuple[Key, ...] = tuple(FIVES) if by_cards else (5,)
    keys: list[Key] = list(BANKER_HANDS) if model != "A" else list(range(8))
    sums: dict[tuple[Key, int], list[list[int]]] = {(key, slot): [[0] * 12, [0] * 12] for key in keys for slot in range(11)}
    for (hand, slot), rows in finest.items():
        banker = BANKER_HANDS[hand]
        key: Key = banker if model != "A" else sum(banker) % 10
        for choice in range(2):
            target = sums[(key, slot)][choice]
            for index, count in enumerate(rows[choice]):
                target[index] += count

    def affine(row: list[int], side: int) -> Affine:
        slopes = tuple(row[2 + 2 * five + side] for five in range(5))
        return row[side], slopes if by_cards else (sum(slopes),)

    cells = tuple(
        Cell(key, THIRDS[slot], (affine(rows[0], 0), affine(rows[1], 0)), (affine(rows[0], 1), affine(rows[1], 1)))
        for (key, slot), rows in sums.items())
    return Table(model, total, naturals, infosets, cells)


def _model(model: str) -> str:
    name = model.upper()
    if name not in MODELS:
        raise InputError(f"unknown chemin de fer model {model!r} (expected {', '.join(MODELS)})")
    return name


# --- the game for a commission --------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """A model on a shoe with a commission, as integer payoffs per cell and choice (stand, draw):
    the player's scaled by ``table.total``, the banker's by ``table.total * scale``."""

    table: Table
    commission: Fraction
    scale: int
    player: tuple[tuple[Affine, Affine], ...]
    banker: tuple[tuple[Affine, Affine], ...]
    player_naturals: int
    banker_naturals: int
    player_gain: tuple[Affine, ...]
    """Per cell, the player's payoff when the banker draws less when he stands."""
    banker_gain: tuple[Affine, ...]
    """Per cell, the banker's payoff from drawing less standing."""
    stand_slopes: tuple[int, ...]
    """The player's incentive to draw at each information set when the banker always stands."""

    @property
    def infosets(self) -> int:
        return len(self.table.infosets)


def _combine(first: Affine, first_factor: int, second: Affine, second_factor: int) -> Affine:
    return (first[0] * first_factor + second[0] * second_factor,
            tuple(a * first_factor + b * second_factor for a, b in zip(first[1], second[1])))


def make_game(table: Table, commission: Fraction) -> Game:
    """The game of ``table`` with a commission ``commission`` (a fraction) on the banker's wins."""
    if not 0 <= commission < 1:
        raise InputError(f"the commission on banker wins must be a fraction from 0 to below 1 (1/20 for 5%), not {commission}")
    scale = commission.denominator
    keep = scale - commission.numerator
    player = tuple((_combine(cell.player_wins[0], 1, cell.banker_wins[0], -1), _combine(cell.player_wins[1], 1, cell.banker_wins[1], -1))
                   for cell in table.cells)
    banker = tuple((_combine(cell.banker_wins[0], keep, cell.player_wins[0], -scale), _combine(cell.banker_wins[1], keep, cell.player_wins[1], -scale))
                   for cell in table.cells)
    wins, losses = table.naturals
    stand_slopes = tuple(sum(stand[1][i] for stand, _ in player) for i in range(len(table.infosets)))
    return Game(table, commission, scale, player, banker, wins - losses, keep * losses - scale * wins,
                 tuple(_difference(choices) for choices in player), tuple(_difference(choices) for choices in banker), stand_slopes)


def _at(function: Affine, x: Sequence[Fraction]) -> Fraction:
    return function[0] + sum((slope * share for slope, share in zip(function[1], x)), Fraction(0))


def _difference(choices: tuple[Affine, Affine]) -> Affine:
    """Drawing less standing."""
    return _combine(choices[1], 1, choices[0], -1)


def _range(function: Affine) -> tuple[int, int]:
    """Least and greatest value over the unit box."""
    return (function[0] + sum(min(0, slope) for slope in function[1]),
            function[0] + sum(max(0, slope) for slope in function[1]))


def _payoffs(game: Game, profile: Profile) -> tuple[Fraction, Fraction]:
    """The player's and the banker's expected payoffs."""
    x, y = profile
    player = game.player_naturals + sum((_at(stand, x) * (1 - draw) + _at(hit, x) * draw for (stand, hit), draw in zip(game.player, y)), Fraction(0))
    banker = game.banker_naturals + sum((_at(stand, x) * (1 - draw) + _at(hit, x) * draw for (stand, hit), draw in zip(game.banker, y)), Fraction(0))
    total = game.table.total
    return player / total, banker / (total * game.scale)


def _incentives(game: Game, y: Sequence[Fraction]) -> list[Fraction]:
    """The player's gain per unit of drawing probability at each information set, against ``y`` (scaled)."""
    whole = list(game.stand_slopes)
    incentives = [Fraction(0)] * game.infosets
    for gain, draw in zip(game.player_gain, y):
        if draw == 1:
            whole = [total + slope for total, slope in zip(whole, gain[1])]
        elif draw:
            incentives = [total + draw * slope for total, slope in zip(incentives, gain[1])]
    return [part + total for part, total in zip(incentives, whole)]


def certify(game: Game, profile: Profile) -> Certificate:
    """Both sides' guarantees and deviation gains, from the payoff structure alone."""
    x, y = profile
    total = game.table.total
    player, banker = _payoffs(game, profile)
    guarantees = (game.player_naturals + sum((min(_at(stand, x), _at(hit, x)) for stand, hit in game.player), Fraction(0))) / total
    best_player = _payoffs(game, (tuple(Fraction(int(gain > 0)) for gain in _incentives(game, y)), y))[0]
    best_banker = (game.banker_naturals + sum((max(_at(stand, x), _at(hit, x)) for stand, hit in game.banker), Fraction(0))) / (total * game.scale)
    return Certificate(game.commission == 0, guarantees, best_player, player, banker, best_player - player, best_banker - banker)


# --- exact linear algebra -----------------------------------------------------------------------


def maximize(objective: Sequence[Fraction], rows: Sequence[Sequence[Fraction]], bounds: Sequence[Fraction]) -> tuple[Fraction, list[Fraction]] | None:
    """max objective . z subject to rows . z <= bounds and z >= 0, exactly: the two-phase simplex
    method with Bland's rule. Returns the optimum and a solution, or None when infeasible.

    >>> maximize([Fraction(1), Fraction(1)], [[Fraction(1), Fraction(2)], [Fraction(3), Fraction(1)]], [Fraction(4), Fraction(6)])
    (Fraction(14, 5), [Fraction(8, 5), Fraction(6, 5)])
    >>> maximize([Fraction(1)], [[Fraction(-1)], [Fraction(1)]], [Fraction(-2), Fraction(1)]) is None
    True
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
    return costs[-1], solution


def _pivot(tableau: list[list[Fraction]], costs: list[Fraction], basis: list[int], leaving: int, entering: int) -> None:
    pivot_row = tableau[leaving]
    pivot = pivot_row[entering]
    pivot_row[:] = [value / pivot for value in pivot_row]
    for row in (*tableau[:leaving], *tableau[leaving + 1:], costs):
        factor = row[entering]
        if factor:
            row[:] = [value - factor * pivoted for value, pivoted in zip(row, pivot_row)]
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


# --- zero-sum: two small linear programs ------------------------------------------------------


def _settled(choices: tuple[Affine, Affine], default: int) -> int | None:
    """The banker's choice at a cell where one choice holds the player to less over the whole unit
    box of his draw probabilities (``default``, the Punto Banco choice, where both are the same),
    else None."""
    low, high = _range(_difference(choices))
    if low == high == 0:
        return default
    return 1 if high <= 0 else 0 if low >= 0 else None


def _zero_sum(game: Game) -> Profile:
    """Optimal strategies of the zero-sum game: the player's maximin and the banker's minimax, each
    an exact linear program over the cells where the banker's choice depends on the player's mix."""
    m = game.infosets
    cells = game.table.cells
    fixed_choice = [_settled(choices, _punto_banco(cell)) for choices, cell in zip(game.player, cells)]
    free = [k for k, choice in enumerate(fixed_choice) if choice is None]
    # the player: max sum_k min_b A_k^b(x), each min = lower(x) - max(0, lower(x) - upper(x)) with
    # lower the smaller at x = 0, so that the origin is feasible
    objective = [Fraction(0)] * (m + len(free))
    rows: list[list[Fraction]] = []
    bounds: list[Fraction] = []
    for k, choice in enumerate(fixed_choice):
        stand, hit = game.player[k]
        if choice is None:
            lower, upper = (hit, stand) if hit[0] < stand[0] else (stand, hit)
            row = [Fraction(a - b) for a, b in zip(lower[1], upper[1])] + [Fraction(0)] * len(free)
            row[m + free.index(k)] = Fraction(-1)
            rows.append(row)
            bounds.append(Fraction(upper[0] - lower[0]))
            objective[m + free.index(k)] = Fraction(-1)
        else:
            lower = game.player[k][choice]
        for i in range(m):
            objective[i] += lower[1][i]
    for i in range(m):
        rows.append([Fraction(int(j == i)) for j in range(m + len(free))])
        bounds.append(Fraction(1))
    x = tuple(_optimum(objective, rows, bounds)[:m])
    # the banker: min over y of C(y) + sum_i max(0, g_i(y)), g_i the player's incentive at i; each
    # max is w_i >= g_i(y), or g_i(y) + w_i with w_i >= -g_i(y) where g_i > 0 at y = 0
    y = [Fraction(choice) if choice is not None else Fraction(0) for choice in fixed_choice]
    incentives = _incentives(game, y)
    gains = [game.player_gain[k] for k in free]
    objective = [-Fraction(gain[0]) for gain in gains] + [Fraction(-1)] * m
    rows, bounds = [], []
    for i in range(m):
        sign = 1 if incentives[i] > 0 else -1
        if sign > 0:
            objective[:len(free)] = [value - gain[1][i] for value, gain in zip(objective, gains)]
        row = [Fraction(-sign * gain[1][i]) for gain in gains] + [Fraction(0)] * m
        row[len(free) + i] = Fraction(-1)
        rows.append(row)
        bounds.append(sign * incentives[i])
    for j in range(len(free)):
        rows.append([Fraction(int(i == j)) for i in range(len(free) + m)])
        bounds.append(Fraction(1))
    shares = _optimum(objective, rows, bounds)
    for j, k in enumerate(free):
        y[k] = shares[j]
    return x, tuple(y)


def _optimum(objective: Sequence[Fraction], rows: Sequence[Sequence[Fraction]], bounds: Sequence[Fraction]) -> list[Fraction]:
    result = maximize(objective, rows, bounds)
    assert result is not None, "the origin is feasible"
    return result[1]


def _punto_banco(cell: Cell) -> int:
    """1 where the Punto Banco tableau draws at the cell, else 0."""
    return int(PUNTO_BANCO.mark("banker", _total(cell.banker), cell.third) == "D")


# --- equilibria: the supports, exhaustively ----------------------------------------------------


@dataclass(frozen=True)
class Search:
    """The equilibria found by :func:`equilibria` (at least one point of every connected set of
    equilibria), and where equilibria are not isolated (a continuum: empty when every one found is)."""

    profiles: tuple[Profile, ...]
    continua: tuple[str, ...]


def _cell_name(cell: Cell) -> str:
    return f"({key_text(cell.banker)}, {'stood' if cell.third is None else cell.third})"


def equilibria(game: Game) -> Search:
    """The Nash equilibria of the game (behaviour strategies). For each pattern of the player's
    information sets (stand, draw or mix) and each set of as many banker cells as mixed sets where
    the banker is made indifferent, the player's mix solves the banker's indifference exactly;
    then the banker's draw probabilities at every cell where he is indifferent solve the player's
    conditions (a square system, or an exact linear program when more cells are tied). Every
    connected set of equilibria has a point found so; a singular system, a banker strategy not
    pinned down or (one information set) an interval of mixes is reported as a continuum."""
    m = game.infosets
    cells = game.table.cells
    banker_gain, player_gain = list(game.banker_gain), list(game.player_gain)
    zero = (0, (0,) * m)
    relevant = [k for k in range(len(cells)) if banker_gain[k] != zero or player_gain[k] != zero]
    base_y = [Fraction(_punto_banco(cell)) for cell in cells]
    player_fixed, banker_fixed = dominance(game)
    found: list[Profile] = []
    continua: list[str] = []
    seen: set[tuple[Fraction, ...]] = set()
    for pattern in product(*(((0, 1, None) if fixed is None else (fixed,)) for fixed in player_fixed)):
        mixed = [i for i, choice in enumerate(pattern) if choice is None]
        restricted = {}
        for k in relevant:
            constant = banker_gain[k][0] + sum(banker_gain[k][1][i] * choice for i, choice in enumerate(pattern) if choice is not None)
            restricted[k] = (constant, tuple(banker_gain[k][1][i] for i in mixed))
        candidates = [k for k in relevant if banker_fixed[k] is None and any(restricted[k][1]) and _range(restricted[k])[0] < 0 < _range(restricted[k])[1]]
        for indifferent in combinations(candidates, len(mixed)):
            shares: list[Fraction] = []
            if mixed:
                solved = solve_integer([[*restricted[k][1], -restricted[k][0]] for k in indifferent])
                if isinstance(solved, bool):
                    if solved:
                        continua.append(f"the banker is indifferent at {', '.join(_cell_name(cells[k]) for k in indifferent)} along a line of player mixes")
                    continue
                numerators, determinant = solved
                if not all(0 < numerator < determinant for numerator in numerators):
                    continue
                shares = [Fraction(numerator, determinant) for numerator in numerators]
            x = [Fraction(choice) if choice is not None else Fraction(0) for choice in pattern]
            for i, share in zip(mixed, shares):
                x[i] = share
            if tuple(x) in seen:
                continue
            seen.add(tuple(x))
            replies = _banker_replies(game, x, pattern, relevant, banker_gain, player_gain, base_y)
            if replies is not None:
                y, isolated = replies
                found.append((tuple(x), y))
                if not isolated:
                    continua.append(f"at player mix {_shown(x)} the banker's equilibrium strategies form a continuum")
    if m == 1:
        continua += _intervals(game, relevant, banker_gain, player_gain, base_y)
    return Search(tuple(found), tuple(continua))


def dominance(game: Game) -> tuple[list[int | None], list[int | None]]:
    """Iterated elimination of strictly dominated choices (which keeps every equilibrium): the
    player's fixed choice (1 draw, 0 stand) by information set and the banker's by cell, None
    where both remain."""
    player: list[int | None] = [None] * game.infosets
    banker: list[int | None] = [None] * len(game.banker_gain)
    changed = True
    while changed:
        changed = False
        for k, gain in enumerate(game.banker_gain):
            if banker[k] is None:
                low, high = _box_range(gain, player)
                if low > 0 or high < 0:
                    banker[k], changed = int(low > 0), True
        for i in range(game.infosets):
            if player[i] is None:
                incentive = (game.stand_slopes[i], tuple(gain[1][i] for gain in game.player_gain))
                low, high = _box_range(incentive, banker)
                if low > 0 or high < 0:
                    player[i], changed = int(low > 0), True
    return player, banker


def _box_range(function: Affine, fixed: list[int | None]) -> tuple[int, int]:
    """Least and greatest value of an affine function over [0, 1] in each coordinate not fixed."""
    constant = function[0] + sum(slope * value for slope, value in zip(function[1], fixed) if value is not None)
    return _range((constant, tuple(slope for slope, value in zip(function[1], fixed) if value is None)))


def _banker_replies(game: Game, x: list[Fraction], pattern: tuple[int | None, ...], relevant: list[int],
                    banker_gain: list[Affine], player_gain: list[Affine], base_y: list[Fraction]) -> tuple[tuple[Fraction, ...], bool] | None:
    """A banker strategy in equilibrium with ``x`` (best replies, mixing only where indifferent,
    such that the player's ``pattern`` is a best reply), and whether it is the only one; None if
    there is none."""
    y = list(base_y)
    tied = []
    common = lcm(*(share.denominator for share in x))
    scaled = [int(share * common) for share in x]
    for k in relevant:
        constant, slopes = banker_gain[k]
        gain = constant * common + sum(slope * share for slope, share in zip(slopes, scaled))
        y[k] = Fraction(int(gain > 0))
        if not gain:
            tied.append(k)
            y[k] = Fraction(0)
    incentives = _incentives(game, y)
    mixed = [i for i, choice in enumerate(pattern) if choice is None]
    if len(tied) == len(mixed):
        draws: list[Fraction] | None = []
        if tied:
            draws, _ = solve_linear([[Fraction(player_gain[k][1][i]) for k in tied] for i in mixed], [-incentives[i] for i in mixed])
        if draws is not None and all(0 <= draw <= 1 for draw in draws):
            for k, draw in zip(tied, draws):
                y[k] = draw
            after = _incentives(game, y)
            if all(choice is None or (after[i] >= 0 if choice else after[i] <= 0) for i, choice in enumerate(pattern)):
                return tuple(y), True
        if draws is not None or not tied:
            return None
    # the player's conditions as inequalities on the tied cells' draw probabilities (each <= 1)
    rows: list[list[Fraction]] = []
    bounds: list[Fraction] = []
    for i, choice in enumerate(pattern):
        coefficients = [Fraction(player_gain[k][1][i]) for k in tied]
        if choice != 1:
            rows.append(coefficients)
            bounds.append(-incentives[i])
        if choice != 0:
            rows.append([-coefficient for coefficient in coefficients])
            bounds.append(incentives[i])
    for j in range(len(tied)):
        rows.append([Fraction(int(j == n)) for n in range(len(tied))])
        bounds.append(Fraction(1))
    solution = maximize([Fraction(0)] * len(tied), rows, bounds)
    if solution is None:
        return None
    for k, draw in zip(tied, solution[1]):
        y[k] = draw
    isolated = True
    for j in range(len(tied)):
        for sign in (1, -1):
            extreme = maximize([Fraction(sign * int(j == n)) for n in range(len(tied))], rows, bounds)
            assert extreme is not None
            isolated = isolated and extreme[0] == sign * solution[1][j]
    return tuple(y), isolated


def _intervals(game: Game, relevant: list[int], banker_gain: list[Affine], player_gain: list[Affine], base_y: list[Fraction]) -> list[str]:
    """One information set: the open intervals between the banker's switching points where the
    player is indifferent against a best reply of the banker (each a continuum of equilibria)."""
    roots = sorted({Fraction(-gain[0], gain[1][0]) for gain in banker_gain if gain[1][0] and 0 < Fraction(-gain[0], gain[1][0]) < 1})
    points = [Fraction(0), *roots, Fraction(1)]
    return [f"every player mix in ({low}, {high}) is an equilibrium" for low, high in zip(points, points[1:])
            if _banker_replies(game, [(low + high) / 2], (None,), relevant, banker_gain, player_gain, base_y) is not None]


def _total(banker: Key) -> int:
    return banker if isinstance(banker, int) else sum(banker) % 10


def _shown(x: Sequence[Fraction]) -> str:
    return "(" + ", ".join(str(share) for share in x) + ")"


# --- the entry points ---------------------------------------------------------------------------


def solve(model: str, shoe: Shoe, commission: Fraction = Fraction(0)) -> Solution:
    """The solution of chemin de fer under ``model`` ("A", "B2" or "B3") dealt from ``shoe``, with
    a commission ``commission`` (a fraction: 1/20 for 5%) taken from the banker's wins.

    Zero-sum: optimal strategies by exact linear programming; with one player information set
    (A, B2) an exhaustive search of the equilibria also decides uniqueness. With a commission:
    the equilibria by :func:`equilibria` (the first is shown; the notes say how many)."""
    model = _model(model)
    commission = Fraction(commission)
    game = make_game(payoff_table(model, shoe), commission)
    search = equilibria(game) if game.infosets == 1 or commission else None
    if commission == 0:
        profile = _zero_sum(game)
        notes = ["zero-sum: optimal strategies by exact linear programming"]
    elif search is not None and search.profiles:
        profile = search.profiles[0]
        notes = []
    else:
        raise ValueError("no equilibrium found")
    unique: bool | None = None
    if search is None:
        notes.append("uniqueness not established (nor by Ethier and Gamez)")
    else:
        count = len(search.profiles)
        notes.append(f"{count} equilibri{'um' if count == 1 else 'a'} found by an exhaustive search of the supports")
        shown = list(dict.fromkeys(search.continua))
        notes += [f"not isolated: {text}" for text in shown[:3]] + ([f"not isolated: and {len(shown) - 3} more"] if len(shown) > 3 else [])
        if game.infosets == 1:
            unique = count == 1 and not shown
        else:
            notes.append("uniqueness not claimed for several information sets: the search finds a point of every set of equilibria, not whether it is isolated")
    certificate = certify(game, profile)
    x, y = profile
    table = game.table
    return Solution(
        model=model,
        decks=_decks(shoe),
        commission=commission,
        value=certificate.player_payoff,
        banker_value=certificate.banker_payoff,
        player={key: share for key, share in zip(table.infosets, x)},
        banker=tuple((cell.banker, "stood" if cell.third is None else cell.third, draw) for cell, draw in zip(table.cells, y)),
        certificate=certificate,
        unique=unique,
        notes=tuple(notes),
    )


def _decks(shoe: Shoe) -> int | str:
    if shoe.with_replacement:
        return "inf"
    decks = shoe.rank_counts[0] // 4
    return decks if decks and shoe.rank_counts == Shoe.decks(decks).rank_counts else shoe.description


def optimal_policy(solution: Solution) -> Policy:
    """The solution as a policy of the model's rule set (every option point named), for
    :func:`exact_odds.analysis.analyze`."""
    entries = []
    for key, share in solution.player.items():
        entries.append((_point("player", key, None).name, share))
    for banker, third, draw in solution.banker:
        entries.append((_point("banker", banker, None if third == "stood" else int(third)).name, draw))
    return Policy(tuple(entries))


RULE_SETS = {CHEMIN_DE_FER_A: "A", CHEMIN_DE_FER_B2: "B2", CHEMIN_DE_FER_B3: "B3"}


def with_optimal(rules: DrawRules, policy: Policy, shoe: Shoe) -> Policy:
    """``policy`` with its base ``optimal`` replaced by the solution of the chemin de fer game that
    ``rules`` play from ``shoe`` (at the rule set's commission); its own entries override it where they
    name a point (:func:`~exact_odds.policy.with_base`)."""
    if policy.base != "optimal":
        return policy
    model = next((name for preset, name in RULE_SETS.items() if preset.with_pays(rules.commission, rules.tie_pays) == rules), None)
    if model is None:
        raise InputError(f"--policy optimal solves chemin de fer: give --rules chemin_de_fer_a, _b2 or _b3, not {rules.name}")
    solved = optimal_policy(solve(model, shoe, rules.commission / 100))
    return with_base(rules, policy, solved)


def _point(side: str, key: Key, third: int | None) -> OptionPoint:
    if isinstance(key, int):
        return OptionPoint(side, key, None, third)
    return OptionPoint(side, sum(key) % 10, key, third)


# --- rendering ----------------------------------------------------------------------------------


def key_text(key: Key) -> str:
    """A total as itself, two cards as "low,high"."""
    return str(key) if isinstance(key, int) else f"{key[0]},{key[1]}"


def _decimal(value: Fraction) -> str:
    return fixed(value, 10)


def _grid(solution: Solution) -> tuple[list[str], list[list[str]], list[str]]:
    """The banker's strategy as a tableau (header, rows; D draws, S stands, * departs from the
    Punto Banco tableau, M mixes) and, in words, where it mixes or departs."""
    rows: dict[Key, dict[int | str, str]] = {}
    words = []
    for banker, third, draw in solution.banker:
        punto = PUNTO_BANCO.mark("banker", _total(banker), None if third == "stood" else int(third))
        if 0 < draw < 1:
            mark = "M"
            words.append(f"mixes at {key_text(banker)} vs {third}: draws with probability {draw} ({_decimal(draw)})")
        else:
            mark = "D" if draw else "S"
            if mark != punto:
                words.append(f"{'draws' if draw else 'stands'} at {key_text(banker)} vs {third} (Punto Banco {'stands' if draw else 'draws'})")
                mark += "*"
        rows.setdefault(banker, {})[third] = mark
    header = (["banker"] if solution.model == "A" else ["total", "cards"]) + [str(third) for third in range(10)] + ["stood"]
    lines = []
    for banker, marks in rows.items():
        label = [str(banker)] if isinstance(banker, int) else [str(_total(banker)), key_text(banker)]
        lines.append(label + [marks[third] for third in range(10)] + [marks["stood"]])
    return header, lines, words


def _summary(solution: Solution) -> list[str]:
    certificate = solution.certificate
    setting = (f"{solution.decks} deck{'s' if solution.decks != 1 else ''}" if isinstance(solution.decks, int)
               else "infinite deck (cards drawn with replacement)" if solution.decks == "inf" else solution.decks)
    lines = [f"{solution.rules.name}: {setting}, "
             + ("no commission (a zero-sum game)" if not solution.commission else f"commission {solution.commission} of banker wins (a bimatrix game)")]
    if solution.commission:
        lines.append(f"Nash equilibrium: player's payoff per coup {solution.value} = {_decimal(solution.value)}; "
                     f"banker's {solution.banker_value} = {_decimal(solution.banker_value)}")
    else:
        lines.append(f"Value (player's expectation per coup): {solution.value} = {_decimal(solution.value)}")
    for key, share in solution.player.items():
        lines.append(f"Player draws on {key_text(key) if isinstance(key, tuple) else f'total {key}'} with probability {share} ({_decimal(share)})")
    if certificate.zero_sum:
        lines.append(f"Certificate: the player's strategy guarantees him {certificate.player_guarantees}; the banker's holds him to "
                     f"{certificate.banker_guarantees}; " + ("both equal the value" if certificate.holds else "NOT EQUAL"))
    else:
        lines.append(f"Certificate: best deviation gains: player {certificate.player_gain}, banker {certificate.banker_gain}; "
                     + ("each strategy is a best reply to the other" if certificate.holds else "NOT AN EQUILIBRIUM"))
    lines.append("Uniqueness: " + {True: "unique", False: "not unique", None: "not established"}[solution.unique])
    return lines


def render(solution: Solution, fmt: str) -> str:
    """The solution as ``table`` (text), ``json``, ``markdown`` or ``latex``."""
    if fmt == "json":
        return json.dumps(solution_record(solution), indent=2) + "\n"
    header, rows, mixes = _grid(solution)
    legend = "D draws, S stands, * departs from the Punto Banco tableau, M mixes"
    if fmt == "latex":
        return _latex(solution, header, rows, mixes, legend)
    if fmt not in FORMATS:
        raise InputError(f"unknown format {fmt!r} (expected {', '.join(FORMATS)})")
    markdown = fmt == "markdown"
    strategy = grid(rows, header, markdown=markdown)
    summary = _summary(solution)
    parts = ([f"**{summary[0]}**", ""] + [f"- {line}" for line in summary[1:]] if markdown else summary)
    parts += ["", f"Banker's strategy ({legend}), by two-card {'total' if solution.model == 'A' else 'hand'} and the player's third card:", "", strategy]
    parts += ["", *(f"- Banker {text}" if markdown else f"Banker {text}" for text in mixes)] if mixes else []
    parts += ["", *(f"- {note}" if markdown else f"Note: {note}" for note in solution.notes)]
    return "\n".join(parts) + "\n"


def _latex(solution: Solution, header: list[str], rows: list[list[str]], mixes: list[str], legend: str) -> str:
    def cell(mark: str) -> str:
        return {"M": r"\textbf{M}"}.get(mark, mark.replace("*", r"$^*$"))

    def frac(value: Fraction) -> str:
        sign = "-" if value < 0 else ""
        return f"{sign}\\frac{{{abs(value.numerator)}}}{{{value.denominator}}}" if value.denominator != 1 else str(value)

    lines = ["% " + line for line in _summary(solution)]
    lines.append(f"Value: ${frac(solution.value)} \\approx {_decimal(solution.value)}$.\\\\")
    for key, share in solution.player.items():
        lines.append(f"Player draws on {key_text(key)} with probability ${frac(share)} \\approx {_decimal(share)}$.\\\\")
    lines.append("\\begin{tabular}{" + "l" * (len(header) - 11) + "|" + "c" * 11 + "}")
    lines.append(" & ".join(header) + r" \\ \hline")
    lines += [" & ".join(row[: len(header) - 11] + [cell(mark) for mark in row[len(header) - 11:]]) + r" \\" for row in rows]
    lines.append(r"\end{tabular}\\")
    lines.append(f"{legend.replace('*', '$^*$')}.\\\\")
    for banker, third, draw in solution.banker:
        if 0 < draw < 1:
            lines.append(f"Banker mixes at {key_text(banker)} vs {third}: draws with probability ${frac(draw)}$.\\\\")
    return "\n".join(lines) + "\n"


def solution_record(solution: Solution) -> dict[str, object]:
    """The JSON record: exact fractions as "n/d" strings."""
    certificate = solution.certificate
    return {
        "model": solution.model,
        "decks": solution.decks,
        "commission": str(solution.commission),
        "value": str(solution.value),
        "banker_value": str(solution.banker_value),
        "player": {key_text(key): str(share) for key, share in solution.player.items()},
        "banker": [{"banker": banker if isinstance(banker, int) else key_text(banker), "player_third": third, "draw": str(draw)}
                   for banker, third, draw in solution.banker],
        "certificate": {
            "player_guarantees": str(certificate.player_guarantees),
            "banker_guarantees": str(certificate.banker_guarantees),
            "player_payoff": str(certificate.player_payoff),
            "banker_payoff": str(certificate.banker_payoff),
            "player_gain": str(certificate.player_gain),
            "banker_gain": str(certificate.banker_gain),
            "holds": certificate.holds,
        },
        "unique": solution.unique,
        "notes": list(solution.notes),
    }
