"""GTIR's relations on dimension sets (`typeinf.gtir.relations`) at the term level: each fires
when its inputs are known, waits otherwise, cannot hold with a reason, and prints in a `where`
clause in GTIR's notation."""

from __future__ import annotations

import pytest

import iterir
from iterir.gtir_types import Dimension
from typeinf.core.constraints import GtirRule
from typeinf.core.constructors import row_items
from typeinf.core.errors import UnsatisfiableConstraintError
from typeinf.core.relations import CannotHold
from typeinf.core.schemes import Scheme
from typeinf.core.solve import Solver
from typeinf.core.terms import Cell, DefinitionType, Sort, find, var
from typeinf.core.unify import unify
from typeinf.fencil.collect import FencilSolver
from typeinf.fencil.runs import ExplainingRun, FastRun
from typeinf.gtir.notation import pformat_gtir
from typeinf.gtir.reader import parse_gtir_type
from typeinf.gtir.relations import Subset, Union
from typeinf.gtir.terms import DIMS, FIELD, dims, field, scalar, tuple_of

#: The reason the tests give their constraints and relations.
A_TEST = GtirRule("a test")

KDIM, VERTEX = Dimension("KDim", "vertical"), Dimension("Vertex")


def equate(cell: Cell, value: Cell) -> None:
    assert not unify(cell, value)


def sets(text: str) -> list[Cell]:
    """The dimension sets of the fields of a tuple type, in order (`tuple[Field[D₀, T], …]`)."""
    items = []
    cell = find(parse_gtir_type(text))
    while cell.args:
        field = find(cell.args[0])
        assert field.ctor is FIELD
        items.append(field.args[0])
        cell = find(cell.args[1])
    return items


def shown(cells: list[Cell]) -> str:
    """The sets as fields' dimensions, printed."""
    return pformat_gtir(tuple_of([field(c, scalar("int32")) for c in cells]))


def test_a_union_fires_when_both_sets_are_known() -> None:
    a, b = sets("tuple[Field[[Vertex, KDimᵥ], int32], Field[[IDim, V2Eₗ], int32]]")
    out = var(Sort.DIMS)
    assert Union(a, b, out).fire(equate)
    assert find(out).ctor is DIMS
    assert shown([out]) == "tuple[Field[[IDim, Vertex, V2Eₗ, KDimᵥ], int32]]"


def test_a_union_waits_for_its_inputs_and_settles_early_on_an_empty_side() -> None:
    a, out = var(Sort.DIMS), var(Sort.DIMS)
    (b,) = sets("tuple[Field[[IDim], int32]]")
    assert not Union(a, b, out).fire(equate)
    assert find(out).ctor is None  # nothing bound while it waits
    (empty,) = sets("tuple[Field[[], int32]]")
    assert Union(empty, a, out).fire(equate)
    assert find(out) is find(a)
    same = var(Sort.DIMS)
    assert Union(same, same, out).fire(equate) and find(same) is find(a)


def test_a_union_of_two_local_dimensions_cannot_hold() -> None:
    a, b = sets("tuple[Field[[V2Eₗ], int32], Field[[E2Vₗ], int32]]")
    with pytest.raises(CannotHold, match="one local dimension at most, not E2V and V2E"):
        Union(a, b, var(Sort.DIMS)).fire(equate)


def test_a_subset_holds_waits_or_cannot_hold() -> None:
    sub, sup, other = sets(
        "tuple[Field[[Edge], int32], Field[[Edge, KDimᵥ], int32], Field[[Vertex, KDimᵥ], int32]]"
    )
    assert Subset(sub, sup).fire(equate)
    unknown = var(Sort.DIMS)
    assert not Subset(sub, unknown).fire(equate)
    assert Subset(unknown, unknown).fire(equate)
    (empty,) = sets("tuple[Field[[], int32]]")
    assert Subset(empty, unknown).fire(equate)
    with pytest.raises(CannotHold, match=r"\[Edge\] not in \[Vertex, KDimᵥ\]"):
        Subset(sub, other).fire(equate)


def test_open_relations_print_in_a_where_clause() -> None:
    type_ = parse_gtir_type(
        "(Field[D₀, T₁], Field[D₂, T₁], It[D₃, D₄, T₁]) → Field[D₅, T₁] where T₁: float"
    )
    params, result = find(type_).args
    first, second, iterator = (find(cell) for cell in row_items(params)[0])
    d0, d2, (d3, d4, _), d5 = first.args[0], second.args[0], iterator.args, find(result).args[0]
    definition = DefinitionType("f", type_, (Union(d0, d2, d5), Subset(d4, d3)))
    assert pformat_gtir(definition) == (
        "f :: (Field[D₀, T₁], Field[D₂, T₁], It[D₃, D₄, T₁]) → Field[D₅, T₁]"
        " where T₁: float, D₅ = D₀ ∪ D₂, D₄ ⊆ D₃"
    )


@pytest.fixture(params=[FastRun, ExplainingRun], ids=["fast", "explaining"])
def solver(request: pytest.FixtureRequest) -> Solver:
    """A solver of a one-node program, driven by each run in turn."""
    solver = FencilSolver([iterir.parse("x")], [None], explain=request.param is ExplainingRun)
    request.param(solver)
    return solver


def equal(solver: Solver, cell: Cell, value: Cell) -> None:
    solver.equal(cell, value, 0, A_TEST)


def test_the_solver_queues_a_union_until_settle_fires_it(solver: Solver) -> None:
    a, b, out = var(Sort.DIMS), var(Sort.DIMS), var(Sort.DIMS)
    solver.relate(Union(a, b, out), 0, A_TEST)
    solver.relate(Subset(out, var(Sort.DIMS)), 0, A_TEST)
    assert len(solver.open) == 2  # both wait
    equal(solver, a, dims([KDIM]))
    equal(solver, b, dims([VERTEX]))
    solver.settle()
    assert shown([out]) == "tuple[Field[[Vertex, KDimᵥ], int32]]"
    assert len(solver.open) == 1  # the subset still waits for its superset


def test_a_subset_that_cannot_hold_is_an_error_at_its_node(solver: Solver) -> None:
    sub = var(Sort.DIMS)
    solver.relate(Subset(sub, dims([VERTEX])), 0, A_TEST)
    equal(solver, sub, dims([KDIM]))
    with pytest.raises(UnsatisfiableConstraintError, match=r"\[KDimᵥ\] not in \[Vertex\]"):
        solver.settle()


def test_a_generalized_relation_is_copied_with_each_instance() -> None:
    """A definition's open union (`promote_dims` of its two fields) holds for each use apart."""
    type_ = parse_gtir_type("(Field[D₀, int32], Field[D₁, int32]) → Field[D₂, int32]")
    first, second = (find(c) for c in row_items(find(type_).args[0])[0])
    union = Union(first.args[0], second.args[0], find(find(type_).args[1]).args[0])
    scheme = Scheme(type_, (union,))
    uses = []
    for left, right in (("[IDim]", "[KDimᵥ]"), ("[Vertex]", "[]")):
        instance, (copied,) = scheme.instantiate_related()
        given = parse_gtir_type(f"(Field[{left}, int32], Field[{right}, int32]) → T₀")
        equate(instance, given)
        assert copied.fire(equate)
        uses.append(pformat_gtir(instance))
    assert uses == [
        "(Field[[IDim], int32], Field[[KDimᵥ], int32]) → Field[[IDim, KDimᵥ], int32]",
        "(Field[[Vertex], int32], Field[[], int32]) → Field[[Vertex], int32]",
    ]
    assert pformat_gtir(DefinitionType("f", type_, (union,))).endswith("where D₂ = D₀ ∪ D₁")
