"""Chemin de fer as a game (exact_odds.games.chemin): certificates, brute force, independent paths.

Every solution (models A, B2, B3; 1-8 decks and the infinite deck; no commission and 5%) is
certified: about 40 s in all, half of it the equilibrium searches of B3 with a commission. Rule
sets with other option points (rules files) are checked against matrix games of small shoes
written out from coups the oracle deals.
"""

import json
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations, permutations, product
from pathlib import Path

import pytest

from oracles import deal_physically, total
from exact_odds import analyze
from exact_odds.engine.analysis import PlainEngine
from exact_odds.bets.bets import catalog
from exact_odds.games import chemin
from exact_odds.games.chemin import (
    MODELS,
    Solution,
    equilibria,
    make_game,
    optimal_policy,
    payoff_table,
    solve,
)
from exact_odds.games.linalg import maximize, solve_linear
from exact_odds.errors import InputError
from exact_odds.core.cards import Card
from exact_odds.commands.chemin import render_solution as render
from exact_odds.core.policy import Policy, choices
from exact_odds.core.numbers import fixed
from exact_odds.core.rules import CHEMIN_DE_FER_A, PUNTO_BANCO, DrawRules, OptionPoint, load_rules, rules_toml
from exact_odds.core.shoe import Shoe, shoe_of_decks

DECKS = [*range(1, 9), "inf"]
ALPHA = Fraction(1, 20)


# This file, test_chemin_uniqueness.py and the results/ drift test of test_export.py run on one worker
# (pyproject's `--dist loadgroup`), so that each game is solved once (by `solved`) for all three.
pytestmark = pytest.mark.xdist_group("chemin")


@cache
def solved(model: str | DrawRules, shoe: Shoe, commission: Fraction = Fraction(0)) -> Solution:
    """:func:`solve`, once per game in a worker (the same solution object each time)."""
    return solve(model, shoe, commission)


def solution(model: str, decks: int | str, commission: Fraction = Fraction(0)) -> Solution:
    return solved(model, shoe_of_decks(decks), commission)


def mixes(found: Solution) -> list[tuple[object, object, Fraction]]:
    return [(banker, third, draw) for banker, third, draw in found.banker if 0 < draw < 1]


# --- certificates -----------------------------------------------------------------------------


@pytest.mark.parametrize("decks", DECKS)
@pytest.mark.parametrize("model", ["A", "B2", "B3"])
def test_zero_sum_certificate(model: str, decks: int | str) -> None:
    found = solution(model, decks)
    certificate = found.certificate
    assert certificate.holds
    assert certificate.player_guarantees == certificate.banker_guarantees == found.value == -found.banker_value
    assert certificate.player_gain == certificate.banker_gain == 0
    assert len(found.banker) == (88 if model == "A" else 484)
    assert all(0 <= draw <= 1 for draw in (*found.player.values(), *(draw for _, _, draw in found.banker)))


@pytest.mark.parametrize("decks", DECKS)
@pytest.mark.parametrize("model", ["A", "B2", "B3"])
def test_commission_certificate(model: str, decks: int | str) -> None:
    found = solution(model, decks, ALPHA)
    certificate = found.certificate
    assert certificate.holds and not certificate.zero_sum
    assert certificate.player_gain == certificate.banker_gain == 0
    assert (found.value, found.banker_value) == (certificate.player_payoff, certificate.banker_payoff)
    # the player's guarantee is at most his equilibrium payoff, the banker's cap at least it
    assert certificate.player_guarantees <= found.value <= certificate.banker_guarantees


@pytest.mark.parametrize(("decks", "draw", "cell", "mix"), [
    (1, "283/1478", (8, 8), "4519/10716"), (6, "221683/364176", (0, 6), "18885571/36781056"), (8, "545307/866560", (0, 6), "317651375/585842688")])
def test_commission_b3_agrees_with_the_research_note(decks: int, draw: str, cell: tuple[int, int], mix: str) -> None:
    """The note's search was not exhaustive; ours finds this equilibrium and no other, and it is the
    only one (test_chemin_uniqueness.py)."""
    found = solution("B3", decks, ALPHA)
    assert found.unique is True and found.notes[0].startswith("1 equilibrium found")
    assert found.player == {(0, 5): 1, (1, 4): Fraction(draw), (2, 3): 0, (6, 9): 1, (7, 8): 1}
    assert mixes(found) == [(cell, "stood", Fraction(mix))]


# --- published and independently computed figures -----------------------------------------------


def test_kemeny_snell() -> None:
    """Kemeny and Snell (1957): the player draws on 5 with probability 9/11; the banker's edge is
    about 1.28%. The exact value -679568/53094899 (denominator 11 * 13^6) and the banker's mix
    859/2288 at (6, stood) agree with the research note's independent solver."""
    found = solution("A", "inf")
    assert found.player == {5: Fraction(9, 11)}
    assert found.value == Fraction(-679568, 53094899) and fixed(found.value, 4) == "-0.0128"
    assert found.value.denominator == 11 * 13**6
    assert mixes(found) == [(6, "stood", Fraction(859, 2288))]
    assert found.unique is True
    for banker, third, draw in found.banker:
        if (banker, third) != (6, "stood"):
            assert draw == (PUNTO_BANCO.mark("banker", banker, None if third == "stood" else third) == "D")


B2_NOTE = {
    1: ("-22932137/1666583100", "253/342", "290383/450072"),
    2: ("-8220886553/620866384425", "16215/20804", "2591845/4119192"),
    3: ("-210084639838/16053072820785", "57155/72126", "9294089/14521368"),
    4: ("-165764184047339/12739996071158265", "138415/173256", "22487273/35170968"),
    5: ("-201426947301071/15534422048592720", "273819/341090", "73924219/115970600"),
    6: ("-974653793197999/75340147272374985", "477191/592524", "77143741/121269912"),
    7: ("-4340167674745471/336043493584529445", "762355/944454", "861467195/1356235944"),
    8: ("-1059778909061461/82154663322498585", "163305/201968", "490310615/774749248"),
}
B3_NOTE = {
    1: ("-37833961/2901089100", "1/19", (8, 8), "4519/10716"),
    2: ("-49424010137/3823801581600", "851/2688", (0, 6), "17431/64512"),
    3: ("-31717439249/2461444457472", "3605/9216", (0, 6), "4425647/11132928"),
    4: ("-20825532712087/1618897778447040", "9447/22016", (0, 6), "16318191/35753984"),
    5: ("-101131907918537/7869911548262400", "19529/43200", (0, 6), "43232447/88128000"),
    6: ("-73356216203119/5712649844821920", "35003/74880", (0, 6), "18885571/36781056"),
    7: ("-1088351355446941/84801654804746880", "57021/119168", (0, 6), "181348767/342250496"),
    8: ("-2789416947665657/217430324984396160", "86735/178176", (0, 6), "316815305/585842688"),
}


@pytest.mark.parametrize("decks", range(1, 9))
def test_b2_and_b3_agree_with_the_research_note(decks: int) -> None:
    """/work/research/chemin.md computed these with a separate exact solver (not quotations)."""
    value, draw, mix = B2_NOTE[decks]
    found = solution("B2", decks)
    assert (found.value, found.player[5]) == (Fraction(value), Fraction(draw))
    assert mixes(found) == [((0, 6), "stood", Fraction(mix))] and found.unique is True
    value, draw, cell, mix = B3_NOTE[decks]
    found = solution("B3", decks)
    assert found.value == Fraction(value)
    assert found.player == {(0, 5): 1, (1, 4): Fraction(draw), (2, 3): 0, (6, 9): 1, (7, 8): 1}
    assert mixes(found) == [(cell, "stood", Fraction(mix))]


def test_b2_departures_from_punto_banco_eight_decks() -> None:
    found = solution("B2", 8)
    departures = {(banker, third, draw) for banker, third, draw in found.banker
                  if draw in (0, 1) and draw != (PUNTO_BANCO.mark("banker", sum(banker) % 10, None if third == "stood" else third) == "D")}
    assert departures == {((2, 3), 4, 0), ((8, 8), "stood", 1)}
    assert "stands at 2,3 vs 4 (Punto Banco draws)" in render(found, "table")


def test_commission_agrees_with_the_research_note() -> None:
    found = solution("A", "inf", ALPHA)
    assert found.player == {5: Fraction(179, 214)} and mixes(found) == [(6, "stood", Fraction(859, 2288))]
    assert (found.value, found.banker_value) == (Fraction(-679568, 53094899), Fraction(-26337552, 2582342815))
    found = solution("B2", 1, ALPHA)
    assert found.player == {5: Fraction(451, 597)} and mixes(found) == [((0, 6), "stood", Fraction(40811, 64296))]
    assert (found.value, found.banker_value) == (Fraction(-153971243, 11189915100), Fraction(-25444015021, 2734658199000))
    found = solution("B2", 6, ALPHA)
    assert found.player == {5: Fraction(2372272, 2881749)} and found.unique is True
    assert found.banker_value == Fraction(-211928003523064, 21038347771318605)


def test_infinite_deck_models_agree() -> None:
    """With replacement a hand's composition tells nothing beyond its total: B2 and B3 have model
    A's value, and their optimal strategies are not unique (the banker may spread his mix)."""
    value = solution("A", "inf").value
    assert solution("B2", "inf").value == solution("B3", "inf").value == value
    assert solution("B2", "inf").unique is False and solution("B2", "inf", ALPHA).unique is False


# --- brute force ---------------------------------------------------------------------------------


def test_model_a_against_a_grid_of_player_mixes() -> None:
    """The player's guarantee against the banker's best reply (cell by cell, over all 2^88 banker
    strategies), at p = j/1000 and at every breakpoint: none beats the solver's value."""
    table = payoff_table("A", Shoe.infinite())

    def guarantee(p: Fraction) -> Fraction:
        total = Fraction(table.naturals[0] - table.naturals[1])
        for cell in table.cells:
            total += min(cell.player_wins[b][0] - cell.banker_wins[b][0] + p * (cell.player_wins[b][1][0] - cell.banker_wins[b][1][0])
                         for b in (0, 1))
        return total / table.total

    breakpoints = set()
    for cell in table.cells:
        constant = [cell.player_wins[b][0] - cell.banker_wins[b][0] for b in (0, 1)]
        slope = [cell.player_wins[b][1][0] - cell.banker_wins[b][1][0] for b in (0, 1)]
        if slope[0] != slope[1]:
            root = Fraction(constant[1] - constant[0], slope[0] - slope[1])
            if 0 <= root <= 1:
                breakpoints.add(root)
    value = solution("A", "inf").value
    grid = [Fraction(j, 1000) for j in range(1001)]
    assert max(guarantee(p) for p in grid) < value
    best = max(breakpoints | {Fraction(0), Fraction(1)}, key=guarantee)
    assert (best, guarantee(best)) == (Fraction(9, 11), value)


def coups(spec: str, model: str) -> tuple[int, list[dict[object, list[int]]], list[int], list[object]]:
    """Every ordered 6-card sequence of a small shoe by value, played out for each pure choice of
    the player at each information set (independent of the solver): per player pure strategy, the
    naturals' net and per banker cell the net when the banker stands / draws there."""
    shoe = Shoe.parse(spec)
    counts = list(shoe.value_counts)
    sequences: list[tuple[tuple[int, ...], int]] = []

    def deal(cards: tuple[int, ...], weight: int) -> None:
        if len(cards) == 6:
            sequences.append((cards, weight))
            return
        for value in range(10):
            if counts[value]:
                counts[value] -= 1
                deal(cards + (value,), weight * (counts[value] + 1))
                counts[value] += 1

    deal((), 1)
    infosets: list[object] = [5] if model != "B3" else [(0, 5), (1, 4), (2, 3), (6, 9), (7, 8)]
    sign = lambda player, banker: (player > banker) - (player < banker)  # noqa: E731
    rows, naturals = [], []
    for pure in product((0, 1), repeat=len(infosets)):
        cells: dict[object, list[int]] = {}
        natural = 0
        for cards, weight in sequences:
            player, banker = (cards[0] + cards[2]) % 10, (cards[1] + cards[3]) % 10
            if player >= 8 or banker >= 8:
                natural += weight * sign(player, banker)
                continue
            hand = (min(cards[0], cards[2]), max(cards[0], cards[2]))
            draws = player <= 4 or (player == 5 and pure[infosets.index(5 if model != "B3" else hand)])
            third: object = cards[4] if draws else "stood"
            player = (player + cards[4]) % 10 if draws else player
            banker_card = cards[5] if draws else cards[4]
            key = banker if model == "A" else (min(cards[1], cards[3]), max(cards[1], cards[3]))
            nets = cells.setdefault((key, third), [0, 0])
            nets[0] += weight * sign(player, banker)
            nets[1] += weight * sign(player, (banker + banker_card) % 10)
        rows.append(cells)
        naturals.append(natural)
    total = sum(weight for _, weight in sequences)
    return total, rows, naturals, infosets


@pytest.mark.parametrize(("model", "spec"), [("A", "3=2,6=4,9=4"), ("B2", "2=2,6=2,9=4")])
def test_small_shoe_against_every_pure_strategy(model: str, spec: str) -> None:
    """A 2 x 2^n game small enough to write out: every banker pure strategy over the cells the shoe
    reaches (2^11 and 2^13 columns), from coups played out independently of the solver. The
    solver's strategies form a saddle point of that matrix, and an exact LP over all its columns
    gives the same value."""
    total, rows, naturals, _ = coups(spec, model)
    cells = sorted(set(rows[0]) | set(rows[1]), key=str)
    matrix = [[naturals[r] + sum(rows[r].get(cell, [0, 0])[bit] for cell, bit in zip(cells, bits)) for bits in product((0, 1), repeat=len(cells))]
              for r in (0, 1)]
    found = solve(model, Shoe.parse(spec))
    assert 0 < found.player[5] < 1 and found.unique is True
    p = found.player[5]
    assert min((1 - p) * stand + p * draw for stand, draw in zip(*matrix)) == found.value * total
    draws = {(banker, third): draw for banker, third, draw in found.banker}
    against = [naturals[r] + sum((1 - draws[cell]) * nets[0] + draws[cell] * nets[1] for cell, nets in rows[r].items()) for r in (0, 1)]
    assert max(against) == found.value * total
    # the banker's LP over all columns: max sum z, matrix' z <= 1, for matrix' = matrix - low + 1 > 0
    low = min(min(row) for row in matrix)
    shifted = [[Fraction(entry - low + 1) for entry in row] for row in matrix]
    optimum = maximize([Fraction(1)] * len(matrix[0]), shifted, [Fraction(1), Fraction(1)])
    assert optimum is not None
    assert (1 / optimum[0] + low - 1) / total == found.value


def test_small_shoe_b3_against_the_player_pure_strategies() -> None:
    """Model B3 on a four-value shoe: an exact LP over mixtures of the player's pure strategies
    (the two reached compositions of 5), against the banker's best reply over all his pure
    strategies (cell by cell, from independently played coups), equals the solver's value."""
    spec = "K=5,5=5,A=2,4=2"
    total, rows, naturals, infosets = coups(spec, "B3")
    found = solve("B3", Shoe.parse(spec))
    assert 0 < found.player[(0, 5)] < 1
    cells = sorted(set().union(*rows), key=str)
    count = len(rows)
    # variables: a mixture over the player's pure strategies, then per cell t_k + bound >= 0
    bound = sum(abs(net) for cells_row in rows for nets in cells_row.values() for net in nets) + 1
    objective = [Fraction(0)] * count + [Fraction(1)] * len(cells)
    lp_rows, bounds = [], []
    for c, cell in enumerate(cells):
        for b in (0, 1):
            lp_rows.append([Fraction(-rows[r].get(cell, [0, 0])[b]) for r in range(count)] + [Fraction(int(c == j)) for j in range(len(cells))])
            bounds.append(Fraction(bound))
    lp_rows.append([Fraction(1)] * count + [Fraction(0)] * len(cells))
    lp_rows.append([Fraction(-1)] * count + [Fraction(0)] * len(cells))
    bounds += [Fraction(1), Fraction(-1)]
    optimum = maximize(objective, lp_rows, bounds)
    assert optimum is not None
    mixture = optimum[1][:count]
    value = (optimum[0] - bound * len(cells) + sum(share * natural for share, natural in zip(mixture, naturals))) / total
    assert value == found.value
    # and the solver's strategies are a saddle point against every pure strategy of either side
    x = found.player
    draws = {(banker, third): draw for banker, third, draw in found.banker}
    pures = list(product((0, 1), repeat=len(infosets)))
    weight = [Fraction(1)] * count
    for r, pure in enumerate(pures):
        for info, choice in zip(infosets, pure):
            weight[r] *= x[info] if choice else 1 - x[info]
    guarantee = sum(w * n for w, n in zip(weight, naturals)) + sum(
        min(sum(w * rows[r].get(cell, [0, 0])[b] for r, w in enumerate(weight)) for b in (0, 1)) for cell in cells)
    assert guarantee == found.value * total
    assert max(naturals[r] + sum((1 - draws[cell]) * nets[0] + draws[cell] * nets[1] for cell, nets in rows[r].items())
               for r in range(count)) == found.value * total


# --- independent paths ----------------------------------------------------------------------------


@pytest.mark.parametrize(("model", "decks", "commission"), [
    ("A", "inf", Fraction(0)), ("A", 8, Fraction(0)), ("B2", 1, Fraction(0)), ("B2", 6, Fraction(0)),
    ("B3", 1, Fraction(0)), ("B3", 8, Fraction(0)), ("A", "inf", ALPHA), ("B2", 8, ALPHA), ("B3", 1, ALPHA),
])
def test_analyze_recomputes_the_payoffs(model: str, decks: int | str, commission: Fraction) -> None:
    """The solution as a policy of the rule set, through the plain enumerator of exact_odds: the
    player's payoff P(player wins) - P(banker wins) is the value, the banker's (1 - alpha) P(banker
    wins) - P(player wins) his payoff."""
    found = solution(model, decks, commission)
    policy = optimal_policy(found)
    assert len(choices(MODELS[model], policy)) == {"A": 89, "B2": 485, "B3": 489}[model]
    result = analyze(shoe_of_decks(decks), [catalog()["player"]], found.rules, policy=policy, engine=PlainEngine())
    player, banker = (Fraction(result.outcomes[side], result.total) for side in ("player", "banker"))
    assert player - banker == found.value == result.bets[0].expected_value
    assert (1 - commission) * banker - player == found.banker_value


@pytest.mark.parametrize("decks", DECKS)
@pytest.mark.parametrize("model", ["A", "B2"])
def test_zero_commission_limit_of_the_bimatrix_solver(model: str, decks: int | str) -> None:
    """The equilibrium search (the bimatrix solver) at alpha = 0 finds the zero-sum solution of the
    linear programs, and (except with replacement under B2) nothing else."""
    found = solution(model, decks)
    search = equilibria(make_game(payoff_table(model, shoe_of_decks(decks)), Fraction(0)))
    assert (tuple(found.player.values()), tuple(draw for _, _, draw in found.banker)) in search.profiles or (model, decks) == ("B2", "inf")
    assert len(search.profiles) == 1


def test_zero_commission_limit_b3_one_deck() -> None:
    found = solution("B3", 1)
    search = equilibria(make_game(payoff_table("B3", Shoe.decks(1)), Fraction(0)))
    assert search.profiles == ((tuple(found.player.values()), tuple(draw for _, _, draw in found.banker)),)


def test_small_commission_is_close_to_zero_sum() -> None:
    zero, small = solution("B2", 6), solution("B2", 6, Fraction(1, 10**9))
    assert abs(small.player[5] - zero.player[5]) < Fraction(1, 10**6)
    assert abs(small.value - zero.value) < Fraction(1, 10**9)


# --- API, rendering, linear algebra ---------------------------------------------------------------


def test_render_formats() -> None:
    found = solution("B2", 6, ALPHA)
    record = json.loads(render(found, "json"))
    assert record["value"] == str(found.value) and record["player"] == {"5": "2372272/2881749"}
    assert {"banker": "0,6", "player_third": "stood", "draw": "77143741/121269912"} in record["banker"]
    assert {"banker": "8,8", "player_third": "stood", "draw": "1"} in record["banker"]
    assert set(record["certificate"]) >= {"player_guarantees", "banker_guarantees"} and record["certificate"]["holds"]
    text = render(found, "table")
    assert "-0.0129367121" in text and "D*" in text and " M" in text and "commission 1/20" in text
    assert render(found, "markdown").count("|") > 400
    latex = render(solution("A", "inf"), "latex")
    assert r"\frac{9}{11}" in latex and r"\textbf{M}" in latex and latex.count(r"\\") > 10
    b3 = json.loads(render(solution("B3", 1), "json"))
    assert b3["player"]["1,4"] == "1/19" and b3["decks"] == 1 and b3["unique"] is True
    assert b3["uniqueness"]["player"] is b3["uniqueness"]["banker"] is True and b3["uniqueness"]["player_face"]["coordinates"] == ["1,4"]
    assert b3["uniqueness"]["player_face"]["extent"][0]["low"] == b3["uniqueness"]["player_face"]["extent"][0]["high"] == "1/19"
    text = render(solution("B3", "inf"), "table")
    assert "Uniqueness: not unique (either side), decided by each side's optimal face, by exact linear programs" in text
    assert "Other solution strategies (vertices of a side's face, or other equilibria):" in text and "and 49 more (in the JSON record)" in text
    with pytest.raises(InputError):
        render(found, "yaml")


def test_solve_rejects_bad_input() -> None:
    with pytest.raises(InputError):
        solve("C", Shoe.decks(1))
    with pytest.raises(InputError):
        solve("A", Shoe.decks(1), Fraction(1))
    assert solve("b2", Shoe.parse("2=2,6=2,9=4")).decks == "custom shoe 2=2,6=2,9=4"


def test_linear_algebra() -> None:
    assert solve_linear([[1, 2], [3, 4]], [Fraction(1, 2), 1]) == ([Fraction(0), Fraction(1, 4)], False)
    assert solve_linear([[0, 1, 1], [0, 2, 2], [1, 0, 0]], [1, 2, 3]) == (None, True)
    assert solve_linear([[0, 1, 1], [0, 2, 2], [1, 0, 0]], [1, 3, 3]) == (None, False)
    with pytest.raises(ValueError):
        maximize([Fraction(1)], [[Fraction(-1)]], [Fraction(0)])
    # equality through two inequalities, the origin infeasible: max x + y, x + y = 2, x <= 1/2
    result = maximize([Fraction(1), Fraction(1)], [[Fraction(1), Fraction(1)], [Fraction(-1), Fraction(-1)], [Fraction(1), Fraction(0)]],
                      [Fraction(2), Fraction(-2), Fraction(1, 2)])
    assert result is not None and result[0] == 2 and sum(result[1]) == 2 and result[1][0] <= Fraction(1, 2)



@pytest.mark.parametrize("command", [["export", "--out", "{tmp}/out"], ["formula"], ["report", "--out", "{tmp}/report"]])
def test_optimal_policy_is_refused_where_a_command_spans_deck_counts(command: list[str], run, tmp_path) -> None:
    """An optimal policy is solved for one shoe: tables for other deck counts under it would not be optimal."""
    code, out, err = run("--rules", "chemin_de_fer_b2", "--policy", "optimal", *(arg.replace("{tmp}", str(tmp_path)) for arg in command))
    assert (code, out) == (2, "")
    assert err.startswith("baccarat-odds: error: --policy optimal is solved for one shoe") and len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


# --- rule sets with other option points (rules files) -------------------------------------------

DOCS = Path(__file__).resolve().parent.parent / "docs"
RANK_OF_VALUE = "KA23456789"
PLAYER_ROW = '"D D D D D C S S - -"'


def variant(rules: DrawRules, name: str, player: str) -> DrawRules:
    """``rules`` as a rules file with another name and the player's row of marks, read back."""
    text = rules_toml(rules)
    assert text.count(PLAYER_ROW) == 1
    return load_rules(text.replace(PLAYER_ROW, f'"{player}"').replace(rules.name, name), name)


A_ON_4 = variant(CHEMIN_DE_FER_A, "model A, the player choosing on 4 too", "D D D D C C S S - -")
A_DRAWS_ON_4 = variant(CHEMIN_DE_FER_A, "model A copied", "D D D D D C S S - -")
A_STANDS_ON_4 = variant(CHEMIN_DE_FER_A, "model A, the player standing on 4", "D D D D S C S S - -")
HOUSE = load_rules((DOCS / "chemin-house.toml").read_text(), "docs/chemin-house.toml")
"""The Punto Banco tableau with the player choosing on 5 and the banker at 3 vs 9, 4 vs 1, 5 vs 4, 6 vs stood."""
HOUSE_ON_4 = variant(HOUSE, "house tableau, the player choosing on 4 too", "D D D D C C S S - -")


def sign(player: int, banker: int) -> int:
    return (player > banker) - (player < banker)


def orderings(spec: str) -> Counter:
    """Every ordering of 6 of the physical cards of a small shoe, counted by point values."""
    shoe = Shoe.parse(spec)
    return Counter(permutations([value for value in range(10) for _ in range(shoe.value_counts[value])], 6))


def banker_point(rules: DrawRules, player: list[Card], banker: list[Card]) -> OptionPoint | None:
    """Where the banker decides in a dealt coup (None after a natural)."""
    if total(player[:2]) in rules.naturals or total(banker[:2]) in rules.naturals:
        return None
    cards = tuple(sorted(card.value for card in banker[:2])) if rules.banker_sees == "cards" else None
    return OptionPoint("banker", total(banker[:2]), cards, player[2].value if len(player) == 3 else None)


def pure_nets(rules: DrawRules, spec: str) -> tuple[list[OptionPoint], dict[tuple[int, ...], tuple[int, dict[OptionPoint, list[int]]]]]:
    """Every ordering of a small shoe dealt by the oracle (tests/oracles.py) under each pure strategy
    of the player (1 draw, 0 stand at each of his option points) and each choice of the banker: per
    player strategy, the net player wins of the coups that meet no banker choice, and per banker
    option point met, the net when he stands and when he draws there."""
    points = rules.option_points()
    player_points = [point for point in points if point.side == "player"]
    banker_points = {point for point in points if point.side == "banker"}
    sequences = [([Card(RANK_OF_VALUE[value]) for value in values], count) for values, count in orderings(spec).items()]
    strategies = {}
    for pure in product((0, 1), repeat=len(player_points)):
        base, cells = 0, {}
        for cards, count in sequences:
            nets = []
            for banker_draws in (0, 1):
                chosen = {point: Fraction(draw) for point, draw in zip(player_points, pure)} | {point: Fraction(banker_draws) for point in banker_points}
                [(_, player, banker)] = deal_physically(cards, rules, chosen)
                nets.append(count * sign(total(player), total(banker)))
            met = banker_point(rules, player, banker)
            if met in banker_points:
                cells[met] = [a + b for a, b in zip(cells.get(met, [0, 0]), nets)]
            else:
                assert nets[0] == nets[1]
                base += nets[0]
        strategies[pure] = (base, cells)
    return player_points, strategies


def payoff_matrix(strategies: dict, reduce: bool) -> list[list[int]]:
    """The player's net over every pure strategy pair (rows: the player's, columns: the banker's
    choice at each option point met); ``reduce`` keeps one choice where it is at least as good for
    the banker against every row (which keeps the value)."""
    cells = sorted({cell for _, nets in strategies.values() for cell in nets}, key=str)
    options = []
    for cell in cells:
        stand, draw = ([nets.get(cell, [0, 0])[b] for _, nets in strategies.values()] for b in (0, 1))
        options.append((0,) if reduce and all(s <= d for s, d in zip(stand, draw)) else (1,) if reduce and all(d <= s for s, d in zip(stand, draw))
                       else (0, 1))
    return [[base + sum(nets.get(cell, [0, 0])[b] for cell, b in zip(cells, column)) for column in product(*options)]
            for base, nets in strategies.values()]


def solve_square(matrix: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction] | None:
    """Gauss-Jordan elimination over Fractions; None when the system is singular."""
    rows = [[Fraction(value) for value in row] + [Fraction(right)] for row, right in zip(matrix, rhs)]
    for column in range(len(rows)):
        pivot = next((i for i in range(column, len(rows)) if rows[i][column]), None)
        if pivot is None:
            return None
        rows[column], rows[pivot] = rows[pivot], rows[column]
        rows[column] = [value / rows[column][column] for value in rows[column]]
        for i in range(len(rows)):
            if i != column and rows[i][column]:
                factor = rows[i][column]
                rows[i] = [a - factor * b for a, b in zip(rows[i], rows[column])]
    return [row[-1] for row in rows]


def matrix_value(matrix: list[list[int]]) -> Fraction:
    """The value of a zero-sum matrix game (the rows maximise) by enumerating support pairs: the
    best guarantee among the row mixes on s rows that equalise s columns (every vertex of the
    linear program is one)."""
    best = None
    for size in range(1, len(matrix) + 1):
        for support in combinations(range(len(matrix)), size):
            for active in combinations(range(len(matrix[0])), size):
                solved = solve_square([[Fraction(matrix[i][j]) for i in support] + [Fraction(-1)] for j in active] + [[Fraction(1)] * size + [Fraction(0)]],
                                      [Fraction(0)] * size + [Fraction(1)])
                if solved is None or min(solved[:size]) < 0:
                    continue
                mix, value = solved[:size], solved[size]
                if all(sum(p * matrix[i][j] for p, i in zip(mix, support)) >= value for j in range(len(matrix[0]))):
                    best = value if best is None else max(best, value)
    assert best is not None
    return best


def point_key(point: OptionPoint) -> object:
    return point.cards if point.cards is not None else point.total


def banker_option(banker: object, third: object) -> OptionPoint:
    """The option point of a cell of a solution: the banker's total or two cards, and the player's third card or "stood"."""
    seen = None if third == "stood" else third
    return OptionPoint("banker", banker, None, seen) if isinstance(banker, int) else OptionPoint("banker", sum(banker) % 10, banker, seen)


def against_brute_force(rules: DrawRules, spec: str, reduce: bool) -> Solution:
    """The solver's value is the brute-force matrix game's (by support enumeration), and its
    strategies hold every pure strategy of the other side to it."""
    player_points, strategies = pure_nets(rules, spec)
    count = sum(orderings(spec).values())
    matrix = payoff_matrix(strategies, reduce)
    value = matrix_value(matrix)
    found = solve(rules, Shoe.parse(spec))
    assert found.certificate.holds and found.value * count == value
    weights = {}
    for pure in strategies:
        weights[pure] = Fraction(1)
        for point, draw in zip(player_points, pure):
            share = found.player[point_key(point)]
            weights[pure] *= share if draw else 1 - share
    cells = {cell for _, nets in strategies.values() for cell in nets}
    guarantee = sum(weights[pure] * base for pure, (base, _) in strategies.items()) + sum(
        min(sum(weights[pure] * nets.get(cell, [0, 0])[b] for pure, (_, nets) in strategies.items()) for b in (0, 1)) for cell in cells)
    assert guarantee == value
    draws = {banker_option(banker, third): draw for banker, third, draw in found.banker}
    assert max(base + sum((1 - draws[cell]) * nets[0] + draws[cell] * nets[1] for cell, nets in cell_nets.items())
               for base, cell_nets in strategies.values()) == value
    return found


def test_player_choosing_on_4_against_every_pure_strategy() -> None:
    """Model A with the player free on 4 as well as 5: on this shoe he mixes on 4."""
    found = against_brute_force(A_ON_4, "A=4,5=2,9=1", reduce=True)
    assert found.player == {4: Fraction(1, 4), 5: 0} and found.model == A_ON_4.name


def test_banker_choosing_where_punto_banco_fixes_against_every_pure_strategy() -> None:
    """The house tableau (Punto Banco but four banker options): the 2 x 16 game written out in full;
    the banker mixes at 3 vs 9."""
    found = against_brute_force(HOUSE, "K=1,A=1,2=1,3=2,4=1,8=1,9=1", reduce=False)
    assert found.player == {5: Fraction(5, 14)} and mixes(found) == [(3, 9, Fraction(1, 7))]


def test_rules_file_with_two_player_options_is_solved_and_certified(run, tmp_path) -> None:
    """`chemin-de-fer --rules FILE`: the house tableau with the player free on 4 too, a 4 x 16 game
    written out in full."""
    spec = "K=1,A=1,3=1,4=2,7=1,9=1"
    found = against_brute_force(HOUSE_ON_4, spec, reduce=False)
    assert found.player == {4: Fraction(3, 4), 5: 1}
    rules_file = tmp_path / "house.toml"
    rules_file.write_text(rules_toml(HOUSE_ON_4))
    code, out, err = run("chemin-de-fer", "--rules", str(rules_file), "--shoe", spec, "--format", "json")
    assert (code, err) == (0, "")
    record = json.loads(out)
    assert record["certificate"]["holds"] and record["value"] == str(found.value) and record["player"] == {"4": "3/4", "5": "1"}
    assert record["model"] == HOUSE_ON_4.name and len(record["banker"]) == 4


def test_a_model_given_as_rules_is_the_model(run) -> None:
    """--rules chemin_de_fer_a is --model A (the infinite deck its default too); a copy of model A's
    rules under another name has its solution."""
    assert run("chemin-de-fer", "--rules", "chemin_de_fer_a", "--decks", "1", "--format", "json") == run(
        "chemin-de-fer", "--model", "a", "--decks", "1", "--format", "json")
    assert run("chemin-de-fer", "--rules", "chemin_de_fer_a") == run("chemin-de-fer", "--model", "A")
    copied, model = solve(A_DRAWS_ON_4, Shoe.decks(1)), solution("A", 1)
    assert (copied.model, copied.value, copied.player, copied.banker) == (A_DRAWS_ON_4.name, model.value, model.player, model.banker)


def test_the_option_on_4_forced() -> None:
    """With replacement drawing on 4 is optimal, so the option adds nothing: Kemeny and Snell's value
    (test_kemeny_snell) and strategies; standing there instead is worse. On one deck the option's
    solution, and model A's with the option forced to draw by a policy, played through the plain
    enumerator give their values."""
    free, stands = solve(A_ON_4, Shoe.infinite()), solve(A_STANDS_ON_4, Shoe.infinite())
    assert free.value == Fraction(-679568, 53094899) and free.player == {4: 1, 5: Fraction(9, 11)}
    assert mixes(free) == [(6, "stood", Fraction(859, 2288))] and stands.value < free.value
    shoe, player_bet = shoe_of_decks(1), catalog()["player"]
    one_deck = solve(A_ON_4, shoe)
    model = solution("A", 1)
    forced = Policy(optimal_policy(model).entries + (("player_on_4", Fraction(1)),))
    for rules, policy, value in ((A_ON_4, optimal_policy(one_deck), one_deck.value), (A_ON_4, forced, model.value)):
        result = analyze(shoe, [player_bet], rules, policy=policy, engine=PlainEngine())
        assert result.bets[0].expected_value == value
    assert one_deck.value >= model.value


def test_house_tableau_reaches_model_a() -> None:
    """Model A's optimal banker plays the house tableau at its fixed cells, so fewer options cost
    him nothing here: the house tableau's value and mixes are model A's."""
    for decks in (1, "inf"):
        house, model = solve(HOUSE, shoe_of_decks(decks)), solution("A", decks)
        assert (house.value, house.player, mixes(house)) == (model.value, model.player, mixes(model))


def test_optimal_policy_for_a_rules_file(run) -> None:
    """--policy optimal solves the game of a rules file (at its commission, 5%) for the command's shoe."""
    code, out, err = run("--rules", str(DOCS / "chemin-house.toml"), "--policy", "optimal", "--decks", "1", "--bets", "player", "--format", "json")
    assert (code, err) == (0, "")
    assert json.loads(out)["bets"]["player"]["expected_value"] == str(solve(HOUSE, Shoe.decks(1), ALPHA).value)


NO_PLAYER_CHOICE = variant(CHEMIN_DE_FER_A, "banker only", "D D D D D D S S - -")
EVERY_PLAYER_CHOICE = load_rules(rules_toml(CHEMIN_DE_FER_A).replace(PLAYER_ROW, '"C C C C C C C C - -"').replace(CHEMIN_DE_FER_A.name, "every choice")
                                 .replace('player_sees = "total"', 'player_sees = "cards"'), "every choice")


@pytest.mark.parametrize(("rules", "message"), [
    ("punto_banco", "Punto Banco leaves the player no choice (no option point, C, of his): chemin de fer is solved as a game where both sides choose"),
    ("baccarat_gold", "Baccarat Gold leaves the banker no choice (no option point, C, of his)"),
    (NO_PLAYER_CHOICE, "banker only leaves the player no choice"),
    (EVERY_PLAYER_CHOICE, "every choice gives the player 44 option points (information sets): chemin de fer is solved for at most 22"),
])
def test_rules_that_are_not_a_game_are_refused(rules: str | DrawRules, message: str, run, tmp_path) -> None:
    if isinstance(rules, DrawRules):
        path = tmp_path / "rules.toml"
        path.write_text(rules_toml(rules))
        rules = str(path)
    code, out, err = run("chemin-de-fer", "--rules", rules)
    assert (code, out) == (2, "") and len(err.splitlines()) == 1
    assert err.startswith(f"baccarat-odds: error: {message}")
    code, out, err = run("--rules", rules, "--policy", "optimal", "--decks", "1")
    assert (code, out) == (2, "") and err.startswith(f"baccarat-odds: error: --policy optimal solves chemin de fer as a game: {message}")


@pytest.mark.parametrize(("args", "message"), [
    ([], "give --model A|B2|B3 or --rules NAME|FILE (a chemin de fer rule set)"),
    (["--model", "A", "--rules", "chemin_de_fer_a"], "give --model or --rules, not both: a model is a rule set (--model A is --rules chemin_de_fer_a)"),
    (["--model", "A", "--policy", "player_on_5=draw"], "No such option '--policy'."),
])
def test_model_and_rules_are_one_choice(args: list[str], message: str, run) -> None:
    assert run("chemin-de-fer", *args) == (2, "", f"baccarat-odds: error: {message}\n")


def test_the_equilibrium_search_has_a_bound(monkeypatch) -> None:
    monkeypatch.setattr(chemin, "MAX_SYSTEMS", 1)
    with pytest.raises(InputError, match=r"^house tableau, the player choosing on 4 too: the exhaustive search of the equilibria would solve \d+ systems \(at most 1\)"):
        solve(HOUSE_ON_4, Shoe.parse("K=1,A=1,2=2,4=1,6=1,8=1,9=1"), ALPHA)


# --- results/ -------------------------------------------------------------------------------------


def test_chemin_de_fer_results_have_not_drifted(monkeypatch) -> None:
    """results/chemin-de-fer/ is what `baccarat-odds export` writes, byte for byte: every model for 1-8
    decks and the infinite deck, no commission and 5% (test_export.py checks the rest of results/).
    Each game is solved by :func:`solve` once for this file (``solved``): the solutions certified above."""
    from exact_odds.commands.export import CHEMIN, chemin_files

    monkeypatch.setattr(chemin, "solve", solved)
    fresh = chemin_files(list(range(1, 9)), Fraction(5))
    results = Path(__file__).resolve().parent.parent / "results"
    kept = {path.relative_to(results).as_posix(): path.read_bytes() for path in sorted((results / CHEMIN).rglob("*")) if path.is_file()}
    assert sorted(fresh) == sorted(kept)
    assert len(fresh) == 3 * 9 * 2 + 1
    for name, text in fresh.items():
        assert text.encode("utf-8") == kept[name], f"results/{name} is stale: run baccarat-odds export"
