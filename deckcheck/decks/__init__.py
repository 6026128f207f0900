"""Deck lists: parsing text/TOML/Lackey files and resolving their lines to catalog cards."""
