"""The one exception type for bad user input.

The CLI turns an :class:`InputError` into one line on stderr and exit status 2. A message is in
library terms: where it begins by naming a parameter (``policy ...``), the error's ``parameter``
says which, so that the CLI can name its option for it instead (``--policy ...``).

>>> error = InputError("policy key 'bogus': expected player_on_T", parameter="policy")
>>> str(error), error.parameter
("policy key 'bogus': expected player_on_T", 'policy')
"""


class InputError(ValueError):
    """Input that exact_odds cannot accept (bad card, shoe, bet, pay table...), in one sentence.

    >>> from exact_odds import analyze
    >>> try:
    ...     analyze(8, "banker", policy="bogus=draw")
    ... except InputError as error:
    ...     print(error)
    policy key 'bogus': expected player_on_T, player_on_A+B, banker_on_T_vs_X or banker_on_A+B_vs_X (T a total, A+B two card values, X a third card 0-9 or stood)
    """

    def __init__(self, message: str, *, parameter: str | None = None, mentions: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.parameter = parameter
        """The parameter the message begins by naming (as the library calls it), or None."""
        self.mentions = mentions
        """Other parameters the message names, the first time each stands as a word (a front door
        spells them its way)."""


class UnknownName(InputError, KeyError):
    """A name looked up that is not there (a bet of the catalog or of an analysis): an
    :class:`InputError` in one sentence, and a ``KeyError`` as a mapping's lookups raise (so ``in``
    and ``.get`` work as for any mapping).

    >>> str(UnknownName("no bet 'x' in this analysis", parameter="name"))
    "no bet 'x' in this analysis"
    """

    __str__ = BaseException.__str__  # the sentence as it is (a KeyError quotes its message)
