"""The builtin signatures of the type system (docs/builtins.md) and the examples of
docs/notation.md beyond the design's canonical table (tests/test_design_table.py), compared
exactly."""

from __future__ import annotations

import pytest

import iterir
import typeinf
from tests.test_design_table import UNSTRUCTURED
from typeinf import infer, pformat


def test_where_clauses_keep_family_restrictions() -> None:
    assert pformat(infer(iterir.parse("plus"))) == "(T₀¹, T₀¹) → T₀¹ where T₀: numeric"
    assert pformat(infer(iterir.parse("sqrt"))) == "(T₀¹) → T₀¹ where T₀: float"
    assert pformat(infer(iterir.parse("λ(x) → sqrt(x)"))) == "(T₀¹) → T₀¹ where T₀: float"
    assert pformat(infer(iterir.parse("λ(x, y) → x + y < 1"))) == "(int32⁰, int32⁰) → bool⁰"


@pytest.mark.parametrize(
    ("program", "provider", "located"),
    [
        ("neighbors(V2Eₒ, it)", UNSTRUCTURED, "L[T₀, 4, False]¹"),
        ("λ(it) → neighbors(V2Eₒ, it)", UNSTRUCTURED, "(It[Vertex, Edge, T₀¹]) → L[T₀, 4, False]¹"),
    ],
)
def test_offset_providers(program: str, provider: dict, located: str) -> None:
    type_ = infer(iterir.parse(program), provider, allow_free={"it"})
    assert pformat(type_, locations=True) == located


def test_definitions_carry_their_constraints() -> None:
    """`f1` uses `f0`, which derefs: `x` is an iterator (GT4Py 1.0.3 leaves it unconstrained)."""
    program = "foo(a, b) { f1 = λ(x, y) → f0(x) + ·y; f0 = λ(x) → ·x; b ← (f1)(a, a) @ c⟨ IDim: [0, 1) ⟩; }"
    text = pformat(infer(iterir.parse(program)))
    assert text.startswith("{f1 :: (It[T₀¹], It[T₀¹]) → T₀¹, f0 :: (It[T₂³]) → T₂³, foo(")


SIGNATURES = """
deref       :: (It[T₂, T₂, T₀¹]) → T₀¹
can_deref   :: (It[T₂, T₃, T₀¹]) → bool¹
lift        :: ((It[T₂, …₃, T¹], …)₀ → T₄¹) → (It[T₅, …₃, T¹], …)₀ → It[T₅, T₂, T₄¹]
scan        :: ((T₀ˢ):(It[T₂, …₃, Tˢ], …)₁ → T₀ˢ, boolˢ, T₀ˢ) → (It[T₂, …₃, Tᶜ], …)₁ → T₀ᶜ
reduce      :: ((T₀¹):(T¹, …)₂ → T₀¹, T₀¹) → (L[…₂, T₅, T₆]¹, …) → T₀¹
map_        :: ((T¹, …)₀ → T₄¹) → (L[…₀, T₅, T₆]¹, …) → L[T₄, T₅, T₆]¹
make_const_list :: (T₀¹) → L[T₀, T₂, T₃]¹
list_get    :: (T₀ˢ, L[T₁, T₂, T₃]⁴) → T₁⁴                 where T₀: integer
named_range :: (axisˢ, T₀ˢ, T₀ˢ) → named_rangeˢ             where T₀: integer
if_         :: (bool⁰, T₁, T₁) → T₁
not_        :: (bool⁰) → bool⁰
and_ or_ xor_ :: (bool⁰, bool⁰) → bool⁰
plus minus multiplies divides mod floordiv minimum maximum fmod :: (T₀¹, T₀¹) → T₀¹ where T₀: numeric
eq not_eq   :: (T₀¹, T₀¹) → bool¹
less greater less_equal greater_equal :: (T₀¹, T₀¹) → bool¹  where T₀: numeric
power       :: (T₀¹, T₂¹) → T₀¹                             where T₀: numeric, T₂: numeric
abs         :: (T₀¹) → T₀¹                                  where T₀: numeric
sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh sqrt exp log gamma cbrt floor ceil trunc :: (T₀¹) → T₀¹ where T₀: float
isfinite isinf isnan :: (T₀¹) → bool¹                       where T₀: float
"""  # docs/builtins.md, verbatim but for joined lines


def _signatures() -> list[tuple[str, str]]:
    out = []
    for line in SIGNATURES.strip().splitlines():
        names, _, signature = line.partition("::")
        out += [(name, " ".join(signature.split())) for name in names.split()]
    return out


@pytest.mark.parametrize(("name", "signature"), _signatures())
def test_builtin_signatures(name: str, signature: str) -> None:
    assert pformat(infer(iterir.SymRef(name)), locations=True) == signature
    assert pformat(typeinf.parse_type(signature), locations=True) == signature
