"""Issue 18: `deal` mid-coup under mixed policies, partial losses on a settled coup, one choice per
option point in a policy, and `rules --policy`.

The brute force here walks every coup from the rules' tableau (``rules.mark``) and a policy written
as plain Fractions, over every ordering of the cards left in a small shoe (the ordered draws of the
cards a coup can still use: each stands for the same number of orderings of the whole rest), and
conditions on the cards seen and on the decisions the coup has already taken.
"""

import json
import random
import re
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import permutations

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from exact_odds.bets.bets import main_bets
from exact_odds.core.cards import POINT_VALUES, RANKS, Card
from exact_odds.games.chemin import optimal_policy, solve
from exact_odds.commands.setup import Setup
from exact_odds.core.coup import STOOD, play_coup
from exact_odds.commands.deal import document
from exact_odds.output.render import render
from exact_odds.studies.dealing import deal
from exact_odds.engine.enumerator import enumerate_coups
from exact_odds.errors import InputError
from exact_odds.core.features import NOT_DEALT
from exact_odds.core.policy import Policy, choices, resolve
from exact_odds.core.rules import (BACCARAT_GOLD, CHEMIN_DE_FER_A, CHEMIN_DE_FER_B2, CHEMIN_DE_FER_B3, PUNTO_BANCO, DrawRules,
                              compositions)
from exact_odds.core.shoe import Shoe

ERROR_PREFIX = "baccarat-odds: error: "
OUTCOMES = ("banker", "player", "tie")
EVERY_CHOICE = DrawRules("every choice", frozenset({8, 9}), tuple("CCCCCCCC--"), tuple("CCCCCCCC--"),
                         CHEMIN_DE_FER_A.banker_tableau, player_sees="cards")
"""Both hands choose wherever they may: a mixed choice behind the coup is then common."""
RULE_SETS = st.sampled_from([BACCARAT_GOLD, CHEMIN_DE_FER_A, CHEMIN_DE_FER_B2, CHEMIN_DE_FER_B3] + [EVERY_CHOICE] * 3)
PROBABILITIES = [Fraction(0), Fraction(1), Fraction(1, 2), Fraction(1, 3), Fraction(2, 3), Fraction(1, 4)]


def assert_refused(result: tuple[int, str, str], *fragments: str) -> None:
    code, out, err = result
    assert code == 2 and out == "" and err.startswith(ERROR_PREFIX) and len(err.strip().splitlines()) == 1, (code, out, err)
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err, err


# --- the independent walk --------------------------------------------------------------------


Chosen = dict[tuple[str, object, int | None], Fraction]
"""A policy as plain Fractions: (side, what the hand sees, player's third card or None) -> P(draw)."""


def draw_options(rules: DrawRules, chosen: Chosen, side: str, cards: tuple[int, int], third: int | None) -> list[tuple[bool, Fraction]]:
    """(draws?, probability) for each way the hand may go, from the tableau and the policy."""
    total = sum(cards) % 10
    mark = rules.mark(side, total, third)
    if mark == "D":
        probability = Fraction(1)
    elif mark == "S":
        probability = Fraction(0)
    else:
        sees = rules.player_sees if side == "player" else rules.banker_sees
        probability = chosen[(side, tuple(sorted(cards)) if sees == "cards" else total, third)]
    return [(draw, weight) for draw, weight in ((True, probability), (False, 1 - probability)) if weight]


def winner(player: int, banker: int) -> str:
    return "banker" if banker > player else "player" if player > banker else "tie"


def branches(rules: DrawRules, chosen: Chosen, values: tuple[int, ...]) -> list[tuple[Fraction, str, tuple]]:
    """Every way the coup dealt from ``values`` (six point values, shoe order) goes: (probability,
    winner, events), events being ("deal", slot, value) and ("stand", slot) in the order they happen."""
    player, banker = [values[0], values[2]], [values[1], values[3]]
    events: tuple = tuple(("deal", slot, values[slot]) for slot in range(4))
    if sum(player) % 10 in rules.naturals or sum(banker) % 10 in rules.naturals:
        return [(Fraction(1), winner(sum(player) % 10, sum(banker) % 10), events)]
    found = []
    for player_draws, player_weight in draw_options(rules, chosen, "player", (values[0], values[2]), None):
        third = values[4] if player_draws else None
        after_player = events + ((("deal", 4, third),) if player_draws else (("stand", 4),))
        position = 5 if player_draws else 4
        for banker_draws, banker_weight in draw_options(rules, chosen, "banker", (values[1], values[3]), third):
            player_total = (sum(player) + (third or 0)) % 10
            banker_third = values[position] if banker_draws else 0
            banker_total = (sum(banker) + banker_third) % 10
            done = after_player + ((("deal", 5, banker_third),) if banker_draws else (("stand", 5),))
            found.append((player_weight * banker_weight, winner(player_total, banker_total), done))
    return found


def brute_force(rules: DrawRules, chosen: Chosen, shoe_values: list[int], events: tuple) -> dict[str, Fraction]:
    """P(outcome) given the coup's first ``events`` (the cards seen, in shoe order, and the decisions
    taken), over every ordering of the rest of the shoe."""
    seen = [event[2] for event in events if event[0] == "deal"]
    rest = list(shoe_values)
    for value in seen:
        rest.remove(value)
    walk = lru_cache(maxsize=None)(lambda values: branches(rules, chosen, values))
    mass: Counter = Counter()
    for completion in permutations(rest, 6 - len(seen)):
        for probability, outcome, coup_events in walk(tuple(seen) + completion):
            if coup_events[: len(events)] == events:
                mass[outcome] += probability
    everything = sum(mass.values())
    return {outcome: mass[outcome] / everything for outcome in OUTCOMES}


# --- drawn cases -----------------------------------------------------------------------------


def random_policy(rules: DrawRules, rng: random.Random) -> tuple[Policy, Chosen]:
    """A policy naming every option point with a random probability, and the same as plain Fractions."""
    drawn = [(point, rng.choice(PROBABILITIES)) for point in rules.option_points()]
    chosen = {(point.side, point.cards if point.cards is not None else point.total, point.third): probability for point, probability in drawn}
    return Policy(tuple((point.name, probability) for point, probability in drawn)), chosen


shoe_ranks = st.lists(st.sampled_from(RANKS), min_size=7, max_size=10)


def shoe_of(ranks: list[str]) -> Shoe:
    return Shoe(tuple(ranks.count(rank) for rank in RANKS), None, "drawn")


def value(rank: str) -> int:
    return POINT_VALUES[RANKS.index(rank)]


def table_rows(text: str, header: str) -> dict[str, list[str]]:
    """The rows of the table of ``text`` whose header starts with ``header``, by first cell."""
    lines = text.splitlines()
    start = next(index for index, line in enumerate(lines) if line.startswith(header))
    rows = {}
    for line in lines[start + 2 :]:
        if not line.strip():
            break
        cells = re.split(r"\s{2,}", line.strip())
        rows[cells[0]] = cells
    return rows


@settings(max_examples=30, deadline=None)
@given(RULE_SETS, shoe_ranks, st.randoms(use_true_random=False), st.integers(0, 4).map(lambda fewer: 5 - fewer))
def test_deal_mid_coup_equals_brute_force(rules, ranks, rng, length):
    """What `deal` prints mid-coup (the odds and the main bets' expectations) under a random mixed
    policy, for the longest start of a random order of the shoe that is a coup in progress."""
    policy, chosen = random_policy(rules, rng)
    decisions = resolve(rules, policy)
    order = list(ranks)
    rng.shuffle(order)
    for length in range(length, 0, -1):
        cards = tuple(Card(rank) for rank in order[:length])
        try:
            if not play_coup(cards, decisions).complete:
                break
        except InputError:  # a card after a mixed choice: whose card it is is not known
            continue
    shoe = shoe_of(ranks)
    bets = list(main_bets(rules).values())
    text = render(document(deal(cards, shoe, bets, decisions), Fraction(100)), "text")
    printed = {name: Fraction(row[2]) for name, row in table_rows(text, "outcome").items()}
    event(f"{len(cards)} cards seen, {'mixed' if 'may draw or stand' in text else 'no mixed'} choice at hand")
    events = tuple(("deal", slot, card.value) for slot, card in zip(range(4), cards))
    if len(cards) == 5:  # a card after the player's decision, which is pure: it says whose card it is
        [(player_draws, _)] = draw_options(rules, chosen, "player", (cards[0].value, cards[2].value), None)
        events += (("deal", 4, cards[4].value),) if player_draws else (("stand", 4), ("deal", 5, cards[4].value))
    expected = brute_force(rules, chosen, [value(rank) for rank in ranks], events)
    assert printed == expected
    assert sum(printed.values()) == 1
    banker_pays = 1 - rules.commission / 100
    expectations = {
        "banker": expected["banker"] * banker_pays - expected["player"],
        "player": expected["player"] - expected["banker"],
        "tie": expected["tie"] * rules.tie_pays - expected["banker"] - expected["player"],
    }
    assert {name: Fraction(row[1]) for name, row in table_rows(text, "bet").items()} == expectations


@settings(max_examples=30, deadline=None)
@given(RULE_SETS, shoe_ranks, st.randoms(use_true_random=False), st.data())
def test_completions_given_the_decisions_behind_equal_brute_force(rules, ranks, rng, data):
    """The library below `deal`: a coup in progress whose hand records the player's decision, mixed
    ones too (a player who drew, or stood, under a mixed choice), is completed with the banker's
    decision ahead weighted and the player's given. (The banker's decision ends the coup, so it is
    never behind one in progress.)"""
    policy, chosen = random_policy(rules, rng)
    order = list(ranks)
    rng.shuffle(order)
    ways = branches(rules, chosen, tuple(value(rank) for rank in order[:6]))
    _, _, events = ways[data.draw(st.integers(0, len(ways) - 1))]
    assume(len(events) == 6)  # no natural: the player decides
    events = events[:5]
    hand = [NOT_DEALT] * 6
    for happened in events:
        hand[happened[1]] = happened[2] if happened[0] == "deal" else STOOD
    mixed = len(draw_options(rules, chosen, "player", (hand[0], hand[2]), None)) == 2
    event(f"the player {'drew' if hand[4] >= 0 else 'stood'}, {'a mixed' if mixed else 'a pure'} choice")
    seen = order[: sum(happened[0] == "deal" for happened in events)]
    remaining = shoe_of(ranks).remove(tuple(Card(rank) for rank in seen))
    distribution = enumerate_coups(remaining, resolve(rules, policy), hand=tuple(hand))
    counts = distribution.outcome_counts()
    assert sum(counts.values()) == distribution.total
    found = {name: Fraction(counts[name], distribution.total) for name in OUTCOMES}
    assert found == brute_force(rules, chosen, [value(rank) for rank in ranks], events)


def test_a_mixed_choice_behind_is_given():
    """Baccarat Gold, the player drawing on 5 with probability 1/3: player 2+3 drew a 9 (total 4),
    banker 3+K = 3 draws against it. Of the 47 cards left, a 2-6 (3+2+4+4+4) wins for the banker,
    an ace (4) ties: the player's 1/3 is behind the coup and given, not a factor of the odds."""
    decisions = resolve(BACCARAT_GOLD, Policy.parse("player_on_5=1/3"))
    left = Shoe.decks(1).remove(tuple(Card(rank) for rank in "233K9"))
    distribution = enumerate_coups(left, decisions, hand=(2, 3, 3, 0, 9, NOT_DEALT))
    counts = distribution.outcome_counts()
    assert {name: Fraction(counts[name], distribution.total) for name in OUTCOMES} == {
        "banker": Fraction(17, 47), "player": Fraction(26, 47), "tie": Fraction(4, 47)}


def test_a_hand_the_policy_cannot_reach_is_refused():
    """Player 2+3 = 5 stood, but the policy has him always draw on 5: no such coup to complete."""
    decisions = resolve(BACCARAT_GOLD, Policy.parse("player_on_5=draw"))
    hand = (2, 3, 3, 0, STOOD, NOT_DEALT)
    with pytest.raises(InputError, match="not a coup that Baccarat Gold can deal under this policy"):
        enumerate_coups(Shoe.decks(1).remove(tuple(Card(rank) for rank in "233K")), decisions, hand=hand)


# --- the cases of the issue, through the command ---------------------------------------------


def printed_odds(out: str) -> dict[str, Fraction]:
    return {name: Fraction(row[2]) for name, row in table_rows(out, "outcome").items()}


def test_gold_deal_after_a_stand_sums_to_one(run):
    """Player 6+K = 6 stands, banker 9+5 = 4 draws from the 48 cards left: the banker wins on a 3,
    4 or 5 (4 + 4 + 3 of them, one 5 seen), ties on a 2 (4 of them). Was 11/144, 11/48, 1/36 (sum 1/3)."""
    code, out, _ = run("deal", "6", "9", "K", "5", "--decks", "1", "--rules", "baccarat_gold", "--policy", "player_on_5=1/3")
    assert code == 0
    assert printed_odds(out) == {"banker": Fraction(11, 48), "player": Fraction(1 - Fraction(15, 48)), "tie": Fraction(4, 48)}


def test_chemin_optimal_deal_is_normalised(run):
    """Chemin de fer A, one deck, optimal play: player A+A = 2 draws a 9 (total 1), banker A+A = 2
    draws. Of the 47 cards left (no aces), an 8 (4 left) gives the banker 0 and a 9 (3 left) ties at
    1; every other card wins for him: 40/47. Was 5/894308894023."""
    code, out, _ = run("deal", "A", "A", "A", "A", "9", "--decks", "1", "--rules", "chemin_de_fer_a", "--policy", "optimal")
    assert code == 0 and "banker draws on 2 against a player third card of 9" in out
    left = Counter({point: 4 for point in range(1, 10)} | {0: 16})
    left.subtract({1: 4, 9: 1})
    banker_totals = Counter()
    for point, count in left.items():
        banker_totals[winner(1, (2 + point) % 10)] += count
    assert printed_odds(out) == {name: Fraction(banker_totals[name], 47) for name in OUTCOMES}
    assert printed_odds(out)["banker"] == Fraction(40, 47)


# --- a settled coup pays the row's net -------------------------------------------------------

PARTIAL = """
[[bet]]
name = "half_back"
description = "Player pays 1 to 1; a banker win loses half the stake; a tie returns 1 for 2"
pays = [
  { when = "winner == player", pays = "1", event = "player wins" },
  { when = "winner == banker", pays = "lose 1/2", event = "banker wins" },
  { when = "winner == tie", pays = "1 for 2", event = "tie" },
]
"""


@pytest.mark.parametrize("cards,result", [
    (["9S", "5D", "9H", "4C"], "loses 50"),   # banker 9 beats player 8: "lose 1/2" loses half of 100
    (["9S", "5D", "9H", "3C"], "loses 50"),   # 8 and 8 tie: "1 for 2" returns 50 of 100, a net of -50
    (["9S", "5D", "9H", "2C"], "wins 100"),
])
def test_a_settled_coup_pays_the_rows_net(run, tmp_path, cards, result):
    path = tmp_path / "bets.toml"
    path.write_text(PARTIAL)
    code, out, _ = run("deal", *cards, "--bets-file", str(path), "--bets", "half_back", "--stake", "100")
    assert code == 0
    [row] = [line for line in out.splitlines() if line.startswith("half_back")]
    assert re.split(r"\s{2,}", row.strip()) == ["half_back", "100", result]


# --- one choice per option point -------------------------------------------------------------


@pytest.mark.parametrize("rules,policy,fragments", [
    ("chemin_de_fer_b3", "player_on_5=draw,player_on_1+4=stand", ["player_on_5 and player_on_1+4 both name player_on_1+4"]),
    ("chemin_de_fer_b3", "player_on_1+4=stand,player_on_5=draw", ["player_on_1+4 and player_on_5 both name player_on_1+4"]),
    ("chemin_de_fer_b3", "player_on_4+1=draw,player_on_1+4=stand", ["player_on_4+1 and player_on_1+4 both name player_on_1+4"]),
    ("chemin_de_fer_b2", "banker_on_3_vs_stood=draw,banker_on_2+1_vs_stood=stand", ["banker_on_3_vs_stood and banker_on_2+1_vs_stood"]),
    ("baccarat_gold", "player_on_5=draw,player_on_5=stand", ["names player_on_5 twice"]),
    ("baccarat_gold", "punto_banco,optimal", ["two bases, punto_banco and optimal"]),
    ("baccarat_gold", "punto_banco,punto_banco", ["two bases"]),
    ("chemin_de_fer_b2", "optimal,banker_on_3_vs_stood=draw,banker_on_2+1_vs_stood=stand", ["both name banker_on_1+2_vs_stood"]),
])
def test_a_point_named_twice_is_refused(run, rules, policy, fragments):
    assert_refused(run("--rules", rules, "--decks", "1", "--policy", policy), *fragments)


def test_punto_banco_base_with_an_entry_is_the_same_in_either_order(run):
    """Chemin de fer A played as the Punto Banco tableau except that the banker draws on 6 when the
    player stood: the same as every option point named by hand, whatever the order of the entries."""
    points = CHEMIN_DE_FER_A.option_points()
    by_hand = []
    for point in points:
        mark = "D" if point.name == "banker_on_6_vs_stood" else PUNTO_BANCO.mark(point.side, point.total, point.third)
        by_hand.append(f"{point.name}={'draw' if mark == 'D' else 'stand'}")
    plain = run("--rules", "chemin_de_fer_a", "--decks", "1", "--format", "json", "--policy", ",".join(by_hand))
    first = run("--rules", "chemin_de_fer_a", "--decks", "1", "--format", "json", "--policy", "punto_banco,banker_on_6_vs_stood=draw")
    second = run("--rules", "chemin_de_fer_a", "--decks", "1", "--format", "json", "--policy", "banker_on_6_vs_stood=draw", "--policy", "punto_banco")
    assert plain[0] == first[0] == second[0] == 0
    answers = [{key: item for key, item in json.loads(result[1]).items() if key != "policy"} for result in (plain, first, second)]
    assert answers[0] == answers[1] == answers[2]
    decisions = resolve(CHEMIN_DE_FER_A, Policy.parse("banker_on_6_vs_stood=draw,punto_banco"))
    assert decisions.banker_weight(3, 3, None) == decisions.scale and decisions.banker_weight(3, 4, None) == 0


def test_optimal_with_a_total_key_where_the_banker_sees_cards():
    """Model B2: the banker sees his cards, so the solution names banker_on_0+3_vs_stood, ...; a
    total key banker_on_3_vs_stood overrides every composition of 3 (it was silently lost under
    the solution's cards keys), in either order, and every other point is the solution's."""
    shoe = Shoe.decks(1)
    solved = choices(CHEMIN_DE_FER_B2, optimal_policy(solve("B2", shoe, Fraction(5, 100))))
    for policy in (("optimal,banker_on_3_vs_stood=stand",), ("banker_on_3_vs_stood=stand", "optimal")):
        decisions = Setup(rules=CHEMIN_DE_FER_B2, policy=",".join(policy)).decisions(shoe)
        made = choices(CHEMIN_DE_FER_B2, decisions.policy)
        threes = {point for point in made if point.side == "banker" and point.total == 3 and point.third is None}
        assert {point.cards for point in threes} == set(compositions(3))
        assert all(made[point] == 0 for point in threes)
        assert {point: made[point] for point in made if point not in threes} == {point: solved[point] for point in solved if point not in threes}


# --- rules --policy ---------------------------------------------------------------------------


def test_rules_refuses_a_bad_policy_and_shows_a_good_one(run):
    assert_refused(run("rules", "--policy", "nonsense_key=draw"), "--policy key 'nonsense_key'")
    assert_refused(run("rules", "--policy", "player_on_5=draw"), "not a choice under Punto Banco")
    assert_refused(run("rules", "--policy", "punto_banco"), "Punto Banco has no option point")
    assert_refused(run("rules", "--rules", "baccarat_gold", "--policy", "player_on_5=1/3", "--format", "toml"), "no part of a rules file")
    assert_refused(run("rules", "--rules", "chemin_de_fer_a", "--policy", "optimal"), "solved for a shoe")
    code, out, _ = run("rules", "--rules", "baccarat_gold", "--policy", "player_on_5=1/3")
    plain = run("rules", "--rules", "baccarat_gold")
    assert code == 0 and out == plain[1] + "\nChoices of --policy player_on_5=1/3:\nplayer_on_5=1/3\n"
    code, out, _ = run("rules", "--rules", "chemin_de_fer_b3", "--policy", "punto_banco,player_on_5=stand")
    lines = out.split("Choices of --policy punto_banco,player_on_5=stand:\n")[1].splitlines()
    assert code == 0 and len(lines) == len(CHEMIN_DE_FER_B3.option_points())
    assert [line for line in lines if line.startswith("player_on_")] == [f"player_on_{low}+{high}=stand" for low, high in compositions(5)]
    assert "banker_on_1+5_vs_stood=stand" in lines and "banker_on_2+3_vs_stood=draw" in lines
