"""The ASCII spelling of program text (docs/notation.md, "The ASCII spelling of programs"): each
ASCII spelling of a character of the notation is read as that character, padded with spaces to
the spelling's width, so that every line and column of the text stays where it was (a node's
span, an error's caret). Names in backquotes, string literals and comments are left alone.

- `lambda` reads as `λ`, `->` as `→`, `<-` between spaces as `←`, `*` as `×`;
- `&&` as `∧`, `||` as `∨`, `!` as `¬` (`not_`);
- after a name or a number, `^o` as `ₒ` (an offset), `^a` as `ₐ` (an axis), and `^h`, `^v`,
  `^l` as `ₕ`, `ᵥ`, `ₗ` (a dimension's kind).

Builtins written as calls need no spelling of their own: `deref(x)` for `·x`, `lift(f)` for
`↑f`, `as_fieldop(f)` for `⇑f`, `shift(I^o, 1^o)` for `⟪Iₒ, 1ₒ⟫`,
`cartesian_domain(named_range(IDim^a, 0, n))` for `c⟨ IDim: [0, n) ⟩`.
"""

from __future__ import annotations

import re

#: Each ASCII spelling and the character it stands for.
PROGRAM_ASCII: dict[str, str] = {
    "lambda": "λ",
    "->": "→",
    "<-": "←",
    "*": "×",
    "&&": "∧",
    "||": "∨",
    "!": "¬",
    "^o": "ₒ",
    "^a": "ₐ",
    "^h": "ₕ",
    "^v": "ᵥ",
    "^l": "ₗ",
}

# What may stand in an ASCII spelling: text without any reads as it is, after one search.
_MAYBE = re.compile(r"lambda|->|<-|&&|\|\||[*!^]")
# The parts left alone (a name in backquotes, a string literal, a comment), then the spellings:
# `lambda` as a word, `<-` between spaces (`a <-1` is `a < -1`), `*` between spaces or between
# operands (not a type's `(*, k: T)` or `tuple[T, *R]`), a mark after a name or digit.
_PARTS = re.compile(
    r"(?P<alone>`(?:[^`\\\n]|\\.)*`|\"(?:[^\"\\\n]|\\.)*\"|#[^\n]*)"
    r"|(?P<spelled>(?<![\w`])lambda(?![\w`])|->|(?<=\s)<-(?=\s)|&&|\|\||(?<=\s)\*(?=\s)|(?<=[\w)])\*(?=[\w(])|!|(?<=[\w`])\^[oahvl])"
)


def from_ascii(text: str) -> str:
    """`text` with every ASCII spelling read as the character it stands for, padded with
    spaces after it to the spelling's width (so the result has the lines and columns of
    `text`)."""
    if _MAYBE.search(text) is None:
        return text

    def replaced(match: re.Match[str]) -> str:
        spelled = match.group("spelled")
        if spelled is None:
            return match.group()
        return PROGRAM_ASCII[spelled].ljust(len(spelled))

    return _PARTS.sub(replaced, text)


#: What an unexpected character may have been meant as, for a parse error's hint.
HINTS: dict[str, str] = {
    "%": "`mod(a, b)`",
    "&": "`&&` (`∧`)",
    "|": "`||` (`∨`)",
    "~": "`!` (`¬`)",
    "^": "a mark after a name, `I^o` (`Iₒ`), or `power(a, b)`",
    "'": '`"…"` or a name in backquotes',
}


def hint(char: str) -> str:
    """`; did you mean …?` for an unexpected character that has a spelling close to it, or
    nothing."""
    meant = HINTS.get(char)
    return "" if meant is None else f"; did you mean {meant}?"
