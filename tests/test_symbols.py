"""Scoping: what every SymRef refers to."""

from __future__ import annotations

import iterir
from iterir import BindingKind, FunctionDefinition, Sym
from iterir.builders import lam


def _kinds(text: str) -> list[tuple[str, str]]:
    table = iterir.resolve(iterir.parse(text))
    return [(ref.id, binding.kind.value) for ref, binding in table.occurrences]


def test_fencil_scopes() -> None:
    text = """
      f(a, n) {
        g = λ(x) → h(x, deref, a);
        h = λ(y, z, w) → y;
        out ← (λ(a) → g(a))(a, q) @ c⟨ IDim: [0, n) ⟩;
      }
    """
    assert _kinds(text) == [
        ("h", "function definition"),  # defined later: visible all the same
        ("x", "parameter"),
        ("deref", "builtin"),
        ("a", "free"),  # fencil parameters are not visible in function definitions
        ("y", "parameter"),
        ("cartesian_domain", "builtin"),
        ("named_range", "builtin"),
        ("n", "fencil parameter"),
        ("g", "function definition"),
        ("a", "parameter"),  # the lambda's `a` shadows the fencil's
        ("out", "free"),
        ("a", "fencil parameter"),
        ("q", "free"),
    ]


def test_parameters_shadow_builtins_and_scopes_end() -> None:
    assert _kinds("(λ(deref) → deref(x))(deref)") == [
        ("deref", "parameter"),
        ("x", "free"),
        ("deref", "builtin"),
    ]
    assert _kinds("cast_(x, float64)") == [
        ("cast_", "builtin"),
        ("x", "free"),
        ("float64", "builtin"),
    ]


def test_declarations_and_lookup_by_object() -> None:
    node = iterir.parse("f(a) { g = λ(x) → x; out ← (g)(a) @ D; }")
    table = iterir.resolve(node)
    by_id = {ref.id: binding for ref, binding in table.occurrences}
    assert (
        isinstance(by_id["g"].declaration, FunctionDefinition) and by_id["g"].declaration.id == "g"
    )
    assert by_id["x"].declaration == Sym("x") and by_id["a"].declaration == Sym("a")
    assert [r.id for r in table.free()] == ["D", "out"]
    ref = node.closures[0].inputs[0]
    assert table[ref].kind is BindingKind.FENCIL_PARAMETER


def test_custom_builtins() -> None:
    table = iterir.resolve(lam("x")(iterir.parse("my_op(x)")), builtins={"my_op"})
    assert [b.kind for _, b in table.occurrences] == [BindingKind.BUILTIN, BindingKind.PARAMETER]
