"""The figures of a PAR sheet, exactly: what a test lab's math reviewer and a regulator read of a bet.

For each line of a bet's pay table: its probability, "1 in N" (N = 1 / probability), the true odds
against it (``(1 - p) / p`` to 1), the fair pay (the pay of that line at which the bet's house edge
is zero, the other lines kept), and the GLI-11 check (section 4.8.2: an advertised award, a line that
pays, occurs at least once in :data:`GLI_GAMES` games, or its odds must be displayed). For each bet:
the house edge per bet made and per bet resolved, the hit and push frequencies, the variance and
the element of risk (the expected loss over the amount wagered; a baccarat bet is never raised, so
the amount wagered is the stake and the element of risk is the house edge per bet made, pushes
counted as bets made). COMAR 36.05.03.20 asks for the true odds, the payout odds and the house
advantage of each wager: every line's true odds and pay beside the bet's edge.

:func:`par_sheet` gathers what the PAR workbook (:mod:`exact_odds.output.workbook`) carries: every
bet's lines with their exact counts on the shoe and on each deck count, the cover and the inputs.

>>> from exact_odds import analyze
>>> tie = bet_figures(analyze(8, "tie")["tie"])
>>> tie.lines[0].one_in, tie.lines[0].true_odds, tie.lines[0].fair_pay
(Fraction(6508331087895, 619306544887), Fraction(5889024543008, 619306544887), Fraction(5889024543008, 619306544887))
>>> tie.lines[0].display_odds, tie.element_of_risk == tie.house_edge
(False, True)
"""

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..bets.bets import Bet, as_bets
from ..core.numbers import shown
from ..core.policy import Decisions, Policy, decisions_of
from ..core.rules import PUNTO_BANCO, DrawRules, as_rules, rules_toml
from ..core.shoe import Shoe, as_shoe, shoe_of_decks
from ..engine.analysis import BetAnalysis, Engine, analyze_checked
from ..errors import InputError
from .exposure import TableView

GLI_GAMES = 100_000_000
"""GLI-11 (section 4.8.2): an advertised award occurs at least once in this many games, or the game displays its odds."""
DECKS: tuple[int | str, ...] = (*range(1, 9), "inf")
"""The deck counts of the house edge by number of decks, unless others are given."""
AMOUNT_WAGERED = 1
"""What a baccarat bet of one unit wagers in all: the stake (no bet is raised after the deal)."""


@dataclass(frozen=True)
class LineFigures:
    """One line of a pay table (the last: any other result, which loses) and its exact figures."""

    event: str
    pays: str
    net: Fraction
    combinations: int
    probability: Fraction
    one_in: Fraction | None
    """N of "1 in N": 1 / probability (None: the line never settles the bet)."""
    true_odds: Fraction | None
    """The odds against the line, (1 - p) / p to 1 (None: never)."""
    fair_pay: Fraction | None
    """The pay of this line at which the bet's house edge is zero, the other lines kept (None: never, or the loss line)."""

    @property
    def award(self) -> bool:
        """Whether the line pays (an advertised award, in GLI-11's words)."""
        return self.net > 0

    @property
    def display_odds(self) -> bool:
        """GLI-11 section 4.8.2: an award that occurs less than once in :data:`GLI_GAMES` games
        (or never) must have its odds displayed."""
        return self.award and self.probability * GLI_GAMES < 1


@dataclass(frozen=True)
class BetFigures:
    """A bet's exact PAR figures on one shoe."""

    name: str
    house_edge: Fraction
    house_edge_resolved: Fraction | None
    """Per bet resolved (pushes left out); None where the bet never resolves."""
    element_of_risk: Fraction
    hit_frequency: Fraction
    push_frequency: Fraction
    variance: Fraction
    lines: tuple[LineFigures, ...]

    def to_dict(self) -> dict[str, object]:
        """The figures as JSON: exact values as fraction strings, decimals as numbers beside them."""
        def exact(value: Fraction | None) -> object:
            return None if value is None else str(value)

        def decimal(value: Fraction | None) -> object:
            return None if value is None else float(value)

        return {
            "house_edge": exact(self.house_edge), "house_edge_percent": float(self.house_edge * 100),
            "house_edge_resolved": exact(self.house_edge_resolved), "element_of_risk": exact(self.element_of_risk),
            "hit_frequency": exact(self.hit_frequency), "push_frequency": exact(self.push_frequency), "variance": exact(self.variance),
            "lines": [{
                "event": line.event, "pays": line.pays, "combinations": line.combinations, "probability": exact(line.probability),
                "one_in": exact(line.one_in), "one_in_decimal": decimal(line.one_in),
                "true_odds": exact(line.true_odds), "true_odds_decimal": decimal(line.true_odds),
                "fair_pay": exact(line.fair_pay), "fair_pay_decimal": decimal(line.fair_pay),
                "award": line.award, "gli_display_odds": line.display_odds,
            } for line in self.lines],
        }


def bet_figures(result: BetAnalysis) -> BetFigures:
    """The PAR figures of one bet's analysis."""
    lines = []
    for index, row in enumerate(result.rows):
        probability = row.probability
        loss = index == len(result.bet.rows)
        lines.append(LineFigures(
            row.event, row.pays.text, row.pays.net, row.combinations, probability,
            1 / probability if probability else None,
            (1 - probability) / probability if probability else None,
            row.pays.net + result.house_edge / probability if probability and not loss else None))
    hit = sum((line.probability for line in lines if line.net > 0), Fraction(0))
    return BetFigures(result.bet.name, result.house_edge, result.house_edge_excluding_pushes, result.house_edge / AMOUNT_WAGERED,
                      hit, result.push_probability, result.variance, tuple(lines))


@dataclass(frozen=True)
class SheetLine:
    """A line of a pay table as the workbook carries it: its pay-table ``row`` (1 the first; None
    for the loss when no row holds), condition, pay and count out of the bet's total."""

    row: int | None
    event: str
    when: str
    pays: str
    net: Fraction
    combinations: int


@dataclass(frozen=True)
class DeckCount:
    """A bet's count of each line on ``decks`` standard decks (``"inf"``: the infinite deck)."""

    decks: str
    combinations: tuple[int, ...]
    total: int


@dataclass(frozen=True)
class SheetBet:
    name: str
    description: str
    lines: tuple[SheetLine, ...]
    total: int
    decks: tuple[DeckCount, ...]


@dataclass(frozen=True)
class Digest:
    """An input: what it is, its name as given, its text and the SHA-256 of its bytes."""

    role: str
    name: str
    text: str
    sha256: str

    @classmethod
    def read(cls, role: str, name: str) -> "Digest":
        """The file ``name`` as read (its bytes hashed; a file that cannot be read refused in one line)."""
        try:
            with open(name, "rb") as given:
                data = given.read()
        except OSError as error:
            raise InputError(f"cannot read {role} {shown(name)}: {error.strerror}") from None
        return cls(role, name, data.decode("utf-8", errors="replace"), hashlib.sha256(data).hexdigest())

    @classmethod
    def of_text(cls, role: str, name: str, text: str) -> "Digest":
        return cls(role, name, text, hashlib.sha256(text.encode("utf-8")).hexdigest())


@dataclass(frozen=True)
class ParSheet:
    """What the PAR workbook holds: the cover, every bet's lines and counts, and the provenance."""

    title: str
    game: str
    submitter: str
    shoe: str
    rules: str
    version: str
    date: str
    command: str
    bets: tuple[SheetBet, ...]
    inputs: tuple[Digest, ...]
    table: TableView | None = None
    """The table's view of a bet mix, where one is given."""


def line_counts(result: BetAnalysis) -> tuple[int, ...]:
    """The count of every line of the bet (its pay rows, then the loss), zero where the analysis
    left out a loss no coup reaches."""
    counts = [row.combinations for row in result.rows]
    return tuple(counts + [0] * (len(result.bet.payouts) - len(counts)))


def sheet_bet(result: BetAnalysis, by_decks: Mapping[str, BetAnalysis]) -> SheetBet:
    bet = result.bet
    whens = [row.condition.text for row in bet.rows] + ["no line above holds"]
    lines = tuple(SheetLine(number if number <= len(bet.rows) else None, event, when, payout.text, payout.net, count)
                  for number, (event, when, payout, count) in enumerate(zip(bet.events, whens, bet.payouts, line_counts(result)), 1))
    decks = tuple(DeckCount(label, line_counts(other), other.total) for label, other in by_decks.items())
    return SheetBet(bet.name, bet.description, lines, result.total, decks)


def par_sheet(shoe: "Shoe | int | str | Mapping[str, int]", bets: "str | Bet | Iterable[str | Bet] | None" = None,
              rules: "DrawRules | Decisions | str" = PUNTO_BANCO, policy: Policy | str | None = None, *,
              decks: Sequence[int | str] = DECKS, title: str = "", game: str = "", submitter: str = "", version: str | None = None,
              date: str = "", command: str = "", inputs: Sequence[Digest] = (), table: TableView | None = None,
              engine: Engine | None = None) -> ParSheet:
    """The PAR workbook's data for ``bets`` on ``shoe`` (given as :func:`exact_odds.analyze`
    takes them), with each bet's counts on each of ``decks``, and the ``table`` view of a bet mix where given;
    the rule set as analysed is added to the inputs.
    The program's ``version`` is this package's unless given (the command adds how the batches are weighed).

    >>> dragon = par_sheet(8, "dragon_7", decks=(8,)).bets[0]
    >>> Fraction(dragon.lines[0].combinations, dragon.total)  # docs/report.md: solve-pay's row 1
    Fraction(19129247848, 848912750595)
    """
    shoe = as_shoe(shoe)
    if not decks:
        raise InputError("decks is empty: give at least one deck count (or inf)", parameter="decks")
    decisions = decisions_of(rules if isinstance(rules, Decisions) else as_rules(rules), policy)
    chosen = as_bets(bets, decisions.rules, shoe.knows_suits)
    analysis = analyze_checked(shoe, chosen, decisions, engine=engine)
    by_decks = {str(count): analyze_checked(shoe_of_decks(count), chosen, decisions, engine=engine) for count in dict.fromkeys(decks)}
    sheets = tuple(sheet_bet(result, {label: other.bets[index] for label, other in by_decks.items()})
                   for index, result in enumerate(analysis.bets))
    rules_file = Digest.of_text("rules as analysed", "the rule set as a rules file (baccarat-odds rules --format toml)", rules_toml(decisions.rules))
    policy_text = f", with the choices {decisions.policy.summary()}" if decisions.policy else ""
    if version is None:
        from .. import __version__

        version = f"exact_odds {__version__}"
    return ParSheet(title or "PAR sheet", game or decisions.rules.name, submitter or "not given", str(shoe),
                    f"{decisions.rules.name} (rules file SHA-256 {rules_file.sha256[:16]}){policy_text}", version, date, command,
                    sheets, (*inputs, rules_file), table)
