"""The type reader (typeinf/fencil/reader.py and the modules it reads with): what it reads, what
it says of what it cannot read, and that it reads in linear time at any depth.

The reader replaced an Earley parser generated from a grammar. The tables below are what that
parser gave, printed in both notations or as its error message, for every type written in the
project and for texts made for what it resolved (a group is arguments or a dtype tuple by what
follows it, `T¹` is a row's only before `, …`, an error's column is where no reading goes on);
the hand-written reader gives the same, to the letter, but for locations: the compact notation
writes no location (the design's table), and an `It[…]` read from compact text stands at fresh
locations of its own (the Earley reader gave it one shared fresh location).
"""

from __future__ import annotations

import ast
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import iterir
import typeinf.fencil.reader
from tests.test_parser_fuzz import cpu_time_limit
from tests.welltyped import well_typed_programs
from typeinf import TypeSyntaxError, infer, infer_all, parse_type, pformat

#: The types written in builtins/*.sig, examples/*.types, tests/test_types_md.py and docs/, as the Earley reader read them: (text, compact, located).
PROJECT_READS = [
    (
        "(bool⁰, T₁, T₁) → T₁",
        "(bool⁰, T₁, T₁) → T₁",
        "(bool⁰, T₁, T₁) → T₁",
    ),
    (
        "(bool⁰) → bool⁰",
        "(bool⁰) → bool⁰",
        "(bool⁰) → bool⁰",
    ),
    (
        "(bool⁰, bool⁰) → bool⁰",
        "(bool⁰, bool⁰) → bool⁰",
        "(bool⁰, bool⁰) → bool⁰",
    ),
    (
        "(T₀¹, T₀¹) → T₀¹ where T₀: numeric",
        "(T₀¹, T₀¹) → T₀¹ where T₀: numeric",
        "(T₀¹, T₀¹) → T₀¹ where T₀: numeric",
    ),
    (
        "(T₀¹, T₀¹) → bool¹",
        "(T₀¹, T₀¹) → bool¹",
        "(T₀¹, T₀¹) → bool¹",
    ),
    (
        "(T₀¹, T₀¹) → bool¹ where T₀: numeric",
        "(T₀¹, T₀¹) → bool¹ where T₀: numeric",
        "(T₀¹, T₀¹) → bool¹ where T₀: numeric",
    ),
    (
        "(axisˢ, T₀ˢ, T₀ˢ) → named_rangeˢ where T₀: integer",
        "(axisˢ, T₀ˢ, T₀ˢ) → named_rangeˢ where T₀: integer",
        "(axisˢ, T₀ˢ, T₀ˢ) → named_rangeˢ where T₀: integer",
    ),
    (
        "(It[T₂, T₂, T₀¹]) → T₀¹",
        "(It[T₀¹]) → T₀¹",
        "(It[T₂, T₂, T₀¹]) → T₀¹",
    ),
    (
        "(It[T₂, T₃, T₀¹]) → bool¹",
        "(It[T₀¹]) → bool¹",
        "(It[T₂, T₃, T₀¹]) → bool¹",
    ),
    (
        "((It[T₂, …₃, T¹], …)₀ → T₄¹) → (It[T₅, …₃, T¹], …)₀ → It[T₅, T₂, T₄¹]",
        "((It[T¹], …)₀ → T₂¹) → (It[T¹], …)₀ → It[T₂¹]",
        "((It[T₂, …₃, T¹], …)₀ → T₄¹) → (It[T₅, …₃, T¹], …)₀ → It[T₅, T₂, T₄¹]",
    ),
    (
        "((T₀ˢ):(It[T₂, …₃, Tˢ], …)₁ → T₀ˢ, boolˢ, T₀ˢ) → (It[T₂, …₃, Tᶜ], …)₁ → T₀ᶜ",
        "((T₀ˢ):(It[Tˢ], …)₁ → T₀ˢ, boolˢ, T₀ˢ) → (It[Tᶜ], …)₁ → T₀ᶜ",
        "((T₀ˢ):(It[T₂, …₃, Tˢ], …)₁ → T₀ˢ, boolˢ, T₀ˢ) → (It[T₂, …₃, Tᶜ], …)₁ → T₀ᶜ",
    ),
    (
        "((T₀¹):(T¹, …)₂ → T₀¹, T₀¹) → (L[…₂, T₅, T₆]¹, …) → T₀¹",
        "((T₀¹):(T¹, …)₂ → T₀¹, T₀¹) → (L[…₂, T₃, T₄]¹, …) → T₀¹",
        "((T₀¹):(T¹, …)₂ → T₀¹, T₀¹) → (L[…₂, T₅, T₆]¹, …) → T₀¹",
    ),
    (
        "((T¹, …)₀ → T₄¹) → (L[…₀, T₅, T₆]¹, …) → L[T₄, T₅, T₆]¹",
        "((T¹, …)₀ → T₂¹) → (L[…₀, T₃, T₄]¹, …) → L[T₂, T₃, T₄]¹",
        "((T¹, …)₀ → T₄¹) → (L[…₀, T₅, T₆]¹, …) → L[T₄, T₅, T₆]¹",
    ),
    (
        "(T₀¹) → L[T₀, T₂, T₃]¹",
        "(T₀¹) → L[T₀, T₂, T₃]¹",
        "(T₀¹) → L[T₀, T₂, T₃]¹",
    ),
    (
        "(T₀ˢ, L[T₁, T₂, T₃]⁴) → T₁⁴ where T₀: integer",
        "(T₀ˢ, L[T₁, T₂, T₃]⁴) → T₁⁴ where T₀: integer",
        "(T₀ˢ, L[T₁, T₂, T₃]⁴) → T₁⁴ where T₀: integer",
    ),
    (
        "(T₀¹, T₂¹) → T₀¹ where T₀: numeric, T₂: numeric",
        "(T₀¹, T₂¹) → T₀¹ where T₀: numeric, T₂: numeric",
        "(T₀¹, T₂¹) → T₀¹ where T₀: numeric, T₂: numeric",
    ),
    (
        "(T₀¹) → T₀¹ where T₀: numeric",
        "(T₀¹) → T₀¹ where T₀: numeric",
        "(T₀¹) → T₀¹ where T₀: numeric",
    ),
    (
        "(T₀¹) → T₀¹ where T₀: float",
        "(T₀¹) → T₀¹ where T₀: float",
        "(T₀¹) → T₀¹ where T₀: float",
    ),
    (
        "(T₀¹) → bool¹ where T₀: float",
        "(T₀¹) → bool¹ where T₀: float",
        "(T₀¹) → bool¹ where T₀: float",
    ),
    (
        "add_level :: (T₀¹, It[T₂, T₂, T₀¹]) → T₀¹ where T₀: numeric",
        "add_level :: (T₀¹, It[T₀¹]) → T₀¹ where T₀: numeric",
        "add_level :: (T₀¹, It[T₂, T₂, T₀¹]) → T₀¹ where T₀: numeric",
    ),
    (
        "running_sum :: (It[T₀, T₀, float64ᶜ]) → float64ᶜ",
        "running_sum :: (It[float64ᶜ]) → float64ᶜ",
        "running_sum :: (It[T₀, T₀, float64ᶜ]) → float64ᶜ",
    ),
    (
        (
            "{column_sum(It[ANYWHERE, T₀, float64ᶜ], It[ANYWHERE, T₀, float64ᶜ], int32ˢ, int32ˢ, "
            "int32ˢ)}"
        ),
        "{column_sum(It[float64ᶜ], It[float64ᶜ], int32ˢ, int32ˢ, int32ˢ)}",
        (
            "{column_sum(It[ANYWHERE, T₀, float64ᶜ], It[ANYWHERE, T₀, float64ᶜ], int32ˢ, int32ˢ, "
            "int32ˢ)}"
        ),
    ),
    (
        "sum_edges :: (It[Vertex, Edge, float64⁰]) → float64⁰",
        "sum_edges :: (It[float64⁰]) → float64⁰",
        "sum_edges :: (It[Vertex, Edge, float64⁰]) → float64⁰",
    ),
    (
        "{edge_sum(It[ANYWHERE, Edge, float64ᶜ], It[ANYWHERE, Vertex, float64ᶜ], int32ˢ)}",
        "{edge_sum(It[float64ᶜ], It[float64ᶜ], int32ˢ)}",
        "{edge_sum(It[ANYWHERE, Edge, float64ᶜ], It[ANYWHERE, Vertex, float64ᶜ], int32ˢ)}",
    ),
    (
        "laplacian :: (It[T₁, T₁, float64⁰]) → float64⁰",
        "laplacian :: (It[float64⁰]) → float64⁰",
        "laplacian :: (It[T₁, T₁, float64⁰]) → float64⁰",
    ),
    (
        "flux_i :: (It[T₁, T₁, float64⁰]) → float64⁰",
        "flux_i :: (It[float64⁰]) → float64⁰",
        "flux_i :: (It[T₁, T₁, float64⁰]) → float64⁰",
    ),
    (
        "flux_j :: (It[T₁, T₁, float64⁰]) → float64⁰",
        "flux_j :: (It[float64⁰]) → float64⁰",
        "flux_j :: (It[T₁, T₁, float64⁰]) → float64⁰",
    ),
    (
        "hdiff_stencil :: (It[T₁, T₁, float64⁰], It[T₂, T₂, float64⁰]) → float64⁰",
        "hdiff_stencil :: (It[float64⁰], It[float64⁰]) → float64⁰",
        "hdiff_stencil :: (It[T₁, T₁, float64⁰], It[T₂, T₂, float64⁰]) → float64⁰",
    ),
    (
        (
            "{hdiff(It[ANYWHERE, T₀, float64ᶜ], It[ANYWHERE, T₀, float64ᶜ], It[ANYWHERE, T₀, "
            "float64ᶜ], int32ˢ, int32ˢ, int32ˢ)}"
        ),
        "{hdiff(It[float64ᶜ], It[float64ᶜ], It[float64ᶜ], int32ˢ, int32ˢ, int32ˢ)}",
        (
            "{hdiff(It[ANYWHERE, T₀, float64ᶜ], It[ANYWHERE, T₀, float64ᶜ], It[ANYWHERE, T₀, "
            "float64ᶜ], int32ˢ, int32ˢ, int32ˢ)}"
        ),
    ),
    (
        "lap :: (It[T₁, T₁, float64⁰]) → float64⁰",
        "lap :: (It[float64⁰]) → float64⁰",
        "lap :: (It[T₁, T₁, float64⁰]) → float64⁰",
    ),
    (
        (
            "{laplacian(It[ANYWHERE, T₀, float64ᶜ], It[ANYWHERE, T₀, float64ᶜ], int32ˢ, int32ˢ, "
            "int32ˢ)}"
        ),
        "{laplacian(It[float64ᶜ], It[float64ᶜ], int32ˢ, int32ˢ, int32ˢ)}",
        (
            "{laplacian(It[ANYWHERE, T₀, float64ᶜ], It[ANYWHERE, T₀, float64ᶜ], int32ˢ, int32ˢ, "
            "int32ˢ)}"
        ),
    ),
    (
        "edge_average :: (It[Edge, Vertex, float64⁰], It[T₁, T₁, float64⁰]) → float64⁰",
        "edge_average :: (It[float64⁰], It[float64⁰]) → float64⁰",
        "edge_average :: (It[Edge, Vertex, float64⁰], It[T₁, T₁, float64⁰]) → float64⁰",
    ),
    (
        (
            "pnabla :: (It[Vertex, Vertex, float64⁰], It[Vertex, Edge, float64⁰], It[T₁, T₁, "
            "L[float64, 7, True]⁰], It[T₂, T₂, float64⁰]) → float64⁰"
        ),
        "pnabla :: (It[float64⁰], It[float64⁰], It[L[float64, 7, True]⁰], It[float64⁰]) → float64⁰",
        (
            "pnabla :: (It[Vertex, Vertex, float64⁰], It[Vertex, Edge, float64⁰], It[T₁, T₁, "
            "L[float64, 7, True]⁰], It[T₂, T₂, float64⁰]) → float64⁰"
        ),
    ),
    (
        (
            "{nabla(int32ˢ, It[ANYWHERE, Vertex, float64ᶜ], It[ANYWHERE, Vertex, float64ᶜ], "
            "It[ANYWHERE, Vertex, float64ᶜ], It[ANYWHERE, Edge, float64ᶜ], It[ANYWHERE, Edge, "
            "float64ᶜ], It[ANYWHERE, Vertex, L[float64, 7, True]ᶜ], It[ANYWHERE, Vertex, "
            "float64ᶜ])}"
        ),
        (
            "{nabla(int32ˢ, It[float64ᶜ], It[float64ᶜ], It[float64ᶜ], It[float64ᶜ], It[float64ᶜ], It[L[float64, 7, True]ᶜ], It[float64ᶜ])}"
        ),
        (
            "{nabla(int32ˢ, It[ANYWHERE, Vertex, float64ᶜ], It[ANYWHERE, Vertex, float64ᶜ], "
            "It[ANYWHERE, Vertex, float64ᶜ], It[ANYWHERE, Edge, float64ᶜ], It[ANYWHERE, Edge, "
            "float64ᶜ], It[ANYWHERE, Vertex, L[float64, 7, True]ᶜ], It[ANYWHERE, Vertex, "
            "float64ᶜ])}"
        ),
    ),
    (
        (
            "eliminate :: ((T₀, T₀):T₁², It[T₃, T₃, T₀²], It[T₄, T₄, T₀²], It[T₅, T₅, T₀²], It[T₆, "
            "T₆, T₀²]) → (T₀, T₀)² where T₀: numeric"
        ),
        (
            "eliminate :: ((T₀, T₀):T₁², It[T₀²], It[T₀²], It[T₀²], It[T₀²]) → (T₀, "
            "T₀)² where T₀: numeric"
        ),
        (
            "eliminate :: ((T₀, T₀):T₁², It[T₃, T₃, T₀²], It[T₄, T₄, T₀²], It[T₅, T₅, T₀²], It[T₆, "
            "T₆, T₀²]) → (T₀, T₀)² where T₀: numeric"
        ),
    ),
    (
        "substitute :: (T₀¹, It[T₃, T₃, (T₀, T₀):T₂¹]) → T₀¹ where T₀: numeric",
        "substitute :: (T₀¹, It[(T₀, T₀):T₂¹]) → T₀¹ where T₀: numeric",
        "substitute :: (T₀¹, It[T₃, T₃, (T₀, T₀):T₂¹]) → T₀¹ where T₀: numeric",
    ),
    (
        (
            "forward :: (It[T₀, T₀, float64ᶜ], It[T₀, T₀, float64ᶜ], It[T₀, T₀, float64ᶜ], It[T₀, "
            "T₀, float64ᶜ]) → (float64, float64)ᶜ"
        ),
        "forward :: (It[float64ᶜ], It[float64ᶜ], It[float64ᶜ], It[float64ᶜ]) → (float64, float64)ᶜ",
        (
            "forward :: (It[T₀, T₀, float64ᶜ], It[T₀, T₀, float64ᶜ], It[T₀, T₀, float64ᶜ], It[T₀, "
            "T₀, float64ᶜ]) → (float64, float64)ᶜ"
        ),
    ),
    (
        (
            "solve :: (It[T₀, T₀, float64ᶜ], It[T₀, T₀, float64ᶜ], It[T₀, T₀, float64ᶜ], It[T₀, T₀, "
            "float64ᶜ]) → float64ᶜ"
        ),
        "solve :: (It[float64ᶜ], It[float64ᶜ], It[float64ᶜ], It[float64ᶜ]) → float64ᶜ",
        (
            "solve :: (It[T₀, T₀, float64ᶜ], It[T₀, T₀, float64ᶜ], It[T₀, T₀, float64ᶜ], It[T₀, T₀, "
            "float64ᶜ]) → float64ᶜ"
        ),
    ),
    (
        (
            "{tridiagonal(It[ANYWHERE, T₀, float64ᶜ], It[ANYWHERE, T₀, float64ᶜ], It[ANYWHERE, T₀, "
            "float64ᶜ], It[ANYWHERE, T₀, float64ᶜ], It[ANYWHERE, T₀, float64ᶜ], int32ˢ, int32ˢ, "
            "int32ˢ)}"
        ),
        (
            "{tridiagonal(It[float64ᶜ], It[float64ᶜ], It[float64ᶜ], It[float64ᶜ], It[float64ᶜ], int32ˢ, int32ˢ, int32ˢ)}"
        ),
        (
            "{tridiagonal(It[ANYWHERE, T₀, float64ᶜ], It[ANYWHERE, T₀, float64ᶜ], It[ANYWHERE, T₀, "
            "float64ᶜ], It[ANYWHERE, T₀, float64ᶜ], It[ANYWHERE, T₀, float64ᶜ], int32ˢ, int32ˢ, "
            "int32ˢ)}"
        ),
    ),
    (
        "T₀",
        "T₀",
        "T₀",
    ),
    (
        "bool⁰",
        "bool⁰",
        "bool⁰",
    ),
    (
        "int32⁰",
        "int32⁰",
        "int32⁰",
    ),
    (
        "float64⁰",
        "float64⁰",
        "float64⁰",
    ),
    (
        "(It[T₀¹]) → T₀¹",
        "(It[T₀¹]) → T₀¹",
        "(It[T₂, T₃, T₀¹]) → T₀¹",
    ),
    (
        "T₀¹",
        "T₀¹",
        "T₀¹",
    ),
    (
        "(T₀) → T₀",
        "(T₀) → T₀",
        "(T₀) → T₀",
    ),
    (
        "((T₀) → T₁, T₀) → T₁",
        "((T₀) → T₁, T₀) → T₁",
        "((T₀) → T₁, T₀) → T₁",
    ),
    (
        "(T₀¹, T₀¹) → T₀¹",
        "(T₀¹, T₀¹) → T₀¹",
        "(T₀¹, T₀¹) → T₀¹",
    ),
    (
        "int64⁰",
        "int64⁰",
        "int64⁰",
    ),
    (
        "((It[T¹], …)₀ → T₂¹) → (It[T¹], …)₀ → It[T₂¹]",
        "((It[T¹], …)₀ → T₂¹) → (It[T¹], …)₀ → It[T₂¹]",
        "((It[T₂, …₃, T¹], …)₀ → T₄¹) → (It[T₅, …₆, T¹], …)₀ → It[T₇, T₈, T₄¹]",
    ),
    (
        "() → It[T₁⁰]",
        "() → It[T₀¹]",
        "() → It[T₂, T₃, T₀¹]",
    ),
    (
        "() → It[T₁, T₃, T₂⁰]",
        "() → It[T₀¹]",
        "() → It[T₂, T₃, T₀¹]",
    ),
    (
        "(It[T₀¹]) → It[T₀¹]",
        "(It[T₀¹]) → It[T₀¹]",
        "(It[T₂, T₃, T₀¹]) → It[T₄, T₅, T₀¹]",
    ),
    (
        "(It[T₂, T₃, T₀¹]) → It[T₂, T₃, T₀¹]",
        "(It[T₀¹]) → It[T₀¹]",
        "(It[T₂, T₃, T₀¹]) → It[T₂, T₃, T₀¹]",
    ),
    (
        "It[T₀¹]",
        "It[T₀¹]",
        "It[T₂, T₃, T₀¹]",
    ),
    (
        "It[T₂, T₃, T₀¹]",
        "It[T₀¹]",
        "It[T₂, T₃, T₀¹]",
    ),
    (
        "(bool, float64, T₀)¹",
        "(bool, float64, T₀)¹",
        "(bool, float64, T₀)¹",
    ),
    (
        "(ItOrVal₀[(T₁, T₂):T₃⁴]) → ItOrVal₀[T₂⁴]",
        "(ItOrVal₀[(T₁, T₂):T₃⁴]) → ItOrVal₀[T₂⁴]",
        "(ItOrVal₀[(T₁, T₂):T₃⁴]) → ItOrVal₀[T₂⁴]",
    ),
    (
        "L[T₀, T₁, T₂]³",
        "L[T₀, T₁, T₂]³",
        "L[T₀, T₁, T₂]³",
    ),
    (
        "(It[T₂, T₃, T₀¹]) → It[T₄, T₃, T₀¹]",
        "(It[T₀¹]) → It[T₀¹]",
        "(It[T₂, T₃, T₀¹]) → It[T₄, T₃, T₀¹]",
    ),
    (
        "(T₃¹, T₃¹) → T₃¹ where T₃: numeric",
        "(T₀¹, T₀¹) → T₀¹ where T₀: numeric",
        "(T₀¹, T₀¹) → T₀¹ where T₀: numeric",
    ),
    (
        "(It[float64ᶜ]) → float64ᶜ",
        "(It[float64ᶜ]) → float64ᶜ",
        "(It[T₀, T₁, float64ᶜ]) → float64ᶜ",
    ),
    (
        "(float64ᶜ, float64ᶜ) → float64ᶜ",
        "(float64ᶜ, float64ᶜ) → float64ᶜ",
        "(float64ᶜ, float64ᶜ) → float64ᶜ",
    ),
]

#: The types written in builtins/*.sig, examples/*.types, tests/test_types_md.py and docs/ that the Earley reader rejected, and what it said.
PROJECT_ERRORS = [
    (
        "It[float64]",
        "not a type at column 11: 'It[float64]'",
    ),
]


#: Texts made for the ambiguities, the whitespace and the error positions, as the Earley reader read them: (text, compact, located).
MADE_READS = [
    (
        "(T₀, T₁)",
        "(T₀, T₁)",
        "(T₀, T₁)",
    ),
    (
        "()",
        "()",
        "()",
    ),
    (
        "()⁰",
        "()⁰",
        "()⁰",
    ),
    (
        "(T₀):T₁",
        "(T₀):T₁",
        "(T₀):T₁",
    ),
    (
        "((T₀, T₁), T₂)",
        "((T₀, T₁), T₂)",
        "((T₀, T₁), T₂)",
    ),
    (
        "((T₀)) → T₀",
        "((T₀)) → T₀",
        "((T₀)) → T₀",
    ),
    (
        "(((T₀)))¹",
        "(((T₀)))¹",
        "(((T₀)))¹",
    ),
    (
        "It[(T₁, T₂):T₃⁴]",
        "It[(T₀, T₁):T₂³]",
        "It[T₄, T₅, (T₀, T₁):T₂³]",
    ),
    (
        "(T₀):(It[T¹], …)₂",
        "(T₀):(It[T²], …)₁",
        "(T₀):(It[T₃, …₄, T²], …)₁",
    ),
    (
        "(T₀):(ItOrVal₁[T²], …)₃",
        "(T₀):(ItOrVal₁[T³], …)₂",
        "(T₀):(ItOrVal₁[T³], …)₂",
    ),
    (
        "(T₀):(It[T₁, …₂, T³], …)₄",
        "(T₀):(It[T²], …)₁",
        "(T₀):(It[T₃, …₄, T²], …)₁",
    ),
    (
        "(T₀):(L[…₁, T₂, T₃]⁴, …)",
        "(T₀):(L[…₁, T₂, T₃]⁴, …)",
        "(T₀):(L[…₁, T₂, T₃]⁴, …)",
    ),
    (
        "(L[…₀, T₁, T₂]³, …) → T₄³",
        "(L[…₀, T₁, T₂]³, …) → T₄³",
        "(L[…₀, T₁, T₂]³, …) → T₄³",
    ),
    (
        "(T¹, …)₀ → T₂¹",
        "(T¹, …)₀ → T₂¹",
        "(T¹, …)₀ → T₄¹",
    ),
    (
        "(ItOrVal₀[T¹], …)₂",
        "(ItOrVal₀[T²], …)₁",
        "(ItOrVal₀[T²], …)₁",
    ),
    (
        "(It[Vertex, …₃, Tᶜ], …)₁",
        "(It[Tᶜ], …)₀",
        "(It[Vertex, …₁, Tᶜ], …)₀",
    ),
    (
        "(It[T, …₃, Tᶜ], …)₁",
        "(It[Tᶜ], …)₀",
        "(It[T, …₁, Tᶜ], …)₀",
    ),
    (
        "(T₀):(It[T, …₃, T¹], …)₂",
        "(T₀):(It[T²], …)₁",
        "(T₀):(It[T, …₃, T²], …)₁",
    ),
    (
        "ItOrVal₀[T₁²]",
        "ItOrVal₀[T₁²]",
        "ItOrVal₀[T₁²]",
    ),
    (
        "It[T₀, Vertex, L[T₁, 4, False]ˢ]",
        "It[L[T₀, 4, False]ˢ]",
        "It[T₁, Vertex, L[T₀, 4, False]ˢ]",
    ),
    (
        "T₀ → T₁",
        "T₀ → T₁",
        "T₀ → T₁",
    ),
    (
        "(T₀) → (T₁) → T₂",
        "(T₀) → (T₁) → T₂",
        "(T₀) → (T₁) → T₂",
    ),
    (
        "(T₀⁰¹²³⁴⁵⁶⁷⁸⁹, T₁₂ᶜ, T₃ˢ)",
        "(T₀¹, T₂ᶜ, T₃ˢ)",
        "(T₀¹, T₂ᶜ, T₃ˢ)",
    ),
    (
        "f :: (T₀) → T₀",
        "f :: (T₀) → T₀",
        "f :: (T₀) → T₀",
    ),
    (
        "where :: T₀",
        "where :: T₀",
        "where :: T₀",
    ),
    (
        "It :: T₀",
        "It :: T₀",
        "It :: T₀",
    ),
    (
        "(T₀¹) ⇒ T₀¹",
        "(T₀¹) ⇒ T₀¹",
        "(T₀¹) ⇒ T₀¹",
    ),
    (
        "{name()}",
        "{name()}",
        "{name()}",
    ),
    (
        "{where :: T₀, where()}",
        "{where :: T₀, where()}",
        "{where :: T₀, where()}",
    ),
    (
        "{f :: T₀, name(T₁)} where T₂: integer",
        "{f :: T₀, name(T₁)}",
        "{f :: T₀, name(T₁)}",
    ),
    (
        "(T₀¹)\n→\tT₀¹",
        "(T₀¹) → T₀¹",
        "(T₀¹) → T₀¹",
    ),
    (
        "T₀¹ whereT₀: float",
        "T₀¹ where T₀: float",
        "T₀¹ where T₀: float",
    ),
    (
        "(T ¹, …) ₀",
        "(T¹, …)₀",
        "(T¹, …)₀",
    ),
    (
        "f::T₀",
        "f :: T₀",
        "f :: T₀",
    ),
    (
        "{f::T₀,g()}",
        "{f :: T₀, g()}",
        "{f :: T₀, g()}",
    ),
    (
        "(T₀):T₀",
        "(T₀):T₀",
        "(T₀):T₀",
    ),
    (
        "(T₀, T₀):T₀¹",
        "(T₀, T₀):T₀¹",
        "(T₀, T₀):T₀¹",
    ),
    (
        "(T₀, T₂)¹",
        "(T₀, T₁)²",
        "(T₀, T₁)²",
    ),
    (
        "((T₀, T₂), T₃)¹",
        "((T₀, T₁), T₂)³",
        "((T₀, T₁), T₂)³",
    ),
    (
        "((T₀, T₂)¹, T₃)",
        "((T₀, T₁)², T₃)",
        "((T₀, T₁)², T₃)",
    ),
    (
        "(T₀, (T₂, float64))¹",
        "(T₀, (T₁, float64))²",
        "(T₀, (T₁, float64))²",
    ),
    (
        "(T₀):T₂¹",
        "(T₀):T₁²",
        "(T₀):T₁²",
    ),
    (
        "(T₀, T₂):(T¹, …)₃",
        "(T₀, T₁):(T³, …)₂",
        "(T₀, T₁):(T³, …)₂",
    ),
    (
        "(It[T₀¹], T₂ˢ) ⇒ T₀¹ where T₀: float",
        "(It[T₀¹], T₂ˢ) ⇒ T₀¹ where T₀: float",
        "(It[T₂, T₃, T₀¹], T₄ˢ) ⇒ T₀¹ where T₀: float",
    ),
    (
        "f :: (T₀¹) → T₀¹ where T₀: numeric",
        "f :: (T₀¹) → T₀¹ where T₀: numeric",
        "f :: (T₀¹) → T₀¹ where T₀: numeric",
    ),
    (
        " ( T₀ ¹ , It [ T₂ , T₂ , T₃ ˢ ] ) → T₀ ¹ ",
        "(T₀¹, It[T₂ˢ]) → T₀¹",
        "(T₀¹, It[T₃, T₃, T₂ˢ]) → T₀¹",
    ),
    (
        "(T₀¹,T₂¹)→T₀¹",
        "(T₀¹, T₂¹) → T₀¹",
        "(T₀¹, T₂¹) → T₀¹",
    ),
    (
        "(float64, (T₀, T₂):T₃)ᶜ",
        "(float64, (T₀, T₁):T₂)ᶜ",
        "(float64, (T₀, T₁):T₂)ᶜ",
    ),
    (
        "It[((T₀, T₂), (T₃)):T₄ˢ]",
        "It[((T₀, T₁), (T₂)):T₃ˢ]",
        "It[T₄, T₅, ((T₀, T₁), (T₂)):T₃ˢ]",
    ),
    (
        "((T₀, T₂), (T₃) → T₀)",
        "((T₀, T₁), (T₂) → T₀)",
        "((T₀, T₁), (T₂) → T₀)",
    ),
    (
        "((), (()))",
        "((), (()))",
        "((), (()))",
    ),
    (
        "((), (()))⁰",
        "((), (()))⁰",
        "((), (()))⁰",
    ),
]

#: Texts made for the ambiguities, the whitespace and the error positions that the Earley reader rejected, and what it said.
MADE_ERRORS = [
    (
        "(T₀, T₁)¹",
        "variable 1 stands for a dtype and a size in '(T₀, T₁)¹'",
    ),
    (
        "(T₀):T₁¹",
        "variable 1 stands for a dtype row and a size in '(T₀):T₁¹'",
    ),
    (
        "((T₀, T₁), T₂)¹",
        "variable 1 stands for a dtype and a size in '((T₀, T₁), T₂)¹'",
    ),
    (
        "((T₀, T₁)¹, T₂)",
        "variable 1 stands for a dtype and a size in '((T₀, T₁)¹, T₂)'",
    ),
    (
        "(T₀, (T₁, float64))",
        "not a type at its end: '(T₀, (T₁, float64))'",
    ),
    (
        "(T₀, (T₁, float64))¹",
        "variable 1 stands for a dtype and a size in '(T₀, (T₁, float64))¹'",
    ),
    (
        "(T₀, T₁):(T¹, …)₂",
        "variable 1 stands for a type and a size in '(T₀, T₁):(T¹, …)₂'",
    ),
    (
        "L[d, n, True]",
        "not a type at column 6: 'L[d, n, True]'",
    ),
    (
        "(T¹)",
        "unknown dtype 'T' in '(T¹)'",
    ),
    (
        "(It[T¹])",
        "unknown dtype 'T' in '(It[T¹])'",
    ),
    (
        "(T¹, T²)",
        "unknown dtype 'T' in '(T¹, T²)'",
    ),
    (
        "(It[T₀¹], T₁ˢ) ⇒ T₀¹ where T₀: float",
        "variable 1 stands for a size and a dtype in '(It[T₀¹], T₁ˢ) ⇒ T₀¹ where T₀: float'",
    ),
    (
        "{f :: (T₀) → T₀, g :: T₁, name(T₀¹, It[ANYWHERE, T₂, T₃ᶜ])}",
        (
            "variable 0 stands for a type and a dtype in '{f :: (T₀) → T₀, g :: T₁, name(T₀¹, "
            "It[ANYWHERE, T₂, T₃ᶜ])}'"
        ),
    ),
    (
        "f :: (T₀¹) → T₀¹ where T₀: numeric, T₁: float",
        (
            "variable 1 stands for a size and a dtype in 'f :: (T₀¹) → T₀¹ where T₀: numeric, "
            "T₁: float'"
        ),
    ),
    (
        " ( T₀ ¹ , It [ T₁ , T₁ , T₂ ˢ ] ) → T₀ ¹ ",
        "variable 1 stands for a size and a location in ' ( T₀ ¹ , It [ T₁ , T₁ , T₂ ˢ ] ) → T₀ ¹ '",
    ),
    (
        "(T₀¹,T₁¹)→T₀¹",
        "variable 1 stands for a size and a dtype in '(T₀¹,T₁¹)→T₀¹'",
    ),
    (
        "",
        "not a type at its end: ''",
    ),
    (
        " ",
        "not a type at its end: ' '",
    ),
    (
        "(T₀¹ →",
        "not a type at its end: '(T₀¹ →'",
    ),
    (
        "(T₀¹ →  ",
        "not a type at its end: '(T₀¹ →  '",
    ),
    (
        "(T₀¹) → )",
        "not a type at column 9: '(T₀¹) → )'",
    ),
    (
        "T₀¹ x",
        "not a type at column 5: 'T₀¹ x'",
    ),
    (
        "T₀¹  x",
        "not a type at column 6: 'T₀¹  x'",
    ),
    (
        "T₀¹ wherex",
        "not a type at column 10: 'T₀¹ wherex'",
    ),
    (
        "T₀¹ wher T₀: float",
        "not a type at column 5: 'T₀¹ wher T₀: float'",
    ),
    (
        "(T¹, …₃)₀",
        "not a type at column 7: '(T¹, …₃)₀'",
    ),
    (
        "(T₀):(Tx",
        "not a type at column 8: '(T₀):(Tx'",
    ),
    (
        "(T₀):(T₀",
        "not a type at column 8: '(T₀):(T₀'",
    ),
    (
        "(T₀):(Itx[T¹], …)₀",
        "not a type at column 9: '(T₀):(Itx[T¹], …)₀'",
    ),
    (
        "(T₀):(Lx[…₀, 4, True]¹, …)",
        "not a type at column 8: '(T₀):(Lx[…₀, 4, True]¹, …)'",
    ),
    (
        "(T₀):(ItOrVal[T¹], …)₀",
        "not a type at column 9: '(T₀):(ItOrVal[T¹], …)₀'",
    ),
    (
        "(T₀):(L[T₀, 4, True]¹, …)",
        "not a type at column 9: '(T₀):(L[T₀, 4, True]¹, …)'",
    ),
    (
        "{T₀ :: T₁, f()}",
        "not a type at column 3: '{T₀ :: T₁, f()}'",
    ),
    (
        "{f : T₀, g()}",
        "not a type at column 4: '{f : T₀, g()}'",
    ),
    (
        "{f :: T₀}",
        "not a type at column 9: '{f :: T₀}'",
    ),
    (
        "It[T₂, …₃, T₀¹]",
        "not a type at column 8: 'It[T₂, …₃, T₀¹]'",
    ),
    (
        "(It[T₂, …₃, T₀¹], …)₀",
        "not a type at column 14: '(It[T₂, …₃, T₀¹], …)₀'",
    ),
    (
        "(It[T₂, …₃, T¹], T₀)₀",
        "not a type at column 18: '(It[T₂, …₃, T¹], T₀)₀'",
    ),
    (
        "(L[…₀, T₁, T₂]³)",
        "not a type at column 16: '(L[…₀, T₁, T₂]³)'",
    ),
    (
        "L[T₀, 4, Truee]¹",
        "not a type at column 14: 'L[T₀, 4, Truee]¹'",
    ),
    (
        "L[T₀, 4x, True]¹",
        "not a type at column 8: 'L[T₀, 4x, True]¹'",
    ),
    (
        "L[T₀, 4, Tru]¹",
        "not a type at column 10: 'L[T₀, 4, Tru]¹'",
    ),
    (
        "(T₀)::T₁",
        "not a type at column 6: '(T₀)::T₁'",
    ),
    (
        "():T₀",
        "not a type at column 3: '():T₀'",
    ),
    (
        "(T₀,)",
        "not a type at column 5: '(T₀,)'",
    ),
    (
        "((T₀) → T₀)¹",
        "not a type at column 12: '((T₀) → T₀)¹'",
    ),
    (
        "(T₀¹, float64)",
        "not a type at column 14: '(T₀¹, float64)'",
    ),
    (
        "(T₀¹)¹",
        "not a type at column 6: '(T₀¹)¹'",
    ),
    (
        "T ₀",
        "not a type at column 3: 'T ₀'",
    ),
    (
        "f : : T₀",
        "not a type at column 3: 'f : : T₀'",
    ),
    (
        "T₀¹ where T₀: T₁",
        "not a type at column 16: 'T₀¹ where T₀: T₁'",
    ),
    (
        "T₀¹ where T₀::float",
        "not a type at column 14: 'T₀¹ where T₀::float'",
    ),
    (
        "T₀¹ where T₀: float,",
        "not a type at its end: 'T₀¹ where T₀: float,'",
    ),
    (
        "It[It[T₀¹]¹]",
        "not a type at column 6: 'It[It[T₀¹]¹]'",
    ),
    (
        "It[ItOrVal₀[T₀¹]¹]",
        "not a type at column 11: 'It[ItOrVal₀[T₀¹]¹]'",
    ),
    (
        "T₀ ¹ ¹",
        "not a type at column 6: 'T₀ ¹ ¹'",
    ),
    (
        "T₀¹ᶜ",
        "not a type at column 4: 'T₀¹ᶜ'",
    ),
    (
        "(T¹, …)₀¹",
        "not a type at column 9: '(T¹, …)₀¹'",
    ),
    (
        "(T¹, …₀)₀",
        "not a type at column 7: '(T¹, …₀)₀'",
    ),
    (
        "(T¹, …)",
        "not a type at its end: '(T¹, …)'",
    ),
    (
        "(T¹ → T₀, …)₀",
        "not a type at column 11: '(T¹ → T₀, …)₀'",
    ),
    (
        "(T₀, …)₀",
        "not a type at column 6: '(T₀, …)₀'",
    ),
    (
        "@",
        "not a type at column 1: '@'",
    ),
    (
        "T₀¹ @",
        "not a type at column 5: 'T₀¹ @'",
    ),
    (
        "T₀\xa0¹",
        "not a type at column 3: 'T₀\\xa0¹'",
    ),
    (
        "T₀¹\n x",
        "not a type at column 2: 'T₀¹\\n x'",
    ),
    (
        "T₀¹\n\n  (",
        "not a type at column 3: 'T₀¹\\n\\n  ('",
    ),
    (
        "a\nb",
        "not a type at column 1: 'a\\nb'",
    ),
    (
        "(T₀)\n→ T₀\n)",
        "not a type at column 1: '(T₀)\\n→ T₀\\n)'",
    ),
    (
        "(T₀¹) → T₀¹ where T₀: real",
        (
            "unknown family 'real'; expected one of: float, integer, "
            "numeric in '(T₀¹) → T₀¹ where T₀: real'"
        ),
    ),
    (
        "T₀¹ → T₂",
        "a function's arguments must be a tuple in 'T₀¹ → T₂'",
    ),
    (
        "complex128⁰",
        "unknown dtype 'complex128' in 'complex128⁰'",
    ),
    (
        "(T₀¹) → T₀",
        "variable 0 stands for a dtype and a type in '(T₀¹) → T₀'",
    ),
    (
        "(T₀, T₁) : T₂ ¹",
        "variable 1 stands for a dtype and a size in '(T₀, T₁) : T₂ ¹'",
    ),
    (
        "f :: T₀ where T₀: float",
        "variable 0 stands for a type and a dtype in 'f :: T₀ where T₀: float'",
    ),
    (
        "T₀ ⇒ T₀",
        "a closure's inputs are a tuple in 'T₀ ⇒ T₀'",
    ),
    (
        "ItOrVal₀[T₀¹]",
        "variable 0 stands for a dtype and a kind in 'ItOrVal₀[T₀¹]'",
    ),
    (
        "ItOrVal₀[T₁⁰]",
        "variable 0 stands for a kind and a size in 'ItOrVal₀[T₁⁰]'",
    ),
    (
        "(It[T₀, …₀, T¹], …)₁",
        "variable 0 stands for a location and a location row in '(It[T₀, …₀, T¹], …)₁'",
    ),
    (
        "L[T₀, T₀, T₀]¹",
        "variable 0 stands for a dtype and a list length in 'L[T₀, T₀, T₀]¹'",
    ),
    (
        "It[T₀, T₀¹, T₁²]",
        "not a type at column 10: 'It[T₀, T₀¹, T₁²]'",
    ),
    (
        "(T₀) → T₁ where T₁: float",
        "variable 1 stands for a type and a dtype in '(T₀) → T₁ where T₁: float'",
    ),
    (
        "{f :: (T₀) → T₀, g :: T₁, name(T₂¹, It[ANYWHERE, T₃, T₄ᶜ])}",
        (
            "variable 1 stands for a type and a size in '{f :: (T₀) → T₀, g :: T₁, name(T₂¹, "
            "It[ANYWHERE, T₃, T₄ᶜ])}'"
        ),
    ),
]


@pytest.mark.parametrize(("text", "compact", "located"), PROJECT_READS + MADE_READS)
def test_reads_as_the_earley_reader_did_but_for_locations(
    text: str, compact: str, located: str
) -> None:
    type_ = parse_type(text)
    assert (pformat(type_), pformat(type_, locations=True)) == (compact, located)


@pytest.mark.parametrize(("text", "message"), PROJECT_ERRORS + MADE_ERRORS)
def test_says_what_the_earley_reader_said(text: str, message: str) -> None:
    with pytest.raises(TypeSyntaxError) as error:
        parse_type(text)
    assert str(error.value) == message


def _unnumbered(text: str) -> str:
    return re.sub("[₀₁₂₃₄₅₆₇₈₉⁰¹²³⁴⁵⁶⁷⁸⁹]+", "ⁿ", text)


@given(well_typed_programs)
def test_the_types_of_programs_read_back(generated: tuple[typeinf.Type, object]) -> None:
    """Read back, a type prints as before but for its numbers (a variable the notation leaves
    out, such as an `ItOrVal`'s locations, numbers the printed ones after it, and reads back as
    a fresh one numbered last); once read, it reads back to the letter."""
    program, _ = generated
    for type_ in [infer(program), *infer_all(program).values()]:  # type: ignore[arg-type]
        for located in (False, True):
            text = pformat(type_, locations=located)
            again = pformat(parse_type(text, locations=located), locations=located)
            assert _unnumbered(again) == _unnumbered(text)
            assert pformat(parse_type(again, locations=located), locations=located) == again


#: The notation's tokens and near misses, for texts that get further than random characters.
TOKENS = ["T₀", "T₁", "T", "Tx", "¹", "⁰", "ᶜ", "ˢ", "₀", "(", ")", "[", "]", "{", "}", ",", ":", "::",
          "→", "⇒", "…", "…₀", "It", "L", "ItOrVal₀", "ItOrVal", "True", "Truex", "where", "whereT₀",
          "float64", "Vertex", "4", "f", " ", "\n", "@", "\x00", "\U0001f600",
          "->", "=>", "...", "...3", "T0", "T0x", "^1", "^c", "^s", "^", "ItOrVal0", "0"]  # fmt: skip


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A type of the tables with a few characters or tokens dropped, added or changed."""
    text = draw(st.sampled_from([t for t, *_ in PROJECT_READS + MADE_READS]))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        end = draw(st.integers(at, min(len(text), at + 3)))
        text = text[:at] + draw(st.sampled_from(["", *TOKENS])) + text[end:]
    return text


@given(st.one_of(st.text(), st.lists(st.sampled_from(TOKENS)).map("".join), mutated()))
def test_any_text_reads_or_raises_a_short_type_syntax_error(text: str) -> None:
    try:
        parse_type(text)
    except TypeSyntaxError as error:
        assert len(str(error)) < 1200  # a long text is echoed by a piece of it


def test_a_long_text_is_echoed_by_the_piece_around_the_error() -> None:
    text = "(" + "T₀¹, " * 100 + "T₀¹ x" + ", T₀¹" * 100 + ")"
    at = text.index("x")
    with pytest.raises(TypeSyntaxError) as error:
        parse_type(text)
    piece = text[at - 100 : at + 100]
    where = f"characters {at - 99}–{at + 100} of {len(text)}"
    assert str(error.value) == f"not a type at column {at + 1}: {piece!r} ({where})"


def test_a_number_longer_than_python_reads_is_a_type_syntax_error() -> None:
    digits = sys.get_int_max_str_digits()
    if not digits:
        pytest.skip("this Python reads numbers of any length")
    with pytest.raises(TypeSyntaxError, match=f"^a number of {digits + 1} digits in "):
        parse_type("T" + "₁" * (digits + 1))
    with pytest.raises(TypeSyntaxError, match=f"^a list length of {digits + 1} digits in "):
        parse_type(f"L[T₀, {'9' * (digits + 1)}, True]¹")


def _in_parameters(depth: int) -> str:
    """`((…((T₀) → T₀)…) → T₀) → T₀`, nested in the parameters."""
    return "(" * (depth - 1) + "(T₀) → T₀" + ") → T₀" * (depth - 1)


def _in_result(depth: int) -> str:
    """`(T₀) → (T₀) → … → T₀`, nested in the result."""
    return "(T₀) → " * depth + "T₀"


def _in_dtypes(depth: int) -> str:
    """`((…(T₀)…))¹`: the groups are dtype tuples, known only from the size at the end."""
    return "(" * depth + "T₀" + ")" * depth + "¹"


@pytest.mark.parametrize("shape", [_in_parameters, _in_result, _in_dtypes])
@pytest.mark.parametrize("depth", [1000, 100_000])
def test_deep_types_read_and_print_back(shape: Callable[[int], str], depth: int) -> None:
    """The Earley reader this replaced took 12–16 s for a 1,000-deep type, and was superlinear:
    100,000 levels would not finish, which the generous CPU limit turns into a failure."""
    assert sys.getrecursionlimit() <= 1100  # Python's default: the reader needs no more
    text = shape(depth)
    with cpu_time_limit(60):
        assert pformat(parse_type(text)) == text


def test_a_megabyte_of_garbage_is_rejected_without_hanging() -> None:
    rnd = random.Random(0)
    for alphabet in ("".join(TOKENS) + "abcxyz0123456789 \t", "".join(map(chr, range(32, 0x2100)))):
        text = "".join(rnd.choices(alphabet, k=1_000_000))
        with cpu_time_limit(60), pytest.raises(TypeSyntaxError) as error:
            parse_type(text)
        assert len(str(error.value)) < 1200


@pytest.mark.parametrize(
    "module",
    [
        "fencil/reader",
        "core/typetokens",
        "fencil/typesyntax",
        "fencil/typeparser",
        "core/cellbuilder",
        "fencil/cellbuilder",
    ],
)
def test_the_reader_does_not_import_lark(module: str) -> None:
    """Reading a type must not pay for a parser generator (its tables took ~45 ms to build)."""
    source = Path(typeinf.__file__).parent / f"{module}.py"  # also when compiled
    tree = ast.parse(source.read_text(encoding="utf-8"))
    imported = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    imported += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert not [name for name in imported if name.split(".")[0] == "lark"]


def test_register_builtin_reads_the_ascii_spelling() -> None:
    from typeinf.fencil.signatures import BUILTINS

    typeinf.register_builtin("fma3", "(T0^1, T0^1, T0^1) -> T0^1 where T0: float")
    try:
        program = iterir.parse("λ(a, b) → fma3(·a, ·b, 1.0)")
        assert pformat(infer(program)) == "(It[float64⁰], It[float64⁰]) → float64⁰"
    finally:
        del BUILTINS["fma3"]


def test_a_deep_signature_registers_and_types_its_calls() -> None:
    """The Earley reader failed on a 1,000-deep signature with a RecursionError inside lark's
    VisitError after 12–16 s; reading, compiling and using one 10,000 deep needs no recursion."""
    from typeinf.fencil.signatures import BUILTINS

    assert sys.getrecursionlimit() <= 1100
    depth = 10_000
    typeinf.register_builtin("deep", "(T₀¹) → " * depth + "T₀¹")
    try:
        type_ = infer(iterir.parse("deep(1.0)"))
        assert pformat(type_) == "(float64⁰) → " * (depth - 1) + "float64⁰"
    finally:
        del BUILTINS["deep"]
