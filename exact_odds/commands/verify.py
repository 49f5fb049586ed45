"""The `verify` command: its request (which published figures), and its table: each figure beside
our exact value and its verdict, grouped by source, and the record."""

from dataclasses import dataclass
from itertools import groupby

from ..core.numbers import fixed
from ..errors import InputError
from ..output.blocks import Block, Data, Document, Group, Paragraph, Table, table
from ..records import versioned
from ..studies.figures import Figure, parse_printed, published_figures
from ..studies.verify import STANDARD_ERRORS, Check
from .setup import Setup


@dataclass(frozen=True, kw_only=True)
class VerifyRequest:
    """The published figures to check: those of ``data`` (a TOML file; None: the shipped one) whose
    source or URL holds ``source`` and whose bet is ``bet``, the simulation records only with
    ``simulate``; a bet of ``setup``'s bets file where a record names one."""

    setup: Setup
    data: str | None = None
    source: str | None = None
    bet: str | None = None
    simulate: bool = False

    def __post_init__(self) -> None:
        for name in ("source", "bet"):
            text = getattr(self, name)
            if text is not None and not text.strip():
                raise InputError(f"{name} is empty: give the text to match, or leave {name} out", parameter=name, mentions=(name,))


def figures_of(request: VerifyRequest) -> tuple[list[Figure], int]:
    """The figures the request keeps, and how many simulation records it leaves out (no ``simulate``)."""
    figures = published_figures(request.data)
    if request.source:
        words = request.source.lower()
        figures = [figure for figure in figures if words in (figure.source + " " + figure.url).lower()]
    if request.bet:
        figures = [figure for figure in figures if figure.bet == request.bet.lower()]
    skipped = 0 if request.simulate else sum(figure.simulated for figure in figures)
    figures = [figure for figure in figures if request.simulate or not figure.simulated]
    if not figures:
        raise InputError("no published figure matches the filters" + (f" ({skipped} simulation records: give simulate)" if skipped else ""),
                         mentions=("simulate",))
    return figures, skipped

WIDTH = 120
"""The table of `verify` keeps its lines to this many characters where the words allow (none is cut)."""
INDENT = 2
"""The table of a source is indented by this many spaces under the source's name."""


def document(checks: list[Check], skipped: int = 0) -> Document:
    """The checks as a table per source (figure, published, computed, verdict) with a line below
    each figure that needs words (why it is known wrong, what was simulated, the exact value of a
    mismatch), a simulated figure showing our estimate with its standard error; and the record.
    ``skipped``: simulation records left out of the run."""

    def decimal(check: Check) -> str:
        if check.size:
            return check.size
        printed = parse_printed(check.figure.value)
        if check.estimate is not None:
            factor, sign = (100, "%") if printed.percent else (1, "")
            places = (printed.places or 0) + 2
            return f"{check.estimate.value * factor:.{places}f}{sign} ± {check.estimate.standard_error * factor:.{places}f}{sign}"
        assert check.exact is not None
        if printed.places is None:
            return f"{int(check.exact):,}" if check.exact.denominator == 1 else fixed(check.exact, 2)
        return fixed(check.exact * (100 if printed.percent else 1), printed.places + 3) + ("%" if printed.percent else "")

    def details(check: Check) -> tuple[str, ...]:
        figure, lines = check.figure, []
        if check.estimate is not None:
            lines.append(f"simulated, {figure.shoes:,} shoes, seed {figure.seed}")
        if check.failed and check.exact is not None:
            exact = str(check.exact)
            lines.append(f"exact: {exact if len(exact) <= WIDTH // 2 else '(see --format json)'}")
        if figure.known_wrong:
            lines.append(("known wrong: " if check.verdict == "known-wrong" else "marked known-wrong, yet it matches: ") + figure.known_wrong)
        return tuple(lines)

    failed = sum(check.failed for check in checks)
    stale = sum(check.verdict.startswith("stale") for check in checks)
    clauses = [f"{len(checks)} figures: {len(checks) - failed} as expected, {failed} mismatch, {stale} stale known-wrong marks"]
    if any(check.estimate for check in checks):
        clauses.append(f"simulated figures match within {STANDARD_ERRORS} standard errors of our estimate (± one standard error shown)")
    if skipped:
        clauses.append(f"{skipped} simulation records not run (--simulate runs them)")
    records = [
        {
            "id": check.figure.id,
            "measure": check.figure.measure,
            "bet": check.figure.bet,
            "when": check.figure.when,
            "decks": check.figure.decks,
            "published": check.figure.value,
            "computed": check.size or (None if check.exact is None else str(check.exact)),
            **({"simulated": {"value": check.estimate.value, "standard_error": check.estimate.standard_error,
                              "shoes": check.figure.shoes, "seed": check.figure.seed}} if check.estimate else {}),
            "verdict": check.verdict,
            "known_wrong": check.figure.known_wrong,
            "source": check.figure.source,
            "url": check.figure.url,
            "author": check.figure.author,
            "note": check.figure.note,
        }
        for check in checks
    ]
    blocks: list[Block] = []
    for (source, url), members in groupby(checks, key=lambda item: (item.figure.source, item.figure.url)):
        group = list(members)
        cells = table(["figure", "published", "computed", "verdict"],
                      [[" ".join(part.split()) for part in (item.figure.id, item.figure.value, decimal(item), item.verdict)] for item in group])
        figures = Table(cells.headers, cells.rows, indent=INDENT, details=tuple(details(item) for item in group), width=WIDTH)
        blocks.append(Group((Paragraph(source, WIDTH), Paragraph(url, WIDTH), figures)))
    blocks.append(Paragraph("\n".join(clauses + ["exact values: --format json"])))
    return Document(tuple(blocks), Data(versioned("verify", {"summary": "; ".join(clauses), "figures": records})))
