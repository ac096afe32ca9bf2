"""Typing rules that are a signature once the shape of their use is known: the grammar builtins
`make_tuple` of n elements and `tuple_get` of element i (docs/rules.md), a stencil
closure of n inputs (docs/rules.md), and a builtin that takes a function of any arity (`lift`,
`scan`, …) given one of n parameters. Each shape is compiled once, as a builtin's signature is,
so that its uses are typed the way builtins' calls are."""

from __future__ import annotations

from functools import lru_cache

from typeinf.core.constructors import D_EMPTY, DTUPLE, T_EMPTY, TTUPLE, fixed_params, fun, prim, row
from typeinf.core.schemes import copy_graph
from typeinf.core.terms import Cell, Mismatch, Sort, find, var
from typeinf.core.unify import unify
from typeinf.fencil.constructors import ANYWHERE, COLUMN, ITERATOR, SCALAR, VALUE, val
from typeinf.fencil.signatures import Signature, typed_by

#: `tuple_get(i, x)` makes a type for each element up to i, so an index must be bounded: a
#: tuple of millions of elements would take all memory, and no stencil has one.
MOST_TUPLE_ELEMENTS = 10_000


def _common() -> tuple[Cell, Cell, Cell, Cell]:
    """What every element of a tuple shares with the tuple: kind, size and both locations."""
    return var(Sort.KIND), var(Sort.SIZE), var(Sort.LOC), var(Sort.LOC)


@lru_cache(maxsize=64)
def make_tuple(count: int) -> Signature:
    """`(T₁ᵏ, …, Tₙᵏ) → (T₁, …, Tₙ)ᵏ`, elements and tuple alike in everything but dtype."""
    kind, size, current, defined = _common()
    dtypes = [var(Sort.DTYPE) for _ in range(count)]
    elements = [val(kind, dtype, size, current, defined) for dtype in dtypes]
    return typed_by(
        "`make_tuple`",
        fun(elements, val(kind, row(DTUPLE, dtypes, D_EMPTY), size, current, defined)),
    )


@lru_cache(maxsize=64)
def tuple_get(index: int) -> Signature:
    """`((T₀, …, Tᵢ, …)ᵏ) → Tᵢᵏ`: the tuple has at least `index` + 1 elements."""
    kind, size, current, defined = _common()
    dtypes = [var(Sort.DTYPE) for _ in range(index + 1)]
    whole = val(kind, row(DTUPLE, dtypes, var(Sort.DROW)), size, current, defined)
    return typed_by("`tuple_get`", fun([whole], val(kind, dtypes[-1], size, current, defined)))


@lru_cache(maxsize=64)
def closure(inputs: int) -> Signature:
    """`(domain, output, input₁, …, inputₙ, stencil) → T`: the output is written through a
    column iterator; the stencil takes each input, seen from the output's location, and gives a
    column of the output's dtype. (Its result, a fresh variable, says nothing.)"""
    output_dtype, output_location = var(Sort.DTYPE), var(Sort.LOC)
    arguments = [
        val(VALUE, prim("domain"), SCALAR),
        val(ITERATOR, output_dtype, COLUMN, ANYWHERE, output_location),
    ]
    params = []
    for _ in range(inputs):
        kind, dtype, size, defined = var(Sort.KIND), var(Sort.DTYPE), var(Sort.SIZE), var(Sort.LOC)
        arguments.append(val(kind, dtype, size, ANYWHERE, defined))
        params.append(val(kind, dtype, size, output_location, defined))
    arguments.append(fun(params, val(VALUE, output_dtype, COLUMN)))
    return typed_by("a closure", fun(arguments, var(Sort.TYPE)))


@lru_cache(maxsize=256)
def for_arity(signature: Signature, count: int) -> Signature:
    """`signature`, whose first parameter is a function of any arity (`Signature.takes_any_arity`),
    for a first argument of `count` parameters: that function's row of values made `count`
    items long, so that a call reads the argument's parameters instead of expanding the row
    item by item. The rows this shares its dtypes with (the lifted stencil's) get a known
    length, but stay rows: printed types number their variables as before. `signature` itself
    if no function of `count` parameters fits. It keeps a call of `lift` & co. from expanding
    a row item by item (docs/performance.md, "Fencil inference throughput")."""
    instantiate = signature.instantiate
    assert instantiate is not None  # it takes any arity: it is typed by a signature
    type_ = instantiate()
    params = fixed_params(type_)
    assert params  # it takes any arity: its first parameter is such a function
    first = find(params[0])
    try:
        if unify(first.args[0], row(TTUPLE, [var(Sort.TYPE) for _ in range(count)], T_EMPTY)):
            return signature  # a row of values against a row of lists, both of unknown length
    except Mismatch:
        return signature  # the call is an error: the general way reports it
    # Cached for every inference, so a copy made of roots alone, which `find` never writes
    # (see "Marks" in `terms`): unifying left links in `type_`.
    return typed_by(signature.name, copy_graph(type_, {}))
