"""`depth` (issue 31): exact edge distributions over the compositions of the cards left.

The oracle deals every n-subset of the physical cards of a small shoe: each subset's expectation
is the average over every ordering of six of its cards of what each bet pays, the coup dealt by the
tableau written out below (not the engine's walk) and each bet settled by hand. Every subset is
equally likely; the figures of the study must equal those of this list of subsets, as Fractions.
"""

from collections import Counter
from fractions import Fraction
from itertools import combinations, permutations
from math import comb

import pytest

from exact_odds.core.cards import POINT_VALUES, RANKS
from exact_odds.core.shoe import Shoe
from exact_odds.errors import InputError
from exact_odds.studies import depth as depth_module
from exact_odds.studies import levels as levels_module
from exact_odds.studies.depth import DepthSettings, level_name, parse_cards_left, run_depth


def total(hand: list[tuple[str, int]]) -> int:
    return sum(value for _, value in hand) % 10


def dealt(cards: tuple[tuple[str, int], ...]) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """The player's and the banker's hands dealt from six cards (rank, value) in shoe order, Punto Banco:
    P B P B; a natural 8 or 9 stands both; the player draws on 0-5; the banker draws on 0-5 when the
    player stood, else by the tableau on the player's third card."""
    player, banker = [cards[0], cards[2]], [cards[1], cards[3]]
    if total(player) >= 8 or total(banker) >= 8:
        return player, banker
    following, third = 4, None
    if total(player) <= 5:
        player.append(cards[4])
        following, third = 5, cards[4][1]
    own = total(banker)
    if third is None:
        draws = own <= 5
    else:
        draws = own <= 2 or (own == 3 and third != 8) or (own == 4 and 2 <= third <= 7) or (own == 5 and 4 <= third <= 7) or (own == 6 and third in (6, 7))
    if draws:
        banker.append(cards[following])
    return player, banker


def paid(bet: str, theirs: int, ours: int, player_cards: int, banker_cards: int, pair: bool) -> Fraction:
    """What one unit on ``bet`` wins (net) on a coup dealt with these totals (player's, banker's),
    hand sizes and player pair."""
    net = {
        "banker": Fraction(19, 20) if ours > theirs else 0 if ours == theirs else -1,
        "player": 1 if theirs > ours else 0 if ours == theirs else -1,
        "tie": 8 if ours == theirs else -1,
        "dragon_7": 40 if ours > theirs and banker_cards == 3 and ours == 7 else -1,
        "panda_8": 25 if theirs > ours and player_cards == 3 and theirs == 8 else -1,
        "player_pair": 11 if pair else -1,
    }[bet]
    return Fraction(net)


def subset_expectations(cards: list[tuple[str, int]], bets: tuple[str, ...], left: int) -> list[tuple[Fraction, ...]]:
    """Every n-subset of the physical ``cards``: each bet's expectation, averaged over every ordering
    of six of the subset's cards (subsets holding the same ranks share it). Orderings that deal the
    same hands' totals, sizes and pair are tallied first, then settled once."""
    known: dict[tuple[str, ...], tuple[Fraction, ...]] = {}
    found = []
    for chosen in combinations(range(len(cards)), left):
        subset = [cards[index] for index in chosen]
        key = tuple(sorted(rank for rank, _ in subset))
        if key not in known:
            tally: Counter[tuple[int, int, int, int, bool]] = Counter()
            for order in permutations(subset, 6):
                player, banker = dealt(order)
                tally[total(player), total(banker), len(player), len(banker), player[0][0] == player[1][0]] += 1
            orders = sum(tally.values())
            known[key] = tuple(sum((paid(bet, *coup) * times for coup, times in tally.items()), Fraction(0)) / orders for bet in bets)
        found.append(known[key])
    return found


def quantile(values: list[Fraction], level: Fraction) -> Fraction:
    ordered = sorted(values)
    return next(value for place, value in enumerate(ordered, start=1) if Fraction(place, len(ordered)) >= level)


def physical(spec: str) -> list[tuple[str, int]]:
    shoe = Shoe.parse(spec)
    return [(RANKS[rank], POINT_VALUES[rank]) for rank, count in enumerate(shoe.rank_counts) for _ in range(count)]


@pytest.mark.parametrize(("spec", "bets", "lefts"), [
    ("A=2,2=1,3=1,5=1,7=1,8=1,9=1,T=1", ("banker", "player", "tie", "dragon_7", "panda_8"), (6, 7, 8)),
    ("As=1,Ah=1,2c=1,4d=1,6h=1,8s=1,8c=1,Td=1,Ks=1", ("banker", "tie", "player_pair"), (6, 7)),
])
def test_every_subset_dealt(spec: str, bets: tuple[str, ...], lefts: tuple[int, ...]) -> None:
    study = run_depth(DepthSettings(shoe=Shoe.parse(spec), cards_left=lefts, bets=bets))
    cards = physical(spec)
    assert study.settings.classes == ("rank" if "player_pair" in bets else "value")
    for at in study.depths:
        subsets = subset_expectations(cards, bets, at.cards_left)
        assert at.total_weight == len(subsets) == comb(len(cards), at.cards_left)
        for index, name in enumerate(bets):
            values = [expectation[index] for expectation in subsets]
            figures = at.bets[name]
            assert figures.mean == sum(values) / len(values) == study.off_the_top[name]
            assert figures.p_positive == Fraction(sum(value > 0 for value in values), len(values))
            assert figures.expected_positive == sum(max(value, Fraction(0)) for value in values) / len(values)
            assert (figures.lowest, figures.highest) == (min(values), max(values))
            assert dict(figures.quantiles) == {level: quantile(values, level) for level in depth_module.QUANTILES}
        best = [max(max(expectation), Fraction(0)) for expectation in subsets]
        assert at.best_p_positive == Fraction(sum(value > 0 for value in best), len(best))
        assert at.best_expected_positive == sum(best) / len(best)


def test_record() -> None:
    study = run_depth(DepthSettings(shoe=Shoe.parse("A=2,2=1,3=1,5=1,7=1,8=1,9=1,T=1"), cards_left=(6,), bets=("banker", "tie")))
    record = study.to_dict()
    assert list(record) == ["format", "version", "shoe", "rules", "policy", "bets", "counted_by", "off_the_top", "depths"]
    assert record["format"] == "exact_odds.depth"
    banker = record["depths"][0]["bets"]["banker"]
    assert Fraction(banker["p_positive"]) == study.depths[0].bets["banker"].p_positive
    assert banker["p_positive_percent"] == float(Fraction(banker["p_positive"]) * 100)
    assert list(banker["quantiles"]) == ["0.01", "0.05", "0.25", "0.5", "0.75", "0.95", "0.99"]
    assert set(record["depths"][0]["best"]) == {"p_positive", "p_positive_percent", "expected_positive", "expected_positive_percent"}


def test_cards_left_text() -> None:
    assert parse_cards_left("6-8,26") == (6, 7, 8, 26)
    assert level_name(Fraction(1, 8)) == "0.125"
    with pytest.raises(InputError, match="cards_left '26-6': a range runs from the smaller number to the larger"):
        parse_cards_left("26-6")


def plain_distribution(settings: DepthSettings, left: int) -> list[tuple[tuple[Fraction, ...], int]]:
    """Every composition of ``left`` cards, by its counts walked one by one, weighed by the batch
    path and by its n-subsets: (each bet's EV, weight)."""
    from exact_odds.engine.batch import batch_expectations

    shoe = depth_module.plan(settings, left).compositions
    frees = list(shoe.walk(0, shoe.count))
    batch = batch_expectations([shoe.rank_counts(free) for free in frees], list(settings.chosen), settings.decisions)
    return [(tuple(batch.expected_value(row, bet.name) for bet in settings.chosen), shoe.weight(free)) for row, free in enumerate(frees)]


def weighted_quantiles(pairs: list[tuple[Fraction, int]], levels: tuple[Fraction, ...]) -> dict[Fraction, Fraction]:
    """Per level, the least value whose weight at or below it reaches the level of the total."""
    total, running, found = sum(weight for _, weight in pairs), 0, {}
    waiting = sorted(levels)
    for value, weight in sorted(pairs):
        running += weight
        while waiting and running >= waiting[0] * total:
            found[waiting.pop(0)] = value
    return found


def test_quantiles_refined_pass_after_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """Buckets too full to collect are refined, pass after pass, until each level is one composition:
    the same quantiles as sorting every composition (1 deck, 7 cards left: 7,400 compositions)."""
    monkeypatch.setattr(levels_module, "COLLECT", 3)
    monkeypatch.setattr(levels_module, "SUBGRID", 4)
    monkeypatch.setattr(depth_module, "PILOT", 24)
    levels = (Fraction(1, 100), Fraction(1, 3), Fraction(1, 2), Fraction(999, 1000))
    settings = DepthSettings(shoe=Shoe.decks(1), cards_left=(7,), bets=("banker", "tie"), quantiles=levels)
    study = run_depth(settings)
    pairs = plain_distribution(settings, 7)
    at = study.depths[0]
    assert at.compositions == len(pairs)
    for index, name in enumerate(("banker", "tie")):
        values = [(expectation[index], weight) for expectation, weight in pairs]
        assert dict(at.bets[name].quantiles) == weighted_quantiles(values, levels)
        assert at.bets[name].p_positive == Fraction(sum(weight for value, weight in values if value > 0), at.total_weight)
    assert study.ranges_computed > 3  # more than the first pass and one more


def test_plot() -> None:
    pytest.importorskip("matplotlib")
    from exact_odds.output.plots import depth_figure

    study = run_depth(DepthSettings(shoe=Shoe.parse("A=2,2=1,3=1,5=1,7=1,8=1,9=1,T=1"), cards_left=(6, 7), bets=("banker", "tie")))
    curves = study.curves()
    assert list(curves) == ["banker", "tie", "best"]
    assert curves["tie"] == ([6, 7], [float(at.bets["tie"].p_positive) for at in study.depths], [float(at.bets["tie"].expected_positive) for at in study.depths])
    assert depth_figure(curves).startswith(b"\x89PNG")
    headers, rows = study.table()
    assert headers[:4] == ["cards left", "bet", "P(EV > 0)", "E[max(0, EV)]"] and rows[0][:4] == [6, "banker", study.depths[0].bets["banker"].p_positive,
                                                                                                   study.depths[0].bets["banker"].expected_positive]


def test_agrees_with_subsets_drawn_at_random() -> None:
    """2 decks, 12 cards left: 40,000 random 12-card subsets of the physical cards (a seeded draw),
    each weighed by the batch path: P(EV > 0) and E[max(0, EV)] within 4 standard errors of the
    exact figures."""
    import numpy as np

    from exact_odds.engine.batch import batch_expectations

    shoe = Shoe.decks(2)
    study = run_depth(DepthSettings(shoe=shoe, cards_left=(12,), bets=("banker", "tie")))
    cards = np.repeat(np.arange(13), shoe.rank_counts)
    chosen = cards[np.argsort(np.random.default_rng(31).random((40_000, len(cards))), axis=1)[:, :12]]  # 12 of the 104 cards, each subset alike
    subsets = (chosen[:, :, None] == np.arange(13)).sum(axis=1)
    sampled = batch_expectations(subsets, list(study.settings.chosen)).floats()
    for index, name in enumerate(("banker", "tie")):
        exact = study.depths[0].bets[name]
        positive, gains = sampled[:, index] > 0, np.maximum(sampled[:, index], 0)
        assert abs(positive.mean() - float(exact.p_positive)) < 4 * positive.std() / np.sqrt(len(positive))
        assert abs(gains.mean() - float(exact.expected_positive)) < 4 * gains.std() / np.sqrt(len(gains))
