"""(Re)generate the hostile-input corpus in ``tests/hostile/nasty/`` deterministically.

Usage: ``python tests/hostile/make_nasty.py [--check] [DIR]`` (default DIR: the ``nasty``
folder next to this script). ``--check`` writes nothing and exits 1 when DIR differs from what
would be written.

Every file is small (the whole corpus stays far below 200 KB); the large inputs (a 50 MB file,
10,000 unknown lines) are made at test time in ``tmp_path`` by ``test_hostile_cli.py`` beside
this script, which holds the expected outcome of every file listed here.
"""

from __future__ import annotations

import codecs
import random
import sys
from pathlib import Path

SEED = 20240601
HERE = Path(__file__).resolve().parent / "nasty"

# A legal-shaped Ren Dhark deck (no resource points: `validate` says "unverified", exit 3),
# rich in Czech letters (ě š č ř ž ý á í é ů) so every encoding test has something to break.
REN_DHARK_DECK = """\
# Ren Dhark: balíček Terra — příliš žluťoučký kůň úpěl ďábelské ódy (ě š č ř ž ý á í é ů)
game: ren-dhark
variant: custom
name: Terra, zkušební balíček

# Planet
Terra (Sol III)

# Ships
2 POINT OF
NOREEN WELEAN
RIOBE
TALKARN
NOGK
SEKOSUM
STAHLTANGO
PASADENA
TERRA
LUXOR
BUDVA
MEDUSA
BLÜCHER
I/11

# Persons and units
2x Ren Dhark
Charaua
Simon
Ömer Giray
John Bernt
Anja Fieldová
Thornton Duman
I/7
I/8
I/9
I/10

# Actions
Globální ochranný štít
Zlatý člověk x2
Antisféra
Stopař Robonů
"""

# The same cards without Czech letters outside names that Latin-1 can hold.
LATIN1_DECK = """\
# Grüße aus Köln: ein Deck für Jürgen
game: ren-dhark
2 POINT OF
BLÜCHER
Ömer Giray
"""

TOML_CARDS = '[cards]\n"POINT OF" = 2\n"Ren Dhark" = 2\n'


def _toml_deck(before_cards: str = 'game = "ren-dhark"\n', cards: str = TOML_CARDS) -> bytes:
    return (before_cards + "\n" + cards).encode()


def corpus() -> dict[str, bytes]:
    """File name → exact bytes, for every file of the corpus."""
    rng = random.Random(SEED)
    deck = REN_DHARK_DECK
    files: dict[str, bytes] = {}

    # --- encodings and raw bytes -------------------------------------------------------
    files["random-bytes.bin"] = bytes(rng.randrange(256) for _ in range(4096))
    files["empty.txt"] = b""
    files["bom-only.txt"] = codecs.BOM_UTF8
    files["utf16le-bom.txt"] = codecs.BOM_UTF16_LE + deck.encode("utf-16-le")
    files["utf16be-bom.txt"] = codecs.BOM_UTF16_BE + deck.encode("utf-16-be")
    files["utf16le-nobom.txt"] = deck.encode("utf-16-le")
    files["utf8-bom-crlf.txt"] = codecs.BOM_UTF8 + deck.replace("\n", "\r\n").encode()
    files["cp1250-czech.txt"] = deck.encode("cp1250")
    files["latin1.txt"] = LATIN1_DECK.encode("latin-1")
    files["nul-bytes.txt"] = b"game: ren-dhark\n2 POINT OF\nRIOBE\nTALK\x00ARN\nNOGK\n"
    lines = deck.split("\n")
    ends = ["\r\n", "\n", "\r"]
    files["mixed-line-ends.txt"] = "".join(
        line + ends[i % 3] for i, line in enumerate(lines[:-1])
    ).encode()
    files["deck with spaces – Žluťoučký kůň ✓.txt"] = deck.encode()

    # --- TOML decks ----------------------------------------------------------------------
    files["toml-game-int.toml"] = _toml_deck("game = 5\n")
    files["toml-count-string.toml"] = _toml_deck(cards='[cards]\n"RIOBE" = 1\n"POINT OF" = "two"\n')
    files["toml-count-float.toml"] = _toml_deck(cards='[cards]\n"RIOBE" = 1\n"POINT OF" = 1.5\n')
    files["toml-count-bool.toml"] = _toml_deck(cards='[cards]\n"RIOBE" = 1\n"POINT OF" = true\n')
    files["toml-count-huge.toml"] = _toml_deck(
        cards='[cards]\n"RIOBE" = 1\n"POINT OF" = 1_000_000_000_000\n'
    )
    files["toml-count-negative.toml"] = _toml_deck(cards='[cards]\n"RIOBE" = 1\n"POINT OF" = -2\n')
    files["toml-cards-array.toml"] = b'game = "ren-dhark"\ncards = ["POINT OF", "RIOBE"]\n'
    files["toml-syntax.toml"] = b'game = "ren-dhark"\n[cards]\n"POINT OF" = \n"RIOBE" = 1\n'
    files["toml-deep.toml"] = b'game = "ren-dhark"\ncards = ' + b"[" * 3000 + b"]" * 3000 + b"\n"
    files["toml-nosuchgame.toml"] = _toml_deck('game = "nosuchgame"\n')
    files["toml-catalog-int.toml"] = _toml_deck('game = "ren-dhark"\ncatalog = 5\n')

    # --- JSON decks ----------------------------------------------------------------------
    files["json-garbage.json"] = (
        b'{\n  "game": "ren-dhark",\n  "cards": [\n    {"id": "I/1", "count": 2},\n'
        b"    garbage,\n  ]\n}\n"
    )
    files["json-deep.json"] = b'{"cards": ' + b"[" * 5000 + b"]" * 5000 + b"}\n"
    files["json-count-huge.json"] = (
        b'{"game": "ren-dhark", "cards": [{"id": "I/1", "count": 1000000000000}]}\n'
    )

    # --- counts and odd lines in text decks ------------------------------------------------
    def text_deck(*card_lines: str) -> bytes:
        head = "game: ren-dhark\n# hostile counts\nRIOBE\n"
        return (head + "\n".join(card_lines) + "\n").encode()

    files["count-huge.txt"] = text_deck("1000000000000 POINT OF")
    files["count-negative.txt"] = text_deck("-2 POINT OF")
    files["count-hex.txt"] = text_deck("0x10 POINT OF")
    files["count-exp.txt"] = text_deck("1e3 POINT OF")
    files["count-only.txt"] = text_deck("3")
    files["count-x-only.txt"] = text_deck("2x")
    files["count-suffix-huge.txt"] = text_deck("POINT OF x99999999999999999999")
    # 100 KB of one card name, no game named: detection must stay fast.
    files["long-line.txt"] = b"# one very long name\n2 " + b"POINT OF " * 11_378 + b"\n"
    files["unknown-card.txt"] = text_deck("2 POINT OFF", "Ren Dharkk")

    # --- headers ------------------------------------------------------------------------------
    files["deck-nosuchgame.txt"] = b"# a game nobody knows\ngame: nosuchgame\n2 POINT OF\n"
    files["deck-nosuchvariant.txt"] = (
        b"# a variant nobody knows\ngame: ren-dhark\nvariant: nosuchvariant\n2 POINT OF\n"
    )
    files["deck-catalog-missing.txt"] = (
        b"game: ren-dhark\ncatalog: no-such-overlay.toml\n2 POINT OF\n"
    )
    files["deck-catalog-dir.txt"] = b"game: ren-dhark\ncatalog: .\n2 POINT OF\n"
    files["deck-catalog-binary.txt"] = b"game: ren-dhark\ncatalog: random-bytes.bin\n2 POINT OF\n"
    files["deck-missions-banana.txt"] = b"game: stccg-1e\nmissions: banana\nU.S.S. Jupiter\n"

    # --- text that looks like console markup (rich) ------------------------------------------
    files["markup-line.txt"] = b"game: ren-dhark\n2 POINT OF\n[/]\n"
    files["markup [bold] name.txt"] = b"game: ren-dhark\n2 POINT OF\n2 No Such Card\n"

    # --- catalog overlays -----------------------------------------------------------------
    rd_head = '[catalog]\ngame = "ren-dhark"\nname = "hostile"\n\n'
    pc_head = '[catalog]\ngame = "planetary-conquerors"\nname = "hostile"\n\n'
    files["ovl-misspelt-field.toml"] = (
        rd_head + '[[cards]]\nid = "I/1"\nresource_point = 5\n'
    ).encode()
    files["ovl-no-type.toml"] = (
        rd_head + '[[cards]]\nid = "I/1"\nresource_points = 5\n\n[[cards]]\nname = "Typeless"\n'
        "resource_points = 3\n"
    ).encode()
    files["ovl-negative.toml"] = (
        rd_head + '[[cards]]\nid = "I/2"\nresource_points = -3\n'
    ).encode()
    files["ovl-type-int.toml"] = (rd_head + '[[cards]]\nname = "Fiver"\ntype = 5\n').encode()
    files["ovl-pc-rarity7.toml"] = (
        pc_head + '[[cards]]\nname = "Seven Star Hero"\ntype = "warrior"\nrarity = 7\n'
    ).encode()
    files["ovl-pc-trap-cost.toml"] = (
        pc_head + '[[cards]]\nname = "Costly Trap"\ntype = "trap"\nrarity = 1\ncost_gold = 2\n'
    ).encode()
    files["ovl-nosuchgame.toml"] = (
        b'[catalog]\ngame = "nosuchgame"\n\n[[cards]]\nname = "X"\ntype = "ship"\n'
    )
    files["ovl-no-catalog.toml"] = b'[[cards]]\nid = "I/1"\nresource_points = 5\n'
    files["ovl-cards-not-array.toml"] = b'cards = "I/1"\n\n[catalog]\ngame = "ren-dhark"\n'
    files["ovl-syntax.toml"] = (rd_head + '[[cards]]\nid = "I/1"\nresource_points = = 5\n').encode()
    files["ovl-wrong-game.toml"] = (
        pc_head + '[[cards]]\nname = "Alien Warrior"\ntype = "warrior"\nrarity = 1\n'
    ).encode()
    return files


def write(directory: Path) -> None:
    """Write the corpus into ``directory`` (created), removing files no longer in it."""
    directory.mkdir(parents=True, exist_ok=True)
    files = corpus()
    for stale in directory.iterdir():
        if stale.is_file() and stale.name not in files:
            stale.unlink()
    for name, data in files.items():
        (directory / name).write_bytes(data)


def differs(directory: Path) -> list[str]:
    """Names of the corpus files missing from, different in or extra in ``directory``."""
    files = corpus()
    bad = [
        n
        for n, data in files.items()
        if not (directory / n).is_file() or (directory / n).read_bytes() != data
    ]
    if directory.is_dir():
        bad += [p.name for p in directory.iterdir() if p.is_file() and p.name not in files]
    return sorted(bad)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    rest = [a for a in argv if a != "--check"]
    directory = Path(rest[0]) if rest else HERE
    if check:
        bad = differs(directory)
        for name in bad:
            print(f"out of date: {name}")
        return 1 if bad else 0
    write(directory)
    print(f"wrote {len(corpus())} files to {directory}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
