"""Type relations (`typeinf.core.relations`): how the solver fires them, generalizes them with a
definition and instantiates them at each use, and reports one that cannot hold, shown with a
toy relation defined here (the core has no relation of its own yet): `Larger(a, b, out)`, out
is the larger of two dtypes once both are known, in the order int32 < int64 < float32 <
float64; any other dtype has no place in the order."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

import iterir
import typeinf
import typeinf.fencil.notation
from typeinf.core.constraints import GtirRule
from typeinf.core.constructors import PRIM, prim
from typeinf.core.errors import UnsatisfiableConstraintError
from typeinf.core.relations import CannotHold, Equate, Relation, known
from typeinf.core.terms import Cell, Sort, find, make, var
from typeinf.fencil.collect import FencilSolver
from typeinf.fencil.constructors import LIST
from typeinf.fencil.runs import ExplainingRun, FastRun
from typeinf.fencil.signatures import BUILTINS

#: The reason the tests give their constraints and relations.
A_TEST = GtirRule("a test")

ORDER = ("int32", "int64", "float32", "float64")


class Larger(Relation):
    """`out = max(a, b)`, in `ORDER`."""

    __slots__ = ()

    fired = 0  # how often any Larger fired, for the tests of when it fires

    def fire(self, equate: Equate) -> bool:
        Larger.fired += 1
        a, b, out = self.cells
        inputs = [known(a), known(b)]
        for cell in inputs:
            if cell is not None and (cell.ctor is not PRIM or cell.label not in ORDER):
                raise CannotHold(f"`{cell.label}` has no place in the order")
        if inputs[0] is None or inputs[1] is None:
            return False
        equate(out, prim(max(inputs[0].label, inputs[1].label, key=ORDER.index)))  # type: ignore[arg-type]
        return True

    def show(self, name: Callable[[Cell], str]) -> str:
        a, b, out = self.cells
        return f"{name(out)} = max({name(a)}, {name(b)})"


@pytest.fixture(autouse=True)
def larger() -> Iterator[None]:
    """The builtin `larger`, typed `(T₀¹, T₂¹) → T₃¹ where T₃ = max(T₀, T₂)`, for one test."""
    typeinf.register_builtin(
        "larger", "(T₀¹, T₂¹) → T₃¹", relations=lambda t: [Larger(t[0], t[2], t[3])]
    )
    yield
    del BUILTINS["larger"]


def inferred(text: str, locations: bool = False) -> str:
    """The type of `text` by both runs (`infer`: the fast one; `check`: the explaining one),
    which must agree."""
    node = iterir.parse(text)
    fast = typeinf.pformat(typeinf.infer(node), locations=locations)
    checked = typeinf.check(node)
    assert not checked.errors
    assert typeinf.pformat(checked.type, locations=locations) == fast  # type: ignore[arg-type]
    return fast


def error(text: str) -> UnsatisfiableConstraintError:
    """The error of `text`, the same by both runs (`infer` reports the explaining run's)."""
    node = iterir.parse(text)
    with pytest.raises(UnsatisfiableConstraintError) as raised:
        typeinf.infer(node)
    checked = typeinf.check(node)
    assert [str(e) for e in checked.errors] == [str(raised.value)]
    return raised.value


FENCIL = "f(a, b) {{ {} b ← (λ(it) → ·it)(a) @ c⟨ IDim: [0, 1) ⟩; }}"


# -- the solver's queue ---------------------------------------------------------------------------
@pytest.mark.parametrize("run", [FastRun, ExplainingRun])
def test_fires_at_once_when_the_inputs_are_known(run: type[FastRun | ExplainingRun]) -> None:
    solver = FencilSolver([iterir.parse("x")], [None], explain=run is ExplainingRun)
    out = var(Sort.DTYPE)
    solver.relate(Larger(prim("int64"), prim("float32"), out), 0, A_TEST)
    assert find(out) is prim("float32") and solver.open == []


@pytest.mark.parametrize("run", [FastRun, ExplainingRun])
def test_waits_then_fires_when_a_later_constraint_binds_an_input(
    run: type[FastRun | ExplainingRun],
) -> None:
    solver = FencilSolver([iterir.parse("x")], [None], explain=run is ExplainingRun)
    equal = solver.equal  # the run: the solver with or without history
    a, out = var(Sort.DTYPE), var(Sort.DTYPE)
    solver.relate(Larger(a, prim("int32"), out), 0, A_TEST)
    assert find(out) is out and len(solver.open) == 1  # waiting
    equal(a, prim("float64"), 0, A_TEST)
    assert find(out) is out  # not fired yet: at the latest when the part is settled
    solver.settle()
    assert find(out) is prim("float64") and solver.open == []


def test_a_chain_is_solved_to_a_fixpoint() -> None:
    """Three relations, each waiting for the one before it, queued last first: one pass over the
    queue settles one of them, the fixpoint all three."""
    solver = FencilSolver([iterir.parse("x")], [None])
    equal = solver.equal
    a, b, c, d = (var(Sort.DTYPE) for _ in range(4))
    solver.relate(Larger(c, prim("int32"), d), 0, A_TEST)
    solver.relate(Larger(b, prim("int64"), c), 0, A_TEST)
    solver.relate(Larger(a, prim("int32"), b), 0, A_TEST)
    equal(a, prim("int32"), 0, A_TEST)
    solver.settle()
    assert [find(x).label for x in (b, c, d)] == ["int32", "int64", "int64"]
    assert solver.open == []


def test_a_relation_waits_at_its_use_and_fires_when_the_arguments_are_typed() -> None:
    assert inferred("larger(1, 2.0)") == "float64⁰"
    assert inferred("larger(1.0f32, 2i64)") == "float32⁰"


def test_a_chain_of_uses() -> None:
    assert inferred("larger(larger(1, 2i64), larger(1, 1.0f32))") == "float32⁰"
    assert inferred("λ(x) → larger(larger(·x, 2i64), 1)") == "(It[T₀¹]) → T₂¹"


def test_no_relation_no_change() -> None:
    """Without relations nothing fires, and nothing is queued."""
    Larger.fired = 0
    assert inferred("λ(x, y) → ·x + ·y") == "(It[T₀¹], It[T₀¹]) → T₀¹ where T₀: numeric"
    assert Larger.fired == 0


# -- generalization -------------------------------------------------------------------------------
def test_an_open_relation_is_part_of_the_definitions_type() -> None:
    text = FENCIL.format("g = λ(x, y) → larger(x, y);")
    assert inferred(text) == "{g :: (T₀¹, T₂¹) → T₃¹, f(It[T₄ᶜ], It[T₄ᶜ])} where T₃ = max(T₀, T₂)"
    assert (
        inferred(text, locations=True)
        == "{g :: (T₀¹, T₂¹) → T₃¹, f(It[ANYWHERE, T₅, T₄ᶜ], It[ANYWHERE, T₅, T₄ᶜ])} where T₃ = max(T₀, T₂)"
    )


def test_a_definition_on_its_own_prints_its_relations_after_its_families() -> None:
    node = iterir.parse(FENCIL.format("g = λ(x, y) → larger(x + 1.0, y);"))
    definition = typeinf.infer(node).definitions[0]  # type: ignore[union-attr]
    assert typeinf.pformat(definition) == "g :: (float64⁰, T₁⁰) → T₂⁰ where T₂ = max(float64, T₁)"
    node = iterir.parse(FENCIL.format("g = λ(x, y) → larger(sqrt(x), y);"))
    definition = typeinf.infer(node).definitions[0]  # type: ignore[union-attr]
    assert typeinf.pformat(definition) == "g :: (T₀¹, T₂¹) → T₃¹ where T₀: float, T₃ = max(T₀, T₂)"


def test_each_use_fires_a_copy_with_its_own_types() -> None:
    """Let-polymorphism: two uses of one definition with different dtypes give different
    results, and the definition's relation stays open."""
    text = FENCIL.format(
        "g = λ(x, y) → larger(x, y); h1 = λ() → g(1, 2); h2 = λ() → g(1, 1.0f32);"
        " k = λ(x) → g(x, 2i64); m = λ(x) → g(g(1, x), 1.0f32);"
    )
    assert inferred(text) == (
        "{g :: (T₀¹, T₂¹) → T₃¹, h1 :: () → int32⁴, h2 :: () → float32⁵, k :: (T₆⁷) → T₈⁷,"
        " m :: (T₉¹⁰) → T₁₁¹⁰, f(It[T₁₂ᶜ], It[T₁₂ᶜ])}"
        " where T₃ = max(T₀, T₂), T₈ = max(T₆, int64), T₁₁ = max(T₁₃, float32),"
        " T₁₃ = max(int32, T₉)"
    )
    assert inferred(text, locations=True) == (
        "{g :: (T₀¹, T₂¹) → T₃¹, h1 :: () → int32⁴, h2 :: () → float32⁵, k :: (T₆⁷) → T₈⁷,"
        " m :: (T₉¹⁰) → T₁₁¹⁰, f(It[ANYWHERE, T₁₃, T₁₂ᶜ], It[ANYWHERE, T₁₃, T₁₂ᶜ])}"
        " where T₃ = max(T₀, T₂), T₈ = max(T₆, int64), T₁₁ = max(T₁₄, float32),"
        " T₁₄ = max(int32, T₉)"
    )


def test_a_definition_used_as_a_value_copies_its_relations() -> None:
    text = FENCIL.format("g = λ(x, y) → larger(x, y); h = λ() → (λ(f) → f(1i64, 1))(g);")
    assert inferred(text).startswith("{g :: (T₀¹, T₂¹) → T₃¹, h :: () → int64⁴,")


# -- errors ---------------------------------------------------------------------------------------
def test_a_relation_that_cannot_hold_is_a_located_error_naming_it() -> None:
    raised = error("λ(x) → larger(True, ·x + 1)")
    assert str(raised) == (
        "<string>:1:8: error: a relation of `larger` cannot hold: `T₂ = max(T₀, T₁)` with"
        " T₀ = bool, T₁ = int32 (`bool` has no place in the order)"
    )
    assert raised.summary == "a relation of `larger` cannot hold"
    assert [words for words, _ in raised.notes] == [
        "T₀ is `bool` because of the first argument of `larger`",
        "T₁ is `int32` because of the second argument of `larger`",
        "T₁ is `int32` because of the second argument of `plus`",
    ]


def test_a_relation_whose_result_clashes() -> None:
    raised = error("if True then larger(1, 2.0) else 1")
    assert raised.message == (
        "a relation of `larger` cannot hold: `T₂ = max(T₀, T₁)` with T₀ = int32, T₁ = float64,"
        " T₂ = int32 (it determines `float64`, not `int32`)"
    )


def test_a_definitions_relation_that_cannot_hold_at_a_use() -> None:
    raised = error(FENCIL.format("g = λ(x, y) → larger(x, y); h = λ() → g(1, True);"))
    assert raised.message == (
        "a relation of `g` cannot hold: `T₂ = max(T₀, T₁)` with T₀ = int32, T₁ = bool"
        " (`bool` has no place in the order)"
    )
    assert raised.node == iterir.parse("g")


def test_check_reports_a_relation_per_definition() -> None:
    text = FENCIL.format(
        "g = λ() → larger(True, 1); h = λ() → larger(1, 1.0); k = λ() → larger(1, False);"
    )
    checked = typeinf.check(iterir.parse(text))
    assert [e.summary for e in checked.errors] == ["a relation of `larger` cannot hold"] * 2


class ListOf(Relation):
    """`out` is a list (of what, once `a` is known): binds part of what it determines while it
    waits, with a fresh structure at every firing."""

    __slots__ = ()

    def fire(self, equate: Equate) -> bool:
        a, out = self.cells
        equate(out, make(LIST, var(Sort.DTYPE), var(Sort.LENGTH), var(Sort.SKIP)))
        if known(a) is None:
            return False
        equate(find(out).args[0], a)
        return True

    def show(self, name: Callable[[Cell], str]) -> str:
        a, out = self.cells
        return f"{name(out)} = list_of({name(a)})"


def test_a_relation_that_binds_while_it_waits_reaches_a_fixpoint() -> None:
    solver = FencilSolver([iterir.parse("x")], [None])
    a, out = var(Sort.DTYPE), var(Sort.DTYPE)
    solver.relate(ListOf(a, out), 0, A_TEST)
    solver.settle()  # ends: the second pass changes no cell's root
    assert find(out).ctor is LIST and len(solver.open) == 1
    printer = typeinf.fencil.notation.FencilPrinter([])
    assert solver.open[0][0].show(printer.render) == "L[T₀, T₁, T₂] = list_of(T₃)"
