"""Baccara banque as a three-person game (issue 35): the payoff structure, the cooperative solution
and the Nash equilibria against brute force on small shoes, and every certificate rechecked from
the payoffs alone.

The brute force deals every ordering of a small shoe's cards here (player 1, player 2 and the
banker two cards each, then the third cards in turn), for every pure choice of each side.
"""

import json
import re
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations, permutations, product
from math import factorial, prod
from pathlib import Path
from types import SimpleNamespace

import pytest

from test_chemin import solve_square
from test_chemin_uniqueness import recheck as recheck_face
from exact_odds.core.rules import BANQUE, BANQUE_ETHIER_LEE, BanqueRules
from exact_odds.core.shoe import Shoe
from exact_odds.errors import InputError
from exact_odds.games.banque import banque_game, cooperative
from exact_odds.games.banque_nash import nash
from exact_odds.games.banque_solution import solve_banque
from exact_odds.games.banque_table import NATURAL, STOOD, banque_table
from exact_odds.games.surd import Exact, Surd

RESULTS = Path(__file__).resolve().parent.parent / "results" / "banque"
NO_NATURALS = "K=3,A=2,2=2,5=3"
"""Ten cards whose two-card totals never reach 8: every coup is the main game."""
WITH_NATURALS = "K=3,3=2,5=3,9=2"


def sign(a: int, b: int) -> int:
    return (a > b) - (a < b)


@cache
def orderings(spec: str) -> list[tuple[tuple[int, ...], int]]:
    """Every ordering of the shoe's cards by value, with the physical orderings each stands for."""
    counts = Shoe.parse(spec).value_counts
    cards = [value for value in range(10) for _ in range(counts[value])]
    weight = prod(factorial(count) for count in counts)
    return [(order, weight) for order in set(permutations(cards))]


def deal(rules: BanqueRules, order: tuple[int, ...], first_draws: int, second_draws: int, banker_draws: int):
    """One coup: player 1's and player 2's choice at their option total and the banker's choice, or
    None where no one chooses. Returns (cell or None, banker's net wins against hand 1, against hand 2)."""
    hands = [[order[0], order[3]], [order[1], order[4]], [order[2], order[5]]]
    totals = [sum(hand) % 10 for hand in hands]
    naturals = [total in rules.naturals for total in totals]
    if naturals[2] or (naturals[0] and naturals[1]):
        return None, sign(totals[2], totals[0]) if not naturals[0] or naturals[2] else -1, sign(totals[2], totals[1]) if not naturals[1] or naturals[2] else -1
    next_card = 6
    states, finals = [], []
    for player, choice in ((0, first_draws), (1, second_draws)):
        if naturals[player]:
            states.append(NATURAL)
            finals.append(None)
            continue
        mark = rules.player[totals[player]]
        if mark == "D" or (mark == "C" and choice):
            card = order[next_card]
            next_card += 1
            states.append(card)
            finals.append((totals[player] + card) % 10)
        else:
            states.append(STOOD)
            finals.append(totals[player])
    banker = (totals[2] + order[next_card]) % 10 if banker_draws else totals[2]
    nets = [-1 if final is None else sign(banker, final) for final in finals]
    return (totals[2], states[0], states[1]), nets[0], nets[1]


@pytest.mark.parametrize("rules", [BANQUE_ETHIER_LEE, BANQUE])
def test_payoff_table_against_every_ordering(rules: BanqueRules) -> None:
    """For every pure choice of each player and the banker, the banker's net wins against each hand
    in each cell (and where no one chooses) equal the table's polynomials at those choices."""
    table = banque_table(rules, Shoe.parse(WITH_NATURALS))
    assert table.total == factorial(10)
    found: Counter = Counter()
    for order, weight in orderings(WITH_NATURALS):
        for first, second, banker in product((0, 1), repeat=3):
            cell, one, two = deal(rules, order, first, second, banker)
            key = ("constant",) if cell is None else (cell, banker, first, second)
            if cell is None and (first, second, banker) != (0, 0, 0):
                continue
            found[key + (0,)] += weight * one
            found[key + (1,)] += weight * two
    assert (found["constant", 0], found["constant", 1]) == table.constant
    cells = dict(zip(table.cells, table.counts))
    for cell in {key[0] for key in found if key[0] != "constant"} | set(cells):
        for banker, first, second, hand in product((0, 1), repeat=4):
            counts = cells.get(cell)
            expected = 0 if counts is None else sum(counts[banker][hand][m1][m2] * (first if m1 else 1) * (second if m2 else 1)
                                                    for m1, m2 in product((0, 1), repeat=2))
            assert found[(cell, banker, first, second, hand)] == expected, (cell, banker, first, second, hand)


@cache
def brute_payoffs(rules: BanqueRules, spec: str) -> dict:
    """The three payoffs (banker, player 1, player 2; stake theta on hand 1), summed over the dealt
    coups, by player 1's and player 2's pure choices: where no one chooses, and in each cell met
    when the banker stands and when he draws."""
    theta = rules.stake
    table: dict = {}
    for order, weight in orderings(spec):
        for first, second in product((0, 1), repeat=2):
            entry = table.setdefault((first, second), {"constant": [Fraction(0)] * 3, "cells": {}})
            for banker in (0, 1):
                cell, one, two = deal(rules, order, first, second, banker)
                values = [weight * (theta * one + (1 - theta) * two), -weight * theta * one, -weight * (1 - theta) * two]
                if cell is None:
                    if banker == 0:
                        entry["constant"] = [a + b for a, b in zip(entry["constant"], values)]
                else:
                    pair = entry["cells"].setdefault(cell, [[Fraction(0)] * 3, [Fraction(0)] * 3])
                    pair[banker] = [a + b for a, b in zip(pair[banker], values)]
    return table


def cell_name(cell: tuple[int, int, int]) -> str:
    states = [str(state) if state < 10 else "stood" if state == STOOD else "natural" for state in cell[1:]]
    return f"({cell[0]}, {states[0]}, {states[1]})"


def test_cooperative_value_against_enumeration() -> None:
    """On a shoe without naturals the players have one information set each: four joint pure
    strategies. The value of the zero-sum game (players pooled against the banker) by enumeration:
    the best, over the vertices of the arrangement of the banker's indifference planes in the
    simplex of joint strategies, of the players' payoff against the banker's best pure choice in each
    cell (his best pure strategy, cell by cell as the payoffs add up). Equal to the solver's."""
    payoffs = brute_payoffs(BANQUE_ETHIER_LEE, NO_NATURALS)
    pures = list(payoffs)
    cells = sorted({cell for entry in payoffs.values() for cell in entry["cells"]})
    total = sum(weight for _, weight in orderings(NO_NATURALS))

    def stand_draw(cell):
        return [[payoffs[pure]["cells"].get(cell, [[0] * 3, [0] * 3])[b][0] for pure in pures] for b in (0, 1)]

    def banker_payoff(mix):
        value = sum(p * payoffs[pure]["constant"][0] for p, pure in zip(mix, pures))
        for cell in cells:
            value += max(sum(p * v for p, v in zip(mix, row)) for row in stand_draw(cell))
        return value

    planes = []
    for cell in cells:
        stand, draw = stand_draw(cell)
        gain = [d - s for s, d in zip(stand, draw)]
        if min(gain) < 0 < max(gain):  # the banker's choice changes inside the simplex
            planes.append(gain)
    planes += [[Fraction(int(i == j)) for i in range(4)] for j in range(4)]
    best = None
    for chosen in combinations(range(len(planes)), 3):
        solved = solve_square([[Fraction(1)] * 4] + [list(map(Fraction, planes[k])) for k in chosen], [Fraction(1), Fraction(0), Fraction(0), Fraction(0)])
        if solved is None or min(solved) < 0:
            continue
        value = -banker_payoff(solved) / total
        best = value if best is None else max(best, value)
    found = cooperative(banque_game(BANQUE_ETHIER_LEE, Shoe.parse(NO_NATURALS)))
    assert best == found.value == found.certificate.team_guarantees == found.certificate.banker_holds


def test_nash_against_every_pure_deviation() -> None:
    """The solver's Nash equilibrium on a shoe without naturals, its payoffs computed here from the
    dealt coups: no pure strategy of either player, and no pure choice of the banker in any cell,
    does better."""
    rules, spec = BANQUE_ETHIER_LEE, NO_NATURALS
    game = banque_game(rules, Shoe.parse(spec))
    search = nash(game)
    # this small shoe's one equilibrium: both players draw on 5; the banker's strategies form a continuum there
    assert search.exhaustive and len(search.equilibria) == 1 and search.continua == ("at player mixes (1, 1) the banker's equilibrium strategies form a continuum",)
    [equilibrium] = search.equilibria
    assert (equilibrium.draws["player 1 on 5"], equilibrium.draws["player 2 on 5"]) == (1, 1)
    payoffs = brute_payoffs(rules, spec)
    total = sum(weight for _, weight in orderings(spec))
    draws = dict(zip((cell_name(cell) for cell in game.table.cells), equilibrium.banker))

    def value(side: int, x: Exact, z: Exact, banker: dict | None = None) -> Exact:
        result: Exact = Fraction(0)
        for (first, second), entry in payoffs.items():
            chance = (x if first else 1 - x) * (z if second else 1 - z)
            for cell, pair in entry["cells"].items():
                y = (banker or {}).get(cell, draws[cell_name(cell)])
                result += chance * ((1 - y) * pair[0][side] + y * pair[1][side])
            result += chance * entry["constant"][side]
        return result / total

    x, z = equilibrium.draws["player 1 on 5"], equilibrium.draws["player 2 on 5"]
    at_equilibrium = [value(side, x, z) for side in range(3)]
    assert at_equilibrium == list(equilibrium.certificate.payoffs)
    for pure in (Fraction(0), Fraction(1)):
        assert value(1, pure, z) <= at_equilibrium[1] and value(2, x, pure) <= at_equilibrium[2]
    for cell in {cell for entry in payoffs.values() for cell in entry["cells"]}:
        for choice in (Fraction(0), Fraction(1)):
            assert value(0, x, z, {cell: choice}) <= at_equilibrium[0]


def recheck_team(game, found) -> None:
    """The cooperative certificate from the payoffs alone: the players' moments against the banker's
    best choice in each cell, and the banker's strategy against the players' best pure pair."""
    total = Fraction(game.table.total * game.scale)
    first, second = (game.infosets.index(name) for name in ("player 1 on 5", next(n for n in game.infosets if n.startswith("player 2") and "natural" not in n)))
    draws = [found.draws[name] for name in game.infosets]
    pairs = {(game.infosets.index(a), game.infosets.index(b)): both for (a, b), (both, _, _, _) in found.joint.items()}

    def moment(poly, cell):
        one, two = game.variables[cell]
        both = pairs.get((one, two), Fraction(0)) if poly[3] else Fraction(0)
        return poly[0] + poly[1] * draws[one] + poly[2] * draws[two] + poly[3] * both

    guarantee = -(game.constant[0] + sum(max(moment(game.banker[c][0], c), moment(game.banker[c][1], c)) for c in range(len(game.variables)))) / total
    assert guarantee == found.value
    worst = None
    players_1 = [i for i, name in enumerate(game.infosets) if name.startswith("player 1")]
    players_2 = [i for i, name in enumerate(game.infosets) if name.startswith("player 2")]
    for pure_1 in product((0, 1), repeat=len(players_1)):
        x = dict(zip(players_1, pure_1))
        base, slopes = Fraction(game.constant[0]), {i: Fraction(0) for i in players_2}
        for c, (one, two) in enumerate(game.variables):
            y = found.banker[c]
            poly = [(1 - y) * s + y * d for s, d in zip(*game.banker[c])]
            base += poly[0] + poly[1] * x[one]
            slopes[two] += poly[2] + poly[3] * x[one]
        value = base + sum(min(Fraction(0), slope) for slope in slopes.values())
        worst = value if worst is None else min(worst, value)
    assert -worst / total == found.value


@pytest.mark.parametrize("rules", [BANQUE_ETHIER_LEE, BANQUE])
def test_cooperative_certificate_rechecked(rules: BanqueRules) -> None:
    game = banque_game(rules, Shoe.parse(WITH_NATURALS))
    recheck_team(game, cooperative(game))


def test_kemeny_snell_after_a_natural() -> None:
    """With replacement (the record, rechecked below), a player facing the banker alone (the other
    holds a natural) plays chemin de fer model A: Kemeny and Snell's 9/11, the banker's 859/2288 at 6
    against a standing hand. The Nash players also draw on 5 with probability 9/11 in the main game,
    the banker mixing only at 6 against two standing hands."""
    record = json.loads((RESULTS / "banque_ethier_lee-decks-inf.json").read_text())
    team = record["cooperative"]
    assert team["draws"]["player 1 on 5 vs player 2's natural"]["exact"] == team["draws"]["player 2 on 5 vs player 1's natural"]["exact"] == "9/11"
    assert team["banker"]["(6, natural, stood)"] == team["banker"]["(6, stood, natural)"] == "859/2288"
    [equilibrium] = record["nash"]["equilibria"]
    assert equilibrium["draws"]["player 1 on 5"]["exact"] == equilibrium["draws"]["player 2 on 5"]["exact"] == "9/11"
    mixes = {cell: draw for cell, draw in equilibrium["banker"].items() if "natural" not in cell and draw not in ("0", "1")}
    assert mixes == {"(6, stood, stood)": "2785181/11421696"}


@pytest.mark.parametrize(("arguments", "parameter", "message"), [
    ({"rules": "banque_x"}, "rules", r"^unknown banque rules 'banque_x' \(expected banque, banque_ethier_lee\)$"),
    ({"stake": "3/2"}, "stake", r"^the stake on player 1's hand must be strictly between 0 and 1"),
    ({"stake": "half"}, "stake", r"^the stake on player 1's hand must be an exact number"),
    ({"shoe": "A=4,K=4"}, "shoe", r"^a banque coup needs 9 cards: the shoe has 8$"),
    ({"shoe": "lots"}, "shoe", r"^a shoe is a Shoe, a number of decks"),
])
def test_inputs_are_checked(arguments: dict, parameter: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as raised:
        solve_banque(**arguments)
    assert raised.value.parameter == parameter


def test_rules_as_data_are_checked() -> None:
    with pytest.raises(InputError, match=r"stake: must be a fraction strictly between 0 and 1"):
        BanqueRules("bad", stake=Fraction(1))
    with pytest.raises(InputError, match=r"player: leaves no choice \(C\)"):
        BanqueRules("no choice", player=tuple("DDDDDDSS--"))


def test_the_lifted_model_leaves_nash_open() -> None:
    found = solve_banque(rules="banque", shoe=WITH_NATURALS)
    assert found.nash is None and found.nash_open.startswith("player 2 reads player 1's third card")
    assert found.to_dict()["nash"] == {"solved": False, "open": found.nash_open}
    recheck_team(banque_game(BANQUE, Shoe.parse(WITH_NATURALS)), found.cooperative)


SURD = re.compile(r"^\(?(?:(-?\d+) )?([+-]?) ?(?:(\d+)\*)?sqrt\((\d+)\)\)?(?:/(\d+))?$")


def exact(text: str) -> Exact:
    """An exact number as the records write it: n/d, or (a +- b*sqrt(d))/c."""
    if "sqrt" not in text:
        return Fraction(text)
    match = SURD.fullmatch(text)
    assert match, text
    a, sign_, b, d, c = match.groups()
    scale = int(c or 1)
    b_value = int(b or 1) * (-1 if sign_ == "-" else 1)
    return Surd(Fraction(int(a or 0), scale), Fraction(b_value, scale), int(d))


def test_surd_text_reads_back() -> None:
    for value in (Surd(Fraction(1, 2), Fraction(-3, 2), 7), Surd(Fraction(0), Fraction(1), 2), Surd(Fraction(-5), Fraction(2, 3), 11), Fraction(-3, 4)):
        assert exact(str(value)) == value


RECORDS = sorted(path for path in RESULTS.glob("*.json") if path.name != "manifest.json")
RECHECKED = [path for path in RECORDS if path.stem.rsplit("-", 1)[1] in ("1", "6", "8", "inf")]
"""The records whose certificates the suite rechecks (one, six, eight decks and inf, each rule set:
about 3 s each, most of it the payoff table); every record was certified as it was written."""


def test_results_hold_every_shoe() -> None:
    """results/banque/ (baccarat-odds banque --out results/banque): both rule sets, 1-8 decks and inf."""
    assert [path.name for path in RECORDS] == sorted(f"{preset}-decks-{decks}.json" for preset in ("banque", "banque_ethier_lee")
                                                     for decks in (*range(1, 9), "inf"))


@pytest.mark.parametrize("path", RECHECKED, ids=[path.stem for path in RECHECKED])
def test_results_rechecked_from_their_certificates(path: Path) -> None:
    """A record of results/banque/: the cooperative solution's certificate and each Nash equilibrium's
    (no side gains by deviating), recomputed here from the payoffs of its shoe."""
    record = json.loads(path.read_text())
    assert record["format"] == "exact_odds.banque"
    rules = next(preset for preset in (BANQUE, BANQUE_ETHIER_LEE) if preset.name == record["rules"])
    decks = record["decks"]
    game = banque_game(rules, Shoe.infinite() if decks == "inf" else Shoe.decks(decks))
    names = [game.cell_name(c) for c in range(len(game.table.cells))]
    team = record["cooperative"]
    found = SimpleNamespace(
        value=Fraction(team["value"]["exact"]), draws={name: Fraction(value["exact"]) for name, value in team["draws"].items()},
        joint={(entry["player_1"], entry["player_2"]): (Fraction(entry["both_draw"]["exact"]), None, None, None) for entry in team["joint"]},
        banker=[Fraction(team["banker"][name]) for name in names])
    recheck_team(game, found)
    assert team["certificate"]["holds"] and team["team_face"]["unique"]
    if record["nash"]["solved"]:
        assert record["nash"]["exhaustive"] and len(record["nash"]["equilibria"]) == 1 and not record["nash"]["continua"]
        for equilibrium in record["nash"]["equilibria"]:
            draws = {name: exact(value["exact"]) for name, value in equilibrium["draws"].items()}
            banker = [exact(equilibrium["banker"][name]) for name in names]
            payoffs, gains = deviations(game, [draws[name] for name in game.infosets], banker)
            assert gains == [0, 0, 0]
            assert payoffs == [exact(equilibrium["payoffs"][side]["exact"]) for side in ("banker", "player_1", "player_2")]


def deviations(game, draws: list, banker: list) -> tuple[list, list]:
    """The three payoffs per unit staked, and what the banker, player 1 and player 2 would gain by
    their best deviation (the banker cell by cell, each player at each of his information sets)."""
    total = game.table.total * game.scale
    payoffs = [Fraction(value) for value in game.constant]
    best = Fraction(game.constant[0])
    incentives = [Fraction(0)] * len(draws)
    for c, (one, two) in enumerate(game.variables):
        x, z = draws[one], draws[two]
        sides = [[poly[0] + poly[1] * x + poly[2] * z + poly[3] * x * z for poly in polys] for polys in (game.banker[c], game.first[c], game.second[c])]
        y = banker[c]
        payoffs = [value + (1 - y) * side[0] + y * side[1] for value, side in zip(payoffs, sides)]
        best = best + (sides[0][0] if sides[0][0] >= sides[0][1] else sides[0][1])
        for polys, variable, other, index in ((game.first[c], one, z, 1), (game.second[c], two, x, 2)):
            incentives[variable] = incentives[variable] + (1 - y) * (polys[0][index] + polys[0][3] * other) + y * (polys[1][index] + polys[1][3] * other)
    gains = [(best - payoffs[0]) / total]
    for player in (1, 2):
        gains.append(sum(((1 if incentive > 0 else 0) - share) * incentive for share, incentive, owner in zip(draws, incentives, game.players)
                         if owner == player) / total)
    return [value / total for value in payoffs], gains


def test_another_share_of_the_stakes() -> None:
    """theta = 1/3 on player 1's hand: a game of its own, solved and certified."""
    found = solve_banque(rules="banque_ethier_lee", shoe=WITH_NATURALS, stake="1/3")
    assert found.rules.stake == Fraction(1, 3) and found.to_dict()["stake"] == {"exact": "1/3", "decimal": 1 / 3}
    game = banque_game(found.rules, Shoe.parse(WITH_NATURALS))
    assert game.scale == 3 and game.constant[1] == -game.constant[0] - game.constant[2]  # theta and 1 - theta: zero-sum
    recheck_team(game, found.cooperative)


def team_face_conditions(game, found) -> tuple[list[str], dict[str, tuple]]:
    """The conditions that cut the players' optimal joint strategies (as moments: each draw, and
    each pair's both-draw) out of the unit box, derived here from the payoffs: the bounds every joint
    lottery keeps, the players' payoff against the banker's optimal strategy at least the value, and
    that strategy a best reply wherever the banker's gain from drawing changes sign over the pure
    pairs (elsewhere one choice is best against every joint strategy). A joint strategy meeting
    them is optimal: the banker's best reply holds it to at least the value."""
    count = len(game.infosets)
    pairs = [(game.infosets.index(first), game.infosets.index(second)) for first, second in found.joint]
    size = count + len(pairs)

    def terms(cell: int, poly) -> list[Fraction]:
        one, two = game.variables[cell]
        row = [Fraction(0)] * size
        row[one] += poly[1]
        row[two] += poly[2]
        if poly[3]:
            row[count + pairs.index((one, two))] += poly[3]
        return row

    def unit(entries: dict[int, int]) -> tuple[Fraction, ...]:
        return tuple(Fraction(entries.get(i, 0)) for i in range(size))

    conditions: dict[str, tuple] = {}
    for k, (one, two) in enumerate(pairs):
        names = f"({game.infosets[one]}, {game.infosets[two]})"
        both = count + k
        conditions[f"both draw <= player 1 draws {names}"] = (unit({both: 1, one: -1}), Fraction(0), "<=")
        conditions[f"both draw <= player 2 draws {names}"] = (unit({both: 1, two: -1}), Fraction(0), "<=")
        conditions[f"either draws <= 1 {names}"] = (unit({one: 1, two: 1, both: -1}), Fraction(-1), "<=")
    row, constant = [Fraction(0)] * size, Fraction(-game.constant[0])
    for c, draw in enumerate(found.banker):
        for choice, weight in ((0, 1 - draw), (1, draw)):
            poly = game.banker[c][choice]
            row = [a - weight * b for a, b in zip(row, terms(c, poly))]
            constant -= weight * poly[0]
    value = found.value * game.table.total * game.scale
    conditions["the players' payoff against the banker's strategy is the value"] = (tuple(row), constant - value, ">=")
    for c, draw in enumerate(found.banker):
        stand, hit = game.banker[c]
        gain = tuple(b - a for a, b in zip(stand, hit))
        pure = [gain[0] + gain[1] * x + gain[2] * z + gain[3] * x * z for x in (0, 1) for z in (0, 1)]
        if game.fixed[c] is None and min(pure) < 0 < max(pure):
            sense = ">=" if draw == 1 else "<=" if draw == 0 else "=="
            conditions[f"banker at {game.cell_name(c)}"] = (tuple(terms(c, gain)), Fraction(gain[0]), sense)
    coordinates = [*game.infosets, *(f"both draw: {game.infosets[one]}, {game.infosets[two]}" for one, two in pairs)]
    return coordinates, conditions


def test_independent_cooperative_equilibrium_exists_only_for_certain_stakes() -> None:
    """Ethier and Lee's abstract, with replacement and their simplifying assumption: the
    independent cooperative equilibrium "exists only for certain theta". At theta = 1/100 the
    players' optimal joint strategy is a product (player 1 stands on 5, player 2 draws with
    probability 75/91), a saddle point by its certificate rechecked here: each player mixing alone
    reaches the value. At theta = 1/2 the optimal joint strategy is unique, its face rechecked here
    from the payoffs, and correlated (both draw on 5 together or both stand), so no product of the
    players' own strategies is optimal: none exists."""
    found = solve_banque(rules="banque_ethier_lee", shoe="inf", stake="1/100", with_nash=False)
    game = banque_game(found.rules, Shoe.infinite())
    team = found.cooperative
    recheck_team(game, team)
    assert (team.draws["player 1 on 5"], team.draws["player 2 on 5"]) == (0, Fraction(75, 91))
    assert all(both == team.draws[first] * team.draws[second] for (first, second), (both, _, _, _) in team.joint.items())
    assert team.independent is True

    found = solve_banque(rules="banque_ethier_lee", shoe="inf", with_nash=False)
    game = banque_game(found.rules, Shoe.infinite())
    team = found.cooperative
    recheck_team(game, team)
    recheck_face(team.team_face, *team_face_conditions(game, team))
    assert team.team_face.unique and team.independent is False
    draw = Fraction(2759, 5384)
    assert (team.draws["player 1 on 5"], team.draws["player 2 on 5"]) == (draw, draw)
    assert team.joint["player 1 on 5", "player 2 on 5"] == (draw, 0, 0, 1 - draw) and draw != draw * draw
