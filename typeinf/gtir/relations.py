"""GTIR's relations on dimension sets (`typeinf.core.relations`), which unification cannot say:

- `Union(a, b, out)`: `out` is the union of the sets `a` and `b`, in canonical order
  (GT4Py's `promote_dims`), printed `D₂ = D₀ ∪ D₁`;
- `Subset(sub, sup)`: every dimension of `sub` is in `sup` (what `deref` needs of an iterator:
  its defined dimensions within its positions), printed `D₁ ⊆ D₀`.

Each fires when its inputs are known and waits otherwise; a union settles early when one side
is known to be empty (the other is the result) or both are one set, a subset when `sub` is
empty or both are one set. One that cannot hold raises `CannotHold` saying why (the union of
two sets with two local dimensions; a dimension missing from the superset).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from iterir.gtir_types import Dimension
from typeinf.core.relations import CannotHold, Equate, Relation, known
from typeinf.core.terms import Cell, find
from typeinf.gtir.notation import dimension_text, dims_text
from typeinf.gtir.terms import DIMS, DimensionSetError, canonical, dims


def members(known_set: Cell) -> tuple[Dimension, ...]:
    """The dimensions of a ground set (a `DIMS` constant), in canonical order."""
    return cast("tuple[Dimension, ...]", known_set.label)


def set_difference(expected: Cell, actual: Cell) -> str | None:
    """In words, how the first ground dimension sets that differ between `expected` and
    `actual` (walked side by side, as far as their structures agree) differ: which dimensions
    `actual` has that `expected` lacks ("extra") and which it lacks ("missing"); None where no
    two known sets differ."""
    pending, seen = [(expected, actual)], set()
    # What each variable of either side stands for across from it: a variable met twice ties
    # the two things across from it (`(T₀, T₀) → T₀` against two fields compares the fields).
    across: dict[int, Cell] = {}
    while pending:
        left, right = (find(c) for c in pending.pop())
        if (id(left), id(right)) in seen:
            continue
        seen.add((id(left), id(right)))
        variable, other = (left, right) if left.ctor is None else (right, left)
        if variable.ctor is None:
            if id(variable) in across:
                pending.append((across[id(variable)], other))
            else:
                across[id(variable)] = other
            continue
        if left.ctor is not right.ctor:
            continue
        if left.ctor is DIMS:
            if left.label != right.label:
                return _difference_words(members(left), members(right))
            continue
        pending.extend(reversed(list(zip(left.args, right.args, strict=False))))
    return None


def _difference_words(expected: tuple[Dimension, ...], actual: tuple[Dimension, ...]) -> str:
    extra = [dimension_text(d) for d in actual if d not in expected]
    missing = [dimension_text(d) for d in expected if d not in actual]
    words = [
        f"{', '.join(names)} {'is' if len(names) == 1 else 'are'} {what}"
        for names, what in ((extra, "extra"), (missing, "missing"))
        if names
    ]
    return " and ".join(words) if words else "the same dimensions in another order"


class Union(Relation):
    """`out = a ∪ b` over dimension sets."""

    __slots__ = ()

    def fire(self, equate: Equate) -> bool:
        a, b, out = self.cells
        left, right = known(a), known(b)
        if find(a) is find(b):
            equate(out, a)
            return True
        if left is not None and not members(left):
            equate(out, b)
            return True
        if right is not None and not members(right):
            equate(out, a)
            return True
        if left is None or right is None:
            return False
        try:
            union = canonical((*members(left), *members(right)))
        except DimensionSetError as error:
            raise CannotHold(str(error)) from None
        equate(out, dims(union))
        return True

    def show(self, name: Callable[[Cell], str]) -> str:
        a, b, out = self.cells
        return f"{name(out)} = {name(a)} ∪ {name(b)}"


class Subset(Relation):
    """`sub ⊆ sup` over dimension sets."""

    __slots__ = ()

    def fire(self, equate: Equate) -> bool:
        sub, sup = self.cells
        inner, outer = known(sub), known(sup)
        if find(sub) is find(sup) or (inner is not None and not members(inner)):
            return True
        if inner is None or outer is None:
            return False
        missing = tuple(d for d in members(inner) if d not in members(outer))
        if missing:
            raise CannotHold(f"{dims_text(missing)} not in {dims_text(members(outer))}")
        return True

    def show(self, name: Callable[[Cell], str]) -> str:
        sub, sup = self.cells
        return f"{name(sub)} ⊆ {name(sup)}"
