"""What every command of `baccarat-odds` shares: the options that name a shoe, a rule set, the
main bets' pays and the bets (parsed once, accepted before the command or after it, not both, and
given to a command where they mean nothing, an error), the output (emit, a progress bar, a plot's
file), and errors as one line naming the options (in_cli_terms, fail)."""

import contextlib
import re
import sys
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any, TypeVar

import click

from ..errors import InputError
from ..importing import collector_off
from .params import DeckCount, ExactNumber


F = TypeVar("F", bound=Callable[..., Any])
FORMATS = ("table", "json", "csv", "markdown")


SHARED: dict[str, tuple[str, Callable[[F], F]]] = {
    "decks": ("shoe", click.option("--decks", type=DeckCount(), help="Number of 52-card decks (default 8), or inf: cards drawn with replacement.")),
    "shoe_spec": ("shoe", click.option("--shoe", "shoe_spec", metavar="COUNTS", help="Explicit composition, e.g. A=32,...,K=32 or per card 9h=7 (unnamed ranks count 0).")),
    "remove": ("shoe", click.option("--remove", metavar="CARDS", help='Cards taken out of the shoe, e.g. "5 5 K 9h".')),
    "rules": ("rules", click.option("--rules", metavar="NAME|FILE", help="Rule set: a preset (punto_banco, baccarat_gold, chemin_de_fer_a, chemin_de_fer_b2, chemin_de_fer_b3) or a TOML rules file (default punto_banco).")),
    "policy": ("rules", click.option("--policy", multiple=True, metavar="SPEC", help="Choices at option points: player_on_5=draw|stand|P (P exact, e.g. 9/11), comma-separated.")),
    "commission": ("pays", click.option("--commission", metavar="PCT", help="Commission on a winning banker bet, percent (default: the rule set's, 5).")),
    "tie_pays": ("pays", click.option("--tie-pays", metavar="N", help="What the tie bet pays, to one (default: the rule set's, 8).")),
    "bet_names": ("bets", click.option("--bets", "bet_names", metavar="NAMES", help="Bets: names separated by commas, or all (default banker,player,tie and the bets of --bets-file).")),
    "bets_file": ("bets_file", click.option("--bets-file", type=click.Path(dir_okay=False), help="A TOML file of your own bets (same format as the catalog).")),
}
"""Options shared by the commands: (group, click option)."""


GROUP_ONLY = ("fmt", "returns", "engine", "given", "by_feature", "unordered")
"""Options of the analysis itself: meaningless after a command name."""


def shared(*groups: str, without: tuple[str, ...] = ()) -> Callable[[F], F]:
    """Add the shared options of ``groups`` (a group, or one option by its name), less those named
    in ``without``, to a command (and remember that it accepts them)."""
    accepted = {name for name, (group, _) in SHARED.items() if group in groups or name in groups} - set(without)

    def decorate(function: F) -> F:
        for name, (_, option) in reversed(SHARED.items()):
            if name in accepted:
                function = option(function)
        function.accepted = accepted  # type: ignore[attr-defined]
        return function

    return decorate


def given(value: Any) -> bool:
    return value not in (None, (), False)


def setup_of(values: dict[str, Any]) -> Any:
    """The :class:`~exact_odds.commands.setup.Setup` of the shared options' values (the files named read)."""
    from ..commands.setup import Setup

    return Setup.reading(decks=values.get("decks"), shoe=values.get("shoe_spec"), remove=values.get("remove"), rules=values.get("rules"),
                         policy=",".join(values.get("policy") or ()), commission=values.get("commission"), tie_pays=values.get("tie_pays"),
                         bets=values.get("bet_names"), bets_file=values.get("bets_file"))


SPANS_DECKS = (" and `{command}` spans deck counts: give the policy itself, or see `chemin-de-fer` "
               "(export writes its solution for each deck count)")
"""How a command over several deck counts refuses the policy optimal, solved for one shoe."""


def options(ctx: click.Context, **local: Any) -> Any:
    """The shared options for the running command: those given after its name, and those given
    before it (refused where the command does not take them, or when given twice)."""
    command = ctx.command.callback
    accepted: set[str] = getattr(command, "accepted", set())
    before = ctx.find_root().params
    for name in GROUP_ONLY:
        if given(before.get(name)):
            flag = {"fmt": "--format", "returns": "--returns", "engine": "--engine", "given": "--given", "by_feature": "--by", "unordered": "--unordered"}[name]
            raise InputError(f"{flag} before a command belongs to the analysis; give the command's own options after its name")
    merged = {}
    for name in SHARED:
        early, late = before.get(name), local.get(name)
        flag = "--" + {"shoe_spec": "shoe", "bet_names": "bets"}.get(name, name).replace("_", "-")
        if given(early) and name not in accepted:
            raise InputError(f"{flag} means nothing to `{ctx.info_name}`")
        if given(early) and given(late):
            raise InputError(f"{flag} is given both before and after `{ctx.info_name}`: give it once")
        merged[name] = late if given(late) else early
    return setup_of(merged)


BURN = click.option("--burn/--no-burn", default=True, show_default=True,
                    help="Burn cards at the start of each shoe, as Punto Banco is dealt: turn one card, burn as many face down as its value "
                         "(tens 10). --no-burn deals from the first card.")
"""The burn of simulate and report: one option, one default."""


def table_options(function: F) -> F:
    """The table's pace, limits and differential: the options of `table` and of `report --table`."""
    for option in reversed((
            click.option("--per-hour", "per_hour", metavar="N", help="The pace: decisions (coups) an hour (default 70)."),
            click.option("--min", "min_text", metavar="X|NAME=X,...", help="The table's minimum: for every bet of the mix, or per bet."),
            click.option("--max", "max_text", metavar="X|NAME=X,...", help="The table's maximum: for every bet of the mix, or per bet."),
            click.option("--total-max", type=ExactNumber(), metavar="X", help="At most this much on one coup in all."),
            click.option("--unit", type=ExactNumber(), metavar="X", help="Amounts in whole units of X (the smallest chip)."),
            click.option("--differential", metavar="X", help="A table differential: the banker side at most X more (or less) than the player side."))):
        function = option(function)
    return function


def table_request(given_options: Any, shoe: Any, mix_text: str, option: str, per_hour: str | None, min_text: str | None,
                  max_text: str | None, total_max: Fraction | None, unit: Fraction | None, differential: str | None) -> Any:
    """The request of the table's view from the flags (the mix given to ``option``)."""
    from ..commands.table import DEFAULT_PACE, TableRequest, parse_mix
    from ..studies.sizing import Limits, per_bet

    mix = parse_mix(mix_text, option)
    limits = Limits(per_bet(min_text, "--min", list(mix)) if min_text is not None else {},
                    per_bet(max_text, "--max", list(mix)) if max_text is not None else {}, total_max, unit)
    return TableRequest(shoe=shoe, decisions=given_options.decisions(shoe), mix=mix, pace=DEFAULT_PACE if per_hour is None else per_hour,
                        limits=limits, differential=differential)


def reword(command: click.Command, name: str, text: str) -> None:
    """Give one command's copy of a shared option a help of its own."""
    for param in command.params:
        if isinstance(param, click.Option) and param.name == name:
            param.help = text


def plot_target(path: str | None) -> Any:
    """The file a --plot goes to, checked (and matplotlib found) before any work is done."""
    if path is None:
        return None
    from ..output.files import FileTarget
    from ..output.plots import PNG_MARK, pyplot

    pyplot()
    return FileTarget(path, "--plot", PNG_MARK)


class OutputLost(RuntimeError):
    """The output could not all be written (a closed pipe, a full disk)."""


def emit(text: str) -> None:
    """Write to stdout, all of it: a closed pipe or a full disk is an error, not a silent cut
    (raised as :class:`OutputLost`, which click does not swallow as it does a broken pipe)."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise OutputLost("the output was closed before it was all written") from None
    except OSError as error:
        raise OutputLost(f"cannot write the output: {error.strerror or error}") from None


class Interrupted(Exception):
    """Ctrl-C in a command, passed on past click (which would print a blank line first)."""


class Commands(click.Group):
    """The command group: Ctrl-C in a command comes out of it as :class:`Interrupted`. The commands
    in ``lazy`` (a name: the module and the command's name in it) are imported when first named or
    listed, as click's documentation does it ("Lazily Loading Subcommands"), so that the analysis
    itself, with no command, starts without building them."""

    lazy: dict[str, str] = {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        import importlib

        # a name of no command imports them all: click suggests the nearest of self.commands
        for wanted in [cmd_name] if cmd_name in self.lazy else [] if cmd_name in self.commands else list(self.lazy):
            if wanted not in self.commands:
                module, _, name = self.lazy[wanted].rpartition(".")
                with collector_off():
                    self.add_command(getattr(importlib.import_module(module), name), wanted)
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted from None


def progress_bar(label: str, items: Iterable[Any] | None = None, length: int = 0) -> Any:
    """One progress bar on stderr when it is a terminal, a context manager: over ``items`` (iterate
    what it gives) or ``length`` steps (call its ``update``). Otherwise it gives ``items`` itself, or
    None when there are no items (nothing to update)."""
    if not sys.stderr.isatty() or (items is None and not length):
        return contextlib.nullcontext(items)
    return click.progressbar(items, length=length or None, label=label, file=sys.stderr)


def in_cli_terms(error: InputError) -> str:
    """The message of a library error with the parameter it begins by naming, and those it
    mentions, spelled as the options that give them (``policy key ...`` is ``--policy key ...``).
    A mention may carry the value the message gives it (``shoes 0``), so that the parameter is
    found there and not where its name is a word of the sentence (``at least 2 shoes``).

    >>> in_cli_terms(InputError("shoes 1: need at least 2 shoes (or shoes 0)", parameter="shoes", mentions=("shoes 0",)))
    '--shoes 1: need at least 2 shoes (or --shoes 0)'
    """
    message = str(error)
    if error.parameter and message.startswith(error.parameter):
        message = flag_of(error.parameter) + message[len(error.parameter):]
    for mention in error.mentions:  # the other parameters it names: the first time each stands as a word
        name, space, value = mention.partition(" ")
        message = re.sub(rf"(?<![\w-]){re.escape(mention)}(?![\w-])", lambda _: flag_of(name) + space + value, message, count=1)
    return message


FLAGS = {"amounts": "--mix", "pace": "--per-hour", "burn": "--burn/--no-burn"}
"""A request's parameter given by an option of another name (else ``side_ratio`` is ``--side-ratio``)."""


def flag_of(parameter: str) -> str:
    """The option that gives a parameter: ``side_ratio`` is ``--side-ratio``, ``amounts`` ``--mix``."""
    return FLAGS.get(parameter, "--" + parameter.replace("_", "-"))


def fail(message: str, code: int) -> None:
    """One line on stderr (cut short if long), then exit."""
    line = " ".join(message.split())
    click.echo(f"baccarat-odds: {line[:400] + ' ...' if len(line) > 400 else line}", err=True)
    sys.exit(code)
