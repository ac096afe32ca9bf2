"""Parse GTIR text (GT4Py 1.2.3's printer, plus our lossless extensions: docs/gtir.md).

GTIR has its own grammar (`gtir_grammar.lark`) beside the fencil IR's: the two write named
ranges, literals and parameter annotations differently, and each grammar's error messages stay
those of its dialect. The callbacks extend the fencil IR's (iterir/node_building.py), so that the shared expression
syntax builds the same nodes.
"""

from __future__ import annotations

import functools
import re
import typing
from typing import Any, ClassVar, NamedTuple, overload

import lark
from lark import Token

from iterir import gtir_types as gt
from iterir import tables
from iterir import vocabulary as voc
from iterir.errors import ParseError
from iterir.node_building import Annotated, Callbacks, Item
from iterir.nodes import (
    AxisLiteral,
    CartesianOffset,
    FunCall,
    FunctionDefinition,
    IfStmt,
    InfinityLiteral,
    Literal,
    Node,
    Program,
    SetAt,
    Sym,
    SymRef,
    Temporary,
)
from iterir.parse_driver import run

#: Quoted names, quoted literals and comments, which may hold any character.
_OPAQUE = re.compile(r'`(?:[^`\\\n]|\\.)*`|"(?:[^"\\\n]|\\.)*"|#[^\n]*')
#: What only GTIR text has: an axis kind, `∞`, `⇑`, `<=`/`>=`, a GTIR type or typed literal,
#: a temporary, `} else {`, and a `@` before `←` (a fencil closure has them the other way).
#: Every branch starts with a character or a set, which lets `re` skip most positions at once
#: (`t(?<!\wt)` is `\bt`). `@[^;←@]*←` stops at the next `@`, where `@[^;←]*←` rescanned the
#: rest from each `@`: quadratic in the number of `@`.
_HINTS = re.compile(
    r"[ₕᵥₗ](?!\w)|[∞⇑]|<=|>=|t(?<!\wt)emporary\s*\(|\}\s*else\s*\{|@[^;←@]*←"
    r"|:\s*(?:Field|tuple|List|Domain|NamedRange|Dimension|Offset)\[|:\s*It\[(?:\[|unknown)"
    r"|\d:[iuf]\d|True:[iuf]\d|False:[iuf]\d|:\s*(?:[iu](?:1|8|16|32|64)|f32|f64)\b"
)


#: Each branch of `_HINTS` needs one of these strings (the second of each pair), or a colon that
#: `_TYPED` finds, or is `_AT_ARROW`. A mark is looked for only where the first of its pair, a
#: character its branch needs too, is in the text: C's search for one character is much faster
#: than for a string, and every parse of either dialect asks.
_HINT_MARKS = (
    *((mark, mark) for mark in ("ₕ", "ᵥ", "ₗ", "∞", "⇑", "temporary")),
    *(("<", "<="), (">", ">="), ("}", "else")),
)
#: A colon that does not open a named range's bounds (`IDim: [`): the branches of `_HINTS` that
#: start with a colon or end with one need it.
_TYPED = re.compile(r":(?!\s*+\[)")
#: The branch of `_HINTS` of a `@` before `←`.
_AT_ARROW = re.compile(r"@[^;←@]*←")
#: What `_OPAQUE` removes starts with one of these.
_OPENERS = ("`", '"', "#")


def hints(text: str) -> bool:
    """Whether `text` shows a construct only GTIR has (quoted names and comments aside)."""
    # The branches of `_HINTS` looked for one by one first, each from a string or a character
    # that C's search finds (`_AT_ARROW` only where nothing is quoted or commented, which would
    # be removed), so that a fencil program, which has no mark, is not searched by the whole
    # expression.
    if not any(first in text and mark in text for first, mark in _HINT_MARKS):
        colon = ":" in text and _TYPED.search(text) is not None  # the same with them removed
        pair = "@" in text and "←" in text
        if pair and not any(opener in text for opener in _OPENERS):  # nothing to remove
            pair = _AT_ARROW.search(text) is not None
        if not colon and not pair:
            return False
    return _HINTS.search(_OPAQUE.sub("", text)) is not None


class _Part(NamedTuple):
    """A piece of a type annotation: a type, or what only a type around it can tell apart (a bare
    name: a scalar, a dimension or `unknown`; a list of dimensions; a number of a shape)."""

    what: str  # "type", "name", "dims", "number", "keyword", "star"
    value: Any
    token: Token
    depth: int


_SCALARS = {**{k: k for k in gt.ABBREVIATIONS}, **gt.ABBREVIATED}
_BARE_TYPES: dict[str, gt.GType] = {"Void": gt.VoidType(), "Deferred": gt.DeferredType()}


class _GtirCallbacks(Callbacks):
    infix: ClassVar[dict[str, tuple[str, int]]] = {**voc.INFIX, **voc.GTIR_INFIX}
    prefixes: ClassVar[dict[str, str]] = {**voc.PREFIX, **voc.GTIR_PREFIX}

    # -- literals and axes ----------------------------------------------------------------------
    def number(self, children: list[Token]) -> Literal:
        (token,) = children
        body, _, short = token.value.partition(":")
        default = "int32" if voc.INT_RE.fullmatch(body) else "float64"
        return Literal(body, _SCALARS[short] if short else default, loc=self.token_span(token))

    def typed_bool(self, children: list[Token]) -> Literal:
        (token,) = children
        body, _, short = token.value.partition(":")
        return Literal(body, _SCALARS[short], loc=self.token_span(token))

    def quoted_literal(self, children: list[Token]) -> Literal:
        (token,) = children
        end = token.value.rindex(":")
        return self.quoted(token, end, _SCALARS[token.value[end + 1 :]])

    def infinity(self, children: list[Token]) -> InfinityLiteral:
        (token,) = children
        name = "NEGATIVE" if token.value.startswith("-") else "POSITIVE"
        return InfinityLiteral(name, loc=self.token_span(token))

    def axis(self, children: list[Token]) -> AxisLiteral:
        (token,) = children
        return AxisLiteral(
            self.name(token, token.value[:-1]),
            gt.SUFFIX_KINDS[token.value[-1]],
            loc=self.token_span(token),
        )

    def cartesian_offset(self, children: list[Token]) -> CartesianOffset:
        start, _, end = children
        domain, codomain = self.axis([start]), self.axis([end])
        return CartesianOffset(domain, codomain, loc=self.span(start, end))

    def named_range(self, children: list[Item]) -> FunCall:
        head, _, bracket, start, _, stop, close = children
        fun = self.builtin("named_range", bracket)
        return FunCall(fun, (self.axis([head]), start, stop), loc=self.span(head, close))

    def typed_symref(self, children: list[Item]) -> SymRef:
        open_, name, _, part, close = children
        return SymRef(self.name(name), self.type_of(part), loc=self.span(open_, close))

    # -- parameters -----------------------------------------------------------------------------
    def param(self, children: list[Item]) -> Sym:
        name = children[0]
        type_ = self.type_of(children[2]) if len(children) > 1 else None
        return Sym(self.name(name), type=type_, loc=self.token_span(name))

    def annotated_arg(self, children: list[Item]) -> Annotated:
        return Annotated(self.param(children), children[0])

    # -- types ----------------------------------------------------------------------------------
    def part(self, what: str, value: Any, token: Token, inner: list[_Part]) -> _Part:
        depth = 1 + max((p.depth for p in inner), default=0)
        if depth > gt.MAX_DEPTH:
            raise self.error(f"type nested more than {gt.MAX_DEPTH} levels deep", token)
        return _Part(what, value, token, depth)

    def type_name(self, children: list[Token]) -> _Part:
        (token,) = children
        return _Part("name", self.name(token), token, 1)

    def type_axis(self, children: list[Token]) -> _Part:
        axis = self.axis(children)
        return _Part("type", gt.Dimension(axis.value, axis.kind or ""), children[0], 1)

    def type_number(self, children: list[Token]) -> _Part:
        (token,) = children
        if not re.fullmatch(r"\d+", token.value):
            raise self.error("a shape is a list of non-negative integers", token)
        return _Part("number", int(token.value), token, 1)

    def type_star(self, children: list[Token]) -> _Part:
        return _Part("star", None, children[0], 1)

    def type_keyword(self, children: list[Item]) -> _Part:
        name, _, part = children
        return self.part("keyword", (self.name(name), self.type_of(part)), name, [part])

    def type_dims(self, children: list[Item]) -> _Part:
        parts = children[1:-1:2]
        dims = tuple(self.dimension_of(p) for p in parts)
        return self.part("dims", dims, children[0], parts)

    def type_tuple(self, children: list[Item]) -> _Part:
        parts = children[1:-1:2]
        value = gt.TupleType(tuple(self.type_of(p) for p in parts))
        return self.part("type", value, children[0], parts)

    def type_function(self, children: list[Item]) -> _Part:
        parts: list[_Part] = children[1:-3:2]
        positional: list[gt.GType] = []
        keywords: list[tuple[str, gt.GType]] = []
        keyword_only: list[tuple[str, gt.GType]] = []
        starred = False
        for p in parts:
            if p.what == "star":
                if starred:
                    raise self.error(
                        "`*` may stand only once among a function's arguments", p.token
                    )
                starred = True
            elif p.what == "keyword":
                (keyword_only if starred else keywords).append(p.value)
            elif keywords or starred:
                raise self.error("a positional argument after a named one", p.token)
            else:
                positional.append(self.type_of(p))
        value = gt.FunctionType(
            tuple(positional), tuple(keywords), tuple(keyword_only), self.type_of(children[-1])
        )
        return self.part("type", value, children[0], [*parts, children[-1]])

    def type_apply(self, children: list[Item]) -> _Part:
        head: Token = children[0]
        parts: list[_Part] = children[2:-1:2]
        return self.part("type", self.applied(head, parts), head, parts)

    def applied(self, head: Token, parts: list[_Part]) -> gt.GType:
        """`Field[…]`, `tuple[…]`, `It[…]`, `f64[3]`, …: the type a head makes of its arguments."""
        name = head.value
        arity = {
            "Field": (2, 2),
            "List": (1, 2),
            "It": (3, 3),
            "Domain": (1, 1),
            "NamedRange": (1, 1),
            "Dimension": (1, 1),
            "Offset": (1, 1),
        }
        if name in _SCALARS:
            if not parts or any(p.what != "number" for p in parts):
                raise self.error("a scalar's shape is a list of integers: `f64[3, 4]`", head)
            return gt.ScalarType(_SCALARS[name], tuple(p.value for p in parts))
        if name == "tuple":
            return gt.TupleType(tuple(self.type_of(p) for p in parts))
        if name not in arity:
            raise self.error(
                f"unknown type `{name}`; expected Field, tuple, List, It, Domain, NamedRange,"
                " Dimension, Offset or a scalar",
                head,
            )
        low, high = arity[name]
        if not low <= len(parts) <= high:
            count = str(low) if low == high else f"{low} or {high}"
            raise self.error(f"`{name}[…]` takes {count} arguments, not {len(parts)}", head)
        if name == "Field":
            return gt.FieldType(self.dims_of(parts[0], False), self.type_of(parts[1]))
        if name == "List":
            offset = self.dimension_of(parts[1]) if len(parts) == 2 else None
            return gt.ListType(self.type_of(parts[0]), offset)
        if name == "It":
            return gt.IteratorType(
                self.dims_of(parts[0], True),
                self.dims_of(parts[1], False),
                self.type_of(parts[2]),
            )
        if name == "Domain":
            return gt.DomainType(self.dims_of(parts[0], True))
        if name == "NamedRange":
            return gt.NamedRangeType(self.dimension_of(parts[0]))
        if name == "Dimension":
            return gt.DimensionType(self.dimension_of(parts[0]))
        only = parts[0]
        if only.what == "name" and only.value not in _SCALARS:
            return gt.OffsetLiteralType(self.dimension_of(only))
        return gt.OffsetLiteralType(self.type_of(only))

    def type_of(self, part: _Part) -> gt.GType:
        if part.what == "type":
            type_: gt.GType = part.value  # a "type" part holds a GType
            return type_
        if part.what == "name":
            if part.value in _SCALARS:
                return gt.ScalarType(_SCALARS[part.value])
            if part.value in _BARE_TYPES:
                return _BARE_TYPES[part.value]
            raise self.error(
                f"unknown type `{part.value}`; expected a scalar (`f64`, `float64`, `i1`, …),"
                " Void, Deferred or a type with arguments",
                part.token,
            )
        raise self.error("expected a type", part.token)

    def dimension_of(self, part: _Part) -> gt.Dimension:
        if part.what == "type" and isinstance(part.value, gt.Dimension):
            return part.value
        if part.what == "name":  # GT4Py's default kind
            return gt.Dimension(part.value, "horizontal")
        raise self.error("expected a dimension (`IDimₕ`, `KDimᵥ`, `V2Eₗ`)", part.token)

    @overload
    def dims_of(self, part: _Part, unknown: typing.Literal[False]) -> tuple[gt.Dimension, ...]: ...
    @overload
    def dims_of(self, part: _Part, unknown: bool) -> gt.Dims: ...
    def dims_of(self, part: _Part, unknown: bool) -> gt.Dims:
        """A list of dimensions; or `unknown`, where `unknown` allows it."""
        if part.what == "dims":
            dims: tuple[gt.Dimension, ...] = part.value  # a "dims" part holds a tuple of them
            return dims
        if unknown and part.what == "name" and part.value == "unknown":
            return "unknown"
        expected = "a list of dimensions" + (" or `unknown`" if unknown else "")
        raise self.error(f"expected {expected}: `[IDimₕ, KDimᵥ]`", part.token)

    # -- statements and programs ----------------------------------------------------------------
    def set_at(self, children: list[Item]) -> SetAt:
        target, _, domain, _, expr, semi = children
        return SetAt(expr, domain, target, loc=self.span(target, semi))

    def stmts(self, children: list[Item]) -> list[Item]:
        return children

    def if_stmt(self, children: list[Item]) -> IfStmt:
        cond, true_branch, false_branch = children[2], children[5], children[9]
        return IfStmt(cond, true_branch, false_branch, loc=self.span(children[0], children[-1]))

    def temporary_fields(self, children: list[Item]) -> tuple[Node | None, gt.GType | None]:
        domain = dtype = None
        for i, child in enumerate(children):
            if isinstance(child, Token) and child.type == "DOMAIN":
                domain = children[i + 2]
            elif isinstance(child, Token) and child.type == "DTYPE":
                dtype = self.type_of(children[i + 2])
        return domain, dtype

    def temporary(self, children: list[Item]) -> Temporary:
        name, *_, fields, _, semi = children
        domain, dtype = fields if isinstance(fields, tuple) else (None, None)
        return Temporary(self.name(name), domain, dtype, loc=self.span(name, semi))

    def marked_program(self, children: list[Item]) -> Program:
        return self.program(children[1:])

    def program(self, children: list[Item]) -> Program:
        header, _, body, close = children
        if not (isinstance(header, FunCall) and isinstance(header.fun, SymRef)):
            raise self.node_error(
                "a program starts with its name and parameters, `name(p1, p2) {`", header
            )
        params = []
        args: tuple[Any, ...] = header.args  # the call rule keeps annotated arguments for us
        for arg in args:
            if isinstance(arg, Annotated):
                params.append(arg.sym)
            elif isinstance(arg, SymRef) and arg.type is None:
                params.append(Sym(arg.id, loc=arg.loc))
            else:
                raise self.node_error("a program parameter must be a name, `p` or `p: type`", arg)
        if header in self.annotated_calls:
            self.annotated_calls.remove(header)
        return Program(
            header.fun.id,
            tuple(item for item in body if isinstance(item, FunctionDefinition)),
            tuple(params),
            tuple(item for item in body if isinstance(item, Temporary)),
            tuple(item for item in body if isinstance(item, (SetAt, IfStmt))),
            loc=self.span(header, close),
        )

    def node_error(self, message: str, node: Node) -> ParseError:
        """A ParseError at a parsed node (which has a span)."""
        loc = node.loc
        assert loc is not None
        return self.error(message, loc)


_callbacks = _GtirCallbacks()


@functools.cache
def _parser() -> lark.Lark:
    """The parser, made when first needed from cached tables (see `tables`)."""
    return tables.text_parser("gtir_grammar.lark", _callbacks)


def parse(text: str, filename: str | None = None) -> Node:
    """Parse GTIR text: an expression, a function definition, a temporary, a statement or a
    program."""
    return run(_parser, _callbacks, text, filename)
