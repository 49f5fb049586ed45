"""The one exception type for bad user input.

The CLI turns an :class:`InputError` into one line on stderr and exit status 2.
"""


class InputError(ValueError):
    """Input that exact_odds cannot accept (bad card, shoe, bet, pay table...)."""
