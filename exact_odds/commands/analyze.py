"""The root command, an analysis: its request, its run and its documents: outcome, bet and return
tables, by feature value and by pure choice (:mod:`exact_odds.output.render` writes them). Exact
cells are strings."""

import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction

from ..bets.bets import Bet
from ..bets.conditions import Condition, parse_condition
from ..core.features import OUTCOMES, feature_kind
from ..core.numbers import fixed, percent, shown, square_root
from ..core.policy import Decisions, Policy, pure_policies, resolve
from ..core.rules import PUNTO_BANCO, DrawRules
from ..core.shoe import Shoe
from ..engine.analysis import ENGINES, Analysis, BetAnalysis, Engine, analyze_checked, best_of, by_feature, check_unordered
from ..errors import InputError
from ..output.blocks import Block, Data, Document, Group, Heading, Paragraph, table
from ..records import versioned
from .setup import Setup


def standard_deviation(result: BetAnalysis, places: int = 4) -> str:
    return square_root(result.variance, places)


def _outcome_rows(analysis: Analysis) -> list[list[str]]:
    rows = []
    for name in OUTCOMES:
        probability = analysis.probability(name)
        rows.append([name, f"{analysis.outcomes[name]:,}", str(probability), fixed(probability, 10)])
    rows.append(["total", f"{analysis.total:,}", "1", fixed(Fraction(1), 10)])
    return rows


def _bet_rows(analysis: Analysis) -> list[list[str]]:
    return [
        [
            result.bet.name,
            ", ".join(f"{row.pays.text}" for row in result.rows if row.pays.net > 0),
            str(result.expected_value),
            fixed(result.expected_value, 10),
            percent(result.house_edge),
            "n/a" if result.house_edge_excluding_pushes is None else percent(result.house_edge_excluding_pushes),
            standard_deviation(result),
        ]
        for result in analysis.bets
    ]


def _return_rows(result: BetAnalysis) -> list[list[str]]:
    rows = [[row.event, row.pays.text, f"{row.combinations:,}", fixed(row.probability, 10), fixed(row.expected_return, 10)] for row in result.rows]
    rows.append(["total", "", f"{result.total:,}", fixed(Fraction(1), 10), fixed(result.expected_value, 10)])
    return rows


OUTCOME_HEADERS = ["outcome", "combinations", "probability", "decimal"]
BET_HEADERS = ["bet", "pays", "expected value", "decimal", "house edge", "edge excl. pushes", "std dev"]
RETURN_HEADERS = ["event", "pays", "combinations", "probability", "return"]
CSV_HEADERS = ["section", "name", "event", "pays", "combinations", "total", "probability", "decimal", "expected_value", "house_edge_percent"]


def settles_on(result: BetAnalysis) -> str:
    if result.bet.needs_coup:
        return "the full coup (ordered 6-card sequences)"
    counted = {"hands": "hands, each hand's cards in either order", "cards": "sets of cards, in any order"}.get(result.unordered, f"ordered {result.cards}-card draws")
    return f"its {result.cards} cards alone ({counted})"


def rules_line(analysis: Analysis) -> str | None:
    """The rules and policy, when they are not plain Punto Banco at its usual pays."""
    decisions = analysis.decisions
    if decisions.rules == PUNTO_BANCO and not decisions.policy:
        return None
    line = f"Rules: {decisions.rules.name}" + (f", policy {decisions.policy.summary()}" if decisions.policy else "")
    if analysis.scale > 1:
        line += f"; combinations are weighted by the policy (each sequence counts {analysis.scale} times)"
    return line


def notes_paragraph(notes: list[str]) -> list[Block]:
    return [Paragraph("\n".join(f"Note: {note}" for note in notes))] if notes else []


def analysis_blocks(analysis: Analysis, notes: list[str], returns: bool) -> list[Block]:
    """The outcome table, the bet table and (with ``returns``) each bet's return table, under the shoe."""
    if analysis.given is None:
        shoe = f"Shoe: {analysis.shoe}, {analysis.total // analysis.scale:,} ordered 6-card sequences"
    else:
        given = analysis.given
        shoe = (f"Shoe: {analysis.shoe}, given {given.text}: {given.combinations // analysis.scale:,} of "
                f"{given.total // analysis.scale:,} ordered 6-card sequences (probability {given.probability}, {fixed(given.probability, 10)})")
    rules = rules_line(analysis)
    blocks: list[Block] = [Group((Heading(2, shoe), Paragraph(rules))) if rules else Heading(2, shoe)]
    blocks.append(table(OUTCOME_HEADERS, _outcome_rows(analysis), ("left", "right", "right", "right")))
    if analysis.bets:
        blocks.append(table(BET_HEADERS, _bet_rows(analysis), ("left", "left", "right", "right", "right", "right", "right")))
    if returns:
        for result in analysis.bets:
            blocks += [Group((Heading(2, f"{result.bet.name}: {result.bet.description}"), Paragraph(f"Settles on {settles_on(result)}."))),
                       table(RETURN_HEADERS, _return_rows(result), ("left", "left", "right", "right", "right"))]
    fewer = [result for result in analysis.bets if not result.bet.needs_coup]
    return blocks + notes_paragraph([*analysis.notes, *notes] + [f"{result.bet.name} settles on {settles_on(result)}" for result in fewer])


def csv_rows(analysis: Analysis) -> list[list[object]]:
    """The analysis flat, one row per given condition, outcome, bet and return (under :data:`CSV_HEADERS`)."""
    rows: list[list[object]] = []
    if analysis.given is not None:
        given = analysis.given
        rows.append(["given", given.text, "", "", given.combinations, given.total, given.probability, fixed(given.probability, 12), "", ""])
    for name in OUTCOMES:
        probability = analysis.probability(name)
        rows.append(["outcome", name, "", "", analysis.outcomes[name], analysis.total, probability, fixed(probability, 12), "", ""])
    for result in analysis.bets:
        name = result.bet.name
        rows.append(["bet", name, "", "", "", result.total, "", "", result.expected_value, fixed(result.house_edge * 100, 6)])
        for row in result.rows:
            rows.append(["return", name, row.event, row.pays.text, row.combinations, result.total, row.probability, fixed(row.probability, 12), row.expected_return, ""])
    return rows


def analysis_document(analysis: Analysis, notes: list[str] | None = None, returns: bool = False) -> Document:
    """The analysis: its tables (the return tables with ``returns``), its record and its flat table."""
    notes = notes or []
    return Document(tuple(analysis_blocks(analysis, notes, returns)), Data(analysis.to_dict(notes), table(CSV_HEADERS, csv_rows(analysis))))


def value_text(feature: str, value: int) -> str:
    """A feature's value code as the condition language writes it; ``none`` for a card slot not
    dealt, which has no value, rank, suit or colour (a hand's ``*_third_card`` is -1 when it stood)."""
    from ..core.cards import RANKS, SUITS
    from ..core.features import CARD_FEATURES, COLORS, NOT_DEALT, feature_kind

    kind = feature_kind(feature)
    if value == NOT_DEALT and feature in CARD_FEATURES:
        return "none"
    names = {"winner": OUTCOMES, "rank": RANKS, "suit": SUITS, "color": COLORS, "bool": ("false", "true")}.get(kind or "")
    return names[value] if names else str(value)


def by_document(feature: str, rows: list[tuple[int, Analysis]]) -> Document:
    """P(banker), P(player), P(tie) and each bet's expectation for each value of a feature; and
    what knowing the value is worth to a player who bets the best of the bets or nothing."""
    best = best_of(rows)
    chosen = dict(best.choices)
    record = versioned("by", {"by": feature, "rows": [
        {"value": value_text(feature, value), "combinations": analysis.total, "probability": str(analysis.given.probability if analysis.given else 1),
         "outcomes": {name: {"combinations": analysis.outcomes[name], "probability": str(analysis.probability(name))} for name in OUTCOMES},
         "bets": {result.bet.name: {"expected_value": str(result.expected_value)} for result in analysis.bets}, "best_of": chosen[value]}
        for value, analysis in rows], "best_of": {"expected_value": str(best.expected_value), "percent": float(best.expected_value * 100)}})
    bets = [result.bet.name for result in rows[0][1].bets] if rows else []
    values = [[value_text(feature, value), f"{analysis.total:,}", fixed(analysis.given.probability if analysis.given else Fraction(1), 6)]
              + [fixed(analysis.probability(name), 6) for name in OUTCOMES] + [fixed(result.expected_value, 6) for result in analysis.bets]
              for value, analysis in rows]
    headers = [feature, "combinations", "probability"] + [f"P({name})" for name in OUTCOMES] + [f"EV {name}" for name in bets]
    by_value = table(headers, values)
    if not bets:
        return Document((by_value,), Data(record, by_value))
    line = f"best of the bets or none, knowing {feature}: {fixed(best.expected_value * 100, 4)}% per coup (exact: --format json)"
    return Document((by_value, Paragraph(line)), Data(record, by_value))


def better_for_player(analyses: list[Analysis]) -> Analysis:
    """The pure choice under which the player bet's expectation is highest (the first on a tie)."""
    return max(analyses, key=lambda analysis: Fraction(analysis.outcomes["player"] - analysis.outcomes["banker"], analysis.total))


def choices_document(analyses: list[Analysis], notes: list[str], returns: bool) -> Document:
    """One analysis per pure choice of a rule set with option points, and the better for the player."""
    best = better_for_player(analyses)
    values = ", ".join(f"{analysis.decisions.policy}: {fixed(Fraction(analysis.outcomes['player'] - analysis.outcomes['banker'], analysis.total), 6)}"
                       for analysis in analyses)
    verdict = f"Better for the player: {best.decisions.policy} (player bet expected value {values})"
    record = versioned("choices", {"rules": best.decisions.rules.name, "choices": [analysis.to_dict(notes) for analysis in analyses],
                                   "better_for_player": str(best.decisions.policy)})
    flat = table(["policy", *CSV_HEADERS], [[analysis.decisions.policy, *row] for analysis in analyses for row in csv_rows(analysis)])
    blocks = [block for analysis in analyses for block in analysis_blocks(analysis, [], returns)]
    blocks.append(Paragraph("\n".join([verdict] + [f"Note: {note}" for note in [*best.notes, *notes]])))
    return Document(tuple(blocks), Data(record, flat))


@dataclass(frozen=True, kw_only=True)
class AnalyzeRequest:
    """The root command: the outcomes and the bets of a setup; ``given`` a condition, ``by`` a
    feature (a table by its value), ``unordered`` (``hands`` or ``cards``) the pair bets counted as
    sources count them, ``returns`` every bet's return table, ``engine`` ``fast`` or ``enumerate``
    (or, from a program, an engine such as :class:`~exact_odds.engine.analysis.PlainEngine`).
    Checked here, once: the combinations, then the shoe, the bets, the condition and the engine,
    kept in the fields below."""

    setup: Setup
    given: "str | Condition | None" = None
    by: str | None = None
    unordered: str | None = None
    returns: bool = False
    engine: "str | Engine | None" = None
    shoe: Shoe = field(init=False, repr=False, compare=False)
    """The setup's starting shoe."""
    bets: tuple[Bet, ...] = field(init=False, repr=False, compare=False)
    notes: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """What was said of the bets chosen (what ``all`` leaves out)."""
    condition: Condition | None = field(init=False, repr=False, compare=False)
    evaluator: Engine = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.unordered and (self.given is not None or self.by is not None):
            raise InputError("unordered counts bets on the first cards alone; with given or by every bet is counted through the coup",
                             parameter="unordered", mentions=("given", "by"))
        if self.by is not None and (self.given is not None or self.returns):
            raise InputError("by gives a table by value: it does not combine with given or returns", parameter="by", mentions=("given", "returns"))
        if self.by is not None and (not isinstance(self.by, str) or feature_kind(self.by.lower()) is None):
            raise InputError(f"by {shown(self.by)}: not a feature (see the table of features in docs/language.md)", parameter="by")
        shoe = self.setup.starting_shoe()
        check_unordered("" if self.unordered is None else self.unordered, shoe.with_replacement)
        bets, notes = self.setup.chosen_bets(shoe.knows_suits)
        if self.unordered and all(bet.needs_coup for bet in bets):
            raise InputError("unordered counts bets settled on the first cards alone (the pair bets), and none of these bets is", parameter="unordered")
        if self.given is not None and not isinstance(self.given, (str, Condition)):
            raise InputError(f"given must be a condition (its text, e.g. \"winner == tie\"), not {shown(self.given)}", parameter="given")
        for name, value in (("shoe", shoe), ("bets", tuple(bets)), ("notes", tuple(notes)), ("evaluator", self._evaluator()),
                            ("condition", parse_condition(self.given) if isinstance(self.given, str) else self.given)):
            object.__setattr__(self, name, value)

    def _evaluator(self) -> Engine:
        if self.engine is None or isinstance(self.engine, str) and self.engine in ENGINES:
            return ENGINES[self.engine or "fast"]()
        if isinstance(self.engine, str) or not all(callable(getattr(self.engine, method, None)) for method in ("coups", "cards")):
            raise InputError(f"engine must be fast, enumerate or an engine such as PlainEngine() (None: fast), not {shown(self.engine)}",
                             parameter="engine")
        return self.engine


def analysis(request: AnalyzeRequest) -> Analysis:
    """The one analysis the request asks for: of the whole shoe, or given its condition (under the
    setup's policy, which must fix every choice)."""
    decisions = request.setup.decisions(request.shoe)
    return analyze_checked(request.shoe, request.bets, decisions, request.evaluator, request.condition, request.unordered or "")


def run(request: AnalyzeRequest) -> Document:
    """The analysis the request asks for, as its document: by value, given a condition, for each
    pure choice where the rules leave one and no policy makes it, else the one analysis."""
    setup, shoe, bets, notes = request.setup, request.shoe, list(request.bets), list(request.notes)
    rules = setup.rule_set
    if request.by is not None:
        feature = request.by.lower()
        return by_document(feature, by_feature(shoe, bets, setup.decisions(shoe), feature, request.evaluator))
    if request.condition is None and rules.option_points() and not setup.policy_given():
        analyses = [analyze_checked(shoe, bets, resolve(rules, choice), request.evaluator, unordered=request.unordered or "")
                    for choice in pure_policies(rules)]
        return choices_document(analyses, notes, request.returns)
    return analysis_document(analysis(request), notes, request.returns)


def analyze(shoe: "Shoe | int | str | Mapping[str, int]", bets: "str | Bet | Iterable[str | Bet] | None" = None,
            rules: "DrawRules | Decisions | str" = PUNTO_BANCO, policy: "Policy | str | None" = None,
            engine: "Engine | None" = None, given: "Condition | str | None" = None, unordered: str = "") -> Analysis:
    """The outcome table of ``shoe`` and the return table of each bet, under ``rules`` with their
    choices fixed by ``policy`` (and, with ``given``, conditional on that condition): the root
    command's request (:class:`AnalyzeRequest`), built from these arguments and run, so that the
    library refuses what the command line and the server refuse, in the same words.

    Bets that read the coup at the same card slots and granularities (none, for most) share one
    enumeration of it; a bet that reads only the first cards (the pair bets) settles on those cards alone, counted as ordered draws of those cards (``unordered``:
    by hands or by sets of cards, as sources that count them so do). Given a
    condition, every bet is settled on the coups where it holds (counted as 6-card sequences).

    The shoe may be given as :func:`~exact_odds.core.shoe.as_shoe` reads one (``8``, ``"A=32,K=32"``),
    the bets as :func:`~exact_odds.bets.bets.chosen_bets` does (``"all"``, ``"banker, dragon_7"``; the main
    bets when None; no bet, an empty name or a bet given twice is refused), the rules by a preset's
    name or a rules file's path, the policy as ``--policy`` takes it (``optimal`` is solved for the
    shoe). What ``all`` leaves out is said in a UserWarning and kept in the analysis's notes.

    >>> result = analyze(8, "banker, tie")
    >>> result["banker"].house_edge  # 1.0579%, as every source gives it for 8 decks
    Fraction(114753351728, 10847218479825)
    >>> result.outcomes["tie"], result.total  # ordered 6-card sequences
    (475627426473216, 4998398275503360)
    >>> import warnings
    >>> with warnings.catch_warnings(record=True):  # "all" says what it leaves out as a UserWarning too
    ...     analyze("A=2,5=2,9=1,K=3", "all").to_dict()["notes"][0][:36]
    'left out (bets on suits need a shoe '
    >>> analyze(8, "player_pair", unordered="hands", given="winner == tie")
    Traceback (most recent call last):
    ...
    exact_odds.errors.InputError: unordered counts bets on the first cards alone; with given or by every bet is counted through the coup
    """
    setup = Setup.of_arguments(shoe=shoe, rules=rules, policy=policy, bets=bets)
    request = AnalyzeRequest(setup=setup, given=given, unordered=unordered, engine=engine)
    for note in request.notes:  # kept in the analysis too (its record's notes, as the command line prints them)
        warnings.warn(note, UserWarning, stacklevel=2)
    return replace(analysis(request), notes=request.notes)
