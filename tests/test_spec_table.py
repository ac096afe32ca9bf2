"""The type system as a table: program text → its type (compact notation), or the error it is.
Each row is a rule of docs/rules.md at work; a change of behaviour shows here as one row. The
compact notation writes no location: the rows whose iterators' locations say something are
pinned in the located notation too (LOCATED)."""

from __future__ import annotations

import pytest

import iterir
import typeinf

#: (rule, program, type or `ErrorClass: message`)
SPEC = [
    ("literals", "1", "int32⁰"),
    ("literals", "1.0f32", "float32⁰"),
    ("literals", "True", "bool⁰"),
    ("lambdas and calls", "λ(x) → x", "(T₀) → T₀"),
    ("lambdas and calls", "λ(f, x) → f(f(x))", "((T₀) → T₀, T₀) → T₀"),
    ("iterators", "λ(x) → ·x", "(It[T₀¹]) → T₀¹"),
    ("arithmetic", "λ(x, y) → ·x + ·y", "(It[T₀¹], It[T₀¹]) → T₀¹ where T₀: numeric"),
    ("arithmetic", "λ(x) → ·x + 1", "(It[int32⁰]) → int32⁰"),
    ("families", "λ(x) → sqrt(·x)", "(It[T₀¹]) → T₀¹ where T₀: float"),
    ("conditionals", "λ(c, a, b) → if ·c then ·a else ·b", "(It[bool⁰], It[T₁²], It[T₁²]) → T₁²"),
    ("tuples", "λ(x) → {·x, 1}", "(It[T₀¹]) → (T₀, int32)¹"),
    ("tuples", "λ(t) → tuple_get(0, t)", "(ItOrVal₀[(T₁):T₂³]) → ItOrVal₀[T₁³]"),
    ("casts", "λ(x) → cast_(·x, float32)", "(It[T₀¹]) → float32¹"),
    ("shift", "λ(it) → ·⟪Ioffₒ, 1ₒ⟫(it)", "(It[T₀¹]) → T₀¹"),
    ("neighbors", "λ(it) → reduce(plus, 0.0)(neighbors(V2Eₒ, it))", "(It[float64⁰]) → float64⁰"),
    ("lift", "↑(λ(x) → ·x)", "(It[T₀¹]) → It[T₀¹]"),
    ("lift", "λ(a) → (↑(λ(x) → ·x + 1.0))(a)", "(It[float64⁰]) → It[float64⁰]"),
    ("scan", "scan(λ(acc, x) → acc + ·x, True, 0.0)", "(It[float64ᶜ]) → float64ᶜ"),
    (
        "lists",
        "λ(x) → map_(multiplies)(x, x)",
        "(L[T₀, T₁, T₂]³) → L[T₀, T₁, T₂]³ where T₀: numeric",
    ),
    ("domains", "c⟨ IDim: [0, 10) ⟩", "domainˢ"),
    ("builtins as values", "λ(x) → deref", "(T₀) → (It[T₁²]) → T₁²"),
    (
        "fencils",
        "f(a, b) { g = λ(x) → ·x; b ← (g)(a) @ c⟨ IDim: [0, 1) ⟩; }",
        "{g :: (It[T₀¹]) → T₀¹, f(It[T₂ᶜ], It[T₂ᶜ])}",
    ),
    (
        "fencils",
        "f(a, b) { b ← (λ(x) → ·x + 1.0)(a) @ c⟨ IDim: [0, 1) ⟩; }",
        "{f(It[float64ᶜ], It[float64ᶜ])}",
    ),
    (
        "let-polymorphism",
        "f(a, b) { id = λ(x) → x; b ← (λ(x) → {id(1), id(1.0)}[1] + ·x)(a) @ c⟨ IDim: [0, 1) ⟩; }",
        "{id :: (T₀) → T₀, f(It[float64ᶜ], It[float64ᶜ])}",
    ),
    (
        "mismatch",
        "λ(x) → ·x + True",
        "UnsatisfiableConstraintError: type mismatch in the second argument of `plus`: expected `T₀¹`, found `bool²`; `plus` needs a number, found `bool`; where T₀: numeric",
    ),
    (
        "families",
        "λ(x) → sqrt(1)",
        "UnsatisfiableConstraintError: type mismatch in the first argument of `sqrt`: expected `T₀¹`, found `int32²`; `sqrt` needs a float, found `int32`; where T₀: float",
    ),
    (
        "infinite types",
        "λ(f) → f(f)",
        "InfiniteTypeError: this would need an infinite type (`(…) → T₀`, where `…` is the type itself)",
    ),
    (
        "grammar builtins",
        "λ(x) → make_tuple",
        "GrammarBuiltinError: `make_tuple` is part of the grammar: it can only be called, not used as a value",
    ),
    (
        "grammar builtins",
        "λ(t, i) → tuple_get(i, t)",
        "GrammarBuiltinError: the index of `tuple_get` must be a non-negative integer literal",
    ),
    (
        "arity",
        "λ(x) → plus(x)",
        "UnsatisfiableConstraintError: `plus` takes 2 arguments, but is given 1",
    ),
    (
        "casts",
        "λ(x, y) → cast_(x, y)",
        "GrammarBuiltinError: the second argument of `cast_` must be a type name, such as `float64`",
    ),
    (
        "type names",
        "λ(x) → float64(x)",
        "GrammarBuiltinError: `float64` is a type name, not a function: cast with `cast_(x, float64)`",
    ),
    (
        "recursion",
        "f(a, b) { g = λ(x) → h(x); h = λ(x) → g(x); b ← (g)(a) @ c⟨ IDim: [0, 1) ⟩; }",
        "RecursionCycleError: recursion is not allowed: g → h → g",
    ),
    (
        "unbound names",
        "f(a, b) { b ← (λ(x) → ·x)(c) @ c⟨ IDim: [0, 1) ⟩; }",
        "UnboundSymbolError: `c` is not defined: not a parameter, a function definition or a builtin",
    ),
    (
        "free names",
        "λ(it) → derf(it)",
        "UnboundSymbolError: `derf` is not defined: not a parameter, a function definition or a builtin; did you mean `deref`?",
    ),
]


@pytest.mark.parametrize(
    ("rule", "program", "expected"), SPEC, ids=[f"{rule}: {program}" for rule, program, _ in SPEC]
)
def test_spec(rule: str, program: str, expected: str) -> None:
    try:
        actual = typeinf.pformat(typeinf.infer(iterir.parse(program)))
    except typeinf.TypeInferenceError as error:
        actual = f"{type(error).__name__}: {error.message}"
    assert actual == expected


#: (program, its type in the located notation): the rows of SPEC whose iterators' locations the
#: compact notation does not write.
LOCATED = [
    ("λ(it) → ·⟪Ioffₒ, 1ₒ⟫(it)", "(It[T₂, T₃, T₀¹]) → T₀¹"),
    ("λ(it) → reduce(plus, 0.0)(neighbors(V2Eₒ, it))", "(It[T₁, T₂, float64⁰]) → float64⁰"),
    ("↑(λ(x) → ·x)", "(It[T₂, T₃, T₀¹]) → It[T₂, T₃, T₀¹]"),
    ("λ(a) → (↑(λ(x) → ·x + 1.0))(a)", "(It[T₁, T₂, float64⁰]) → It[T₁, T₂, float64⁰]"),
    (
        "f(a, b) { g = λ(x) → ·x; b ← (g)(a) @ c⟨ IDim: [0, 1) ⟩; }",
        "{g :: (It[T₂, T₂, T₀¹]) → T₀¹, f(It[ANYWHERE, T₄, T₃ᶜ], It[ANYWHERE, T₄, T₃ᶜ])}",
    ),
    (
        "f(a, b) { b ← (λ(x) → ·x + 1.0)(a) @ c⟨ IDim: [0, 1) ⟩; }",
        "{f(It[ANYWHERE, T₀, float64ᶜ], It[ANYWHERE, T₀, float64ᶜ])}",
    ),
    (
        "f(a, b) { id = λ(x) → x; b ← (λ(x) → {id(1), id(1.0)}[1] + ·x)(a) @ c⟨ IDim: [0, 1) ⟩; }",
        "{id :: (T₀) → T₀, f(It[ANYWHERE, T₁, float64ᶜ], It[ANYWHERE, T₁, float64ᶜ])}",
    ),
]


@pytest.mark.parametrize(("program", "located"), LOCATED, ids=[p for p, _ in LOCATED])
def test_spec_located(program: str, located: str) -> None:
    assert program in {p for _, p, _ in SPEC}
    assert typeinf.pformat(typeinf.infer(iterir.parse(program)), locations=True) == located
