"""The documentation pages (`docs/*.md`) that `typeinf docs` lists and prints, so that the
command line's help can point to them wherever typeinf is installed."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from iterir.files import read_text
from typeinf.core.packaged import data_folder

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
    return [Page(path.stem, path) for path in sorted(data_folder("docs", "*.md").glob("*.md"))]
