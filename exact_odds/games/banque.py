"""Baccara banque as a three-person game, solved exactly: a banker against two player hands
(:class:`exact_odds.core.rules.BanqueRules`, payoffs by :mod:`exact_odds.games.banque_table`).

Each player chooses (draws or stands) on his option total, the same total in each situation he can
tell apart: player 1 by whether player 2 holds a natural; player 2 by whether player 1 does and,
when the rules let him read it (``second_sees_first``), by player 1's third card or standing. The
banker chooses in each cell. The stakes are ``stake`` (theta) on hand 1 and 1 - theta on hand 2;
the banker's payoff is theta times his net wins against hand 1 plus 1 - theta times those against
hand 2, each player's is minus his part: a three-person zero-sum game (Ethier and Lee 2015).

Two solutions of the literature (docs/banque.md):

- :func:`cooperative`: the players act as one (their stakes pooled) against the banker, with a
  correlated strategy (a joint lottery over their pure strategies: Ethier and Lee's *correlated
  cooperative equilibrium*), a zero-sum two-person game whose value and optimal strategies one
  exact linear program gives; its *independent* form (each player mixing on his own) exists when
  an optimal joint strategy is a product.
- :func:`exact_odds.games.banque_nash.nash`: the Nash equilibria of the three-person game.

>>> from exact_odds.core.rules import BANQUE_ETHIER_LEE
>>> from exact_odds.core.shoe import Shoe
>>> found = cooperative(banque_game(BANQUE_ETHIER_LEE, Shoe.parse("K=3,A=2,2=2,5=3")))
>>> found.value, found.certificate.holds, found.joint["player 1 on 5", "player 2 on 5"]
(Fraction(-11, 350), True, (Fraction(1, 1), Fraction(0, 1), Fraction(0, 1), Fraction(0, 1)))
"""

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ..core.rules import CHOICE, DRAW, BanqueRules
from ..core.shoe import Shoe
from ..errors import InputError
from .banque_table import NATURAL, STATE_NAMES, BanqueTable, banque_table
from .faces import Condition, Face, extent
from .linalg import optimum
from .bilinear import Poly, corners

@dataclass(frozen=True)
class BanqueGame:
    """A banque rule set on a shoe with its stakes, as integer payoffs (each scaled by
    ``table.total * scale``, scale the stake's denominator). ``infosets`` names each player's
    information sets (player 1's first); ``variables[c]`` the cell's player 1 and player 2 sets;
    ``banker[c][b]``, ``first[c][b]``, ``second[c][b]`` the three payoffs in cell c when the banker
    stands (b = 0) or draws (1); ``fixed[c]`` his choice where the rules fix it."""

    table: BanqueTable
    stake: Fraction
    scale: int
    infosets: tuple[str, ...]
    players: tuple[int, ...]
    variables: tuple[tuple[int, int], ...]
    banker: tuple[tuple[Poly, Poly], ...]
    first: tuple[tuple[Poly, Poly], ...]
    second: tuple[tuple[Poly, Poly], ...]
    constant: tuple[int, int, int]
    """The banker's, player 1's and player 2's payoffs in the coups where no one chooses."""
    fixed: tuple[int | None, ...]

    def cell_name(self, cell: int) -> str:
        banker, state_1, state_2 = self.table.cells[cell]
        return f"({banker}, {STATE_NAMES[state_1]}, {STATE_NAMES[state_2]})"


def _contexts(rules: BanqueRules) -> tuple[list[str], list[str]]:
    first = ["", " vs player 2's natural"]
    second = [" vs player 1's natural"] + ([f" vs player 1's {name}" for name in STATE_NAMES[:11]] if rules.second_sees_first else [""])
    return first, second


@lru_cache(maxsize=16)
def banque_game(rules: BanqueRules, shoe: Shoe) -> BanqueGame:
    """The game of ``rules`` dealt from ``shoe``: its information sets, cells and payoffs."""
    table = banque_table(rules, shoe)
    if len(table.options) != 1:
        raise InputError(f"{rules.name}: banque is solved with one option total per player (the rules give {len(table.options)})", parameter="rules")
    option = table.options[0]
    contexts_1, contexts_2 = _contexts(rules)
    infosets = tuple(f"player 1 on {option}{context}" for context in contexts_1) + tuple(f"player 2 on {option}{context}" for context in contexts_2)
    players = (1,) * len(contexts_1) + (2,) * len(contexts_2)
    scale = rules.stake.denominator
    share = rules.stake.numerator
    variables, banker, first, second, fixed = [], [], [], [], []
    for (banker_total, state_1, state_2), counts in zip(table.cells, table.counts):
        variable_1 = 1 if state_2 == NATURAL else 0
        if state_1 == NATURAL:
            variable_2 = len(contexts_1)
        else:
            variable_2 = len(contexts_1) + (1 + state_1 if rules.second_sees_first else 1)
        variables.append((variable_1, variable_2))
        polys = [[tuple(hand[m1][m2] for m1, m2 in ((0, 0), (1, 0), (0, 1), (1, 1))) for hand in choice] for choice in counts]
        banker.append(tuple(_combine(choice[0], share, choice[1], scale - share) for choice in polys))
        first.append(tuple(_combine(choice[0], -share, choice[1], 0) for choice in polys))
        second.append(tuple(_combine(choice[0], 0, choice[1], share - scale) for choice in polys))
        mark = rules.banker[banker_total]
        fixed.append(None if mark == CHOICE else int(mark == DRAW))
    hand_1, hand_2 = table.constant
    constant = (share * hand_1 + (scale - share) * hand_2, -share * hand_1, (share - scale) * hand_2)
    return BanqueGame(table, rules.stake, scale, infosets, players, tuple(variables), tuple(banker), tuple(first), tuple(second),  # type: ignore[arg-type]
                      constant, tuple(fixed))


def _combine(first: Sequence[int], first_factor: int, second: Sequence[int], second_factor: int) -> Poly:
    a, b, c, d = (x * first_factor + y * second_factor for x, y in zip(first, second))
    return a, b, c, d


# --- the players as one: the correlated cooperative equilibrium -------------------------------------


@dataclass(frozen=True)
class TeamCertificate:
    """``team_guarantees``: the players' pooled payoff with their joint strategy against the banker's
    best reply (cell by cell); ``banker_holds``: the most they get against the banker's strategy
    (over every pair of their pure strategies); both equal the value."""

    team_guarantees: Fraction
    banker_holds: Fraction

    @property
    def holds(self) -> bool:
        return self.team_guarantees == self.banker_holds


@dataclass(frozen=True)
class Cooperative:
    """The players as one against the banker with a correlated strategy (Ethier and Lee's correlated
    cooperative equilibrium). ``value``: the players' pooled payoff per unit staked (the banker's is
    minus it); ``draws``: each information set's probability of drawing; ``joint``: for player 1's
    and player 2's information sets met together, the probabilities that both draw, 1 draws and 2
    stands, 1 stands and 2 draws, both stand; ``banker``: his probability of drawing by cell.
    ``independent``: whether the players' joint strategy is a product of their own (then each
    mixing alone is an independent cooperative equilibrium), None when the optimal joint strategy is
    not unique and this was not decided."""

    value: Fraction
    draws: dict[str, Fraction]
    joint: dict[tuple[str, str], tuple[Fraction, Fraction, Fraction, Fraction]]
    banker: tuple[Fraction, ...]
    certificate: TeamCertificate
    team_face: Face
    """The players' optimal joint strategies, as moments, with the proofs of their extent."""
    independent: bool | None


def _pairs(game: BanqueGame) -> list[tuple[int, int]]:
    """The pairs of information sets (player 1's, player 2's) met in one cell where both choose."""
    return sorted({pair for pair, polys in zip(game.variables, game.banker) if any(poly[3] for poly in polys)})


def cooperative(game: BanqueGame) -> Cooperative:
    """Ethier and Lee's correlated cooperative equilibrium, exactly: the players' optimal joint
    strategy by an exact linear program over its moments (each draw probability and, for each pair
    of information sets met together, the probability that both draw, within the bounds any joint
    lottery keeps: a product of two draws lies between max(0, p + q - 1) and min(p, q)), and the
    banker's optimal strategy from its dual multipliers. Each pair shares player 1's one set, so
    those bounds are every joint lottery's."""
    pairs = _pairs(game)
    size = len(game.infosets) + len(pairs)
    free = [c for c, fixed in enumerate(game.fixed) if fixed is None and _varies(game.banker[c], game.variables[c], pairs)]
    settled = {c: _settled(game, c) for c in range(len(game.fixed)) if c not in free}
    bound = sum(abs(value) for polys in game.banker for poly in polys for value in poly) + 1
    objective = [Fraction(0)] * (size + len(free))
    for c, choice in settled.items():
        _add_linear(objective, game, c, game.banker[c][choice], pairs, -1)
    rows: list[list[Fraction]] = []
    bounds: list[Fraction] = []
    for j, c in enumerate(free):
        objective[size + j] = Fraction(-1)
        for choice in (0, 1):
            row = [Fraction(0)] * (size + len(free))
            _add_linear(row, game, c, game.banker[c][choice], pairs, 1)
            row[size + j] = Fraction(-1)
            rows.append(row)
            bounds.append(Fraction(-bound - game.banker[c][choice][0]))
    for i in range(len(game.infosets)):
        rows.append(_unit(size + len(free), {i: 1}))
        bounds.append(Fraction(1))
    for k, (first, second) in enumerate(pairs):
        product = len(game.infosets) + k
        limits: list[tuple[dict[int, int], int]] = [({product: 1, first: -1}, 0), ({product: 1, second: -1}, 0), ({first: 1, second: 1, product: -1}, 1)]
        for entries, limit in limits:
            rows.append(_unit(size + len(free), entries))
            bounds.append(Fraction(limit))
    found = optimum(objective, rows, bounds)
    assert found is not None, "the origin is feasible"
    moments = found.point[:size]
    banker = [Fraction(choice) for choice in [settled.get(c, 0) for c in range(len(game.fixed))]]
    for j, c in enumerate(free):
        stand, draw = found.multipliers[2 * j], found.multipliers[2 * j + 1]
        assert stand + draw == 1, "each cell's multipliers are the banker's mix"
        banker[c] = draw
    certificate = team_certificate(game, moments, banker, pairs)
    value = certificate.team_guarantees
    draws = dict(zip(game.infosets, moments[:len(game.infosets)]))
    joint = {}
    for k, (first, second) in enumerate(pairs):
        both, p, q = moments[len(game.infosets) + k], moments[first], moments[second]
        joint[game.infosets[first], game.infosets[second]] = (both, p - both, q - both, 1 - p - q + both)
    face, independent = _independence(game, moments, banker, pairs, free, value)
    return Cooperative(value, draws, joint, tuple(banker), certificate, face, independent)


def _unit(size: int, entries: dict[int, int]) -> list[Fraction]:
    row = [Fraction(0)] * size
    for index, value in entries.items():
        row[index] += value
    return row


def _add_linear(row: list[Fraction], game: BanqueGame, cell: int, poly: Poly, pairs: list[tuple[int, int]], sign: int) -> None:
    """Add ``sign`` times the poly's terms in the moments (draws, then the products of the pairs)."""
    first, second = game.variables[cell]
    row[first] += sign * poly[1]
    row[second] += sign * poly[2]
    if poly[3]:
        row[len(game.infosets) + pairs.index((first, second))] += sign * poly[3]


def _varies(polys: tuple[Poly, Poly], variables: tuple[int, int], pairs: list[tuple[int, int]]) -> bool:
    """Whether the banker's best choice in the cell depends on the players' joint strategy: his gain
    from drawing changes sign over the four pure pairs of the cell's two information sets."""
    values = corners(banker_gain(polys))
    return min(values) < 0 < max(values)


def banker_gain(polys: tuple[Poly, Poly]) -> Poly:
    """The banker's gain from drawing, less standing."""
    return _combine(polys[1], 1, polys[0], -1)


def _settled(game: BanqueGame, cell: int) -> int:
    """The banker's choice where the rules fix it, or one at least as good against every joint strategy."""
    fixed = game.fixed[cell]
    if fixed is not None:
        return fixed
    return int(max(corners(banker_gain(game.banker[cell]))) > 0)


def team_certificate(game: BanqueGame, moments: Sequence[Fraction], banker: Sequence[Fraction], pairs: list[tuple[int, int]]) -> TeamCertificate:
    """Both guarantees from the payoffs alone (see :class:`TeamCertificate`)."""
    total = Fraction(game.table.total * game.scale)
    count = len(game.infosets)

    def moment(poly: Poly, cell: int) -> Fraction:
        first, second = game.variables[cell]
        both = moments[count + pairs.index((first, second))] if poly[3] else Fraction(0)
        return poly[0] + poly[1] * moments[first] + poly[2] * moments[second] + poly[3] * both

    banker_best = game.constant[0] + sum((moment(game.banker[c][0], c) if fixed == 0 else moment(game.banker[c][1], c) if fixed == 1
                                          else max(moment(game.banker[c][0], c), moment(game.banker[c][1], c))
                                          for c, fixed in enumerate(game.fixed)), Fraction(0))
    return TeamCertificate(-banker_best / total, -_banker_against_best_team(game, banker) / total)


def _banker_against_best_team(game: BanqueGame, banker: Sequence[Fraction]) -> Fraction:
    """The banker's payoff (scaled) when the players answer his strategy with their best pair of pure
    strategies: for each choice of player 1 at his sets, player 2's sets are answered one by one."""
    count = len(game.infosets)
    firsts = [i for i in range(count) if game.players[i] == 1]
    best: Fraction | None = None
    for pure in range(2 ** len(firsts)):
        choice_1 = {i: (pure >> n) & 1 for n, i in enumerate(firsts)}
        constant = Fraction(game.constant[0])
        slopes = [Fraction(0)] * count
        for c, (first, second) in enumerate(game.variables):
            draw = banker[c]
            poly = tuple((1 - draw) * stand + draw * hit for stand, hit in zip(*game.banker[c]))
            x = choice_1[first]
            constant += poly[0] + poly[1] * x
            slopes[second] += poly[2] + poly[3] * x
        value = constant + sum((min(Fraction(0), slope) for i, slope in enumerate(slopes) if game.players[i] == 2), Fraction(0))
        best = value if best is None else min(best, value)
    assert best is not None
    return best


def _independence(game: BanqueGame, moments: list[Fraction], banker: list[Fraction], pairs: list[tuple[int, int]], free: list[int],
                  value: Fraction) -> tuple[Face, bool | None]:
    """The players' optimal joint strategies (their moments' face: within every joint lottery's
    bounds, a best reply to the banker's strategy, which is one to them; interchangeability makes it
    every optimal one), and whether the optimal one, when unique, is a product of their own
    strategies; None when it is not unique."""
    count = len(game.infosets)
    size = len(moments)

    def linear(cell: int, poly: Poly, sign: int) -> tuple[Fraction, list[Fraction]]:
        row = [Fraction(0)] * size
        _add_linear(row, game, cell, poly, pairs, sign)
        return Fraction(sign * poly[0]), row

    conditions: list[Condition] = []
    for k, (first, second) in enumerate(pairs):
        product = count + k
        limits: list[tuple[dict[int, int], int, str]] = [({product: 1, first: -1}, 0, "both draw <= player 1 draws"),
                                                         ({product: 1, second: -1}, 0, "both draw <= player 2 draws"),
                                                         ({first: 1, second: 1, product: -1}, -1, "either draws <= 1")]
        for entries, limit, name in limits:
            conditions.append(Condition(f"{name} ({game.infosets[first]}, {game.infosets[second]})", tuple(_unit(size, entries)), Fraction(limit), "<="))
    total_constant, total_row = Fraction(-game.constant[0]), [Fraction(0)] * size
    for c, draw in enumerate(banker):
        for choice, weight in ((0, 1 - draw), (1, draw)):
            if weight:
                part, row = linear(c, game.banker[c][choice], -1)
                total_constant += weight * part
                total_row = [a + weight * b for a, b in zip(total_row, row)]
    scaled_value = value * game.table.total * game.scale
    conditions.append(Condition("the players' payoff against the banker's strategy is the value", tuple(total_row), total_constant - scaled_value, ">="))
    for c in free:
        part, row = linear(c, banker_gain(game.banker[c]), 1)
        sense = ">=" if banker[c] == 1 else "<=" if banker[c] == 0 else "=="
        conditions.append(Condition(f"banker at {game.cell_name(c)}", tuple(row), part, sense))
    names = [*game.infosets, *(f"both draw: {game.infosets[first]}, {game.infosets[second]}" for first, second in pairs)]
    face = extent(names, moments, conditions)
    if not face.unique:
        return face, None
    return face, all(moments[count + k] == moments[first] * moments[second] for k, (first, second) in enumerate(pairs))


def with_stake(rules: BanqueRules, stake: Fraction) -> BanqueRules:
    """The rule set with another share of the stakes on player 1's hand (checked)."""
    return BanqueRules(rules.name, rules.naturals, rules.player, rules.banker, rules.second_sees_first, Fraction(stake))

