"""What a command's output is made of: blocks in a document, said once, written in any format.

A command builds a :class:`Document` and :mod:`exact_odds.output.render` writes it as plain text,
Markdown, CSV, JSON, LaTeX or HTML. A block says what a part is (a heading, a table, a plot), never
how a format lays it out. A document holds its blocks (what a reader sees); its :class:`Data` (what
a program reads: the JSON record and, flat, the CSV table); and, where its typeset form says other
things than its text (formulas and exact fractions set as mathematics), its blocks for LaTeX.

Blocks are built, then read by the renderer: nothing compares, hashes, prints or changes them, so
their dataclasses generate ``__init__`` alone (the methods of frozen dataclasses would cost every
command's cold start several milliseconds for these sixteen classes).
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(eq=False, repr=False)
class Strong:
    """Text in bold, where the format has bold."""

    text: str


@dataclass(eq=False, repr=False)
class Link:
    """Text that links to ``target``; with ``page``, to the sibling page ``target`` in the format of
    the page that links to it (``target.html`` from HTML, ``target.md`` from Markdown)."""

    text: str
    target: str
    page: bool = False


@dataclass(eq=False, repr=False)
class Code:
    """Text to type as it is (a command line): code where the format has it."""

    text: str


@dataclass(eq=False, repr=False)
class Exact:
    """An exact number, with its decimal when one is given: set as mathematics in LaTeX."""

    value: Fraction
    decimal: str | None = None


Cell = str | Strong | Link
Span = str | Strong | Link | Exact | Code


@dataclass(eq=False, repr=False)
class Heading:
    level: int
    text: str


@dataclass(eq=False, repr=False)
class Paragraph:
    text: str | tuple[Span, ...]
    """Plain text (its line breaks kept in the text formats), or spans."""
    width: int | None = None
    """The text formats break it into lines of at most this many characters, between words only."""


@dataclass(eq=False, repr=False)
class Items:
    items: tuple[str, ...]
    lead: str | None = None
    """A line that introduces the list (in bold where the format has bold)."""
    label: str = ""
    """Plain text writes it before each item, where the other formats have a bullet; plain text
    writes the items as lines without a bullet otherwise."""


@dataclass(eq=False, repr=False)
class Preformatted:
    text: str
    """Lines laid out already (no final newline)."""
    wrap: bool = False
    """Long lines wrap (a formula), rather than scroll (a table)."""


@dataclass(eq=False, repr=False)
class Table:
    headers: tuple[Cell, ...]
    rows: tuple[tuple[Cell, ...], ...]
    align: tuple[str, ...] | None = None
    """Each column "left", "right" (numbers) or "center"; all "left" when None."""
    stub: int = 0
    """The leading columns that name a row (LaTeX rules them off from the others)."""
    indent: int = 0
    """Plain text: spaces before every line of the table."""
    details: tuple[tuple[str, ...], ...] = ()
    """Lines under each row (one tuple per row), in plain text indented two spaces further than
    the table and broken between words at ``width``."""
    width: int | None = None
    padded: bool = True
    """Markdown: each column as wide as its widest cell; False: each cell as it is, as in a table
    written by hand."""


@dataclass(eq=False, repr=False)
class Plot:
    name: str
    """The file name of the SVG beside a Markdown page, and the HTML id."""
    svg: str
    caption: str


@dataclass(eq=False, repr=False)
class Comment:
    """Lines for the reader of the source (LaTeX and HTML comments); plain text leaves them out."""

    lines: tuple[str, ...]


@dataclass(eq=False, repr=False)
class Equation:
    """``symbol`` sub ``subscript`` of ``variable`` equals an expression: ``name = text`` in plain
    text, with ``remark`` on a line under it; ``latex`` in LaTeX."""

    name: str
    symbol: str
    subscript: str
    variable: str
    text: str
    latex: str
    remark: str = ""


@dataclass(eq=False, repr=False)
class Equations:
    """Equations displayed together (aligned at their equals signs in LaTeX)."""

    equations: tuple[Equation, ...]


@dataclass(eq=False, repr=False)
class Group:
    """Blocks written on consecutive lines, without the blank line that separates blocks."""

    blocks: tuple["Block", ...]


Block = Heading | Paragraph | Items | Preformatted | Table | Plot | Comment | Equations | Group


@dataclass(eq=False, repr=False)
class Data:
    """What a program reads: ``record`` (JSON-able: dicts, lists, strings, numbers) and, for CSV,
    the same content as one flat ``table``."""

    record: object
    table: Table | None = None


@dataclass(eq=False, repr=False)
class Document:
    blocks: tuple[Block, ...]
    data: Data | None = None
    typeset: tuple[Block, ...] | None = None
    """The blocks of its LaTeX, where they differ from ``blocks``."""
    title: str | None = None
    """The page title (HTML, Markdown)."""


def cell(value: object) -> Cell:
    """A table cell: text, bold or a link as it is, anything else (a number, a fraction) as its ``str``."""
    return value if isinstance(value, (str, Strong, Link)) else str(value)


def table(headers: Sequence[object], rows: Iterable[Sequence[object]], align: Sequence[str] | None = None, stub: int = 0) -> Table:
    """A :class:`Table` of any cells (see :func:`cell`)."""
    return Table(tuple(cell(value) for value in headers), tuple(tuple(cell(value) for value in row) for row in rows),
                 None if align is None else tuple(align), stub)


def laid_out(text: str, record: object) -> Document:
    """A text laid out already (ending in a newline) and its JSON record."""
    return Document((Preformatted(text.removesuffix("\n")),), Data(record))
