"""Node identity rules: structural equality and hashing, spans left out, immutability."""

from __future__ import annotations

import dataclasses

import pytest

from iterir import AxisLiteral, FunCall, Lambda, Literal, OffsetLiteral, SourceSpan, Sym, SymRef
from iterir.builders import call, deref, lam, plus

SPAN = SourceSpan("a.itir", 1, 2, 1, 5)


def test_equality_ignores_spans_but_not_structure() -> None:
    a = plus("x", 1)
    b = FunCall(SymRef("plus", loc=SPAN), (SymRef("x"), Literal("1", "int32")), loc=SPAN)
    assert a == b and hash(a) == hash(b)
    assert a != plus("x", 2)
    assert a != plus("y", 1)
    assert a != call("minus")("x", 1)


def test_node_classes_and_value_types_are_distinct() -> None:
    assert SymRef("x") != AxisLiteral("x")
    assert OffsetLiteral(1) != OffsetLiteral("1")
    assert Literal("1", "int32") != Literal("1", "int64")
    assert Literal("1.0", "float64") != Literal("1.00", "float64")  # the text is kept as written
    assert Sym("x") != Sym("x", "Iterator")
    assert Sym("x", dtype=("float64", False)) != Sym("x", dtype=("float64", True))


def test_nodes_are_immutable_and_sequences_become_tuples() -> None:
    node = FunCall(SymRef("f"), [SymRef("a")])
    assert node.args == (SymRef("a"),) and type(node.args) is tuple
    with pytest.raises(dataclasses.FrozenInstanceError):
        node.fun = SymRef("g")  # type: ignore[misc]
    assert {node: 1}[FunCall(SymRef("f"), (SymRef("a"),))] == 1


def test_builders_make_the_expected_nodes() -> None:
    assert lam("x")(deref("x")) == Lambda((Sym("x"),), FunCall(SymRef("deref"), (SymRef("x"),)))
    assert call("f")(True, 1.5) == FunCall(
        SymRef("f"), (Literal("True", "bool"), Literal("1.5", "float64"))
    )


def test_comparison_with_other_objects() -> None:
    assert SymRef("x") != "x"
    assert (SymRef("x") == 3) is False


def test_repr_is_short_text() -> None:
    assert repr(plus("x", 1)) == "FunCall«x + 1»"
    long = lam(*[f"p{i}" for i in range(50)])("x")
    assert len(repr(long)) < 100 and repr(long).endswith("…»")
