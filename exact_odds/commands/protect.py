"""The `protect` command: what a known card, a sort or the best sort is worth to a player who bets
the best of the bets or nothing (:mod:`exact_odds.studies.protect`), as a document and a heat map.

The request is the study's :class:`~exact_odds.studies.protect.ProtectRequest`, checked whole before
any work; ``all`` bets leaves out, and names, those the information cannot be valued beside (as
``all`` leaves out bets on suits on a shoe by rank).

>>> from exact_odds.core.policy import resolve
>>> from exact_odds.core.rules import PUNTO_BANCO
>>> from exact_odds.core.shoe import Shoe
>>> from exact_odds.bets.bets import catalog
>>> request, _ = request_of(Shoe.decks(8), resolve(PUNTO_BANCO), [catalog()["banker"], catalog()["player"]], known=1)
>>> print(document(run(request)).blocks[1].text.splitlines()[1])
Gain per coup: 6.7647% (exact 6604082064256/97624966318425)
"""

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..bets.bets import Bet
from ..core.numbers import fixed, percent
from ..core.policy import Decisions
from ..core.shoe import Shoe
from ..errors import InputError
from ..output.blocks import Block, Data, Document, Heading, Paragraph, table
from ..studies.groups import GROUP_NAMES, Groups, parse_groups
from ..studies.protect import Decision, Protection, ProtectRequest, SortSearch, Split
from ..studies.protect import run as run_study

if TYPE_CHECKING:
    from ..core.policy import Policy
    from ..core.rules import DrawRules
    from .setup import Setup

FORMATS = ("table", "markdown", "csv", "json", "latex", "html")
WIDE = 6
"""Beside more bets than this a decision table for people names the bet chosen and the runner-up of
each row (the CSV and the JSON give every bet's expectation)."""
TOP_SPLITS = 10
"""A best sort for one number of cards lists this many splits of each kind, best first."""


def request_of(shoe: Shoe, decisions: Decisions, bets: Sequence[Bet], every: bool = False, *, known: int | None = None,
               sorted: int | None = None, groups: str | None = None, best_sort: bool = False,
               over: str | None = None) -> tuple[ProtectRequest, list[str]]:
    """The request, checked whole, and its notes. With ``every`` (``--bets all``) a bet the
    information cannot be valued beside is left out and named in a note, not refused."""
    parsed = None if groups is None else parse_groups(groups, shoe.knows_suits)

    def made(chosen: Sequence[Bet]) -> ProtectRequest:
        return ProtectRequest(shoe=shoe, decisions=decisions, bets=tuple(chosen), known=known, sorted=sorted, groups=parsed,
                              best_sort=best_sort, over=over)

    if not every:
        return made(bets), []
    kept, left = [], []
    for bet in bets:
        try:
            made([bet])
        except InputError as error:
            if error.parameter != "bets":
                raise
            left.append(bet.name)
            continue
        kept.append(bet)
    if not kept:
        raise InputError("bets: none of the bets can be valued beside this information", parameter="bets")
    notes = [f"left out (they cannot be valued beside this information: see `protect --bets NAME`): {', '.join(left)}"] if left else []
    return made(kept), notes


def protect_request(setup: "Setup", **information: Any) -> tuple[ProtectRequest, list[str]]:
    """The request of ``setup``'s shoe, decisions and bets (``all``: those the ``information``
    can be valued beside, see :func:`request_of`), and the notes of the choice of the bets."""
    shoe = setup.starting_shoe()
    bets, notes = setup.chosen_bets(shoe.knows_suits)
    every = isinstance(setup.bets, str) and setup.bets.strip().lower() == "all"
    request, left = request_of(shoe, setup.decisions(shoe), bets, every, **information)
    return request, notes + left


def run(request: ProtectRequest) -> Protection | SortSearch:
    """The study's exact values for the request."""
    return run_study(request)


def groups_text(groups: Groups) -> str:
    """``A = 6,7,8,9; B = 0,1,2,3,4,5``."""
    return "; ".join(f"{GROUP_NAMES[index]} = {','.join(members)}" for index, members in enumerate(groups.members))


def information_text(result: Protection) -> str:
    """What the player sees, in words."""
    seen = result.information
    if "known" in seen:
        return f"card {seen['known']} of the coup's six-card sequence in shoe order (dealt or not), by {seen['detail']}"
    groups = "; ".join(f"{name} = {','.join(members)}" for name, members in seen["groups"].items())
    cards = "the first card" if seen["sorted"] == 1 else f"the first {seen['sorted']} cards"
    return f"{cards} sorted by {seen['kind']}: {groups}"


def _heading(shoe: Shoe, decisions: Decisions, bets: Sequence[Bet]) -> str:
    rules = "" if decisions.rules.name == "punto_banco" and not decisions.policy else f", {decisions.rules.name}" + (
        f" ({decisions.policy.summary()})" if decisions.policy else "")
    return f"Bets: {', '.join(bet.name for bet in bets)}; shoe: {shoe}{rules}"


def summary_lines(result: Protection) -> list[str]:
    """The gain, the decision without the information, and the share of coups it changes."""
    names = [bet.name for bet in result.bets]
    without = "no bet (every bet loses)" if result.uninformed is None else \
        f"{names[result.uninformed]} ({percent(result.expectations[result.uninformed])} per coup)"
    lines = [f"Gain per coup: {percent(result.gain)} (exact {result.gain})",
             f"Without the information: {without}"]
    if result.uninformed is not None:
        lines.append(f"Gain over that: {percent(result.gain_over_uninformed)} (exact {result.gain_over_uninformed})")
    lines.append(f"Coups in which the information changes the decision: {percent(result.changed)} (exact {result.changed})")
    return lines


def decision_table(result: Protection, exact: bool = False) -> Any:
    """The decision table: each piece of information, its probability, each bet's expectation given
    it and the bet chosen (percent, or with ``exact`` fractions). Beside more than :data:`WIDE` bets
    the percent table gives the bet chosen and the runner-up (the best of the others), not every
    bet's column."""
    names = [bet.name for bet in result.bets]

    def shown(value: Fraction) -> str:
        return str(value) if exact else percent(value, 3)

    def probability(row: Decision) -> str:
        return str(row.probability) if exact else percent(row.probability, 4)

    if len(names) > WIDE and not exact:
        rows = []
        for row in result.table:
            other = max((index for index in range(len(names)) if index != row.choice), key=lambda index: row.expectations[index])
            rows.append([row.information, probability(row), result.chosen(row) or "none", shown(row.expected_value), names[other],
                         shown(row.expectations[other])])
        return table(["information", "probability", "bet", "expected value", "runner-up", "its expectation"], rows,
                     ["left", "right", "left", "right", "left", "right"])
    rows = [[row.information, probability(row), *map(shown, row.expectations), result.chosen(row) or "none", shown(row.expected_value)]
            for row in result.table]
    return table(["information", "probability", *names, "bet", "expected value"], rows,
                 ["left", "right", *["right"] * len(names), "left", "right"])


def protection_document(result: Protection, notes: Sequence[str] = ()) -> Document:
    blocks: list[Block] = [Heading(2, f"What the player sees: {information_text(result)}"),
                           Paragraph("\n".join([_heading(result.shoe, result.decisions, result.bets), *summary_lines(result)])),
                           Paragraph("The decision table: each bet's expectation given the information (percent of a unit), the bet "
                                     "of highest expectation above zero (none: no bet is worth making), and what it earns"
                                     + (f"; beside more than {WIDE} bets, the runner-up (every bet's: --format csv or json)."
                                        if len(result.bets) > WIDE else "."), width=100),
                           decision_table(result)]
    blocks += [Paragraph("\n".join(f"Note: {note}" for note in notes))] if notes else []
    record = {**result.to_dict(), "notes": list(notes)}
    return Document(tuple(blocks), Data(record, decision_table(result, exact=True)), title="Game protection")


def _split_row(kind: str, cards: int, split: Split) -> list[str]:
    return [kind, str(cards), groups_text(split.groups), percent(split.gain), percent(split.changed, 3)]


def search_document(result: SortSearch, notes: Sequence[str] = ()) -> Document:
    each = {kind: len(splits) for (kind, _), splits in result.splits.items()}
    counts = " and ".join(f"{count:,} of the {kind}" for kind, count in each.items())
    headers = ["split", "cards", "groups (A first)", "gain per coup", "changes the decision"]
    align = ["left", "right", "left", "right", "right"]
    best_rows = [_split_row(kind, cards, splits[0]) for (kind, cards), splits in result.splits.items()]
    blocks: list[Block] = [Heading(2, f"The best sort: every two-way split ({counts}), the first cards seen on their backs"),
                           Paragraph(_heading(result.shoe, result.decisions, result.bets)),
                           Paragraph("The best split for each number of sorted cards (exact values in the JSON):"),
                           table(headers, best_rows, align)]
    single = {cards for _, cards in result.splits}
    if len(single) == 1:
        for (kind, cards), splits in result.splits.items():
            best = result.best[kind, cards]
            blocks += [Paragraph(f"The {min(TOP_SPLITS, len(splits))} best splits of the {kind}, {cards} sorted cards:"),
                       table(headers, [_split_row(kind, cards, split) for split in splits[:TOP_SPLITS]], align),
                       Paragraph("\n".join([f"The decision table of the best split of the {kind} ({groups_text(splits[0].groups)}):",
                                            *summary_lines(best)])),
                       decision_table(best)]
    else:
        blocks.append(Paragraph("Give --sorted K for the best splits of K cards and the decision table of the best.", width=100))
    blocks += [Paragraph("\n".join(f"Note: {note}" for note in notes))] if notes else []
    flat = [[kind, str(cards), ",".join(split.groups.members[0]), ",".join(split.groups.members[1]), str(split.gain),
             fixed(split.gain, 10), str(split.changed)] for (kind, cards), splits in result.splits.items() for split in splits]
    csv = table(["kind", "cards", "group A", "group B", "gain", "gain decimal", "changed"], flat)
    return Document(tuple(blocks), Data({**result.to_dict(), "notes": list(notes)}, csv), title="Game protection: the best sort")


def document(result: Protection | SortSearch, notes: Sequence[str] = ()) -> Document:
    """The result as blocks (``--format``): the gain, the share of coups changed and the decision
    table; for a best sort, the best split of each kind and number of cards. The JSON is the
    result's record (``exact_odds.protect``) with the notes; the CSV, the decision table in exact
    fractions (a best sort: every split)."""
    return search_document(result, notes) if isinstance(result, SortSearch) else protection_document(result, notes)


def figure(result: Protection | SortSearch) -> bytes:
    """The decision table as a heat map (a best sort: that of its best split of all)."""
    from ..output.plots import decision_figure

    if isinstance(result, SortSearch):
        kind, cards = max(result.splits, key=lambda key: (result.splits[key][0].gain, key[0] == "values", -key[1]))
        chosen, title = result.best[kind, cards], f"the best sort of the {kind}: "
    else:
        chosen, title = result, ""
    title += f"{information_text(chosen)}\ngain {percent(chosen.gain, 3)} per coup"
    rows = [[float(value) for value in row.expectations] for row in chosen.table]
    return decision_figure(title, [row.information for row in chosen.table], [bet.name for bet in chosen.bets], rows,
                           [row.choice for row in chosen.table])


def protect(*, known: int | None = None, sorted: int | None = None, groups: str | None = None, best_sort: bool = False, over: str | None = None,
            shoe: "Shoe | int | str | Mapping[str, int] | None" = None, bets: "str | Bet | Iterable[str | Bet] | None" = None,
            rules: "DrawRules | Decisions | str | None" = None, policy: "Policy | str | None" = None,
            commission: "Fraction | int | str | None" = None, tie_pays: "Fraction | int | str | None" = None,
            bets_toml: str | None = None) -> Protection | SortSearch:
    """What a piece of information is worth to a player who bets the best of ``bets`` (default
    banker, player, tie; ``all``: those it can be valued beside) or nothing, on ``shoe`` (default 8
    decks), as ``baccarat-odds protect`` values it: a ``known`` card, a ``sorted`` first cards by
    ``groups``, or the ``best_sort``. Its request built from these arguments (the command's options);
    the exact :class:`~exact_odds.studies.protect.Protection` (or, for the best sort, the search).

    >>> protection = protect(known=1, bets="banker, player")  # 8 decks: the first card known
    >>> protection.gain  # Jacobson, "Baccarat: The Known Card": 6.765% per coup
    Fraction(6604082064256, 97624966318425)
    """
    from .setup import Setup

    setup = Setup.of_arguments(shoe=shoe, rules=rules, policy=policy, commission=commission, tie_pays=tie_pays, bets=bets, bets_toml=bets_toml)
    request, _ = protect_request(setup, known=known, sorted=sorted, groups=groups, best_sort=best_sort, over=over)
    return run(request)
