"""What each rule of the text grammars builds: the callbacks that make nodes, with their spans,
from a rule's tokens and the nodes already made of its parts.

Lark's LALR parser calls them as it reduces each rule of the fencil IR's grammar (iterir/parser.py),
and the fast path (iterir/fast_parser.py) calls the same ones, so that both build the same nodes;
GTIR's callbacks (iterir/gtir_parser.py) extend them.
"""

from __future__ import annotations

import json
import re
from typing import Any, ClassVar, NamedTuple, Protocol, TypeAlias, cast

import lark
from lark import Token

from iterir import vocabulary as voc
from iterir.errors import ParseError
from iterir.nodes import (
    AxisLiteral,
    Expr,
    FencilDefinition,
    FunCall,
    FunctionDefinition,
    Lambda,
    Literal,
    Node,
    OffsetLiteral,
    SourceSpan,
    StencilClosure,
    Sym,
    SymRef,
    relocated,
    trusted_constructor,
)

# The parser's nodes and spans are valid by construction: made unchecked (nodes.py's
# `trusted_constructor`, and SourceSpan's `tuple.__new__`), without the checks a node's and a
# span's own constructors repeat for every node.
_new = tuple.__new__
_symref = trusted_constructor(SymRef)
_sym = trusted_constructor(Sym)
_literal = trusted_constructor(Literal)
_offset = trusted_constructor(OffsetLiteral)
_axis = trusted_constructor(AxisLiteral)
_lambda = trusted_constructor(Lambda)
_funcall = trusted_constructor(FunCall)
_fundef = trusted_constructor(FunctionDefinition)
_closure = trusted_constructor(StencilClosure)
_fencil = trusted_constructor(FencilDefinition)


class Annotated(NamedTuple):
    """A parameter with an annotation, met in an argument list that may be a fencil header."""

    sym: Sym
    token: Token


Item = Any  # a Node, a Token, or one of the lists the list rules build
#: A fencil header's arguments: `call` keeps annotated parameters among them for `fencil`.
HeaderArgs: TypeAlias = tuple[Expr | Annotated, ...]


class Place(Protocol):
    """Where a token or node stands: a SourceSpan, or a token from the lexer, which always sets
    the positions lark's `Token` types as optional."""

    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def end_line(self) -> int: ...
    @property
    def end_column(self) -> int: ...


class Callbacks(lark.Transformer[Token, Node]):
    """One method per grammar rule (or alias); each gets the rule's children, tokens included."""

    #: The infix operators: symbol → (builtin, precedence level).
    infix: ClassVar[dict[str, tuple[str, int]]] = voc.INFIX
    #: The prefix operators: symbol → builtin.
    prefixes: ClassVar[dict[str, str]] = voc.PREFIX

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)
        self.filename: str | None = None
        self.annotated_calls: list[FunCall] = []

    # -- spans ------------------------------------------------------------------------------------
    def span(self, first: Item, last: Item) -> SourceSpan:
        # A node has a span; a token (lark's `Token` or the fast path's `Tok`) is its own place.
        # `getattr` with a default tells them apart in one call (not `isinstance` and `cast`).
        # (typeshed's `getattr` adds `None` to what an `Any` default gives.)
        start: Place = getattr(first, "loc", first)  # type: ignore[assignment]
        end: Place = getattr(last, "loc", last)  # type: ignore[assignment]
        where = (self.filename, start.line, start.column, end.end_line, end.end_column)
        return _new(SourceSpan, where)

    def token_span(self, token: Item) -> SourceSpan:
        # `Item`, not `Token`, whose positions lark types as optional: a lexer's token has them,
        # and a `cast` here would cost a call per token.
        where = (self.filename, token.line, token.column, token.end_line, token.end_column)
        return _new(SourceSpan, where)

    def error(self, message: str, place: Token | Place) -> ParseError:
        """A ParseError at `place`, a token or a parsed node's span."""
        return ParseError(
            message, self.filename, place.line, place.column, end_column=one_line_end(place)
        )

    def name(self, token: Token, text: str | None = None) -> str:
        """The name `token` (or its part `text`) spells; a bad escape is an error there."""
        if text is None:
            text = token.value
        if text[:1] != "`":  # a plain name is its own text: no call for it
            return text
        try:
            return quoted_name(text)
        except ValueError as exc:
            raise self.error(
                f"invalid escape in a quoted name: {getattr(exc, 'msg', exc)}", token
            ) from None

    def builtin(self, name: str, token: Token) -> SymRef:
        return _symref(name, None, self.token_span(token))

    def exprs(self, items: list[Item]) -> tuple[Expr, ...]:
        """The expressions of an argument list; annotations belong to parameter lists only."""
        if Annotated in map(type, items):  # no loop in Python
            annotated = next(item for item in items if isinstance(item, Annotated))
            raise self.error(
                "a parameter annotation is only allowed in a parameter list", annotated.token
            )
        return tuple(items)

    # -- lists ------------------------------------------------------------------------------------
    def args(self, children: list[Item]) -> list[Item]:
        return children[::2]

    def params(self, children: list[Item]) -> list[Item]:
        return children[::2]

    def body(self, children: list[Item]) -> list[Item]:
        return children

    # -- names and literals -----------------------------------------------------------------------
    def symref(self, children: list[Item]) -> Node:
        (token,) = children
        value = token.value
        # The span made here, and a plain name taken as it is: no call for either (the
        # commonest node of every program).
        where = (self.filename, token.line, token.column, token.end_line, token.end_column)
        if value in ("True", "False"):
            return _literal(value, "bool", _new(SourceSpan, where))
        if value[:1] == "`":
            value = self.name(token)
        return _symref(value, None, _new(SourceSpan, where))

    def number(self, children: list[Item]) -> Literal:
        (token,) = children
        text = token.value
        if text.isdecimal():  # digits only (`\d`): an int32, the commonest number, told at once
            return _literal(text, "int32", self.token_span(token))  # no regular expression
        body = cast("re.Match[str]", voc.NUMBER_BODY_RE.match(text)).group()  # a NUMBER matches
        suffix = text[len(body) :]
        if suffix:
            dtype = voc.SUFFIX_TYPES[suffix]
        else:
            dtype = "int32" if voc.INT_RE.fullmatch(body) else "float64"
        return _literal(body, dtype, self.token_span(token))

    def quoted_literal(self, children: list[Item]) -> Literal:
        (token,) = children
        end = token.value.rindex('"') + 1
        return self.quoted(token, end, voc.SUFFIX_TYPES[token.value[end:]])

    def quoted(self, token: Token, end: int, dtype: str) -> Literal:
        """A literal whose text is quoted (JSON string syntax) in `token.value[:end]`, with the
        type its dialect's mark after it says (both dialects' quoted literals)."""
        try:
            value = json.loads(token.value[:end])
        except ValueError as exc:
            raise self.error(
                f"invalid escape in a quoted literal: {getattr(exc, 'msg', exc)}", token
            ) from None
        return _literal(value, dtype, self.token_span(token))

    def offset(self, children: list[Item]) -> OffsetLiteral:
        (token,) = children
        text = token.value[:-1]
        # An OFFSET is `-?\d+`, a plain name or a quoted one (then `ₒ`), told apart by its first
        # character (a name starts with neither `-` nor a digit; `\d` is what `isdecimal` says):
        # no regular expression and no call for a plain name.
        first = text[0]
        value: int | str = text
        if first == "-" or first.isdecimal():
            try:
                value = int(text)
            except ValueError:  # more digits than Python converts
                raise self.error("offset literal too large", token) from None
        elif first == "`":
            value = self.name(token, text)
        where = (self.filename, token.line, token.column, token.end_line, token.end_column)
        return _offset(value, _new(SourceSpan, where))

    def axis(self, children: list[Item]) -> AxisLiteral:
        (token,) = children
        return _axis(self.name(token, token.value[:-1]), None, self.token_span(token))

    # -- parameters -------------------------------------------------------------------------------
    def param(self, children: list[Item]) -> Sym:
        name = children[0]
        if len(children) == 1:
            return _sym(self.name(name), None, None, None, self.token_span(name))
        return self.annotated_sym(name, children[2])

    def annotated_arg(self, children: list[Item]) -> Annotated:
        return Annotated(self.annotated_sym(children[0], children[2]), children[0])

    def annotation(self, children: list[Item]) -> tuple[Token, Any]:
        return (children[0], children[2] if len(children) > 1 else None)

    def annotated_sym(self, name: Token, annotation: tuple[Token, Any]) -> Sym:
        """`x: It[float64]`, `x: Val[L[int32]]`, `x: It`, `x: float64` (a dtype, kind unknown)."""
        head, inner = annotation
        kind = {"It": "Iterator", "Val": "Value"}.get(head.value)
        dtype: tuple[str, bool] | None
        if kind is None:
            dtype = self.annotation_dtype(annotation)
        else:
            dtype = None if inner is None else self.annotation_dtype(inner)
        return _sym(self.name(name), kind, dtype, None, self.token_span(name))

    def annotation_dtype(self, annotation: tuple[Token, Any]) -> tuple[str, bool]:
        head, inner = annotation
        if head.value == "L" and inner is not None and inner[1] is None:
            head, is_list = inner[0], True
        elif inner is None:
            is_list = False
        else:
            raise self.error(
                "a parameter annotation is It[dtype], Val[dtype], It, Val or a dtype,"
                " where dtype is a primitive or L[primitive]",
                head,
            )
        if head.value not in voc.PRIMITIVES:
            raise self.error(
                f"unknown dtype `{head.value}` in annotation; expected one of: "
                + ", ".join(sorted(voc.PRIMITIVES)),
                head,
            )
        return (head.value, is_list)

    # -- expressions ------------------------------------------------------------------------------
    def lambda_(self, children: list[Item]) -> Lambda:
        params = tuple(children[2])
        return _lambda(params, children[5], self.span(children[0], children[5]))

    def if_(self, children: list[Item]) -> FunCall:
        cond, then, otherwise = children[1], children[3], children[5]
        fun = self.builtin("if_", children[0])
        return _funcall(fun, (cond, then, otherwise), self.span(children[0], otherwise))

    def infix_chain(self, children: list[Item]) -> Expr:
        """`a op b op c …` with operators of any levels: precedence climbing, left-associative.
        An operator waits on `pending` until one of its level or lower follows (or the end, a
        level below all). Each node and span is made here from the operands' and the token's
        places, not through `span` and `builtin` (two calls less an operator)."""
        filename, infix, count = self.filename, self.infix, len(children)
        operands: list[Expr] = [children[0]]
        pending: list[tuple[int, Token, str]] = []  # level, token, builtin
        for i in range(1, count + 1, 2):
            if i < count:
                op = children[i]
                builtin, level = infix[op.value]
            else:
                level = -1
            while pending and pending[-1][0] >= level:
                _, token, name = pending.pop()
                right = operands.pop()
                left = operands[-1]
                start, end = left.loc, right.loc
                assert start is not None and end is not None  # parsed nodes have spans
                where = (filename, token.line, token.column, token.end_line, token.end_column)
                fun = _symref(name, None, _new(SourceSpan, where))
                span = _new(SourceSpan, (filename, start[1], start[2], end[3], end[4]))
                operands[-1] = _funcall(fun, (left, right), span)
            if i < count:
                pending.append((level, op, builtin))
                operands.append(children[i + 1])
        return operands[0]

    def prefix(self, children: list[Item]) -> FunCall:
        op, operand = children
        filename, line, column, end = self.filename, op.line, op.column, operand.loc
        # The spans made here, not through `span` and `builtin` (two calls less an operator).
        where = (filename, line, column, op.end_line, op.end_column)
        fun = _symref(self.prefixes[op.value], None, _new(SourceSpan, where))
        span = _new(SourceSpan, (filename, line, column, end[3], end[4]))
        return _funcall(fun, (operand,), span)

    def call(self, children: list[Item]) -> FunCall:
        fun, _, args, close = children
        node = self.called(fun, args, close.end_line, close.end_column)
        if Annotated in map(type, args):  # no generator: this runs for every call
            # Only valid as a fencil header; `parse` rejects it anywhere else.
            self.annotated_calls.append(node)
        return node

    def called(self, fun: Node, args: list[Item], end_line: int, end_column: int) -> FunCall:
        """`fun(args…)`, the call ending at `end_line`:`end_column`. The fast path calls this
        with the place of its `)` (no token made for it) and expressions only (it leaves
        annotations to lark)."""
        start = fun.loc
        assert start is not None  # parsed nodes have spans
        # The span made here from the callee's, not through `span`: this runs for every call.
        where = (self.filename, start[1], start[2], end_line, end_column)
        return _funcall(fun, tuple(args), _new(SourceSpan, where))

    def tuple_get(self, children: list[Item]) -> FunCall:
        tup, bracket, index, close = children
        fun = self.builtin("tuple_get", bracket)
        return _funcall(fun, (index, tup), self.span(tup, close))

    def named_range(self, children: list[Item]) -> FunCall:
        name, _, bracket, start, _, stop, close = children
        axis = _axis(self.name(name), None, self.token_span(name))
        fun = self.builtin("named_range", bracket)
        return _funcall(fun, (axis, start, stop), self.span(name, close))

    def paren(self, children: list[Item]) -> Expr:
        # The span widens to the parentheses, so that a caret covers what the reader sees.
        inner: Expr = children[1]
        return relocated(inner, self.span(children[0], children[2]))

    def bracketed(self, builtin: str, children: list[Item]) -> FunCall:
        open_, args, close = children
        filename, line, column = self.filename, open_.line, open_.column
        # The spans made here, not through `span` and `builtin`, and `exprs` without a loop in
        # Python: every stencil's shifts come here.
        where = (filename, line, column, open_.end_line, open_.end_column)
        fun = _symref(builtin, None, _new(SourceSpan, where))
        span = _new(SourceSpan, (filename, line, column, close.end_line, close.end_column))
        return _funcall(fun, self.exprs(args), span)

    def make_tuple(self, children: list[Item]) -> FunCall:
        return self.bracketed("make_tuple", children)

    def shift(self, children: list[Item]) -> FunCall:
        return self.bracketed("shift", children)

    def cartesian_domain(self, children: list[Item]) -> FunCall:
        return self.bracketed("cartesian_domain", children)

    def unstructured_domain(self, children: list[Item]) -> FunCall:
        return self.bracketed("unstructured_domain", children)

    # -- definitions ------------------------------------------------------------------------------
    def fundef(self, children: list[Item]) -> FunctionDefinition:
        name = children[0]
        params = tuple(children[4])
        return _fundef(self.name(name), params, children[7], self.span(name, children[8]))

    def closure(self, children: list[Item]) -> StencilClosure:
        output, stencil, inputs, domain = children[0], children[3], children[6], children[9]
        span = self.span(output, children[10])
        return _closure(domain, stencil, output, self.exprs(inputs), span)

    def fencil(self, children: list[Item]) -> FencilDefinition:
        header, _, body, close = children
        if not (isinstance(header, FunCall) and isinstance(header.fun, SymRef)):
            raise self.error(
                "a fencil starts with its name and parameters, `name(p1, p2) {`",
                cast(SourceSpan, header.loc),  # parsed nodes have spans
            )
        params: list[Sym] = []
        args: HeaderArgs = header.args
        for arg in args:
            if isinstance(arg, Annotated):
                params.append(arg.sym)
            elif isinstance(arg, SymRef):
                params.append(_sym(arg.id, None, None, None, arg.loc))
            else:
                raise self.error(
                    "a fencil parameter must be a name",
                    cast(SourceSpan, arg.loc),  # parsed nodes have spans
                )
        if header in self.annotated_calls:
            self.annotated_calls.remove(header)
        defs = [item for item in body if isinstance(item, FunctionDefinition)]
        closures = [item for item in body if isinstance(item, StencilClosure)]
        span = self.span(header, close)
        return _fencil(header.fun.id, tuple(defs), tuple(params), tuple(closures), span)


_NAME_ESCAPE = re.compile(r'\\(.)|"')


def quoted_name(text: str) -> str:
    """A name written in backquotes, with JSON string escapes (and `\\``)."""
    body = _NAME_ESCAPE.sub(
        lambda m: '\\"' if m.group(1) is None else ("\\u0060" if m.group(1) == "`" else m.group()),
        text[1:-1],
    )
    name: str = json.loads(f'"{body}"')
    return name


def one_line_end(place: Token | Place) -> int | None:
    """Where a caret under `place` ends: its end column if it ends on the line it starts on."""
    return place.end_column if place.end_line == place.line else None
