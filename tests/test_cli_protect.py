"""`baccarat-odds protect`: Jacobson's seven published figures at their printed precision, every figure
against every ordering of a small shoe, the heat map, and hostile inputs refused in one line.

The oracle deals every ordering of the physical cards of a small shoe (its first six cards, as a
coup: tests/oracles.py deals them), settles banker (19/20), player (1) and tie (8; banker and player
push) by hand, groups the orderings by what the player sees and bets the best or nothing in each:
no engine, no table of sequences, nothing of the code under test.
"""

import json
import tomllib
from collections import defaultdict
from fractions import Fraction
from functools import lru_cache
from itertools import permutations
from math import floor
from pathlib import Path

import pytest
from oracles import deal_physically, total

from exact_odds.core.cards import Card

PUBLISHED = Path(__file__).resolve().parent.parent / "exact_odds" / "data" / "published.toml"
JACOBSON = [figure for figure in tomllib.loads(PUBLISHED.read_text())["figure"]
            if figure["measure"] == "information_gain" and figure["author"] == "Eliot Jacobson"]
SHOE = "A=2,5=2,9=1,K=2,6=1"
"""Eight cards, five ranks (values 1, 5, 9, 0, 6): 20,160 orderings of six."""
BANKER, PLAYER, TIE = Fraction(19, 20), Fraction(1), Fraction(8)


def rounded(value: Fraction, places: int) -> str:
    """``value`` to ``places`` decimals, half up (the figures are positive)."""
    digits = str(floor(value * 10**places + Fraction(1, 2))).rjust(places + 1, "0")
    return f"{digits[:-places]}.{digits[-places:]}"


def record(run, *args: str) -> dict:
    code, out, err = run("protect", *args, "--format", "json")
    assert (code, err) == (0, ""), err
    return json.loads(out)


def test_the_seven_published_figures_are_nine_records():
    """Cards 1 and 3 (and 2 and 4) are one printed figure each, and a record each."""
    assert (len(JACOBSON), len({figure["printed_as"] for figure in JACOBSON})) == (9, 7)


@pytest.mark.parametrize("figure", JACOBSON, ids=[figure["id"] for figure in JACOBSON])
def test_a_published_figure_comes_out_of_protect(run, figure):
    """Each of Jacobson's figures (the verify record's value, not the code's) at its printed precision."""
    args = ["--decks", str(figure["decks"]), "--bets", figure["bet"].replace(" ", "")]
    if "known" in figure:
        args += ["--known", str(figure["known"])]
    elif figure.get("best_sort"):
        args += ["--best-sort", "--sorted", str(figure["sorted"]), "--over", "values"]
    else:
        args += ["--sorted", str(figure["sorted"]), "--groups", figure["groups"]]
    found = record(run, *args)
    if figure.get("best_sort"):
        (search,) = found["searches"]
        gain = Fraction(search["best"]["gain"])
        assert sorted(figure["groups"].split(",")) in search["best"]["information"]["groups"].values()
        assert gain == max(Fraction(split["gain"]) for split in search["every_split"])
    else:
        gain = Fraction(found["gain"])
    printed = figure["value"].rstrip("%")
    assert rounded(gain * 100, len(printed.split(".")[1])) == printed


# --- the oracle ------------------------------------------------------------------------------------


def nets(player, banker) -> tuple[Fraction, Fraction, Fraction]:
    """Banker, player and tie settled on the dealt hands."""
    player_total, banker_total = total(player), total(banker)
    if player_total > banker_total:
        return -1, PLAYER, -1
    if banker_total > player_total:
        return BANKER, -1, -1
    return 0, 0, TIE


@lru_cache(maxsize=1)
def deals() -> tuple[tuple[tuple[Card, ...], int, tuple[Fraction, ...]], ...]:
    """Every ordering of the shoe's physical cards, by its first six cards: how many orderings show
    them, and the bets' nets summed over those orderings."""
    cards = [Card(rank, "S") for rank, count in (entry.split("=") for entry in SHOE.split(",")) for _ in range(int(count))]
    found: dict = {}
    for order in permutations(range(len(cards)), 6):
        sequence = tuple(cards[index] for index in order)
        if sequence not in found:
            ((_, player, banker),) = deal_physically(list(sequence))
            found[sequence] = [0, nets(player, banker)]
        found[sequence][0] += 1
    return tuple((sequence, count, tuple(net * count for net in paid)) for sequence, (count, paid) in found.items())


def best(sums: list[Fraction]) -> int | None:
    """The first bet of the highest sum above zero, or None."""
    return sums.index(max(sums)) if max(sums) > 0 else None


def brute_force(information, bets: tuple[int, ...] = (0, 1, 2)) -> tuple[Fraction, Fraction, dict]:
    """The gain per coup of the best of ``bets`` (banker 0, player 1, tie 2) or none on each piece of
    information, the share of coups in which that differs from the decision without it, and by
    information its probability and each bet's expectation."""
    groups: dict = defaultdict(lambda: [0, [Fraction(0)] * len(bets)])
    for sequence, count, paid in deals():
        group = groups[information(sequence)]
        group[0] += count
        group[1] = [sum_ + paid[bet] for sum_, bet in zip(group[1], bets)]
    orderings = sum(count for _, count, _ in deals())
    uninformed = best([sum((group[1][index] for group in groups.values()), Fraction(0)) for index in range(len(bets))])
    gain = sum((max(0, *sums) for _, sums in groups.values()), Fraction(0)) / orderings
    changed = Fraction(sum(count for count, sums in groups.values() if best(sums) != uninformed), orderings)
    table = {key: (Fraction(count, orderings), [total_ / count for total_ in sums]) for key, (count, sums) in groups.items()}
    return gain, changed, table


def table_of(found: dict) -> dict:
    return {row["information"]: (Fraction(row["probability"]), [Fraction(row["expected_values"][name]) for name in ("banker", "player", "tie")])
            for row in found["decisions"]}


@pytest.mark.parametrize("position", range(1, 7))
def test_a_known_card_equals_brute_force(run, position):
    found = record(run, "--shoe", SHOE, "--known", str(position))
    gain, changed, table = brute_force(lambda cards: str(cards[position - 1].value))
    assert (Fraction(found["gain"]), Fraction(found["changed"]), found["information"]) == (gain, changed, {"known": position, "detail": "value"})
    assert table_of(found) == table


SORTS = [  # sorted cards, groups, the group of a card as the oracle reads it
    ("3", "5,6,7,8,9", lambda card: "A" if card.value >= 5 else "B"),
    ("2", "0;1,5;2,3,4,6,7,8,9", lambda card: "A" if card.value == 0 else "B" if card.value in (1, 5) else "C"),
    ("4", "K,A", lambda card: "A" if card.rank in "KA" else "B"),
    ("6", "9,6;0,1,2,3,4,5,7,8", lambda card: "A" if card.value in (6, 9) else "B"),
]


@pytest.mark.parametrize("cards, groups, group", SORTS, ids=[f"{cards}-{groups}" for cards, groups, _ in SORTS])
def test_a_sort_equals_brute_force(run, cards, groups, group):
    """Two- and three-way sorts of values and of ranks, the patterns named by the groups as given."""
    found = record(run, "--shoe", SHOE, "--sorted", cards, "--groups", groups)
    gain, changed, table = brute_force(lambda sequence: "".join(group(card) for card in sequence[: int(cards)]))
    assert (Fraction(found["gain"]), Fraction(found["changed"])) == (gain, changed)
    assert table_of(found) == table


@pytest.mark.parametrize("kind", ["values", "ranks"])
def test_every_split_of_the_best_sort_equals_brute_force(run, kind):
    """--best-sort --sorted 2: every two-way split (511 of the values, 4,095 of the ranks), its gain
    and share of coups changed, best first, and the best's decision table."""
    found = record(run, "--shoe", SHOE, "--best-sort", "--sorted", "2", "--over", kind)
    (search,) = found["searches"]
    assert (search["kind"], search["cards"], len(search["every_split"])) == (kind, 2, 511 if kind == "values" else 4095)
    oracle: dict = {}
    for split in search["every_split"]:
        first = set(split["groups"][0])
        seen = frozenset(card for card in "A59K6" if (str(Card(card).value) if kind == "values" else card) in first)
        if seen not in oracle:
            oracle[seen] = brute_force(lambda sequence: tuple(card.rank in seen for card in sequence[:2]))[:2]
        assert (Fraction(split["gain"]), Fraction(split["changed"])) == oracle[seen]
    gains = [Fraction(split["gain"]) for split in search["every_split"]]
    assert gains == sorted(gains, reverse=True) and Fraction(search["best"]["gain"]) == gains[0]


def test_formats_agree_with_the_record(run):
    """The table, Markdown, HTML and CSV show the record's figures; the CSV's decision table exactly."""
    found = record(run, "--shoe", SHOE, "--known", "2")
    gain = Fraction(found["gain"])
    for fmt in ("table", "markdown", "html"):
        code, out, _ = run("protect", "--shoe", SHOE, "--known", "2", "--format", fmt)
        assert code == 0 and f"Gain per coup: {rounded(gain * 100, 4)}% (exact {gain})" in out
    code, out, _ = run("protect", "--shoe", SHOE, "--known", "2", "--format", "csv")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "information,probability,banker,player,tie,bet,expected value"
    for line, row in zip(lines[1:], found["decisions"], strict=True):
        assert line.split(",") == [row["information"], row["probability"], *row["expected_values"].values(), row["bet"] or "none",
                                   row["expected_value"]]


def test_a_best_sort_of_k_cards_shows_the_best_splits_and_the_best_s_table(run):
    """--best-sort --sorted K in text: the ten best splits of each kind and the best's decision
    table, its gain the record's."""
    found = record(run, "--shoe", SHOE, "--best-sort", "--sorted", "3")
    code, out, _ = run("protect", "--shoe", SHOE, "--best-sort", "--sorted", "3")
    assert code == 0 and [search["kind"] for search in found["searches"]] == ["values", "ranks"]
    for search in found["searches"]:
        gain = Fraction(search["best"]["gain"])
        assert f"The 10 best splits of the {search['kind']}, 3 sorted cards:" in out
        assert f"of the {search['kind']} (A = " in out and f"Gain per coup: {rounded(gain * 100, 4)}% (exact {gain})" in out
    assert out.count("information      probability") == 2


def test_beside_many_bets_the_table_names_the_choice_and_the_runner_up(run):
    bets = "banker,player,tie,banker_4pct,tie_9to1,player_pair,banker_pair"
    found = record(run, "--shoe", SHOE, "--bets", bets, "--known", "1")
    code, out, _ = run("protect", "--shoe", SHOE, "--bets", bets, "--known", "1")
    lines = out.splitlines()
    start = next(index for index, line in enumerate(lines) if line.startswith("information ")) + 2
    assert code == 0 and lines[start - 2].split() == ["information", "probability", "bet", "expected", "value", "runner-up", "its", "expectation"]
    for line, row in zip(lines[start:], found["decisions"], strict=True):
        others = {name: Fraction(value) for name, value in row["expected_values"].items() if name != row["bet"]}
        runner_up = max(others, key=lambda name: others[name])  # (the first of equals, as the catalog orders them)
        assert line.split()[0::2] == [row["information"], row["bet"] or "none", runner_up]


def test_all_bets_leaves_out_and_names_those_it_cannot_value(run):
    found = record(run, "--shoe", "9h=2,KS=2,5d=2,AC=1,4h=1", "--bets", "all", "--sorted", "1", "--groups", "6,7,8,9")
    assert "super_tie" not in found["bets"] and "dragon_7" in found["bets"] and "perfect_pair" in found["bets"]
    assert any(note.startswith("left out") and "super_tie" in note for note in found["notes"])


def test_the_heat_map_is_drawn_and_a_user_s_file_is_kept(run, tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "heat.png"
    code, out, err = run("protect", "--shoe", SHOE, "--sorted", "2", "--groups", "K,A", "--plot", str(target))
    assert (code, err) == (0, "") and "Gain per coup" in out and target.read_bytes().startswith(b"\x89PNG")
    assert run("protect", "--shoe", SHOE, "--sorted", "2", "--groups", "K,A", "--plot", str(target))[0] == 0  # ours: drawn again
    theirs = tmp_path / "theirs.png"
    theirs.write_bytes(b"a user's picture")
    code, out, err = run("protect", "--shoe", SHOE, "--known", "1", "--plot", str(theirs))
    assert (code, out) == (2, "") and "did not write" in err and theirs.read_bytes() == b"a user's picture"


def test_the_report_s_protection_page_equals_brute_force(run, tmp_path, monkeypatch):
    """report --protection: for each bet alone, each card known and the best split of the values and
    of the ranks for 1 and 4 sorted cards, against the oracle (the best split: the best of every set
    of the shoe's ranks, each of which a split of the values and of the ranks can take), ranked; a
    bet it cannot value named with the reason; the page in HTML and Markdown, linked from the index."""
    pytest.importorskip("matplotlib")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    out = tmp_path / "report"
    suited = ",".join(f"{rank}S={count}" for rank, count in (entry.split("=") for entry in SHOE.split(",")))  # the same cards, all spades
    code, _, err = run("report", "--protection", "--shoe", suited, "--decks", "1", "--shoes", "0", "--bets", "banker,player,tie,super_tie",
                       "--out", str(out))
    assert (code, err) == (0, "")
    found = json.loads((out / "protection.json").read_text())
    assert found["format"] == "exact_odds.protection_report" and [bet["bet"] for bet in found["bets"]] == ["banker", "player", "tie", "super_tie"]
    present = "A59K6"
    subsets = [frozenset(rank for bit, rank in enumerate(present) if mask >> bit & 1) for mask in range(1 << len(present))]
    for index, bet in enumerate(found["bets"][:3]):
        values = {item["information"]: item for item in bet["information"]}
        for position in range(1, 7):
            oracle = brute_force(lambda cards: cards[position - 1].value, (index,))
            assert (Fraction(values[f"known_{position}"]["gain"]), Fraction(values[f"known_{position}"]["changed"])) == oracle[:2]
        for cards in (1, 4):
            oracle_best = max(brute_force(lambda sequence: tuple(card.rank in subset for card in sequence[:cards]), (index,))[0] for subset in subsets)
            for over in ("values", "ranks"):
                assert Fraction(values[f"sorted_{cards}_{over}"]["gain"]) == oracle_best
        gains = [Fraction(item["gain"]) for item in bet["information"]]
        assert gains == sorted(gains, reverse=True) and [item["rank"] for item in bet["information"]] == list(range(1, 11))
        assert bet["most_exposed_to"] == bet["information"][0]["information"]
    super_tie = found["bets"][3]
    assert super_tie["most_exposed_to"] is None and all(not item["valued"] and "counts cards by colour" in item["reason"]
                                                        for item in super_tie["information"])
    assert "Game protection" in (out / "protection.html").read_text() and "### tie" in (out / "protection.md").read_text()
    assert 'href="protection.html"' in (out / "index.html").read_text() and "(protection.md)" in (out / "index.md").read_text()


def test_a_bet_named_protection_is_refused_beside_the_page(run, tmp_path):
    pytest.importorskip("matplotlib")
    (tmp_path / "bets.toml").write_text('[[bet]]\nname = "protection"\npays = [{ when = "winner == tie", pays = "8" }]\n')
    code, out, err = run("report", "--protection", "--bets-file", str(tmp_path / "bets.toml"), "--shoes", "0", "--decks", "1",
                         "--out", str(tmp_path / "out"))
    assert (code, out) == (2, "") and err.count("\n") == 1 and "a bet named protection would overwrite the report's protection page" in err
    assert not (tmp_path / "out").exists()


HOSTILE = [
    (["--known", "7"], "--known must be a shoe position from 1 to 6"),
    (["--known", "0"], "--known must be a shoe position from 1 to 6"),
    (["--known", "-1"], "--known must be a whole number"),
    (["--sorted", "7", "--groups", "6,7,8,9"], "--sorted must be a number of cards from 1 to 6"),
    (["--sorted", "0", "--groups", "6,7,8,9"], "--sorted must be a number of cards from 1 to 6"),
    (["--sorted", "2", "--groups", "6,7;8,9"], "--groups '6,7;8,9': the groups leave out 0, 1, 2, 3, 4, 5"),
    (["--sorted", "2", "--groups", "6,7,8;8,9,0,1,2,3,4,5"], "8 is in more than one place"),
    (["--sorted", "2", "--groups", "K,Q;K,A,2,3,4,5,6,7,8,9,T,J"], "K is in more than one place"),
    (["--sorted", "2", "--groups", "6,7;;0,1,2,3,4,5,8,9"], "group 2 is empty"),
    (["--sorted", "2", "--groups", "6,7,,8"], "group 1 has an empty entry"),
    (["--sorted", "2", "--groups", "0,1,2,3,4,5,6,7,8,9"], "the other group is empty"),
    (["--sorted", "2", "--groups", "6,7,X"], "'X' is not one of the values"),
    (["--sorted", "2", "--groups", "H,D", "--decks", "8", "--remove", "5"], "--groups 'H,D': the shoe has no suits"),
    (["--sorted", "2", "--groups", "H,D", "--shoe", SHOE], "the shoe has no suits"),
    (["--groups", "6,7,8,9"], "--groups needs sorted"),
    (["--sorted", "2"], "--sorted needs groups"),
    (["--known", "1", "--sorted", "2", "--groups", "6,7,8,9"], "--known is one kind of information"),
    (["--known", "1", "--best-sort"], "--known is one kind of information"),
    (["--best-sort", "--sorted", "2", "--groups", "6,7,8,9"], "--groups: best_sort searches the groups itself"),
    (["--known", "1", "--over", "ranks"], "--over names the splits best_sort searches"),
    (["--over", "values"], "--over names the splits best_sort searches"),
    (["--over", "suits", "--best-sort"], "Invalid value for '--over'"),
    ([], "give the information to value: known (a shoe position 1-6)"),
    (["--best-sort", "--bets", "perfect_pair"], "and perfect_pair reads suits, colours"),
    (["--known", "1", "--bets", "super_tie"], "--bets: super_tie counts cards by colour or suit"),
    (["--known", "1", "--bets", "nothing_such"], "nothing_such"),
    (["--known", "1", "--format", "xml"], "Invalid value for '--format'"),
    (["--known", "1", "--plot", ""], "--plot is empty"),
]


@pytest.mark.parametrize("args, message", HOSTILE, ids=[" ".join(args) or "nothing" for args, _ in HOSTILE])
def test_hostile_input_is_refused_in_one_line(run, args, message):
    code, out, err = run("protect", *args)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("baccarat-odds: error: ") and message in err, err
