"""The README's picture of ``deckcheck build``: the app run headless on an example deck, its SVG
export (Textual's), rendered to PNG by headless Chromium (``apt-get install -y chromium``).

    python tools/build_screenshot.py [docs/build.png]
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SIZE = (120, 36)
CELL = (12.2, 24.4)  # rich's SVG: pixels per cell
DECK = REPO / "examples" / "ren-dhark" / "terra-custom.txt"


async def _shoot(svg: Path) -> None:
    from deckcheck.commands.build import BuildSession
    from deckcheck.tui.app import BuildApp

    with tempfile.TemporaryDirectory() as scratch:
        for name in ("terra-custom.txt", "resource-points.toml"):
            shutil.copy(DECK.parent / name, Path(scratch) / name)
        app = BuildApp(BuildSession(Path(scratch) / "terra-custom.txt"), seed=4)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("slash")
            app.query_one("#search").value = "type:ship"  # type: ignore[attr-defined]
            await pilot.press("enter", "down", "down", "enter")  # one RIOBE too many
            await pilot.pause(0.5)
            app.session.label = "terra-custom.txt"  # not the scratch folder
            app.show_title()
            await pilot.pause(0.3)
            svg.write_text(app.export_screenshot(title="deckcheck build"), encoding="utf-8")


def main() -> int:
    """Write the PNG (default docs/build.png)."""
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs" / "build.png"
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("needs chromium: apt-get install -y chromium", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        svg = Path(scratch) / "build.svg"
        asyncio.run(_shoot(svg))
        width = int(SIZE[0] * CELL[0]) + 40
        height = int(SIZE[1] * CELL[1]) + 80
        page = Path(scratch) / "build.html"
        page.write_text(
            "<html><body style='margin:0;background:#fff'>"
            + svg.read_text(encoding="utf-8")
            + "</body></html>",
            encoding="utf-8",
        )
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                f"--screenshot={out.resolve()}",
                f"--window-size={width},{height}",
                page.as_uri(),
            ],
            check=True,
            capture_output=True,
        )
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
