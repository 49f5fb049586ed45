"""The roads (issue 33): hand-built shoes for every convention of the boards, written out cell by
cell, and a property test against the run lengths of the winners, worked out in the test."""

from itertools import groupby

import pytest
from hypothesis import given, settings, strategies as st

from exact_odds.core.cards import parse_cards
from exact_odds.core.coup import play_coup
from exact_odds.core.rules import BACCARAT_GOLD
from exact_odds.errors import InputError
from exact_odds.studies.roads import NOTE, Result, bead_plate, big_road, derived_road, placed, result_of, roads

B, P, T = Result("banker"), Result("player"), Result("tie")


def shoe(text: str) -> list[Result]:
    """Results from letters: B, P, T; ``b`` after a letter a banker pair, ``p`` a player pair, ``n`` a natural."""
    results = []
    for word in text.split():
        winner = {"B": "banker", "P": "player", "T": "tie"}[word[0]]
        results.append(Result(winner, "p" in word[1:], "b" in word[1:], "n" in word[1:]))
    return results


def cells(road_text: str) -> list[tuple[int, int, str, int]]:
    """(column, row, winner letter, ties) of each big-road cell of the shoe ``road_text``."""
    return [(cell.column, cell.row, cell.winner[0].upper(), len(cell.ties)) for cell in big_road(shoe(road_text)).cells]


def test_bead_plate_fills_columns_of_six_ties_included():
    plate = bead_plate(shoe("B P T Bb Pp T Bpn P"))
    assert [(bead.coup, bead.column, bead.row, bead.result.winner) for bead in plate.beads] == [
        (1, 0, 0, "banker"), (2, 0, 1, "player"), (3, 0, 2, "tie"), (4, 0, 3, "banker"), (5, 0, 4, "player"), (6, 0, 5, "tie"),
        (7, 1, 0, "banker"), (8, 1, 1, "player")]
    assert plate.columns == 2 and plate.to_dict()["cells"][6] == {
        "coup": 7, "column": 1, "row": 0, "winner": "banker", "player_pair": True, "banker_pair": False, "natural": True}
    assert plate.text() == " B  B.\n P  P\n T\n'B\n P.\n T\n"


def test_a_tie_first_is_kept_apart():
    road = big_road(shoe("T Tp B P"))
    assert road.leading_ties == (1, 2)
    assert cells("T Tp B P") == [(0, 0, "B", 0), (1, 0, "P", 0)]
    assert road.to_dict()["leading_ties"] == 2 and road.to_dict()["leading_tie_coups"] == [1, 2]
    assert road.text().endswith("2 ties before the first decision (coups 1, 2)\n")


def test_ties_in_a_row_are_one_cells_count():
    road = big_road(shoe("B T T T P T B"))
    assert [(cell.column, cell.row, cell.winner, cell.ties) for cell in road.cells] == [
        (0, 0, "banker", (2, 3, 4)), (1, 0, "player", (6,)), (2, 0, "banker", ())]
    assert road.leading_ties == ()
    assert road.text() == " B3  P1  B\n\n\n\n\n\n"  # every cell as wide as the widest count


def test_only_ties_make_no_cell():
    road = big_road(shoe("T T"))
    assert (road.cells, road.leading_ties, road.columns) == ((), (1, 2), 0)
    assert road.text() == "\n\n\n\n\n\n2 ties before the first decision (coups 1, 2)\n"
    assert big_road([]).text() == "\n" * 6 and bead_plate([]).to_dict() == {"rows": 6, "columns": 0, "cells": []}


def test_a_long_streak_tails_and_the_next_meets_the_tail():
    text = "B " * 8 + "P " * 7 + "B"
    assert cells(text) == [
        (0, 0, "B", 0), (0, 1, "B", 0), (0, 2, "B", 0), (0, 3, "B", 0), (0, 4, "B", 0), (0, 5, "B", 0), (1, 5, "B", 0), (2, 5, "B", 0),
        (1, 0, "P", 0), (1, 1, "P", 0), (1, 2, "P", 0), (1, 3, "P", 0), (1, 4, "P", 0), (2, 4, "P", 0), (3, 4, "P", 0),
        (2, 0, "B", 0)]
    road = big_road(shoe(text))
    assert [(cell.streak, cell.depth, cell.tail) for cell in road.cells[5:9]] == [(0, 5, False), (0, 6, True), (0, 7, True), (1, 0, False)]
    assert road.text() == (" B  P  B\n"
                           " B  P\n"
                           " B  P\n"
                           " B  P\n"
                           " B  P  P  P\n"
                           " B  B  B\n")


def test_a_cascade_of_tails_pushes_a_new_streak_right():
    """Each streak is stopped one row higher by the tail before it, until a tail runs along the top
    row and holds the top of the next streak's column: that streak starts at the first free top cell."""
    text = " ".join(["B"] * 7 + ["P"] * 6 + ["B"] * 5 + ["P"] * 4 + ["B"] * 3 + ["P"] * 2 + ["B", "P"])
    assert cells(text) == [
        (0, 0, "B", 0), (0, 1, "B", 0), (0, 2, "B", 0), (0, 3, "B", 0), (0, 4, "B", 0), (0, 5, "B", 0), (1, 5, "B", 0),
        (1, 0, "P", 0), (1, 1, "P", 0), (1, 2, "P", 0), (1, 3, "P", 0), (1, 4, "P", 0), (2, 4, "P", 0),
        (2, 0, "B", 0), (2, 1, "B", 0), (2, 2, "B", 0), (2, 3, "B", 0), (3, 3, "B", 0),
        (3, 0, "P", 0), (3, 1, "P", 0), (3, 2, "P", 0), (4, 2, "P", 0),
        (4, 0, "B", 0), (4, 1, "B", 0), (5, 1, "B", 0),
        (5, 0, "P", 0), (6, 0, "P", 0),
        (7, 0, "B", 0),
        (8, 0, "P", 0)]
    assert [cell.streak for cell in big_road(shoe(text)).cells][-3:] == [5, 6, 7]


def test_pairs_are_dots_on_their_cells():
    road = big_road(shoe("Bb Pbp Tp P Bn"))
    assert [(cell.result.banker_pair, cell.result.player_pair, cell.result.natural, cell.ties) for cell in road.cells] == [
        (True, False, False, ()), (True, True, False, (3,)), (False, False, False, ()), (False, False, True, ())]
    assert road.text() == "'B  'P1. B\n     P\n\n\n\n\n"
    assert road.cells[1].to_dict() == {"coup": 2, "column": 1, "row": 0, "winner": "player", "player_pair": True, "banker_pair": True,
                                       "natural": False, "ties": 1, "tie_coups": [3], "streak": 1, "depth": 0, "tail": False}


def test_roads_from_dealt_coups():
    coups = [play_coup(parse_cards(cards)) for cards in ("KS 5D QH 2C 5S", "9S 9D 9H 2C", "KS KD KH QC 5S 5D", "AS 7D 5H QC")]
    # K Q (0) against 5 2 (7): the player draws a 5, the banker stands on 7; 9 9 (a natural 8, a pair) against 9 2;
    # K K (a pair, 0) against K Q (0, no pair: ranks differ), both draw a 5: a tie; A 5 (6) against 7 Q (7)
    assert [result_of(coup) for coup in coups] == [
        Result("banker"), Result("player", player_pair=True, natural=True), Result("tie", player_pair=True), Result("banker")]
    both = roads(coups)
    assert both.to_dict()["note"] == NOTE and [bead.result.winner for bead in both.bead_plate.beads] == ["banker", "player", "tie", "banker"]
    assert [(cell.column, cell.row, cell.ties) for cell in both.big_road.cells] == [(0, 0, ()), (1, 0, (3,)), (2, 0, ())]
    gold = play_coup(parse_cards("4S 3D 5H 2C"))  # two-card 9 and 5: a natural 9 whatever the rules
    assert result_of(gold, BACCARAT_GOLD).natural and result_of(gold).natural


def test_refusals():
    with pytest.raises(InputError, match="^winner must be one of banker, player, tie, not 'Banker'$"):
        Result("Banker")
    with pytest.raises(InputError, match="^player_pair must be True or False, not 1$"):
        Result("tie", player_pair=1)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="^rows must be a whole number from 1 to 100, not 0$"):
        big_road([B], rows=0)
    with pytest.raises(InputError, match="^a road records settled coups, not Coup"):
        big_road([play_coup(parse_cards("9S 5D 9H"))])
    with pytest.raises(InputError, match="^coups are the shoe's coups in order"):
        bead_plate("BPT")  # type: ignore[arg-type]


def test_placement_on_a_short_board():
    # the player streak meets the banker tail below its top cell and turns along the top row, holding the next top cell
    assert placed(list("BBBPPB"), 2) == [(0, 0, 0, 0), (0, 1, 0, 1), (1, 1, 0, 2), (1, 0, 1, 0), (2, 0, 1, 1), (3, 0, 2, 0)]
    # a one-row board: every streak is a tail along the top, and the next starts past it
    assert placed(list("BBPB"), 1) == [(0, 0, 0, 0), (1, 0, 0, 1), (2, 0, 1, 0), (3, 0, 2, 0)]


results = st.lists(st.tuples(st.sampled_from(["banker", "player", "tie"]), st.integers(1, 9), st.booleans()), max_size=40).map(
    lambda runs: [Result(winner, player_pair=pair) for winner, length, pair in runs for _ in range(length)])


@settings(max_examples=300, deadline=None)
@given(results, st.integers(1, 7))
def test_big_road_against_the_runs_of_winners(shoe_results, rows):
    """Oracle: the runs of the decisions (ties left out), and the ties after each; every cell a place of its own, each
    streak down its first column as far as it may, then right along one row."""
    road = big_road(shoe_results, rows)
    numbered = list(enumerate(shoe_results, start=1))
    decisions = [(number, result) for number, result in numbered if result.winner != "tie"]
    assert [cell.coup for cell in road.cells] == [number for number, _ in decisions]
    runs = [len(list(run)) for _, run in groupby(result.winner for _, result in decisions)]
    assert [(cell.streak, cell.depth) for cell in road.cells] == [(streak, depth) for streak, length in enumerate(runs) for depth in range(length)]
    places = [(cell.column, cell.row) for cell in road.cells]
    assert len(set(places)) == len(places)
    for cell in road.cells:
        head = next(other for other in road.cells if other.streak == cell.streak and other.depth == 0)
        turn = max(other.depth for other in road.cells if other.streak == cell.streak and not other.tail)
        assert head.row == 0 and 0 <= cell.row < rows
        assert (cell.column, cell.row) == ((head.column, cell.depth) if cell.depth <= turn else (head.column + cell.depth - turn, turn))
        following = [other for other in road.cells if other.streak == cell.streak + 1 and other.depth == 0]
        if following and cell.depth == 0:
            assert following[0].column > cell.column
    ties_after = {number: [] for number, _ in decisions}
    leading, last = [], None
    for number, result in numbered:
        if result.winner != "tie":
            last = number
        else:
            (leading if last is None else ties_after[last]).append(number)
    assert road.leading_ties == tuple(leading) and [cell.ties for cell in road.cells] == [tuple(ties_after[cell.coup]) for cell in road.cells]
    plate = bead_plate(shoe_results, rows)
    assert [(bead.column, bead.row) for bead in plate.beads] == [divmod(index, rows) for index in range(len(shoe_results))]


def test_derived_roads_of_a_hand_built_shoe():
    """Streaks 2, 1, 3, 2, 2 (B B | P | B B B | P P | B B), a tie inside that changes nothing; worked out by hand:
    big eye boy (one back): at the start of streak 2, streaks 1 and 0 are 1 and 2 long: blue; at depth 1 of streak 2,
    streak 1 is 1 long: blue; depth 2: red; start of 3 (3 vs 1): blue; 3 depth 1 (streak 2 is 3): red; start of 4
    (2 vs 3): blue; 4 depth 1 (streak 3 is 2): red. Small road (two back): 2/1 red (streak 0 is 2), 2/2 blue,
    start of 3 (3 vs 2) blue, 3/1 blue (streak 1 is 1), start of 4 (2 vs 1) blue, 4/1 red (streak 2 is 3).
    Cockroach pig (three back): 3/1 red (streak 0 is 2), start of 4 (2 vs 2) red, 4/1 blue (streak 1 is 1)."""
    board = roads(shoe("B B P B T B B P P B B"))
    derived = {road.name: [(cell.coup, cell.colour, cell.column, cell.row) for cell in road.cells] for road in board.derived}
    assert derived == {
        "big_eye_boy": [(4, "blue", 0, 0), (6, "blue", 0, 1), (7, "red", 1, 0), (8, "blue", 2, 0), (9, "red", 3, 0), (10, "blue", 4, 0),
                        (11, "red", 5, 0)],
        "small_road": [(6, "red", 0, 0), (7, "blue", 1, 0), (8, "blue", 1, 1), (9, "blue", 1, 2), (10, "blue", 1, 3), (11, "red", 2, 0)],
        "cockroach_pig": [(9, "red", 0, 0), (10, "red", 0, 1), (11, "blue", 1, 0)],
    }
    assert board.derived[1].text() == "R B R\n  B\n  B\n  B\n\n\n"
    assert board.to_dict()["cockroach_pig"] == {"name": "cockroach_pig", "rows": 6, "columns": 2, "cells": [
        {"coup": 9, "column": 0, "row": 0, "colour": "red", "streak": 0, "depth": 0},
        {"coup": 10, "column": 0, "row": 1, "colour": "red", "streak": 0, "depth": 1},
        {"coup": 11, "column": 1, "row": 0, "colour": "blue", "streak": 1, "depth": 0}]}


def test_derived_roads_read_the_streaks_not_the_tail():
    """Eight bankers tail along the bottom row; the big eye boy reads the streak's length, 8, not its column."""
    board = roads(shoe("B " * 8 + "P P B"))
    assert [(cell.coup, cell.colour) for cell in board.derived[0].cells] == [(10, "red"), (11, "blue")]  # 8 != 1; then 2 vs 8
    assert [road.cells for road in board.derived[1:]] == [(), ()]
    with pytest.raises(InputError, match="^a derived road is one of big_eye_boy, small_road, cockroach_pig, not 'big_road'$"):
        derived_road(board.big_road, "big_road")
