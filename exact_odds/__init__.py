"""exact_odds: exact combinatorial odds for casino baccarat (Punto Banco and its variants).

The public API, imported on first use (so ``import exact_odds`` stays light):

>>> from exact_odds import BACCARAT_GOLD, Shoe, analyze, catalog
>>> analyze(Shoe.decks(8), [catalog()["player"]], BACCARAT_GOLD, policy="player_on_5=draw").bets[0].house_edge
Fraction(223960199503, 19524993263685)
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.3.0"

PUBLIC = {
    "Shoe": "core.shoe",
    "DrawRules": "core.rules",
    "PUNTO_BANCO": "core.rules",
    "BACCARAT_GOLD": "core.rules",
    "PRESETS": "core.rules",
    "load_rules": "core.rules",
    "Policy": "core.policy",
    "resolve": "core.policy",
    "catalog": "bets.bets",
    "load_bets": "bets.bets",
    "analyze": "commands.analyze",
    "size": "commands.size",
    "solve_pay": "commands.solve_pay",
    "chemin_de_fer": "commands.chemin",
    "depth": "commands.depth",
    "protect": "commands.protect",
    "batch_expectations": "engine.batch",
    "InputError": "errors",
    "kernel_info": "engine.kernel",
}
__all__ = sorted(PUBLIC)

if TYPE_CHECKING:
    from .commands.analyze import analyze
    from .commands.size import size
    from .commands.solve_pay import solve_pay
    from .commands.chemin import chemin_de_fer
    from .commands.depth import depth
    from .commands.protect import protect
    from .bets.bets import catalog, load_bets
    from .errors import InputError
    from .engine.batch import batch_expectations
    from .core.policy import Policy, resolve
    from .core.rules import BACCARAT_GOLD, PRESETS, PUNTO_BANCO, DrawRules, load_rules
    from .core.shoe import Shoe
    from .engine.kernel import kernel_info


def __dir__() -> list[str]:
    """The public names (so that tab completion and ``help()`` find them before their first use)."""
    return sorted([*PUBLIC, "__version__"])


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use and kept (so that tools that read the
    module's namespace, such as pdoc, find it thereafter)."""
    if name in PUBLIC:
        value = getattr(import_module(f".{PUBLIC[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'exact_odds' has no attribute {name!r}")
