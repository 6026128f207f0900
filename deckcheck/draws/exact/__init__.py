"""The exact engines: plain draws over capped counts, the sequential engine (look-ahead,
mulligans), the optimal redraw. Reached through :mod:`deckcheck.draws.facade`, which decides
which one runs; each raises :class:`~deckcheck.draws.answer.Intractable` when out of reach.

Modules: ``odds`` (the entry points: ``exact_odds``, the optimal keep and return choices),
``sequential`` (the dynamic programme over the deal), ``capped`` (a plain draw's programme),
``hypergeometric`` (plain and redraw tables), ``optimal_redraw``, ``reduced`` (the problem cut
to the classes of cards that matter), ``compositions`` (counting hands).
"""
