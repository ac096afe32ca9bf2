"""Concise IR construction for tests and passes: `lam("x")(deref("x"))`, `call("plus")(a, b)`.

Wherever an expression is expected, a `str` stands for a SymRef, an `int` for an int32 literal, a
`float` for a float64 literal and a `bool` for a bool literal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Union

from iterir import vocabulary as voc
from iterir.nodes import (
    AxisLiteral,
    Expr,
    FencilDefinition,
    FunCall,
    FunctionDefinition,
    Lambda,
    Literal,
    OffsetLiteral,
    StencilClosure,
    Sym,
    SymRef,
)

ExprLike = Union[Expr, str, int, float, bool]


def expr(value: ExprLike) -> Expr:
    """The expression `value` stands for."""
    if isinstance(value, bool):
        return Literal(str(value), "bool")
    if isinstance(value, str):
        return SymRef(value)
    if isinstance(value, int):
        return Literal(str(value), "int32")
    if isinstance(value, float):
        return Literal(repr(value), "float64")
    return value


def literal(value: str, dtype: str) -> Literal:
    """A literal with its text and primitive type: `literal("1.0", "float32")`."""
    if dtype not in voc.PRIMITIVES:
        raise ValueError(
            f"unknown literal type {dtype!r}; expected one of {sorted(voc.PRIMITIVES)}"
        )
    return Literal(value, dtype)


def sym(name: str | Sym, kind: str | None = None, dtype: tuple[str, bool] | None = None) -> Sym:
    """A parameter, optionally annotated: `sym("x", "Iterator", ("float64", False))`."""
    return name if isinstance(name, Sym) else Sym(name, kind, dtype)


def lam(*params: str | Sym) -> Callable[[ExprLike], Lambda]:
    """`lam("x", "y")(body)` is `λ(x, y) → body`."""
    return lambda body: Lambda(tuple(sym(p) for p in params), expr(body))


def call(fun: ExprLike) -> Callable[..., FunCall]:
    """`call("plus")(a, b)` is `plus(a, b)`."""
    return lambda *args: FunCall(expr(fun), tuple(expr(a) for a in args))


def offset(value: int | str) -> OffsetLiteral:
    return OffsetLiteral(value)


def axis(name: str) -> AxisLiteral:
    return AxisLiteral(name)


def deref(it: ExprLike) -> FunCall:
    return call("deref")(it)


def lift(stencil: ExprLike) -> FunCall:
    return call("lift")(stencil)


def plus(a: ExprLike, b: ExprLike) -> FunCall:
    return call("plus")(a, b)


def make_tuple(*items: ExprLike) -> FunCall:
    return call("make_tuple")(*items)


def tuple_get(index: int, tup: ExprLike) -> FunCall:
    return call("tuple_get")(index, tup)


def if_(cond: ExprLike, then: ExprLike, otherwise: ExprLike) -> FunCall:
    return call("if_")(cond, then, otherwise)


def shift(*offsets: int | str | OffsetLiteral) -> FunCall:
    """`shift("V2E", 0)` is `⟪V2Eₒ, 0ₒ⟫`; apply it with `shift(…)` called on an iterator."""
    return FunCall(
        SymRef("shift"), tuple(o if isinstance(o, OffsetLiteral) else offset(o) for o in offsets)
    )


def named_range(dim: str, start: ExprLike, stop: ExprLike) -> FunCall:
    return call("named_range")(axis(dim), start, stop)


def cartesian_domain(*ranges: FunCall) -> FunCall:
    return call("cartesian_domain")(*ranges)


def unstructured_domain(*ranges: FunCall) -> FunCall:
    return call("unstructured_domain")(*ranges)


def closure(
    output: ExprLike, stencil: ExprLike, inputs: Sequence[ExprLike], domain: ExprLike
) -> StencilClosure:
    """`output ← (stencil)(inputs…) @ domain;`"""
    return StencilClosure(expr(domain), expr(stencil), expr(output), tuple(expr(i) for i in inputs))


def fundef(name: str, *params: str | Sym) -> Callable[[ExprLike], FunctionDefinition]:
    """`fundef("f", "x")(body)` is `f = λ(x) → body;`."""
    return lambda body: FunctionDefinition(name, tuple(sym(p) for p in params), expr(body))


def fencil(
    name: str,
    params: Sequence[str | Sym],
    closures: Sequence[StencilClosure],
    function_definitions: Sequence[FunctionDefinition] = (),
) -> FencilDefinition:
    return FencilDefinition(
        name, tuple(function_definitions), tuple(sym(p) for p in params), tuple(closures)
    )
