"""Every name the library exports resolves (a lazily imported one included)."""

from __future__ import annotations

from deckcheck import api


def test_every_name_in_api_all_resolves() -> None:
    missing = [name for name in api.__all__ if getattr(api, name, None) is None]
    assert missing == []
