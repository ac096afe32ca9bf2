"""The notation: `parse_type(pformat(t))` is `t` up to renaming, in both notations.

Generated types keep to what the notation can say: a value's locations are ANYWHERE and an
`ItOrVal`'s are fresh (neither is printed), and a row of values has its locations known exactly
when its dtypes are.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from typeinf.constructors import (
    ANYWHERE,
    COLUMN,
    D_EMPTY,
    DEMPTY,
    DTUPLE,
    FUN,
    ITERATOR,
    L_EMPTY,
    LENGTH,
    LIST,
    LTUPLE,
    SCALAR,
    SKIP,
    T_EMPTY,
    TEMPTY,
    TTUPLE,
    VAL,
    VALLISTTUPLE,
    VALTUPLE,
    VALUE,
    constant,
    loc,
    prim,
    row,
)
from typeinf.notation import pformat
from typeinf.reader import TypeSyntaxError, parse_type
from typeinf.terms import FAMILIES, Cell, Sort, find, make, var


@st.composite
def types(draw: st.DrawFn) -> Cell:
    pools: dict[Sort, list[Cell]] = {}

    def pooled(sort: Sort, family: frozenset[str] | None = None) -> Cell:
        pool = pools.setdefault(sort, [])
        if pool and draw(st.booleans()):
            return draw(st.sampled_from(pool))
        cell = var(sort, family)
        pool.append(cell)
        return cell

    def size() -> Cell:
        return draw(st.sampled_from([lambda: COLUMN, lambda: SCALAR, lambda: pooled(Sort.SIZE)]))()

    def location() -> Cell:
        return draw(
            st.sampled_from([lambda: ANYWHERE, lambda: loc("Vertex"), lambda: pooled(Sort.LOC)])
        )()

    def dtype(depth: int) -> Cell:
        choice = draw(st.integers(0, 4 if depth < 2 else 1))
        if choice == 0:
            return prim(draw(st.sampled_from(["bool", "int32", "float64", "uint8", "axis"])))
        if choice == 1:
            family = draw(st.sampled_from([None, None, *FAMILIES.values()]))
            return pooled(Sort.DTYPE, family) if family is None else var(Sort.DTYPE, family)
        if choice == 2:
            items = [dtype(depth + 1) for _ in range(draw(st.integers(0, 3)))]
            tail = D_EMPTY if draw(st.booleans()) or not items else pooled(Sort.DROW)
            return row(DTUPLE, items, tail)
        length = (
            constant(LENGTH, draw(st.integers(0, 9)))
            if draw(st.booleans())
            else pooled(Sort.LENGTH)
        )
        skip = constant(SKIP, draw(st.booleans())) if draw(st.booleans()) else pooled(Sort.SKIP)
        return make(LIST, dtype(depth + 1), length, skip)

    def value() -> Cell:
        kind = draw(st.integers(0, 2))
        if kind == 0:
            return make(VAL, VALUE, dtype(0), size(), ANYWHERE, ANYWHERE)
        if kind == 1:
            return make(VAL, ITERATOR, dtype(0), size(), location(), location())
        return make(VAL, pooled(Sort.KIND), dtype(0), size(), var(Sort.LOC), var(Sort.LOC))

    def value_row() -> Cell:
        kind = draw(st.sampled_from([VALUE, ITERATOR]))
        current = var(Sort.LOC) if kind is VALUE else location()
        if draw(st.booleans()):
            return make(VALTUPLE, kind, var(Sort.DROW), size(), current, var(Sort.LROW))
        count = draw(st.integers(0, 2))
        dtypes = row(DTUPLE, [dtype(1) for _ in range(count)], D_EMPTY)
        locations = row(LTUPLE, [location() for _ in range(count)], L_EMPTY)
        return make(VALTUPLE, kind, dtypes, size(), current, locations)

    def arguments(depth: int) -> Cell:
        choice = draw(st.integers(0, 3))
        items = [type_(depth + 1) for _ in range(draw(st.integers(0, 2)))]
        if choice == 0:
            return row(TTUPLE, items, T_EMPTY)
        if choice == 1:
            return row(TTUPLE, items, pooled(Sort.TROW))
        if choice == 2:
            return row(TTUPLE, items, value_row())
        length = constant(LENGTH, 3) if draw(st.booleans()) else pooled(Sort.LENGTH)
        tail = make(VALLISTTUPLE, VALUE, var(Sort.DROW), length, pooled(Sort.SKIP), size())
        return row(TTUPLE, items, tail)

    def type_(depth: int) -> Cell:
        choice = draw(st.integers(0, 3 if depth < 3 else 1))
        if choice == 0:
            return pooled(Sort.TYPE)
        if choice == 1:
            return value()
        if choice == 2:
            return make(FUN, arguments(depth), type_(depth + 1))
        return row(TTUPLE, [type_(depth + 1) for _ in range(draw(st.integers(0, 2)))], T_EMPTY)

    return type_(0)


def _row_view(cell: Cell) -> tuple[Cell, Cell] | str | None:
    """A row as (first item, rest), "empty", or None when it is not a known row. A ValTuple or
    ValListTuple whose dtypes are known is the same type as the tuple of its items."""
    if cell.ctor is TEMPTY:
        return "empty"
    if cell.ctor is TTUPLE:
        return cell.args[0], cell.args[1]
    if cell.ctor is VALTUPLE or cell.ctor is VALLISTTUPLE:
        dtypes = find(cell.args[1])
        if dtypes.ctor is DEMPTY:
            return "empty"
        if dtypes.ctor is DTUPLE:
            if cell.ctor is VALTUPLE:
                kind, _, size, current, defined = cell.args
                locations = find(defined)
                item = make(VAL, kind, dtypes.args[0], size, current, locations.args[0])
                rest = make(VALTUPLE, kind, dtypes.args[1], size, current, locations.args[1])
            else:
                kind, _, length, skip, size = cell.args
                item = make(
                    VAL,
                    kind,
                    make(LIST, dtypes.args[0], length, skip),
                    size,
                    ANYWHERE,
                    ANYWHERE,
                )
                rest = make(VALLISTTUPLE, kind, dtypes.args[1], length, skip, size)
            return item, rest
    return None


def _equivalent(a: Cell, b: Cell, locations: bool) -> bool:
    """Whether `b` is `a` with its variables renamed one to one (sorts and families kept), rows
    of values taken as the tuples they stand for, and locations ignored where they are not
    printed: everywhere without `locations`, and on values always."""
    forward: dict[int, int] = {}
    backward: dict[int, int] = {}
    stack = [(a, b)]
    while stack:
        x, y = (find(c) for c in stack.pop())
        if (not locations and Sort.LOC in (x.sort, y.sort)) or (
            Sort.LROW in (x.sort, y.sort) and not locations
        ):
            continue
        if x.ctor is None or y.ctor is None:
            if x.ctor is not None or y.ctor is not None or (x.sort, x.family) != (y.sort, y.family):
                return False
            if forward.setdefault(id(x), id(y)) != id(y) or backward.setdefault(id(y), id(x)) != id(
                x
            ):
                return False
            continue
        if x.ctor is not y.ctor:
            x_row, y_row = _row_view(x), _row_view(y)
            if x_row is None or y_row is None or (x_row == "empty") != (y_row == "empty"):
                return False
            if x_row != "empty":
                stack.extend(zip(x_row, y_row, strict=True))  # type: ignore[arg-type]  # both (item, rest): neither None nor "empty" here
            continue
        if (x.label, len(x.args)) != (y.label, len(y.args)):
            return False
        unprinted = x.ctor is VAL and find(x.args[0]) is VALUE  # a value's locations
        stack.extend(
            zip(x.args[:3], y.args[:3], strict=True)
            if unprinted
            else zip(x.args, y.args, strict=True)
        )
    return True


@given(types(), st.booleans())
def test_parse_type_reads_back_what_pformat_writes(type_: Cell, locations: bool) -> None:
    text = pformat(type_, locations=locations)
    back = parse_type(text, locations=locations)
    assert _equivalent(type_, back, locations)
    # Once read, a type prints and reads back to the letter: what the notation says is all of it.
    again = pformat(back, locations=locations)
    assert pformat(parse_type(again, locations=locations), locations=locations) == again


def test_canonical_strings_read_back_to_the_letter() -> None:
    for text in [
        "(It[T₂, T₂, T₀¹]) → T₀¹",
        "((It[T₂, …₃, T¹], …)₀ → T₄¹) → (It[T₅, …₃, T¹], …)₀ → It[T₅, T₂, T₄¹]",
        "(ItOrVal₀[(T₁, T₂):T₃⁴]) → ItOrVal₀[T₂⁴]",
        "L[T₀, 4, False]¹",
        "(bool, float64, T₀)¹",
    ]:
        assert pformat(parse_type(text), locations=True) == text


def test_an_empty_row_of_values_keeps_its_hidden_numbers() -> None:
    """The numbering walks a ValTuple's fields even when it prints as `()`: the type of
    `↑(λ() → x)` is `() → It[T₁⁰]`. Read back, `()` is a plain empty tuple and numbers afresh."""
    assert pformat(parse_type("() → It[T₁⁰]")) == "() → It[T₀¹]"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(T₀¹ →", "not a type at its end"),
        ("(T₀¹) → )", "not a type at column 9"),
        ("(T₀¹) → T₀¹ where T₀: real", "unknown family 'real'"),
        ("T₀¹ → T₂", "a function's arguments must be a tuple"),
        ("complex128⁰", "unknown dtype 'complex128'"),
        ("(T₀¹) → T₀", "variable 0 stands for a dtype and a type"),
    ],
)
def test_malformed_types(text: str, message: str) -> None:
    with pytest.raises(TypeSyntaxError, match=message.replace("(", r"\(")):
        parse_type(text)
