"""exact_odds: exact combinatorial odds for casino baccarat (Punto Banco and its variants)."""

__version__ = "0.1.0"
