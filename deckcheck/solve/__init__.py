"""Solvers over whole decks: the optimiser (``optimize``) and, in time, ``fix``'s nearest deck."""
