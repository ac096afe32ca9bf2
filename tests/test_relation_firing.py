"""When the solver fires a relation (`typeinf.core.solve.Solver`, `typeinf.core.relations`):
by dependency, as Relay's solver does. A relation that waits is fired again only once something
it reads changed (a variable reachable from its cells bound, joined, or narrowed); one that
settles is never fired again; the copies of a generalized definition's relations are kept open
unfired until something they read changes. None of this may change a type or an error: checked
here against a solver that fires every open relation on every pass, on edit chains of GT4Py's
programs, and on icon4py's programs (`benchmarks/data/icon4py`)."""

from __future__ import annotations

import json
import lzma
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from hypothesis import given, settings

import iterir
import typeinf
from iterir.nodes import Program
from iterir.offset_types import offset_types_from_json
from tests.conftest import needs_pure_python
from tests.test_incremental import gtir_edit_chains
from typeinf.core.constraints import GtirRule
from typeinf.core.constructors import PRIM, prim
from typeinf.core.relations import Equate, Relation, known
from typeinf.core.schemes import Scheme, Shared
from typeinf.core.solve import Solver
from typeinf.core.terms import FAMILIES, Cell, Sort, find, var
from typeinf.core.unify import unify
from typeinf.core.watch import changed, watched
from typeinf.fencil.collect import FencilSolver
from typeinf.gtir import terms as g
from typeinf.gtir.collect import GT4PY_READING, PRINCIPAL, GtirInference
from typeinf.gtir.notation import pformat_gtir

A_TEST = GtirRule("a test")
CORPUS = Path(__file__).resolve().parent.parent / "benchmarks" / "data" / "icon4py"


class Known(Relation):
    """Holds once its one cell is a known primitive (`T₀: known`), counting its fires."""

    __slots__ = ("fires",)

    def __init__(self, cell: Cell) -> None:
        super().__init__(cell)
        self.fires = 0

    def fire(self, equate: Equate) -> bool:
        self.fires += 1
        root = known(self.cells[0])
        return root is not None and root.ctor is PRIM

    def show(self, name: Callable[[Cell], str]) -> str:
        return f"{name(self.cells[0])}: known"


def _solver() -> Solver:
    return FencilSolver([iterir.SymRef(id="x")], [None])


def test_a_waiting_relation_fires_again_only_once_what_it_reads_changes() -> None:
    solver = _solver()
    waiting, other = var(Sort.DTYPE), var(Sort.DTYPE)
    relation = Known(waiting)
    solver.relate(relation, 0, A_TEST)
    assert relation.fires == 1 and len(solver.open) == 1
    solver.settle()
    solver.settle()
    assert relation.fires == 1  # nothing it reads changed
    solver.equal(prim("int32"), other, 0, A_TEST)
    solver.settle()
    assert relation.fires == 1  # a variable it does not read
    solver.equal(prim("float64"), waiting, 0, A_TEST)
    solver.settle()
    assert relation.fires == 2 and solver.open == []  # settled: never visited again
    solver.settle()
    assert relation.fires == 2
    assert (solver.related, solver.fires) == (1, 2)


def test_a_change_deep_inside_what_it_reads_fires_it_again() -> None:
    """What it reads is everything reachable from its cells: a variable inside a structure
    (here the dtype of a field, the relation waits on the field's dimensions)."""
    solver = _solver()
    dims, dtype = var(Sort.DIMS), var(Sort.DTYPE)

    class Dtype(Known):
        def fire(self, equate: Equate) -> bool:
            self.fires += 1
            return find(find(self.cells[0]).args[1]).ctor is PRIM

    relation = Dtype(g.field(dims, dtype))
    solver.relate(relation, 0, A_TEST)
    assert {id(c) for c, _, _ in watched(relation)} == {id(dims), id(dtype)}
    solver.equal(g.dims([]), dims, 0, A_TEST)  # what it reads changes; it still waits
    solver.settle()
    assert relation.fires == 2 and len(solver.open) == 1
    solver.equal(prim("int32"), dtype, 0, A_TEST)
    solver.settle()
    assert relation.fires == 3 and solver.open == []


def test_two_variables_joined_or_a_family_narrowed_is_a_change() -> None:
    a, b = var(Sort.DTYPE), var(Sort.DTYPE)
    on_a, on_b = watched(Known(a)), watched(Known(b))
    assert not changed(on_a) and not changed(on_b)
    unify(a, b)  # one of the two is linked under the other: a change for what reads it
    assert changed(on_a) != changed(on_b)
    narrowed = var(Sort.DTYPE, FAMILIES["numeric"])
    watch = watched(Known(narrowed))
    unify(narrowed, var(Sort.DTYPE, FAMILIES["float"]))
    assert changed(watch)


def test_a_definitions_relations_wait_on_a_fresh_instance() -> None:
    """What keeps an instance's copies unfired (`Solver.instantiate`'s `waits`): every
    relation of a generalized definition waits on a copy of its graph and changes nothing
    there, on every generalized definition of icon4py's 40 largest programs."""
    for record in _icon4py(40):
        inference = GtirInference(*record)
        for scheme in inference.schemes.values():
            assert isinstance(scheme, Scheme)
            _, copies = scheme.instantiate_related()
            for copy in copies:
                watch = watched(copy)
                assert not copy.fire(_unify)
                assert not changed(watch)


def test_a_definition_used_once_is_typed_at_its_use_by_the_drop_in() -> None:
    """GT4Py's monomorphic reading (`Reading.monomorphic_once`): a definition used once is its
    use's type (no copy), one used twice keeps a scheme; the principal inference generalizes
    both."""
    program = iterir.parse(
        "p(a, out) {\n"
        "  once = λ(x) → x;\n"
        "  twice = λ(y) → y;\n"
        "  out @ c⟨ IDimₕ: [0, 1[ ⟩ ← as_fieldop(λ(i) → ·i + once(1.0) + cast_(twice(2), float64),"
        " c⟨ IDimₕ: [0, 1[ ⟩)(twice(a));\n"
        "}"
    )
    assert isinstance(program, Program)
    drop_in = GtirInference(program, None, reading=GT4PY_READING)
    once, twice = (
        next(i for i, n in enumerate(drop_in.nodes) if n is d) for d in program.function_definitions
    )
    assert isinstance(drop_in.schemes[once], Shared)
    assert isinstance(drop_in.schemes[twice], Scheme)
    assert pformat_gtir(drop_in.type_at(once)) == "(float64) → float64"
    principal = GtirInference(program, None)
    assert all(isinstance(s, Scheme) for s in principal.schemes.values())
    assert pformat_gtir(principal.type_at(once)) == "(T₀) → T₀"


def test_fires_per_relation_on_icon4py_stay_at_two_or_fewer() -> None:
    """The design's promise (each relation fired about once when made and once when what it
    waits for is known), counted on icon4py's 381 programs, principal and as the drop-in
    types them; the counts are deterministic."""
    for reading in (PRINCIPAL, GT4PY_READING):
        related = fires = 0
        for record in _icon4py(None):
            solver = GtirInference(*record, reading=reading).solver
            related, fires = related + solver.related, fires + solver.fires
        assert fires <= 2 * related, (reading, related, fires)


@needs_pure_python  # patches the solver's module
@settings(deadline=None)
@given(gtir_edit_chains())
def test_firing_by_dependency_types_as_firing_everything(
    chain: tuple[dict[str, Any], list[Program]],
) -> None:
    """Over chains of random edits of GT4Py's programs (well and ill typed): the node types
    and the errors, principal and as the drop-in types them, are those of a solver that fires
    every open relation on every pass and every instance's copies at once."""
    provider, programs = chain
    for program in programs:
        ours = _outcome(program, provider), _drop_in(program, provider)
        with _firing_everything():
            assert (_outcome(program, provider), _drop_in(program, provider)) == ours


def _outcome(program: Program, provider: dict[str, Any]) -> list[str]:
    """Everything `check` says, as text: every node's type, then the errors."""
    try:
        checked = typeinf.check(program, provider)
    except typeinf.TypeInferenceError as error:  # a malformed program: one error, raised
        return [str(error)]
    return [f"{key}: {value}" for key, value in checked.types.items()] + [
        str(e) for e in checked.errors
    ]


def _drop_in(program: Program, provider: dict[str, Any]) -> list[str]:
    """What the drop-in's inference (`GT4PY_READING`) gives each node, or its error."""
    try:
        inference = GtirInference(program, offset_types_from_json(provider), reading=GT4PY_READING)
    except typeinf.TypeInferenceError as error:
        return [str(error)]
    return [pformat_gtir(cell) if cell is not None else "" for cell in inference.types]


class _firing_everything:
    """The solver without dependency, as it was before it: every open relation fired on every
    pass while a pass makes progress (one settles, or what one of its cells stands for
    changes), and every instance's copy fired when made."""

    def __enter__(self) -> None:
        self.saved = Solver.fire_open, Solver.relate
        relate = Solver.relate

        def eager(
            solver: Solver, relation: Relation, position: int, reason: Any, waits: bool = False
        ) -> None:
            relate(solver, relation, position, reason)

        Solver.fire_open = _fire_all  # type: ignore[method-assign]
        Solver.relate = eager  # type: ignore[method-assign]

    def __exit__(self, *exc: object) -> None:
        Solver.fire_open, Solver.relate = self.saved  # type: ignore[method-assign]


def _fire_all(solver: Solver) -> None:
    progress = True
    while progress and solver.open:
        waiting, solver.open, progress = solver.open, [], False
        for entry in waiting:
            relation, position, reason, _ = entry
            before = [find(cell) for cell in relation.cells]
            if solver.fire(relation, position, reason):
                progress = True
                continue
            solver.open.append(entry)
            progress = progress or any(
                find(cell) is not was for cell, was in zip(relation.cells, before, strict=True)
            )


def _unify(cell: Cell, value: Cell) -> None:
    for left, right in unify(cell, value, []):
        _unify(left, right)


def _icon4py(largest: int | None) -> Iterator[tuple[Program, Any]]:
    """icon4py's programs (the `largest` ones, or all) with their offset types, read."""
    with lzma.open(CORPUS / "programs.jsonl.xz", "rt", encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines]
    records.sort(key=lambda r: (-r["nodes"], r["id"]))
    for record in records[:largest]:
        program = iterir.from_json(record["ir"])
        assert isinstance(program, Program)
        yield program, offset_types_from_json(record["offset_provider_type"])
