"""Deck files changed in place, safely: the one path of every command that writes a deck or
collection file (``add``, ``remove``, ``collection add/remove``, ``fix``/``optimize``
``--write`` and ``-o``, ``new``, ``export -o``, the builder's save).

- :mod:`~deckcheck.inplace.rewrite`: a file's bytes edited in its own format (encoding,
  comments, order, zones and line ends kept);
- :mod:`~deckcheck.inplace.edit`: an edit or a solver's answer made in a deck's text, read back
  and checked before it is written, and where an answer goes (:class:`AnswerTarget`);
- :mod:`~deckcheck.inplace.atomic`: locked, atomic writes that keep links, owner and mode.
"""
