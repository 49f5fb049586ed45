"""Issue 34: a PAR sheet's exact figures: 1 in N, true odds, the fair pay (a bets file paying it has
no house edge), the element of risk, and the GLI-11 check against a bet built to fail it."""

from fractions import Fraction

import pytest

from exact_odds.bets.bets import load_bets
from exact_odds.core.shoe import Shoe
from exact_odds import analyze
from exact_odds.errors import InputError
from exact_odds.studies.par import GLI_GAMES, bet_figures, par_sheet

TOTAL_8 = 416 * 415 * 414 * 413 * 412 * 411
"""Ordered 6-card sequences of 8 decks."""
BETS = load_bets('''
[[bet]]
name = "six_deuces_of_spades"
pays = [{ when = "count(card_rank == 2 and card_suit == S) == 6", pays = "1000", event = "six deuces of spades" },
        { when = "winner == tie", pays = "8", event = "tie" },
        { when = "winner == banker", pays = "push", event = "banker wins" }]

[[bet]]
name = "never_pays"
pays = [{ when = "player_total == 10", pays = "50", event = "a total of ten" }]
''', "test")


def test_the_gli_check_fails_an_award_rarer_than_once_in_100_million_games():
    figures = bet_figures(analyze(8, BETS["six_deuces_of_spades"]).bets[0])
    deuces, tie, banker, rest = figures.lines
    assert deuces.combinations == 8 * 7 * 6 * 5 * 4 * 3  # the 8 deuces of spades of 8 decks, in every order
    assert deuces.one_in == Fraction(TOTAL_8, 8 * 7 * 6 * 5 * 4 * 3) > GLI_GAMES and deuces.display_odds
    assert tie.award and not tie.display_odds
    assert not banker.award and not banker.display_odds and not rest.award
    assert figures.push_frequency == banker.probability
    assert figures.house_edge_resolved == figures.house_edge / (1 - banker.probability)


def test_an_award_that_never_comes_must_say_so():
    line = bet_figures(analyze(8, BETS["never_pays"]).bets[0]).lines[0]
    assert line.combinations == 0 and line.one_in is None and line.true_odds is None and line.fair_pay is None and line.display_odds


@pytest.mark.parametrize("name", ["dragon_7", "tie", "lucky_6", "perfect_pair"])
def test_a_bets_file_paying_the_fair_pay_has_no_house_edge(name):
    result = analyze(8, name)[name]
    figures = bet_figures(result)
    for number, line in enumerate(figures.lines[: len(result.bet.rows)]):
        if line.fair_pay is None or line.net <= 0:
            continue
        rows = ", ".join(f'{{ when = "{row.condition.text}", pays = "{line.fair_pay if index == number else row.pays.text}" }}'
                         for index, row in enumerate(result.bet.rows))
        fair = load_bets(f'[[bet]]\nname = "fair"\npays = [{rows}]\n', "fair")["fair"]
        assert analyze(8, fair).bets[0].house_edge == 0, (name, number)


def test_true_odds_one_in_n_and_the_element_of_risk_of_the_banker():
    analysis = analyze(8, "banker")
    figures = bet_figures(analysis["banker"])
    banker = analysis.outcomes["banker"]
    assert figures.lines[0].true_odds == Fraction(analysis.total - banker, banker)
    assert figures.lines[0].one_in == Fraction(analysis.total, banker)
    assert figures.element_of_risk == figures.house_edge == Fraction(114753351728, 10847218479825)
    record = figures.to_dict()
    assert record["lines"][0]["one_in"] == str(Fraction(analysis.total, banker)) and record["element_of_risk"] == "114753351728/10847218479825"


def test_a_par_sheet_carries_every_line_and_deck_count():
    sheet = par_sheet(Shoe.decks(8), "player_pair, tie", decks=(1, "inf"), title="=cmd", submitter="+me")
    pair, tie = sheet.bets
    assert [line.row for line in pair.lines] == [1, None] and pair.total == 416 * 415  # settled on the first two cards
    assert [deck.decks for deck in tie.decks] == ["1", "inf"] and tie.decks[0].total == 52 * 51 * 50 * 49 * 48 * 47
    assert (sheet.title, sheet.submitter, sheet.inputs[-1].role) == ("=cmd", "+me", "rules as analysed")
    assert sheet.version == f"exact_odds {__import__('exact_odds').__version__}"
    with pytest.raises(InputError, match="decks is empty"):
        par_sheet(8, "tie", decks=())
