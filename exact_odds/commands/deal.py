"""The `deal` command: one coup from cards in shoe order, each draw with the rule that made it and
what the stake on each bet returns; or, mid-coup, the odds of how it ends. Its request, run and
document, for both doors."""

from dataclasses import dataclass, field
from fractions import Fraction

from ..core.cards import Card, parse_cards
from ..core.numbers import fixed, money, parse_exact, shown
from ..errors import InputError
from ..output.blocks import Block, Document, Paragraph, table
from ..studies.dealing import Dealt, deal
from .setup import Setup

DEFAULT_STAKE = "100"
"""The stake on each bet of a settled coup when none is given."""


@dataclass(frozen=True, kw_only=True)
class DealRequest:
    """The cards dealt, in shoe order (text, or a text per card), the stake on each bet of a settled
    coup (None: 100; refused mid-coup, where bets are priced per unit) and, mid-coup, a condition
    on how the coup ends; from the shoe, rules and bets of ``setup``."""

    setup: Setup
    cards: str | tuple[str, ...]
    stake: str | Fraction | None = None
    given: str | None = None
    dealt: tuple[Card, ...] = field(init=False, repr=False, compare=False)
    """The cards, read."""
    amount: Fraction = field(init=False, repr=False, compare=False)
    """The stake, read."""

    def __post_init__(self) -> None:
        cards = parse_cards(self.cards)
        if not cards:
            raise InputError("give the cards dealt, in shoe order (e.g. 9S 5D 9H 2C)", parameter="cards")
        stake = parse_exact(DEFAULT_STAKE if self.stake is None else self.stake, "stake", parameter="stake")
        if stake <= 0:
            raise InputError(f"stake must be positive, not {shown(self.stake)}", parameter="stake")
        object.__setattr__(self, "dealt", cards)
        object.__setattr__(self, "amount", stake)


def run(request: DealRequest) -> Dealt:
    """The coup the cards make, every bet of the setup settled on it (or, mid-coup, the odds)."""
    setup = request.setup
    shoe = setup.starting_shoe()
    bets, _ = setup.chosen_bets(True)
    dealt = deal(request.dealt, shoe, bets, setup.decisions(shoe), request.given)
    if request.stake is not None and not dealt.coup.complete:
        raise InputError("stake prices a settled coup: these cards leave the coup in progress, whose bets are priced per unit staked "
                         "(give every card of the coup, or leave stake out)", parameter="stake", mentions=("stake",))
    return dealt


def document(dealt: Dealt, stake: Fraction) -> Document:
    """The coup's steps and each bet's result for ``stake``; mid-coup, the outcomes' odds and the
    expected value now of each bet priced mid-coup."""
    coup = dealt.coup
    lines = list(coup.steps)
    if coup.complete:
        lines.append(f"player {coup.player_total}, banker {coup.banker_total}: {'tie' if coup.winner == 'tie' else f'{coup.winner} wins'}")
        results = [[name, money(stake), "push" if net == 0 else f"wins {money(stake * net)}" if net > 0 else f"loses {money(-stake * net)}"]
                   for name, net in dealt.settlements]
        return Document((Paragraph("\n".join(lines)), table(["bet", "stake", "result"], results)))
    seen = " ".join(map(str, dealt.cards)) or "none"
    source = str(dealt.shoe) if dealt.shoe.with_replacement else f"{dealt.shoe} less those cards ({dealt.remaining.size} left)"
    lines.append(f"cards seen: {seen}; drawing from {source}")
    if dealt.given is not None:
        condition, held, everything = dealt.given
        share = Fraction(held, everything)
        lines.append(f"given {condition}: {held:,} of {everything:,} completions (probability {share}, {fixed(share, 10)})")
    weighted = f", x{dealt.scale} policy weight" if dealt.scale > 1 else ""
    odds = [[name, f"{count:,}", str(Fraction(count, dealt.total)), fixed(Fraction(count, dealt.total), 10)] for name, count in dealt.outcomes]
    blocks: list[Block] = [Paragraph("\n".join(lines)),
                           table(["outcome", f"ways (ordered {dealt.drawn}-card completions{weighted})", "probability", "decimal"], odds),
                           table(["bet", "expected value now", "decimal"], [[name, str(value), fixed(value, 6)] for name, value in dealt.expectations])]
    if dealt.unpriced:
        blocks.append(Paragraph(f"Not priced mid-coup (they read card ranks or suits): {', '.join(dealt.unpriced)}"))
    return Document(tuple(blocks))
