"""Draw mathematics: the abstract draw problem, exact odds and Monte Carlo simulation.

Nothing in this package knows a game by name: a game turns a deck and a query into a
:class:`~deckcheck.draws.model.DrawProblem` and a :class:`~deckcheck.draws.model.Procedure`.
"""
