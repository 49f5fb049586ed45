"""The default command, its coup table cached, loads only what it uses: no numpy.ma and no
pattern module (each costs milliseconds of every cold start)."""

import os
import subprocess
import sys
from pathlib import Path

PROBE = """
import sys
from exact_odds.cli.commands import main
try:
    main(["--decks", "8"])
except SystemExit as stop:
    assert stop.code == 0, stop.code
print(sorted(name for name in ("numpy.ma", "exact_odds.engine.patterns") if name in sys.modules), file=sys.stderr)
"""


def test_cached_default_command_skips_unused_modules(tmp_path: Path) -> None:
    environment = {**os.environ, "EXACT_ODDS_CACHE": str(tmp_path)}
    built, cached = (subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=environment) for _ in range(2))
    assert built.returncode == 0, built.stderr[-2000:]
    assert list(tmp_path.glob("coup-*.table")), "the first run keeps its table"
    assert cached.returncode == 0, cached.stderr[-2000:]
    assert cached.stderr.strip().splitlines()[-1] == "[]", cached.stderr[-2000:]
    assert cached.stdout == built.stdout


LAZY = ("exact_odds.cli.studies", "exact_odds.cli.folders", "exact_odds.cli.server")
"""The modules of commands that the group imports when one of them is named (or all are listed)."""


def test_the_commands_of_other_modules_are_built_when_named() -> None:
    probe = f"""
import sys
from exact_odds.cli.commands import cli
print(sorted(name for name in {LAZY!r} if name in sys.modules))
import click
context = click.Context(cli)
print(cli.get_command(context, "shoe").name, sorted(name for name in {LAZY!r} if name in sys.modules))
print(len(cli.list_commands(context)), cli.get_command(context, "nosuch"), sorted(name for name in {LAZY!r} if name in sys.modules))
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == ["[]", "shoe ['exact_odds.cli.studies']",
                                        f"18 None {sorted(LAZY)}"]
