"""GT4Py's printed GTIR (`str(program)`, what its users paste and its logs show) types as it is:
GT4Py's text writes no name's type, so a program's untyped parameter, and an expression's free
name where free names are allowed, gets the most general type its uses allow. On every vendored
sample the text types, and the types GT4Py's JSON form gives the parameters are an instance of
what the text's inference found: unified with it, every relation still holds."""

from __future__ import annotations

import pytest

import iterir
import typeinf
from iterir.nodes import Program
from iterir.offset_types import offset_types_from_json
from iterir.traversal import child_positions
from tests.test_gtir_samples import SAMPLES
from typeinf.core.unify import unify
from typeinf.gtir.collect import GtirInference
from typeinf.gtir.structured import value_from_gt4py
from typeinf.gtir.values import to_cell

IDS = [s["id"] for s in SAMPLES]


@pytest.mark.parametrize("sample", SAMPLES, ids=IDS)
def test_gt4pys_printed_text_types_and_its_typed_form_is_an_instance(sample: dict) -> None:
    offsets = offset_types_from_json(sample["offset_provider_type"])
    untyped = iterir.parse(sample["text"], sample["id"])
    typeinf.infer(untyped, offsets, allow_free=True)
    typed = iterir.from_json(sample["ir"])
    if not isinstance(typed, Program):
        return  # an expression: its free names' types are in its JSON's references only
    assert isinstance(untyped, Program)
    inference = GtirInference(untyped, offsets, allow_free=True)
    assert not inference.errors
    positions = child_positions(inference.sizes, 0, untyped.child_count())
    first = len(untyped.function_definitions)
    for param, position in zip(typed.params, positions[first:], strict=False):
        assert param.type is not None  # GTIR's JSON types every parameter
        for undecided in unify(
            to_cell(value_from_gt4py(param.type)), inference.type_at(position), []
        ):
            raise AssertionError(f"{param.id}: {undecided}")
    inference.solver.fire_open()  # the relations, now with the given types: each still holds


def test_an_untyped_parameter_gets_its_own_variables_and_the_relations_on_them() -> None:
    text = (
        "p(a, b, out) {\n"
        "  out @ c⟨ IDimₕ: [0, 5[ ⟩ ← as_fieldop(λ(x, y) → ·x + ·y, c⟨ IDimₕ: [0, 5[ ⟩)(a, b);\n"
        "}\n"
    )
    assert str(typeinf.infer(iterir.parse(text))) == (
        "{p(T₀, T₁, T₂) where T₃: numeric, T₂ = Field[[IDim], T₃], "
        "It[D₄, D₅, T₃] = lift(T₀, [IDim]), It[D₆, D₇, T₃] = lift(T₁, [IDim])}"
    )


def test_typed_parameters_stay_as_they_are_beside_untyped_ones() -> None:
    text = "p(a: Field[[IDimₕ], f64], b, out) {\n  out @ c⟨ IDimₕ: [0, 5[ ⟩ ← a;\n}\n"
    assert str(typeinf.infer(iterir.parse(text))) == (
        "{p(Field[[IDim], float64], T₀, Field[[IDim], float64])}"
    )


def test_a_free_name_of_an_expression_is_an_unknown_only_where_allowed() -> None:
    text = "as_fieldop(λ(x) → ·x, c⟨ IDimₕ: [0, 5[ ⟩)(a)"
    assert str(typeinf.infer(iterir.parse(text), allow_free=True)) == "T₀"
    with pytest.raises(typeinf.TypeInferenceError, match="allow it to be free"):
        typeinf.infer(iterir.parse(text + " + (x: i32)"))
