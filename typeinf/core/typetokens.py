"""The tokens of type text (the notation of docs/notation.md, in either spelling), and the errors
that name where a text stops being a type.

`TypeTokens` cuts a text into tokens on demand, with as much look-ahead as its reader asks for
(one or two tokens); `unexpected` makes the error at a token. The fencil IR's parser
(`fencil.typeparser`) reads the tokens; `typeinf.gtir.reader` uses `echoed` and
`subscript_number` for GTIR's notation.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from typeinf.core.errors import unchained
from typeinf.core.notation import ASCII_SPELLING

_DIGITS = (
    {c: str(i) for i, c in enumerate("₀₁₂₃₄₅₆₇₈₉")}
    | {c: str(i) for i, c in enumerate("⁰¹²³⁴⁵⁶⁷⁸⁹")}
    | {c: c for c in "0123456789"}
)
#: Longer texts are shown in error messages by a piece around the error.
_ECHOED = 200

# The ASCII spelling (`notation.ASCII_SPELLING`) of the marks, by the mark each stands for.
_ARROW, _CLOSURE, _ELLIPSIS = (re.escape(ASCII_SPELLING[m]) for m in "→⇒…")
_MARKS = {ASCII_SPELLING[m]: m for m in "→⇒…"}
_ASCII_NUMBER = r"[0-9]+(?![A-Za-z0-9_])"  # `T0`, but `T0x` is a name

# The tokens, longest first where one is the start of another (`T₀` before `T`, `…₀` before `…`):
# a name, number or mark reads as far as it goes, as each of the Earley parser's terminals did.
# Each has its ASCII spelling too (`T0`, `^1`, `^c`, `...3`, `->`); a subscript written in ASCII
# after `)` (`(It[T^1], ...)0`) is an INT, read where the grammar wants a subscript.
_TOKEN = re.compile(
    rf"""[ \t\f\r\n]*(?:
      (?P<ITORVAL>ItOrVal(?:[₀-₉]+|{_ASCII_NUMBER}))
    | (?P<VAR>T(?:[₀-₉]+|{_ASCII_NUMBER}))
    | (?P<NAME>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<INT>[0-9]+)
    | (?P<SIZE>[⁰¹²³⁴⁵⁶⁷⁸⁹]+|[ᶜˢ]|\^[0-9]+|\^[cs](?![A-Za-z0-9_]))
    | (?P<SUB>[₀-₉]+)
    | (?P<ELLIPSIS_ROW>(?:…|{_ELLIPSIS})(?:[₀-₉]+|[0-9]+))
    | (?P<MARK>::|{_ARROW}|{_CLOSURE}|{_ELLIPSIS}|[…()\[\]{{}},:→⇒])
    | (?P<EOF>\Z)
    | (?P<BAD>.))""",
    re.VERBOSE | re.DOTALL,
)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

#: The kinds of token that are terminals; the others are marks (`(`, `::`, …), matched as text.
_TERMINALS = frozenset(
    {"ITORVAL", "VAR", "NAME", "INT", "SIZE", "SUB", "ELLIPSIS_ROW", "EOF", "BAD"}
)


class TypeSyntaxError(ValueError):
    """A type or signature that is not written in the notation, with where it goes wrong."""


def echoed(text: str, position: int) -> str:
    """`text` quoted for a message: whole, or the part around `position` if it is long."""
    if len(text) <= _ECHOED:
        return repr(text)
    start = max(0, min(position - _ECHOED // 2, len(text) - _ECHOED))
    return f"{text[start : start + _ECHOED]!r} (characters {start + 1}–{start + _ECHOED} of {len(text)})"


def subscript_number(text: str) -> int:
    """The number a token writes in its digits (`T₁₂`, `¹²`, `^12`, `…₃`: 12, 12, 12, 3)."""
    digits = "".join(_DIGITS[c] for c in text if c in _DIGITS)
    try:
        return int(digits)
    except ValueError:  # more digits than `int` reads
        raise unchained(TypeSyntaxError(f"a number of {len(digits)} digits")) from None


class Token(NamedTuple):
    kind: str  # a terminal's name (VAR, NAME, SIZE, …, EOF, BAD) or the mark itself (`(`, `→`, …)
    text: str
    start: int


#: Where a `TypeTokens` stands (`mark`), to go back to (`rewind`).
Mark = tuple[int, list[Token]]


class TypeTokens:
    """The tokens of one text, cut as they are asked for."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.end = 0  # where the token after those in `ahead` starts (whitespace first)
        self.ahead: list[Token] = []

    def peek(self, index: int = 0) -> Token:
        while len(self.ahead) <= index:
            match = _TOKEN.match(self.text, self.end)
            assert match is not None and match.lastgroup is not None  # EOF and BAD match anywhere
            kind = match.lastgroup
            text = match.group(kind)
            mark = _MARKS.get(text, text)
            self.ahead.append(Token(mark if kind == "MARK" else kind, text, match.start(kind)))
            self.end = match.end()
        return self.ahead[index]

    def take(self) -> Token:
        token = self.peek()
        del self.ahead[0]
        return token

    def expect(self, kind: str) -> Token:
        token = self.take()
        if token.kind != kind:
            raise self.unexpected(token, kind)
        return token

    def keyword(self, word: str) -> None:
        """`T`, `It`, `L`: a word only where no name can stand."""
        token = self.take()
        if token.kind != "NAME" or token.text != word:
            raise self.unexpected(token, word)

    def resume_at(self, position: int) -> None:
        """Cut the tokens on from `position` (inside a token taken: `whereT₀` is `where T₀`)."""
        self.ahead.clear()
        self.end = position

    def mark(self) -> Mark:
        return self.end, list(self.ahead)

    def rewind(self, mark: Mark) -> None:
        self.end, self.ahead = mark

    def unexpected(self, token: Token, *expected: str) -> TypeSyntaxError:
        """The error at `token`, or just after the start of it that is something `expected`
        (`T₀` where only a name can stand is the name `T`, then `₀`): where the Earley parser,
        which matched every terminal it expected at every position, found nothing to go on."""
        if token.kind == "EOF":
            return TypeSyntaxError(f"not a type at its end: {echoed(self.text, len(self.text))}")
        skip = 0
        for kind in expected:
            if kind == "NAME":
                name = _NAME.match(token.text)
                skip = max(skip, name.end() if name else 0)
            elif kind not in _TERMINALS and token.text.startswith(kind):  # a mark or a word
                skip = max(skip, len(kind))
        position = token.start + skip
        column = position - self.text.rfind("\n", 0, position)
        return TypeSyntaxError(f"not a type at column {column}: {echoed(self.text, position)}")
