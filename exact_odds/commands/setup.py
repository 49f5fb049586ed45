"""The shoe, rules, policy, pays and bets that any command or route names, checked once.

Both front doors build a :class:`Setup`: the CLI from its shared options (``--shoe`` is ``shoe``,
``--bets-file`` the file :meth:`Setup.reading` reads into ``bets_toml``), the server from a
request's fields of the same names (texts, within the served limits), the library from the
objects a program holds (a :class:`~exact_odds.core.shoe.Shoe`, a :class:`DrawRules` or
:class:`Decisions`, a :class:`Policy`, :class:`Bet` objects). A refusal is an
:class:`~exact_odds.errors.InputError` whose message begins with the field it names
(``parameter``), which the CLI spells as its flag.

>>> setup = Setup(decks=1, commission="4", bets="banker")
>>> setup.rule_set.commission, [bet.name for bet in setup.chosen_bets(True)[0]]  # the commission in percent
(Fraction(4, 1), ['banker'])
>>> Setup(tie_pays="0")
Traceback (most recent call last):
...
exact_odds.errors.InputError: tie_pays must be a positive pay such as 8 or 9, not '0'
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..bets.bets import Bet, available_bets, check_reach, chosen_bets, load_bets, parse_pays, select_bets
from ..core.numbers import exact_value, parse_percent, shown, text_of
from ..core.policy import Decisions, Policy, resolve
from ..core.rules import PRESETS, DrawRules, as_rules, load_rules, rules_named
from ..core.shoe import Shoe, shoe_from_options
from ..core.textfile import user_text
from ..errors import InputError

MAX_TEXT = 64 * 1024
"""A served text (a bets or rules file, a shoe) holds at most this many characters."""
MAX_OWN_BETS = 64
"""A bets file served holds at most this many bets."""


class TooLarge(InputError):
    """More than a served request, a session or a store may hold (answered 413)."""


@dataclass(frozen=True, kw_only=True)
class Setup:
    """What a shoe, its rules and its bets are set up with. ``rules`` is a preset's name (or, from
    a program, a :class:`DrawRules`, or :class:`Decisions` that fix its choices); ``rules_toml`` and
    ``bets_toml`` are the texts of a rules and a bets file; ``commission`` (percent) and
    ``tie_pays`` as text or exact numbers. From a program, ``shoe`` may be a :class:`Shoe` (or as
    :func:`~exact_odds.core.shoe.as_shoe` reads one), ``policy`` a :class:`Policy`, and ``bets``
    a :class:`Bet` or a list of names and Bets."""

    decks: int | str | None = None
    shoe: "str | Shoe | int | Mapping[str, int] | None" = None
    remove: str | None = None
    rules: str | DrawRules | Decisions | None = None
    rules_toml: str | None = None
    policy: str | Policy = ""
    commission: str | Fraction | int | None = None
    tie_pays: str | Fraction | int | None = None
    bets: "str | Bet | Iterable[str | Bet] | None" = None
    bets_toml: str | None = None
    bets_file: str | None = None
    """The file ``bets_toml`` was read from (the CLI's ``--bets-file``), named in its messages."""
    served: bool = False
    """The server's limits apply: texts of at most MAX_TEXT characters, at most MAX_OWN_BETS bets."""
    rule_set: DrawRules = field(init=False, repr=False, compare=False)
    """The rules with the main bets' pays given."""
    own_bets: dict[str, Bet] | None = field(init=False, repr=False, compare=False)
    """The bets of ``bets_toml``, by name (None without it)."""

    def __post_init__(self) -> None:
        if self.served:
            for name in ("shoe", "remove", "rules_toml", "bets_toml"):
                text = getattr(self, name)
                if text is not None and len(text) > MAX_TEXT:
                    raise TooLarge(f"{name} holds {len(text):,} characters; at most {MAX_TEXT:,} are read", parameter=name)
        if isinstance(self.rules, Decisions) and self.policy:
            raise InputError("give the policy either inside the decisions or as policy=, not both", parameter="policy")
        object.__setattr__(self, "rule_set", self.named_rules().with_pays(self.commission_percent(), self._tie_pays()))
        object.__setattr__(self, "own_bets", self._own_bets())

    @classmethod
    def reading(cls, *, rules: str | DrawRules | Decisions | None = None, bets_file: str | None = None, **fields: Any) -> "Setup":
        """The setup of a rules file or preset named ``rules`` and of the bets file ``bets_file``
        (paths, as the CLI's --rules and --bets-file give them, and the library's ``rules``), read
        here; rules given as an object are kept as they are."""
        if bets_file is not None and not bets_file.strip():
            raise InputError("bets_file is empty: name a TOML file of bets", parameter="bets_file")
        if bets_file is not None:
            if fields.get("bets_toml") is not None:
                raise InputError("give bets_file (a path) or bets_toml (a bets file's text), not both", parameter="bets_file")
            try:
                fields["bets_toml"] = user_text(bets_file)
            except OSError as error:
                raise InputError(f"cannot read bets file {shown(bets_file)}: {error.strerror}") from None
            except UnicodeDecodeError:
                raise InputError(f"cannot read bets file {shown(bets_file)}: not UTF-8 text") from None
        return cls(rules=rules_named(rules) if isinstance(rules, str) else rules, bets_file=bets_file, **fields)

    @classmethod
    def of_arguments(cls, *, shoe: object = None, rules: str | DrawRules | Decisions | None = None, policy: "str | Policy | None" = None,
                     **fields: Any) -> "Setup":
        """The setup of a library function's arguments: ``shoe`` as :func:`~exact_odds.core.shoe.as_shoe`
        reads one (text too: ``"8"``, ``"inf"``, a composition), ``rules`` by a preset's name, a rules
        file's path or as an object, ``policy`` None for none (the other fields as they are)."""
        from ..core.shoe import as_shoe

        return cls.reading(shoe=as_shoe(shoe) if isinstance(shoe, str) else shoe, rules=rules, policy="" if policy is None else policy, **fields)

    def named_rules(self) -> DrawRules:
        """The rule set named (a preset, a rules file or the object given), before the pays given."""
        if self.rules_toml is not None:
            if self.rules is not None:
                raise InputError("give rules (a preset's name) or rules_toml (a rules file's text), not both", parameter="rules")
            return load_rules(self.rules_toml, "rules_toml")
        if isinstance(self.rules, Decisions):
            return self.rules.rules
        if self.rules is not None and not isinstance(self.rules, str):
            return as_rules(self.rules)  # a DrawRules, else refused
        if self.rules is None or self.rules in PRESETS:
            return PRESETS[self.rules or "punto_banco"]
        raise InputError(f"rules {shown(self.rules)} is not a preset ({', '.join(PRESETS)}); give a rules file's text as rules_toml",
                         parameter="rules")

    def commission_percent(self) -> Fraction | None:
        """The commission given, in percent (None: the rule set's own)."""
        if self.commission is None:
            return None
        if not isinstance(self.commission, str):  # from a program: an exact number, never a float
            exact_value(self.commission, "commission", parameter="commission")
        rate = parse_percent(self.commission, "commission", parameter="commission")
        if not 0 <= rate < 100:
            raise InputError(f"commission must be at least 0 and below 100 percent, not {shown(self.commission)}", parameter="commission")
        return rate

    def _tie_pays(self) -> Fraction | None:
        if self.tie_pays is None:
            return None
        if not isinstance(self.tie_pays, str):
            exact_value(self.tie_pays, "tie_pays", parameter="tie_pays")
        refusal = InputError(f"tie_pays must be a positive pay such as 8 or 9, not {shown(self.tie_pays)}", parameter="tie_pays")
        try:
            pay = parse_pays(self.tie_pays).net
        except InputError:  # "0" is no pay a row of a bet may have either: the same refusal
            raise refusal from None
        if pay <= 0:
            raise refusal
        return pay

    def _own_bets(self) -> dict[str, Bet] | None:
        if self.bets_toml is None:
            return None
        text_of(self.bets_toml, "bets_toml", parameter="bets_toml")
        if self.bets_file is None and not self.bets_toml.strip():  # a file read: load_bets names it
            raise InputError("bets_toml is empty: give the text of a TOML file of bets", parameter="bets_toml")
        own = load_bets(self.bets_toml, self.bets_file or "bets_toml")
        if self.served and len(own) > MAX_OWN_BETS:
            raise TooLarge(f"bets_toml holds {len(own)} bets; at most {MAX_OWN_BETS} are served", parameter="bets_toml")
        return own

    def starting_shoe(self) -> Shoe:
        """The shoe of ``decks`` or ``shoe`` (a composition, or from a program a :class:`Shoe`), less ``remove``."""
        return shoe_from_options(self.decks, self.shoe, self.remove)

    def policy_given(self) -> Policy:
        """The policy given (that of the decisions given as ``rules``)."""
        if isinstance(self.rules, Decisions):
            return self.rules.policy
        if isinstance(self.policy, Policy):
            return self.policy
        if not isinstance(self.policy, str):
            raise InputError(f"policy must be a Policy or its text (\"player_on_5=draw\"), not {shown(self.policy)}", parameter="policy")
        return Policy.parse(self.policy)

    def decisions(self, shoe: Shoe | None = None) -> Decisions:
        """The rules with their choices fixed (policy ``optimal`` is solved for ``shoe``)."""
        if isinstance(self.rules, Decisions) and self.rules.rules == self.rule_set:
            return self.rules
        policy = self.policy_given()
        if policy.base == "optimal":
            from ..games.chemin import with_optimal

            policy = with_optimal(self.rule_set, policy, shoe if shoe is not None else self.starting_shoe())
        return resolve(self.rule_set, policy)

    def fixed_decisions(self, why: str) -> Decisions:
        """The decisions of a policy that fixes every choice: ``optimal``, solved for one shoe, is
        refused (``why`` ends the message: what the shoe is not, and what to do)."""
        if self.policy_given().base == "optimal":
            raise InputError(f"policy optimal is solved for one shoe{why}", parameter="policy")
        return self.decisions()

    def available(self) -> Any:
        """Every bet the rules and ``bets_toml`` offer, by name."""
        return available_bets(self.rule_set, self.own_bets)

    def chosen_bets(self, suits_known: bool, parameter: str = "bets") -> tuple[list[Bet], list[str]]:
        """The bets named (comma-separated names or ``all``; ``parameter`` names them in messages);
        without names, banker, player, tie and those of ``bets_toml``. The main bets' pays and a bets
        file must reach one of them (else they would change nothing)."""
        own = tuple(self.own_bets or ())
        if self.bets is None or isinstance(self.bets, str):
            chosen, notes = select_bets(self.available(), self.bets, suits_known, own, parameter)
        else:  # from a program: Bets, or a list of names and Bets
            chosen, notes = chosen_bets(self.bets, self.rule_set, suits_known, self.available())
        check_reach(chosen, self.commission is not None, self.tie_pays is not None, own,
                    f"bets_file {self.bets_file}" if self.bets_file else "bets_toml")
        return chosen, notes
