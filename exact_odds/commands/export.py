"""Exact tables for many deck counts, written to a folder (results/ in the repository).

Per deck count, the outcome table and every catalog bet's return table in CSV, JSON (exact
fraction strings) and Markdown; a summary of each bet's house edge by deck count; chemin de fer
solved for each model and deck count (and the infinite deck) in ``chemin-de-fer/``; and an index.
The same input always gives byte-identical files.

>>> parse_deck_list("1-3,6,inf")
[1, 2, 3, 6, 'inf']
>>> percent_name(Fraction(5)), percent_name(Fraction(5, 2)), percent_name(Fraction(10, 3))
('5', '2.5', '10-over-3')
"""

from collections.abc import Callable
from fractions import Fraction

from ..engine.analysis import Analysis, analyze_checked
from ..bets.bets import Bet
from ..errors import InputError
from .analyze import analysis_document
from ..output.blocks import Code, Data, Document, Heading, Link, Paragraph, Table, table
from ..output.render import render_csv, render_json, render_markdown
from ..core.numbers import fixed, parse_count, shown
from ..core.policy import Decisions
from ..core.rules import PUNTO_BANCO
from ..core.shoe import shoe_of_decks
from ..records import versioned


MAX_DECK_COUNTS = 64
"""An export holds at most this many deck counts."""


def parse_deck_list(text: str) -> list[int | str]:
    """Deck counts from ``1-8``, ``1,2,6``, ``inf`` or a mix (at most :data:`MAX_DECK_COUNTS`)."""
    decks: list[int | str] = []
    if not str(text).strip():
        raise InputError("--decks is empty (expected e.g. 1-8, 1,2,6 or inf)")
    for part in (piece.strip().lower() for piece in str(text).split(",")):
        if part in ("inf", "infinite"):
            decks.append("inf")
            continue
        low, dash, high = part.partition("-")
        first = parse_count(low, "--decks", minimum=1)
        last = parse_count(high, "--decks", minimum=1) if dash else first
        if last < first:
            raise InputError(f"bad deck range {shown(part)}: low to high, e.g. 1-8")
        if last - first + len(decks) >= MAX_DECK_COUNTS:
            raise InputError(f"--decks {shown(text)} names more than {MAX_DECK_COUNTS} deck counts")
        decks.extend(range(first, last + 1))
    return list(dict.fromkeys(decks))


def summary_rows(analyses: dict[int | str, Analysis], sign: bool = True) -> list[list[str]]:
    """Each bet's house edge in percent by deck count (without the ``%`` sign: a number for CSV)."""
    names = [result.bet.name for result in next(iter(analyses.values())).bets]
    rows = []
    for index, name in enumerate(names):
        rows.append([name] + [fixed(analysis.bets[index].house_edge * 100, 6) + ("%" if sign else "") for analysis in analyses.values()])
    return rows


def summary_files(analyses: dict[int | str, Analysis]) -> dict[str, str]:
    """The house edge of every bet by deck count: exact in summary.json, in percent in summary.csv
    (numbers) and summary.md."""
    labels = [("infinite" if decks == "inf" else f"{decks} deck{'s' if decks != 1 else ''}") for decks in analyses]
    rows = summary_rows(analyses)
    exact = {
        result.bet.name: {str(decks): str(analysis.bets[index].house_edge) for decks, analysis in analyses.items()}
        for index, result in enumerate(next(iter(analyses.values())).bets)
    }
    document = Document((Heading(1, "House edge of every bet by deck count"), Paragraph("Exact values: summary.json."), table(["bet"] + labels, rows)),
                        Data(versioned("export_summary", {"house_edge_by_decks": exact}), table(["bet"] + [str(decks) for decks in analyses], summary_rows(analyses, sign=False))))
    return {"summary.csv": render_csv(document), "summary.json": render_json(document), "summary.md": render_markdown(document)}


def formula_files(bets: list[Bet], analyses: dict[int | str, Analysis], decisions: Decisions) -> dict[str, str]:
    from ..output.render import render_latex
    from ..studies.formulas import expectation_formulas, outcome_formulas
    from .formula import document as formulas_document

    document = formulas_document(outcome_formulas(decisions), expectation_formulas(bets, decisions, analyses))
    return {"formulas.json": render_json(document), "formulas.tex": render_latex(document)}


CHEMIN = "chemin-de-fer"
"""The subfolder of the chemin de fer solutions."""


def percent_name(percent: Fraction) -> str:
    """A percentage in a file name: its decimals when they end, else "n-over-d"."""
    places = next((places for places in range(20) if (percent * 10**places).denominator == 1), None)
    return f"{percent.numerator}-over-{percent.denominator}" if places is None else fixed(percent, places)


def chemin_cases(deck_list: list[int | str], commission: Fraction) -> list[tuple[str, int | str, Fraction]]:
    """The chemin de fer games an export solves: (model, decks, commission percent) for every model at
    each deck count and the infinite deck, without commission and with ``commission`` (when not zero)."""
    from ..games.chemin import MODELS

    decks_list = deck_list if "inf" in deck_list else [*deck_list, "inf"]
    rates = [Fraction(0)] + ([commission] if commission else [])
    return [(model, decks, rate) for rate in rates for model in MODELS for decks in decks_list]


def chemin_files(deck_list: list[int | str], commission: Fraction, progress: Callable[[int], None] | None = None) -> dict[str, str]:
    """Chemin de fer solved (:func:`exact_odds.games.chemin.solve`) for each of :func:`chemin_cases`: one
    JSON file each, as `chemin-de-fer --format json` prints it, and a summary (README.md).
    ``progress`` is called with 1 after each game."""
    from ..games.chemin import key_text, solve
    from .chemin import solution_document

    files: dict[str, str] = {}
    rows = []
    for model, decks, rate in chemin_cases(deck_list, commission):
        solution = solve(model, shoe_of_decks(decks), rate / 100)
        if progress is not None:
            progress(1)
        name = f"{model}-decks-{decks}" + (f"-commission-{percent_name(rate)}" if rate else "") + ".json"
        files[f"{CHEMIN}/{name}"] = render_json(solution_document(solution))
        player = "; ".join(f"{key_text(key)}: {share}" for key, share in solution.player.items())
        mixes = [f"{key_text(banker)} vs {third}" for banker, third, draw in solution.banker if 0 < draw < 1]
        rows.append([model, str(decks), f"{percent_name(rate)}%", str(solution.value), fixed(solution.value, 10),
                     fixed(solution.banker_value, 10), player, f"{len(mixes)}: {', '.join(mixes)}" if mixes else "0",
                     _unique_column(solution.uniqueness.player, solution.uniqueness.banker),
                     "holds" if solution.certificate.holds else "FAILS", Link(name, name)])
    header = ["model", "decks", "commission", "player's payoff", "decimal", "banker's payoff", "player draws on 5 (probability)",
              "banker mixes at", "unique", "certificate", "file"]
    about = "\n".join([
        " prints.",
        "Models: A (Kemeny and Snell: each side sees his total), B2 (Downton and Lockwood: the banker sees",
        "his two cards), B3 (Ethier and Gamez: each side sees his two cards); decks inf: cards drawn with",
        "replacement. Payoffs are per coup; without commission the player's payoff is the value of the",
        "game, with a commission on the banker's wins it is a Nash equilibrium's. The player draws on 5",
        "(by total, or under B3 by his two cards) with the probability shown; the banker mixes at the cells",
        "named (his total or two cards vs the player's third card, or stood) and plays pure elsewhere.",
        "The certificate recomputes both sides' best replies from the payoffs alone. `unique` says",
        "whether each side's strategy is the only one, decided exactly (docs/chemin.md, Uniqueness): each",
        "JSON file holds both sides' faces with the proofs of their extent, and where a side's strategy",
        "is not unique, the alternatives (the vertices of its face) with their payoffs.",
    ])
    about_spans = ("Written by ", Code("baccarat-odds export"), "; do not edit by hand. Each JSON file is what\n",
                   Code("baccarat-odds chemin-de-fer --model MODEL --decks DECKS [--commission PCT] --format json"), about)
    files[f"{CHEMIN}/README.md"] = render_markdown(Document((Heading(1, "Chemin de fer solved exactly"), Paragraph(about_spans), table(header, rows))))
    return files


def _unique_column(player: bool, banker: bool) -> str:
    """yes or no, per side when they differ."""
    return ("yes" if player else "no") if player == banker else f"player {'yes' if player else 'no'}, banker {'yes' if banker else 'no'}"


def export_steps(deck_list: list[int | str], decisions: Decisions, chemin: bool = True) -> int:
    """The steps :func:`export_files` counts to its ``progress``: one per deck count and one per chemin de fer game."""
    return len(deck_list) + (len(chemin_cases(deck_list, decisions.rules.commission)) if chemin else 0)


def export_files(deck_list: list[int | str], bets: list[Bet], decisions: Decisions, progress: Callable[[int], None] | None = None,
                 formulas: bool = True, chemin: bool = True) -> dict[str, str]:
    """Every table, by file name (an index, README.md, last). ``progress`` is called with 1 after
    each step (:func:`export_steps` counts them), so that one bar covers the whole export."""
    analyses: dict[int | str, Analysis] = {}
    files: dict[str, str] = {}
    for decks in deck_list:
        analysis = analyze_checked(shoe_of_decks(decks), bets, decisions)
        analyses[decks] = analysis
        if progress is not None:
            progress(1)
        document = analysis_document(analysis, returns=True)
        files.update({f"decks-{decks}.csv": render_csv(document), f"decks-{decks}.json": render_json(document),
                      f"decks-{decks}.md": render_markdown(document)})
    files.update(summary_files(analyses))
    if formulas:
        files.update(formula_files(bets, analyses, decisions))
    if chemin:
        files.update(chemin_files(deck_list, decisions.rules.commission, progress))
    files["README.md"] = index_text(deck_list, list(files), decisions)
    return files


def index_text(deck_list: list[int | str], written: list[str], decisions: Decisions) -> str:
    decks = ",".join(str(decks) for decks in deck_list)
    rules = "" if decisions.rules == PUNTO_BANCO and not decisions.policy else f" (rules: {decisions.rules.name}{', policy ' + decisions.policy.summary() if decisions.policy else ''})"
    rows: list[tuple[Link, str]] = []
    for name in written:
        if name.startswith("decks-"):
            stem, suffix = name.rsplit(".", 1)
            count = stem.split("-", 1)[1]
            what = "infinite deck" if count == "inf" else f"{count} deck{'s' if count != '1' else ''}"
            rows.append((Link(name, name), f"{what}: outcome table, every bet's return table ({suffix})"))
        elif name.startswith("formulas"):
            rows.append((Link(name, name), "closed forms in the number of decks d, with limits as d -> oo"))
        elif name == f"{CHEMIN}/README.md":
            rows.append((Link(f"{CHEMIN}/", name), "chemin de fer solved exactly as a game: models A, B2, B3, each deck count and the infinite deck"))
        elif not name.startswith(f"{CHEMIN}/"):
            rows.append((Link(name, name), "house edge of every bet by deck count"))
    return render_markdown(Document((
        Heading(1, "Exact baccarat tables"),
        Paragraph(("Generated by ", Code(f"baccarat-odds export --out results --decks {decks}"), f"{rules}; do not edit by hand.\n"
                   "A test regenerates them and fails when these files differ from what the tool writes.")),
        Paragraph("Combinations are ordered card sequences: 6 cards for bets settled on the coup, the cards read\n"
                  "for bets settled on fewer (the pair bets). Probabilities, expectations and house edges are\n"
                  "exact fractions in the JSON files; CSV and Markdown also show them as decimals.\n"
                  "manifest.json lists every file with its SHA-256."),
        Table(("file", "contents"), tuple(rows), padded=False),
    )))
