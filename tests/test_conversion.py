"""Converting a program's solved cells into values (`typeinf.fencil.convert`) through the lazy mapping
of `infer_all` and `check` (`NodeTypes`): node types converted in runs, in one walk each, give
the values that converting them one by one in pre-order gives (one numbering over the
program), whatever order they are read in; a cell shared by several nodes is one value; and a
type that contains itself, left out, does not disturb the others."""

from __future__ import annotations

import gc
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import iterir
import typeinf
from iterir import FunCall, Lambda, Sym, SymRef
from tests.welltyped import well_typed_programs
from typeinf.core.constructors import D_EMPTY, DTUPLE
from typeinf.core.terms import Cell, Sort, Type, find, make, var
from typeinf.fencil import notation, reader
from typeinf.fencil.constructors import ITERATOR, SCALAR, val
from typeinf.fencil.convert import Converter, Cyclic
from typeinf.fencil.infer import NodeTypes, _solved, node_types, solve
from typeinf.types import Fun, List, Tuple, Val, Var
from typeinf.types import Type as Value
from typeinf.within import subject


def _cells(program: iterir.Node) -> dict[int, Type]:
    """Every node's type in cells, as `infer_all` converts them."""
    return node_types(_solved(subject(program, False, None), None), complete=True)


def _one_by_one(types: dict[int, Type]) -> dict[int, Any]:
    """The reference: each node's type converted on its own, in pre-order, by one converter
    (one numbering); a type that contains itself left out."""
    converter, values = Converter(), {}
    for key, type_ in types.items():
        try:
            values[key] = converter.program(type_)
        except Cyclic:
            continue
    return values


@given(well_typed_programs, st.randoms(use_true_random=False))
def test_values_read_through_the_mapping_are_those_converted_one_by_one(
    generated: tuple[iterir.Node, Any], order: random.Random
) -> None:
    program, _ = generated
    types = _cells(program)
    expected = _one_by_one(types)
    mapping = NodeTypes(types)
    keys = list(mapping)
    order.shuffle(keys)
    read = {key: mapping[key] for key in keys}
    assert list(mapping) == list(expected)
    for key, value in expected.items():
        assert read[key] == value and repr(read[key]) == repr(value)
        # What the notation prints from the cells themselves, without converting them.
        assert format(value, "located") == notation.pformat(types[key], True)
    assert dict(typeinf.infer_all(program)) == read


@given(well_typed_programs)
def test_nodes_typed_by_one_cell_share_one_value(generated: tuple[iterir.Node, Any]) -> None:
    program, _ = generated
    types = _cells(program)
    mapping = NodeTypes(types)
    first: dict[int, Value] = {}
    for key, type_ in types.items():
        if type(type_) is Cell:
            value = first.setdefault(id(find(type_)), mapping[key])
            assert mapping[key] is value


def test_a_node_s_value_is_the_part_of_its_parent_s() -> None:
    program = iterir.parse("λ(x) → ·x")
    types = typeinf.infer_all(program)
    root = types[id(program)]
    assert isinstance(root, Fun)
    assert types[id(program.expr)] is root.result  # type: ignore[attr-defined]
    assert types[id(program.expr.args[0])] is root.params[0]  # type: ignore[attr-defined]


def test_a_type_that_contains_itself_leaves_the_others_as_one_by_one() -> None:
    """`check` converts every node after errors; the run of node types with `f(f)` in it is
    converted again one by one, and only the types that contain themselves are left out."""
    program = iterir.parse("λ(x, f) → {·x + 1.0, (λ(g) → g(g))(f), ·x}")
    checked = typeinf.check(program)
    assert [type(e).__name__ for e in checked.errors] == ["InfiniteTypeError"]
    expected = _one_by_one(solve(subject(program, False, None)).types)
    assert dict(checked.types) == expected
    assert [repr(v) for v in checked.types.values()] == [repr(v) for v in expected.values()]
    assert len(expected) < len(solve(subject(program, False, None)).types)  # some were left out
    assert "(float64, T₀, float64)¹" in [str(v) for v in expected.values()]


def test_read_values_hold_no_cell() -> None:
    """Once every value is read, the mapping lets the inference's cells go."""
    program = iterir.parse("λ(x, y) → ·x + ·(shift(Iₒ, 1ₒ)(y))")
    types = typeinf.infer_all(program)
    assert all(isinstance(value, Value) for value in types.values())
    seen, stack = set(), [types]
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, type):
            continue
        seen.add(id(item))
        assert not isinstance(item, Cell)
        stack.extend(gc.get_referents(item))


def test_a_node_object_in_two_places_has_its_first_occurrence_s_type() -> None:
    """The listing of node types is one pass unless a node object stands in several places."""
    x = SymRef("x")
    first = FunCall(Lambda((Sym("x"),), x), (SymRef("a"),))
    second = FunCall(Lambda((Sym("x"),), x), (FunCall(SymRef("deref"), (SymRef("b"),)),))
    program = Lambda((Sym("a"), Sym("b")), FunCall(SymRef("make_tuple"), (first, second)))
    types = typeinf.infer_all(program)
    assert types[id(x)] is types[id(first.args[0])]
    assert types[id(x)] != types[id(second.args[0])]
    assert next(iter(types)) == id(program) and len(types) == len(set(types))


def test_a_value_type_whose_dtype_is_a_structure_numbers_as_the_notation() -> None:
    """A value type is made at once only when its parts are leaves; one whose dtype is a tuple
    or a list takes a frame, and its variables keep the notation's order all the same."""
    text = "(It[T₀, T₁, (T₂, L[T₃, T₄, T₅])⁶], T₃⁶) → (T₂, L[T₃, T₄, T₅])ᶜ"
    cells = reader.parse_type(text, locations=True)
    assert isinstance(cells, Cell)
    value = Converter().value(cells)
    assert format(value, "located") == notation.pformat(cells, True)
    assert isinstance(value, Fun) and isinstance(value.params[0], Val)
    first = value.params[0]  # numbered in the order of the fields
    assert first.dtype == Tuple(
        (Var("dtype", 0), List(Var("dtype", 1), Var("list length", 2), Var("skip flag", 3)))
    )
    assert (first.size, first.current_loc) == (Var("size", 4), Var("location", 5))


def test_a_value_type_that_contains_itself_is_cyclic() -> None:
    """A value type whose part is the structure being converted (only a failed inference, or
    a constructor registered with a type argument in a dtype, makes one) is `Cyclic`, not a
    value with a placeholder inside."""
    row = make(DTUPLE, var(Sort.DTYPE), D_EMPTY)
    value = val(ITERATOR, row, SCALAR)
    row.args = (value, D_EMPTY)  # the tuple's item is the value type whose dtype it is
    with pytest.raises(Cyclic):
        Converter().values([row])
