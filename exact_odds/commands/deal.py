"""The `deal` command: one coup from cards in shoe order, each draw with the rule that made it and
what the stake on each bet returns; or, mid-coup, the odds of how it ends."""

from fractions import Fraction

from ..core.numbers import fixed, money
from ..output.blocks import Block, Document, Paragraph, table
from ..studies.dealing import Dealt


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
