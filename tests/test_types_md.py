"""The canonical examples and builtin signatures of the type system (docs/notation.md and
docs/builtins.md), compared exactly."""

from __future__ import annotations

import pytest

import iterir
import typeinf
from typeinf import infer, pformat

# Program — compact — located (docs/notation.md). The `where` clause is left aside there. Their
# free names (`x`, `cond`, `it`) are meant as unknowns: they are allowed (`allow_free=True`).
CANONICAL = [
    ("x", "T₀", "T₀"),
    ("False", "bool⁰", "bool⁰"),
    ("3", "int32⁰", "int32⁰"),
    ("3.0", "float64⁰", "float64⁰"),
    ("deref", "(It[T₀¹]) → T₀¹", "(It[T₂, T₂, T₀¹]) → T₀¹"),
    ("·x", "T₀¹", "T₀¹"),
    ("λ(x) → x", "(T₀) → T₀", "(T₀) → T₀"),
    ("λ(x, y) → x(y)", "((T₀) → T₁, T₀) → T₁", "((T₀) → T₁, T₀) → T₁"),
    ("plus", "(T₀¹, T₀¹) → T₀¹", "(T₀¹, T₀¹) → T₀¹"),
    ("power(1.0, 2)", "float64⁰", "float64⁰"),
    ("eq", "(T₀¹, T₀¹) → bool¹", "(T₀¹, T₀¹) → bool¹"),
    ("if_", "(bool⁰, T₁, T₁) → T₁", "(bool⁰, T₁, T₁) → T₁"),
    ("if cond then 1 else 1", "int32⁰", "int32⁰"),
    ("cast_(1.0, int64)", "int64⁰", "int64⁰"),
    (
        "lift",
        "((It[T¹], …)₀ → T₂¹) → (It[T¹], …)₀ → It[T₂¹]",
        "((It[T₂, …₃, T¹], …)₀ → T₄¹) → (It[T₅, …₃, T¹], …)₀ → It[T₅, T₂, T₄¹]",
    ),
    ("↑(λ() → x)", "() → It[T₁⁰]", "() → It[T₁, T₃, T₂⁰]"),
    ("↑deref", "(It[T₀¹]) → It[T₀¹]", "(It[T₂, T₃, T₀¹]) → It[T₂, T₃, T₀¹]"),
    ("(↑deref)(x)", "It[T₀¹]", "It[T₂, T₃, T₀¹]"),
    ("{True, 42.0, x}", "(bool, float64, T₀)¹", "(bool, float64, T₀)¹"),
    ("{True, 42.0}[1]", "float64⁰", "float64⁰"),
    (
        "λ(x) → x[1]",
        "(ItOrVal₀[(T₁, T₂):T₃⁴]) → ItOrVal₀[T₂⁴]",
        "(ItOrVal₀[(T₁, T₂):T₃⁴]) → ItOrVal₀[T₂⁴]",
    ),
    ("neighbors(V2Eₒ, it)", "L[T₀, T₁, T₂]³", "L[T₀, T₁, T₂]³"),
    ("⟪iₒ, 1ₒ⟫", "(It[T₀¹]) → It[T₀¹]", "(It[T₂, T₃, T₀¹]) → It[T₄, T₃, T₀¹]"),
]


@pytest.mark.parametrize(("program", "compact", "located"), CANONICAL)
def test_canonical_examples(program: str, compact: str, located: str) -> None:
    type_ = infer(iterir.parse(program), allow_free=True)
    assert pformat(type_).split(" where ")[0] == compact
    assert pformat(type_, locations=True).split(" where ")[0] == located


def test_where_clauses_keep_family_restrictions() -> None:
    assert pformat(infer(iterir.parse("plus"))) == "(T₀¹, T₀¹) → T₀¹ where T₀: numeric"
    assert pformat(infer(iterir.parse("sqrt"))) == "(T₀¹) → T₀¹ where T₀: float"
    assert pformat(infer(iterir.parse("λ(x) → sqrt(x)"))) == "(T₀¹) → T₀¹ where T₀: float"
    assert pformat(infer(iterir.parse("λ(x, y) → x + y < 1"))) == "(int32⁰, int32⁰) → bool⁰"


CARTESIAN = {"i": {"type": "Dimension", "value": "IDim"}}
UNSTRUCTURED = {
    "V2E": {
        "type": "Connectivity",
        "origin": "Vertex",
        "neighbor": "Edge",
        "max_neighbors": 4,
        "has_skip_values": False,
    },
    "E2C": {
        "type": "Connectivity",
        "origin": "Edge",
        "neighbor": "Cell",
        "max_neighbors": 2,
        "has_skip_values": False,
    },
}


@pytest.mark.parametrize(
    ("program", "provider", "located"),
    [
        ("⟪iₒ, 1ₒ⟫", CARTESIAN, "(It[T₂, T₃, T₀¹]) → It[T₂, T₃, T₀¹]"),
        ("⟪iₒ⟫", CARTESIAN, "(It[T₂, T₃, T₀¹]) → It[T₂, T₃, T₀¹]"),
        ("⟪V2Eₒ, 0ₒ⟫", UNSTRUCTURED, "(It[Vertex, T₂, T₀¹]) → It[Edge, T₂, T₀¹]"),
        ("⟪V2Eₒ, 0ₒ, E2Cₒ⟫", UNSTRUCTURED, "(It[Vertex, T₂, T₀¹]) → It[Cell, T₂, T₀¹]"),
        ("neighbors(V2Eₒ, it)", UNSTRUCTURED, "L[T₀, 4, False]¹"),
        ("λ(it) → neighbors(V2Eₒ, it)", UNSTRUCTURED, "(It[Vertex, Edge, T₀¹]) → L[T₀, 4, False]¹"),
    ],
)
def test_offset_providers(program: str, provider: dict, located: str) -> None:
    type_ = infer(iterir.parse(program), provider, allow_free={"it"})
    assert pformat(type_, locations=True) == located


def test_reduce_and_scan_examples() -> None:
    reduce = "reduce(λ(acc, x, y) → acc + cast_(x × cast_(y, float64), int64), 0i64)"
    assert pformat(infer(iterir.parse(reduce))) == "(L[float64, T₁, T₂]³, L[T₀, T₁, T₂]³) → int64³"
    scan = "scan(λ(acc, x, y) → acc + ·x × ·y, True, 0i64)"
    assert pformat(infer(iterir.parse(scan)), locations=True) == (
        "(It[T₀, T₀, int64ᶜ], It[T₀, T₀, int64ᶜ]) → int64ᶜ"
    )


def test_fencil_examples() -> None:
    domain = "c⟨ IDim: [0, i), JDim: [0, j), KDim: [0, k) ⟩"
    fencil = f"f(i, j, k, a, b, c, d) {{ b ← (deref)(a) @ {domain}; d ← (deref)(c) @ {domain}; }}"
    assert pformat(infer(iterir.parse(fencil)), locations=True) == (
        "{f(int32ˢ, int32ˢ, int32ˢ, It[ANYWHERE, T₁, T₀ᶜ], It[ANYWHERE, T₁, T₀ᶜ], "
        "It[ANYWHERE, T₃, T₂ᶜ], It[ANYWHERE, T₃, T₂ᶜ])}"
    )
    with_definitions = "foo(a, b) { f = λ(x) → x; g = λ(x) → ·x; b ← (g)(a) @ c⟨ IDim: [0, 1) ⟩; }"
    text = pformat(infer(iterir.parse(with_definitions)), locations=True)
    assert text.startswith("{f :: (T₀) → T₀, g :: (It[T₃, T₃, T₁²]) → T₁², foo(")


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
