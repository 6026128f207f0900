"""Questions about a deck: conditions, draw setups, odds, sample hands and simulation."""
