"""A whole shoe dealt to the cut card (issue 31): the exact method against every ordering of small
shoes, the simulated method against the exact one and against simulate's dealing, hostile inputs."""

import json
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import product

import numpy as np
import pytest

from exact_odds.bets.bets import catalog, main_bets
from exact_odds.core.cards import Card
from exact_odds.core.policy import Policy, choices, resolve
from exact_odds.core.rules import BACCARAT_GOLD, PUNTO_BANCO
from exact_odds.core.shoe import Shoe
from exact_odds.errors import InputError
from exact_odds.studies import shoe_exact
from exact_odds.studies.dealer import deal_shoes
from exact_odds.studies.shoe import ShoeStudy, shoe_odds, simulated_odds, simulated_range
from exact_odds.studies.shoe_simulated import ShoePartial, merged

from oracles import coup_features, deal_physically, settle

BETS = (*main_bets(PUNTO_BANCO).values(), catalog()["dragon_7"])


def distinct_orderings(counts: dict[str, int]):
    """Every ordering of the shoe's cards, each distinct sequence of ranks once (each stands for
    the same number of orderings of the physical cards, so all are equally likely)."""
    ranks, left, order, size = sorted(counts), dict(counts), [], sum(counts.values())

    def extend():
        if len(order) == size:
            yield tuple(order)
            return
        for rank in ranks:
            if left[rank]:
                left[rank] -= 1
                order.append(rank)
                yield from extend()
                order.pop()
                left[rank] += 1

    yield from extend()


class ShoeOracle:
    """Brute force: deal every ordering card by card to the cut card, and sum the results dealt and
    max(0, EV) of each bet, EV from every ordered draw of six of the cards not seen."""

    def __init__(self, bets, rules=PUNTO_BANCO, policy=Policy()):
        self.bets, self.rules, self.chosen = bets, rules, choices(rules, policy)
        self.coup = lru_cache(maxsize=None)(self._coup)
        self.expectations = lru_cache(maxsize=None)(self._expectations)

    def _coup(self, ranks):
        """Cards used and each bet's net on the coup dealt from these six ranks (suits play no part)."""
        ((_, player, banker),) = deal_physically([Card(rank, "S") for rank in ranks], self.rules, self.chosen)
        features = coup_features(player, banker, self.rules.naturals)
        return len(player) + len(banker), tuple(settle(bet, features) for bet in self.bets)

    def _expectations(self, left):
        counts = dict(left)
        sums, draws = [Fraction(0)] * len(self.bets), 0
        for ranks in product([rank for rank, count in left if count], repeat=6):
            ways, taken = 1, Counter()
            for rank in ranks:
                ways *= counts[rank] - taken[rank]
                taken[rank] += 1
            if ways:
                draws += ways
                for index, net in enumerate(self.coup(ranks)[1]):
                    sums[index] += ways * net
        return tuple(total / draws for total in sums)

    def shoes(self, counts, deals, burn):
        """Per (cut card, coups after it): expected coups, then per bet the expected sums of
        results and of max(0, EV), then of the best bet's max(0, EV). Each ordering is dealt to the
        end of the shoe once; each deal then keeps the coups up to its cut card and the coups after."""
        figures = {deal: [Fraction(0)] * (2 + 2 * len(self.bets)) for deal in deals}
        orderings, size = 0, sum(counts.values())
        for order in distinct_orderings(counts):
            orderings += 1
            left = Counter(counts)
            position = 0
            if burn:  # the first card turned, as many burned face down as its value (tens 10): unseen
                left[order[0]] -= 1
                position = 1 + (Card(order[0]).value or 10)
            first = position
            coups = []  # (first card, after its last card, EVs before it, nets)
            while position + 6 <= size:
                values = self.expectations(tuple(sorted(left.items())))
                used, nets = self.coup(order[position : position + 6])
                coups.append((position, position + used, values, nets))
                for rank in order[position : position + used]:
                    left[rank] -= 1
                position += used
            for cut, after in deals:
                sums = figures[cut, after]
                remaining = after if first > cut else None  # the burn passed the cut card: only the coups after it
                for _, end, values, nets in coups:
                    if remaining == 0:
                        break
                    sums[0] += 1
                    for index, (value, net) in enumerate(zip(values, nets)):
                        sums[1 + index] += net
                        sums[1 + len(self.bets) + index] += max(value, 0)
                    sums[-1] += max([0, *values])
                    if remaining is not None:
                        remaining -= 1
                    elif end > cut:  # the cut card came out in this coup
                        remaining = after
        return {deal: [total / orderings for total in sums] for deal, sums in figures.items()}


ORACLE = ShoeOracle(BETS)
CASES = [
    ({"9": 3, "K": 5, "A": 4}, False, [(0, 0), (5, 0), (0, 1), (12, 0), (3, 2)]),
    ({"A": 5, "9": 4, "K": 3}, True, [(0, 2), (0, 0), (2, 0), (6, 0), (6, 1), (12, 3)]),
]


@lru_cache(maxsize=None)
def brute_force(case: int):
    counts, burn, deals = CASES[case]
    return ORACLE.shoes(counts, deals, burn)


def exact_figures(counts, cut, after, burn):
    shoe = Shoe.parse(",".join(f"{rank}={count}" for rank, count in counts.items()))
    sums = shoe_exact.exact_sums(shoe.value_counts, cut, after, burn, BETS, resolve(PUNTO_BANCO))
    return [sums.coups, *sums.results, *sums.positive, sums.best]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_exact_sums_equal_every_ordering_dealt(case):
    counts, burn, deals = CASES[case]
    expected = brute_force(case)
    for cut, after in deals:
        figures = exact_figures(counts, cut, after, burn)
        assert figures == expected[cut, after], (cut, after)
        assert all(type(figure) is Fraction for figure in figures)
    assert len({expected[deal][0] for deal in deals}) >= 3  # the cut card and the coups after it change the coups dealt


GOLD = Policy.parse("player_on_5=stand")


def test_other_rules_and_a_fixed_choice_cut_their_own_coups():
    """Baccarat Gold with the player standing on 5 (a choice there, fixed here): every ordering again."""
    counts, deals = {"A": 4, "4": 3, "K": 5}, [(3, 0), (6, 1)]
    expected = ShoeOracle(BETS[:3], BACCARAT_GOLD, GOLD).shoes(counts, deals, False)
    shoe = Shoe.parse("A=4,4=3,K=5")
    for cut, after in deals:
        sums = shoe_exact.exact_sums(shoe.value_counts, cut, after, False, BETS[:3], resolve(BACCARAT_GOLD, GOLD))
        assert [sums.coups, *sums.results, *sums.positive, sums.best] == expected[cut, after]
    punto = shoe_exact.exact_sums(shoe.value_counts, 6, 1, False, BETS[:3], resolve(PUNTO_BANCO))
    assert punto.results != tuple(expected[6, 1][1:4])  # the player's stand on 5 changes the coups


def test_many_small_primes_rebuild_the_same_fractions(monkeypatch):
    """Primes below 2^12, a dozen of them, rebuild by the Chinese remainder theorem what one or
    two large ones give: every ordering's figures again (the residues kept in files, as for a large
    shoe)."""
    monkeypatch.setattr(shoe_exact, "PRIME_LIMIT", 1 << 12)
    monkeypatch.setattr(shoe_exact, "IN_MEMORY", 0)
    counts, burn, deals = CASES[1]
    for cut, after in deals[:2]:
        assert exact_figures(counts, cut, after, burn) == brute_force(1)[cut, after]
    assert len(shoe_exact.primes_for(10**40)) == 12


def test_the_library_figures_follow_from_the_sums():
    """hold = E[sum of results] / E[coups], the cut-card effect is the hold less the edge off the
    top, perfect play is the expected sum of max(0, EV); every exact figure a Fraction, as JSON a
    fraction string with its decimal beside it."""
    from exact_odds import analyze

    counts, burn, deals = CASES[1]
    cut, after = deals[4]
    study = ShoeStudy(shoe=Shoe.parse("A=5,9=4,K=3"), cut_card=cut, after_cut=after, burn=burn, bets=BETS)
    odds = shoe_odds(study)
    expected = brute_force(1)[cut, after]
    assert odds.expected_coups.exact == expected[0]
    banker = odds["banker"]
    top = analyze(Shoe.parse("A=5,9=4,K=3"), ["banker"], PUNTO_BANCO).bets[0].expected_value
    assert banker.off_the_top.exact == top
    assert banker.hold_per_coup.exact == expected[1] / expected[0]
    assert banker.cut_card_effect.exact == expected[1] / expected[0] - top
    assert banker.perfect_play.exact == expected[1 + len(BETS)]
    assert odds.best_perfect_play.exact == expected[-1]
    record = json.loads(json.dumps(odds.to_dict()))
    assert record["format"] == "exact_odds.shoe" and record["method"] == "exact"
    assert record["bets"]["banker"]["hold_per_coup"] == str(expected[1] / expected[0])
    assert record["bets"]["banker"]["hold_per_coup_decimal"] == float(expected[1] / expected[0])
    assert record["bets"]["banker"]["hold_per_coup_standard_error"] is None
    assert record["best"]["perfect_play"] == str(expected[-1])


def test_off_the_top_is_the_analysis_of_the_full_shoe():
    from exact_odds import analyze

    shoe = Shoe.parse("A=5,9=4,K=3")
    analysis = analyze(shoe, list(BETS), PUNTO_BANCO)
    odds = shoe_odds(ShoeStudy(shoe=shoe, cut_card=6, bets=BETS))
    assert [entry.off_the_top.exact for entry in odds.bets] == [result.expected_value for result in analysis.bets]


SMALL = Shoe.parse("A=2,2=2,4=2,6=2,7=2,8=2,9=2,K=4")
SOMETIMES_POSITIVE = ("banker", "tie", "dragon_7")
"""The bets of BETS that are positive often enough on SMALL to be seen in a few thousand shoes (the
player's perfect play there, 2 x 10^-5, is not)."""


def test_simulated_figures_lie_within_their_standard_errors_of_the_exact_ones():
    """4,000 shoes of 16 cards (fixed seed): every figure within 4 standard errors of the exact value."""
    exact = shoe_odds(ShoeStudy(shoe=SMALL, cut_card=10, bets=SOMETIMES_POSITIVE))
    simulated = shoe_odds(ShoeStudy(shoe=SMALL, cut_card=10, bets=SOMETIMES_POSITIVE, method="simulated", shoes=4000, seed=7))
    pairs = [(exact.expected_coups, simulated.expected_coups), (exact.best_perfect_play, simulated.best_perfect_play)]
    for mine, theirs in zip(exact.bets, simulated.bets):
        assert theirs.off_the_top == mine.off_the_top
        pairs += [(mine.hold_per_coup, theirs.hold_per_coup), (mine.cut_card_effect, theirs.cut_card_effect), (mine.perfect_play, theirs.perfect_play)]
    for known, estimate in pairs:
        assert estimate.exact is None and known.exact != 0 and estimate.standard_error > 0
        assert abs(estimate.value - float(known.exact)) < 4 * estimate.standard_error, (known, estimate)
    record = simulated.to_dict()
    assert record["method"] == "simulated" and record["shoes"] == 4000 and record["bets"]["tie"]["perfect_play"] is None


def test_ranges_of_shoes_add_to_the_same_bytes_in_any_grouping():
    study = ShoeStudy(shoe=Shoe.decks(1), cut_card=39, bets="banker,player,tie,dragon_7", method="simulated", shoes=60, seed=3)
    whole = simulated_range(study, 0, 60)
    parts = [simulated_range(study, first, last) for first, last in ((0, 7), (7, 40), (40, 60))]
    assert merged(parts) == whole == merged(reversed(parts))
    assert json.dumps(simulated_odds(study, whole).to_dict()) == json.dumps(simulated_odds(study, merged(parts)).to_dict())


@pytest.mark.parametrize("burn", [True, False])
def test_the_simulated_shoe_is_dealt_as_simulate_deals_it(burn):
    """Shoe by shoe, the coups of the simulated path are simulate's (its dealer, seeded the same),
    and each coup is weighed on the full shoe less the cards seen before it: the turned card and the
    coups dealt, not the cards burned face down (found here by shuffling again)."""
    study = ShoeStudy(shoe=Shoe.decks(1), cut_card=30, after_cut=2, burn=burn, method="simulated", shoes=12, seed=5)
    settings = study.settings()
    left, _, _, coups = deal_shoes(settings, 0, 12, seen=True)
    dealt, _, _, simulate_coups = deal_shoes(settings, 0, 12)
    assert coups.tolist() == simulate_coups.tolist() and len(set(coups.tolist())) > 1
    full = np.asarray(Shoe.decks(1).rank_counts)
    row = 0
    for shoe in range(12):
        cards = np.repeat(np.arange(13), 4)
        np.random.default_rng([5, shoe]).shuffle(cards)
        hidden = cards[1 : 1 + ((cards[0] + 1) % 10 if cards[0] < 9 else 10)] if burn else cards[:0]
        for _ in range(coups[shoe]):
            assert (left[row] == dealt[row] + np.bincount(hidden, minlength=13)).all()
            seen = full - left[row]
            assert seen.sum() == 52 - left[row].sum() and (seen[cards[0]] >= 1 if burn else True)
            row += 1


@pytest.mark.parametrize("arguments,parameter,message", [
    ({"shoe": Shoe.decks(1), "cut_card": 53}, "cut_card", "cut_card 53 is past the shoe (52 cards)"),
    ({"shoe": Shoe.decks(1), "cut_card": -1}, "cut_card", "cut_card must be a whole number from 0"),
    ({"shoe": Shoe.decks(1), "cut_card": 30, "after_cut": -1}, "after_cut", "after_cut must be a whole number from 0"),
    ({"shoe": Shoe.parse("9=4,K=3"), "cut_card": 2}, "shoe", "7 cards are too few for a coup after the burn"),
    ({"shoe": Shoe((3,) + (0,) * 11 + (2,), None, "five cards"), "cut_card": 2, "burn": False}, "shoe", "5 cards are too few for a coup (a coup"),
    ({"shoe": Shoe.parse("K=20"), "cut_card": 3, "after_cut": 0}, "cut_card", "the burn always passes the cut card"),
    ({"shoe": Shoe.decks(1), "cut_card": 30, "bets": "player_pair"}, "bets", "bet 'player_pair' reads card ranks or suits"),
    ({"shoe": Shoe.decks(1), "cut_card": 30, "decisions": resolve(BACCARAT_GOLD, Policy.parse("player_on_5=1/2"))}, "policy",
     "policy: the exact shoe needs every choice fixed"),
    ({"shoe": Shoe.decks(2), "cut_card": 80}, "method", "method exact would weigh"),
    ({"shoe": Shoe.decks(1), "cut_card": 30, "method": "guess"}, "method", "method must be exact or simulated"),
    ({"shoe": Shoe.infinite(), "cut_card": 3}, "shoe", "the infinite deck has no cut card"),
    ({"shoe": Shoe.decks(8), "cut_card": 300, "method": "simulated", "shoes": 0}, "shoes", "shoes must be a whole number from 1"),
    ({"shoe": Shoe.decks(8), "cut_card": True}, "cut_card", "cut_card must be a whole number from 0"),
])
def test_hostile_inputs_are_refused_in_one_line_before_any_work(arguments, parameter, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")) as refusal:
        ShoeStudy(**arguments)
    assert refusal.value.parameter == parameter and "\n" not in str(refusal.value)


def test_the_same_bytes_on_local_workers_and_on_a_dask_cluster():
    """3,300 shoes in 33 ranges of 100: on workers, two ranges a task (the last alone); in this
    process one at a time; on a dask LocalCluster: one record, byte for byte."""
    study = ShoeStudy(shoe=SMALL, cut_card=10, bets=SOMETIMES_POSITIVE, method="simulated", shoes=3300, seed=2)
    alone = json.dumps(shoe_odds(study).to_dict())
    assert json.dumps(shoe_odds(study, workers=2).to_dict()) == alone
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None) as cluster:
        assert json.dumps(shoe_odds(study, scheduler=cluster.scheduler_address).to_dict()) == alone
    assert json.loads(alone)["shoes"] == 3300


def test_an_interrupted_simulation_keeps_the_ranges_completed_in_order(monkeypatch):
    from exact_odds.studies import shoe

    real, calls = shoe.simulate_range, []

    def interrupted(settings, first, last):
        calls.append(first)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(settings, first, last)

    monkeypatch.setattr(shoe, "simulate_range", interrupted)
    study = ShoeStudy(shoe=SMALL, cut_card=10, bets=SOMETIMES_POSITIVE, method="simulated", shoes=500, seed=2)
    odds = shoe.simulated_shoe(study)
    assert odds.interrupted and odds.shoes == 200 and odds.to_dict()["interrupted"] is True
    assert json.dumps(odds.to_dict()["bets"]) == json.dumps(shoe.simulated_odds(study, merged([real(study.settings(), 0, 100), real(study.settings(), 100, 200)])).to_dict()["bets"])


def test_shifted_add_is_a_sum_modulo_the_prime_cell_by_cell(monkeypatch):
    """The compiled kernel and the numpy path: every cell against a plain loop, for every shift of
    a small array of four axes (shifts past an axis add nothing)."""
    from itertools import product as cells

    from exact_odds.engine.kernel import shifted_add

    prime, shape = 2_147_483_647, (3, 1, 4, 2)
    rng = np.random.default_rng(3)
    target, source = (rng.integers(0, prime, size=shape).astype(np.uint32) for _ in range(2))
    for path in ("", "numpy"):
        monkeypatch.setenv("EXACT_ODDS_KERNEL", path)
        for steps in cells(range(4), range(2), range(5), range(3)):
            got = target.copy()
            shifted_add(got, source, steps, prime)
            expected = target.astype(object)
            for index in cells(*(range(size) for size in shape)):
                moved = tuple(place + step for place, step in zip(index, steps))
                if all(place < size for place, size in zip(moved, shape)):
                    expected[moved] = (int(target[moved]) + int(source[index])) % prime
            assert got.tolist() == expected.tolist(), (path, steps)


def test_the_numpy_path_counts_the_same_shoe(monkeypatch):
    counts, burn, deals = CASES[1]
    cut, after = deals[4]
    monkeypatch.setenv("EXACT_ODDS_KERNEL", "numpy")
    assert exact_figures(counts, cut, after, burn) == brute_force(1)[cut, after]


def test_a_range_written_as_json_reads_back_equal():
    study = ShoeStudy(shoe=Shoe.decks(1), cut_card=39, method="simulated", shoes=30, seed=4)
    partial = simulated_range(study, 0, 30)
    assert ShoePartial.from_record(json.loads(json.dumps(partial.to_record()))) == partial and partial.coups > 200
