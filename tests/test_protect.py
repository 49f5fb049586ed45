"""The protection study: what a known card or a sort is worth, against every ordering of small shoes.

The oracle deals each ordering of the physical cards (its first six cards, as a coup), settles the
bets on the dealt hands, groups the orderings by what the player sees and takes the best bet or
none in each group: no engine, no table of sequences.
"""

from collections import defaultdict
from fractions import Fraction
from functools import lru_cache
from itertools import permutations

import pytest
from oracles import coup_features, deal_physically, physical_cards, settle

from exact_odds.bets.bets import catalog, load_bets
from exact_odds.core.cards import Card, parse_card
from exact_odds.core.numbers import fixed
from exact_odds.core.policy import resolve
from exact_odds.core.rules import PUNTO_BANCO
from exact_odds.core.shoe import Shoe
from exact_odds.engine.analysis import PlainEngine, best_of, by_feature
from exact_odds.errors import InputError
from exact_odds.studies.protect import protect

UNSUITED = "A=2,5=2,9=1,K=2,6=1"
SUITED = "9h=2,KS=2,5d=2,AC=1,4h=1"
EXTRA = load_bets("""
[[bet]]
name = "three_card_banker"
pays = [{ when = "winner == banker and banker_cards == 3", pays = "3" }]
[[bet]]
name = "king_for_player"
pays = [{ when = "winner == player and player_card1_rank == K", pays = "4" }]
[[bet]]
name = "red_player"
pays = [{ when = "winner == player and player_card1_color == red", pays = "2" }]
""", "test")
MAIN = [catalog()[name] for name in ("banker", "player", "tie")]
BETS = {  # value-level, first-card ranks (tabulated); a coup bet on a rank, bets on colours and suits (through the engine)
    UNSUITED: MAIN + [catalog()["player_pair"], EXTRA["three_card_banker"], EXTRA["king_for_player"]],
    SUITED: MAIN + [catalog()["player_pair"], EXTRA["red_player"], catalog()["perfect_pair"]],
}


UNIT = 20
"""Every bet's net pay is a whole number of twentieths (banker: 19/20): the oracle adds integers."""


@lru_cache(maxsize=2)
def dealt(shoe_text: str) -> dict[tuple[Card, ...], tuple[int, list[int]]]:
    """Every ordering of the shoe's physical cards, by its first six cards: how many orderings show
    them, and each bet's net summed over the coups they deal, in twentieths."""
    suited = "h=" in shoe_text.lower()
    counts = {parse_card(card) if suited else Card(card, "S"): int(count) for card, count in (part.split("=") for part in shoe_text.split(","))}
    found: dict = {}
    for sequence in permutations(physical_cards(counts), 6):
        cards = tuple(card for _, card in sequence)
        if cards not in found:
            ((_, player, banker),) = deal_physically(list(cards))
            features = coup_features(player, banker)
            found[cards] = [0, [settle(bet, features) for bet in BETS[shoe_text]]]
        found[cards][0] += 1
    return {cards: (count, [int(net * UNIT) * count for net in nets]) for cards, (count, nets) in found.items()}


def best(sums: list[int]) -> int | None:
    """The first bet of the highest sum above zero, or None."""
    top = max(sums)
    return sums.index(top) if top > 0 else None


def brute_force(shoe_text: str, information, bets: int | None = None) -> tuple[Fraction, Fraction, dict]:
    """The gain per coup of betting the best (of the first ``bets``) or nothing on each piece of
    information, the share of coups in which that differs from the decision without it, and by
    information its probability and each bet's expectation."""
    bets = bets or len(BETS[shoe_text])
    groups: dict = defaultdict(lambda: [0, [0] * bets])
    for cards, (count, sums) in dealt(shoe_text).items():
        group = groups[information(cards)]
        group[0] += count
        group[1] = [total + net for total, net in zip(group[1], sums[:bets])]
    orderings = sum(count for count, _ in groups.values())
    uninformed = best([sum(group[1][index] for group in groups.values()) for index in range(bets)])
    gain = Fraction(sum(max([0, *sums]) for _, sums in groups.values()), orderings * UNIT)
    changed = Fraction(sum(count for count, sums in groups.values() if best(sums) != uninformed), orderings)
    table = {key: (Fraction(count, orderings), tuple(Fraction(total, count * UNIT) for total in sums)) for key, (count, sums) in groups.items()}
    return gain, changed, table


def study_table(result, name) -> dict:
    return {name(row.information): (row.probability, row.expectations) for row in result.table}


@pytest.mark.parametrize("shoe_text", [UNSUITED, SUITED])
def test_a_known_card_equals_brute_force(shoe_text):
    """Knowing the whole card is worth what the study finds by the class its bets read (the rank;
    the card beside a bet on suits), at every position of the sequence, dealt or not."""
    detail = "rank" if shoe_text == UNSUITED else "card"
    for position in range(1, 7):
        result = protect(Shoe.parse(shoe_text), BETS[shoe_text], known=position)
        gain, changed, _ = brute_force(shoe_text, lambda cards: cards[position - 1])
        assert (result.gain, result.changed, result.information["detail"]) == (gain, changed, detail)
        _, _, by_class = brute_force(shoe_text, lambda cards: (cards[position - 1].rank, cards[position - 1].suit if detail == "card" else None))
        assert study_table(result, lambda text: (text[0], text[1:] or None)) == by_class


SORTS = [  # shoe, sorted cards, groups, the group of a card as the oracle reads it
    (UNSUITED, 4, "6,7,8,9", lambda card: card.value not in (6, 7, 8, 9)),
    (UNSUITED, 6, "K,5", lambda card: card.rank not in ("K", "5")),
    (UNSUITED, 3, "A;5,9;2,3,4,6,7,8,T,J,Q,K", lambda card: 0 if card.rank == "A" else 1 if card.rank in ("5", "9") else 2),
    (SUITED, 5, "0,1,2,3;4,5,6,7,8,9", lambda card: card.value > 3),
    (SUITED, 2, "H,D", lambda card: card.suit not in "HD"),
    (SUITED, 3, "S;H;D,C", lambda card: "SHD".index(card.suit) if card.suit in "SH" else 2),
]


@pytest.mark.parametrize("shoe_text, cards, groups, group", SORTS, ids=[f"{cards}-{groups}" for _, cards, groups, _ in SORTS])
def test_a_sort_equals_brute_force(shoe_text, cards, groups, group):
    """Two- and three-way sorts of values, ranks and suits, the engine's enumerator for the bets it counts."""
    gain, changed, table = brute_force(shoe_text, lambda dealt_cards: "".join("ABC"[group(card)] for card in dealt_cards[:cards]))
    for engine in (None, PlainEngine()) if shoe_text == SUITED else (None,):
        result = protect(Shoe.parse(shoe_text), BETS[shoe_text], sorted=cards, groups=groups, engine=engine)
        assert (result.gain, result.changed) == (gain, changed)
        assert study_table(result, lambda text: text) == table


def test_every_split_equals_brute_force():
    """best_sort: every two-way split of the values and of the ranks, for 1 to 6 cards, the gain and
    the share of coups changed of each, and the best split's decision table."""
    shoe_text = UNSUITED
    result = protect(Shoe.parse(shoe_text), BETS[shoe_text][:5], best_sort=True)  # (the sixth bet is not tabulated)
    present = ["A", "5", "6", "9", "K"]
    oracle: dict = {}
    for (kind, cards), splits in result.splits.items():
        assert len(splits) == (511 if kind == "values" else 4095)
        for split in splits:
            first = {symbol for symbol in split.groups.members[0]}
            seen = frozenset(rank for rank in present if (str(Card(rank).value) if kind == "values" else rank) in first)
            if (seen, cards) not in oracle:
                found = brute_force(shoe_text, lambda dealt_cards: tuple(card.rank in seen for card in dealt_cards[:cards]), 5)
                oracle[seen, cards] = found[:2]
            assert (split.gain, split.changed) == oracle[seen, cards]
        assert result.best[kind, cards].gain == splits[0].gain
        assert [split.gain for split in splits] == sorted((split.gain for split in splits), reverse=True)


def test_the_known_card_figures_come_out_of_by_with_the_best_of_rule():
    """Jacobson's known-card figures (records of `verify`) through the study and through
    --by shoe_cardK_value with its best-of line: the same fractions, at every position."""
    bets = [catalog()["banker"], catalog()["player"]]
    for position in range(1, 7):
        rows = by_feature(Shoe.decks(8), bets, resolve(PUNTO_BANCO), f"shoe_card{position}_value")
        assert best_of(rows).expected_value == protect(8, bets, known=position).gain


HOSTILE = [
    (dict(known=7), "known must be a shoe position from 1 to 6"),
    (dict(known=0), "known must be a shoe position from 1 to 6"),
    (dict(known=True), "known must be a shoe position"),
    (dict(sorted=7, groups="6,7,8,9"), "sorted must be a number of cards from 1 to 6"),
    (dict(sorted=0, groups="6,7,8,9"), "sorted must be a number of cards from 1 to 6"),
    (dict(sorted=2, groups="6,7;8,9"), "the groups leave out 0, 1, 2, 3, 4, 5"),
    (dict(sorted=2, groups="6,7,8;8,9,0,1,2,3,4,5"), "8 is in more than one place"),
    (dict(sorted=2, groups="6,7,X"), "'X' is not one of the values"),
    (dict(sorted=2, groups="6,7;;0,1,2,3,4,5,8,9"), "group 2 is empty"),
    (dict(sorted=2, groups="0,1,2,3,4,5,6,7,8,9"), "the other group is empty"),
    (dict(sorted=2, groups="A,1"), "'1' is not one of the ranks"),
    (dict(sorted=2), "sorted needs groups"),
    (dict(groups="6,7,8,9"), "groups needs sorted"),
    (dict(known=2, sorted=2, groups="6,7,8,9"), "give one"),
    (dict(best_sort=True, sorted=2, groups="6,7,8,9"), "best_sort searches the groups itself"),
    (dict(), "give the information to value"),
    (dict(best_sort=True, bets="perfect_pair"), "perfect_pair reads suits"),
    (dict(known=1, bets="super_tie"), "super_tie counts cards by colour or suit over the whole coup"),
]


@pytest.mark.parametrize("options, message", HOSTILE, ids=[message[:30] for _, message in HOSTILE])
def test_hostile_requests_are_refused_in_one_line(options, message):
    with pytest.raises(InputError, match=message) as refused:
        protect(8, **options)
    assert "\n" not in str(refused.value) and refused.value.parameter in ("known", "sorted", "groups", "best_sort", "bets")


def test_a_suit_group_on_a_shoe_without_suits_is_refused():
    with pytest.raises(InputError, match="the shoe has no suits") as refused:
        protect("A=32,2=32,3=32,4=32,5=32,6=32,7=32,8=32,9=32,T=32,J=32,Q=32,K=32", sorted=2, groups="H,D")
    assert refused.value.parameter == "groups"


def test_verify_fails_a_best_sort_record_whose_best_split_is_another(tmp_path):
    """A best-sort record matches only where its groups are the best split, as well as its value."""
    from exact_odds.studies.figures import load_figures
    from exact_odds.studies.verify import Calculator, check

    best = protect(1, "banker, player", best_sort=True, sorted=1).splits["values", 1][0]
    value = fixed(best.gain * 100, 3) + "%"
    records = "".join(f'[[figure]]\nid = "{name}"\nmeasure = "information_gain"\nbet = "banker, player"\nsorted = 1\nbest_sort = true\n'
                      f'groups = "{groups}"\ndecks = 1\nvalue = "{value}"\nsource = "test"\nurl = "none"\n\n'
                      for name, groups in (("right", ",".join(best.groups.members[1])), ("wrong", "5,6,7,8,9")))
    calculator = Calculator()
    right, wrong = (check(figure, calculator) for figure in load_figures(records, "test"))
    assert (right.verdict, right.exact, wrong.verdict, wrong.exact) == ("ok", best.gain, "mismatch", best.gain)
    assert wrong.reason == f"the best split is {best.groups}, not 5,6,7,8,9; 0,1,2,3,4"
