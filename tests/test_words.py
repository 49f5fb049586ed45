"""Conditions in words: every catalog condition renders, and each sentence means its condition.

The reader's check: the sentence alone is read back into the condition language by a small reader
written here, from the words' own vocabulary spelled independently (hand-written phrases, not the
module's tables), and the condition read back parses to the very tree of the original.
"""

import re

import pytest

from exact_odds.bets.bets import catalog
from exact_odds.bets.conditions import parse_condition
from exact_odds.bets.words import described, in_words

SIDES = {"player": "player", "banker": "banker"}
ORDINALS = {"first": "1", "second": "2", "third": "3"}
NUMBERS = {
    "the player's final total": "player_total", "the banker's final total": "banker_total",
    "the player's two-card total": "player_two_card_total", "the banker's two-card total": "banker_two_card_total",
    "the player's third-card value": "player_third_card", "the banker's third-card value": "banker_third_card",
    "the player's third-card value (-1 when the player stands on two cards)": "player_third_card",
    "the banker's third-card value (-1 when the banker stands on two cards)": "banker_third_card",
    "the number of cards in the player's hand": "player_cards", "the number of cards in the banker's hand": "banker_cards",
    "the number of cards dealt": "total_cards", "the difference between the final totals": "margin",
}
RELATION = {"is": "==", "is not": "!=", "is less than": "<", "is at most": "<=", "is greater than": ">", "is at least": ">=", "is one of": "in"}
BETWEEN = {"is equal to": "==", "is not equal to": "!=", "is less than": "<", "is at most": "<=", "is greater than": ">", "is at least": ">="}
HOW_MANY = {"exactly": "==", "fewer than": "<", "at most": "<=", "more than": ">", "at least": ">="}
SCOPE = {"the cards dealt": "count", "the player's cards": "player_count", "the banker's cards": "banker_count"}
WHOLE = {"count": "total_cards", "player_count": "player_cards", "banker_count": "banker_cards"}
TRUTHS = {"the player has a natural": "player_natural", "the player has no natural": "not player_natural",
          "the banker has a natural": "banker_natural", "the banker has no natural": "not banker_natural",
          "either hand has a natural": "natural", "neither hand has a natural": "not natural",
          "the banker wins": "winner == banker", "the player wins": "winner == player", "the coup is a tie": "winner == tie",
          "the banker does not win": "winner != banker", "the player does not win": "winner != player", "the coup is not a tie": "winner != tie",
          "the player stands on two cards": "player_third_card == -1", "the banker stands on two cards": "banker_third_card == -1",
          "the player draws a third card": "player_third_card != -1", "the banker draws a third card": "banker_third_card != -1"}
RANKS = {"an ace": "A", "a ten": "T", "a jack": "J", "a queen": "Q", "a king": "K", **{f"a {digit}": str(digit) for digit in (2, 3, 4, 5, 6, 7, 9)}, "an 8": "8"}
SUITS = {"a spade": "S", "a heart": "H", "a diamond": "D", "a club": "C"}
PLURAL = {"aces": "A", "tens": "T", "jacks": "J", "queens": "Q", "kings": "K", **{f"{digit}s": str(digit) for digit in range(2, 10)},
          "spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C", "red": "red", "black": "black"}
SLOT = r"the (player|banker)'s (first|second|third) card"


def slot(side: str, ordinal: str) -> str:
    return f"{SIDES[side]}_card{ORDINALS[ordinal]}"


def listed(values: list[str]) -> str:
    return "[" + ", ".join(values) + "]"


def split_top(text: str, word: str) -> list[str]:
    """``text`` split at ``word`` outside parentheses."""
    parts, depth, start, index = [], 0, 0, 0
    while index < len(text):
        depth += {"(": 1, ")": -1}.get(text[index], 0)
        if depth == 0 and text.startswith(word, index):
            parts.append(text[start:index])
            start = index = index + len(word)
            continue
        index += 1
    return parts + [text[start:]]


def wrapped(text: str) -> bool:
    """Whether ``text`` is one parenthesised part (its first parenthesis closes at its end)."""
    depth = 0
    for index, character in enumerate(text):
        depth += {"(": 1, ")": -1}.get(character, 0)
        if depth == 0:
            return character == ")" and index == len(text) - 1
    return False


def read(text: str) -> str:
    """A sentence read back into the condition language."""
    for word in (" or ", " and "):
        parts = split_top(text, word)
        if len(parts) > 1:
            return f" {word.strip()} ".join(f"({read(part[1:-1])})" if wrapped(part) else read(part) for part in parts)
    return leaf(text)


def literal(words: str) -> tuple[str, str]:
    """A literal in words: its attribute and its spelling."""
    if words in RANKS:
        return "rank", RANKS[words]
    if words in SUITS:
        return "suit", SUITS[words]
    assert words in ("red", "black"), words
    return "color", words


def card_predicate(text: str) -> str:
    """A count's plural predicate read back."""
    if wrapped(text):
        return read_predicate(text[1:-1])
    if match := re.fullmatch(r"have a value that (is|is not|is less than|is at most|is greater than|is at least|is one of) ([0-9, ]+)", text):
        values = match.group(2)
        return f"card_value {RELATION[match.group(1)]} {f'[{values}]' if match.group(1) == 'is one of' else values}"
    verb, _, rest = text.partition(" ")
    negated = rest.startswith("not ")
    rest = rest.removeprefix("not ").removeprefix("one of ")
    values = [PLURAL[word] for word in rest.split(", ")]
    attribute = "color" if values[0] in ("red", "black") else "suit" if values[0] in "SHDC" else "rank"
    assert verb == "are"
    operator = "in" if len(values) > 1 else "!=" if negated else "=="
    return f"card_{attribute} {operator} {listed(values) if operator == 'in' else values[0]}"


def read_predicate(text: str) -> str:
    for word in (" or ", " and "):
        parts = split_top(text, word)
        if len(parts) > 1:
            return f" {word.strip()} ".join(card_predicate(part) for part in parts)
    return card_predicate(text)


def leaf(text: str) -> str:
    if text in TRUTHS:
        return TRUTHS[text]
    if match := re.fullmatch(rf"{SLOT}(, if dealt,)? (is not|is one of|is) (.+)", text):
        side, ordinal, _, relation, values = match.groups()
        read_values = [literal(value) for value in values.split(", ")]
        name = f"{slot(side, ordinal)}_{read_values[0][0]}"
        spelled = [value for _, value in read_values]
        return f"{name} {RELATION[relation]} {listed(spelled) if relation == 'is one of' else spelled[0]}"
    if match := re.fullmatch(rf"{SLOT} has (the same|a different) (rank|suit|value|colour) (?:as|from) {SLOT}( \(or one of them is not dealt\))?", text):
        side, ordinal, same, attribute, other_side, other_ordinal, _ = match.groups()
        attribute = "color" if attribute == "colour" else attribute
        operator = "==" if same == "the same" else "!="
        return f"{slot(side, ordinal)}_{attribute} {operator} {slot(other_side, other_ordinal)}_{attribute}"
    if match := re.fullmatch(rf"the (value|rank|suit|colour) of {SLOT}(, if dealt,)? ({'|'.join(sorted(RELATION, key=len, reverse=True))}) (.+)", text):
        attribute, side, ordinal, _, relation, values = match.groups()
        return f"{slot(side, ordinal)}_{attribute} {RELATION[relation]} {f'[{values}]' if relation == 'is one of' else values}"
    if match := re.fullmatch(rf"({'|'.join(HOW_MANY)}) ([0-9]+) of ({'|'.join(SCOPE)}) (.+)", text):
        how, number, scope, predicate = match.groups()
        return f"{SCOPE[scope]}({read_predicate(predicate[1:-1]) if wrapped(predicate) else card_predicate(predicate)}) {HOW_MANY[how]} {number}"
    if match := re.fullmatch(rf"all of ({'|'.join(SCOPE)}) (.+)", text):
        scope, predicate = match.groups()
        return f"{SCOPE[scope]}({card_predicate(predicate)}) == {WHOLE[SCOPE[scope]]}"
    for subject, name in sorted(NUMBERS.items(), key=lambda item: -len(item[0])):
        for relation, operator in BETWEEN.items():
            if text.startswith(f"{subject} {relation} "):
                other = text[len(subject) + len(relation) + 2 :]
                return f"{name} {operator} {NUMBERS.get(other, other)}"
        for relation in sorted(RELATION, key=len, reverse=True):
            if text.startswith(f"{subject} {relation} "):
                values = text[len(subject) + len(relation) + 2 :]
                return f"{name} {RELATION[relation]} {f'[{values}]' if relation == 'is one of' else values}"
    raise AssertionError(f"cannot read {text!r}")


CATALOG = sorted({row.condition.text for bet in catalog().values() for row in bet.rows})
CONSTRUCTS = [
    "winner != tie", "not player_natural and banker_natural", "player_total >= 5 and banker_total < 3", "margin <= 2 or margin > 7",
    "player_third_card in [1, 2, 3]", "banker_third_card == -1", "player_third_card != -1", "player_third_card < 4",
    "player_third_card in [-1, 0]", "player_total == banker_total", "player_cards != banker_cards", "player_third_card > banker_third_card",
    "banker_card3_rank != K", "player_card1_rank in [A, 8, T]", "banker_card2_suit in [S, C]", "player_card3_color == red",
    "player_card2_value >= 5", "player_card1_suit != banker_card1_suit", "player_card3_color != banker_card3_color",
    "count(card_rank == 9) >= 2", "banker_count(card_suit == H) == 3", "player_count(card_color == black) == player_cards",
    "count(card_value in [0, 9]) < 3", "count(card_color == red and card_rank in [J, Q, K]) == 2",
    "winner == banker and (banker_natural or (player_total == 0 and banker_total == 1))",
]


@pytest.mark.parametrize("text", CATALOG + CONSTRUCTS)
def test_the_sentence_reads_back_as_its_condition(text):
    condition = parse_condition(text)
    words = in_words(condition)
    assert not re.search(r"==|!=|\w_\w|\[", words), words  # plain words, no condition syntax
    assert parse_condition(read(words)).tree == condition.tree, (words, read(words))


def test_every_catalog_condition_renders():
    rows = [row for bet in catalog().values() for row in bet.rows]
    assert len(rows) > 90 and all(in_words(row.condition) for row in rows)


@pytest.mark.parametrize("text,words", [  # checked by hand against the language's documentation
    ("(player_card1_value + player_card2_value) % 10 == 9",
     "(the value of the player's first card plus the value of the player's second card) modulo 10 is 9"),
    ("player_total > banker_total", "the player's final total is greater than the banker's final total"),
    ("player_card3_value != banker_card3_value",
     "the player's third card has a different value from the banker's third card (or one of them is not dealt)"),
    ("player_card1_value + 1 != player_card3_value", 
     "the value of the player's first card plus 1 is not equal to the value of the player's third card (or a third card it reads is not dealt)"),
    ("not (winner == tie or natural)", "it is not the case that (the coup is a tie or either hand has a natural)"),
    ("player_natural == false", "the player has no natural"),
    ("true", "it always holds"),
    ("count(not card_color == red) == 1", "exactly 1 of the cards dealt are not cards that are red"),
    ("count(card_value * 2 > 9) >= 1", "at least 1 of the cards dealt are cards for which its value times 2 is greater than 9"),
    ("count(card_rank == K) != 1", "the number of the cards dealt that are kings is not 1"),
])
def test_what_the_reader_cannot_read_back_is_said_as_written_here(text, words):
    assert in_words(parse_condition(text)) == words


def test_the_bets_command_lists_each_condition_in_words():
    bets = {name: catalog()[name] for name in ("dragon_7", "tie")}
    assert described(bets) == (
        "dragon_7: Dragon 7 (EZ Baccarat): banker wins with a three-card 7, pays 40 to 1\n"
        "           40  banker wins with a three-card 7   [winner == banker and banker_cards == 3 and banker_total == 7]\n"
        "               when the banker wins and the number of cards in the banker's hand is 3 and the banker's final total is 7\n"
        "         lose  any other result\n"
        "tie: Tie: pays 8 to 1\n"
        "            8  tie   [winner == tie]\n"
        "               when the coup is a tie\n"
        "         lose  any other result\n")
