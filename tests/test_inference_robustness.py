"""No input IR makes inference fail with anything but a TypeInferenceError."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import iterir
import typeinf
from iterir import FencilDefinition, FunCall, Lambda, StencilClosure, Sym, SymRef
from iterir.builders import closure, fencil, fundef, lam
from tests.strategies import programs

PROVIDER = {
    "V2E": typeinf.Connectivity("Vertex", "Edge", 4, False),
    "I": typeinf.Dimension("IDim"),
}


@given(programs, st.booleans(), st.booleans())
def test_any_generated_program_infers_or_raises_a_type_error(
    program: iterir.Node, with_provider: bool, allow_free: bool
) -> None:
    """With `allow_free`, the generated names (mostly free) are unknowns, which lets inference
    go past them into the rest of the program."""
    try:
        type_ = typeinf.infer(program, PROVIDER if with_provider else None, allow_free=allow_free)
    except typeinf.TypeInferenceError as error:
        assert error.node is not None
        assert str(error)
    else:
        assert typeinf.pformat(type_, locations=True)


def _error_for(node: iterir.Node) -> str:
    try:
        typeinf.infer(node)
    except typeinf.TypeInferenceError as error:
        return error.message
    raise AssertionError("no error")


def test_program_nodes_in_the_wrong_place() -> None:
    inner = fencil("f", [], [])
    assert "cannot stand inside" in _error_for(FunCall(SymRef("g"), (inner,)))  # type: ignore[arg-type]
    assert "cannot stand inside" in _error_for(lam("x")(closure("o", "s", [], "D")))  # type: ignore[arg-type]
    assert "cannot stand inside" in _error_for(FunCall(fundef("h", "x")("x"), ()))  # type: ignore[arg-type]
    assert "cannot stand inside" in _error_for(Lambda((SymRef("x"),), SymRef("x")))  # type: ignore[arg-type]
    assert "cannot stand inside" in _error_for(FunCall(Sym("x"), ()))  # type: ignore[arg-type]
    assert "cannot stand inside" in _error_for(
        FencilDefinition(
            "f", (), (), (StencilClosure(SymRef("D"), SymRef("s"), fencil("g", [], []), ()),)
        )  # type: ignore[arg-type]
    )


def test_non_nodes_in_the_tree() -> None:
    assert (
        _error_for(FunCall(SymRef("f"), (3,)))
        == "an int cannot stand inside the `args` of a FunCall"
    )  # type: ignore[arg-type]
    assert (
        _error_for(Lambda((Sym("x"),), None))
        == "a NoneType cannot stand inside the `expr` of a Lambda"
    )  # type: ignore[arg-type]
    assert _error_for("deref") == "a str is not an IR node"  # type: ignore[arg-type]


def test_a_node_class_typeinf_does_not_type_is_a_malformed_ir_error(monkeypatch) -> None:
    """IR that iterir reads but typeinf has no rule for (GTIR's new nodes) is said so, never a
    KeyError: here `Literal` stands for such a class."""
    from typeinf.fencil import collect

    visit = dict(collect._VISIT)
    del visit[iterir.Literal]
    monkeypatch.setattr(collect, "_VISIT", visit)
    with pytest.raises(
        typeinf.MalformedIRError, match="a Literal cannot be typed: typeinf types the fencil IR"
    ):
        typeinf.infer(iterir.parse("λ(x) → x + 1"))
