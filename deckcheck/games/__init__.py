"""Games: each built-in game is a :class:`~deckcheck.games.base.Game` registered through the
``deckcheck.games`` entry-point group, exactly as a third-party package would register one."""
