"""Showing user input inside messages: safely (no control character reaches the terminal) and
briefly (no message longer than a screen). Every cap is here, and docs/json-output.md lists them.

Control characters (C0, DEL, C1) would let a program's text drive the terminal that shows its
error (`ESC]0;…BEL` sets the title, `ESC[2J` clears the screen); bidirectional controls (U+202A–
U+202E, U+2066–U+2069, and the marks) reorder what is shown, so that code reads otherwise than it
runs (Trojan Source). Both are shown as `\\uXXXX`, which `json.loads` reads back.
"""

from __future__ import annotations

import re

#: The longest name, or any other run of text between backquotes, that a message shows whole;
#: a longer one keeps its first and last characters (`gggg…gggg`) and says how long it is.
QUOTED_WIDTH = 80
#: The longest line of a message; a longer line keeps its start (where it is, what went wrong)
#: and its end (the last item of a cycle, a type's closing bracket).
LINE_WIDTH = 400
#: The source lines an excerpt shows are cut to this many columns around the caret.
EXCERPT_WIDTH = 100

#: The bidirectional controls of Unicode: embeddings and overrides (U+202A–U+202E), isolates
#: (U+2066–U+2069), and the marks (U+200E, U+200F, U+061C).
BIDI_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
)
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\ud800-\udfff]"
)
_QUOTED = re.compile(r"`[^`\n]*`")
_SNAP = 12  # how far a cut moves to reach a space


def escape_char(char: str) -> str:
    """One control, bidirectional or surrogate character as `\\uXXXX`."""
    return f"\\u{ord(char):04x}"


def escaped(text: str) -> str:
    """`text` with every control, bidirectional control and lone surrogate written `\\uXXXX`."""
    if _UNSAFE.search(text) is None:  # the common case: nothing to copy
        return text
    return _UNSAFE.sub(lambda match: escape_char(match.group()), text)


def is_unsafe(char: str) -> bool:
    """Whether `escaped` rewrites `char`."""
    return _UNSAFE.match(char) is not None


def shortened(text: str, width: int) -> str:
    """`text` if it has at most `width` characters, else its start and end around a mark that
    says how long it is: `abc…(1,000 characters)…xyz`. The cuts move to a space nearby, if
    there is one, so that words (names in a cycle, items of a type) stay whole."""
    if len(text) <= width:
        return text
    mark = f"…({len(text):,} characters)…"
    keep = max(width - len(mark), 2)
    head, tail = keep - keep // 3, len(text) - keep // 3
    space = text.rfind(" ", head - _SNAP, head)
    head = space + 1 if space > 0 else head
    space = text.find(" ", tail, tail + _SNAP)
    tail = space if space >= 0 else tail
    return text[:head] + mark + text[tail:]


def shown(message: str) -> str:
    """A one-line message as printed: escaped (a line break too), each backquoted part (a name,
    a type) at most `QUOTED_WIDTH` characters, the whole at most `LINE_WIDTH`. Where either of
    the two longest parts is longer (the two sides of a mismatch), what they share at their
    start and end is cut instead (`contrasted`), never where they differ."""
    text = escaped(message)
    parts = list(_QUOTED.finditer(text))
    longest = sorted(sorted(parts, key=lambda m: len(m.group()))[-2:], key=lambda m: m.start())
    if len(parts) < 2 or all(len(m.group()) - 2 <= QUOTED_WIDTH for m in longest):
        return shortened(_QUOTED.sub(_short_quoted, text), LINE_WIDTH)
    first, second = longest
    left, right = contrasted(first.group()[1:-1], second.group()[1:-1])
    pieces = [
        _QUOTED.sub(_short_quoted, text[: first.start()]),
        f"`{left}`",
        _QUOTED.sub(_short_quoted, text[first.end() : second.start()]),
        f"`{right}`",
        _QUOTED.sub(_short_quoted, text[second.end() :]),
    ]
    return shortened("".join(pieces), LINE_WIDTH)


def _short_quoted(match: re.Match[str]) -> str:
    inner = match.group()[1:-1]
    return f"`{shortened(inner, QUOTED_WIDTH)}`" if len(inner) > QUOTED_WIDTH else match.group()


#: How much of what two texts share `contrasted` keeps beside where they differ.
_CONTEXT = 12


def contrasted(left: str, right: str) -> tuple[str, str]:
    """Two texts (a mismatch's two types) with the start and the end they share cut to their
    first and last `_CONTEXT` characters, the cut said as `…(N alike)…`: where they differ is
    kept whole. A shared run too short to be worth a mark stays."""
    start = 0
    most = min(len(left), len(right))
    while start < most and left[start] == right[start]:
        start += 1
    end = 0
    while end < most - start and left[-1 - end] == right[-1 - end]:
        end += 1

    def cut(text: str) -> str:
        head, tail = text[:start], text[len(text) - end :]
        return _alike(head) + text[start : len(text) - end] + _alike(tail)

    return cut(left), cut(right)


def _alike(shared: str) -> str:
    """A run two texts share, its middle cut (at spaces nearby, if there are any) when it is
    long enough to be worth the mark."""
    if len(shared) <= 3 * _CONTEXT:
        return shared
    first, last = _CONTEXT, len(shared) - _CONTEXT
    space = shared.find(" ", first, first + _SNAP)
    first = space + 1 if space >= 0 else first
    space = shared.rfind(" ", last - _SNAP, last)
    last = space if space > first else last
    return f"{shared[:first]}…({last - first:,} alike)…{shared[last:]}"


def value_text(value: object) -> str:
    """A Python value as a message shows it: its repr, escaped and shortened (an int too long
    for `repr` by its size)."""
    if isinstance(value, int) and value.bit_length() > 10_000:  # ~3,000 digits: repr may refuse
        return f"an int of {value.bit_length():,} bits"
    return shortened(escaped(repr(value)), QUOTED_WIDTH)
