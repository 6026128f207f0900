"""Questions about a deck: selectors, conditions, odds, sample hands and simulation."""
