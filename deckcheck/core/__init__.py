"""The bottom layer: errors, reading input files, text folding, TOML and violation values.

Nothing here imports another deckcheck package.
"""
