"""Catalogs: the cards of a game, bundled TOML plus the user's overlays."""

from deckcheck.catalog.model import Card, Catalog, FieldSpec

__all__ = ["Card", "Catalog", "FieldSpec"]
