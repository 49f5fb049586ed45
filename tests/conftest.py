import os

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
    from exact_odds.cli import main

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
