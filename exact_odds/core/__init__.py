"""The vocabulary of a coup: cards, shoes, rules as data, policies, features, the walk, exact numbers."""
