"""The simulators: Monte Carlo deals of the same rules as the exact engines, with a Wilson
interval. Reached through :mod:`deckcheck.draws.facade`.

Modules: ``dealer`` (one deal, card by card, with the mulligan's decisions: the reference for
the rules, also used by ``hand``), ``reference`` (the plain-Python simulator), ``vectorised``
(the numpy simulator: real deals, batch by batch), ``sampling`` (how a plain deal's
counts are sampled, chosen from the pile's shape).
"""
