"""What a command's output is made of: blocks in a document, said once, written in any format.

A command builds a :class:`Document` and :mod:`exact_odds.output.render` writes it as plain text,
Markdown, CSV, JSON, LaTeX or HTML. A block says what a part is (a heading, a table, a plot), never
how a format lays it out. A document holds its blocks (what a reader sees); its :class:`Data` (what
a program reads: the JSON record and, flat, the CSV table); and, where its typeset form says other
things than its text (formulas and exact fractions set as mathematics), its blocks for LaTeX.

Blocks are built, then read by the renderer: nothing compares, hashes, prints or changes them, so
they are plain classes with an ``__init__`` alone (a dataclass execs the source of its methods when
its class is defined: about 2 ms of every command's cold start for these sixteen classes).
"""

from collections.abc import Iterable, Sequence
from fractions import Fraction


class Strong:
    """Text in bold, where the format has bold."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class Link:
    """Text that links to ``target``; with ``page``, to the sibling page ``target`` in the format of
    the page that links to it (``target.html`` from HTML, ``target.md`` from Markdown)."""

    __slots__ = ("text", "target", "page")

    def __init__(self, text: str, target: str, page: bool = False) -> None:
        self.text = text
        self.target = target
        self.page = page


class Code:
    """Text to type as it is (a command line): code where the format has it."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class Exact:
    """An exact number, with its decimal when one is given: set as mathematics in LaTeX."""

    __slots__ = ("value", "decimal")

    def __init__(self, value: Fraction, decimal: str | None = None) -> None:
        self.value = value
        self.decimal = decimal


Cell = str | Strong | Link
Span = str | Strong | Link | Exact | Code


class Heading:
    __slots__ = ("level", "text")

    def __init__(self, level: int, text: str) -> None:
        self.level = level
        self.text = text


class Paragraph:
    __slots__ = ("text", "width")

    def __init__(self, text: str | tuple[Span, ...], width: int | None = None) -> None:
        self.text = text
        """Plain text (its line breaks kept in the text formats), or spans."""
        self.width = width
        """The text formats break it into lines of at most this many characters, between words only."""


class Items:
    __slots__ = ("items", "lead", "label")

    def __init__(self, items: tuple[str, ...], lead: str | None = None, label: str = "") -> None:
        self.items = items
        self.lead = lead
        """A line that introduces the list (in bold where the format has bold)."""
        self.label = label
        """Plain text writes it before each item, where the other formats have a bullet; plain text
        writes the items as lines without a bullet otherwise."""


class Preformatted:
    __slots__ = ("text", "wrap")

    def __init__(self, text: str, wrap: bool = False) -> None:
        self.text = text
        """Lines laid out already (no final newline)."""
        self.wrap = wrap
        """Long lines wrap (a formula), rather than scroll (a table)."""


class Table:
    __slots__ = ("headers", "rows", "align", "stub", "indent", "details", "width", "padded")

    def __init__(self, headers: tuple[Cell, ...], rows: tuple[tuple[Cell, ...], ...], align: tuple[str, ...] | None = None, stub: int = 0,
                 indent: int = 0, details: tuple[tuple[str, ...], ...] = (), width: int | None = None, padded: bool = True) -> None:
        self.headers = headers
        self.rows = rows
        self.align = align
        """Each column "left", "right" (numbers) or "center"; all "left" when None."""
        self.stub = stub
        """The leading columns that name a row (LaTeX rules them off from the others)."""
        self.indent = indent
        """Plain text: spaces before every line of the table."""
        self.details = details
        """Lines under each row (one tuple per row), in plain text indented two spaces further than
        the table and broken between words at ``width``."""
        self.width = width
        self.padded = padded
        """Markdown: each column as wide as its widest cell; False: each cell as it is, as in a table
        written by hand."""


class Plot:
    __slots__ = ("name", "svg", "caption")

    def __init__(self, name: str, svg: str, caption: str) -> None:
        self.name = name
        """The file name of the SVG beside a Markdown page, and the HTML id."""
        self.svg = svg
        self.caption = caption


class Comment:
    """Lines for the reader of the source (LaTeX and HTML comments); plain text leaves them out."""

    __slots__ = ("lines",)

    def __init__(self, lines: tuple[str, ...]) -> None:
        self.lines = lines


class Equation:
    """``symbol`` sub ``subscript`` of ``variable`` equals an expression: ``name = text`` in plain
    text, with ``remark`` on a line under it; ``latex`` in LaTeX."""

    __slots__ = ("name", "symbol", "subscript", "variable", "text", "latex", "remark")

    def __init__(self, name: str, symbol: str, subscript: str, variable: str, text: str, latex: str, remark: str = "") -> None:
        self.name = name
        self.symbol = symbol
        self.subscript = subscript
        self.variable = variable
        self.text = text
        self.latex = latex
        self.remark = remark


class Equations:
    """Equations displayed together (aligned at their equals signs in LaTeX)."""

    __slots__ = ("equations",)

    def __init__(self, equations: tuple[Equation, ...]) -> None:
        self.equations = equations


class Group:
    """Blocks written on consecutive lines, without the blank line that separates blocks."""

    __slots__ = ("blocks",)

    def __init__(self, blocks: tuple["Block", ...]) -> None:
        self.blocks = blocks


Block = Heading | Paragraph | Items | Preformatted | Table | Plot | Comment | Equations | Group


class Data:
    """What a program reads: ``record`` (JSON-able: dicts, lists, strings, numbers) and, for CSV,
    the same content as one flat ``table``."""

    __slots__ = ("record", "table")

    def __init__(self, record: object, table: Table | None = None) -> None:
        self.record = record
        self.table = table


class Document:
    __slots__ = ("blocks", "data", "typeset", "title")

    def __init__(self, blocks: tuple[Block, ...], data: Data | None = None, typeset: tuple[Block, ...] | None = None,
                 title: str | None = None) -> None:
        self.blocks = blocks
        self.data = data
        self.typeset = typeset
        """The blocks of its LaTeX, where they differ from ``blocks``."""
        self.title = title
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
