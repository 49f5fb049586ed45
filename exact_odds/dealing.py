"""The `deal` command's report: one coup by hand, or the odds mid-coup from the cards seen so far."""

from fractions import Fraction

import numpy as np
from tabulate import tabulate

from .analysis import return_table
from .bets import Bet, select_bets
from .cards import SUITS, Card
from .coup import play_coup
from .distribution import OUTCOMES, card_columns, coup_columns
from .enumerator import CARD, SLOTS, enumerate_coups
from .errors import InputError
from .report import fixed
from .shoe import Shoe


def coup_features(player: tuple[Card, ...], banker: tuple[Card, ...]) -> dict[str, np.ndarray]:
    """The feature columns (one row) of a settled coup, for settling bets on it."""
    two = [sum(card.value for card in hand[:2]) % 10 for hand in (player, banker)]
    third = [hand[2].value if len(hand) == 3 else -1 for hand in (player, banker)]
    columns = coup_columns([two[0]], [two[1]], [third[0]], [third[1]])
    hands = {"player": player, "banker": banker}
    for slot in SLOTS:
        side, position = slot.split("_card")
        hand = hands[side]
        card = hand[int(position) - 1] if int(position) <= len(hand) else None
        label = -1 if card is None else (card.rank_index * 4 + SUITS.index(card.suit) if card.suit else card.rank_index)
        level = CARD if card is not None and card.suit else 1
        columns.update(card_columns(slot, level, [label]))
    return columns


def settle(bet: Bet, columns: dict[str, np.ndarray]) -> Fraction:
    """Net win per unit staked of ``bet`` on the one coup in ``columns``."""
    for row in bet.rows:
        try:
            if row.condition(columns)[0]:
                return row.pays.net
        except KeyError as missing:
            raise InputError(f"bet {bet.name!r} reads {missing.args[0]}, which the cards given do not show (give suits, e.g. 9h)") from None
    return Fraction(-1)


def money(amount: Fraction) -> str:
    return str(amount.numerator) if amount.denominator == 1 else fixed(amount, 2)


def deal_report(cards: tuple[Card, ...], shoe: Shoe, bets: dict[str, Bet], bet_names: str | None, stake: Fraction) -> str:
    chosen, _ = select_bets(bets, bet_names, suits_known=True)
    coup = play_coup(cards)
    lines = list(coup.steps)
    if coup.complete:
        if len(cards) > coup.cards_used:
            extra = " ".join(str(card) for card in cards[coup.cards_used :])
            raise InputError(f"the coup is settled after {coup.cards_used} cards; left over: {extra}")
        lines.append(f"player {coup.player_total}, banker {coup.banker_total}: {'tie' if coup.winner == 'tie' else coup.winner + ' wins'}")
        columns = coup_features(coup.player, coup.banker)
        rows = []
        for bet in chosen:
            net = settle(bet, columns)
            result = "push" if net == 0 else (f"wins {money(stake * net)}" if net > 0 else f"loses {money(stake)}")
            rows.append([bet.name, money(stake), result])
        return "\n".join(lines) + "\n\n" + tabulate(rows, ["bet", "stake", "result"], tablefmt="simple", disable_numparse=True) + "\n"
    remaining = shoe if shoe.with_replacement else shoe.remove(cards)
    distribution = enumerate_coups(remaining, dealt=tuple(card.value for card in cards))
    counts = distribution.outcome_counts()
    seen = " ".join(map(str, cards)) or "none"
    source = str(shoe) if shoe.with_replacement else f"{shoe} less those cards ({remaining.size} left)"
    lines.append(f"cards seen: {seen}; drawing from {source}")
    rows = [[name, f"{counts[name]:,}", str(Fraction(counts[name], distribution.total)), fixed(Fraction(counts[name], distribution.total), 10)] for name in OUTCOMES]
    table = tabulate(rows, ["outcome", f"ways (ordered {distribution.cards}-card completions)", "probability", "decimal"], tablefmt="simple", disable_numparse=True)
    coup_bets = [bet for bet in chosen if bet.needs_coup and not bet.card_slots]
    values = [(bet.name, return_table(bet, distribution).expected_value) for bet in coup_bets]
    expectations = [[name, str(value), fixed(value, 6)] for name, value in values]
    expectation_table = tabulate(expectations, ["bet", "expected value now", "decimal"], tablefmt="simple", disable_numparse=True)
    return "\n".join(lines) + "\n\n" + table + "\n\n" + expectation_table + "\n"
