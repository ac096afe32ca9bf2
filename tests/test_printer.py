"""The printer: GT4Py's syntax, minimal parentheses, lossless extensions, line breaking."""

from __future__ import annotations

import pytest

import iterir
from iterir import AxisLiteral, FunCall, Literal, OffsetLiteral, Sym, SymRef
from iterir.builders import (
    call,
    closure,
    deref,
    fencil,
    fundef,
    if_,
    lam,
    lift,
    make_tuple,
    tuple_get,
)
from iterir.printer import WIDTH, pformat


@pytest.mark.parametrize(
    ("node", "text"),
    [
        (call("plus")("a", call("multiplies")("b", "c")), "a + b × c"),
        (call("multiplies")(call("plus")("a", "b"), "c"), "(a + b) × c"),
        (call("minus")("a", call("minus")("b", "c")), "a - (b - c)"),
        (call("minus")(call("minus")("a", "b"), "c"), "a - b - c"),
        (call("minus")("a", -1), "a - -1"),
        (deref(call("plus")("a", "b")), "·(a + b)"),
        (call(lam("x")("x"))("y"), "(λ(x) → x)(y)"),
        (lift(lam("x")(deref("x"))), "↑(λ(x) → ·x)"),
        (if_(lam("x")("x"), "a", "b"), "if (λ(x) → x) then a else b"),
        (call("plus")(if_("c", 1, 2), 3), "(if c then 1 else 2) + 3"),
        (tuple_get(0, deref("x")), "(·x)[0]"),
        (deref(tuple_get(0, "x")), "·x[0]"),
        (make_tuple(), "{}"),
        (call("plus")("a"), "plus(a)"),  # wrong arity: no sugar, still lossless
        (call("deref")("a", "b"), "deref(a, b)"),
        (call("named_range")("IDim", 0, 1), "named_range(IDim, 0, 1)"),
        (call("named_range")(AxisLiteral("IDim"), 0, 1), "IDim: [0, 1)"),
        (call("f")(AxisLiteral("IDim")), "f(IDimₐ)"),
        (call("f")(OffsetLiteral("a b")), "f(`a b`ₒ)"),
        (SymRef("if"), "`if`"),
        (SymRef("True"), "`True`"),
        (Literal("True", "bool"), "True"),
        (Literal("1", "bool"), "1b"),
        (Literal("yes", "bool"), '"yes"b'),
        (Literal("1.0", "float32"), "1.0f32"),
        (Literal("1", "float64"), "1f64"),
        (Literal("3", "int64"), "3i64"),
        (Literal("nan", "float64"), '"nan"f64'),
        (
            lam(Sym("x", "Iterator", ("float64", True)), Sym("y", dtype=("int8", False)))("x"),
            "λ(x: It[L[float64]], y: int8) → x",
        ),
    ],
)
def test_prints_as_expected_and_reads_back(node: iterir.Node, text: str) -> None:
    assert pformat(node) == text
    assert iterir.parse(text) == node


def test_long_programs_break_lines_within_width() -> None:
    terms = [deref(call(iterir.parse("⟪Iₒ, 1ₒ⟫"))(f"field_{i}")) for i in range(30)]
    total = terms[0]
    for term in terms[1:]:
        total = call("plus")(total, term)
    program = fencil(
        "big",
        [f"field_{i}" for i in range(30)] + ["out"],
        [closure("out", "s", [f"field_{i}" for i in range(30)], "D")],
        [fundef("s", *[f"field_{i}" for i in range(30)])(total)],
    )
    text = pformat(program)
    assert max(len(line) for line in text.splitlines()) <= WIDTH
    lines = text.splitlines()
    assert lines[0].startswith("big(field_0, field_1, ") and lines[1].startswith("  field_")
    assert "  s = λ(field_0," in text
    assert text.endswith("\n}")
    assert iterir.parse(text) == program


def test_unprintable_nodes_raise_a_clear_error() -> None:
    # Such fields cannot be given when a node is made (tests/test_api_validation.py), only
    # forced in afterwards.
    literal, param = Literal("1", "int32"), Sym("x", "Value")
    object.__setattr__(literal, "type", "int128")
    object.__setattr__(param, "kind", "Field")
    with pytest.raises(ValueError, match="not a primitive type"):
        pformat(literal)
    with pytest.raises(ValueError, match="unknown kind 'Field'"):
        pformat(lam(param)("x"))
    with pytest.raises(TypeError, match="not an IR node"):
        pformat(FunCall(SymRef("f"), ("x",)))  # type: ignore[arg-type]


def test_a_short_text_whose_guess_misses_a_gtir_node_prints_as_gtir() -> None:
    """The notation of a short text is guessed from a few nodes, which may miss a Cartesian
    offset that the text reaches early (an icon4py program's `typeinf infer --all` stopped on
    one with an internal error): it is printed again as GTIR."""
    text = (
        "(⇑(λ(__it, __offset) → ·⟪Kᵥ→Kᵥ, ·__offset⟫(__it)))(\n"
        "  (⇑(λ(__it) → ·⟪C2E2Cₒ, 2ₒ⟫(__it)))(theta_v),\n"
        "  (⇑(λ(a, b) → ·a + ·b))((⇑(λ(it) → list_get(2, ·it)))(zd_vertoffset), 1)\n"
        ")"
    )
    node = iterir.parse(text)
    assert iterir.pformat_short(node, 40) == "(⇑(λ(__it, __offset) → ·⟪Kᵥ→Kᵥ, ·__offs…"
    assert iterir.pformat(node).startswith("(⇑(λ(__it, __offset) → ·⟪Kᵥ→Kᵥ, ·__offset⟫(__it)))(")
