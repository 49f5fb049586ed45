"""Whether each side's chemin de fer strategy is unique (issue 35): every certificate rechecked from
the payoffs alone, and the claims against brute force on small shoes.

The recheck derives each side's conditions here from the payoff structure (best replies on both
sides) and checks the certificate against them: its conditions are among them, its points satisfy
all of them, and its multipliers prove each free coordinate's least and greatest value (weak
duality). The brute force plays out every ordering of a small shoe under every pure strategy of
each side, finds every extreme optimal strategy (or equilibrium) of the matrix game by enumerating
supports, and maps them to draw probabilities: a side's strategy is unique when they all agree.
"""

from fractions import Fraction
from functools import cache
from itertools import combinations, product

import pytest

from oracles import deal_physically, total
from test_chemin import ALPHA, DECKS, HOUSE, HOUSE_ON_4, RANK_OF_VALUE, banker_point, orderings, pure_nets, solution, solve_square
from exact_odds.core.cards import Card
from exact_odds.core.rules import DrawRules, OptionPoint
from exact_odds.core.shoe import Shoe, shoe_of_decks
from exact_odds.games.chemin import Solution, key_text, make_game, payoff_table, solve
from exact_odds.games.faces import Face


def name_of_cell(banker: object, third: object) -> str:
    return f"({key_text(banker)}, {third})"  # type: ignore[arg-type]


def affine(function, x) -> Fraction:
    return function[0] + sum((slope * share for slope, share in zip(function[1], x)), Fraction(0))


def derived_conditions(model: str | DrawRules, decks: int | str, found: Solution, side: str) -> tuple[list[str], dict[str, tuple]]:
    """Recomputed here from the payoff structure: the side's free coordinates (where it is
    indifferent against the other side's strategy) and, by source, each condition (coefficients on
    the free coordinates, constant, sense) that makes the other side's strategy a best reply."""
    game = make_game(payoff_table(model, shoe_of_decks(decks)), found.commission)
    x = list(found.player.values())
    y = [draw for _, _, draw in found.banker]
    names = [key_text(key) for key in found.player]
    cells = [name_of_cell(banker, third) for banker, third, _ in found.banker]
    sense = lambda share: ">=" if share == 1 else "<=" if share == 0 else "=="  # noqa: E731
    incentives = [game.stand_slopes[i] + sum((draw * gain[1][i] for gain, draw in zip(game.player_gain, y)), Fraction(0))
                  for i in range(len(x))]
    conditions = {}
    if side == "player":
        free = [i for i, incentive in enumerate(incentives) if incentive == 0]
        for i, incentive in enumerate(incentives):
            assert i in free or x[i] == (incentive > 0), "the player's strategy is a best reply"
        for name, gain, draw in zip(cells, game.banker_gain, y):
            constant = gain[0] + sum((gain[1][i] * x[i] for i in range(len(x)) if i not in free), Fraction(0))
            conditions[f"banker at {name}"] = (tuple(Fraction(gain[1][i]) for i in free), constant, sense(draw))
        return [names[i] for i in free], conditions
    zero = (0, (0,) * len(x))
    gains = [affine(gain, x) for gain in game.banker_gain]
    free = [k for k, gain in enumerate(gains) if gain == 0 and (game.banker_gain[k] != zero or game.player_gain[k] != zero)]
    for k, gain in enumerate(gains):
        assert k in free or gain == 0 or y[k] == (gain > 0), "the banker's strategy is a best reply"
    for i, (name, share) in enumerate(zip(names, x)):
        constant = game.stand_slopes[i] + sum((y[k] * game.player_gain[k][1][i] for k in range(len(y)) if k not in free), Fraction(0))
        conditions[f"player on {name}"] = (tuple(Fraction(game.player_gain[k][1][i]) for k in free), constant, sense(share))
    return [cells[k] for k in free], conditions


def holds(condition: tuple, z) -> bool:
    coefficients, constant, sense = condition
    value = constant + sum((a * b for a, b in zip(coefficients, z)), Fraction(0))
    return value <= 0 if sense == "<=" else value >= 0 if sense == ">=" else value == 0


def recheck(face: Face, free: list[str], conditions: dict[str, tuple]) -> None:
    """The certificate of a face against the conditions derived here (see the module docstring)."""
    assert list(face.coordinates) == free
    rows, bounds = [], []
    for condition in face.conditions:
        derived = conditions[condition.source]
        assert (condition.coefficients, condition.constant, condition.sense) == derived
        coefficients, constant, sense = derived
        if sense in ("<=", "=="):
            rows.append(list(coefficients)), bounds.append(-constant)
        if sense in (">=", "=="):
            rows.append([-a for a in coefficients]), bounds.append(constant)
    for j in range(len(free)):
        rows.append([Fraction(int(i == j)) for i in range(len(free))]), bounds.append(Fraction(1))
    for j, bound in enumerate(face.bounds):
        for proof, sign, value in ((bound.high_proof, 1, bound.high), (bound.low_proof, -1, -bound.low)):
            assert all(0 <= z <= 1 for z in proof.point) and all(holds(condition, proof.point) for condition in conditions.values())
            assert sign * proof.point[j] == value
            assert len(proof.multipliers) == len(rows) and all(m >= 0 for m in proof.multipliers)
            combined = [sum((m * row[i] for m, row in zip(proof.multipliers, rows)), Fraction(0)) for i in range(len(free))]
            assert all(total >= sign * int(i == j) for i, total in enumerate(combined))
            assert sum((m * b for m, b in zip(proof.multipliers, bounds)), Fraction(0)) == value
    assert face.unique == all(bound.low == bound.high for bound in face.bounds)


CASES = [(model, decks, commission) for commission in (Fraction(0), ALPHA) for model in ("A", "B2", "B3") for decks in DECKS]


@pytest.mark.parametrize(("model", "decks", "commission"), CASES)
def test_each_certificate_rechecked_from_the_payoffs(model: str, decks: int | str, commission: Fraction) -> None:
    found = solution(model, decks, commission)
    uniqueness = found.uniqueness
    for side, face in (("player", uniqueness.player_face), ("banker", uniqueness.banker_face)):
        recheck(face, *derived_conditions(model, decks, found, side))
    if not commission:
        assert (uniqueness.player, uniqueness.banker) == (uniqueness.player_face.unique, uniqueness.banker_face.unique)
    # with replacement B2 and B3 leave the banker free among proportional cells, B3 the player too
    expected = (decks != "inf" or model != "B3", decks != "inf" or model == "A")
    assert (uniqueness.player, uniqueness.banker) == expected and found.unique == all(expected)
    assert len(uniqueness.alternatives) > 0 if not found.unique else uniqueness.alternatives == ()
    if model == "B3" and decks != "inf":
        # the question Ethier and Gamez (2013) and Ethier and Lee (2023) leave open: unique, the player's
        # only free choice on 1,4 and the banker's one cell
        assert uniqueness.player_face.coordinates == ("1,4",) and len(uniqueness.banker_face.coordinates) == 1


# --- brute force on small shoes -------------------------------------------------------------------


@cache
def matrix_of(rules: DrawRules, spec: str) -> tuple[list[tuple[int, ...]], list[OptionPoint], list[list[int]], list[list[int]]]:
    """Every pure strategy of each side over the shoe's orderings: the player's rows, the banker's
    cells met and columns (a choice at each), and the player's wins less losses (scaled) and the
    banker's wins less losses for each pair."""
    _, strategies = pure_nets(rules, spec)
    cells = sorted({cell for _, nets in strategies.values() for cell in nets})
    columns = list(product((0, 1), repeat=len(cells)))
    rows = list(strategies)
    player = [[base + sum(nets.get(cell, [0, 0])[b] for cell, b in zip(cells, column)) for column in columns]
              for base, nets in strategies.values()]
    return rows, cells, [list(column) for column in columns], player


def simplex_vertices(size: int, constraints: list[tuple[list[Fraction], Fraction]]) -> list[tuple[Fraction, ...]]:
    """Vertices of {p >= 0, sum p = 1, a . p >= b for each (a, b)}: every square system of the
    sum, some tight constraints and some zero coordinates."""
    found = set()
    for support in range(1, size + 1):
        for inside in combinations(range(size), support):
            for tight in combinations(range(len(constraints)), support - 1):
                matrix = [[Fraction(1)] * support] + [[constraints[t][0][i] for i in inside] for t in tight]
                solved = solve_square(matrix, [Fraction(1)] + [constraints[t][1] for t in tight])
                if solved is None:
                    continue
                p = [Fraction(0)] * size
                for i, value in zip(inside, solved):
                    p[i] = value
                if min(p) >= 0 and all(sum(a * v for a, v in zip(row, p)) >= bound for row, bound in constraints):
                    found.add(tuple(p))
    return sorted(found)


def behaviour(mixes: list[tuple[Fraction, ...]], pures: list, keep: list[int] | None = None) -> set[tuple[Fraction, ...]]:
    """Each mixed strategy as the probability of drawing at each decision (payoffs are additive),
    at the decisions ``keep`` (all by default)."""
    keep = list(range(len(pures[0]))) if keep is None else keep
    return {tuple(sum((share * pure[d] for share, pure in zip(mix, pures)), Fraction(0)) for d in keep) for mix in mixes}


def relevant(cells: list[OptionPoint], columns: list[list[int]], tables: list[list[list[int]]]) -> list[int]:
    """The cells whose choice changes some payoff (of either side, ``tables``) for some strategies:
    strategies that differ only where nothing changes are one strategy (as the solver counts them)."""
    def changes(d: int) -> bool:
        flipped = {tuple(column): c for c, column in enumerate(columns)}
        return any(table[r][c] != table[r][flipped[tuple(column[:d] + [1 - column[d]] + column[d + 1:])]]
                   for table in tables for r in range(len(table)) for c, column in enumerate(columns))
    return [d for d in range(len(cells)) if changes(d)]


def zero_sum_by_enumeration(rules: DrawRules, spec: str) -> tuple[set, set, list[OptionPoint]]:
    """The behaviour of every extreme optimal strategy of each side of the matrix game."""
    rows, cells, columns, player = matrix_of(rules, spec)
    value = None  # the best guarantee among the row mixes that equalise as many columns as rows they use
    for support in range(1, len(rows) + 1):
        for inside in combinations(range(len(rows)), support):
            for tight in combinations(range(len(columns)), support):
                solved = solve_square([[Fraction(player[i][j]) for i in inside] + [Fraction(-1)] for j in tight] + [[Fraction(1)] * support + [Fraction(0)]],
                                      [Fraction(0)] * support + [Fraction(1)])
                if solved is None or min(solved[:support]) < 0:
                    continue
                mix, guarantee = dict(zip(inside, solved[:support])), solved[support]
                if all(sum(p * player[i][j] for i, p in mix.items()) >= guarantee for j in range(len(columns))):
                    value = guarantee if value is None else max(value, guarantee)
    assert value is not None
    row_mixes = simplex_vertices(len(rows), [([Fraction(row[j]) for row in player], value) for j in range(len(columns))])
    column_mixes = simplex_vertices(len(columns), [([Fraction(-entry) for entry in row], -value) for row in player])
    keep = relevant(cells, columns, [player])
    return behaviour(row_mixes, rows), behaviour(column_mixes, columns, keep), [cells[d] for d in keep]


def interval(constraints: list[tuple[Fraction, Fraction]]) -> tuple[Fraction, Fraction] | None:
    """{t in [0, 1]: a + b t >= 0 for each (a, b)}, or None when empty."""
    low, high = Fraction(0), Fraction(1)
    for a, b in constraints:
        if b > 0:
            low = max(low, -a / b)
        elif b < 0:
            high = min(high, -a / b)
        elif a < 0:
            return None
    return (low, high) if low <= high else None


def bimatrix_by_enumeration(rules: DrawRules, spec: str, commission: Fraction) -> tuple[set, set, list[OptionPoint]]:
    """Every extreme equilibrium of a 2-row bimatrix game, by pairs of supports: the row player's
    support S and a column support T of at most two columns; the equilibria with those supports are
    the row mixes that make every column of T a best reply, times the column mixes on T that make
    every row of S one (each an interval here). Every equilibrium strategy of each side is a
    mixture of the vertices found (the column side's with at most two columns)."""
    rows, cells, columns, player = matrix_of(rules, spec)
    assert len(rows) == 2
    scale = commission.denominator
    keep = scale - commission.numerator
    # the banker's payoff: (1 - commission) banker wins less player wins; from the nets, wins and losses apart
    wins = banker_wins(rules, spec)
    banker = [[keep * wins[r][c] - scale * (wins[r][c] + player[r][c]) for c in range(len(columns))] for r in range(2)]
    row_found, column_found = [], []
    for support in ((0,), (1,), (0, 1)):
        for size in (1, 2):
            for chosen in combinations(range(len(columns)), size):
                # row mix (1 - t, t): every column in chosen is a banker best reply
                row_box = interval([(Fraction(banker[0][c] - banker[0][k]), Fraction(banker[1][c] - banker[1][k] - banker[0][c] + banker[0][k]))
                                    for c in chosen for k in range(len(columns))]
                                   + ([(Fraction(0), Fraction(-1))] if support == (0,) else [(Fraction(-1), Fraction(1))] if support == (1,) else []))
                # column mix on chosen (1 - s, s): every row in support is a player best reply
                values = [[player[r][c] for c in chosen] for r in range(2)]
                column_box = interval([(Fraction(values[r][0] - values[q][0]), Fraction((values[r][-1] - values[r][0]) - (values[q][-1] - values[q][0])))
                                       for r in support for q in range(2)] + ([(Fraction(0), Fraction(-1))] if size == 1 else []))
                if row_box is None or column_box is None:
                    continue
                for t in set(row_box):
                    row_found.append((1 - t, t))
                for s in set(column_box):
                    mix = [Fraction(0)] * len(columns)
                    mix[chosen[0]] += 1 - s
                    mix[chosen[-1]] += s
                    column_found.append(tuple(mix))
    keep = relevant(cells, columns, [player, banker])
    return behaviour(row_found, rows), behaviour(column_found, columns, keep), [cells[d] for d in keep]


def banker_wins(rules: DrawRules, spec: str) -> list[list[int]]:
    """The banker's wins (scaled) for each pair of pure strategies, from the shoe's orderings dealt
    by the oracle: per player strategy, the wins of the coups that meet no banker choice, and per
    cell met the wins when he stands and when he draws there."""
    points = rules.option_points()
    player_points = [point for point in points if point.side == "player"]
    banker_points = [point for point in points if point.side == "banker"]
    sequences = [([Card(RANK_OF_VALUE[value]) for value in values], count) for values, count in orderings(spec).items()]
    rows, cells, columns, _ = matrix_of(rules, spec)
    table = []
    for pure in rows:
        base, by_cell = 0, {cell: [0, 0] for cell in cells}
        for cards, count in sequences:
            wins = []
            for draws in (0, 1):
                chosen = {point: Fraction(draw) for point, draw in zip(player_points, pure)} | {point: Fraction(draws) for point in banker_points}
                [(_, player, banker)] = deal_physically(cards, rules, chosen)
                wins.append(count * (total(banker) > total(player)))
            met = banker_point(rules, player, banker)
            if met in by_cell:
                by_cell[met] = [a + b for a, b in zip(by_cell[met], wins)]
            else:
                base += wins[0]
        table.append([base + sum(by_cell[cell][bit] for cell, bit in zip(cells, column)) for column in columns])
    return table


def claimed(found: Solution, cells: list[OptionPoint]) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    draws = {(banker, third): draw for banker, third, draw in found.banker}
    return (tuple(found.player.values()),
            tuple(draws[(cell.cards or cell.total, "stood" if cell.third is None else cell.third)] for cell in cells))


@pytest.mark.parametrize(("rules", "spec", "unique"), [
    (HOUSE, "K=1,A=1,2=1,3=2,4=1,8=1,9=1", (True, True)),
    (HOUSE, "3=3,5=1,7=1,8=1", (True, False)),
    (HOUSE, "5=1,8=1,A=1,K=4", (False, True)),
    (HOUSE_ON_4, "K=1,A=1,3=1,4=2,7=1,9=1", (True, True)),
])
def test_zero_sum_uniqueness_against_every_pure_strategy(rules: DrawRules, spec: str, unique: tuple[bool, bool]) -> None:
    players, bankers, cells = zero_sum_by_enumeration(rules, spec)
    found = solve(rules, Shoe.parse(spec))
    assert (len(players) == 1, len(bankers) == 1) == unique == (found.uniqueness.player, found.uniqueness.banker)
    x, y = claimed(found, cells)
    assert x in players and y in bankers


@pytest.mark.parametrize(("spec", "unique"), [("K=1,A=1,2=1,3=2,4=1,8=1,9=1", (True, True)), ("3=3,5=1,7=1,8=1", (True, False)),
                                              ("2=1,4=1,5=1,9=1,A=2", (False, True))])
def test_commission_uniqueness_against_every_pure_strategy(spec: str, unique: tuple[bool, bool]) -> None:
    players, bankers, cells = bimatrix_by_enumeration(HOUSE, spec, ALPHA)
    found = solve(HOUSE, Shoe.parse(spec), ALPHA)
    assert (len(players) == 1, len(bankers) == 1) == unique == (found.uniqueness.player, found.uniqueness.banker)
    x, y = claimed(found, cells)
    assert x in players and y in bankers
