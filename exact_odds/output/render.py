"""The one output layer: a :class:`~exact_odds.output.blocks.Document` written as plain text
(``table``, also called ``text``), ``markdown``, ``csv``, ``json``, ``latex`` or ``html``.

Plain text and Markdown separate blocks by a blank line (a :class:`Group` by none) and lay tables
out as :func:`~exact_odds.output.grid.grid` does; LaTeX writes a block per line, each paragraph
ended by a line break (``\\\\``); HTML is one self-contained page (inline CSS, plots as inline SVG).
JSON is the document's record, indented by two; CSV its flat table. The json, csv, html and
textwrap modules are imported by the formats that need them only.

>>> from exact_odds.output.blocks import Group, Heading, Paragraph, table
>>> document = Document((Group((Heading(2, "Shoe"), Paragraph("8 decks"))), table(["bet", "edge"], [["banker", "1.0579%"]], ("left", "right"))))
>>> print(render(document, "markdown"), end="")
## Shoe
8 decks
<BLANKLINE>
| bet    |    edge |
|--------|---------|
| banker | 1.0579% |
>>> print(render(document, "latex"), end="")
\\subsection*{Shoe}
8 decks\\\\
\\begin{tabular}{lr}
bet & edge \\\\ \\hline
banker & 1.0579\\% \\\\
\\end{tabular}\\\\
"""

import re
from collections.abc import Callable, Sequence
from fractions import Fraction

from ..errors import InputError
from .blocks import (
    Block,
    Cell,
    Code,
    Comment,
    Document,
    Equation,
    Equations,
    Exact,
    Heading,
    Items,
    Link,
    Paragraph,
    Plot,
    Preformatted,
    Span,
    Strong,
    Table,
)
from .grid import grid

DETAIL_INDENT = 2
"""Plain text indents the lines under a table's row by this many spaces more than the table."""
EQUATION_INDENT = "    "
"""Plain text indents the remark under an equation by this much."""


def json_text(record: object) -> str:
    """A record as the project writes JSON: indented by two, a newline at the end."""
    import json

    return json.dumps(record, indent=2) + "\n"


CSV_NUMBER = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?(?:/[0-9]+)?%?"  # compiled when first used: not by every command
"""A cell that is a number (an integer, a decimal, a fraction, a percentage), written as it is."""
CSV_FORMULA = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula in a cell."""


def csv_cell(text: str) -> str:
    """A cell as a spreadsheet shows it and never runs it: text that a spreadsheet would read as a
    formula (it starts with = + - @, a tab or a carriage return, and is not a number) is written
    after a single quote (the mark spreadsheets take for "text").

    >>> csv_cell("=1+2"), csv_cell("@SUM(A1)"), csv_cell("-43/415"), csv_cell("-1.5%"), csv_cell("- a note")
    ("'=1+2", "'@SUM(A1)", '-43/415', '-1.5%', "'- a note")
    """
    return "'" + text if text.startswith(CSV_FORMULA) and not re.fullmatch(CSV_NUMBER, text) else text


def csv_text(rows: Sequence[Sequence[str]]) -> str:
    """Rows as CSV lines ("\\n" after each, quoted only where needed), each cell as :func:`csv_cell` writes it."""
    import csv
    import io

    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows([csv_cell(cell) for cell in row] for row in rows)
    return buffer.getvalue()


def wrapped(text: str, width: int | None, indent: str = "") -> list[str]:
    """``text`` in lines of at most ``width`` characters (its spaces made single), broken between
    words only; one line when there is no width."""
    if width is None:
        return [indent + text]
    import textwrap

    return textwrap.wrap(" ".join(text.split()), width, initial_indent=indent, subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False)


def joined(parts: Sequence[str], separator: str) -> str:
    return separator.join(part for part in parts if part)


def plain(span: Span) -> str:
    """A span as plain text (an exact number with its decimal in brackets)."""
    if isinstance(span, Exact):
        return f"{span.value}" + (f" ({span.decimal})" if span.decimal is not None else "")
    return span if isinstance(span, str) else span.text


def spans(text: str | tuple[Span, ...]) -> tuple[Span, ...]:
    return (text,) if isinstance(text, str) else text


def equation_text(equation: Equation) -> str:
    return f"{equation.name} = {equation.text}" + (f"\n{EQUATION_INDENT}{equation.remark}" if equation.remark else "")


# --- plain text ---------------------------------------------------------------------------------


def text_table(block: Table) -> str:
    """The table as :func:`grid` lays it out (a last row of empty cells is an empty line)."""
    laid = grid([[plain(value) for value in row] for row in block.rows], [plain(value) for value in block.headers], block.align)
    lines = laid.splitlines() + [""] * laid.endswith("\n")
    pad = " " * block.indent
    placed = [pad + line for line in lines[:2]]
    for index, line in enumerate(lines[2:]):
        placed.append(pad + line)
        if block.details:
            placed += [part for detail in block.details[index] for part in wrapped(detail, block.width, " " * (block.indent + DETAIL_INDENT))]
    return "\n".join(placed)


def text_block(block: Block) -> str:
    if isinstance(block, Heading):
        return block.text
    if isinstance(block, Paragraph):
        return "\n".join(wrapped("".join(plain(span) for span in spans(block.text)), block.width))
    if isinstance(block, Items):
        return "\n".join(([block.lead] if block.lead else []) + [block.label + item for item in block.items])
    if isinstance(block, Preformatted):
        return block.text
    if isinstance(block, Table):
        return text_table(block)
    if isinstance(block, Plot):
        return block.caption
    if isinstance(block, Comment):
        return ""
    if isinstance(block, Equations):
        return "\n".join(equation_text(equation) for equation in block.equations)
    return joined([text_block(member) for member in block.blocks], "\n")


def render_text(document: Document) -> str:
    """Plain text: blocks separated by a blank line; tables as :func:`grid` lays them out."""
    return joined(([document.title] if document.title else []) + [text_block(block) for block in document.blocks], "\n\n") + "\n"


# --- Markdown -----------------------------------------------------------------------------------


def markdown_text(text: str, cell: bool = False) -> str:
    """Text as Markdown shows it, never as markup: HTML's ``&`` and ``<`` as entities (no tag or
    script a user wrote lands in the page as one), a backslash and a link's ``[`` escaped; in a
    table cell (``cell``) a ``|`` escaped and a line break as a space too. (Text meant as code is a
    :class:`~exact_odds.output.blocks.Code` span.)

    >>> markdown_text("<script>alert(1)</script> & [a](javascript:b)")
    '&lt;script>alert(1)&lt;/script> &amp; \\\\[a](javascript:b)'
    >>> markdown_text("a|b\\nc", cell=True)
    'a\\\\|b c'
    """
    text = text.replace("\\", "\\\\").replace("&", "&amp;").replace("<", "&lt;").replace("[", "\\[")
    return " ".join(text.replace("|", "\\|").splitlines()) if cell else text


def markdown_line(text: str) -> str:
    """Text on one line of Markdown (a heading, an item): as :func:`markdown_text`, a line break as a space."""
    return " ".join(markdown_text(text).splitlines())


def markdown_fence(text: str) -> str:
    """``text`` as a fenced block, its fence longer than any run of backquotes inside (none closes it)."""
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


def comment_line(line: str) -> str:
    """A line inside an HTML (or Markdown) comment that cannot end it: its HTML escaped, ``--`` broken, on one line."""
    import html

    return " ".join(html.escape(line).replace("--", "- -").splitlines())


def markdown_code(text: str) -> str:
    """Code inline, its backquotes longer than any run of them inside."""
    ticks = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    padding = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{padding}{text}{padding}{ticks}"


def markdown_span(span: Span, escape: bool = False) -> str:
    if isinstance(span, Code):
        return markdown_code(" ".join(span.text.splitlines()))
    text = markdown_text(plain(span), cell=escape)
    if isinstance(span, Link):
        return f"[{text}]({span.target}{'.md' if span.page else ''})"
    return f"**{text}**" if isinstance(span, Strong) else text


def markdown_table(block: Table) -> str:
    headers = [markdown_span(value, escape=True) for value in block.headers]
    rows: list[list[str]] = []
    for index, row in enumerate(block.rows):
        rows.append([markdown_span(value, escape=True) for value in row])
        details = block.details[index] if block.details else ()
        rows += [[markdown_text(detail, cell=True)] + [""] * (len(headers) - 1) for detail in details]
    if block.padded:
        return grid(rows, headers, block.align, markdown=True)
    return "\n".join("| " + " | ".join(line) + " |" for line in [headers, ["---"] * len(headers), *rows])


def markdown_block(block: Block) -> str:
    if isinstance(block, Heading):
        return f"{'#' * block.level} {markdown_line(block.text)}"
    if isinstance(block, Paragraph):
        return "".join(markdown_span(span) for span in spans(block.text))
    if isinstance(block, Items):
        listed = "\n".join(f"- {markdown_line(item)}" for item in block.items)
        return joined([f"**{markdown_line(block.lead)}**" if block.lead else "", listed], "\n\n")
    if isinstance(block, Preformatted):
        return markdown_fence(block.text)
    if isinstance(block, Table):
        return markdown_table(block)
    if isinstance(block, Plot):
        caption = markdown_line(block.caption).replace("]", "\\]")
        return f"![{caption}]({block.name}.svg)"
    if isinstance(block, Comment):
        return "\n".join(f"<!-- {comment_line(line)} -->" for line in block.lines)
    if isinstance(block, Equations):
        return markdown_fence("\n".join(equation_text(equation) for equation in block.equations))
    return joined([markdown_block(member) for member in block.blocks], "\n")


def render_markdown(document: Document) -> str:
    """Markdown (GitHub): blocks separated by a blank line, the title as the page's heading, plots
    as the SVG files named after them. Text is never markup (:func:`markdown_text`)."""
    title = [f"# {markdown_line(document.title)}"] if document.title else []
    return joined(title + [markdown_block(block) for block in document.blocks], "\n\n") + "\n"


# --- LaTeX --------------------------------------------------------------------------------------


LATEX_SPECIAL = str.maketrans({"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
                               "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "*": "$^*$"})
"""Text made safe for LaTeX; an asterisk (a mark, as in the tableau's "D*") is set as a superscript."""
LATEX_COLUMNS = {"left": "l", "right": "r", "center": "c"}


def latex_fraction(value: Fraction) -> str:
    sign = "-" if value < 0 else ""
    return f"{sign}\\frac{{{abs(value.numerator)}}}{{{value.denominator}}}" if value.denominator != 1 else str(value)


def latex_span(span: Span) -> str:
    if isinstance(span, Exact):
        return f"${latex_fraction(span.value)}" + (f" \\approx {span.decimal}" if span.decimal is not None else "") + "$"
    if isinstance(span, Strong):
        return f"\\textbf{{{span.text.translate(LATEX_SPECIAL)}}}"
    if isinstance(span, Link):
        return f"\\href{{{span.target}}}{{{span.text.translate(LATEX_SPECIAL)}}}"
    if isinstance(span, Code):
        return f"\\texttt{{{span.text.translate(LATEX_SPECIAL)}}}"
    return span.translate(LATEX_SPECIAL)


def latex_table(block: Table) -> str:
    columns = [LATEX_COLUMNS[side] for side in block.align or ["left"] * len(block.headers)]
    spec = "".join(columns[:block.stub]) + ("|" if block.stub else "") + "".join(columns[block.stub:])
    lines = [f"\\begin{{tabular}}{{{spec}}}", " & ".join(latex_span(value) for value in block.headers) + r" \\ \hline"]
    for index, row in enumerate(block.rows):
        lines.append(" & ".join(latex_span(value) for value in row) + r" \\")
        details = block.details[index] if block.details else ()
        lines += [f"\\multicolumn{{{len(block.headers)}}}{{l}}{{{detail.translate(LATEX_SPECIAL)}}} \\\\" for detail in details]
    return "\n".join(lines + [r"\end{tabular}\\"])


def latex_equations(block: Equations) -> str:
    lines = [r"\begin{align*}"]
    for equation in block.equations:
        symbol = equation.symbol if len(equation.symbol) == 1 else f"\\mathrm{{{equation.symbol}}}"
        subscript = f"_{{\\text{{{equation.subscript.translate(LATEX_SPECIAL)}}}}}" if equation.subscript else ""
        lines.append(f"{symbol}{subscript}({equation.variable}) &= {equation.latex} \\\\")
    lines[-1] = lines[-1].removesuffix(" \\\\")
    return "\n".join(lines + [r"\end{align*}"])


def latex_block(block: Block) -> str:
    if isinstance(block, Heading):  # on one line: a blank line inside the argument would end it
        return f"\\{'sub' * min(block.level - 1, 2)}section*{{{' '.join(block.text.splitlines()).translate(LATEX_SPECIAL)}}}"
    if isinstance(block, Paragraph):
        if isinstance(block.text, str):
            return "\n".join(line.translate(LATEX_SPECIAL) + "\\\\" for line in block.text.split("\n"))
        return "".join(latex_span(span) for span in block.text) + "\\\\"
    if isinstance(block, Items):
        lead = [f"\\textbf{{{' '.join(block.lead.splitlines()).translate(LATEX_SPECIAL)}}}\\\\"] if block.lead else []
        listed = [r"\begin{itemize}", *(f"\\item {' '.join(item.splitlines()).translate(LATEX_SPECIAL)}" for item in block.items),
                  r"\end{itemize}"] if block.items else []
        return "\n".join(lead + listed)
    if isinstance(block, Preformatted):  # the one line that would end a verbatim block early, broken
        text = block.text.replace(r"\end{verbatim}", r"\end {verbatim}")
        return f"\\begin{{verbatim}}\n{text}\n\\end{{verbatim}}"
    if isinstance(block, Table):
        return latex_table(block)
    if isinstance(block, Plot):
        return f"% {block.name}.svg: {' '.join(block.caption.splitlines())}"
    if isinstance(block, Comment):  # a comment runs to the end of its line: each kept on one
        return "\n".join(f"% {' '.join(line.splitlines())}" for line in block.lines)
    if isinstance(block, Equations):
        return latex_equations(block)
    return joined([latex_block(member) for member in block.blocks], "\n")


def render_latex(document: Document) -> str:
    """LaTeX: the document's typeset blocks (its blocks when it has none of its own), a line each."""
    blocks = document.typeset if document.typeset is not None else document.blocks
    title = [f"\\section*{{{document.title.translate(LATEX_SPECIAL)}}}"] if document.title else []
    return joined(title + [latex_block(block) for block in blocks], "\n") + "\n"


# --- HTML ---------------------------------------------------------------------------------------


STYLE = """body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222;line-height:1.45}
table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}td.n{white-space:nowrap}th{background:#f2f2f2}
pre{background:#f7f7f7;padding:.75rem;overflow-x:auto}pre.formula{white-space:pre-wrap;overflow-wrap:anywhere}
figure{margin:1rem 0}figure svg{max-width:100%;height:auto}figcaption{font-size:.85rem;color:#555}"""


def inline_svg(figure: Plot) -> str:
    """The SVG as an element of the page: no XML prolog, and its ids prefixed so that plots do not share them."""
    svg = figure.svg[figure.svg.index("<svg"):]
    return re.sub(r'(id="|url\(#|href="#)', rf"\g<1>{figure.name}-", svg)


def html_span(span: Span) -> str:
    import html

    text = html.escape(plain(span))
    if isinstance(span, Code):
        return f"<code>{text}</code>"
    if isinstance(span, Link):
        return f'<a href="{html.escape(span.target + (".html" if span.page else ""))}">{text}</a>'
    return f"<strong>{text}</strong>" if isinstance(span, Strong) else text


def html_table(block: Table) -> str:
    import html

    numeric = [side == "right" for side in block.align or ["left"] * len(block.headers)]

    def cells(values: Sequence[Cell], tag: str) -> str:
        right_aligned = ' class="n"'
        return "".join(f"<{tag}{right_aligned if right else ''}>{html_span(value)}</{tag}>" for value, right in zip(values, numeric))

    body = []
    for index, row in enumerate(block.rows):
        body.append(f"<tr>{cells(row, 'td')}</tr>")
        details = block.details[index] if block.details else ()
        body += [f'<tr><td colspan="{len(block.headers)}">{html.escape(detail)}</td></tr>' for detail in details]
    return f"<table><thead><tr>{cells(block.headers, 'th')}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def html_block(block: Block) -> str:
    import html

    if isinstance(block, Heading):
        return f"<h{block.level}>{html.escape(block.text)}</h{block.level}>"
    if isinstance(block, Paragraph):
        return f"<p>{''.join(html_span(span) for span in spans(block.text))}</p>"
    if isinstance(block, Items):
        lead = f"<p><strong>{html.escape(block.lead)}</strong></p>" if block.lead else ""
        return lead + "<ul>" + "".join(f"<li>{html.escape(item)}</li>" for item in block.items) + "</ul>"
    if isinstance(block, Preformatted):
        wrapped_class = ' class="formula"'
        return f"<pre{wrapped_class if block.wrap else ''}>{html.escape(block.text)}</pre>"
    if isinstance(block, Table):
        return html_table(block)
    if isinstance(block, Plot):
        return f'<figure id="{block.name}">{inline_svg(block)}<figcaption>{html.escape(block.caption)}</figcaption></figure>'
    if isinstance(block, Comment):
        return "\n".join(f"<!-- {comment_line(line)} -->" for line in block.lines)
    if isinstance(block, Equations):
        return f"<pre>{html.escape(chr(10).join(equation_text(equation) for equation in block.equations))}</pre>"
    return joined([html_block(member) for member in block.blocks], "\n")


def render_html(document: Document) -> str:
    """One self-contained HTML page (inline CSS, inline SVG)."""
    import html

    title = html.escape(document.title or "")
    parts = [f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{title}</title>\n<style>\n{STYLE}\n</style>\n</head>\n<body>"]
    parts += [f"<h1>{title}</h1>"] if document.title else []
    return joined(parts + [html_block(block) for block in document.blocks], "\n") + "\n</body>\n</html>\n"


# --- data ---------------------------------------------------------------------------------------


def render_json(document: Document) -> str:
    """The document's record as JSON."""
    if document.data is None:
        raise InputError("this output has no JSON form")
    return json_text(document.data.record)


def render_csv(document: Document) -> str:
    """The document's flat table as CSV, its headers first."""
    if document.data is None or document.data.table is None:
        raise InputError("this output has no CSV form (one table)")
    table = document.data.table
    return csv_text([[plain(value) for value in line] for line in (table.headers, *table.rows)])


RENDERERS: dict[str, Callable[[Document], str]] = {
    "table": render_text,
    "text": render_text,
    "markdown": render_markdown,
    "csv": render_csv,
    "json": render_json,
    "latex": render_latex,
    "html": render_html,
}
"""Each format by name ("text" is "table": plain text)."""


def render(document: Document, fmt: str) -> str:
    """``document`` in the format named ``fmt`` (one of :data:`RENDERERS`)."""
    renderer = RENDERERS.get(fmt)
    if renderer is None:
        raise InputError(f"unknown format {fmt!r} (expected {', '.join(RENDERERS)})")
    return renderer(document)
