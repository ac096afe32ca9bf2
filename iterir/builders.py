"""Concise IR construction for tests and passes: `lam("x")(deref("x"))`, `call("plus")(a, b)`,
and GTIR: `program("p", [sym("a", type=field(["IDim"], "float64"))], [set_at("out", domain,
call(as_fieldop(lam("x")(deref("x"))))("a"))])`.

Wherever an expression is expected, a `str` stands for a SymRef, an `int` for an int32 literal, a
`float` for a float64 literal and a `bool` for a bool literal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeAlias

from iterir import gtir_types as gt
from iterir.nodes import (
    AxisLiteral,
    CartesianOffset,
    Expr,
    FencilDefinition,
    FunCall,
    FunctionDefinition,
    IfStmt,
    InfinityLiteral,
    Lambda,
    Literal,
    OffsetLiteral,
    Program,
    SetAt,
    StencilClosure,
    Stmt,
    Sym,
    SymRef,
    Temporary,
)

ExprLike: TypeAlias = Expr | str | int | float | bool


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
    """A literal with its text and primitive type: `literal("1.0", "float32")` (a type that is
    not primitive is a ValueError, as for every node)."""
    return Literal(value, dtype)


def sym(
    name: str | Sym,
    kind: str | None = None,
    dtype: tuple[str, bool] | None = None,
    *,
    type: gt.GType | None = None,
) -> Sym:
    """A parameter, optionally annotated: `sym("x", "Iterator", ("float64", False))` (fencil
    IR), `sym("x", type=field(["IDim"], "float64"))` (GTIR)."""
    return name if isinstance(name, Sym) else Sym(name, kind, dtype, type)


def lam(*params: str | Sym) -> Callable[[ExprLike], Lambda]:
    """`lam("x", "y")(body)` is `λ(x, y) → body`."""
    return lambda body: Lambda(tuple(sym(p) for p in params), expr(body))


def call(fun: ExprLike) -> Callable[..., FunCall]:
    """`call("plus")(a, b)` is `plus(a, b)`."""
    return lambda *args: FunCall(expr(fun), tuple(expr(a) for a in args))


def offset(value: int | str) -> OffsetLiteral:
    return OffsetLiteral(value)


def axis(name: str, kind: str | None = None) -> AxisLiteral:
    """A dimension: the fencil IR's (no kind), or GTIR's ("horizontal", "vertical", "local")."""
    return AxisLiteral(name, kind)


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


def named_range(dim: str, start: ExprLike, stop: ExprLike, kind: str | None = None) -> FunCall:
    return call("named_range")(axis(dim, kind), start, stop)


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


# -- GTIR ------------------------------------------------------------------------------------------
def scalar(kind: str) -> gt.ScalarType:
    """`scalar("float64")`."""
    return gt.ScalarType(kind)


def dim(name: str, kind: str = "horizontal") -> gt.Dimension:
    return gt.Dimension(name, kind)


def field(dims: Sequence[str | gt.Dimension], dtype: str | gt.GType) -> gt.FieldType:
    """`field(["IDim", dim("KDim", "vertical")], "float64")`: a bare name is horizontal."""
    return gt.FieldType(
        tuple(d if isinstance(d, gt.Dimension) else dim(d) for d in dims),
        scalar(dtype) if isinstance(dtype, str) else dtype,
    )


def ref(name: str, type: gt.GType | None = None) -> SymRef:
    """A reference, with GTIR's type where it is free in a standalone expression."""
    return SymRef(name, type)


def infinity(positive: bool = True) -> InfinityLiteral:
    return InfinityLiteral("POSITIVE" if positive else "NEGATIVE")


def cartesian_offset(domain: AxisLiteral, codomain: AxisLiteral | None = None) -> CartesianOffset:
    """`IDimₕ→IDimₕ` (the codomain defaults to the domain)."""
    return CartesianOffset(domain, codomain or domain)


def as_fieldop(stencil: ExprLike, domain: ExprLike | None = None) -> FunCall:
    """`as_fieldop(stencil, domain)`, or `⇑stencil` without a domain: `call(as_fieldop(s))(a)`."""
    return call("as_fieldop")(stencil) if domain is None else call("as_fieldop")(stencil, domain)


def set_at(target: ExprLike, domain: ExprLike, value: ExprLike) -> SetAt:
    """`target @ domain ← value;`"""
    return SetAt(expr(value), expr(domain), expr(target))


def if_stmt(
    cond: ExprLike, true_branch: Sequence[Stmt], false_branch: Sequence[Stmt] = ()
) -> IfStmt:
    return IfStmt(expr(cond), tuple(true_branch), tuple(false_branch))


def temporary(
    name: str, domain: ExprLike | None = None, dtype: str | gt.GType | None = None
) -> Temporary:
    """`name = temporary(domain=…, dtype=…);`; a dtype name stands for its scalar type."""
    return Temporary(
        name,
        None if domain is None else expr(domain),
        scalar(dtype) if isinstance(dtype, str) else dtype,
    )


def program(
    name: str,
    params: Sequence[str | Sym],
    body: Sequence[Stmt],
    function_definitions: Sequence[FunctionDefinition] = (),
    declarations: Sequence[Temporary] = (),
) -> Program:
    return Program(
        name,
        tuple(function_definitions),
        tuple(sym(p) for p in params),
        tuple(declarations),
        tuple(body),
    )
