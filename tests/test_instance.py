"""The instance check: a substitution for the general type's variables gives the specific type."""

from __future__ import annotations

import pytest

import iterir
import typeinf
from typeinf import is_instance, parse_type, pformat, substitution


@pytest.mark.parametrize(
    ("general", "specific", "expected"),
    [
        ("(T₀¹, T₀¹) → T₀¹ where T₀: numeric", "(float64ˢ, float64ˢ) → float64ˢ", True),
        ("(T₀¹, T₀¹) → T₀¹ where T₀: numeric", "(float64ˢ, int32ˢ) → float64ˢ", False),  # one T₀
        (
            "(T₀¹, T₀¹) → T₀¹ where T₀: numeric",
            "(boolˢ, boolˢ) → boolˢ",
            False,
        ),  # outside the family
        ("(T₀¹, T₀¹) → T₀¹ where T₀: numeric", "(T₀¹, T₀¹) → T₀¹ where T₀: float", True),
        ("(T₀¹, T₀¹) → T₀¹ where T₀: float", "(T₀¹, T₀¹) → T₀¹ where T₀: numeric", False),
        ("(T₀) → T₀", "(T₁) → T₂", False),  # the specific side's variables are rigid
        ("(T₀) → T₁", "(T₁) → T₁", True),
        ("(T₀) → T₁", "(T₀) → T₁", True),
        ("(T₀, T₁) → T₀", "(T₀) → T₀", False),  # arity
        ("(It[T₀¹]) → T₀¹", "(It[(int32, bool)ᶜ]) → (int32, bool)ᶜ", True),
        ("L[T₀, T₁, T₂]ˢ", "L[float64, 4, False]ˢ", True),
        ("L[T₀, 4, T₂]ˢ", "L[float64, T₁, False]ˢ", False),
    ],
)
def test_is_instance(general: str, specific: str, expected: bool) -> None:
    assert is_instance(parse_type(general), parse_type(specific)) is expected


def test_rows_of_values_expand_into_a_known_tuple() -> None:
    lift = typeinf.infer(iterir.parse("lift"))
    two_inputs = "((It[T₀ˢ], It[T₁ˢ]) → float64ˢ) → (It[T₀ˢ], It[T₁ˢ]) → It[float64ˢ]"
    assert is_instance(lift, parse_type(two_inputs, locations=True))
    # Compact notation leaves each iterator's locations open: more general than `lift` allows.
    assert not is_instance(lift, parse_type(two_inputs))
    assert not is_instance(parse_type(two_inputs, locations=True), lift)


def test_the_substitution_names_what_each_variable_stands_for() -> None:
    general = parse_type("(T₀¹, T₀¹) → T₀¹ where T₀: numeric")
    specific = parse_type("(float64ᶜ, float64ᶜ) → float64ᶜ")
    images = substitution(general, specific)
    assert images is not None
    assert sorted(pformat(v) for v in images.values()) == ["Column", "float64"]


def test_neither_type_changes() -> None:
    general, specific = parse_type("(T₀) → T₁"), parse_type("(T₀) → T₀")
    assert is_instance(general, specific) and not is_instance(specific, general)
    assert (pformat(general), pformat(specific)) == ("(T₀) → T₁", "(T₀) → T₀")


def test_program_level_types_compare_by_parts_and_names() -> None:
    text = "f(a, b) { id = λ(x) → x; b ← (λ(i) → ·i)(a) @ c⟨ IDim: [0, 1) ⟩; }"
    fencil = typeinf.infer(iterir.parse(text))
    assert is_instance(fencil, fencil)
    other = typeinf.infer(iterir.parse(text.replace("id =", "other =")))
    assert not is_instance(fencil, other)
    assert not is_instance(fencil, parse_type("(T₀) → T₀"))
