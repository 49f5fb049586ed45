"""The report's pages as a submission document: a cover, a table of contents, numbered sections,
formulas typeset in MathML, print styling and a PDF printed by Debian's chromium.

A page is a :class:`Submission`: its cover fields and its sections, each a list of the output
layer's blocks (:mod:`exact_odds.output.blocks`, written by :mod:`exact_odds.output.render`) and
of :class:`Formula` blocks, which only the report has. HTML sets a formula in MathML (no script,
nothing loaded: chromium and Firefox draw MathML natively), Markdown in LaTeX between ``$$``
(GitHub draws it), and both give the formula as plain text too.
"""

import html
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from .blocks import Block, Table
from .render import html_block, markdown_block, markdown_line, markdown_table

CHROMIUM = "chromium"
"""The browser that prints the PDF: Debian's chromium package."""
PRINT_TIMEOUT = 180
"""Seconds chromium may take to print one page."""


@dataclass(frozen=True)
class Formula:
    """A formula: ``text`` (plain), ``latex`` and ``mathml`` (the presentation markup inside <math>)."""

    text: str
    latex: str
    mathml: str


Part = Block | Formula


@dataclass(frozen=True)
class Section:
    key: str
    """The section's anchor (HTML id)."""
    title: str
    parts: tuple[Part, ...]
    new_page: bool = False
    """Printed from the top of a page."""


@dataclass(frozen=True)
class Submission:
    title: str
    cover: tuple[tuple[str, str], ...]
    """The cover's fields: (label, value)."""
    sections: tuple[Section, ...]


STYLE = """body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222;line-height:1.45}
table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}td.n{white-space:nowrap}th{background:#f2f2f2}
pre{background:#f7f7f7;padding:.75rem;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere}
figure{margin:1rem 0}figure svg{max-width:100%;height:auto}figcaption{font-size:.85rem;color:#555}
math[display=block]{margin:1rem 0;font-size:1.1rem;overflow-x:auto}
.cover table{font-size:1rem}.cover th{width:12rem}
nav ol{line-height:1.8}
@page{size:A4;margin:18mm 15mm 20mm 15mm;@bottom-right{content:"page " counter(page) " of " counter(pages);font:9pt system-ui,sans-serif;color:#555}}
@media print{body{max-width:none;margin:0;padding:0;font-size:10pt}
.cover{break-after:page}section.new-page{break-before:page}
table,figure,pre,math{break-inside:avoid}h2,h3{break-after:avoid}tr{break-inside:avoid}pre{white-space:pre-wrap}}"""
"""The page's style: screen, and print (A4 pages numbered "page n of m" with the title at their foot, the cover on a page of
its own, the main sections each from the top of a page)."""


def footer(title: str) -> str:
    """The print style's foot of every page: the title, left (a CSS string)."""
    quoted = title.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ").replace("<", "\\3c ")
    return f'@page{{@bottom-left{{content:"{quoted}";font:9pt system-ui,sans-serif;color:#555}}}}'



def formula_html(formula: Formula) -> str:
    mathml = formula.mathml.replace("&InvisibleTimes;", "&#x2062;")
    return (f'<math display="block" xmlns="http://www.w3.org/1998/Math/MathML">{mathml}</math>\n'
            f'<pre class="formula">{html.escape(formula.text)}</pre>')


def part_html(part: Part) -> str:
    return formula_html(part) if isinstance(part, Formula) else html_block(part)


def render_submission_html(page: Submission) -> str:
    """One self-contained HTML page: the cover, the contents, the sections (no script, nothing loaded)."""
    title = html.escape(page.title)
    cover_rows = "".join(f"<tr><th>{html.escape(label)}</th><td>{html.escape(value)}</td></tr>" for label, value in page.cover)
    contents = "".join(f'<li><a href="#{section.key}">{html.escape(section.title)}</a></li>' for section in page.sections)
    parts = [f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{title}</title>\n<style>\n{STYLE}\n{footer(page.title)}\n</style>\n</head>\n<body>',
             f'<div class="cover"><h1>{title}</h1><table><tbody>{cover_rows}</tbody></table></div>',
             f'<nav id="contents"><h2>Contents</h2><ol>{contents}</ol></nav>']
    for number, section in enumerate(page.sections, 1):
        inner = "\n".join(part_html(part) for part in section.parts)
        new_page = ' class="new-page"' if section.new_page else ""
        parts.append(f'<section id="{section.key}"{new_page}><h2>{number}. {html.escape(section.title)}</h2>\n{inner}</section>')
    return "\n".join(parts) + "\n</body>\n</html>\n"


def formula_markdown(formula: Formula) -> str:
    return f"$$\n{formula.latex}\n$$\n\n```text\n{formula.text}\n```"


def render_submission_markdown(page: Submission) -> str:
    """The same page in Markdown (GitHub): plots as the SVG files named after them, formulas in LaTeX."""
    cover = markdown_table(Table(("", page.title), tuple((label, value) for label, value in page.cover)))
    contents = "\n".join(f"{number}. [{section.title}](#{number}-{anchor(section.title)})" for number, section in enumerate(page.sections, 1))
    parts = [f"# {markdown_line(page.title)}", cover, "## Contents", contents]
    for number, section in enumerate(page.sections, 1):
        parts.append(f"## {number}. {markdown_line(section.title)}")
        parts += [formula_markdown(part) if isinstance(part, Formula) else markdown_block(part) for part in section.parts]
    return "\n\n".join(part for part in parts if part) + "\n"


def anchor(title: str) -> str:
    """GitHub's anchor of a heading's text (lower case, spaces to hyphens, punctuation dropped)."""
    return "".join(character for character in title.lower().replace(" ", "-") if character.isalnum() or character in "-_")


def chromium() -> str:
    """The chromium executable, or one clear line where it is not installed."""
    found = shutil.which(CHROMIUM)
    if found is None:
        raise InputError("report --pdf prints with Debian's chromium, which is not installed (apt-get install chromium), "
                         "or leave --pdf out: the HTML pages print from any browser")
    return found


def print_pdfs(pages: dict[str, str], executable: str) -> dict[str, bytes]:
    """Each HTML page (name: text) printed to PDF by headless chromium: name.pdf: its bytes."""
    printed: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="exact_odds-pdf-") as folder:
        root = Path(folder)
        for name, text in pages.items():
            source, target = root / f"{name}.html", root / f"{name}.pdf"
            source.write_text(text, encoding="utf-8")
            command = [executable, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                       "--disable-component-update", "--disable-sync", "--no-pdf-header-footer", f"--user-data-dir={root / 'profile'}",
                       f"--print-to-pdf={target}", source.as_uri()]
            try:
                subprocess.run(command, capture_output=True, timeout=PRINT_TIMEOUT, check=True, env={**os.environ, "TZ": "UTC"})
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as error:
                raise InputError(f"chromium could not print {name}.html to PDF: {str(error).splitlines()[0]}") from None
            if not target.is_file() or not target.read_bytes().startswith(b"%PDF"):
                raise InputError(f"chromium printed no PDF of {name}.html")
            printed[f"{name}.pdf"] = target.read_bytes()
    return printed

