"""Tables of text cells, plain or as a markdown (GitHub) table.

The layout is tabulate's "simple" and "github" formats with numbers left as written: each column is
as wide as its widest cell and at least two wider than its heading; cells are stripped of surrounding
spaces; a plain row ends without trailing spaces.

>>> print(grid([["Banker", "0.4586"], ["Tie", "0.0952"]], ["outcome", "p"], ("left", "right")))
outcome         p
---------  ------
Banker     0.4586
Tie        0.0952
>>> print(grid([["Banker", "0.4586"]], ["outcome", "p"], ("left", "right"), markdown=True))
| outcome   |      p |
|-----------|--------|
| Banker    | 0.4586 |
"""

from collections.abc import Sequence

HEADING_MARGIN = 2


def grid(rows: Sequence[Sequence[object]], headers: Sequence[str], align: Sequence[str] | None = None, markdown: bool = False) -> str:
    """``rows`` under ``headers``, each column aligned "left" (the default) or "right"."""
    cells = [[str(cell).strip() for cell in row] for row in rows]
    alignment = list(align) if align is not None and cells else ["left"] * len(headers)
    widths = [max([len(heading) + HEADING_MARGIN] + [len(row[index]) for row in cells]) for index, heading in enumerate(headers)]

    def line(values: Sequence[str]) -> str:
        placed = [value.rjust(width) if side == "right" else value.ljust(width) for value, width, side in zip(values, widths, alignment)]
        return "| " + " | ".join(placed) + " |" if markdown else "  ".join(placed).rstrip()

    rule = "|" + "|".join("-" * (width + 2) for width in widths) + "|" if markdown else "  ".join("-" * width for width in widths)
    return "\n".join([line(headers), rule] + [line(row) for row in cells])
