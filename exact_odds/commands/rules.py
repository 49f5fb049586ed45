"""The `rules` command: a rule set in words with the banker's tableau (or as a rules file), and with
a policy the choice it makes at each option point.

>>> from exact_odds.core.rules import BACCARAT_GOLD
>>> print(rules_text(BACCARAT_GOLD).splitlines()[1])
Player, by two-card total: 0: draw, 1: draw, 2: draw, 3: draw, 4: draw, 5: choice, 6: stand, 7: stand.
"""

from dataclasses import dataclass

from ..core.numbers import shown
from ..core.policy import Policy, policy_text
from ..core.rules import CHOICE, DRAW, STAND, DrawRules, rules_toml
from ..errors import InputError
from ..output.blocks import Block, Document, Group, Items, Paragraph, table
from ..output.render import render
from .setup import Setup

FORMATS = ("text", "toml")
"""text: in words with the tableau; toml: a rules file that a setup reads back."""


@dataclass(frozen=True, kw_only=True)
class RulesRequest:
    """The rule set of ``setup`` in a ``format``; with the setup's policy (text only), the choice it
    makes at each option point."""

    setup: Setup
    format: str = "text"

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise InputError(f"format must be one of {', '.join(FORMATS)}, not {shown(self.format)}", parameter="format")
        policy, rules = self.setup.policy_given(), self.setup.rule_set
        if not policy:
            return
        if self.format == "toml":
            raise InputError("policy is no part of a rules file: give format text to see its choice at each option point",
                             parameter="policy", mentions=("format",))
        if policy.base == "optimal":
            raise InputError("policy optimal is solved for a shoe, and `rules` takes none: `chemin-de-fer --model M --decks N` shows its solution",
                             parameter="policy")
        if not policy_text(rules, policy):
            raise InputError(f"policy: {rules.name} has no option point, so a policy chooses nothing", parameter="policy")


def run(request: RulesRequest) -> str:
    """The rule set as the request asks: a rules file, or in words (with the policy's choices)."""
    rules, policy = request.setup.rule_set, request.setup.policy_given()
    if request.format == "toml":
        return rules_toml(rules)
    return render(rules_document(rules, policy), "text")


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
