"""``baccarat-odds`` and ``python -m exact_odds``: a Ctrl-C while the command line is still being
imported is one line and status 130, like one during a command.

The collector is off while the command line is imported: importing makes tens of thousands of objects
that live as long as the process, and no garbage, and collecting them on the way was 7-8% of the CPU
of a cold ``baccarat-odds --decks 8`` (farm-bench, paired runs). They are then frozen (kept out of
every later collection); the collector is back on before the command runs.
"""

import gc
import sys


def main() -> None:
    gc.disable()
    try:
        from .cli.commands import main as run
    except KeyboardInterrupt:
        sys.stderr.write("baccarat-odds: interrupted\n")
        sys.exit(130)
    finally:
        gc.freeze()
        gc.enable()
    run()


if __name__ == "__main__":
    main()
