"""A constructor added from outside the core, as `docs/architecture.md` ("Adding a type
constructor") shows: one descriptor and its one new unification rule, registered here, in a test
module, with no change to the core's files; it then has every behaviour the core's constructors
have (`tests/test_constructors.py`'s walk), in the generic notation `Name[arg, …]`.

The toy is `Pair(first, second)`, a dtype: two dtypes that meet a dtype tuple of exactly two
items, item by item (so `tuple_get` takes a pair apart, and a three-item tuple is a type error).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import iterir
import typeinf
import typeinf.fencil.notation
import typeinf.fencil.reader
from tests.test_constructors import check_every_behaviour
from typeinf.core import constructors as engine
from typeinf.core.codegen import compiled_matcher
from typeinf.core.instance import is_instance
from typeinf.core.schemes import Scheme
from typeinf.core.terms import Cell, Mismatch, Sort, find
from typeinf.core.unify import unify
from typeinf.fencil import constructors as c
from typeinf.fencil.signatures import BUILTINS
from typeinf.types import Constructed, Fun, Val, Var, tree


def _meet_pair(
    pair: Cell, other: Cell, postponed: list[tuple[Cell, Cell]]
) -> list[tuple[Cell, Cell]]:
    """The new rule: a pair equals a dtype tuple of two items, `(first, second)`; unifying the
    tuple with one made of the pair's arguments checks its length (no more, no fewer items)."""
    if other.ctor is engine.DTUPLE:
        return [(other, engine.row(engine.DTUPLE, list(pair.args), engine.D_EMPTY))]
    raise Mismatch(pair, other, "items" if other.ctor is engine.DEMPTY else "constructors")


#: The toy: the descriptor (what it is, what it takes) and its rule.
PAIR = engine.Constructor("Pair", Sort.DTYPE, (Sort.DTYPE, Sort.DTYPE), meet=_meet_pair)
#: A second toy without a rule, with a location argument: the generic notation leaves it out of
#: the compact notation, as a `Val`'s.
NEAR = engine.Constructor("Near", Sort.DTYPE, (Sort.DTYPE, Sort.LOC), locations=(1,))


@pytest.fixture(autouse=True)
def _toys() -> Iterator[None]:
    """The toys and their builtins, for each test only: nothing leaks into other tests."""
    builtins = dict(BUILTINS)
    with c.registered(PAIR), c.registered(NEAR):
        typeinf.register_builtin("mkpair", "(T₀¹, T₂¹) → Pair[T₀, T₂]¹")
        typeinf.register_builtin("first", "(Pair[T₀, T₂]¹) → T₀¹")
        try:
            yield
        finally:
            BUILTINS.clear()
            BUILTINS.update(builtins)


def _infer(program: str, locations: bool = False) -> str:
    return typeinf.pformat(typeinf.infer(iterir.parse(program)), locations=locations)


def test_a_program_using_it_infers_prints_and_reads_back() -> None:
    program = "λ(a, b) → mkpair(·a, ·b)"
    compact = "(It[T₀¹], It[T₂¹]) → Pair[T₀, T₂]¹"
    located = "(It[T₂, T₂, T₀¹], It[T₄, T₄, T₃¹]) → Pair[T₀, T₃]¹"
    assert _infer(program) == compact
    assert _infer(program, locations=True) == located
    for text, locations in ((compact, False), (located, True)):
        read = typeinf.parse_type(text, locations=locations)
        assert typeinf.pformat(read, locations=locations) == text
    inferred = typeinf.infer(iterir.parse(program))
    assert isinstance(inferred, Fun) and isinstance(inferred.result, Val)
    assert inferred.result.dtype == Constructed("Pair", (Var("dtype", 0), Var("dtype", 3)))
    assert tree(inferred)["result"]["dtype"] == {
        "class": "Constructed",
        "name": "Pair",
        "args": [tree(Var("dtype", 0)), tree(Var("dtype", 3))],
        "label": None,
    }


def test_it_meets_a_two_item_tuple_by_its_rule() -> None:
    pair, two = (
        typeinf.fencil.reader.parse_type("Pair[T₀, T₁]²"),
        typeinf.fencil.reader.parse_type("(float64, int32)²"),
    )
    assert isinstance(pair, Cell) and isinstance(two, Cell)
    assert not unify(pair, two)
    assert typeinf.fencil.notation.pformat(pair) == "Pair[float64, int32]⁰"
    three = typeinf.fencil.reader.parse_type("(float64, int32, int32)²")
    assert isinstance(three, Cell)
    with pytest.raises(Mismatch):
        unify(typeinf.fencil.reader.parse_type("Pair[T₀, T₁]²"), three, [])  # type: ignore[arg-type]
    # In programs: a tuple meets a pair's parameter, a pair a tuple (`tuple_get`, `if_`).
    assert _infer("λ(a) → first(make_tuple(1.0, 2))") == "(T₀) → float64¹"
    assert _infer("λ(a, b) → tuple_get(1, mkpair(·a, ·b))") == "(It[T₀¹], It[T₂¹]) → T₂¹"
    assert (
        _infer("λ(a, b) → if_(True, mkpair(·a, ·b), make_tuple(1.0, 2))")
        == "(It[float64⁰], It[int32⁰]) → Pair[float64, int32]⁰"
    )


def test_a_three_item_tuple_is_a_located_type_error() -> None:
    with pytest.raises(typeinf.UnsatisfiableConstraintError) as error:
        typeinf.infer(iterir.parse("λ(a) → first(make_tuple(1.0, 2, 3))"))
    assert str(error.value) == (
        "<string>:1:14: error: type mismatch in the first argument of `first`: expected"
        " `Pair[T₀, T₁]²`, found `(float64, int32, int32)³`; `(int32)` and `()` differ"
        " (different numbers of items)"
    )
    with pytest.raises(typeinf.UnsatisfiableConstraintError, match="different constructors"):
        typeinf.infer(iterir.parse("λ(a) → first(1.0)"))


def test_instantiation_matching_and_is_instance() -> None:
    signature = BUILTINS["mkpair"]
    assert signature.instantiate is not None and signature.match is not None
    assert typeinf.fencil.notation.pformat(signature.instantiate()) == "(T₀¹, T₂¹) → Pair[T₀, T₂]¹"
    given = [typeinf.fencil.reader.parse_type(t) for t in ("float64⁰", "int32⁰")]
    matched = signature.match(given, [])  # type: ignore[arg-type]
    assert (
        matched is not None and typeinf.fencil.notation.pformat(matched) == "Pair[float64, int32]⁰"
    )
    general, specific = (typeinf.parse_type(f"Pair[{t}") for t in ("T₀, T₁]²", "float64, int32]⁰"))
    assert typeinf.is_instance(general, specific)
    assert not typeinf.is_instance(specific, general)
    # A structure with a rule of its own is no variable of the specific type: two equal pairs
    # may both be the general type's one variable.
    general, specific = map(typeinf.parse_type, ("(T₀¹) → T₀¹", "(Pair[T₀, T₁]²) → Pair[T₀, T₁]²"))
    assert typeinf.substitution(general, specific) == {
        typeinf.types.Var("dtype", 0): Constructed("Pair", (Var("dtype", 0), Var("dtype", 1))),
        typeinf.types.Var("size", 1): Var("size", 2),
    }
    first = BUILTINS["first"].type
    assert first is not None and compiled_matcher(Scheme(first)) is not None


@pytest.mark.parametrize(
    ("ctor", "text"),
    [
        (PAIR, "(T₀¹, T₂¹) → Pair[T₀, T₂]¹"),
        (PAIR, "((Pair[T₀, L[T₁, 4, True]], T₀)²) → Pair[Pair[T₀, T₀], T₁]²"),
        (NEAR, "(Near[T₀, Vertex]¹, It[Vertex, Edge, T₂¹]) → Near[T₂, T₃]¹"),
    ],
    ids=["pair", "nested pair", "near"],
)
def test_the_completeness_walk(ctor: engine.Constructor, text: str) -> None:
    type_ = typeinf.fencil.reader.parse_type(text, locations=True)
    assert isinstance(type_, Cell)
    check_every_behaviour(ctor, type_, text)


def test_the_compact_notation_leaves_out_every_location() -> None:
    """The compact notation writes no location, a named one neither (the design's table); the
    located notation writes each. Read back, each compact `Near[…]` stands at a fresh location of
    its own, so the compact text is at least as general as the type."""
    text = "(Near[T₀, Vertex]¹) → Near[T₀, T₂]¹"
    type_ = typeinf.fencil.reader.parse_type(text)
    assert typeinf.fencil.notation.pformat(type_) == "(Near[T₀]¹) → Near[T₀]¹"
    assert typeinf.fencil.notation.pformat(type_, locations=True) == text
    back = typeinf.fencil.reader.parse_type("(Near[T₀]¹) → Near[T₀]¹")
    assert (
        typeinf.fencil.notation.pformat(back, locations=True) == "(Near[T₀, T₁]²) → Near[T₀, T₃]²"
    )
    assert is_instance(back, type_) and not is_instance(type_, back)
    assert (
        typeinf.fencil.notation.pformat(
            typeinf.fencil.reader.parse_type("Near[T₀]¹"), locations=True
        )
        == "Near[T₀, T₁]²"
    )


def test_names_and_registration() -> None:
    for name in ("It", "L", "T", "T2", "ItOrVal3", "True", "False", "float64", "axis", "where"):
        with pytest.raises(ValueError, match="word of the notation"):
            c.register_constructor(engine.Constructor(name, Sort.DTYPE))
    for taken in ("Pair", "Val", "List"):
        with pytest.raises(ValueError, match="a constructor already"):
            c.register_constructor(engine.Constructor(taken, Sort.DTYPE))
    with pytest.raises(ValueError, match="name of the notation"):
        c.register_constructor(engine.Constructor("Pa-ir", Sort.DTYPE))
    with pytest.raises(ValueError, match="row constructor"):
        c.register_constructor(engine.Constructor("Row", Sort.DROW, row="dtype"))
    with pytest.raises(ValueError, match="of the core"):
        c.unregister_constructor(c.LIST)
    # Taken out, the toy no longer reads; put back, it does.
    c.unregister_constructor(PAIR)
    try:
        with pytest.raises(typeinf.TypeSyntaxError):
            typeinf.fencil.reader.parse_type("Pair[T₀, T₁]²")
        with pytest.raises(ValueError, match="not registered"):
            c.unregister_constructor(PAIR)
    finally:
        assert c.register_constructor(PAIR) is PAIR
    assert find(typeinf.fencil.reader.parse_type("Pair[T₀, T₁]²").args[1]).ctor is PAIR  # type: ignore[union-attr]
