"""The library takes inputs as people write them and gives results as people read them (issue 21,
in part): each natural spelling equals the explicit call, and each wrong one is one InputError."""

import inspect
import json
import pickle
import re
import warnings
from fractions import Fraction
from pathlib import Path

import pytest

import exact_odds
from exact_odds import BACCARAT_GOLD, PUNTO_BANCO, InputError, Shoe, analyze, catalog
from exact_odds.core.cards import parse_cards
from exact_odds.core.numbers import fixed
from exact_odds.core.shoe import as_shoe


def test_names_in_equal_the_explicit_call():
    explicit = analyze(Shoe.decks(8).remove(parse_cards("5H K 9D")), [catalog()["banker"], catalog()["dragon_7"]])
    natural = analyze(Shoe.decks(8).remove("5h K 9d"), "banker, dragon_7")
    assert natural.bets == explicit.bets and natural.outcomes == explicit.outcomes
    assert analyze(8, ["banker", catalog()["dragon_7"]]).bets == analyze(Shoe.decks(8), [catalog()["banker"], catalog()["dragon_7"]]).bets


def test_all_is_every_bet_the_shoe_can_settle():
    by_card = analyze(Shoe.decks(1), "all")
    by_rank = analyze(Shoe.decks(1).remove("5"), "all")  # a card without its suit: the shoe forgets suits
    assert [result.bet.name for result in by_card.bets] == list(catalog())
    assert [result.bet.name for result in by_rank.bets] == [name for name, bet in catalog().items() if not bet.needs_suits]


def test_no_bets_are_the_main_bets_and_an_empty_list_is_refused_as_the_cli_refuses_it(run):
    assert [result.bet.name for result in analyze(8).bets] == ["banker", "player", "tie"]
    with pytest.raises(InputError, match=r"^bets is empty \(give names separated by commas, or all\)$"):
        analyze(8, [])
    assert run("--decks", "8", "--bets", "") == (2, "", "baccarat-odds: error: --bets is empty (give names separated by commas, or all)\n")


def test_rules_by_name_take_their_pays():
    # Wizard of Odds, "Baccarat Gold": the tie pays 9 to 1, house edge 4.908% with the player drawing on 5
    tie = analyze(8, "tie", rules="baccarat_gold", policy="player_on_5=draw")["tie"]
    assert f"{float(tie.house_edge) * 100:.3f}" == "4.908"
    assert tie.house_edge == analyze(Shoe.decks(8), [catalog()["tie_9to1"]], BACCARAT_GOLD, policy="player_on_5=draw").bets[0].house_edge


@pytest.mark.parametrize(("given", "explicit"), [
    (8, Shoe.decks(8)), ("8", Shoe.decks(8)), ("inf", Shoe.infinite()), ("A=4,K=4", Shoe.parse("A=4,K=4")),
    ({"A": 4, "K": 4}, Shoe.parse("A=4,K=4")), ({"9h": 3, "Ks": 3}, Shoe.parse("9h=3,Ks=3")),
])
def test_a_shoe_as_people_write_it(given, explicit):
    assert as_shoe(given) == explicit


@pytest.mark.parametrize(("call", "message"), [
    (lambda: analyze(3.5), "a shoe is a Shoe, a number of decks, inf, a composition such as \"A=32,K=32\" or a mapping of cards to counts, not 3.5"),
    (lambda: analyze(True), "a shoe is a Shoe, a number of decks, inf, a composition such as \"A=32,K=32\" or a mapping of cards to counts, not True"),
    (lambda: analyze(8, "nope"), "unknown bet 'nope': no bet of the catalog, the main bets or the bets given is named so"),
    (lambda: analyze(8, ""), "bets is empty (give names separated by commas, or all)"),
    (lambda: analyze(8, [5]), "bets are a name, names separated by commas, all, a Bet, or a list of names and Bets; not 5"),
    (lambda: analyze(8, rules="nope"), "rules 'nope' is neither a preset (punto_banco, baccarat_gold, chemin_de_fer_a, chemin_de_fer_b2, chemin_de_fer_b3) nor a rules file"),
    (lambda: analyze(8, rules=3), "rules are a DrawRules, a preset name (punto_banco, baccarat_gold, chemin_de_fer_a, chemin_de_fer_b2, chemin_de_fer_b3) or a rules file's path, not 3"),
    (lambda: analyze(Shoe.decks(1).remove("5"), "perfect_pair"), "bet 'perfect_pair' reads suits, but the shoe is given by rank only (give per-card counts, e.g. 9h=7,...)"),
])
def test_a_wrong_input_is_one_input_error(call, message):
    with pytest.raises(InputError) as refused:
        call()
    assert str(refused.value) == message


def test_results_by_bet_name(run):
    result = analyze(8, "banker, dragon_7")
    assert result["dragon_7"] is result.bets[1]
    with pytest.raises(KeyError, match="no bet 'tie' in this analysis \\(it has banker, dragon_7\\)"):
        result["tie"]


def test_to_dict_is_the_json_the_cli_prints(run):
    code, out, _ = run("--decks", "6", "--remove", "5 5 K", "--bets", "banker,dragon_7,player_pair", "--format", "json")
    printed = json.loads(out)
    made = analyze(Shoe.decks(6).remove("5 5 K"), "banker, dragon_7, player_pair").to_dict(printed["notes"])
    assert code == 0 and made == printed


def test_reprs_are_short_and_help_names_its_defaults():
    result = analyze(8, "all")
    assert len(repr(result["dragon_7"])) < 100 and len(repr(result)) < 1200
    assert repr(result["dragon_7"]) == "<BetAnalysis dragon_7: house edge 7.6113% (64613588827/848912750595)>"
    assert "rules: 'DrawRules | Decisions | str' = PUNTO_BANCO" in str(inspect.signature(analyze))
    assert repr(PUNTO_BANCO) == "PUNTO_BANCO" and eval(repr(BACCARAT_GOLD), vars(exact_odds.core.rules)) is BACCARAT_GOLD


def test_dir_lists_the_public_names():
    assert set(exact_odds.PUBLIC) <= set(dir(exact_odds))
    assert all(getattr(exact_odds, name) is not None for name in exact_odds.PUBLIC)


def test_results_pickle():
    result = analyze(8, "banker, dragon_7")
    assert pickle.loads(pickle.dumps(result)).bets == result.bets


def test_to_frame_holds_the_exact_values_and_floats_to_plot():
    pandas = pytest.importorskip("pandas")  # in the test extras; skipped only where it is not installed
    result = analyze(Shoe.decks(8).remove("5h K 9d"), "all")
    frame = result.to_frame()
    assert isinstance(frame, pandas.DataFrame) and list(frame.index) == [bet.bet.name for bet in result.bets]
    for bet in result.bets:
        row = frame.loc[bet.bet.name]
        assert type(row["house_edge"]) is Fraction and row["house_edge"] == bet.house_edge
        assert row["expected_value"] == bet.expected_value and row["variance"] == bet.variance
        assert row["house_edge_percent"] == float(bet.house_edge * 100)
    assert frame.loc["tie", "house_edge_excluding_pushes"] == result["tie"].house_edge


def test_to_frame_without_pandas_says_how_to_get_it(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas":
            raise ImportError("No module named 'pandas'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    with pytest.raises(InputError, match=r"to_frame needs pandas: pip install 'exact_odds\[frame\]'"):
        analyze(8).to_frame()


PINNED = Path(__file__).parent / "pinned"
DECIMAL_TEXT = re.compile(r"[+-]?[0-9]*\.[0-9]+%?|[+-]?[0-9]+%")
TEXT_FIELDS = {"published", "pays", "description", "event", "note", "known_wrong"}
"""Fields that are text as written (a pay as its bets file writes it, a figure as its source prints it)."""


def strings(record: object, key: str = "") -> list[tuple[str, str]]:
    """Every (field, string value) of a JSON record, at any depth."""
    if isinstance(record, dict):
        return [found for name, value in record.items() for found in strings(value, name)]
    if isinstance(record, list):
        return [found for value in record for found in strings(value, key)]
    return [(key, record)] if isinstance(record, str) else []


@pytest.mark.parametrize("name", sorted(path.stem for path in PINNED.glob("*-json.out")) + ["analysis-unordered"])
def test_every_json_document_is_versioned_and_its_decimals_are_numbers(name):
    record = json.loads((PINNED / f"{name}.out").read_text(encoding="utf-8"))
    assert list(record)[:2] == ["format", "version"] and record["version"] == 2 and record["format"].startswith("exact_odds.")
    decimals = [(key, value) for key, value in strings(record) if key not in TEXT_FIELDS and DECIMAL_TEXT.fullmatch(value)]
    assert decimals == []


def test_a_percentage_is_a_number_beside_its_exact_value(run):
    code, out, _ = run("--decks", "1", "--bets", "banker", "--format", "json")
    banker = json.loads(out)["bets"]["banker"]
    # 1 deck, Punto Banco: the banker's house edge, exactly (Wizard of Odds: 1.0117%)
    assert code == 0 and float(Fraction(banker["house_edge"]) * 100) == banker["house_edge_percent"]
    assert f"{banker['house_edge_percent']:.4f}" == "1.0117"
    code, out, _ = run("eor", "--decks", "8", "--bets", "tie", "--format", "csv")
    rows = out.splitlines()
    assert code == 0 and rows[0] == "bet,rank,effect,effect_percent,level_1_tag,level_2_tag"
    assert not [row for row in rows if "%" in row]
    effect = rows[1].split(",")
    assert effect[3] == fixed(Fraction(effect[2]) * 100, 6)


def test_all_on_a_shoe_by_rank_warns_which_bets_it_leaves_out() -> None:
    """The command line prints a note; the library says it as a UserWarning, naming the bets on suits."""
    suited = sorted(name for name, bet in catalog().items() if bet.needs_suits)
    with pytest.warns(UserWarning, match="left out") as caught:
        result = analyze(Shoe.decks(8).remove("5h K 9d"), "all")
    assert all(name in str(caught[0].message) for name in suited)
    assert sorted(set(catalog()) - {bet.bet.name for bet in result.bets}) == suited
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(analyze(Shoe.decks(8).remove("5h 9d"), "all").bets) == len(catalog())
