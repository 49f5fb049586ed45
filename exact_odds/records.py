"""Records, what a program reads of a result: the header of every JSON document, and a record as
HTML for a notebook. Standard library only, so that the engine and the output layer both use it.

Every JSON document begins with ``format`` (which record it is) and ``version`` (of the JSON
format, :data:`JSON_VERSION`; docs/json-format.md says what each version holds).

>>> versioned("analysis", {"total_combinations": 12})
{'format': 'exact_odds.analysis', 'version': 2, 'total_combinations': 12}
>>> record_html({"shoe": "8 decks", "bets": {"tie": {"house_edge": "1/7", "house_edge_percent": 14.285714285714286}}})
'<table><tr><th>shoe</th><td>8 decks</td></tr><tr><th>bets</th><td><table><tr><th></th><th>house_edge</th><th>house_edge_percent</th></tr><tr><th>tie</th><td>1/7</td><td>14.285714285714286</td></tr></table></td></tr></table>'
"""

from collections.abc import Mapping, Sequence

JSON_VERSION = 2
"""The JSON format's version: 1 was that of 0.3.0 and before (no header, decimals as strings),
2 gives decimals as numbers. It changes when a field is removed or changes type or meaning; a new
field may appear without a new version (a reader leaves alone what it does not know)."""


def versioned(kind: str, record: Mapping[str, object]) -> dict[str, object]:
    """``record`` under the header of a JSON document of ``kind`` (``format`` and ``version`` first)."""
    return {"format": f"exact_odds.{kind}", "version": JSON_VERSION, **record}


def record_html(record: object) -> str:
    """A record as nested HTML tables: a mapping as a table of its fields; a mapping of mappings (the
    bets by name) or a list of mappings (the rows of a return table) as one table with a column per
    field; anything else as escaped text (None as an empty cell)."""
    import html

    if isinstance(record, Mapping):
        inner = list(record.values())
        if inner and all(isinstance(value, Mapping) for value in inner):
            return _grid([str(key) for key in record], inner)
        rows = "".join(f"<tr><th>{html.escape(str(key))}</th><td>{record_html(value)}</td></tr>" for key, value in record.items())
        return f"<table>{rows}</table>"
    if isinstance(record, Sequence) and not isinstance(record, str):
        if record and all(isinstance(value, Mapping) for value in record):
            return _grid(None, list(record))
        return ", ".join(record_html(value) for value in record)
    return "" if record is None else html.escape(str(record))


def _grid(names: list[str] | None, rows: Sequence[object]) -> str:
    """Mappings as the rows of one table (named by ``names``, where given), a column per field."""
    import html

    columns = list(dict.fromkeys(key for row in rows if isinstance(row, Mapping) for key in row))
    head = ("<th></th>" if names is not None else "") + "".join(f"<th>{html.escape(str(key))}</th>" for key in columns)
    body = []
    for index, row in enumerate(rows):
        assert isinstance(row, Mapping)
        name = f"<th>{html.escape(names[index])}</th>" if names is not None else ""
        body.append(f"<tr>{name}{''.join(f'<td>{record_html(row.get(key))}</td>' for key in columns)}</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"
