"""The `deal` command's report: one coup by hand, or the odds mid-coup from the cards seen so far."""

from fractions import Fraction

from ..engine.analysis import return_table
from ..bets.bets import Bet
from ..core.cards import SUITS, Card
from ..core.coup import Coup, coup_key, play_coup
from ..engine.enumerator import enumerate_coups
from ..errors import InputError
from ..bets.conditions import MissingDetail, parse_condition
from ..core.numbers import fixed, money
from ..core.features import LATE_POSITIONS, OUTCOMES, SLOTS, Columns, Granularity, card_columns, coup_columns
from ..output.grid import grid
from ..core.policy import Decisions
from ..core.shoe import Shoe


def coup_features(coup: Coup, decisions: Decisions) -> Columns:
    """The feature columns (one row) of a settled coup, for settling bets on it (the fifth and
    sixth cards of the sequence only where the coup dealt them: a bet that reads one it did not
    deal cannot be settled)."""
    player_two, banker_two, player_third, banker_third = coup_key(coup.hand)
    columns = coup_columns([player_two], [banker_two], [player_third], [banker_third], decisions.rules.naturals)
    cards = {"player": coup.player, "banker": coup.banker}
    third = [hand[2] for hand in (coup.player, coup.banker) if len(hand) == 3]  # cards 5 and 6, as far as dealt
    held: dict[str, Card | None] = {position: card for position, card in zip(LATE_POSITIONS, third)}
    for slot in SLOTS:
        side, position = slot.split("_card")
        hand_cards = cards[side]
        held[slot] = hand_cards[int(position) - 1] if int(position) <= len(hand_cards) else None
    for key, card in held.items():
        level = Granularity.CARD if card is None or card.suit is not None else Granularity.RANK
        label = -1 if card is None else (card.rank_index * 4 + SUITS.index(card.suit) if card.suit else card.rank_index)
        columns.levels[key] = level
        columns.update(card_columns(key, level, [label]))
    return columns


def settle(bet: Bet, columns: Columns) -> Fraction:
    """Net win per unit staked of ``bet`` on the one coup in ``columns``."""
    try:
        line = int(bet.settle(columns)[0])
    except MissingDetail as missing:
        raise InputError(f"bet {bet.name!r}: {missing}") from None
    return bet.payouts[line].net


def deal_report(cards: tuple[Card, ...], shoe: Shoe, bets: list[Bet], decisions: Decisions, stake: Fraction, given: str | None = None) -> str:
    """Play the coup the cards make; settle every bet on it, or give the odds of its completion
    (given a condition on the coup's features, when one is given)."""
    remaining = shoe if shoe.with_replacement else shoe.remove(cards)
    coup = play_coup(cards, decisions)
    lines = list(coup.steps)
    condition = parse_condition(given) if given is not None else None
    if condition is not None and condition.slots:
        raise InputError(f"given on a coup in progress reads the coup's features, not card slots ({', '.join(sorted(condition.slots))}): {given}",
                         parameter="given")
    if coup.complete and condition is not None:
        raise InputError("given needs a coup in progress: these cards settle it", parameter="given")
    if coup.complete:
        if len(cards) > coup.cards_used:
            extra = " ".join(str(card) for card in cards[coup.cards_used :])
            raise InputError(f"the coup is settled after {coup.cards_used} cards; left over: {extra}")
        lines.append(f"player {coup.player_total}, banker {coup.banker_total}: {'tie' if coup.winner == 'tie' else f'{coup.winner} wins'}")
        columns = coup_features(coup, decisions)
        rows = []
        for bet in bets:
            net = settle(bet, columns)
            result = "push" if net == 0 else f"wins {money(stake * net)}" if net > 0 else f"loses {money(-stake * net)}"
            rows.append([bet.name, money(stake), result])
        return "\n".join(lines) + "\n\n" + grid(rows, ["bet", "stake", "result"]) + "\n"
    distribution = enumerate_coups(remaining, decisions, hand=coup.hand)
    seen = " ".join(map(str, cards)) or "none"
    source = str(shoe) if shoe.with_replacement else f"{shoe} less those cards ({remaining.size} left)"
    lines.append(f"cards seen: {seen}; drawing from {source}")
    if condition is not None:
        everything = distribution.total
        distribution = distribution.where(condition(distribution.columns))
        if not distribution.total:
            raise InputError(f"the condition given never holds after these cards: {given}")
        share = Fraction(distribution.total, everything)
        lines.append(f"given {given}: {distribution.total:,} of {everything:,} completions (probability {share}, {fixed(share, 10)})")
    counts = distribution.outcome_counts()
    weighted = f", x{distribution.scale} policy weight" if distribution.scale > 1 else ""
    rows = [[name, f"{counts[name]:,}", str(Fraction(counts[name], distribution.total)), fixed(Fraction(counts[name], distribution.total), 10)] for name in OUTCOMES]
    table = grid(rows, ["outcome", f"ways (ordered {distribution.cards}-card completions{weighted})", "probability", "decimal"])
    priced = [bet for bet in bets if bet.needs_coup and not bet.card_slots]
    values = [(bet.name, return_table(bet, distribution).expected_value) for bet in priced]
    expectations = [[name, str(value), fixed(value, 6)] for name, value in values]
    expectation_table = grid(expectations, ["bet", "expected value now", "decimal"])
    skipped = [bet.name for bet in bets if bet not in priced]
    note = f"\nNot priced mid-coup (they read card ranks or suits): {', '.join(skipped)}\n" if skipped else ""
    return "\n".join(lines) + "\n\n" + table + "\n\n" + expectation_table + "\n" + note
