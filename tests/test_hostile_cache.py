"""Bets on the first cards with the table cache on, off, and read back (issue 29, class 4).

A bets file whose rows compare first cards at different levels (``player_card2_value !=
banker_card1_value``, then ``banker_card2_rank == banker_card1_rank``) has no pattern form, and
keeping that finding on disk crashed (``cannot reshape array of size 0``). Every first-card bet
shape the hostile fuzz makes (symmetric with and without a pattern form, against literals, suited
and not, the catalog's pairs beside them, counted by hands, effects of removal on a suited shoe)
is run as three processes that differ only in the cache: off, kept (written), and read back. The
three print the same bytes, and the library's expectations equal brute force over every ordering
of the first four cards.
"""

import json
import subprocess
import sys

import pytest
from oracles import brute_force_expectations

from exact_odds import analyze
from exact_odds.bets.bets import catalog, load_bets
from exact_odds.core.shoe import Shoe
from exact_odds.engine.patterns import pattern_form
from exact_odds.engine.tables import tracked_key

SMALL = "AS=2,AH=1,5D=2,9C=1,KS=2,KH=1,TD=1"
"""Ten cards of four ranks, suited: 5,040 ordered draws of the first four."""
DECK = ",".join(f"{rank}{suit}=1" for rank in "A23456789TJQK" for suit in "SHDC")
"""One deck, given card by card (a suited shoe)."""

BETS = {
    # the example: value against rank, no pattern form (the patterns kept are none)
    "mixed_levels": [("player_card2_value != banker_card1_value", "2"), ("banker_card2_rank == banker_card1_rank", "0.54")],
    # symmetric, a pattern form of ranks
    "three_alike": [("player_card1_rank == player_card2_rank and player_card2_rank == banker_card1_rank", "25"),
                    ("player_card1_rank != player_card2_rank or player_card2_rank != banker_card1_rank", "lose")],
    # suited and symmetric, a pattern form of cards
    "suited_pair": [("player_card1_suit == player_card2_suit and player_card1_rank == player_card2_rank", "25"),
                    ("banker_card1_suit == banker_card2_suit and banker_card1_rank == banker_card2_rank", "push")],
    # suited and symmetric, no pattern form (suit against colour across slots)
    "suit_and_colour": [("player_card2_suit != player_card1_suit or player_card1_color == banker_card1_color", "2"),
                        ("banker_card2_suit == player_card1_suit", "lose 1/2")],
    # against literals: no pattern form is looked for
    "literal_king": [("player_card1_rank == K or banker_card2_suit == H", "11")],
    "literal_value": [("player_card1_value == 9 and banker_card1_value != 0", "3")],
}
RANK_BETS = ("mixed_levels", "three_alike", "literal_value")


def bets_file(names) -> str:
    return "".join(f'[[bet]]\nname = "{name}"\npays = [\n' + "".join(f'  {{ when = "{when}", pays = "{pays}" }},\n' for when, pays in BETS[name]) + "]\n"
                   for name in names)


def test_the_shapes_cover_pattern_forms_with_and_without_patterns():
    """The shapes above include bets whose pattern form applies, bets checked and found to have
    none (the case that crashed: no patterns kept), and bets against literals (none looked for)."""
    bets = load_bets(bets_file(BETS), "shapes")
    forms = {name: pattern_form(tracked_key(bet.card_slots), (bet,)) for name, bet in bets.items()}
    assert {name for name, form in forms.items() if form is not None} == {"three_alike", "suited_pair"}
    assert all(not bet.needs_coup for bet in bets.values())


CASES = {
    "rank bets, one deck": ["--decks", "1", "--bets", ",".join(RANK_BETS)],
    "the issue's example alone": ["--decks", "1", "--bets", "mixed_levels"],
    "every shape, suited deck": ["--shoe", DECK, "--bets", ",".join(BETS)],
    "every shape with the pairs, small suited shoe": ["--shoe", SMALL, "--bets", ",".join([*BETS, "perfect_pair", "player_pair", "either_pair"])],
    "by hands": ["--shoe", SMALL, "--bets", "three_alike,suited_pair,player_pair", "--unordered", "hands"],
    "eor, suited deck": ["eor", "--shoe", DECK, "--bets", "suit_and_colour,suited_pair,perfect_pair"],
    "eor, rank bets": ["eor", "--decks", "1", "--bets", "mixed_levels,three_alike"],
}

RUN_ALL = """
import contextlib, io, json, sys
from exact_odds.cli.commands import main
results = []
for argv in json.load(sys.stdin):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(argv)
        except SystemExit as done:
            code = done.code
    results.append([code, out.getvalue(), err.getvalue()])
json.dump(results, sys.stdout)
"""


def run_every_case(cache: str, path) -> list[list]:
    """Every case in one new process with ``EXACT_ODDS_CACHE=cache``: (exit, stdout, stderr) each."""
    argv = [[*arguments[:1], "--bets-file", str(path), *arguments[1:], "--format", "json"] if arguments[0] == "eor"
            else ["--bets-file", str(path), *arguments, "--format", "json"] for arguments in CASES.values()]
    done = subprocess.run([sys.executable, "-c", RUN_ALL], input=json.dumps(argv), capture_output=True, text=True, timeout=300,
                          env={**__import__("os").environ, "EXACT_ODDS_CACHE": cache})
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_two_runs_that_differ_only_in_the_cache_print_the_same_bytes(tmp_path):
    path = tmp_path / "first-cards.toml"
    path.write_text(bets_file(BETS), encoding="utf-8")
    off = run_every_case("off", path)
    written = run_every_case(str(tmp_path / "cache"), path)
    assert list((tmp_path / "cache").glob("patterns-*.table")), "no pattern table was kept"
    read_back = run_every_case(str(tmp_path / "cache"), path)
    for name, plain, kept, again in zip(CASES, off, written, read_back):
        assert plain[0] == 0 and plain[2] == "", (name, plain[2][-1000:])
        assert kept == plain, name
        assert again == plain, name
        json.loads(plain[1])


RANKED = "A=3,5=2,9=1,K=3,T=1"
"""The small shoe by rank (the rank bets read no suit): the same ten cards."""


@pytest.mark.parametrize("cache", ["off", "kept"])
def test_first_card_bets_equal_brute_force_with_the_cache_on_and_off(tmp_path, monkeypatch, cache):
    """Every shape, on the small suited shoe and by rank, built and then read back, against every
    ordering of the first four physical cards (the oracle deals them itself)."""
    from test_table_store import forget

    monkeypatch.setenv("EXACT_ODDS_CACHE", "off" if cache == "off" else str(tmp_path))
    bets = [*load_bets(bets_file(BETS), "shapes").values(), catalog()["perfect_pair"]]
    suited, ranked = Shoe.parse(SMALL), Shoe.parse(RANKED)
    rank_bets = [bet for bet in bets if bet.name in RANK_BETS]
    expected = {SMALL: brute_force_expectations(bets, physical(suited)), RANKED: brute_force_expectations(rank_bets, physical(ranked))}
    for _ in range(2):  # built, then read back from the folder (or built again)
        for shoe, chosen in ((suited, bets), (ranked, rank_bets)):
            forget()
            found = {result.bet.name: result.expected_value for result in analyze(shoe, chosen).bets}
            assert found == expected[shoe.description.removeprefix("custom shoe ")]
    assert bool(list(tmp_path.glob("patterns-*.table"))) == (cache == "kept")
    forget()


def physical(shoe: Shoe) -> dict:
    """The shoe's cards and their counts (a shoe by rank: a rank's copies in spades)."""
    from exact_odds.core.cards import RANKS, Card

    if shoe.card_counts is None:
        return {Card(rank, "S"): count for rank, count in zip(RANKS, shoe.rank_counts) if count}
    return {Card(RANKS[index // 4], "SHDC"[index % 4]): count for index, count in enumerate(shoe.card_counts) if count}
