"""The deck builder's answers below its screen: the playtest deal and its mulligan advice, the
card search, how a card is named where two share a name. The screen (:mod:`deckcheck.tui`)
shows them; the benchmark and the tests call them without it. Built on the commands' own
answers (``hand``'s deal, ``cards``' search), so it sits above them, beside the api.
"""
