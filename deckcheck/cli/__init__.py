"""The ``deckcheck`` command line: parse arguments, call one library function, render."""
