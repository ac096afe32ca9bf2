"""Trojan Source (CVE-2021-42574): bidirectional controls in a program's text or names, which
make an editor show the code in another order than the one it runs in. Each is a warning at
its place, never an error: such characters have legitimate uses in right-to-left text."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from iterir.display import BIDI_CONTROLS, escaped
from iterir.nodes import Node
from iterir.traversal import walk

_RAW = re.compile("[" + "".join(sorted(BIDI_CONTROLS)) + "]")
#: A bidirectional control written as an escape (`\u202e`), as quoted names and JSON write them.
_ESCAPED = re.compile(r"\\u(?:202[a-eA-E]|206[6-9]|200[eEfF]|061[cC])")
_NAME_FIELDS = ("id", "value")
_WHY = "it can make the program read otherwise than it runs (Trojan Source)"


@dataclass(frozen=True)
class BidiWarning:
    """A bidirectional control: at `line`:`column` of the text, or in the name of `node`."""

    message: str
    line: int | None = None
    column: int | None = None
    node: Node | None = None


def _described(char: str) -> str:
    return f"U+{ord(char):04X} ({unicodedata.name(char, 'BIDIRECTIONAL CONTROL')})"


def bidi_warnings(root: Node, text: str | None) -> list[BidiWarning]:
    """One warning per line of `text` (the program as read, if read) with a bidirectional
    control, then one per name holding one that those lines do not show raw (written as an
    escape, or read from JSON). A text without either form is not walked: the common case costs
    two searches."""
    if text is not None and _RAW.search(text) is None and _ESCAPED.search(text) is None:
        return []
    warnings: list[BidiWarning] = []
    lines_warned: set[int] = set()
    if text is not None:
        for number, line in enumerate(text.split("\n"), start=1):
            found = _RAW.search(line)
            if found is not None:
                lines_warned.add(number)
                warnings.append(
                    BidiWarning(
                        f"bidirectional control character {_described(found.group())}: {_WHY}",
                        number,
                        found.start() + 1,
                    )
                )
    names_warned: set[str] = set()
    for node in walk(root):
        for field in _NAME_FIELDS:
            name = getattr(node, field, None)
            if not isinstance(name, str) or name in names_warned:
                continue
            found = _RAW.search(name)
            if found is None or (node.loc is not None and node.loc.line in lines_warned):
                continue
            names_warned.add(name)
            warnings.append(
                BidiWarning(
                    f"`{escaped(name)}` holds the bidirectional control character "
                    f"{_described(found.group())}: {_WHY}",
                    node=node,
                )
            )
    return warnings
