import dataclasses
import numbers
import os
from enum import Enum
from fractions import Fraction
from functools import cached_property

import numpy as np
import pytest

from hypothesis import settings

# CI draws the same examples every run (derandomized); developers' runs explore new ones.
settings.register_profile("ci", max_examples=30, deadline=None, derandomize=True, print_blob=True)
settings.register_profile("default", max_examples=30, deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")


@pytest.fixture(scope="session", autouse=True)
def table_cache(tmp_path_factory):
    """Tables kept on disk go to a folder of this run (inherited by the commands tests start),
    never to the user's cache."""
    folder = tmp_path_factory.mktemp("table-cache")
    previous = os.environ.get("EXACT_ODDS_CACHE")
    os.environ["EXACT_ODDS_CACHE"] = str(folder)
    yield folder
    if previous is None:
        del os.environ["EXACT_ODDS_CACHE"]
    else:
        os.environ["EXACT_ODDS_CACHE"] = previous


@pytest.fixture
def run(capsys):
    """Run the command in-process: (exit status, stdout, stderr)."""
    from exact_odds.cli.commands import main

    def invoke(*args: str) -> tuple[int, str, str]:
        with pytest.raises(SystemExit) as exit_info:
            main(list(args))
        captured = capsys.readouterr()
        return exit_info.value.code, captured.out, captured.err

    return invoke


@pytest.fixture
def without_matplotlib(monkeypatch):
    """Importing matplotlib fails, as where the plot extra is not installed."""
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)


def assert_exact(result: object) -> None:
    """Every number of an analysis (an Analysis, a BetAnalysis or anything holding them) is an
    ``int`` or a ``Fraction``: the fields (of dataclasses and values) and properties are walked recursively (with each
    outcome's probability); a float, a numpy number or a numpy array anywhere fails."""
    from exact_odds.core.values import Frozen
    from exact_odds.engine.analysis import Analysis

    problems: list[str] = []
    seen: set[int] = set()

    def walk(value: object, path: str) -> None:
        if value is None or isinstance(value, (bool, str, Enum)):
            return
        if isinstance(value, (numbers.Number, np.generic)):
            if type(value) not in (int, Fraction):
                problems.append(f"{path} is {type(value).__name__} {value!r}")
            return
        if isinstance(value, np.ndarray):
            problems.append(f"{path} is a numpy array of {value.dtype}")
            return
        if isinstance(value, dict):
            for key, item in value.items():
                walk(key, f"{path} key {key!r}")
                walk(item, f"{path}[{key!r}]")
            return
        if isinstance(value, (tuple, list, set, frozenset)):
            for index, item in enumerate(value):
                walk(item, f"{path}[{index}]")
            return
        if isinstance(value, Frozen) and id(value) not in seen:
            names = value.field_names()
        elif dataclasses.is_dataclass(value) and not isinstance(value, type) and id(value) not in seen:
            names = tuple(field.name for field in dataclasses.fields(value))
        else:
            return
        seen.add(id(value))
        for name in names:
            walk(getattr(value, name), f"{path}.{name}")
        for name in dir(type(value)):
            if isinstance(getattr(type(value), name), (property, cached_property)):
                walk(getattr(value, name), f"{path}.{name}")
        if isinstance(value, Analysis):
            for outcome in value.outcomes:
                walk(value.probability(outcome), f"{path}.probability({outcome!r})")

    walk(result, type(result).__name__)
    assert not problems, "inexact numbers:\n" + "\n".join(problems[:20])
