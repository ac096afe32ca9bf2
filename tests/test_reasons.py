"""The reasons an error or `explain` gives are the constraints on the path that joined the two
sides (`typeinf.core.history`), not every constraint that touched a type of the same class: one
test per kind of error asserts the set of notes, and the cut says how many it left out."""

from __future__ import annotations

import pytest

import iterir
import typeinf
from tests.test_diagnostics import PROVIDER
from typeinf.core.constraints import Argument
from typeinf.core.diagnostics import MAX_REASONS
from typeinf.core.offsets import read_offsets
from typeinf.fencil.conflict_records import Conflict, Note
from typeinf.fencil.messages import unsatisfiable
from typeinf.frontends.cli import main
from typeinf.frontends.explain import innermost_at, why


def notes(text: str, provider: dict[str, object] | None = None) -> set[str]:
    """The notes of the one error of `text`, each with where it is."""
    with pytest.raises(typeinf.TypeInferenceError) as info:
        typeinf.infer(iterir.parse(text), provider)
    return {f"{words} at {node.loc.line}:{node.loc.column}" for words, node in info.value.notes}  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "provider", "expected"),
    [
        pytest.param(
            # The annotation is the source of `int32`; the domain's bound `0`, also an `int32`,
            # has nothing to do with it.
            "f(inp: It[float64], out: It[int32], n) {\n"
            "  out ← (λ(it) → ·it + 1.0)(inp) @ c⟨ IDim: [0, n) ⟩;\n}\n",
            None,
            {
                "`int32` comes from the annotation of `out` at 1:21",
                "`int32` comes from the closure's output, which is written through a column iterator at 2:3",
                "`float64` comes from the second argument of `plus` at 2:24",
            },
            id="closure stencil: an annotated output",
        ),
        pytest.param(
            "f(inp: It[float64], out, n) {\n  out ← (λ(it) → it)(inp) @ c⟨ IDim: [0, n) ⟩;\n}\n",
            None,
            {
                "`Iterator` comes from the annotation of `inp` at 1:3",
                "`Iterator` comes from the first input of the closure at 2:22",
            },
            id="closure stencil: an annotated input",
        ),
        pytest.param(
            "1 + True",
            None,
            {"`int32` comes from the first argument of `plus` at 1:1"},
            id="argument: a literal",
        ),
        pytest.param(
            "λ(f) → {f(1), f(True)}",
            None,
            {"`f` is `(int32⁰) → T₂` because of the call of `f` with 1 argument at 1:9"},
            id="argument: the callee's type",
        ),
        pytest.param(
            "λ(x) → ·⟪V2Eₒ, 0ₒ⟫(x) + ·x",
            PROVIDER,
            {
                "this is `It[Vertex, Edge, T₃⁴]` because of the first argument of `⟪V2Eₒ, 0ₒ⟫` at 1:20",
                "`Vertex` comes from the shift by `V2E`, which starts from a Vertex at 1:9",
                "`Edge` comes from the first argument of `deref` at 1:9",
            },
            id="argument: locations, one side joined within the failing constraint",
        ),
        pytest.param(
            "λ(x: Val[float64]) → x + 1",
            None,
            {
                "`float64` comes from the annotation of `x` at 1:3",
                "`float64` comes from the first argument of `plus` at 1:22",
            },
            id="argument: an annotated parameter",
        ),
        pytest.param(
            "f(a, b, c, n) {\n  k = λ(z) → sqrt(·z) + 1;\n  b ← (k)(a) @ c⟨ IDim: [0, n) ⟩;\n}\n",
            None,
            {"`T₀` comes from the first argument of `plus` at 2:14"},
            id="argument: a family from another builtin",
        ),
        pytest.param(
            "f(a, out: Val[float64], n) {\n  out ← (deref)(a) @ c⟨ IDim: [0, n) ⟩;\n}\n",
            None,
            {"this is `float64¹` because of the annotation of `out` at 1:6"},
            id="closure output",
        ),
        pytest.param(
            "f(a, out, n: It[float64]) {\n  out ← (deref)(a) @ c⟨ IDim: [0, n) ⟩;\n}\n",
            None,
            {
                "this is `It[float64⁰]` because of the annotation of `n` at 1:11",
                "`int32` comes from the second argument of `named_range` at 2:32",
            },
            id="argument: a bound of another type than the other bound",
        ),
        pytest.param(
            "λ(a: Val[float64]) → cartesian_domain(a)",
            None,
            {"this is `float64⁰` because of the annotation of `a` at 1:3"},
            id="domain range",
        ),
        pytest.param(
            "λ(it: It[float64]) → cast_(it, int32)",
            None,
            {"this is `It[float64²]` because of the annotation of `it` at 1:3"},
            id="cast operand",
        ),
        pytest.param(
            "λ(a: Val[float64]) → tuple_get(0, a)",
            None,
            {"this is `float64⁴` because of the annotation of `a` at 1:3"},
            id="tuple_get operand",
        ),
        pytest.param(
            "λ(a) → {·a, 1.0} + 1",
            None,
            set(),
            id="argument: nothing joined either side",
        ),
    ],
)
def test_the_notes_of_each_kind_of_error_are_on_the_path(
    text: str, provider: dict[str, object] | None, expected: set[str]
) -> None:
    assert notes(text, provider) == expected


def test_an_error_names_no_constraint_of_another_definition() -> None:
    # Every `int32` of the program is one shared constant: the second error's notes once
    # listed the first definition's constraints (line 2) instead of its own.
    text = (
        "f(a, b, n) {\n  g = λ(x) → ·x + 1 + True;\n  h = λ(y) → ·y + 1 + True;\n"
        "  b ← (λ(i) → ·i)(a) @ c⟨ IDim: [0, n) ⟩;\n}\n"
    )
    errors = typeinf.check(iterir.parse(text)).errors
    assert [{node.loc.line for _, node in e.notes} for e in errors] == [{2}, {3}]  # type: ignore[union-attr]


def explained(text: str, line: int, column: int) -> list[str]:
    root = iterir.parse(text)
    target = innermost_at(root, line, column)
    assert target is not None
    result = why(root, target, read_offsets(None))
    return [f"{type(r).__name__} {n.loc.line}:{n.loc.column}" for r, n in result.reasons]  # type: ignore[union-attr]


def test_explain_a_domain_bound_names_only_its_range() -> None:
    # The `0` is an `int32`, like `·it` and `1` in the stencil: they are no reasons of its type.
    text = "f(inp, out, n) {\n  out ← (λ(it) → ·it + 1)(inp) @ c⟨ IDim: [0, n) ⟩;\n}\n"
    assert explained(text, 2, 44) == ["Argument 2:44"]


def test_explain_a_stencil_part_names_the_constraints_inside_it() -> None:
    text = "f(inp, out, n) {\n  out ← (λ(it) → ·it + 1)(inp) @ c⟨ IDim: [0, n) ⟩;\n}\n"
    assert explained(text, 2, 18) == [
        "Argument 2:19",
        "Argument 2:18",
        "Argument 2:24",
        "ClosureStencil 2:10",
    ]


def test_explain_says_how_many_reasons_it_left_out(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.conftest import ROOT

    root = iterir.parse((ROOT / "examples/hdiff.itir").read_text(encoding="utf-8"))
    target = innermost_at(root, 5, 3)
    assert target is not None
    result = why(root, target, read_offsets(None))
    assert len(result.reasons) == MAX_REASONS and result.more == 2
    assert main(["explain", str(ROOT / "examples/hdiff.itir:5:3")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 + MAX_REASONS + 1 and out[-1] == "  …and 2 more"


def test_an_error_says_how_many_notes_it_left_out() -> None:
    node = iterir.parse("λ(a) → ·a")
    uses = [iterir.parse(f"x{i}") for i in range(MAX_REASONS + 3)]
    reason = Argument(0, node, 0)
    conflict = Conflict(
        reason,
        node,
        "int32⁰",
        "bool¹",
        "int32",
        "bool",
        "constants",
        "",
        tuple(Note("part", "int32", reason, use) for use in uses),
    )
    error = unsatisfiable(conflict)
    assert len(error.notes) == MAX_REASONS + 1
    assert error.notes[-1] == ("…and 3 more, the next", uses[MAX_REASONS])
