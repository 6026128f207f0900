"""Star Trek CCG 1E card names as deck files spell them.

Lackey deck files, the community's interchange format, spell names in several ways::

    Mr. Scott *TMP          persona / printing suffix: a set code after a star
    Kira**   Leeta*         trailing stars: Lackey's own marks for alternative printings
    % Vekor                 a leading '%': Lackey's mark for a universal card
    KIVAS FAJO - COLLECTOR  upper case (folded away by :func:`fold`)
    Vash (The Next Generation)   the card database's own "(Set Name)" disambiguation

The catalog keeps the database's names, in which a later printing carries its set in
parentheses (``Data (First Contact)``). :func:`name_candidates` turns one deck spelling into
the names worth trying, most specific first; the resolver compares ``fold(candidate)`` with
``fold(catalog name)`` and takes the first candidate that names a card.
"""

from __future__ import annotations

import re

from deckcheck.core.text import fold, tidy

__all__ = ["SET_SUFFIXES", "fold", "name_candidates"]


# A set code (as used after a star in Lackey files, or as the Release code of the database,
# casefolded) -> the "(Set Name)" suffixes the card database uses for that set's printings.
SET_SUFFIXES: dict[str, tuple[str, ...]] = {
    "premiere": ("Premiere",),
    "au": ("Alternate Universe",),
    "qc": ("Q-Continuum",),
    "fc": ("First Contact",),
    "ds9": ("Deep Space Nine",),
    "dom": ("The Dominion",),
    "bog": ("Blaze of Glory",),
    "roa": ("Rules of Acquisition",),
    "twt": ("The Trouble with Tribbles",),
    "mm": ("Mirror, Mirror",),
    "voy": ("Voyager",),
    "borg": ("The Borg",),
    "ha": ("Holodeck Adventures",),
    "tmp": ("The Motion Pictures",),
    "agt": ("All Good Things",),
    "vp": ("Things Past", "Sanctuary", "League Promo"),
    "coc": ("Chain of Command",),
    "lfl": ("Life From Lifelessness",),
    "sas": ("Straight and Steady",),
    "sog": ("Shades of Gray",),
    "hf": ("Homefront",),
    "hf2": ("Homefront II",),
    "hf3": ("Homefront III",),
    "rif": ("Resistance is Futile",),
    "tng": ("The Next Generation",),
    "engage": ("Engage",),
    "eng": ("Engage",),
    "tstl": ("The Sky's the Limit",),
    "emissary": ("Emissary",),
    "emi": ("Emissary",),
    "wpemissary": ("Warp Pack: Emissary",),
    "maquis": ("The Maquis",),
    "maq": ("The Maquis",),
    "20th": ("20th Anniversary",),
    "tgq": ("The Gamma Quadrant",),
    "crossover": ("Crossover",),
    "xo": ("Crossover",),
    "lookinggla": ("Through the Looking Glass",),
    "ttlg": ("Through the Looking Glass",),
    "brokenbow": ("Broken Bow",),
    "bb": ("Broken Bow",),
    "prewarp": ("Pre-Warp Pack",),
    "llap": ("Live Long and Prosper",),
    "wp2017": ("Warp Pack",),
    "wp": ("Warp Pack",),
    "coldfront": ("Cold Front",),
    "cf": ("Cold Front",),
    "metamorpho": ("Metamorphosis",),
    "meta": ("Metamorphosis",),
    "cage": ("The Cage",),
    "tnz": ("The Neutral Zone",),
    "plw": ("A Private Little War",),
    "dow": ("Dogs of War",),
    "ssttr": ("Second Star to the Right",),
    "pl": ("Paradise Lost",),
    "nem": ("Nemesis",),
    "sotl": ("Ships of the Line",),
    "sfl": ("Showdown: Four Lights",),
    "ls": ("Lifesigns",),
    "aut": ("Alternate Universe Twilight",),
}

_LEADING_MARKS = re.compile(r"^[%\u2756\u2022\u25c6\u2666\u00b7*\s]+")
_SET_CODE = re.compile(r"^(?P<core>.*?)\s*\*+\s*(?P<code>[A-Za-z0-9]+)\s*\**$")
_STARS = re.compile(r"\s*\*+$")
_PAREN = re.compile(r"^(?P<base>.+?)\s*\((?P<label>[^()]+)\)$")
_ABBREVIATIONS = re.compile(r"\b(Dr|Mr|Mrs|Ms|Lt|Cmdr|Capt|Gen|Adm|Sgt|St|Jr)\b(?!\.)", re.I)
_SHIP_PREFIXES = {
    "uss": "U.S.S.",
    "iss": "I.S.S.",
    "iks": "I.K.S.",
    "ikc": "I.K.C.",
    "irw": "I.R.W.",
}
_SHIP_PREFIX = re.compile(r"^(USS|ISS|IKS|IKC|IRW)\b\.?", re.I)


def _with_set(core: str, code: str) -> list[str]:
    """``core (Set Name)`` for every database suffix of a set code (empty if unknown)."""
    return [f"{core} ({label})" for label in SET_SUFFIXES.get(code.casefold(), ())]


def _punctuation_variants(name: str) -> list[str]:
    """Other plausible punctuations of a name (spaced hyphens, '&', dotted abbreviations)."""
    variants: list[str] = []
    if "-" in name:
        variants.append(re.sub(r"\s*-\s*", " - ", name))
        variants.append(re.sub(r"\s+-\s+", "-", name))
    if "&" in name:
        variants.append(tidy(name.replace("&", " and ")))
    if re.search(r"\band\b", name, re.I):
        variants.append(tidy(re.sub(r"\band\b", "&", name, flags=re.I)))
    dotted = _ABBREVIATIONS.sub(lambda m: m.group(1) + ".", name)
    dotted = _SHIP_PREFIX.sub(lambda m: _SHIP_PREFIXES[m.group(1).casefold()], dotted)
    dotted = re.sub(r":(?=\S)", ": ", dotted)
    variants.append(tidy(dotted))
    return [variant for variant in variants if variant and variant != name]


def name_candidates(raw: str) -> list[str]:
    """Return the names to try for one deck-file spelling, most specific first.

    The spelling itself (tidied) comes first; then the printing a set code or a parenthesised
    set asks for (``Mr. Scott *TMP`` -> ``Mr. Scott (The Motion Pictures)``); then the plain
    name without stars, codes or parentheses; last, the same names punctuated differently.
    Case is kept: compare the candidates with :func:`fold`.

    >>> name_candidates("Mr. Scott *TMP")
    ['Mr. Scott *TMP', 'Mr. Scott (The Motion Pictures)', 'Mr. Scott']
    >>> name_candidates("Kira**")
    ['Kira**', 'Kira']
    >>> name_candidates("Vash (The Next Generation)")
    ['Vash (The Next Generation)', 'Vash']
    """
    text = _LEADING_MARKS.sub("", tidy(raw))
    primary: list[str] = [text]
    coded = _SET_CODE.match(text)
    core = text
    if coded and coded.group("core"):
        core = _STARS.sub("", coded.group("core")).strip()
        primary.extend(_with_set(core, coded.group("code")))
    core = _STARS.sub("", core).strip()
    paren = _PAREN.match(core)
    if paren:
        primary.append(core)
        primary.extend(_with_set(paren.group("base"), paren.group("label").strip()))
        core = paren.group("base").strip()
    primary.append(core)

    result: list[str] = []
    variants = [variant for name in primary for variant in _punctuation_variants(name)]
    for candidate in primary + variants:
        if candidate and candidate not in result:
            result.append(candidate)
    return result
