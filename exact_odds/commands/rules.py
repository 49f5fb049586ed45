"""The `rules` command: a rule set in words with the banker's tableau (or as a rules file), and with
a policy the choice it makes at each option point.

>>> from exact_odds.core.rules import BACCARAT_GOLD
>>> print(rules_text(BACCARAT_GOLD).splitlines()[1])
Player, by two-card total: 0: draw, 1: draw, 2: draw, 3: draw, 4: draw, 5: choice, 6: stand, 7: stand.
"""

from ..core.policy import Policy, policy_text
from ..core.rules import CHOICE, DRAW, STAND, DrawRules
from ..output.blocks import Block, Document, Group, Items, Paragraph, table
from ..output.render import render


def rules_blocks(rules: DrawRules) -> Group:
    """The rule set in words, with the banker's tableau as a table, on consecutive lines."""
    def by_total(side: str, third: int | None) -> str:
        words = {DRAW: "draw", STAND: "stand", CHOICE: "choice"}
        return ", ".join(f"{total}: {words[rules.mark(side, total, third)]}" for total in range(10) if total not in rules.naturals)

    naturals = " or ".join(str(total) for total in sorted(rules.naturals)) or "none"
    lines: list[Block] = [
        Paragraph(f"{rules.name}. A two-card {naturals} (a natural) in either hand: both hands stand."),
        Paragraph(f"Player, by two-card total: {by_total('player', None)}."),
        Paragraph(f"Banker, when the player stood: {by_total('banker', None)}."),
        Paragraph("Banker, when the player drew: banker's two-card total (rows) against the player's third-card value (columns):"),
        table(["banker"] + [str(value) for value in range(10)],
              [[str(total)] + list(row) for total, row in enumerate(rules.banker_tableau) if total not in rules.naturals]),
        Paragraph("D draws, S stands, C is a choice (fixed by --policy)."),
        Paragraph(f"At a choice the player sees his {'two cards' if rules.player_sees == 'cards' else 'total'}, "
                  f"the banker his {'two cards' if rules.banker_sees == 'cards' else 'total'} (and the player's third card)."),
        Paragraph(f"Banker bets pay 1 to 1 less {rules.commission}% commission; the tie bet pays {rules.tie_pays} to 1."),
    ]
    points = rules.option_points()
    if points:
        shown = ", ".join(point.name for point in points[:12]) + (f" ... ({len(points)} in all)" if len(points) > 12 else "")
        lines.append(Paragraph(f"Option points: {shown}."))
    return Group(tuple(lines))


def rules_document(rules: DrawRules, policy: Policy | None = None) -> Document:
    """The rule set in words; with ``policy``, the choice it makes at each option point."""
    blocks: list[Block] = [rules_blocks(rules)]
    if policy:
        blocks.append(Items(tuple(policy_text(rules, policy).splitlines()), lead=f"Choices of --policy {policy.summary()}:"))
    return Document(tuple(blocks))


def rules_text(rules: DrawRules) -> str:
    """The rule set in words, as plain text (the server's presets carry it)."""
    return render(rules_document(rules), "text")
