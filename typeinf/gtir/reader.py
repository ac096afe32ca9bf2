"""Reading GTIR types written in the notation of docs/gtir.md back into cells (what
`typeinf.gtir.notation` prints reads back to the same text).

    start := type ["where" VAR ":" FAMILY ("," VAR ":" FAMILY)*]
    type  := "(" [items] ")" "→" type | VAR | SCALAR | "tuple" "[" [items] "]"
           | "Field" "[" dims "," type "]" | "List" "[" type ["," dim] "]"
           | "It" "[" dims "," dims "," type "]" | "Domain" "[" dims "]"
           | "NamedRange" "[" dim "]" | "Dimension" "[" dim "]"
           | "Offset" "[" (SCALAR | dim ["→" dim]) "]"
    items := item ("," item)*      item := type | "*" VAR   (the unknown rest, last)
    dims  := VAR | "[" [dim ("," dim)*] "]"
    dim   := NAME [KIND] | QUOTED [KIND] | VAR

A variable's place gives its sort (a dimension set is written `D₀`, anything else `T₀`; one
number is one variable). `->` reads as `→`, and `KDim^v` as `KDimᵥ` (the ASCII spelling,
`notation.to_ascii_gtir`); a scalar may be abbreviated as GT4Py's text writes it
(`f64`, `i1`); a dimension's kind is `ₕ`, `ᵥ` or `ₗ` after its name, horizontal when there is
none. A set of dimensions must be written in GT4Py's canonical order (horizontal < local <
vertical, then by name): a set written otherwise is an error, not silently reordered. Types
nest at most `iterir.gtir_types.MAX_DEPTH` levels (GT4Py's nest a few). A `where` clause's
families read back; its relations (`D₂ = D₀ ∪ D₁`) do not: inference makes them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from iterir.gtir_types import ABBREVIATED, MAX_DEPTH, SUFFIX_KINDS, Dimension
from iterir.vocabulary import PRIMITIVES
from typeinf.core.cellbuilder import VariableBuilder
from typeinf.core.constructors import D_EMPTY, DTUPLE, row
from typeinf.core.terms import Cell, Sort, find, make
from typeinf.core.typetokens import Token, TypeSyntaxError, echoed, subscript_number
from typeinf.gtir.notation import GTIR_ASCII_SPELLING
from typeinf.gtir.terms import (
    CARTESIAN_OFFSET,
    DIMENSION,
    DOMAIN,
    FUNCTION,
    NAMED_RANGE,
    NO_DIM,
    OFFSET,
    DimensionSetError,
    canonical,
    dim,
    dims,
    field,
    iterator,
    list_of,
    offset_amount,
    scalar,
)

_TOKEN = re.compile(
    r"""[ \t\r\n]*(?:
      (?P<VAR>[TD](?:[₀-₉]+|[0-9]+)(?![A-Za-z0-9_]))
    | (?P<NAME>[A-Za-z_][A-Za-z0-9_]*(?:[ₕᵥₗ]|\^[hvl])?)
    | (?P<QUOTED>`(?:[^`\\]|\\.)*`(?:[ₕᵥₗ]|\^[hvl])?)
    | (?P<MARK>→|->|[\[\](),*:])
    | (?P<EOF>\Z)
    | (?P<BAD>.))""",
    re.VERBOSE | re.DOTALL,
)

#: How a message names what a variable stands for.
_SORT_WORDS = {
    Sort.DTYPE: "type",
    Sort.DROW: "tuple's rest",
    Sort.DIM: "dimension",
    Sort.DIMS: "dimension set",
}


def parse_gtir_type(text: str) -> Cell:
    """The cell of a GTIR type written in the notation; TypeSyntaxError says what and where."""
    return _Reader(text).start()


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = [_tokenize(match) for match in _TOKEN.finditer(text)]
        self.at = 0
        #: The fencil reader's variables and families (one number, one variable, sorts met).
        self.builder = VariableBuilder()

    # -- tokens -----------------------------------------------------------------------------------
    def peek(self) -> Token:
        return self.tokens[self.at]

    def take(self) -> Token:
        token = self.tokens[self.at]
        if token.kind != "EOF":
            self.at += 1
        return token

    def expect(self, kind: str) -> Token:
        token = self.take()
        if token.kind != kind:
            raise self.error(token, f"expected {kind!r}")
        return token

    def error(self, token: Token, what: str) -> TypeSyntaxError:
        where = (
            "at its end"
            if token.kind == "EOF"
            else f"at column {token.start - self.text.rfind(chr(10), 0, token.start)}"
        )
        return TypeSyntaxError(
            f"not a GTIR type {where} ({what}): {echoed(self.text, token.start)}"
        )

    # -- the grammar ------------------------------------------------------------------------------
    def start(self) -> Cell:
        type_ = self.type(0)
        token = self.take()
        if token.kind == "NAME" and token.text == "where":
            self.families()
            token = self.take()
        if token.kind != "EOF":
            raise self.error(token, "expected the end")
        return type_

    def families(self) -> None:
        """`T₀: float, …`: each a variable of the type (a family of none would be lost), a
        type's (a tuple's rest has none), restricted once (a second would override the first)."""
        while True:
            token = self.expect("VAR")
            self.expect(":")
            name = self.expect("NAME")
            known = self.builder.variables.get(self.number(token))
            if known is None:
                raise self.error(token, f"{token.text} is not in the type")
            root = find(known)
            if root.sort is not Sort.DTYPE:
                raise self.error(
                    token, f"{token.text} is a {_SORT_WORDS[root.sort]}, which has no family"
                )
            if root.family is not None:
                raise self.error(token, f"{token.text} has a family already")
            try:
                self.builder.restrict([(token.text, name.text)])
            except TypeSyntaxError as error:
                raise self.error(name, str(error)) from None
            if self.peek().kind != ",":
                return
            self.take()

    def type(self, depth: int) -> Cell:
        if depth > MAX_DEPTH:
            raise self.error(self.peek(), f"a type nested more than {MAX_DEPTH} levels deep")
        token = self.take()
        if token.kind == "(":
            params = self.items(")", depth + 1)
            self.expect(")")
            self.expect("→")
            return make(FUNCTION, params, self.type(depth + 1))
        if token.kind == "VAR":
            return self.variable(token, Sort.DTYPE)
        if token.kind != "NAME":
            raise self.error(token, "expected a type")
        name = token.text
        if name in PRIMITIVES or name in ABBREVIATED:
            return scalar(ABBREVIATED.get(name, name))
        if self.peek().kind != "[" or name not in _APPLIED:
            raise self.error(token, f"unknown type {name!r}")
        self.take()
        cell = _APPLIED[name](self, depth + 1)
        self.expect("]")
        return cell

    def items(self, close: str, depth: int) -> Cell:
        """`a, b, *T₁` up to `close` (not taken) as a dtype row, its items `depth` deep."""
        items: list[Cell] = []
        tail = D_EMPTY
        while self.peek().kind != close:
            if items:
                self.expect(",")
            if self.peek().kind == "*":
                self.take()
                tail = self.variable(self.expect("VAR"), Sort.DROW)
                break
            items.append(self.type(depth))
        return row(DTUPLE, items, tail)

    def tuple(self, depth: int) -> Cell:
        return self.items("]", depth)

    def dims(self) -> Cell:
        token = self.take()
        if token.kind == "VAR":
            return self.variable(token, Sort.DIMS)
        if token.kind != "[":
            raise self.error(token, "expected a dimension set: `[…]` or `D₀`")
        written: list[Dimension] = []
        while self.peek().kind != "]":
            if written:
                self.expect(",")
            name = self.take()
            written.append(self.dimension(name))
            if written[-1] in written[:-1]:
                raise self.error(name, f"{name.text} is written twice in the set")
        self.expect("]")
        try:
            ordered = canonical(written)
        except DimensionSetError as error:
            raise self.error(token, str(error)) from None
        if ordered != tuple(written):
            order = ", ".join(d.value for d in ordered)
            raise self.error(token, f"a set is written in GT4Py's order: {order}")
        return dims(ordered)

    def dim(self) -> Cell:
        token = self.take()
        if token.kind == "VAR":
            return self.variable(token, Sort.DIM)
        return dim(self.dimension(token))

    def dimension(self, token: Token) -> Dimension:
        if token.kind not in ("NAME", "QUOTED"):
            raise self.error(token, "expected a dimension")
        text, kind = token.text, "horizontal"
        if text[-1] in SUFFIX_KINDS:
            text, kind = text[:-1], SUFFIX_KINDS[text[-1]]
        elif text[-2:] in _ASCII_KINDS:  # `KDim^v`, the ASCII spelling of `KDimᵥ`
            text, kind = text[:-2], _ASCII_KINDS[text[-2:]]
        if token.kind == "QUOTED":
            try:
                text = json.loads('"' + text[1:-1] + '"')
            except json.JSONDecodeError:
                raise self.error(token, "a malformed quoted name") from None
        return Dimension(text, kind)

    def variable(self, token: Token, sort: Sort) -> Cell:
        """The variable `token` names, its letter saying its sort (`D` a set, `T` any other)."""
        if (token.text[0] == "D") != (sort is Sort.DIMS):
            wanted = "a dimension set (D…)" if sort is Sort.DIMS else f"a {_SORT_WORDS[sort]} (T…)"
            raise self.error(token, f"{token.text} stands where {wanted} stands")
        try:
            return self.builder.variable(token.text, sort)
        except TypeSyntaxError as error:
            raise self.error(token, str(error)) from None

    def number(self, token: Token) -> int:
        try:
            return subscript_number(token.text)
        except TypeSyntaxError as error:
            raise self.error(token, str(error)) from None

    # -- `Name[…]` ----------------------------------------------------------------------------------
    def field(self, depth: int) -> Cell:
        dimensions = self.dims()
        self.expect(",")
        return field(dimensions, self.type(depth))

    def list(self, depth: int) -> Cell:
        element = self.type(depth)
        if self.peek().kind != ",":
            return list_of(element, NO_DIM)
        self.take()
        return list_of(element, self.dim())

    def iterator(self, depth: int) -> Cell:
        positions = self.dims()
        self.expect(",")
        defined = self.dims()
        self.expect(",")
        return iterator(positions, defined, self.type(depth))

    def offset(self, depth: int) -> Cell:
        token = self.peek()
        if token.kind == "NAME" and (token.text in PRIMITIVES or token.text in ABBREVIATED):
            self.take()
            return offset_amount(ABBREVIATED.get(token.text, token.text))
        tag = self.dim()
        if self.peek().kind != "→":
            return make(OFFSET, tag)
        self.take()
        return make(CARTESIAN_OFFSET, tag, self.dim())


#: A kind's ASCII spelling (`notation.GTIR_ASCII_SPELLING`), by the kind it stands for.
_ASCII_KINDS = {GTIR_ASCII_SPELLING[suffix]: kind for suffix, kind in SUFFIX_KINDS.items()}


def _tokenize(match: re.Match[str]) -> Token:
    kind = match.lastgroup
    assert kind is not None  # EOF and BAD match anywhere
    text = match.group(kind)
    if kind == "MARK":
        return Token("→" if text == "->" else text, text, match.start(kind))
    return Token(kind, text, match.start(kind))


_APPLIED: dict[str, Callable[[_Reader, int], Cell]] = {
    "tuple": _Reader.tuple,
    "Field": _Reader.field,
    "List": _Reader.list,
    "It": _Reader.iterator,
    "Domain": lambda reader, depth: make(DOMAIN, reader.dims()),
    "NamedRange": lambda reader, depth: make(NAMED_RANGE, reader.dim()),
    "Dimension": lambda reader, depth: make(DIMENSION, reader.dim()),
    "Offset": _Reader.offset,
}
