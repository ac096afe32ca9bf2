"""The documentation pages (`docs/*.md`) that `typeinf docs` lists and prints, so that the
command line's help can point to them wherever typeinf is installed."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from iterir.files import read_text

_HERE = Path(__file__).resolve().parent
#: Installed, the wheel puts the pages inside the package; in a checkout they are beside it.
_FOLDERS = (_HERE / "docs", _HERE.parent / "docs")
_HEADING = re.compile(r"#{1,6}\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"\s{0,3}(```|~~~)")


@dataclass(frozen=True)
class Page:
    """One page: its name (the file name without `.md`) and its file."""

    name: str
    path: Path

    def text(self) -> str:
        return read_text(self.path)

    def title(self) -> str:
        """The page's first heading (outside code blocks), or "" when it has none."""
        fenced = False
        for line in self.text().splitlines():
            if _FENCE.match(line):
                fenced = not fenced
            elif not fenced and (heading := _HEADING.match(line)):
                return heading.group(1)
        return ""


def pages() -> list[Page]:
    """Every page, by name; no pages at all is a broken installation (a FileNotFoundError)."""
    for folder in _FOLDERS:
        found = sorted(folder.glob("*.md"))
        if found:
            return [Page(path.stem, path) for path in found]
    raise FileNotFoundError(f"no documentation pages (*.md) in {' or '.join(map(str, _FOLDERS))}")
