"""Every `$ baccarat-odds ...` example of the README and docs/ prints, byte for byte, what it shows.

An example is a fenced block whose first line is `$ baccarat-odds ARGS`, optionally piped through
one `head -N` or `tail -N`; the lines after it, up to the closing fence, are its standard output.
`python tests/test_docs.py` rewrites every example's output with what the command prints now.
"""

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```[a-z]*\n(\$ [^\n]*)\n(.*?)^```$", re.M | re.S)
COMMAND = re.compile(r"\$ baccarat-odds (?P<args>[^|]*?)(?: \| (?P<filter>head|tail) -(?P<lines>\d+))?")


def blocks():
    """(page, line, first line, shown output) of every fenced block that starts with `$ `."""
    for page in PAGES:
        text = page.read_text()
        for match in BLOCK.finditer(text):
            yield page.name, text.count("\n", 0, match.start()) + 1, match[1], match[2]


def shown_part(command: re.Match, out: str) -> str:
    """The part of the whole output that the example's `head -N` or `tail -N` shows."""
    if not command["filter"]:
        return out
    lines = out.splitlines(keepends=True)
    count = int(command["lines"])
    return "".join(lines[:count] if command["filter"] == "head" else lines[-count:])


EXAMPLES = [pytest.param(prompt, shown, id=f"{page}:{line}") for page, line, prompt, shown in blocks()]


def test_every_example_is_one_the_test_can_run():
    unreadable = [f"{page}:{line}: {prompt}" for page, line, prompt, _ in blocks() if not COMMAND.fullmatch(prompt)]
    assert unreadable == []
    pages = {page for page, *_ in blocks()}
    assert {"README.md", "deal.md", "language.md", "rules.md", "verify.md", "report.md"} <= pages


@pytest.mark.parametrize("prompt, shown", EXAMPLES)
def test_example_prints_what_it_shows(run, prompt, shown):
    command = COMMAND.fullmatch(prompt)
    assert command, prompt
    code, out, err = run(*shlex.split(command["args"]))
    assert (code, err) == (0, "")
    assert shown_part(command, out) == shown


def refresh() -> None:
    """Rewrite each example's output with what the command prints now (review the diff)."""
    for page in PAGES:
        def rerun(match: re.Match) -> str:
            command = COMMAND.fullmatch(match[1])
            assert command, match[1]
            args = [sys.executable, "-m", "exact_odds", *shlex.split(command["args"])]
            out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
            text = match.string
            return text[match.start():match.start(2)] + shown_part(command, out) + text[match.end(2):match.end()]
        page.write_text(BLOCK.sub(rerun, page.read_text()))


if __name__ == "__main__":
    refresh()
