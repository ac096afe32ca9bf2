"""The parser's unchecked construction paths (nodes.py's `trusted_constructor`, SourceSpan made
by `tuple.__new__`) against public, checked construction: what the parser makes must be what
the checked constructors make, field for field and type for type, and spans must read as before."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given

import iterir
from iterir.nodes import (
    NODE_CLASSES,
    Node,
    SourceSpan,
    SymRef,
    relocated,
    trusted_constructor,
)
from tests.strategies import programs


def rebuilt(node: Node) -> Node:
    """`node` made again through its class's checked constructor (a `TypeError` or `ValueError`
    if a field is one that constructor refuses)."""
    values = {f.name: getattr(node, f.name) for f in dataclasses.fields(node)}  # type: ignore[arg-type]
    return type(node)(**values)


@given(programs)
def test_parsed_nodes_pass_the_checks_of_public_construction(program: Node) -> None:
    parsed = iterir.parse(iterir.pformat(program), "p.itir")
    for node in iterir.walk(parsed):
        again = rebuilt(node)
        assert again == node
        for name in type(node).sequence_fields:
            assert type(getattr(node, name)) is tuple, (type(node).__name__, name)
        assert type(node.loc) is SourceSpan
        assert again.loc == node.loc


def test_a_trusted_constructor_fills_every_field_and_checks_nothing() -> None:
    span = SourceSpan("f.itir", 1, 2, 1, 3)
    made = trusted_constructor(SymRef)("x", None, span)
    assert (made.id, made.type, made.loc) == ("x", None, span)
    assert made == SymRef("x")
    with pytest.raises(TypeError, match=r"SymRef\.id must be a str"):
        SymRef(3)  # type: ignore[arg-type]  # public construction is still checked


def test_every_node_class_has_a_trusted_constructor_in_field_order() -> None:
    for cls in NODE_CLASSES.values():
        names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
        made = trusted_constructor(cls)(*names)
        assert [getattr(made, name) for name in names] == names


@given(programs)
def test_a_relocated_node_is_the_node_with_another_span(program: Node) -> None:
    """What a parenthesized expression becomes: every field kept, the span replaced."""
    span = SourceSpan("r.itir", 7, 8, 9, 10)
    for node in iterir.walk(program):
        moved = relocated(node, span)
        assert type(moved) is type(node) and moved.loc is span
        for f in dataclasses.fields(node):  # type: ignore[arg-type]
            if f.name != "loc":
                assert getattr(moved, f.name) is getattr(node, f.name)
        assert rebuilt(moved) == node


def test_a_parenthesized_expression_spans_its_parentheses() -> None:
    parsed = iterir.parse("f((·x), (a + b))", "p.itir")
    assert isinstance(parsed, iterir.FunCall)
    deref, plus = parsed.args
    assert (deref.loc, plus.loc) == (
        SourceSpan("p.itir", 1, 3, 1, 7),
        SourceSpan("p.itir", 1, 9, 1, 16),
    )
    assert deref == iterir.parse("·x") and plus == iterir.parse("a + b")


def test_a_span_reads_as_the_dataclass_it_was() -> None:
    span = SourceSpan("a.itir", 1, 2, 3, 4)
    assert repr(span) == "SourceSpan(filename='a.itir', line=1, column=2, end_line=3, end_column=4)"
    assert str(span) == "a.itir:1:2" and str(SourceSpan(None, 5, 6, 5, 7)) == "<string>:5:6"
    assert (span.filename, span.line, span.column, span.end_line, span.end_column) == (
        "a.itir",
        1,
        2,
        3,
        4,
    )
    assert span == SourceSpan(filename="a.itir", line=1, column=2, end_line=3, end_column=4)
    assert hash(span) == hash(SourceSpan("a.itir", 1, 2, 3, 4))
    with pytest.raises(AttributeError):
        span.line = 9  # type: ignore[misc]  # immutable
