"""Games solved as games: chemin de fer."""
