"""Star Trek CCG, First Edition."""

from collections import Counter
from dataclasses import replace
from pathlib import Path

from deckcheck.catalog.deck import Deck
from deckcheck.catalog.model import Catalog
from deckcheck.catalog.names import NameMatch
from deckcheck.games.base import Exported, Game, game_directory
from deckcheck.games.stccg.lackey import face_name, write_dek, write_gemp, write_lackey
from deckcheck.games.stccg.names import lookup_name, name_candidates
from deckcheck.games.stccg.rules import RULES, seed_cards


def placed_deck(deck: Deck) -> Deck:
    """The deck with a zone for every line whose file named none: missions under Missions, the
    seeded copies (every dilemma and artifact, one Outpost per affiliation, …) under Seed+Dil,
    the rest in the draw deck (a second Outpost of one affiliation is played from the hand)."""
    constants = GAME.spec.constants
    seeded: Counter[str] = Counter()
    for part in seed_cards(deck, GAME.bundled_catalog(), constants):
        seeded[part.card.id] += part.count
    entries = []
    for e in deck.entries:
        if e.zone is not None:
            entries.append(e)
        elif e.card.has_type(constants["mission_type"]):
            entries.append(replace(e, zone=constants["mission_zone"]))
        else:
            seed = min(seeded[e.card.id], e.count)
            seeded[e.card.id] -= seed
            if seed:
                entries.append(replace(e, count=seed, zone=constants["seed_zone"]))
            if e.count - seed:
                entries.append(replace(e, count=e.count - seed, zone=GAME.zones[0].name))
    return replace(deck, entries=tuple(entries))


def _lackey(deck: Deck, out_path: Path | None) -> str:
    """Lackey's text form, or its ``.dek`` XML when the file written ends in ``.dek``."""
    if out_path is not None and out_path.suffix.lower() == ".dek":
        return _dek(deck, out_path)
    return write_lackey(placed_deck(deck), GAME.zones)


def _dek(deck: Deck, out_path: Path | None) -> str:
    return write_dek(placed_deck(deck), GAME.zones)


def _gemp(deck: Deck, out_path: Path | None) -> Exported:
    text, notes = write_gemp(placed_deck(deck), GAME.zones)
    return Exported(text, tuple(notes))


def _lookup(raw: str, catalog: Catalog) -> NameMatch | None:
    return lookup_name(raw, catalog, GAME.spec.identity_fields)


GAME = Game(
    directory=game_directory("stccg-1e"),
    rules=RULES,
    name_candidates=name_candidates,
    lookup_name=_lookup,
    exporters={"lackey": _lackey, "dek": _dek, "gemp": _gemp},
    face_name=face_name,
    place=placed_deck,
)
