"""The API reference (issue 21): generated from the docstrings by pdoc, with no warning; every public
name documented with an example that runs, and a short signature in ``help()``.

``python tests/test_api_reference.py OUT`` writes the reference into the folder OUT (its page
``OUT/index.html``) and exits with status 1, the warnings on stderr, if pdoc gave any."""

import doctest
import inspect
import subprocess
import sys
import warnings
from importlib import import_module
from pathlib import Path

import pytest

MODULES = ("exact_odds", "exact_odds.core.shoe", "exact_odds.core.rules", "exact_odds.core.policy", "exact_odds.bets.bets",
           "exact_odds.engine.analysis", "exact_odds.engine.batch", "exact_odds.engine.kernel", "exact_odds.core.cards", "exact_odds.errors",
           "exact_odds.records")
"""The package's page (every public name), the modules that define them (a constant's docstring is
read where it is assigned) and the modules of what they return."""
LONGEST_DEFAULT = 40
"""``help()`` shows each default of a public function in at most this many characters."""


def build(out: Path) -> list[str]:
    """Write the reference into ``out``; the warnings pdoc gave."""
    import pdoc
    import pdoc.render

    import exact_odds

    for name in exact_odds.__all__:  # imported on first use: pdoc reads the names the module holds
        getattr(exact_odds, name)
    pdoc.render.configure(docformat="restructuredtext", footer_text=f"exact_odds {exact_odds.__version__}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pdoc.pdoc(*MODULES, output_directory=out)
    return [f"{warning.category.__name__}: {warning.message}" for warning in caught]


def test_the_reference_builds_without_a_warning_and_shows_every_public_name(tmp_path):
    pytest.importorskip("pdoc")  # in the test extras; skipped only where it is not installed
    done = subprocess.run([sys.executable, __file__, str(tmp_path)], capture_output=True, text=True, cwd=Path(__file__).parent.parent)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr[-3000:]
    page = (tmp_path / "exact_odds.html").read_text(encoding="utf-8")
    import exact_odds

    missing = [name for name in exact_odds.PUBLIC if f'id="{name}"' not in page]
    assert not missing
    assert (tmp_path / "index.html").is_file() and (tmp_path / "exact_odds" / "engine" / "analysis.html").is_file()


def public_docstrings() -> list[tuple[str, str, dict[str, object]]]:
    """(name, docstring, the globals of its module) of every public name, as pdoc reads them in the
    module that defines it (a constant's docstring is the string under its assignment)."""
    pdoc_doc = pytest.importorskip("pdoc.doc")
    import exact_odds

    found = []
    for name, module_name in exact_odds.PUBLIC.items():
        module = import_module(f"exact_odds.{module_name}")
        found.append((name, pdoc_doc.Module(module).members[name].docstring, dict(vars(module))))
    return found


def test_every_public_name_has_an_example_that_runs():
    for name, docstring, globs in public_docstrings():
        test = doctest.DocTestParser().get_doctest(docstring, globs, name, None, 0)
        assert test.examples, f"{name}: no example in its docstring"
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        report: list[str] = []
        runner.run(test, out=report.append)
        assert runner.failures == 0, "".join(report)


def test_help_shows_short_signatures():
    import exact_odds

    for name in exact_odds.__all__:
        value = getattr(exact_odds, name)
        if not callable(value) or not (inspect.isfunction(value) or inspect.isclass(value) or hasattr(value, "__wrapped__")):
            continue
        for parameter in inspect.signature(value).parameters.values():
            if parameter.default is not inspect.Parameter.empty:
                assert len(repr(parameter.default)) <= LONGEST_DEFAULT, f"{name}({parameter.name}={parameter.default!r})"


if __name__ == "__main__":
    found = build(Path(sys.argv[1]))
    print("\n".join(found), file=sys.stderr, end="\n" if found else "")
    sys.exit(1 if found else 0)
