"""Rule sets as data: presets, rules files, policies, the one coup walk, and a second preset
(Baccarat Gold) through every path, each against brute force."""

from collections import Counter, defaultdict
from fractions import Fraction

import numpy as np
import pytest
from conftest import assert_exact
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import brute_force_expectations, brute_force_outcomes, completion_totals, deal_physically, values_left

from exact_odds import analyze
from exact_odds.engine.analysis import PlainEngine
from exact_odds.bets.bets import catalog, main_bets
from exact_odds.core.cards import RANKS, SUITS, Card, parse_cards
from exact_odds.core.coup import EMPTY_HAND, coup_key, next_card, play_coup
from exact_odds.errors import InputError
from exact_odds.engine.batch import batch_expectations
from exact_odds.engine.compiled import FastEngine
from exact_odds.engine.store import coup_table
from exact_odds.core.policy import Policy, choices, pure_policies, resolve
from exact_odds.core.rules import BACCARAT_GOLD, PRESETS, PUNTO_BANCO, DrawRules, load_rules, rules_toml
from exact_odds.core.shoe import Shoe

CATALOG = catalog()
GOLD_POLICIES = ["player_on_5=draw", "player_on_5=stand", "player_on_5=9/11"]


def walk_table(decisions) -> dict[tuple, int]:
    """Every sequence of point values run through the scalar walk: weighted orderings by
    (coup class, multiset of values used)."""
    table: dict[tuple, int] = defaultdict(int)
    scale = decisions.scale

    def visit(hand, weight, decided):
        move = next_card(decisions, hand)
        if move is None:
            used = tuple(sorted(value for value in hand if value >= 0))
            table[(coup_key(hand), used)] += weight * scale ** (2 - decided)
            return
        slot, draw, stand = move
        step = decided + (slot >= 4)
        if stand:
            visit(hand[:slot] + (-2,) + hand[slot + 1 :], weight * stand, step)
        if draw:
            for value in range(10):
                visit(hand[:slot] + (value,) + hand[slot + 1 :], weight * draw, step)

    visit(EMPTY_HAND, 1, 0)
    return dict(table)


def compiled_table(decisions) -> dict[tuple, int]:
    table = coup_table(decisions)
    columns = table.columns
    classes = list(zip(*(columns[name].tolist() for name in ("player_two_card_total", "banker_two_card_total", "player_third_card", "banker_third_card"))))
    result = {}
    for row, multiset, orderings in zip(table.entry_row.tolist(), table.entry_multiset.tolist(), table.entry_weight.tolist()):
        used = tuple(value for value, count in enumerate(table.multisets[multiset].tolist()) for _ in range(count))
        result[(classes[row], used)] = orderings
    return result


@pytest.mark.parametrize("rules,policy", [(PUNTO_BANCO, ""), (BACCARAT_GOLD, "player_on_5=9/11")])
def test_every_value_sequence_walks_the_same_through_the_compiled_table(rules, policy):
    decisions = resolve(rules, Policy.parse(policy))
    assert compiled_table(decisions) == walk_table(decisions)


def test_the_punto_banco_tableau_is_the_rules_sources_grid():
    """Rules sources (Hebrew, Japanese): banker 3 stands only on an 8; 4 draws on 2-7; 5 on 4-7; 6 on 6-7."""
    draws = {total: [third for third in range(10) if PUNTO_BANCO.mark("banker", total, third) == "D"] for total in range(8)}
    assert draws == {0: list(range(10)), 1: list(range(10)), 2: list(range(10)), 3: [0, 1, 2, 3, 4, 5, 6, 7, 9],
                     4: [2, 3, 4, 5, 6, 7], 5: [4, 5, 6, 7], 6: [6, 7], 7: []}


def test_baccarat_gold_rules_as_the_wizard_of_odds_states_them():
    """Wizard of Odds, Baccarat Gold: player may draw or stand on 5; when the player draws, banker
    0-3 always draws, 4-5 draws only against a third card of 3-7, 6-7 never; tie pays 9 to 1."""
    for total in range(8):
        drawn = [third for third in range(10) if BACCARAT_GOLD.mark("banker", total, third) == "D"]
        assert drawn == (list(range(10)) if total <= 3 else [3, 4, 5, 6, 7] if total <= 5 else [])
        assert BACCARAT_GOLD.mark("banker", total, None) == PUNTO_BANCO.mark("banker", total, None)
    assert [BACCARAT_GOLD.mark("player", total) for total in range(8)] == list("DDDDDCSS")
    assert BACCARAT_GOLD.tie_pays == 9 and main_bets(BACCARAT_GOLD)["tie"].rows[0].pays.net == 9


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_rules_files_round_trip(name):
    assert load_rules(rules_toml(PRESETS[name]), "copy") == PRESETS[name]


def test_the_rules_command_writes_a_file_that_reads_back(tmp_path, run):
    code, text, _ = run("rules", "--rules", "baccarat_gold", "--format", "toml")
    assert code == 0
    path = tmp_path / "gold.toml"
    path.write_text(text)
    assert run("--rules", str(path), "--format", "json") == run("--rules", "baccarat_gold", "--format", "json")
    code, words, _ = run("rules", "--rules", str(path))
    assert code == 0 and "Option points: player_on_5." in words and "tie bet pays 9 to 1" in words


BAD_RULES = [
    ("naturals = [8, 9]\n", "missing field 'name'"),
    ("naturals", "naturals: expected a list of totals"),
    ("natural_ten", "naturals: must be totals 0-9"),
    ('name = "x"\nnaturals = [8, 9]\nplayer = "D D D D D D S S - -"\nbanker_when_player_stood = "D D D D D D S S - -"\n', "banker_tableau"),
    ("player", "player: needs 10 marks"),
    ("player_mark", "player: mark 'X' at 2"),
    ("tableau_row", "banker_tableau row 5"),
    ("missing_row", "no row for banker total 4"),
    ("sees", "player_sees"),
    ("commission", "commission"),
    ("unknown", "unknown field 'colour'"),
    ("not toml = = 3", "not valid TOML"),
    ("choice_at_natural", "player: mark 'C' at 8: a natural ends the coup"),  # once a KeyError traceback
    ("tableau_choice_at_natural", "banker_tableau row 9: mark 'C' at 0: a natural ends the coup"),
]


def bad_rules_text(kind: str) -> str:
    text = rules_toml(BACCARAT_GOLD)
    edits = {
        "player": ('player =                   "D D D D D C S S - -"', 'player = "D D D D D C S S -"'),
        "player_mark": ('player =                   "D D D D D C S S - -"', 'player = "D D X D D C S S - -"'),
        "tableau_row": ("5   S S S D D D D D S S", "5   S S S D D Q D D S S"),
        "missing_row": ("4   S S S D D D D D S S\n", ""),
        "sees": ('player_sees = "total"', 'player_sees = "nothing"'),
        "naturals": ("naturals = [8, 9]", 'naturals = "8"'),
        "natural_ten": ("naturals = [8, 9]", "naturals = [8, 9, 10]"),
        "commission": ('commission = "5"', 'commission = "150"'),
        "unknown": ('name = "Baccarat Gold"', 'name = "Baccarat Gold"\ncolour = "gold"'),
        "choice_at_natural": ('player =                   "D D D D D C S S - -"', 'player = "D D D D D C S S C -"'),
        "tableau_choice_at_natural": ("9   - - - - - - - - - -", "9   C - - - - - - - - -"),
    }
    if kind not in edits:
        return kind
    old, new = edits[kind]
    assert old in text
    return text.replace(old, new)


@pytest.mark.parametrize("kind,message", BAD_RULES, ids=[kind[:12] for kind, _ in BAD_RULES])
def test_a_bad_rules_file_is_one_line_naming_the_field(tmp_path, run, kind, message):
    path = tmp_path / "rules.toml"
    path.write_text(bad_rules_text(kind))
    code, _, err = run("--rules", str(path))
    assert code == 2 and len(err.strip().splitlines()) == 1 and message in err, err


@pytest.mark.parametrize("text,message", [
    ("player_on_4=draw", "not a choice under Baccarat Gold (there the player always draws)"),
    ("player_on_1+4=draw", "sees only his total (say player_on_5)"),
    ("player_on_5=1.5", "probability from 0 to 1"),
    ("player_on_5=draw,player_on_5=stand", "twice"),
    ("banker_on_3_vs_8=draw", "not a choice"),
    ("bogus=draw", "^policy key 'bogus'"),
])
def test_policy_errors(text, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)").replace("+", r"\+")):
        resolve(BACCARAT_GOLD, Policy.parse(text))


def test_an_open_choice_is_named():
    with pytest.raises(InputError, match="Baccarat Gold leaves a choice open at player_on_5"):
        resolve(BACCARAT_GOLD)
    assert [str(policy) for policy in pure_policies(BACCARAT_GOLD)] == ["player_on_5=draw", "player_on_5=stand"]


def test_a_policy_for_rules_without_choices_is_refused(run):
    code, _, err = run("--policy", "player_on_5=draw")
    assert code == 2 and "not a choice under Punto Banco (there the player always draws)" in err


cards = st.builds(Card, st.sampled_from(RANKS[:2] + RANKS[3:10]), st.sampled_from(SUITS[:2]))
small_shoes = st.lists(cards, min_size=6, max_size=7).map(Counter)


def suited_shoe(counts: Counter) -> Shoe:
    return Shoe.parse(",".join(f"{card.rank}{card.suit}={count}" for card, count in counts.items()))


MAIN = ["banker", "player", "tie", "dragon_7", "panda_8", "big", "dragon_bonus_player"]


@settings(max_examples=8)
@given(small_shoes, st.sampled_from(GOLD_POLICIES))
def test_baccarat_gold_equals_brute_force_through_both_engines(counts, policy):
    shoe = suited_shoe(counts)
    bets = [main_bets(BACCARAT_GOLD)["tie"]] + [CATALOG[name] for name in MAIN if name != "tie"]
    expected = brute_force_expectations(bets, counts, BACCARAT_GOLD, Policy.parse(policy))
    for engine in (PlainEngine(), FastEngine()):
        result = analyze(shoe, bets, BACCARAT_GOLD, policy, engine=engine)
        assert_exact(result)
        assert {bet.bet.name: bet.expected_value for bet in result.bets} == expected
    outcomes = brute_force_outcomes(counts, BACCARAT_GOLD, Policy.parse(policy))
    assert {name: result.probability(name) for name in ("banker", "player", "tie")} == {
        name: Fraction(outcomes[name]) / sum(outcomes.values()) for name in ("banker", "player", "tie")}


@pytest.mark.parametrize("policy", GOLD_POLICIES)
def test_baccarat_gold_batch_path_equals_one_shoe_at_a_time(policy):
    rng = np.random.default_rng(3)
    shoes = np.full((6, 13), 8) - rng.integers(0, 6, (6, 13))
    bets = [CATALOG[name] for name in MAIN] + [CATALOG["player_pair"]]
    batch = batch_expectations(shoes, bets, BACCARAT_GOLD, policy)
    for index, counts in enumerate(shoes.tolist()):
        one = analyze(Shoe(tuple(counts), None, "shoe"), bets, BACCARAT_GOLD, policy, engine=PlainEngine())
        for result in one.bets:
            assert batch.expected_value(index, result.bet.name) == result.expected_value, result.bet.name


@settings(max_examples=40)
@given(st.lists(st.sampled_from(RANKS), min_size=6, max_size=6), st.sampled_from(GOLD_POLICIES[:2]))
def test_dealing_by_hand_follows_the_rules(ranks, policy):
    hand = [Card(rank, "S") for rank in ranks]
    ways = deal_physically(hand, BACCARAT_GOLD, choices(BACCARAT_GOLD, Policy.parse(policy)))
    assert len(ways) == 1
    _, player, banker = ways[0]
    coup = play_coup(hand[: len(player) + len(banker)], resolve(BACCARAT_GOLD, Policy.parse(policy)))
    assert coup.complete and list(coup.player) == player and list(coup.banker) == banker


def test_a_mixed_choice_cannot_be_dealt_by_hand_but_can_be_priced(run):
    code, _, err = run("--rules", "baccarat_gold", "--policy", "player_on_5=1/2", "deal", "2S", "3S", "3H", "KD", "9C")
    assert code == 2 and "player may draw or stand on 5" in err
    code, out, _ = run("--rules", "baccarat_gold", "--policy", "player_on_5=1/2", "deal", "2S", "3S", "3H", "KD", "--decks", "1")
    lines = out.splitlines()
    assert code == 0 and lines[:3] == ["player 2S 3H = 5; banker 3S KD = 3", "player may draw or stand on 5 (a choice; policy: player_on_5=1/2)",
                                       "cards seen: 2S 3S 3H KD; drawing from 1 deck (52 cards) less those cards (48 left)"]
    # Every ordering of the two cards that may follow, by plain dealing, each way of the choice at half.
    seen = list(parse_cards("2S 3S 3H KD"))
    totals = completion_totals(seen, 2, values_left(seen), BACCARAT_GOLD, choices(BACCARAT_GOLD, Policy.parse("player_on_5=1/2")))
    chance = {"banker": Fraction(0), "player": Fraction(0), "tie": Fraction(0)}
    for (player, banker), ways in totals.items():
        chance["player" if player > banker else "banker" if banker > player else "tie"] += Fraction(ways, 48 * 47)
    rows = {row[0]: row[1:3] for row in (line.split() for line in lines[6:9])}
    assert rows == {name: [f"{int(value * 48 * 47 * 4):,}", str(value)] for name, value in chance.items()}  # x4: the halves' weight
    expectations = {row[0]: Fraction(row[1]) for row in (line.split() for line in lines[12:15])}
    assert expectations == {"banker": chance["banker"] * Fraction(19, 20) - chance["player"], "player": chance["player"] - chance["banker"],
                            "tie": 9 * chance["tie"] - chance["banker"] - chance["player"]}  # Baccarat Gold's tie pays 9 to 1


def test_a_gold_choice_decides_who_gets_the_fifth_card(run):
    """Player 2 + 3 = 5 and banker 3 + K = 3: standing, the banker draws the 9C (2) and loses 5 to 2;
    drawing the 9C (4), the player leaves the 4D to the banker, who wins with 7."""
    table = ["bet     stake    result", "------  -------  ---------"]
    code, out, _ = run("--rules", "baccarat_gold", "--policy", "player_on_5=stand", "deal", "2S", "3S", "3H", "KD", "9C")
    assert code == 0 and out.splitlines() == [
        "player 2S 3H = 5; banker 3S KD = 3", "player stands on 5 (a choice; policy: player_on_5=stand)",
        "banker draws on 3 when the player stood: 9C, total 2", "player 5, banker 2: player wins", "",
        *table, "banker  100      loses 100", "player  100      wins 100", "tie     100      loses 100"]
    code, out, _ = run("--rules", "baccarat_gold", "--policy", "player_on_5=draw", "deal", "2S", "3S", "3H", "KD", "9C", "4D")
    assert code == 0 and out.splitlines() == [
        "player 2S 3H = 5; banker 3S KD = 3", "player draws on 5 (a choice; policy: player_on_5=draw): 9C (third-card value 9), total 4",
        "banker draws on 3 against a player third card of 9: 4D, total 7", "player 4, banker 7: banker wins", "",
        *table, "banker  100      wins 95", "player  100      loses 100", "tie     100      loses 100"]


def test_without_a_policy_each_pure_choice_is_shown_with_the_better_one(run):
    import json

    code, out, _ = run("--rules", "baccarat_gold", "--format", "json")
    data = json.loads(out)
    assert code == 0 and [choice["policy"] for choice in data["choices"]] == ["player_on_5=draw", "player_on_5=stand"]
    assert data["better_for_player"] == "player_on_5=draw"
    # Wizard of Odds, Baccarat Gold, player hits on 5: player wins 2,232,878,486,302,976.
    assert data["choices"][0]["outcomes"]["player"]["combinations"] == 2_232_878_486_302_976
    assert round(Fraction(data["choices"][0]["bets"]["tie"]["house_edge_percent"]), 3) == Fraction("4.908")  # Wizard of Odds, Baccarat Gold


def test_baccarat_gold_simulation_deals_by_the_rules():
    from exact_odds.studies.dealer import Settings, deal_shoe, play_values
    from exact_odds.studies.simulate import run, summary

    decisions = resolve(BACCARAT_GOLD, Policy.parse("player_on_5=stand"))
    settings_ = Settings(Shoe.decks(1), 3, 4, Fraction(3, 4), False, None, ("banker", "tie"), decisions)
    compositions, winners, _ = deal_shoe(settings_, 0)
    rng = np.random.default_rng([4, 0])
    order = np.repeat(np.arange(13), 4)
    rng.shuffle(order)
    cards = [Card(RANKS[rank], "S") for rank in order.tolist()]
    position = 0
    chosen = choices(BACCARAT_GOLD, decisions.policy)
    for winner in winners.tolist():
        [(_, player, banker)] = deal_physically(cards[position:], BACCARAT_GOLD, chosen)
        totals = (sum(card.value for card in player) % 10, sum(card.value for card in banker) % 10)
        assert winner == (0 if totals[1] > totals[0] else 1 if totals[0] > totals[1] else 2)
        position += len(player) + len(banker)
    assert summary(run(settings_))["coups"] > 0
    assert play_values(decisions, [2, 3, 3, 0, 9, 4], 0, rng) == (5, 1)  # player 5 stands; banker 3 + 9 = 2


def test_baccarat_gold_formulas_equal_direct_computation():
    from exact_odds.studies.formulas import expectation_formulas, outcome_formulas

    decisions = resolve(BACCARAT_GOLD, Policy.parse("player_on_5=9/11"))
    bets = [main_bets(BACCARAT_GOLD)["tie"], CATALOG["dragon_7"]]
    formulas = expectation_formulas(bets, decisions)
    for decks in (1, 3, 9):
        direct = analyze(Shoe.decks(decks), bets, decisions)
        assert_exact(direct)
        assert [formula.at(decks) for formula in formulas] == [result.expected_value for result in direct.bets]
        assert [formula.at(decks) for formula in outcome_formulas(decisions)] == [direct.probability(name) for name in ("banker", "player", "tie")]


marks = st.sampled_from("DSC")


@st.composite
def rule_sets(draw) -> tuple[DrawRules, Policy]:
    naturals = frozenset(draw(st.sets(st.sampled_from([7, 8, 9]), max_size=2)))

    def row(natural: bool) -> tuple[str, ...]:
        return tuple("-" if natural else draw(marks) for _ in range(10))

    player = tuple("-" if total in naturals else draw(marks) for total in range(10))
    stood = tuple("-" if total in naturals else draw(marks) for total in range(10))
    tableau = tuple(row(total in naturals) for total in range(10))
    rules = DrawRules("random", naturals, player, stood, tableau, draw(st.sampled_from(["total", "cards"])), draw(st.sampled_from(["total", "cards"])))
    probabilities = st.sampled_from([Fraction(0), Fraction(1), Fraction(1, 2), Fraction(1, 3)])
    policy = Policy(tuple((point.name, draw(probabilities)) for point in rules.option_points()))
    return rules, policy


@settings(max_examples=15)
@given(rule_sets(), st.lists(st.integers(0, 6), min_size=13, max_size=13).filter(lambda counts: sum(counts) >= 6))
def test_random_rule_sets_compiled_equals_plain(rule_set, counts):
    rules, policy = rule_set
    decisions = resolve(rules, policy)
    shoe = Shoe(tuple(counts), None, "drawn")
    bets = [CATALOG[name] for name in MAIN]
    fast = analyze(shoe, bets, decisions, engine=FastEngine())
    plain = analyze(shoe, bets, decisions, engine=PlainEngine())
    assert_exact(fast)
    assert_exact(plain)
    assert fast.outcomes == plain.outcomes and fast.total == plain.total
    assert [result.rows for result in fast.bets] == [result.rows for result in plain.bets]


@settings(max_examples=6)
@given(rule_sets(), small_shoes)
def test_random_rule_sets_equal_brute_force(rule_set, counts):
    rules, policy = rule_set
    bets = [CATALOG[name] for name in MAIN] + [CATALOG["player_pair"]]
    expected = brute_force_expectations(bets, counts, rules, policy)
    result = analyze(suited_shoe(counts), bets, resolve(rules, policy), engine=PlainEngine())
    assert {bet.bet.name: bet.expected_value for bet in result.bets} == expected


def test_naturals_come_from_the_rules():
    """Only a 9 is a natural here: a two-card 8 is no natural, and the player stands on it."""
    rules = DrawRules("nines", frozenset({9}), tuple("DDDDDDSSS-"), tuple("DDDDDDSSS-"),
                      PUNTO_BANCO.banker_tableau[:8] + (tuple("SSSSSSSSSS"), tuple("-" * 10)))
    bets = [CATALOG["dragon_bonus_player"], CATALOG["natural_8"]]
    counts = Counter({Card("8", "S"): 2, Card("K", "H"): 2, Card("5", "S"): 1, Card("9", "H"): 2})
    expected = brute_force_expectations(bets, counts, rules)
    result = analyze(suited_shoe(counts), bets, rules)
    assert_exact(result)
    assert {bet.bet.name: bet.expected_value for bet in result.bets} == expected
    distribution = FastEngine().coups(Shoe.decks(1), resolve(rules), {})
    natural = distribution.columns["player_natural"] == 1
    assert set(distribution.columns["player_two_card_total"][natural].tolist()) == {9}


def test_every_pure_profile_of_few_points():
    rules = DrawRules("two", frozenset({8, 9}), tuple("DDDDDCSC--"), PUNTO_BANCO.banker_when_player_stood, PUNTO_BANCO.banker_tableau)
    assert [str(policy) for policy in pure_policies(rules)] == [
        "player_on_5=draw,player_on_7=draw", "player_on_5=draw,player_on_7=stand",
        "player_on_5=stand,player_on_7=draw", "player_on_5=stand,player_on_7=stand"]
    assert all(policy.entries for policy in pure_policies(rules))
