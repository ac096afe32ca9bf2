"""GTIR shapes GT4Py's own tests build, each a rule our inference once lacked (found by running
GT4Py 1.2's test suite with our drop-in installed): program text → its type, read as text and
as JSON. `tests/with_gt4py/test_gt4py_shapes.py` types the same programs with GT4Py's inference
and ours through the drop-in, and checks they agree."""

from __future__ import annotations

import json

import pytest

import iterir
import typeinf
from iterir.gtir_types import Dimension
from iterir.offset_types import NeighborConnectivityType
from typeinf import TypeInferenceError

V2E = NeighborConnectivityType(
    (Dimension("Vertex"), Dimension("V2E", "local")), Dimension("Edge"), None, "int32", 4
)
E2V = NeighborConnectivityType(
    (Dimension("Edge"), Dimension("E2V", "local")), Dimension("Vertex"), None, "int32", 2
)
#: The offset provider of every row (GT4Py's offset-provider types).
PROVIDER = {"V2E": V2E, "E2V": E2V}
VERTICES = "u⟨ Vertexₕ: [0, 5[ ⟩"
SPARSE = "(inp: Field[[Vertexₕ, V2Eₗ], i32])"

#: (rule, where GT4Py's tests build the shape, expression, its type)
SHAPES = [
    (
        "a local dimension in an input: the domain deduced without it",
        "ffront_tests/test_external_local_field.py::test_external_local_field",
        "(⇑(λ(a, b) → reduce(plus, 0)(map_list(multiplies)(·a, ·b))))("
        f"{SPARSE}, (⇑(λ(it) → neighbors(V2Eₒ, it)))((ones: Field[[Edgeₕ], i32])))",
        "Field[[Vertex], int32]",
    ),
    (
        "a local dimension in an input: `deref` gives a list",
        "ffront_tests/test_external_local_field.py::test_index_external_local_field",
        f"(⇑(λ(it) → list_get(0, ·it)))({SPARSE})",
        "Field[[Vertex], int32]",
    ),
    (
        "a local dimension in an input: a list mapped",
        "ffront_tests/test_external_local_field.py::test_index_external_local_field_with_cast",
        f"(⇑(λ(x) → map_list(λ(v) → cast_(v, int64))(·x)))({SPARSE})",
        "Field[[Vertex], List[int64, V2Eₗ]]",
    ),
    (
        "a local dimension in an input: over a domain without it",
        "ffront_tests/test_external_local_field.py::test_write_local_field",
        f"as_fieldop(λ(x) → ·x, {VERTICES})({SPARSE})",
        "Field[[Vertex], List[int32, V2Eₗ]]",
    ),
    (
        "an integer less than an axis",
        "ffront_tests/test_concat_where.py::test_dimension_two_conditions_and",
        "concat_where(0 < KDimᵥ ∧ KDimᵥ < (n: i32) - 1, (a: Field[[KDimᵥ], i32]), "
        "(b: Field[[KDimᵥ], i32]))",
        "Field[[KDimᵥ], int32]",
    ),
    (
        "an integer at most an axis",
        "ffront_tests/test_concat_where.py::test_nested_conditions_with_empty_branches",
        "concat_where(1 <= IDimₕ ∧ IDimₕ < (n: i32) - 1, (a: Field[[IDimₕ], i32]), "
        "(b: Field[[IDimₕ], i32]))",
        "Field[[IDim], int32]",
    ),
    (
        "an integer equal to an axis",
        "ffront_tests/test_concat_where.py",
        "concat_where((n: i32) == IDimₕ, (a: Field[[IDimₕ], i32]), 0)",
        "Field[[IDim], int32]",
    ),
    (
        "xor_ of two domains",
        "GT4Py's type synthesizer of the logical builtins",
        "concat_where(xor_(IDimₕ < 2, KDimᵥ > 3), (a: Field[[IDimₕ], i32]), 0)",
        "Field[[IDim, KDimᵥ], int32]",
    ),
    (
        "a reduction nested over two connectivities",
        "ffront_tests/test_reductions.py::test_nested_reduction",
        "as_fieldop(λ(a) → reduce(plus, 0)(neighbors(V2Eₒ, "
        f"(↑(λ(b) → reduce(plus, 0)(neighbors(E2Vₒ, b))))(a))), {VERTICES})"
        "((a: Field[[Vertexₕ], i32]))",
        "Field[[Vertex], int32]",
    ),
    (
        "a staggered dimension orders by its twin's name",
        "ffront_tests/test_staggered.py::test_cartesian_half_shift_multi_dim",
        "as_fieldop(λ(it) → ·⟪_StaggeredIDimₕ→IDimₕ, 0ₒ⟫(it), "
        "c⟨ _StaggeredIDimₕ: [0, 5[, JDimₕ: [0, 5[ ⟩)((a: Field[[IDimₕ, JDimₕ], i32]))",
        "Field[[_StaggeredIDim, JDim], int32]",
    ),
    (
        "a half shift, the domain deduced",
        "ffront_tests/test_staggered.py",
        "(⇑(λ(it) → ·⟪_StaggeredIDimₕ→IDimₕ, 0ₒ⟫(it)))((a: Field[[IDimₕ, JDimₕ], i32]))",
        "Field[[_StaggeredIDim, JDim], int32]",
    ),
    (
        "power of a float by an integer: of the base's type",
        "a weather model's dynamical core (calculate_divdamp_fields); GT4Py's `power` synthesizer",
        "(⇑(λ(a) → power(·a, 2)))((a: Field[[KDimᵥ], f64]))",
        "Field[[KDimᵥ], float64]",
    ),
    (
        "if_ of a constant list and a list along a local dimension: promoted",
        "GT4Py 1.2.3's list promotion in `if_` (type_info.promote)",
        "as_fieldop(λ(it) → reduce(plus, 0.0)(if_((c: bool), make_const_list(1.0), "
        f"neighbors(V2Eₒ, it))), {VERTICES})((e: Field[[Edgeₕ], f64]))",
        "Field[[Vertex], float64]",
    ),
    (
        "if_ of a field with a local dimension and a field of lists along it",
        "dace_tests/test_gtir_to_sdfg.py::test_gtir_reduce_with_cond_neighbors (GT4Py 1.2.1)",
        "if_((c: bool), (a: Field[[Vertexₕ, V2Eₗ], f64]), "
        "as_fieldop(λ(it) → neighbors(V2Eₒ, it), u⟨ Vertexₕ: [0, 5[ ⟩)((e: Field[[Edgeₕ], f64])))",
        "Field[[Vertex, V2Eₗ], float64]",
    ),
    (
        "concat_where of a field of lists and one of constant lists: promoted",
        "GT4Py 1.2.3's list promotion in `concat_where` (type_info.promote)",
        "concat_where(IDimₕ < 2, (a: Field[[IDimₕ], List[f64, V2Eₗ]]), "
        "(b: Field[[IDimₕ], List[f64]]))",
        "Field[[IDim], List[float64, V2Eₗ]]",
    ),
    (
        "a vertical field next to a 2-D one",
        "a weather model's dynamical core (apply_4th_order_divergence_damping)",
        "(λ(k, e) → (⇑(λ(a, b) → ·a × ·b))(k, e))((k: Field[[KDimᵥ], f64]), "
        "(e: Field[[Edgeₕ, KDimᵥ], f64]))",
        "Field[[Edge, KDimᵥ], float64]",
    ),
]

IDS = [rule for rule, *_ in SHAPES]


@pytest.mark.parametrize(("rule", "origin", "text", "expected"), SHAPES, ids=IDS)
def test_the_text_types(rule: str, origin: str, text: str, expected: str) -> None:
    assert str(typeinf.infer(iterir.parse(text), PROVIDER)) == expected


@pytest.mark.parametrize(("rule", "origin", "text", "expected"), SHAPES, ids=IDS)
def test_the_json_types(rule: str, origin: str, text: str, expected: str) -> None:
    document = json.dumps(iterir.to_json(iterir.parse(text)))
    assert str(typeinf.infer(iterir.from_json(json.loads(document)), PROVIDER)) == expected


#: (what goes wrong, expression, the error's message): the messages say what differs.
MESSAGES = [
    (
        "a lambda given too few arguments",
        "(λ(a, b) → a)((x: i32))",
        "`λ(a, b) → a` takes 2 arguments, but is given 1",
    ),
    (
        "a builtin given too many arguments",
        "if_(True, (x: i32), 1, 2)",
        "`if_` takes 3 arguments, but is given 4",
    ),
    (
        "a function definition given too few arguments",
        "program p(a: Field[[IDimₕ], f64], out: Field[[IDimₕ], f64]) { f = λ(x, y) → x; "
        "out @ c⟨ IDimₕ: [0, 5[ ⟩ ← f(a); }",
        "`f` takes 2 arguments, but is given 1",
    ),
    (
        "a dimension missing, in words",
        "if_((c: bool), (a: Field[[IDimₕ, KDimᵥ], f64]), (b: Field[[IDimₕ], f64]))",
        "`if_` takes `(bool, T₀, T₀) → T₀`, not `(bool, Field[[IDim, KDimᵥ], float64], "
        "Field[[IDim], float64]) → T₁`: KDimᵥ is missing",
    ),
    (
        "a relation that cannot hold says which dimension is extra",
        "as_fieldop(λ(it) → ·it, u⟨ Vertexₕ: [0, 5[ ⟩)((e: Field[[Edgeₕ], f64]))",
        "`[Edge] ⊆ [Vertex]` cannot hold: [Edge] not in [Vertex]",
    ),
]


@pytest.mark.parametrize(("what", "text", "message"), MESSAGES, ids=[w for w, *_ in MESSAGES])
def test_the_message_says_what_differs(what: str, text: str, message: str) -> None:
    with pytest.raises(TypeInferenceError) as raised:
        typeinf.infer(iterir.parse(text), PROVIDER)
    assert raised.value.message == message


def test_a_long_mismatch_keeps_where_the_types_differ() -> None:
    """The two sides share a long start; it is cut, and the dimension where they differ stays."""
    fields = ", ".join("Field[[IDimₕ], f64]" for _ in range(12))
    text = (
        f"program p(a: Field[[IDimₕ], f64], b: Field[[IDimₕ, KDimᵥ], f64], "
        f"out: tuple[{fields}, Field[[IDimₕ], f64]]) {{ "
        f"out @ c⟨ IDimₕ: [0, 5[ ⟩ ← {{{', '.join('a' for _ in range(12))}, b}}; }}"
    )
    with pytest.raises(TypeInferenceError) as raised:
        typeinf.infer(iterir.parse(text))
    shown = str(raised.value)
    assert "alike)…" in shown and "Field[[IDim, KDimᵥ], float64]]`" in shown, shown
    assert shown.endswith(": KDimᵥ is extra")
