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
