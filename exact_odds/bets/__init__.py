"""Bets as data: the condition language and pay tables."""
