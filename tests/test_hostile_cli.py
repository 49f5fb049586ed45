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


# ---------------------------------------------------------------------------------------------
# shoe: a large --after-cut made the exact method loop once per coup asked for (it never ended)
# ---------------------------------------------------------------------------------------------

def test_a_large_after_cut_deals_to_the_end_of_the_shoe_at_once():
    """Every coup after the cut card's is dealt while six cards are left: after_cut 10^11 is the
    shoe dealt to its end, which the brute force below counts over every ordering (no burn)."""
    shoe = Shoe.parse("A=3,9=3,K=6")
    study = ShoeStudy(shoe=shoe, cut_card=2, after_cut=10**11, burn=False, bets=("banker",))
    odds = exact_shoe(study)  # it never ended before
    assert odds.expected_coups.exact == expected_coups_to_the_end(dict(enumerate(shoe.value_counts)))


def coups_of(values: tuple[int, ...]) -> int:
    """Coups dealt from one ordering under Punto Banco, no burn, the cut card before the first
    coup's cards (so every coup is after it): each coup while six cards are left."""
    position, coups = 0, 0
    while len(values) - position >= 6:
        player, banker = [values[position], values[position + 2]], [values[position + 1], values[position + 3]]
        position += 4
        coups += 1
        if total(player) >= 8 or total(banker) >= 8:
            continue
        third = None
        if total(player) <= 5:
            third = values[position]
            player.append(third)
            position += 1
        if third is None:
            if total(banker) <= 5:
                position += 1
        elif banker_draws(total(banker), third):
            position += 1
    return coups


def total(hand: list[int]) -> int:
    return sum(hand) % 10


def banker_draws(banker: int, third: int) -> bool:
    """Punto Banco's tableau: the banker's two-card total against the player's third card."""
    return banker <= 2 or (banker == 3 and third != 8) or (banker == 4 and 2 <= third <= 7) or (banker == 5 and 4 <= third <= 7) \
        or (banker == 6 and third in (6, 7))


def orderings(counts: dict[int, int]) -> Iterator[tuple[int, ...]]:
    """Every distinct ordering of a multiset of values, each once."""
    if not any(counts.values()):
        yield ()
        return
    for value in [value for value, count in counts.items() if count]:
        for rest in orderings({**counts, value: counts[value] - 1}):
            yield (value, *rest)


def expected_coups_to_the_end(counts: dict[int, int]) -> Fraction:
    coups = [coups_of(order) for order in orderings(counts)]
    return Fraction(sum(coups), len(coups))


# ---------------------------------------------------------------------------------------------
# refusals that named no real option
# ---------------------------------------------------------------------------------------------

def test_a_whole_number_option_is_named_by_its_flag(run):
    """--session's value is kept as session_coups: the refusal named --session_coups."""
    message = one_line_refusal(run("size", "--bankroll", "100", "--rebate", "1", "--session", "0"))
    assert message == "--session must be at least 1, not '0'"


def test_an_empty_rebate_is_named_by_its_flag(run):
    message = one_line_refusal(run("size", "--bankroll", "100", "--rebate", ""))
    assert message == "--rebate must be an exact number such as 5, 2.5 or 2.5%, not ''"


# ---------------------------------------------------------------------------------------------
# empty values taken as the default
# ---------------------------------------------------------------------------------------------

def test_an_empty_banque_preset_is_refused(run):
    """--preset '' printed the default preset's solution."""
    message = one_line_refusal(run("banque", "--preset", "", "--decks", "1"))
    assert message == "--preset '': no banque preset is named so; the presets: banque, banque_ethier_lee"


@pytest.mark.parametrize("option, what", [("--host", "an address such as 0.0.0.0"), ("--db", "a file")])
@pytest.mark.parametrize("value", ["", " "])
def test_an_empty_server_address_or_file_is_refused(run, tmp_path, option, what, value):
    """--host '' listened on every address (printing http://:8000/), --db '' used the default file."""
    others = ["--db", str(tmp_path / "s.sqlite")] if option == "--host" else []
    message = one_line_refusal(run("serve", option, value, *others, "--port", "8731"))
    assert message == f"{option} is empty: give {what}, or leave it out"


def test_a_bet_of_ones_own_may_not_be_named_all(run, tmp_path):
    """--bets all chose every bet, never the bet named all."""
    path = tmp_path / "bets.toml"
    path.write_text('[[bet]]\nname = "all"\npays = [{ when = "winner == tie", pays = "8" }]\n', encoding="utf-8")
    message = one_line_refusal(run("--decks", "1", "--bets-file", str(path), "--bets", "all"))
    assert message == f"{path}: a bet may not be named 'all', the word that chooses every bet: give it another name"


# ---------------------------------------------------------------------------------------------
# simulate: --plot without a count drew every coup at true count 0; --count '' counted nothing
# ---------------------------------------------------------------------------------------------

def test_a_plot_by_true_count_needs_a_count(run, tmp_path):
    message = one_line_refusal(run("simulate", "--shoes", "2", "--plot", str(tmp_path / "ev.png")))
    assert message == "--plot draws each coup's exact EV against its true count: give --count TAGS to count the cards"
    assert not (tmp_path / "ev.png").exists()


@pytest.mark.parametrize("tags", ["", "  "])
def test_an_empty_count_is_refused(run, tags):
    message = one_line_refusal(run("simulate", "--shoes", "2", "--count", tags))
    assert message == "--count is empty: give count tags (13 integers A..K, or RANK=TAG entries), or leave it out"


# ---------------------------------------------------------------------------------------------
# bets: --policy was accepted, unchecked, and changed nothing (a policy decides draws, not the listing)
# ---------------------------------------------------------------------------------------------

def test_the_bet_listing_takes_no_policy(run):
    assert one_line_refusal(run("bets", "--policy", "player_on_5=bogus")) == "No such option '--policy'."
    assert one_line_refusal(run("--policy", "player_on_5=stand", "bets")) == "--policy means nothing to `bets`"


# ---------------------------------------------------------------------------------------------
# serve: a token no header can carry was accepted (the page, which sends it as a Bearer header, was locked out)
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("token", ["sésame", "two words", " padded", "tab\there"])
def test_a_token_no_header_can_carry_is_refused(run, token):
    pytest.importorskip("fastapi")
    assert one_line_refusal(run("serve", "--token", token)) == (
        "--token holds a space or a character other than ASCII: a token travels in an HTTP header, so give letters, digits and punctuation")
