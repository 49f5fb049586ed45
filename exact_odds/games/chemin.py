"""Chemin de fer as a game, solved exactly from its rule set: the models of Kemeny and Snell (A),
Downton and Lockwood (B2) and Ethier and Gamez (B3), or any rule set (a rules file) whose drawing
rules leave choices (option points, marked C) to both sides, with or without a commission on the
banker's wins.

In the models the player draws on 0-4, stands on 6-7 and chooses on 5 (seeing his total, or under
B3 his two cards); the banker chooses at every two-card total 0-7 (seeing his total under A, his two
cards under B2 and B3) against the player's third card, face up, or the player's standing. Naturals
(8, 9) end the coup. The player wins +1 or loses 1; the banker wins 1 less a commission ``alpha``
(zero: a zero-sum game). Every coup meets at most one decision of each side, so a payoff is a
constant plus, per banker information set (a *cell*), a term affine in the player's draw
probabilities, plus an affine term from the coups where the rules fix the banker's draw: the
banker's best reply is cell by cell ("additive" games, Foster's algorithm).

Everything is exact: weighted counts of ordered 6-card sequences (value by value, falling
factorials of the shoe's counts), then exact rational linear programming (zero-sum) or an
exhaustive search of the equilibria's supports (bimatrix), and a certificate computed from the
counts alone. docs/chemin.md describes the models, the method and its limits.

>>> from exact_odds.core.shoe import Shoe
>>> solution = solve("A", Shoe.infinite())
>>> solution.value, solution.player
(Fraction(-679568, 53094899), {5: Fraction(9, 11)})
>>> [(banker, third, draw) for banker, third, draw in solution.banker if 0 < draw < 1]
[(6, 'stood', Fraction(859, 2288))]
>>> solution.certificate.player_guarantees == solution.certificate.banker_guarantees == solution.value
True
"""

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product
from math import comb, lcm


from ..errors import InputError
from ..core.policy import Policy, with_base
from ..core.rules import (CHEMIN_DE_FER_A, CHEMIN_DE_FER_B2, CHEMIN_DE_FER_B3, CHOICE, DRAW, PUNTO_BANCO, DrawRules, OptionPoint,
                          compositions)
from ..core.shoe import Shoe
from .faces import Condition, Face, extent, vertices
from .linalg import maximize, solve_integer, solve_linear

MODELS: dict[str, DrawRules] = {"A": CHEMIN_DE_FER_A, "B2": CHEMIN_DE_FER_B2, "B3": CHEMIN_DE_FER_B3}
PAIRS = [(low, high) for low in range(10) for high in range(low, 10)]
THIRDS: tuple[int | None, ...] = (None, *range(10))
"""The banker's view of the player: stood (None), or the player's third card."""
MAX_INFOSETS = 22
"""The most information sets of the player that the exact linear programs take (B3: 5; each more
total seen by two cards adds 5 or 6, and the simplex's time grows steeply)."""
MAX_SYSTEMS = 250_000
"""The most small exact systems the equilibrium search may solve (B3 with a commission: under 100,000)."""

Key = int | tuple[int, int]
"""A total, or a two-card hand (point values, low first)."""
Affine = tuple[int, tuple[int, ...]]
"""An integer affine function of the player's draw probabilities: constant, slopes."""
Profile = tuple[tuple[Fraction, ...], tuple[Fraction, ...]]
"""The player's draw probabilities by information set, the banker's by cell."""
Counts = tuple[int, tuple[int, int], tuple[tuple[int, int], ...], dict[tuple[tuple[int, int], int], list[list[int]]]]
"""What :func:`_counts` returns."""


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
    """The payoff structure of a rule set on a shoe: counts out of ``total`` ordered 6-card sequences."""

    model: str
    total: int
    naturals: tuple[int, int]
    """Player wins and banker wins on a natural (no decision)."""
    infosets: tuple[Key, ...]
    """The player's information sets: his option points, by total or by two cards."""
    cells: tuple[Cell, ...]
    fixed: tuple[Affine, Affine]
    """Player wins and banker wins in the other coups that meet no choice of the banker (the rules
    fix his draw there), affine in the player's draw probabilities."""


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
    """A solution of a game: the player's payoff per coup (``value``), the banker's, each side's
    probability of drawing by information set, the certificate and what is known of uniqueness."""

    model: str
    """A, B2, B3, or the name of the rule set that is none of them."""
    rules: DrawRules
    decks: int | str
    commission: Fraction
    value: Fraction
    banker_value: Fraction
    player: dict[Key, Fraction]
    banker: tuple[tuple[Key, int | str, Fraction], ...]
    """(banker total or two cards, player's third card 0-9 or "stood", probability of drawing)."""
    certificate: Certificate
    unique: bool
    """Both sides' strategies are unique (:attr:`uniqueness` says which side's is not, and why)."""
    uniqueness: "Uniqueness"
    notes: tuple[str, ...]


# --- the rule set and its payoff structure -----------------------------------------------------


def game_rules(model: str | DrawRules) -> tuple[str, DrawRules]:
    """The name and the rule set of a game: a model (A, B2, B3) or a rule set (named by its model
    when it is one of theirs), checked to leave a choice to each side."""
    if isinstance(model, str):
        name = model.upper()
        if name not in MODELS:
            raise InputError(f"unknown chemin de fer model {model!r} (expected {', '.join(MODELS)})")
        return name, MODELS[name]
    points = model.option_points()
    for side in ("player", "banker"):
        if not any(point.side == side for point in points):
            raise InputError(f"{model.name} leaves the {side} no choice (no option point, C, of his): "
                             "chemin de fer is solved as a game where both sides choose")
    infosets = sum(point.side == "player" for point in points)
    if infosets > MAX_INFOSETS:
        raise InputError(f"{model.name} gives the player {infosets} option points (information sets): "
                         f"chemin de fer is solved for at most {MAX_INFOSETS}")
    name = next((letter for letter, preset in MODELS.items() if preset.with_pays(model.commission, model.tie_pays) == model), model.name)
    return name, model


@lru_cache(maxsize=32)
def _counts(shoe: Shoe, naturals: frozenset[int], player: tuple[str, ...]) -> Counts:
    """The finest counts of the coups of ``shoe`` under the ``naturals`` and the player's marks
    ``player`` (by two-card total): the total, the naturals' player and banker wins, the player's
    two-card hands where he chooses (C), and per (banker's two-card hand, slot: 0 the player stood,
    1 + his third card), for each banker choice (stand, draw), 2 + 2n integers: player wins and
    banker wins when the player stands at every choice, then for each of those n hands their change
    when he draws there. The banker's marks and what each side sees only group these counts
    (:func:`payoff_table`). A coup's k cards weigh the product of the counts left as each is dealt,
    times ``rest[k]``, the ways to deal the 6 - k cards it does not use."""
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

    open_totals = [total for total in range(10) if total not in naturals]
    choosing = tuple(hand for hand in PAIRS if sum(hand) % 10 in open_totals and player[sum(hand) % 10] == CHOICE)
    width = 2 + 2 * len(choosing)
    cells: dict[tuple[tuple[int, int], int], list[list[int]]] = {
        (hand, slot): [[0] * width, [0] * width] for total in open_totals for hand in compositions(total) for slot in range(11)}
    wins = [0, 0]

    def add(row: list[int], context: tuple[int, bool] | None, player_total: int, banker_total: int, weight: int) -> None:
        if player_total == banker_total or not weight:
            return
        side = 0 if player_total > banker_total else 1
        if context is None or not context[1]:
            row[side] += weight
        if context is not None:
            row[2 + 2 * context[0] + side] += weight if context[1] else -weight

    def banker_choices(hand: tuple[int, int], slot: int, context: tuple[int, bool] | None, player_total: int, banker_total: int,
                       weight: int, dealt: int) -> None:
        stand, draw = cells[(hand, slot)]
        add(stand, context, player_total, banker_total, weight * rest[dealt])
        for card in range(10):
            add(draw, context, player_total, (banker_total + card) % 10, weight * take(card) * rest[dealt + 1])
            used[card] -= 1

    for player_hand, banker_hand in product(PAIRS, PAIRS):
        cards = player_hand + banker_hand
        weight = (2 - (player_hand[0] == player_hand[1])) * (2 - (banker_hand[0] == banker_hand[1]))
        for card in cards:
            weight *= take(card)
        player_total, banker_total = sum(player_hand) % 10, sum(banker_hand) % 10
        if weight and (player_total in naturals or banker_total in naturals):
            if player_total != banker_total:
                wins[player_total < banker_total] += weight * rest[4]
        elif weight:
            mark = player[player_total]
            if mark == CHOICE:
                index = choosing.index(player_hand)
                branches: list[tuple[tuple[int, bool] | None, bool]] = [((index, True), True), ((index, False), False)]
            else:
                branches = [(None, mark == DRAW)]
            for context, draws in branches:
                if not draws:
                    banker_choices(banker_hand, 0, context, player_total, banker_total, weight, 4)
                    continue
                for third in range(10):
                    drawn = weight * take(third)
                    if drawn:
                        banker_choices(banker_hand, third + 1, context, (player_total + third) % 10, banker_total, drawn, 5)
                    used[third] -= 1
        for card in cards:
            used[card] -= 1
    return rest[0], (wins[0], wins[1]), choosing, cells


@lru_cache(maxsize=64)
def payoff_table(model: str | DrawRules, shoe: Shoe) -> Table:
    """The payoff structure of ``model`` ("A", "B2", "B3", or a rule set, see :func:`game_rules`)
    on ``shoe``, exactly: the player's information sets and the banker's cells are the rule set's
    option points; the coups where it fixes the banker's draw make :attr:`Table.fixed`."""
    name, rules = game_rules(model)
    shoe.checked()
    total, naturals, choosing, finest = _counts(shoe, rules.naturals, rules.player)
    infosets = tuple(_key(point) for point in rules.option_points() if point.side == "player")
    group = [infosets.index(hand if rules.player_sees == "cards" else sum(hand) % 10) for hand in choosing]
    width = 2 + 2 * len(choosing)
    sums: dict[tuple[Key, int], list[list[int]]] = {}
    fixed_row = [0] * width
    for (hand, slot), rows in finest.items():
        banker_total = sum(hand) % 10
        mark = rules.mark("banker", banker_total, THIRDS[slot])
        if mark == CHOICE:
            key: Key = hand if rules.banker_sees == "cards" else banker_total
            targets = sums.setdefault((key, slot), [[0] * width, [0] * width])
        else:
            targets = [fixed_row] * 2
        for choice in (0, 1) if mark == CHOICE else (int(mark == DRAW),):
            for index, count in enumerate(rows[choice]):
                targets[choice][index] += count

    def affine(row: list[int], side: int) -> Affine:
        slopes = [0] * len(infosets)
        for hand, infoset in enumerate(group):
            slopes[infoset] += row[2 + 2 * hand + side]
        return row[side], tuple(slopes)

    cells = tuple(
        Cell(key, THIRDS[slot], (affine(rows[0], 0), affine(rows[1], 0)), (affine(rows[0], 1), affine(rows[1], 1)))
        for (key, slot), rows in sums.items())
    return Table(name, total, naturals, infosets, cells, (affine(fixed_row, 0), affine(fixed_row, 1)))


def _key(point: OptionPoint) -> Key:
    return point.cards if point.cards is not None else point.total


# --- the game for a commission --------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """A rule set on a shoe with a commission, as integer payoffs per cell and choice (stand, draw):
    the player's scaled by ``table.total``, the banker's by ``table.total * scale``."""

    table: Table
    commission: Fraction
    scale: int
    player: tuple[tuple[Affine, Affine], ...]
    banker: tuple[tuple[Affine, Affine], ...]
    player_base: Affine
    banker_base: Affine
    """The payoffs of the coups that meet no choice of the banker (naturals included)."""
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
    player_wins, banker_wins = table.fixed
    player_fixed, banker_fixed = _combine(player_wins, 1, banker_wins, -1), _combine(banker_wins, keep, player_wins, -scale)
    player_base = (wins - losses + player_fixed[0], player_fixed[1])
    banker_base = (keep * losses - scale * wins + banker_fixed[0], banker_fixed[1])
    stand_slopes = tuple(player_base[1][i] + sum(stand[1][i] for stand, _ in player) for i in range(len(table.infosets)))
    return Game(table, commission, scale, player, banker, player_base, banker_base,
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
    """The player's and the banker's expected payoffs (in integers over the strategies' common
    denominators, then one division each)."""
    x, y = profile
    across, down = lcm(*(share.denominator for share in x)), lcm(*(draw.denominator for draw in y))
    shares = [int(share * across) for share in x]
    draws = [int(draw * down) for draw in y]

    def at(function: Affine) -> int:
        return function[0] * across + sum(slope * share for slope, share in zip(function[1], shares))

    def payoff(base: Affine, cells: tuple[tuple[Affine, Affine], ...]) -> int:
        return at(base) * down + sum(at(stand) * (down - draw) + at(hit) * draw for (stand, hit), draw in zip(cells, draws))

    total = game.table.total * across * down
    return Fraction(payoff(game.player_base, game.player), total), Fraction(payoff(game.banker_base, game.banker), total * game.scale)


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
    guarantees = (_at(game.player_base, x) + sum((min(_at(stand, x), _at(hit, x)) for stand, hit in game.player), Fraction(0))) / total
    best_player = _payoffs(game, (tuple(Fraction(int(gain > 0)) for gain in _incentives(game, y)), y))[0]
    best_banker = (_at(game.banker_base, x) + sum((max(_at(stand, x), _at(hit, x)) for stand, hit in game.banker), Fraction(0))) / (total * game.scale)
    return Certificate(game.commission == 0, guarantees, best_player, player, banker, best_player - player, best_banker - banker)


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
    objective = [Fraction(slope) for slope in game.player_base[1]] + [Fraction(0)] * len(free)
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
    """The equilibria found by :func:`equilibria`: one for each vertex of the arrangement of the
    banker's indifference hyperplanes (and the unit box) in the player's strategies where there is
    one, with whether the banker's equilibrium strategy there is the only one (``isolated``), and
    notes where a system was singular or an interval of one information set holds equilibria."""

    profiles: tuple[Profile, ...]
    continua: tuple[str, ...]
    isolated: tuple[bool, ...] = ()


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
    isolated_found: list[bool] = []
    continua: list[str] = []
    seen: set[tuple[Fraction, ...]] = set()
    plans = []
    for pattern in product(*(((0, 1, None) if fixed is None else (fixed,)) for fixed in player_fixed)):
        mixed = [i for i, choice in enumerate(pattern) if choice is None]
        restricted = {}
        for k in relevant:
            constant = banker_gain[k][0] + sum(banker_gain[k][1][i] * choice for i, choice in enumerate(pattern) if choice is not None)
            restricted[k] = (constant, tuple(banker_gain[k][1][i] for i in mixed))
        candidates = [k for k in relevant if banker_fixed[k] is None and any(restricted[k][1]) and _range(restricted[k])[0] < 0 < _range(restricted[k])[1]]
        plans.append((pattern, mixed, restricted, candidates))
    systems = sum(comb(len(candidates), len(mixed)) for _, mixed, _, candidates in plans)
    if systems > MAX_SYSTEMS:
        open_sets = sum(fixed is None for fixed in player_fixed)
        raise InputError(f"{game.table.model}: the exhaustive search of the equilibria would solve {systems:,} systems (at most {MAX_SYSTEMS:,}): "
                         f"the player has {open_sets} information sets where neither choice is dominated; solve it without a commission")
    for pattern, mixed, restricted, candidates in plans:
        for indifferent in combinations(candidates, len(mixed)):
            shares: list[Fraction] = []
            if mixed:
                solved = solve_integer([[*restricted[k][1], -restricted[k][0]] for k in indifferent])
                if isinstance(solved, bool):
                    continue  # singular: the vertices on that line are found by other sets of cells
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
                isolated_found.append(isolated)
                if not isolated:
                    continua.append(f"at player mix {_shown(x)} the banker's equilibrium strategies form a continuum")
    if m == 1:
        continua += _intervals(game, relevant, banker_gain, player_gain, base_y)
    return Search(tuple(found), tuple(continua), tuple(isolated_found))


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


# --- uniqueness: each side's face, and the search's vertices ---------------------------------------


@dataclass(frozen=True)
class Alternative:
    """Another solution strategy of one side (``side``; "equilibrium": another equilibrium found by
    the search), by the values it gives where it differs, with both payoffs against the other side's
    solution strategy (or its own equilibrium partner)."""

    side: str
    values: tuple[tuple[str, Fraction], ...]
    player_payoff: Fraction
    banker_payoff: Fraction


@dataclass(frozen=True)
class Uniqueness:
    """Whether each side's solution strategy is unique, decided exactly. ``player_face`` is the set of
    player strategies x that form a solution with the banker's strategy y (x a best reply to y and y
    to x), ``banker_face`` likewise; without a commission these are the optimal strategies
    (interchangeability of saddle points) and the faces decide. With a commission the search
    (:func:`equilibria`) is also needed: ``equilibria`` is how many it found."""

    player: bool
    banker: bool
    zero_sum: bool
    player_face: Face
    banker_face: Face
    equilibria: int
    alternatives: tuple[Alternative, ...]

    def summary(self) -> str:
        """In words: which side's strategy is unique, and how that was decided."""
        if self.player and self.banker:
            text = "unique"
        elif self.player == self.banker:
            text = "not unique (either side)"
        else:
            text = f"player's strategy {'unique' if self.player else 'not unique'}, banker's {'unique' if self.banker else 'not unique'}"
        how = ("each side's optimal face, by exact linear programs" if self.zero_sum
               else f"the search's vertices ({self.equilibria} equilibri{'um' if self.equilibria == 1 else 'a'}) and each side's face")
        return f"{text}, decided by {how}"


def _always(condition: Condition) -> bool:
    """The condition holds over the whole unit box."""
    low = condition.constant + sum((min(Fraction(0), a) for a in condition.coefficients), Fraction(0))
    high = condition.constant + sum((max(Fraction(0), a) for a in condition.coefficients), Fraction(0))
    return (high <= 0) if condition.sense == "<=" else (low >= 0) if condition.sense == ">=" else low == high == 0


def _sense(share: Fraction) -> str:
    """The condition a best reply puts on the gain from drawing: >= 0 to draw, <= 0 to stand, = 0 to mix."""
    return ">=" if share == 1 else "<=" if share == 0 else "=="


def player_face(game: Game, profile: Profile) -> Face:
    """The player strategies x that form a solution with the banker's y: x a best reply to y (free
    where the player is indifferent) and y a best reply to x (a condition per banker cell)."""
    x, y = profile
    incentives = _incentives(game, y)
    free = [i for i, incentive in enumerate(incentives) if incentive == 0]
    conditions = []
    for cell, gain, draw in zip(game.table.cells, game.banker_gain, y):
        constant = gain[0] + sum((gain[1][i] * x[i] for i in range(game.infosets) if i not in free), Fraction(0))
        condition = Condition(f"banker at {_cell_name(cell)}", tuple(Fraction(gain[1][i]) for i in free), constant, _sense(draw))
        if not _always(condition):
            conditions.append(condition)
    return extent([key_text(game.table.infosets[i]) for i in free], [x[i] for i in free], conditions)


def banker_face(game: Game, profile: Profile) -> Face:
    """The banker strategies y that form a solution with the player's x: y a best reply to x (free at
    the cells where the banker is indifferent, except those whose choice changes no payoff) and x a
    best reply to y (a condition per player information set)."""
    x, y = profile
    zero = (0, (0,) * game.infosets)
    free = [k for k, gain in enumerate(game.banker_gain) if _at(gain, x) == 0 and (gain != zero or game.player_gain[k] != zero)]
    fixed = [Fraction(0) if k in free else draw for k, draw in enumerate(y)]
    base = _incentives(game, fixed)
    conditions = [Condition(f"player on {key_text(key)}", tuple(Fraction(game.player_gain[k][1][i]) for k in free), base[i], _sense(share))
                  for i, (key, share) in enumerate(zip(game.table.infosets, x))]
    return extent([_cell_name(game.table.cells[k]) for k in free], [y[k] for k in free], [c for c in conditions if not _always(c)])


def settle(game: Game, profile: Profile, search: Search | None) -> Uniqueness:
    """Whether each side's strategy in ``profile`` is unique. Zero-sum: the faces decide. With a
    commission the search's vertices decide: every equilibrium x lies in a face of the arrangement
    of the banker's indifference hyperplanes whose every vertex holds an equilibrium too (the
    banker's best replies there include those on the face, and the player's conditions only loosen),
    so one vertex found means one x, and the banker's strategy is unique when the same one, alone,
    answers every vertex found."""
    x, y = profile
    faces = player_face(game, profile), banker_face(game, profile)
    zero_sum = game.commission == 0
    found = 0
    if zero_sum:
        player, banker = faces[0].unique, faces[1].unique
    else:
        assert search is not None, "a commission's uniqueness needs the search"
        found = len(search.profiles)
        player = len({found_x for found_x, _ in search.profiles}) == 1
        banker = all(search.isolated) and len({found_y for _, found_y in search.profiles}) == 1
        assert (not player or faces[0].unique) and (not banker or faces[1].unique), "the search and the faces disagree"
    alternatives: list[Alternative] = []
    for side, face, unique in (("player", faces[0], player), ("banker", faces[1], banker)):
        if not unique:
            alternatives += _alternatives(game, profile, side, face)
    if search is not None and not player:
        shown = {(tuple(value for _, value in alternative.values), tuple(y)) for alternative in alternatives
                 if alternative.side == "player" and len(alternative.values) == game.infosets}
        for found_x, found_y in search.profiles:
            if found_x != tuple(x) and (found_x, found_y) not in shown:
                values = tuple((key_text(key), share) for key, share, mine in zip(game.table.infosets, found_x, x) if share != mine)
                alternatives.append(Alternative("equilibrium", values, *_payoffs(game, (found_x, found_y))))
    return Uniqueness(player, banker, zero_sum, *faces, found, tuple(alternatives))


def _alternatives(game: Game, profile: Profile, side: str, face: Face) -> list[Alternative]:
    """The vertices of a side's face as strategies, with both payoffs against the other side's."""
    x, y = profile
    found = []
    for vertex in vertices(face):
        if side == "player":
            names = [key_text(key) for key in game.table.infosets]
            changed = list(x)
        else:
            names = [_cell_name(cell) for cell in game.table.cells]
            changed = list(y)
        for name, value in zip(face.coordinates, vertex):
            changed[names.index(name)] = value
        pair = (tuple(changed), y) if side == "player" else (x, tuple(changed))
        found.append(Alternative(side, tuple(zip(face.coordinates, vertex)), *_payoffs(game, pair)))
    return found


# --- the entry points ---------------------------------------------------------------------------


def solve(model: str | DrawRules, shoe: Shoe, commission: Fraction = Fraction(0)) -> Solution:
    """The solution of chemin de fer under ``model`` ("A", "B2", "B3", or a rule set with option
    points for both sides) dealt from ``shoe``, with a commission ``commission`` (a fraction: 1/20
    for 5%) taken from the banker's wins.

    Zero-sum: optimal strategies by exact linear programming; with one player information set
    (A, B2) an exhaustive search of the equilibria also decides uniqueness. With a commission:
    the equilibria by :func:`equilibria` (the first is shown; the notes say how many)."""
    name, rules = game_rules(model)
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
    if search is not None:
        count = len(search.profiles)
        notes.append(f"{count} equilibri{'um' if count == 1 else 'a'} found by an exhaustive search of the supports")
        shown = list(dict.fromkeys(search.continua))
        notes += [f"not isolated: {text}" for text in shown[:3]] + ([f"not isolated: and {len(shown) - 3} more"] if len(shown) > 3 else [])
    uniqueness = settle(game, profile, search)
    certificate = certify(game, profile)
    x, y = profile
    table = game.table
    return Solution(
        model=name,
        rules=rules,
        decks=_decks(shoe),
        commission=commission,
        value=certificate.player_payoff,
        banker_value=certificate.banker_payoff,
        player={key: share for key, share in zip(table.infosets, x)},
        banker=tuple((cell.banker, "stood" if cell.third is None else cell.third, draw) for cell, draw in zip(table.cells, y)),
        certificate=certificate,
        unique=uniqueness.player and uniqueness.banker,
        uniqueness=uniqueness,
        notes=tuple(notes),
    )


def _decks(shoe: Shoe) -> int | str:
    if shoe.with_replacement:
        return "inf"
    decks = shoe.rank_counts[0] // 4
    return decks if decks and shoe.rank_counts == Shoe.decks(decks).rank_counts else shoe.description


def optimal_policy(solution: Solution) -> Policy:
    """The solution as a policy of its rule set (every option point named), for
    :func:`exact_odds.analyze`."""
    entries = []
    for key, share in solution.player.items():
        entries.append((_point("player", key, None).name, share))
    for banker, third, draw in solution.banker:
        entries.append((_point("banker", banker, None if third == "stood" else int(third)).name, draw))
    return Policy(tuple(entries))


def with_optimal(rules: DrawRules, policy: Policy, shoe: Shoe) -> Policy:
    """``policy`` with its base ``optimal`` replaced by the solution of the chemin de fer game that
    ``rules`` play from ``shoe`` (at the rule set's commission); its own entries override it where they
    name a point (:func:`~exact_odds.core.policy.with_base`)."""
    if policy.base != "optimal":
        return policy
    try:
        game_rules(rules)
    except InputError as error:
        raise InputError(f"policy optimal solves chemin de fer as a game: {error}", parameter="policy") from None
    solved = optimal_policy(solve(rules, shoe, rules.commission / 100))
    return with_base(rules, policy, solved)


def _point(side: str, key: Key, third: int | None) -> OptionPoint:
    if isinstance(key, int):
        return OptionPoint(side, key, None, third)
    return OptionPoint(side, sum(key) % 10, key, third)


# --- text of a key (rendering: exact_odds.commands.chemin) ----------------------------------


def key_text(key: Key) -> str:
    """A total as itself, two cards as "low,high"."""
    return str(key) if isinstance(key, int) else f"{key[0]},{key[1]}"
