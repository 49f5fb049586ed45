"""A hostile sweep of the command line (task h38cli): each case here was a traceback, an option
accepted that did nothing or was read as something else, or a refusal that named no real option.
Each is now an answer or one line on stderr and exit 2."""

from collections.abc import Iterator
from fractions import Fraction

import pytest

from exact_odds.core.shoe import Shoe
from exact_odds.errors import InputError
from exact_odds.studies.depth import parse_cards_left
from exact_odds.studies.shoe import ShoeStudy, exact_shoe

ERROR = "baccarat-odds: error: "


def one_line_refusal(result: tuple[int, str, str]) -> str:
    """The one line of a refusal (exit 2, nothing on stdout), without its prefix."""
    code, out, err = result
    assert (code, out) == (2, ""), (code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(ERROR), err
    return lines[0][len(ERROR):]


# ---------------------------------------------------------------------------------------------
# deal: a stake mid-coup was accepted and did nothing (the odds are per unit staked)
# ---------------------------------------------------------------------------------------------

def test_a_stake_on_a_coup_in_progress_is_refused(run):
    message = one_line_refusal(run("deal", "5", "6", "--decks", "1", "--stake", "7"))
    assert message == ("--stake prices a settled coup: these cards leave the coup in progress, whose bets are priced per unit staked "
                       "(give every card of the coup, or leave --stake out)")


def test_a_coup_in_progress_without_a_stake_is_still_priced(run):
    code, out, err = run("deal", "5", "6", "--decks", "1", "--bets", "tie")
    assert (code, err) == (0, "") and "expected value now" in out


def test_a_settled_coup_takes_its_stake(run):
    code, out, err = run("deal", "5", "6", "7", "8", "K", "--decks", "1", "--bets", "player", "--stake", "7")
    assert (code, err) == (0, "")
    assert out.splitlines()[-1].split() == ["player", "7", "loses", "7"]  # player 5 7 K = 2, banker 6 8 = 4 stands on a third card of 0


# ---------------------------------------------------------------------------------------------
# depth: --cards-left read digits other than 0-9 (a superscript two was a traceback)
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["²", "٦", "6-٨", "6-8/²", "6_0"])
def test_cards_left_takes_the_digits_0_to_9_only(text):
    with pytest.raises(InputError, match=r"^cards_left .*: expected numbers, ranges or ranges with a step"):
        parse_cards_left(text)


def test_cards_left_with_a_superscript_is_one_line(run):
    message = one_line_refusal(run("depth", "--cards-left", "²", "--decks", "1"))
    assert message.startswith("--cards-left '²': expected numbers, ranges or ranges with a step")


# ---------------------------------------------------------------------------------------------
# shoe: --cut-card and --after-cut were read by Python's int (٤٠, 4_0 and +40 were 40)
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("option", ["--cut-card", "--after-cut"])
@pytest.mark.parametrize("text", ["٤", "1_0", "+4"])
def test_the_cut_card_options_take_the_digits_0_to_9_only(run, option, text):
    others = {"--cut-card": ["--after-cut", "1"], "--after-cut": ["--cut-card", "4"]}[option]
    message = one_line_refusal(run("shoe", "--shoe", "A=8,K=8,5=4", "--method", "exact", option, text, *others))
    assert message == f"{option} must be a whole number written with the digits 0-9, not {text!r}"


