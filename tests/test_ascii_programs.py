"""Program text has an ASCII spelling (iterir/ascii_text.py, docs/notation.md): each spelling
reads as the character it stands for, every line and column staying where it was; a character
that is close to a spelling gets a hint."""

from __future__ import annotations

import re

import pytest
from hypothesis import given

import iterir
import typeinf
from iterir.ascii_text import PROGRAM_ASCII, from_ascii
from tests.strategies import programs

#: (ASCII text, the same program in the notation's characters)
SPELLED = [
    ("lambda(x) -> x * 2", "λ(x) → x × 2"),
    ("lambda(a, b) -> deref(a) * deref(b)", "λ(a, b) → ·a × ·b"),
    ("lambda(c) -> c && !c || True", "λ(c) → c ∧ ¬c ∨ True"),
    ("lambda(it) -> deref(shift(I^o, 1^o)(it))", "λ(it) → ·⟪Iₒ, 1ₒ⟫(it)"),
    (
        "f(a, b, n) { b <- (lambda(x) -> deref(x))(a) @ cartesian_domain(named_range(IDim^a, 0, n)); }",
        "f(a, b, n) { b ← (λ(x) → ·x)(a) @ c⟨ IDim: [0, n) ⟩; }",
    ),
    (
        "p(a: Field[[IDim^h, KDim^v], f64], out: Field[[IDim^h, KDim^v], f64]) { "
        "out @ cartesian_domain(named_range(IDim^h, 0, 5), named_range(KDim^v, 0, 5)) <- a; }",
        "p(a: Field[[IDimₕ, KDimᵥ], f64], out: Field[[IDimₕ, KDimᵥ], f64]) { "
        "out @ c⟨ IDimₕ: [0, 5[, KDimᵥ: [0, 5[ ⟩ ← a; }",
    ),
]


@pytest.mark.parametrize(("ascii", "unicode"), SPELLED)
def test_the_ascii_spelling_types_as_the_notation_does(ascii: str, unicode: str) -> None:
    assert ascii.isascii()
    assert str(typeinf.infer(iterir.parse(ascii))) == str(typeinf.infer(iterir.parse(unicode)))


def test_every_column_stays_where_it_was() -> None:
    text = "lambda(x) -> x * y"
    assert len(from_ascii(text)) == len(text)
    with pytest.raises(typeinf.TypeInferenceError) as raised:
        typeinf.infer(iterir.parse(text))
    assert raised.value.location == "<string>:1:18"  # `y`, as written


def test_names_strings_and_comments_are_left_alone() -> None:
    text = '`lambda` -> "a*b"i32 # x -> y * z'
    assert from_ascii(text) == '`lambda` →  "a*b"i32 # x -> y * z'
    assert from_ascii("a <-1") == "a <-1"  # `a < -1`
    assert from_ascii("x^o") == "xₒ " and from_ascii("^o") == "^o"


@given(programs)
def test_a_program_spelled_in_ascii_reads_as_the_program(program: iterir.Node) -> None:
    text = iterir.pformat(program)
    # Spelled outside names in backquotes and string literals, which keep any character.
    pieces = re.split(r'(`(?:[^`\\\n]|\\.)*`|"(?:[^"\\\n]|\\.)*")', text)
    for at in range(0, len(pieces), 2):
        for ascii, char in PROGRAM_ASCII.items():
            if ascii not in ("<-", "^o", "^a", "^h", "^v", "^l"):
                pieces[at] = pieces[at].replace(char, ascii)
        pieces[at] = pieces[at].replace(" ← ", " <- ")
    assert iterir.pformat(iterir.parse("".join(pieces))) == text


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("lambda(x) -> x % 2", "did you mean `mod(a, b)`?"),
        ("λ(x) → x & True", "did you mean `&&` (`∧`)?"),
        ("λ(x) → x | True", "did you mean `||` (`∨`)?"),
    ],
)
def test_a_character_close_to_a_spelling_gets_a_hint(text: str, hint: str) -> None:
    with pytest.raises(iterir.ParseError) as raised:
        iterir.parse(text)
    assert raised.value.message.endswith(hint)
