"""Issue 23, items 2-4: Kelly sizing over the exact joint distribution (closed form, exact brackets,
grid searches of the growth, limits), rebates and dead chips against independent computations, and
the `size` command with its hostile inputs."""

import json
import math
import re
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from conftest import assert_exact
from test_joint import brute_force_joint

from exact_odds.bets.bets import catalog, load_bets
from exact_odds.core.shoe import Shoe
from exact_odds import analyze
from exact_odds.errors import InputError
from exact_odds.studies.figures import matches, parse_printed, published_figures
from exact_odds.studies.kelly import PRECISION
from exact_odds.studies.rebates import dead_chip, expected_loss, mean_wagers, session_rebate, with_loss_rebate
from exact_odds.studies.sizing import Limits, size
from exact_odds.studies.verify import Calculator, check

DEPLETED = Shoe.decks(1).remove("9 9 9 9 8 8 8 8")
"""A deck without its nines and eights: Dragon 7, Ox 6 and Big have an edge."""
LOW_GONE = Shoe.decks(1).remove("A A A A 2 2 2 2 3 3 3 3")
"""A deck without its aces, twos and threes: the 4% banker has an edge."""
SMALL = "KS=2,7H=1,8D=1,AC=1,2S=1,2H=1"
"""Seven cards: Dragon 7, the pairs and Small have an edge."""


def lines_of(name: str, shoe: Shoe) -> dict[Fraction, Fraction]:
    """Probability of each net pay of a bet alone, from its return table."""
    lines: dict[Fraction, Fraction] = {}
    for row in analyze(shoe, [name])[name].rows:
        lines[row.pays.net] = lines.get(row.pays.net, Fraction(0)) + row.probability
    return lines


def stake_of(sizing, name: str) -> Fraction:
    return next((stake.fraction for stake in sizing.stakes if stake.bet == name), Fraction(0))


def test_a_binary_bet_is_staked_at_the_closed_form_exactly():
    lines = lines_of("big", DEPLETED)
    (b, p), (_, q) = sorted(lines.items(), reverse=True)
    assert stake_of(size(DEPLETED, "big", 1000), "big") == (b * p - q) / b


def test_pushes_leave_the_kelly_fraction_of_the_bets_that_resolve():
    """(b p' - q') / b with p', q' conditional on the bet resolving (the tie pushes)."""
    lines = lines_of("banker_4pct", LOW_GONE)
    b, p, q = Fraction(24, 25), lines[Fraction(24, 25)], lines[Fraction(-1)]
    resolved_p, resolved_q = p / (p + q), q / (p + q)
    assert stake_of(size(LOW_GONE, "banker_4pct", 1000), "banker_4pct") == (b * resolved_p - resolved_q) / b


def test_a_rebate_on_losses_and_fractional_kelly_in_the_closed_form():
    lines = lines_of("banker_4pct", LOW_GONE)
    b, p, q, a = Fraction(24, 25), lines[Fraction(24, 25)], lines[Fraction(-1)], Fraction(99, 100)
    full = (p * b - q * a) / (a * b * (p + q))  # win b or lose a = 1 - 1% rebate
    assert stake_of(size(LOW_GONE, "banker_4pct", 1000, rebate=Fraction(1, 100)), "banker_4pct") == full
    assert stake_of(size(LOW_GONE, "banker_4pct", 1000, kelly="1/2", rebate="1/100"), "banker_4pct") == full / 2


def test_a_bet_of_many_lines_is_bracketed_exactly_and_matches_a_grid_search():
    shoe = Shoe.decks(1).remove("4 4 4 4 5 5 5 5")
    lines = lines_of("dragon_bonus_player", shoe)
    assert len(lines) > 3

    def slope(stake: Fraction) -> Fraction:
        return sum((p * net / (1 + net * stake) for net, p in lines.items()), Fraction(0))

    sizing = size(shoe, "dragon_bonus_player", 1000)
    stake = stake_of(sizing, "dragon_bonus_player")
    assert slope(stake) > 0 > slope(stake + PRECISION)
    grid = np.arange(0, 0.3, 1e-5)
    growth = sum(float(p) * np.log1p(float(net) * grid) for net, p in lines.items())
    assert abs(grid[int(np.argmax(growth))] - float(stake)) <= 1e-5


def grid_growth(distribution: dict, nets: list, points: np.ndarray) -> np.ndarray:
    """The exact-probability growth of many stake pairs (shares of the bankroll), in floats; -inf where ruined."""
    wealth = np.stack([1 + points @ np.array([float(net) for net in row]) for row in nets], axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(wealth > 0, np.log(np.where(wealth > 0, wealth, 1)), -np.inf)
    return logs @ np.array([float(p) for p in distribution.values()])


def brute_force_problem(names: tuple[str, ...]):
    distribution = brute_force_joint(names, SMALL)
    bets = [catalog()[name] for name in names]
    return distribution, [[bet.payouts[line].net for bet, line in zip(bets, lines)] for lines in distribution]


@pytest.mark.parametrize("names, limits", [
    (("dragon_7", "player_pair"), Limits()),
    (("dragon_7", "small"), Limits(total=Fraction(30))),
    (("banker", "dragon_7"), Limits(minimum={"banker": Fraction(10)}, side_needs_main=True, side_ratio=Fraction(1, 2))),
])
def test_several_stakes_match_a_fine_grid_search_of_the_exact_growth(names, limits):
    """The optimum against every point of a grid of the stakes the limits allow (the growth from every
    ordering of the cards), then against a finer grid around it: none grows more, beyond float error."""
    bankroll = Fraction(100)
    sizing = size(Shoe.parse(SMALL), list(names), bankroll, limits)
    distribution, nets = brute_force_problem(names)
    chosen = np.array([[float(stake_of(sizing, name)) for name in names]])
    best = grid_growth(distribution, nets, chosen)[0]
    assert sizing.growth_gap is not None and sizing.growth_gap < Fraction(1, 10**9)
    assert abs(best - float(sizing.growth)) < 1e-12

    def allowed(points: np.ndarray) -> np.ndarray:
        money = points * float(bankroll)
        keep = (points >= 0).all(axis=1) & (points.sum(axis=1) <= 1)
        for position, name in enumerate(names):
            if name in limits.minimum:
                keep &= (money[:, position] == 0) | (money[:, position] >= float(limits.minimum[name]) - 1e-12)
            if limits.side_needs_main and name not in limits.main:
                keep &= (money[:, position] == 0) | (money[:, 0] > 0)
            if limits.side_ratio is not None and name not in limits.main:
                keep &= money[:, position] <= float(limits.side_ratio) * money[:, 0] + 1e-12
        if limits.total is not None:
            keep &= money.sum(axis=1) <= float(limits.total) + 1e-12
        return keep

    coarse = np.array(list(product(np.arange(0, 1.0001, 0.005), repeat=2)))
    coarse = coarse[allowed(coarse)]
    assert grid_growth(distribution, nets, coarse).max() <= best + 1e-12
    fine = chosen + np.array(list(product(np.arange(-20, 21) * 1e-6, repeat=2)))
    fine = fine[allowed(fine)]
    assert grid_growth(distribution, nets, fine).max() <= best + 1e-12


def test_whole_units_are_the_best_lattice_point_and_every_limit_holds():
    names = ("dragon_7", "player_pair")
    limits = Limits(minimum={"player_pair": Fraction(3)}, maximum={"dragon_7": Fraction(40)}, total=Fraction(60), unit=Fraction(1))
    sizing = size(Shoe.parse(SMALL), list(names), 200, limits)
    amounts = {stake.bet: stake.amount for stake in sizing.stakes}
    for name, amount in amounts.items():
        assert amount.denominator == 1 and amount > 0
    assert amounts.get("player_pair", 3) >= 3 and amounts.get("dragon_7", 0) <= 40 and sum(amounts.values()) <= 60
    distribution, nets = brute_force_problem(names)
    lattice = np.array([(x, y) for x in range(0, 41) for y in [0, *range(3, 61)] if x + y <= 60]) / 200
    chosen = np.array([[float(amounts.get(name, 0)) / 200 for name in names]])
    assert grid_growth(distribution, nets, lattice).max() <= grid_growth(distribution, nets, chosen)[0] + 1e-15


def test_no_bet_with_a_negative_edge_gets_a_stake():
    """Every catalog bet on 8 decks alone, and all the main bets together: no bet, said so."""
    shoe = Shoe.decks(8)
    for name in catalog():
        sizing = size(shoe, name, 1000)
        assert sizing.stakes == () and sizing.growth == "0", name
        assert sizing.method.startswith("no bet"), name
    together = size(shoe, "banker, player, tie, dragon_7", 10**6, Limits(minimum={"banker": Fraction(100)}))
    assert together.stakes == () and together.expected_value == 0


def test_a_position_with_stakes_has_a_positive_expectation_and_exact_figures():
    sizing = size(DEPLETED, "banker, dragon_7, ox_6", 10000, Limits(minimum={"banker": Fraction(100)}, side_needs_main=True, unit=Fraction(5)))
    assert sizing.expected_value > 0
    amounts = {stake.bet: stake.amount for stake in sizing.stakes}
    assert amounts["banker"] >= 100 and all((amount / 5).denominator == 1 for amount in amounts.values())
    analysis = analyze(DEPLETED, "banker, dragon_7, ox_6")
    assert sizing.expected_value == sum(amount * analysis[name].expected_value for name, amount in amounts.items())
    for value in (sizing.expected_value, sizing.variance, sizing.lose_all, *(stake.fraction for stake in sizing.stakes)):
        assert type(value) is Fraction
    assert 0 < sizing.lose_all < 1
    assert_exact(sizing)
    record = sizing.to_dict()
    assert record["format"] == "exact_odds.sizing" and Fraction(record["expected_value"]) == sizing.expected_value


@pytest.mark.parametrize("arguments, message", [
    (dict(bankroll=0), "bankroll must be positive"),
    (dict(bankroll=-5), "bankroll must be positive"),
    (dict(bankroll=1.5), "bankroll must be an exact number"),
    (dict(kelly=0), "kelly must be a fraction above 0"),
    (dict(kelly="3/2"), "kelly must be a fraction above 0"),
    (dict(kelly=-1), "kelly must be a fraction above 0"),
    (dict(rebate=1), "rebate must be a share"),
    (dict(limits=Limits(minimum={"bogus": Fraction(10)})), "minimum for 'bogus': not a bet of this position"),
    (dict(limits=Limits(maximum={"tie": Fraction(5)}), table=["banker", "player"]), "maximum for 'tie': not a bet of this position"),
    (dict(limits=Limits(main=("player",), side_ratio=Fraction(2))), r"main: 'player' is not a bet of this position \(banker\)"),
    (dict(limits={"minimum": {"banker": 1}}), "limits must be a Limits"),
    (dict(bets="bogus"), "unknown bet 'bogus'"),
    (dict(bets="dragon_7", limits=Limits(side_needs_main=True)), "needs a main bet"),
])
def test_hostile_library_inputs_are_refused_in_one_line(arguments, message):
    given = {"bets": "banker", "bankroll": 100, **arguments}
    with pytest.raises(InputError, match=message) as error:
        size(Shoe.decks(8), given.pop("bets"), given.pop("bankroll"), **given)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("arguments, message", [
    (dict(minimum={"tie": Fraction(10)}, maximum={"tie": Fraction(5)}), "the minimum for tie (10) is above its maximum (5)"),
    (dict(minimum={"banker": -5}), "the minimum for banker must be positive, not -5"),
    (dict(maximum={"player": Fraction(-1)}), "the maximum for player must be positive, not -1"),
    (dict(maximum={"player": 0}), "the maximum for player must be positive, not 0"),
    (dict(minimum={"banker": 2.5}), "the minimum for banker must be an exact number (an int, a Fraction or text such as '1/2'), not 2.5"),
    (dict(minimum={"banker": True}), "the minimum for banker must be an exact number"),
    (dict(total=Fraction(0)), "the total limit must be positive, not 0"),
    (dict(unit=-1), "the unit must be positive, not -1"),
    (dict(side_ratio=Fraction(-1, 2)), "the side ratio must be positive, not -1/2"),
    (dict(main=()), "main must be a tuple of the main bets' names, not ()"),
    (dict(main="banker"), "main must be a tuple of the main bets' names, not 'banker'"),
    (dict(side_needs_main=1), "side_needs_main must be True or False, not 1"),
    (dict(minimum=[("banker", 5)]), "minimum must map bet names to amounts"),
])
def test_limits_refuse_what_no_table_means(arguments, message):
    with pytest.raises(InputError, match="^" + re.escape(message)) as error:
        Limits(**arguments)
    assert "\n" not in str(error.value)


def test_limits_are_checked_against_every_bet_of_the_table():
    """A session's limits may name any of its bets: checked against all of them, applied to the bets sized."""
    table = ["banker", "player", "tie", "dragon_7"]
    limits = Limits(minimum={"banker": Fraction(10)}, maximum={"tie": Fraction(5), "dragon_7": Fraction(3)})
    assert limits.checked(["dragon_7"], table) == Limits(maximum={"dragon_7": Fraction(3)})
    with pytest.raises(InputError, match=r"^minimum for 'banker': not a bet of this position \(dragon_7\)$"):
        limits.checked(["dragon_7"])
    sized = size(DEPLETED, "dragon_7", 1000, limits, table=table)
    assert sized.to_dict() == size(DEPLETED, "dragon_7", 1000, Limits(maximum={"dragon_7": Fraction(3)})).to_dict()
    assert [(stake.bet, stake.amount) for stake in sized.stakes] == [("dragon_7", Fraction(3))]  # the Kelly stake is above 3
    assert size(DEPLETED, "dragon_7", 1000).stakes[0].amount > 3


# --- rebates and dead chips ---------------------------------------------------------------------


def test_a_dead_chip_lives_a_geometric_number_of_wagers():
    """Summed by hand: P(a chip makes n wagers) = (1 - q)^(n - 1) q; the first 60 terms and the
    exact tail (1 - q)^60 (60 + 1/q) make the mean; the cash obeys V = w + (1 - q) V."""
    analysis = analyze(Shoe.decks(8), "banker")
    q = analysis.probability("player")  # the banker bet loses when the player wins
    terms = sum((n * (1 - q) ** (n - 1) * q for n in range(1, 61)), Fraction(0))
    chip = dead_chip(analysis["banker"])
    assert chip.wagers == terms + (1 - q) ** 60 * (60 + 1 / q)
    win = analysis.probability("banker") * Fraction(19, 20)
    assert chip.cash == win + (1 - q) * chip.cash
    assert chip.value - 1 == chip.wagers * analysis["banker"].expected_value
    assert_exact(chip)


def test_jacobson_figure_is_the_mean_of_the_two_bets_chip_lives():
    """2.211 wagers (Jacobson, half the chips on each of banker and player): the mean of 1/q over the
    two bets; a chip whose own wagers were split equally would live 2 / (q_banker + q_player), 2.210."""
    analysis = analyze(Shoe.decks(8))
    banker, player = analysis.probability("banker"), analysis.probability("player")
    mean = mean_wagers([dead_chip(analysis["banker"]), dead_chip(analysis["player"])])
    assert mean == (1 / player + 1 / banker) / 2
    printed = parse_printed("2.211")
    assert matches(printed, mean) and not matches(printed, 2 / (banker + player))
    figure = next(figure for figure in published_figures() if figure.id == "jacobson-nn-chip-wagers-8d")
    assert check(figure, Calculator()).verdict == "ok"


def test_a_rebate_on_losses_counts_what_is_lost_not_what_is_staked():
    analysis = analyze(Shoe.decks(8), "player, dragon_7")
    rate = Fraction(1, 100)
    assert with_loss_rebate(analysis["player"], rate) == analysis["player"].expected_value + rate * analysis.probability("banker")
    dragon = analysis["dragon_7"]
    lose = 1 - dragon.rows[0].probability
    assert with_loss_rebate(dragon, rate) == dragon.expected_value + rate * lose
    assert dead_chip(dragon, rate).edge_per_wager == -with_loss_rebate(dragon, rate)


def test_a_session_rebate_equals_every_sequence_of_coups():
    result = analyze(Shoe.decks(8), "banker")["banker"]
    rows = [(row.pays.net, row.probability) for row in result.rows]
    loss, behind = Fraction(0), Fraction(0)
    for sequence in product(rows, repeat=3):
        total = sum((net for net, _ in sequence), Fraction(0))
        chance = math.prod((p for _, p in sequence), start=Fraction(1))
        if total < 0:
            loss, behind = loss - total * chance, behind + chance
    session = session_rebate(result, 3, Fraction(1, 10))
    assert (session.expected_net_loss, session.behind) == (loss, behind)
    assert session.value == 3 * result.expected_value + loss / 10
    assert session_rebate(result, 1, Fraction(1, 10)).expected_net_loss == expected_loss(result)


def test_dead_chips_refuse_bets_that_lose_part_or_never_lose():
    text = '[[bet]]\nname = "half"\npays = [{ when = "winner == tie", pays = "lose 1/2" }, { when = "winner == banker", pays = "1" }]\n' \
           '[[bet]]\nname = "always"\npays = [{ when = "winner == banker or winner == player or winner == tie", pays = "1" }]\n'
    half, always = load_bets(text, "test").values()
    analysis = analyze(Shoe.decks(8), [half, always])
    with pytest.raises(InputError, match="loses part of its stake"):
        dead_chip(analysis["half"])
    with pytest.raises(InputError, match="never loses"):
        dead_chip(analysis["always"])
    with pytest.raises(InputError, match="from 1 to 500 coups"):
        session_rebate(analysis["half"], 0, Fraction(0))


# --- the command --------------------------------------------------------------------------------


def test_size_command_no_bet_and_a_bet(run):
    code, out, err = run("size", "--bankroll", "1000", "--decks", "8")
    assert (code, err) == (0, "") and "No bet: no stake within the limits grows the bankroll (no bet has a positive expectation)." in out
    code, out, err = run("size", "--bankroll", "1000", "--decks", "1", "--remove", "9 9 9 9 8 8 8 8", "--bets", "big", "--format", "json")
    assert (code, err) == (0, "")
    lines = lines_of("big", DEPLETED)
    (b, p), (_, q) = sorted(lines.items(), reverse=True)
    assert Fraction(json.loads(out)["stakes"]["big"]["fraction"]) == (b * p - q) / b
    for fmt in ("csv", "markdown", "table"):
        code, out, err = run("size", "--bankroll", "1000", "--decks", "1", "--remove", "9 9 9 9 8 8 8 8", "--bets", "banker,dragon_7",
                             "--min", "banker=10", "--side-needs-main", "--unit", "5", "--rebate", "1", "--dead-chip", "--format", fmt)
        assert (code, err) == (0, "") and "dragon_7" in out


@pytest.mark.parametrize("arguments, message", [
    (["--bankroll", "0"], "--bankroll must be positive"),
    (["--bankroll", "-100"], "--bankroll must be positive"),
    (["--bankroll", "100", "--kelly", "0"], "--kelly must be a fraction above 0 and at most 1"),
    (["--bankroll", "100", "--kelly", "1.5"], "--kelly must be a fraction above 0 and at most 1"),
    (["--bankroll", "100", "--min", "10", "--max", "5"], "the minimum for banker (10) is above its maximum (5)"),
    (["--bankroll", "100", "--max", "player=-1"], "the maximum for player must be positive, not -1"),
    (["--bankroll", "100", "--min", "tie=10", "--max", "tie=5"], "the minimum for tie (10) is above its maximum (5)"),
    (["--bankroll", "100", "--bets", "bogus"], "unknown bet 'bogus'"),
    (["--bankroll", "100", "--rebate", "100"], "--rebate must be at least 0 and below 100 percent"),
    (["--bankroll", "100", "--min", "bogus=5"], "--min: 'bogus' is not a bet of this position"),
    (["--bankroll", "100", "--session", "10"], "--session values a rebate"),
    (["--bets", "banker"], "Missing option '--bankroll'"),
    (["--bankroll", "100", "--main", "banker"], "--main names the main bets for --side-needs-main and --side-ratio"),
    (["--bankroll", "100", "--main", "bogus", "--side-ratio", "2"], "--main: 'bogus' is not a bet of this position"),
    (["--bankroll", "100", "--bets", "banker,dragon_7", "--side-needs-main"], "needs a minimum on each main bet (or a unit)"),
])
def test_hostile_command_inputs_exit_2_in_one_line(run, arguments, message):
    code, out, err = run("size", *arguments)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("baccarat-odds: error: ") and message in err
