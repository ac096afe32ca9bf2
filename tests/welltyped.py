"""Well-typed programs built from their types: pick a target type, then an expression of that
type from builtins, lambdas, calls, tuples, lifts, shifts, scans, reductions, function
definitions and fencils. Each program comes with a type it is known to have, which the inferred
(most general) type must have as an instance.

Types are described by small tuples while generating, and turned into type cells at the end:
    ("val", dtype, size) / ("it", dtype, size)      dtype: a primitive name or a tuple of them
    ("fun", (param, …), result)                     size: "s" (scalar) or "c" (column)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from iterir import FencilDefinition, FunCall, FunctionDefinition, Lambda, Literal, Node, Sym, SymRef
from iterir.builders import call, cartesian_domain, closure, named_range, shift
from typeinf.core.constructors import D_EMPTY, DTUPLE, fun, prim, row
from typeinf.core.terms import Cell, DefinitionType, FencilType
from typeinf.fencil.constructors import COLUMN, ITERATOR, SCALAR, VALUE, val

Desc = tuple[Any, ...]
Env = tuple[tuple[str, Desc], ...]  # the names in scope and their types, innermost last

NUMERIC = ("int32", "int64", "float32", "float64")
FLOATS = ("float32", "float64")
PRIMITIVES = (*NUMERIC, "bool")
LITERAL_TEXT = {"int32": "3", "int64": "7", "float32": "0.5", "float64": "2.25", "bool": "True"}
MAX_DEPTH = 4


def to_cell(desc: Desc) -> Cell:
    """The type cell of a description: ground, with both locations ANYWHERE."""
    if desc[0] == "fun":
        return fun([to_cell(p) for p in desc[1]], to_cell(desc[2]))
    kind = VALUE if desc[0] == "val" else ITERATOR
    return val(kind, _dtype(desc[1]), SCALAR if desc[2] == "s" else COLUMN)


def _dtype(dtype: str | tuple) -> Cell:
    if isinstance(dtype, tuple):
        return row(DTUPLE, [_dtype(d) for d in dtype], D_EMPTY)
    return prim(dtype)


@dataclass
class Namer:
    """Fresh parameter names, distinct across the whole program (so renaming is a bijection)."""

    count: int = 0

    def __call__(self) -> str:
        self.count += 1
        return f"p{self.count}"


dtypes = st.one_of(
    st.sampled_from(PRIMITIVES), st.tuples(st.sampled_from(PRIMITIVES), st.sampled_from(PRIMITIVES))
)


def _descs(size: str, depth: int = 0) -> st.SearchStrategy[Desc]:
    """A type for a lambda parameter or definition: values, iterators, and small functions."""
    plain = st.one_of(
        st.tuples(st.just("val"), dtypes, st.just(size)),
        st.tuples(st.just("it"), dtypes, st.just(size)),
    )
    if depth >= 1:
        return plain
    function = st.tuples(st.just("fun"), st.lists(plain, min_size=1, max_size=2).map(tuple), plain)
    return st.one_of(plain, plain, function)


@st.composite
def expression(draw: st.DrawFn, target: Desc, env: Env, namer: Namer, depth: int = 0) -> Node:
    """An expression of type `target` in the scope `env`."""
    options = _options(target, env, depth)
    if depth >= MAX_DEPTH:
        return _leaf(draw, target, env, namer, depth)
    name = draw(
        st.sampled_from(sorted(options, key=lambda n: (n != "leaf", n)))
    )  # shrinks to a leaf
    return options[name](draw, target, env, namer, depth)


def _sub(draw: st.DrawFn, target: Desc, env: Env, namer: Namer, depth: int) -> Node:
    return draw(expression(target, env, namer, depth + 1))


def _leaf(draw: st.DrawFn, target: Desc, env: Env, namer: Namer, depth: int) -> Node:
    """The shortest expression of `target`: a name in scope, a literal, or a lambda."""
    names = [n for n, d in env if d == target]
    if names:
        return SymRef(draw(st.sampled_from(names)))
    kind = target[0]
    if kind == "fun":
        params = [(namer(), p) for p in target[1]]
        body = _leaf(draw, target[2], env + tuple(params), namer, depth + 1)
        return Lambda(tuple(Sym(n) for n, _ in params), body)
    dtype = target[1]
    if kind == "val":
        if isinstance(dtype, tuple):
            return call("make_tuple")(
                *(_leaf(draw, ("val", d, target[2]), env, namer, depth + 1) for d in dtype)
            )
        return Literal(LITERAL_TEXT[dtype], dtype)
    # An iterator: lift a stencil that returns a value of the dtype.
    return call(
        call("lift")(Lambda((), _leaf(draw, ("val", dtype, target[2]), env, namer, depth + 1)))
    )()


Option = Callable[[st.DrawFn, Desc, Env, Namer, int], Node]


def _options(target: Desc, env: Env, depth: int) -> dict[str, Option]:
    """Every way to build an expression of `target` (by name, for hypothesis to choose from)."""
    options: dict[str, Option] = {"leaf": _leaf, "apply_lambda": _apply_lambda}
    if any(d[0] == "fun" and d[2] == target for _, d in env):
        options["call_parameter"] = _call_parameter
    kind = target[0]
    if kind == "fun":
        options["lambda"] = _lambda
        return options
    dtype, size = target[1], target[2]
    if kind == "it":
        options["shift"] = lambda draw, t, e, n, d: call(shift("I", draw(st.integers(-2, 2))))(
            _sub(draw, t, e, n, d)
        )
        options["lift"] = _lift
        return options
    options["deref"] = lambda draw, t, e, n, d: call("deref")(_sub(draw, ("it", *t[1:]), e, n, d))
    options["if_"] = lambda draw, t, e, n, d: call("if_")(
        _sub(draw, ("val", "bool", t[2]), e, n, d), _sub(draw, t, e, n, d), _sub(draw, t, e, n, d)
    )
    options["tuple_get"] = _tuple_get
    options["reduce"] = _reduce
    options["list_get"] = _list_get
    if size == "c":
        options["scan"] = _scan
    if isinstance(dtype, tuple):
        options["make_tuple"] = lambda draw, t, e, n, d: call("make_tuple")(
            *(_sub(draw, ("val", x, t[2]), e, n, d) for x in t[1])
        )
        return options
    options["cast_"] = lambda draw, t, e, n, d: call("cast_")(
        _sub(draw, ("val", draw(st.sampled_from(PRIMITIVES)), t[2]), e, n, d), SymRef(t[1])
    )
    if dtype in NUMERIC:
        options["arithmetic"] = lambda draw, t, e, n, d: call(
            draw(st.sampled_from(["plus", "minus", "multiplies", "maximum"]))
        )(_sub(draw, t, e, n, d), _sub(draw, t, e, n, d))
    if dtype in FLOATS:
        options["sqrt"] = lambda draw, t, e, n, d: call(
            draw(st.sampled_from(["sqrt", "exp", "abs"]))
        )(_sub(draw, t, e, n, d))
    if dtype == "bool":
        options["compare"] = _compare
        options["not_"] = lambda draw, t, e, n, d: call("not_")(_sub(draw, t, e, n, d))
    return options


def _lambda(draw: st.DrawFn, target: Desc, env: Env, namer: Namer, depth: int) -> Node:
    params = [(namer(), p) for p in target[1]]
    return Lambda(
        tuple(Sym(n) for n, _ in params), _sub(draw, target[2], env + tuple(params), namer, depth)
    )


def _apply_lambda(draw: st.DrawFn, target: Desc, env: Env, namer: Namer, depth: int) -> Node:
    """`(λ(p) → body)(arg)`, with a parameter of some other type."""
    param_type = draw(_descs(target[2] if target[0] != "fun" else "s"))
    name = namer()
    body = _sub(draw, target, (*env, (name, param_type)), namer, depth)
    return call(Lambda((Sym(name),), body))(_sub(draw, param_type, env, namer, depth))


def _call_parameter(draw: st.DrawFn, target: Desc, env: Env, namer: Namer, depth: int) -> Node:
    name, desc = draw(st.sampled_from([(n, d) for n, d in env if d[0] == "fun" and d[2] == target]))
    return call(name)(*(_sub(draw, p, env, namer, depth) for p in desc[1]))


def _lift(draw: st.DrawFn, target: Desc, env: Env, namer: Namer, depth: int) -> Node:
    """`lift(λ(a, …) → value)(iterators…)`: all of one size, as `lift` requires."""
    inputs = draw(st.lists(st.tuples(st.just("it"), dtypes, st.just(target[2])), max_size=2))
    params = [(namer(), p) for p in inputs]
    stencil = Lambda(
        tuple(Sym(n) for n, _ in params),
        _sub(draw, ("val", *target[1:]), env + tuple(params), namer, depth),
    )
    return call(call("lift")(stencil))(*(_sub(draw, p, env, namer, depth) for p in inputs))


def _tuple_get(draw: st.DrawFn, target: Desc, env: Env, namer: Namer, depth: int) -> Node:
    other = draw(st.sampled_from(PRIMITIVES))
    index = draw(st.integers(0, 1))
    items = (target[1], other) if index == 0 else (other, target[1])
    return call("tuple_get")(
        Literal(str(index), "int32"), _sub(draw, ("val", items, target[2]), env, namer, depth)
    )


def _compare(draw: st.DrawFn, target: Desc, env: Env, namer: Namer, depth: int) -> Node:
    operand = ("val", draw(st.sampled_from(NUMERIC)), target[2])
    return call(draw(st.sampled_from(["less", "greater_equal", "eq"])))(
        _sub(draw, operand, env, namer, depth), _sub(draw, operand, env, namer, depth)
    )


def _const_list(draw: st.DrawFn, item: Desc, env: Env, namer: Namer, depth: int) -> Node:
    return call("make_const_list")(_sub(draw, item, env, namer, depth))


def _reduce(draw: st.DrawFn, target: Desc, env: Env, namer: Namer, depth: int) -> Node:
    """`reduce(λ(acc, x) → …, init)(make_const_list(…))`."""
    item = ("val", draw(st.sampled_from(PRIMITIVES)), target[2])
    acc, x = namer(), namer()
    step = Lambda(
        (Sym(acc), Sym(x)), _sub(draw, target, (*env, (acc, target), (x, item)), namer, depth)
    )
    return call(call("reduce")(step, _sub(draw, target, env, namer, depth)))(
        _const_list(draw, item, env, namer, depth)
    )


def _list_get(draw: st.DrawFn, target: Desc, env: Env, namer: Namer, depth: int) -> Node:
    """`list_get(0, map_(λ(x) → …)(make_const_list(…)))`."""
    item = ("val", draw(st.sampled_from(PRIMITIVES)), target[2])
    x = namer()
    mapped = call(
        call("map_")(Lambda((Sym(x),), _sub(draw, target, (*env, (x, item)), namer, depth)))
    )(_const_list(draw, item, env, namer, depth))
    return call("list_get")(Literal("0", "int32"), mapped)


def _scan(draw: st.DrawFn, target: Desc, env: Env, namer: Namer, depth: int) -> Node:
    """`scan(λ(acc, it) → …, forward, init)(column iterator)`: a column from scalar steps."""
    scalar = ("val", target[1], "s")
    column_input = ("it", draw(st.sampled_from(PRIMITIVES)), "c")
    acc, it = namer(), namer()
    step_env = (*env, (acc, scalar), (it, ("it", column_input[1], "s")))
    step = Lambda((Sym(acc), Sym(it)), _sub(draw, scalar, step_env, namer, depth))
    forward = Literal(draw(st.sampled_from(["True", "False"])), "bool")
    return call(call("scan")(step, forward, _sub(draw, scalar, env, namer, depth)))(
        _sub(draw, column_input, env, namer, depth)
    )


@st.composite
def well_typed_expressions(draw: st.DrawFn) -> tuple[Node, Cell]:
    """An expression (often a lambda) and a type it has."""
    size = draw(st.sampled_from(["s", "c"]))
    target = draw(_descs(size))
    return draw(expression(target, (), Namer())), to_cell(target)


@st.composite
def well_typed_fencils(draw: st.DrawFn) -> tuple[FencilDefinition, FencilType]:
    """A fencil of stencil definitions (each may call the ones before it) applied by closures."""
    namer = Namer()
    definitions: list[FunctionDefinition] = []
    known: list[tuple[str, Desc]] = []
    for k in range(draw(st.integers(1, 3))):
        inputs = tuple(
            draw(
                st.lists(
                    st.tuples(st.just("it"), st.sampled_from(PRIMITIVES), st.just("c")),
                    min_size=1,
                    max_size=2,
                )
            )
        )
        desc = ("fun", inputs, ("val", draw(st.sampled_from(PRIMITIVES)), "c"))
        params = [(namer(), p) for p in inputs]
        body = draw(expression(desc[2], tuple(known) + tuple(params), namer))
        definitions.append(
            FunctionDefinition(f"stencil{k}", tuple(Sym(n) for n, _ in params), body)
        )
        known.append((f"stencil{k}", desc))
    fencil_params: list[tuple[str, Desc]] = [("n", ("val", "int32", "s"))]
    closures = []
    domain = cartesian_domain(named_range("IDim", 0, "n"))
    for i, (name, desc) in enumerate(known):
        inputs = [(f"in{i}_{j}", p) for j, p in enumerate(desc[1])]
        output = (f"out{i}", ("it", desc[2][1], "c"))
        fencil_params += [*inputs, output]
        closures.append(closure(output[0], name, [n for n, _ in inputs], domain))
    node = FencilDefinition(
        "generated", tuple(definitions), tuple(Sym(n) for n, _ in fencil_params), tuple(closures)
    )
    type_ = FencilType(
        "generated",
        tuple(DefinitionType(n, to_cell(d)) for n, d in known),
        tuple(to_cell(d) for _, d in fencil_params),
    )
    return node, type_


well_typed_programs = st.one_of(well_typed_expressions(), well_typed_fencils())


def is_call_of(node: Node, name: str) -> bool:
    return isinstance(node, FunCall) and isinstance(node.fun, SymRef) and node.fun.id == name
