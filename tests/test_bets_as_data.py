"""Issue 19: bets as data (a condition is a plain tree, compiled in a second step; bets pickle and
travel to the workers as they are), one rule for settlement (the first row that holds), and the
outcome probabilities straight from the batch."""

import json
import pickle
from collections import Counter
from fractions import Fraction
from itertools import permutations

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from oracles import brute_force_outcomes, coup_features, deal_physically, physical_cards

from exact_odds.bets import conditions
from exact_odds.bets.bets import Bet, available_bets, load_bets
from exact_odds.commands.setup import Setup
from exact_odds.bets.conditions import parse_condition
from exact_odds.core.cards import Card
from exact_odds.core.features import SLOTS, Columns, Granularity
from exact_odds.core.policy import Policy, resolve
from exact_odds.core.rules import BACCARAT_GOLD, PUNTO_BANCO
from exact_odds.core.shoe import Shoe
from exact_odds import analyze
from exact_odds.engine.analysis import PlainEngine
from exact_odds.engine.batch import batch_expectations
from exact_odds.engine.enumerator import enumerate_coups
from exact_odds.errors import InputError
from exact_odds.studies import simulate
from exact_odds.studies.dealer import Settings, deal_shoe
from exact_odds.studies.simulate import run, summary

PUNTO = resolve(PUNTO_BANCO)
OUTCOMES = ("banker", "player", "tie")
CATALOG = available_bets(PUNTO_BANCO)
USER_BETS = """
[[bet]]
name = "king_banker"
description = "the player's first card a king, and banker wins"
pays = [ { when = "player_card1_rank == K and winner == banker", pays = "5" }, { when = "winner == tie", pays = "push" } ]

[[bet]]
name = "nine_first"
pays = [ { when = "(player_card1_value + player_card2_value) % 10 == 9", pays = "4" } ]

[[bet]]
name = "many_tens"
pays = [ { when = "count(card_value == 0) >= 4 and not natural", pays = "3 for 1" }, { when = "-banker_third_card < -5", pays = "lose 1/2" } ]
"""
SUITED = Shoe.parse("9h=2,KS=2,5d=2,AC=1,2c=1,3h=1,Td=1")
"""A small suited shoe whose coups every condition below is evaluated on (every slot at card level)."""
SUITED_COLUMNS = enumerate_coups(SUITED, PUNTO, dict.fromkeys(SLOTS, Granularity.CARD)).columns


def user_bets(tmp_path) -> dict[str, Bet]:
    path = tmp_path / "mine.toml"
    path.write_text(USER_BETS, encoding="utf-8")
    own = Setup.reading(bets_file=str(path)).own_bets
    assert own is not None
    return own


# --- a condition is a plain tree ----------------------------------------------------------------

NUMBERS = ["player_total", "banker_total", "margin", "banker_third_card", "player_card1_value", "banker_card3_value",
           "count(card_rank == K)", "player_count(card_suit in [H, D])", "banker_count(card_value > 5)"]
LITERALS = {"winner": ["banker", "Player", "tie"], "player_card2_rank": ["K", "10", "a"], "banker_card3_suit": ["h", "S"],
            "player_card3_color": ["red", "black"], "natural": ["true", "false"]}
numbers = st.recursive(st.sampled_from(NUMBERS) | st.integers(0, 12).map(str),
                       lambda inner: st.builds(lambda left, operator, right: f"{left} {operator} {right}", inner,
                                               st.sampled_from(["+", "-", "*"]), inner)
                       | inner.map(lambda text: f"({text})") | inner.map(lambda text: f"-{text}")
                       | inner.map(lambda text: f"{text} % 10"), max_leaves=4)
atoms = (st.builds(lambda left, operator, right: f"{left} {operator} {right}", numbers, st.sampled_from(["==", "!=", "<", ">="]), numbers)
         | st.builds(lambda number, values: f"{number} in [{', '.join(values)}]", numbers, st.lists(st.sampled_from(["-1", "0", "3", "9"]), min_size=1, max_size=3))
         | st.sampled_from(sorted(LITERALS)).flatmap(lambda feature: st.builds(
             lambda operator, value, flipped: f"{value} {operator} {feature}" if flipped else f"{feature} {operator} {value}",
             st.sampled_from(["==", "!="]), st.sampled_from(LITERALS[feature]), st.booleans()))
         | st.sampled_from(["player_card1_suit == banker_card1_suit", "player_card2_rank != banker_card3_rank", "natural", "true",
                            "player_natural == banker_natural", "(winner == tie) == (margin == 0)"]))
condition_texts = st.recursive(atoms, lambda inner: st.builds(lambda left, word, right: f"{left} {word} {right}", inner,
                                                              st.sampled_from(["and", "or", "AND"]), inner)
                               | inner.map(lambda text: f"not {text}") | inner.map(lambda text: f"({text})"), max_leaves=5)


def truth(condition, columns=SUITED_COLUMNS):
    return condition(columns).tolist()


@settings(max_examples=60)
@given(condition_texts)
def test_a_drawn_condition_is_a_value_that_pickles_and_spells_itself(text):
    """The tree pickles to an equal tree, its repr builds it again, its str parses back to the same
    tree; the copy and the condition parsed from that spelling settle every coup as the text does."""
    try:
        condition = parse_condition(text)
    except InputError:  # arithmetic beyond its bounds, or nested too deep
        event("refused")
        return
    expected = truth(condition)
    copy = pickle.loads(pickle.dumps(condition))
    assert copy == condition and hash(copy) == hash(condition) and copy is not condition
    assert "evaluate" not in copy.__dict__  # the compiled evaluator is not pickled: the copy compiles its own
    assert truth(copy) == expected
    assert eval(repr(condition), vars(conditions)) == condition
    spelled = parse_condition(str(condition.tree))
    assert spelled.tree == condition.tree and truth(spelled) == expected
    assert (spelled.features, spelled.slots, spelled.symmetric) == (condition.features, condition.slots, condition.symmetric)


def test_every_catalog_condition_spells_itself_and_pickles():
    for bet in CATALOG.values():
        for row in bet.rows:
            tree = row.condition.tree
            assert parse_condition(str(tree)).tree == tree, (bet.name, row.condition.text, str(tree))
            assert pickle.loads(pickle.dumps(row.condition)) == row.condition


@pytest.mark.parametrize("text,spelled", [
    ("Winner==Banker", "winner == banker"),
    ("9 <= player_total", "player_total >= 9"),
    ("player_card1_rank in [k, 10, a]", "player_card1_rank in [K, T, A]"),
    ("(margin + 1 + 2) == 1", "margin + 1 + 2 == 1"),
    ("(natural or banker_natural) or winner == tie", "natural or banker_natural or winner == tie"),
    ("natural and (banker_natural or player_natural)", "natural and (banker_natural or player_natural)"),
    ("not not (margin == 2)", "margin == 2"),
    ("-margin * 2 < -3", "(0 - margin) * 2 < 0 - 3"),
    ("margin - (banker_total - 1) == 0", "margin - (banker_total - 1) == 0"),
    ("count(card_rank == 9) >= 2", "count(card_rank == 9) >= 2"),
])
def test_the_spelling_of_a_tree(text, spelled):
    """Written out by hand: the canonical spelling (the parentheses that change nothing dropped, the
    literal on the right, values by their canonical names)."""
    assert str(parse_condition(text).tree) == spelled


def test_the_evaluator_is_compiled_once_from_the_tree():
    condition = parse_condition("banker_count(card_suit == H) >= 1")
    assert "evaluate" not in condition.__dict__  # parsing compiles nothing
    first = condition.evaluate
    assert condition.evaluate is first


def test_a_long_chain_of_arithmetic_is_answered():
    """Regression: a chain of 1,400 additions (within the 10,000 characters) was evaluated through
    nested closures, a RecursionError traceback with exit 0. By hand: margin >= 0, so 1,400 times
    it is never 3 (the bet always loses), and 1 - 2,999 is below any margin (it always wins 2)."""
    bets = load_bets(f"""
[[bet]]
name = "never"
pays = [ {{ when = "{'+'.join(['margin'] * 1400)} == 3", pays = "2" }} ]
[[bet]]
name = "always"
pays = [ {{ when = "{'-'.join(['1'] * 3000)} < margin", pays = "2" }} ]
""", "chains")
    result = analyze(Shoe.decks(1), list(bets.values()))
    assert [bet.expected_value for bet in result.bets] == [Fraction(-1), Fraction(2)]
    for bet in bets.values():
        assert pickle.loads(pickle.dumps(bet)) == bet


# --- bets pickle ---------------------------------------------------------------------------------


def test_every_catalog_bet_pickles_to_an_equal_bet_that_settles_alike():
    for name, bet in CATALOG.items():
        copy = pickle.loads(pickle.dumps(bet))
        assert copy == bet and hash(copy) == hash(bet), name
        assert (copy.needs_coup, copy.card_slots, copy.needs_suits) == (bet.needs_coup, bet.card_slots, bet.needs_suits)
        assert copy.settle(SUITED_COLUMNS).tolist() == bet.settle(SUITED_COLUMNS).tolist(), name


def test_a_users_bets_pickle_and_price_as_brute_force(tmp_path):
    """The user's bets, unpickled, priced on a small suited shoe: as every ordering of its cards settles them."""
    mine = user_bets(tmp_path)
    copies = [pickle.loads(pickle.dumps(bet)) for bet in mine.values()]
    assert copies == list(mine.values())
    counts = Counter({Card("K", "S"): 2, Card("9", "H"): 2, Card("5", "D"): 1, Card("T", "C"): 2})
    expected = Counter()
    orderings = 0
    for sequence in permutations(physical_cards(counts), 6):
        for chance, player, banker in deal_physically([card for _, card in sequence]):
            features = coup_features(player, banker)
            columns = Columns({key: np.array([value]) for key, value in features.items()}, dict.fromkeys(SLOTS, Granularity.CARD))
            for bet in copies:
                expected[bet.name] += chance * first_row_pays(bet, columns)
        orderings += 1
    shoe = Shoe.parse("KS=2,9H=2,5D=1,TC=2")
    for engine in (None, PlainEngine()):
        result = analyze(shoe, copies, engine=engine)
        assert {bet.bet.name: bet.expected_value for bet in result.bets} == {name: value / orderings for name, value in expected.items()}


def first_row_pays(bet: Bet, columns: Columns) -> Fraction:
    """The pay of the first row whose condition holds on the one coup, row by row; else the stake lost."""
    for row in bet.rows:
        if bool(row.condition(columns)[0]):
            return row.pays.net
    return Fraction(-1)


# --- settlement: the first row that holds ------------------------------------------------------


def test_the_first_row_that_holds_settles():
    """Rows that overlap: the first that holds wins, whatever follows; no row, the stake is lost."""
    bet = load_bets("""
[[bet]]
name = "overlapping"
pays = [ { when = "margin >= 2", pays = "2" }, { when = "margin >= 1", pays = "9" }, { when = "margin == 3", pays = "50" } ]
""", "test")["overlapping"]
    columns = Columns({"margin": np.array([0, 1, 2, 3, 9])})
    assert bet.settle(columns).tolist() == [3, 1, 0, 0, 0]
    assert [payout.net for payout in bet.payouts] == [2, 9, 50, -1]
    assert [first_row_pays(bet, Columns({"margin": np.array([margin])})) for margin in (0, 1, 2, 3, 9)] == [-1, 9, 2, 2, 2]


def test_deal_settles_by_the_first_row_too(run, tmp_path):
    """A settled coup, by hand: player 9 (9h K), banker 5 (5d K), no third card; player wins by 4."""
    path = tmp_path / "rows.toml"
    path.write_text("""
[[bet]]
name = "by_margin"
pays = [ { when = "margin >= 4", pays = "2" }, { when = "margin == 4", pays = "50" } ]
[[bet]]
name = "no_row"
pays = [ { when = "margin == 0", pays = "8" } ]
""", encoding="utf-8")
    code, out, err = run("deal", "9h", "5d", "Kh", "Kd", "--bets-file", str(path), "--bets", "by_margin,no_row", "--stake", "10")
    assert code == 0, err
    rows = {line.split()[0]: line.split()[2:] for line in out.splitlines() if line.startswith(("by_margin", "no_row"))}
    assert rows == {"by_margin": ["wins", "20"], "no_row": ["loses", "10"]}


# --- outcome probabilities from the batch --------------------------------------------------------

rank_shoes = st.lists(st.integers(0, 2), min_size=13, max_size=13).filter(lambda counts: sum(counts) >= 6)


@settings(max_examples=10)
@given(st.lists(rank_shoes, min_size=1, max_size=2))
def test_outcome_probabilities_from_the_batch_equal_the_plain_enumerator(shoes):
    catalog_bets = [CATALOG["banker"], CATALOG["dragon_7"], CATALOG["player_pair"]]
    plain_bets = [CATALOG["banker"], CATALOG["dragon_7"]]
    for bets in ([], catalog_bets):
        batch = batch_expectations(shoes, bets, PUNTO_BANCO, outcomes=True)
        for index, counts in enumerate(shoes):
            shoe = Shoe(tuple(counts), None, f"shoe {index}")
            plain = analyze(shoe, plain_bets, PUNTO_BANCO, engine=PlainEngine())
            for outcome in OUTCOMES:
                probability = batch.outcome_probability(index, outcome)
                assert type(probability) is Fraction and probability == plain.probability(outcome)
            for position, bet in enumerate(plain_bets if bets else ()):
                assert batch.expected_value(index, bet.name) == plain.bets[position].expected_value


def test_outcome_probabilities_of_suited_shoes_and_a_mixed_policy_equal_brute_force():
    """Per-card counts and bets on suits (the outcomes from the coup table beside theirs), and a
    mixed choice (each sequence weighed by the policy): every ordering of the physical cards."""
    counts = Counter({Card("9", "H"): 2, Card("K", "S"): 1, Card("5", "D"): 2, Card("A", "C"): 1, Card("3", "H"): 1})
    shoe = Shoe.parse("9H=2,KS=1,5D=2,AC=1,3H=1")
    for rules, policy in ((PUNTO_BANCO, Policy()), (BACCARAT_GOLD, Policy.parse("player_on_5=1/3"))):
        tally = brute_force_outcomes(counts, rules, policy)
        batch = batch_expectations([shoe.card_counts], [CATALOG["perfect_pair"]], rules, policy, outcomes=True)
        assert [batch.outcome_probability(0, outcome) for outcome in OUTCOMES] == [tally[outcome] / sum(tally.values()) for outcome in OUTCOMES]


def test_outcomes_are_counted_only_when_asked():
    batch = batch_expectations([[4] * 13], [CATALOG["banker"]])
    assert batch.outcomes is None
    with pytest.raises(InputError, match="outcomes=True"):
        batch.outcome_probability(0, "banker")


# --- the simulation: bets travel as data ---------------------------------------------------------

SMALL_SHOE = Shoe.parse("A=2,2=2,3=2,4=2,5=2,6=2,K=4")


def test_settings_carry_bets_and_pickle(tmp_path):
    mine = user_bets(tmp_path)
    settings_ = Settings(SMALL_SHOE, 5, 1, Fraction(3, 4), False, None, ("banker", mine["king_banker"]), PUNTO)
    assert settings_.bets == (CATALOG["banker"], mine["king_banker"]) and settings_.bet_names == ("banker", "king_banker")
    assert pickle.loads(pickle.dumps(settings_)) == settings_
    with pytest.raises(InputError, match="unknown bet 'bunker'"):
        Settings(SMALL_SHOE, 5, 1, Fraction(3, 4), False, None, ("bunker",), PUNTO)


def test_a_users_bets_simulated_on_two_workers_equal_one_and_the_exact_answers(tmp_path, monkeypatch):
    """The user's bets reach the workers as data: the same record from two workers as from one; its
    exact figures (outcome probabilities, coups with a positive expectation) as the single-shoe
    evaluator gives them at every coup dealt."""
    monkeypatch.setattr(simulate, "CHUNK_SHOES", 10)  # five tasks (the parent cuts the run into tasks)
    mine = user_bets(tmp_path)
    bets = (CATALOG["tie"], mine["king_banker"], mine["nine_first"])
    settings_ = Settings(SMALL_SHOE, 45, 3, Fraction(7, 8), False, None, bets, PUNTO)
    one, two = summary(run(settings_, workers=1)), summary(run(settings_, workers=2))
    assert json.dumps(one) == json.dumps(two)
    compositions = [composition for shoe in range(settings_.shoes) for composition in deal_shoe(settings_, shoe)[0]]
    assert one["coups"] == len(compositions) > 60
    probabilities = {outcome: Fraction(0) for outcome in OUTCOMES}
    positive: Counter = Counter()
    results = {}
    for composition in compositions:
        key = tuple(composition.tolist())
        if key not in results:  # every shoe's first coup is dealt from the whole shoe
            results[key] = analyze(Shoe(key, None, "left"), list(bets), PUNTO)
        result = results[key]
        for outcome in OUTCOMES:
            probabilities[outcome] += result.probability(outcome)
        positive.update(bet.bet.name for bet in result.bets if bet.expected_value > 0)
    for outcome in OUTCOMES:
        assert one["outcomes"][outcome]["exact_mean"] == round(float(probabilities[outcome] / len(compositions)), 6)
    for bet in bets:
        assert one["bets"][bet.name]["positive_share"] == round(positive[bet.name] / len(compositions), 6)
    assert 0 < positive["king_banker"] < len(compositions) and 0 < positive["tie"] < len(compositions)


def test_simulate_with_a_bets_file_gives_the_same_bytes_on_two_workers(run, tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(USER_BETS, encoding="utf-8")
    args = ("simulate", "--shoe", "A=8,2=8,3=8,4=8,5=8,6=8,7=8,8=8,9=8,K=32", "--shoes", "210", "--seed", "4", "--bets-file", str(path),
            "--format", "json")
    code_one, one, _ = run(*args, "--workers", "1")
    code_two, two, _ = run(*args, "--workers", "2")
    assert code_one == code_two == 0 and one == two
    assert set(json.loads(one)["bets"]) == {"banker", "player", "tie", "king_banker", "nine_first", "many_tens"}
