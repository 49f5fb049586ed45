"""``baccarat-odds`` and ``python -m exact_odds``: a Ctrl-C while the command line is still being
imported is one line and status 130, like one during a command. The command line is imported with
the collector off, and what it imports frozen (see :mod:`exact_odds.importing`)."""

import sys

from . import importing


def main() -> None:
    importing.FREEZE = True
    try:
        with importing.collector_off():
            from .cli.commands import main as run
    except KeyboardInterrupt:
        sys.stderr.write("baccarat-odds: interrupted\n")
        sys.exit(130)
    run()


if __name__ == "__main__":
    main()
