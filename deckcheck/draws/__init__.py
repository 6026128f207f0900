"""Draw mathematics: the abstract draw problem, exact odds and Monte Carlo simulation.

Nothing in this package knows a game by name: a game turns a deck and a query into a
:class:`~deckcheck.draws.model.DrawProblem` and a :class:`~deckcheck.draws.model.Procedure`;
:func:`deckcheck.draws.facade.solve` (the one door) answers it with an
:class:`~deckcheck.draws.answer.Answer` (exact where in reach, simulated otherwise, and saying
which)::

    from deckcheck.draws.facade import solve
    from deckcheck.draws.model import CountTest, DrawProblem, Procedure, Query

    problem = DrawProblem((15, 25), ((True,), (False,)), (CountTest(0, ">=", 2),))
    answer = solve(problem, Procedure(hand_size=7), Query(seen=7))
    answer.probability, answer.exact, answer.method, answer.notes
"""
