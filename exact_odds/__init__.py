"""exact_odds: exact combinatorial odds for casino baccarat (Punto Banco and its variants).

The public API, imported on first use (so ``import exact_odds`` stays light):

>>> from exact_odds import BACCARAT_GOLD, Shoe, analyze, catalog
>>> analyze(Shoe.decks(8), [catalog()["player"]], BACCARAT_GOLD, policy="player_on_5=draw").bets[0].house_edge
Fraction(223960199503, 19524993263685)
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"

PUBLIC = {
    "Shoe": "shoe",
    "DrawRules": "rules",
    "PUNTO_BANCO": "rules",
    "BACCARAT_GOLD": "rules",
    "PRESETS": "rules",
    "load_rules": "rules",
    "Policy": "policy",
    "resolve": "policy",
    "catalog": "bets",
    "load_bets": "bets",
    "analyze": "analysis",
    "batch_expectations": "batch",
    "InputError": "errors",
}
__all__ = sorted(PUBLIC)

if TYPE_CHECKING:
    from .analysis import analyze
    from .bets import catalog, load_bets
    from .errors import InputError
    from .batch import batch_expectations
    from .policy import Policy, resolve
    from .rules import BACCARAT_GOLD, PRESETS, PUNTO_BANCO, DrawRules, load_rules
    from .shoe import Shoe


def __getattr__(name: str) -> Any:
    if name in PUBLIC:
        return getattr(import_module(f".{PUBLIC[name]}", __name__), name)
    raise AttributeError(f"module 'exact_odds' has no attribute {name!r}")
