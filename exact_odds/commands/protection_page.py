"""The game-protection page of the math report (`report --protection`): for each bet of the game, what
each kind of information is worth to a player who bets that bet or nothing, ranked, so that a house
sees which of its bets is most exposed and to what (:mod:`exact_odds.studies.protect`).

The kinds: each card of the coup's six-card sequence known (1-6, told as finely as the bet reads
cards), and the first card and the first four cards sorted by the best two-way split of the values
and of the ranks. A kind that cannot be valued for a bet (a sort search beside a bet on suits, any
information beside a bet that counts suits over the whole coup) is named with the reason, never
left out. Written as a page (HTML and Markdown, the report's style) and as a record (JSON).
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..bets.bets import Bet
from ..core.numbers import percent
from ..core.policy import Decisions
from ..core.shoe import Shoe
from ..errors import InputError
from ..output.blocks import Heading, Paragraph
from .report_sections import ReportSettings, provenance_section, rules_version, table
from ..output.report_pages import Part, Section, Submission, render_submission_html, render_submission_markdown
from ..output.render import json_text
from ..records import versioned
from ..studies.protect import Protection, ProtectRequest, SortSearch, run

NAME = "protection"
"""The page's file name (protection.html, .md, .json) and its link from the index."""
TITLE = "Game protection: what information is worth, bet by bet"
SORTED = (1, 4)
"""The numbers of sorted cards whose best splits the page values."""


@dataclass(frozen=True)
class Kind:
    """One kind of information, as the page names it, and the request that values it."""

    key: str
    label: str
    known: int | None = None
    sorted: int | None = None
    over: str | None = None


KINDS = tuple([Kind(f"known_{position}", f"card {position} known", known=position) for position in range(1, 7)]
              + [Kind(f"sorted_{cards}_{over}", f"{'the first card' if cards == 1 else f'the first {cards} cards'} sorted, best split of the {over}",
                      sorted=cards, over=over) for cards in SORTED for over in ("values", "ranks")])


@dataclass(frozen=True)
class Value:
    """What one kind of information is worth beside one bet: the gain per coup, the share of coups
    in which it changes the decision and how it is seen (the detail, or the best split); or why it
    cannot be valued."""

    kind: Kind
    gain: Fraction | None = None
    changed: Fraction | None = None
    seen: str = ""
    refused: str = ""


@dataclass(frozen=True)
class Exposure:
    bet: Bet
    values: tuple[Value, ...]

    @property
    def ranked(self) -> list[Value]:
        """The kinds valued, most valuable first, then those that cannot be."""
        valued = sorted((value for value in self.values if value.gain is not None), key=lambda value: -(value.gain or 0))
        return valued + [value for value in self.values if value.gain is None]

    @property
    def worst(self) -> Value | None:
        ranked = self.ranked
        return ranked[0] if ranked and ranked[0].gain is not None else None


def _value(shoe: Shoe, decisions: Decisions, bet: Bet, kind: Kind) -> Value:
    try:
        request = ProtectRequest(shoe=shoe, decisions=decisions, bets=(bet,), known=kind.known, sorted=kind.sorted,
                                 best_sort=kind.sorted is not None, over=kind.over)
    except InputError as error:
        if error.parameter != "bets":
            raise
        return Value(kind, refused=str(error).removeprefix("bets: "))
    found = run(request)
    if isinstance(found, SortSearch):
        best = found.splits[kind.over or "values", kind.sorted or 1][0]
        groups = "; ".join(",".join(group) for group in best.groups.members)
        return Value(kind, best.gain, best.changed, f"groups {groups}")
    assert isinstance(found, Protection)
    return Value(kind, found.gain, found.changed, f"by {found.information['detail']}")


def exposures(shoe: Shoe, decisions: Decisions, bets: Sequence[Bet], progress: Callable[[str], None] | None = None) -> list[Exposure]:
    """Every kind of information valued beside each bet alone."""
    found = []
    for bet in bets:
        if progress:
            progress(f"{bet.name}: protection")
        found.append(Exposure(bet, tuple(_value(shoe, decisions, bet, kind) for kind in KINDS)))
    return found


def _rows(exposure: Exposure) -> list[tuple[str, ...]]:
    return [(str(rank), value.kind.label, percent(value.gain), str(value.gain), percent(value.changed or Fraction(0), 3), value.seen)
            if value.gain is not None else ("", value.kind.label, "not valued", "", "", value.refused)
            for rank, value in enumerate(exposure.ranked, 1)]


def protection_submission(found: Sequence[Exposure], shoe: Shoe, decisions: Decisions, settings: ReportSettings) -> Submission:
    """The page: the bets ranked by their most valuable information, then each bet's kinds ranked."""
    exposed = sorted((exposure for exposure in found if exposure.worst), key=lambda exposure: -(exposure.worst.gain or 0) if exposure.worst else 0)
    summary_rows = [(exposure.bet.name, exposure.worst.kind.label, percent(exposure.worst.gain), exposure.worst.seen)
                    for exposure in exposed if exposure.worst and exposure.worst.gain is not None]
    summary_rows += [(exposure.bet.name, "nothing valued", "", exposure.values[0].refused) for exposure in found if not exposure.worst]
    summary: list[Part] = [
        Paragraph(f"On {shoe}: for each bet, a player who sees a piece of information and bets one unit on the bet when the bet's "
                  "expectation given it is above zero (else nothing) earns the gain per coup shown, exactly: E[max(0, EV | information)]. "
                  "The information is about the coup's six cards in shoe order, dealt or not (cards 1 and 3 go to the player, 2 and 4 "
                  "to the banker, 5 and 6 are the third cards when drawn): a card known (a flashed or marked card, told as finely as the "
                  "bet reads cards), or the first cards seen sorted on their backs (edge sorting) by the two-way split of the values or "
                  "of the ranks worth the most to the player."),
        Paragraph("The bets, most exposed first: each bet's most valuable information."),
        table(("bet", "most exposed to", "gain per coup", "seen"), summary_rows, (False, False, True, False))]
    headers = ("rank", "information", "gain per coup", "exact", "changes the decision", "seen")
    by_bet: list[Part] = [Paragraph("Each kind of information ranked, for each bet alone. \"Changes the decision\" is the share of coups "
                                    "in which the informed player's choice differs from the uninformed one (for a bet that loses without "
                                    "the information: the share of coups bet).")]
    for exposure in found:
        reasons = {value.refused for value in exposure.values}
        if exposure.worst is None and len(reasons) == 1:  # nothing valued, for one reason: said once
            by_bet += [Heading(3, exposure.bet.name), Paragraph(f"Not valued: {reasons.pop()}.")]
        else:
            by_bet += [Heading(3, exposure.bet.name), table(headers, _rows(exposure), (True, False, True, True, True, False))]
    sections = (Section("summary", "The bets, most exposed first", tuple(summary)),
                Section("bets", "Each bet, information ranked", tuple(by_bet), new_page=True),
                Section("provenance", "Provenance", tuple(provenance_section(None, decisions, settings)), new_page=True))
    cover = (("game", settings.game or decisions.rules.name), ("submitter", settings.submitter or "not given"), ("shoe", str(shoe)),
             ("bets", ", ".join(exposure.bet.name for exposure in found)),
             ("rules version", rules_version(decisions) + (f", with the choices {decisions.policy.summary()}" if decisions.policy else "")),
             ("program version", f"exact_odds {settings.version}" + (f" ({settings.program})" if settings.program else "")),
             ("date", f"{settings.date.strftime('%Y-%m-%d %H:%M:%S')} UTC"))
    return Submission(f"{settings.title}: game protection" if settings.title else TITLE, cover, sections)


def protection_record(found: Sequence[Exposure], shoe: Shoe, decisions: Decisions) -> dict[str, object]:
    """The page as a record (``exact_odds.protection_report``): exact values as fraction strings."""
    def value_record(rank: int, value: Value) -> dict[str, object]:
        kind = value.kind
        head: dict[str, object] = {"information": kind.key, "label": kind.label, "known": kind.known, "sorted": kind.sorted, "over": kind.over}
        if value.gain is None:
            return {**head, "valued": False, "reason": value.refused}
        return {**head, "valued": True, "rank": rank, "gain": str(value.gain), "gain_percent": float(value.gain * 100),
                "changed": str(value.changed), "seen": value.seen}

    return versioned("protection_report", {
        "shoe": shoe.description, "rules": decisions.rules.name, "policy": str(decisions.policy) or None,
        "bets": [{"bet": exposure.bet.name, "most_exposed_to": exposure.worst.kind.key if exposure.worst else None,
                  "information": [value_record(rank, value) for rank, value in enumerate(exposure.ranked, 1)]} for exposure in found]})


def protection_files(bets: Sequence[Bet], shoe: Shoe, decisions: Decisions, settings: ReportSettings,
                     progress: Callable[[str], None] | None = None) -> dict[str, str]:
    """protection.html, protection.md and protection.json."""
    found = exposures(shoe, decisions, bets, progress)
    page = protection_submission(found, shoe, decisions, settings)
    return {f"{NAME}.html": render_submission_html(page), f"{NAME}.md": render_submission_markdown(page),
            f"{NAME}.json": json_text(protection_record(found, shoe, decisions))}
