"""The grammar builtins whose typing rule (TYPES.md section 5) is a signature once the call's
shape is known: `make_tuple` of n elements, `tuple_get` of element i. Each shape is compiled
once, as a builtin's signature is, so that its calls are typed the way builtins' calls are."""

from __future__ import annotations

from functools import lru_cache

from typeinf.signatures import Signature, typed_by
from typeinf.terms import D_EMPTY, Sort, fun, row, val, var


def _common() -> tuple:
    """What every element of a tuple shares with the tuple: kind, size and both locations."""
    return var(Sort.KIND), var(Sort.SIZE), var(Sort.LOC), var(Sort.LOC)


@lru_cache(maxsize=64)
def make_tuple(count: int) -> Signature:
    """`(T₁ᵏ, …, Tₙᵏ) → (T₁, …, Tₙ)ᵏ`, elements and tuple alike in everything but dtype."""
    kind, size, current, defined = _common()
    dtypes = [var(Sort.DTYPE) for _ in range(count)]
    elements = [val(kind, dtype, size, current, defined) for dtype in dtypes]
    return typed_by("make_tuple", fun(elements, val(kind, row("DTuple", dtypes, D_EMPTY), size, current, defined)))


@lru_cache(maxsize=64)
def tuple_get(index: int) -> Signature:
    """`((T₀, …, Tᵢ, …)ᵏ) → Tᵢᵏ`: the tuple has at least `index` + 1 elements."""
    kind, size, current, defined = _common()
    dtypes = [var(Sort.DTYPE) for _ in range(index + 1)]
    whole = val(kind, row("DTuple", dtypes, var(Sort.DROW)), size, current, defined)
    return typed_by("tuple_get", fun([whole], val(kind, dtypes[-1], size, current, defined)))
