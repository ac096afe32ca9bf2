"""Free names: an error by default everywhere, with a suggestion when a known name is close; an
explicit opt-in (`allow_free=` / `--allow-free`) makes them unknowns; a function definition of a
fencil inferred on its own (`within=`) types its callees from the fencil."""

from __future__ import annotations

import io
import json
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import iterir
import typeinf
from iterir import FencilDefinition, SymRef
from tests.conftest import ROOT
from typeinf import check, infer, infer_all, pformat
from typeinf.fencil.signatures import BUILTINS
from typeinf.fencil.suggest import allowed_edits, distance, suggestions
from typeinf.frontends.cli import main

MISSPELLED = "λ(it) → derf(it) + sqtr(·it)"


def _error(text: str, **kwargs) -> typeinf.TypeInferenceError:
    with pytest.raises(typeinf.TypeInferenceError) as info:
        infer(iterir.parse(text, "t.itir"), **kwargs)
    return info.value


def _cli(args: list[str], stdin: str, monkeypatch, capsys) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# -- an error by default --------------------------------------------------------------------------
def test_a_misspelled_builtin_is_an_error_located_at_its_node() -> None:
    node = iterir.parse(MISSPELLED, "t.itir")
    with pytest.raises(typeinf.UnboundSymbolError) as info:
        infer(node)
    error = info.value
    callee = node.expr.args[0].fun  # type: ignore[attr-defined]  # derf(it) + …: plus(derf(it), …)
    assert error.node is callee and isinstance(callee, SymRef) and callee.id == "derf"
    assert str(error) == (
        "t.itir:1:9: error: `derf` is not defined: not a parameter, a function definition or a "
        "builtin; did you mean `deref`?"
    )
    assert error.details == [
        "if `derf` is meant to be an unknown, allow it: `--allow-free derf` "
        "(in Python: `allow_free={'derf'}`)"
    ]


def test_a_free_name_is_an_error_in_every_kind_of_program() -> None:
    for text in (
        "x",
        "λ(a) → a + x",
        "g = λ(a) → a + x;",
        "out ← (deref)(x) @ c⟨ IDim: [0, 1) ⟩;",
        "f(a, b) { g = λ(i) → x; b ← (g)(a) @ c⟨ IDim: [0, 1) ⟩; }",
    ):
        errors = check(iterir.parse(text)).errors
        assert {type(e) for e in errors} == {typeinf.UnboundSymbolError}, text
        assert errors[-1].message.startswith("`x` is not defined"), text


def test_check_reports_every_free_name_in_source_order() -> None:
    program = iterir.parse(
        "f(a, b, n) {\n"
        "  g = λ(x) → derf(x) + sqtr(·x) + derf(x);\n"
        "  h = λ(x) → ·x;\n"
        "  b ← (λ(i) → h(i) + k)(a) @ c⟨ IDim: [0, m) ⟩;\n"
        "}\n",
        "t.itir",
    )
    checked = check(program)
    assert checked.type is None
    assert [(str(e.node.loc), type(e).__name__) for e in checked.errors] == [  # type: ignore[union-attr]
        ("t.itir:2:14", "UnboundSymbolError"),  # derf: once in its definition
        ("t.itir:2:24", "UnboundSymbolError"),  # sqtr
        ("t.itir:4:22", "UnboundSymbolError"),  # k
        ("t.itir:4:43", "UnboundSymbolError"),  # m: no suggestion (`n`) for a one-letter name
    ]
    assert [e.message.rpartition("; ")[2] for e in checked.errors[:2]] == [
        "did you mean `deref`?",
        "did you mean `sqrt`?",
    ]
    assert len(check(program, max_errors=2).errors) == 2


def test_a_definition_with_a_free_name_causes_no_second_error_at_its_uses() -> None:
    checked = check(
        iterir.parse("f(a, b) { g = λ(x) → ·y; b ← (g)(a) @ c⟨ IDim: [0, 1) ⟩; }", "t.itir")
    )
    assert [e.message.split(":")[0] for e in checked.errors] == ["`y` is not defined"]


def test_other_errors_are_still_found_beside_a_free_name() -> None:
    checked = check(
        iterir.parse(
            "f(a, b, c) {\n"
            "  b ← (λ(i) → ·j)(a) @ c⟨ IDim: [0, 1) ⟩;\n"
            "  c ← (λ(i) → ·i + True)(a) @ c⟨ IDim: [0, 1) ⟩;\n"
            "}\n",
            "t.itir",
        )
    )
    assert [type(e).__name__ for e in checked.errors] == [
        "UnboundSymbolError",
        "UnsatisfiableConstraintError",
    ]


# -- suggestions ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "suggested"),
    [
        ("λ(inp) → ·imp + 1.0", "`inp`"),  # a parameter in scope
        ("λ(it) → cast_(·it, flaot64)", "`float64`"),  # a type name (a builtin)
        ("λ(it) → lfit(deref)(it)", "`lift`"),  # a builtin of the grammar… and a swap
        ("λ(it) → mak_tuple(·it, 1)", "`make_tuple`"),
        ("λ(it) → if true then ·it else 1.0", "`True`"),  # a literal's name
        ("λ(x) → ·x + ·y", None),  # one letter: never "corrected"
        ("λ(alpha) → omega", None),  # too far
        ("λ(ab, ac) → ad", "`ab` or `ac`"),  # equally near: both, alphabetically
        (
            "f(a, b) { flux = λ(x) → ·x; g = λ(x) → flx(x); b ← (g)(a) @ c⟨ IDim: [0, 1) ⟩; }",
            "`flux`",  # a function definition of the fencil
        ),
    ],
)
def test_suggestions(text: str, suggested: str | None) -> None:
    message = _error(text).message
    if suggested is None:
        assert "did you mean" not in message
    else:
        assert message.endswith(f"; did you mean {suggested}?")


def test_a_registered_builtin_is_suggested() -> None:
    registered = dict(BUILTINS)
    try:
        typeinf.register_builtin("my_fma", "(T₀¹, T₀¹, T₀¹) → T₀¹ where T₀: float")
        assert _error("λ(a) → my_fam(·a, 1.0, 2.0)").message.endswith("; did you mean `my_fma`?")
    finally:  # the builtin stays in this test
        BUILTINS.clear()
        BUILTINS.update(registered)


def test_a_fencils_parameters_are_suggested_in_its_closures_only() -> None:
    closure = "f(inp, out) { out ← (deref)(inpt) @ c⟨ IDim: [0, 1) ⟩; }"
    assert _error(closure).message.endswith("; did you mean `inp`?")
    definition = "f(inp, out) { g = λ(x) → inpt; out ← (g)(inp) @ c⟨ IDim: [0, 1) ⟩; }"
    assert "did you mean" not in _error(definition).message


def test_the_suggested_names_are_deterministic() -> None:
    known = ["bc", "ab", "ac", "ad", "ae"]
    assert suggestions("aa", known) == ("ab", "ac", "ad")  # at most 3, alphabetically
    assert suggestions("aa", list(reversed(known))) == ("ab", "ac", "ad")
    assert suggestions("sqtr", BUILTINS) == ("sqrt",)
    assert suggestions("x", ["y", "xy"]) == ()


def test_the_allowed_edits_grow_with_the_name() -> None:
    assert [allowed_edits("a" * n) for n in range(1, 13)] == [0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4]


def _reference(a: str, b: str) -> int:
    """The optimal string alignment distance by its recursive definition (short strings)."""
    if not a or not b:
        return len(a) + len(b)
    best = min(
        _reference(a[:-1], b) + 1,
        _reference(a, b[:-1]) + 1,
        _reference(a[:-1], b[:-1]) + (a[-1] != b[-1]),
    )
    if len(a) > 1 and len(b) > 1 and a[-1] == b[-2] and a[-2] == b[-1]:
        best = min(best, _reference(a[:-2], b[:-2]) + 1)
    return best


words = st.text(alphabet="abcd", max_size=6)


@given(words, words, st.integers(0, 7))
def test_the_distance_is_the_optimal_string_alignment_distance_up_to_its_bound(
    a: str, b: str, bound: int
) -> None:
    assert distance(a, b, bound) == min(_reference(a, b), bound + 1)
    assert distance(a, b, bound) == distance(b, a, bound)


def test_distance_examples() -> None:
    assert distance("derf", "deref", 5) == 1  # an insertion
    assert distance("sqtr", "sqrt", 5) == 1  # a swap
    assert distance("kitten", "sitting", 5) == 3
    assert distance("kitten", "sitting", 2) == 3  # past the bound: bound + 1


# -- the opt-in -----------------------------------------------------------------------------------
def test_allowed_free_names_are_unknowns_shared_by_their_uses() -> None:
    node = iterir.parse("λ(a) → x + ·a")
    assert pformat(infer(node, allow_free={"x"})) == "(It[T₀¹]) → T₀¹ where T₀: numeric"
    assert pformat(infer(node, allow_free=["x", "unused"])) == pformat(infer(node, allow_free=True))
    assert pformat(infer(iterir.parse("{x, x + 1}"), allow_free=True)) == "(int32, int32)⁰"


def test_only_the_allowed_names_are_unknowns() -> None:
    error = _error("x + y", allow_free={"x"})
    assert error.message.startswith("`y` is not defined")
    assert pformat(infer(iterir.parse("x + y"), allow_free={"x", "y"})) == "T₀¹ where T₀: numeric"


@pytest.mark.parametrize("bad", ["x", 1, [1], None])
def test_allow_free_takes_a_collection_of_names_or_a_bool(bad: object) -> None:
    with pytest.raises(TypeError, match="allow_free takes True, False or a set of names"):
        infer(iterir.parse("x"), allow_free=bad)  # type: ignore[arg-type]


def test_infer_all_and_check_take_allow_free() -> None:
    node = iterir.parse("λ(a) → ·a + k")
    types = infer_all(node, allow_free={"k"})
    assert pformat(types[id(node)]) == "(It[T₀¹]) → T₀¹ where T₀: numeric"
    checked = check(node, allow_free={"k"})
    assert checked.errors == [] and checked.type is not None
    assert [type(e) for e in check(node).errors] == [typeinf.UnboundSymbolError]


def test_allowed_free_names_in_a_fencil_stand_in_closures_not_in_definitions() -> None:
    closure = "f(inp, out) { out ← (λ(x) → ·x + k)(inp) @ c⟨ IDim: [0, n) ⟩; }"
    type_ = infer(iterir.parse(closure), allow_free={"k", "n"})
    assert pformat(type_) == "{f(It[T₀ᶜ], It[T₀ᶜ])} where T₀: numeric"
    assert pformat(type_, locations=True) == (
        "{f(It[ANYWHERE, T₁, T₀ᶜ], It[ANYWHERE, T₁, T₀ᶜ])} where T₀: numeric"
    )
    definition = "f(inp, out) { g = λ(x) → ·x + k; out ← (g)(inp) @ c⟨ IDim: [0, 1) ⟩; }"
    error = _error(definition, allow_free=True)
    assert type(error) is typeinf.UnboundSymbolError
    assert str(error) == (
        "t.itir:1:31: error: `k` is allowed to be free, but a function definition of a fencil "
        "cannot use an unknown (its type is generalized, the unknown's would not be): make `k` a "
        "parameter"
    )


# -- the command line -----------------------------------------------------------------------------
def test_the_command_line_reports_misspelled_builtins(monkeypatch, capsys) -> None:
    code, out, err = _cli(["infer", "-"], MISSPELLED + "\n", monkeypatch, capsys)
    assert code == 1 and out == ""
    assert "<stdin>:1:9: error: `derf` is not defined" in err
    assert "<stdin>:1:20: error: `sqtr` is not defined" in err
    assert err.endswith("<stdin>: 2 type errors\n")


@pytest.mark.parametrize(
    "allow", [["--allow-free", "derf,sqtr"], ["--allow-free", "derf", "--allow-free", "sqtr"]]
)
def test_allow_free_on_the_command_line(allow: list[str], monkeypatch, capsys) -> None:
    code, out, err = _cli(["infer", *allow, "-"], MISSPELLED, monkeypatch, capsys)
    assert (code, out, err) == (0, "(It[T₀¹]) → T₂³ where T₂: numeric\n", "")


def test_allow_free_on_the_command_line_names_only_what_it_allows(monkeypatch, capsys) -> None:
    code, _, err = _cli(["infer", "-", "--allow-free", "derf"], MISSPELLED, monkeypatch, capsys)
    assert code == 1 and "`derf`" not in err and "<stdin>: 1 type error\n" in err


@pytest.mark.parametrize("value", ["", "x,", ",x", "x,,y"])
def test_an_empty_name_to_allow_is_a_usage_error(value: str, monkeypatch, capsys) -> None:
    with pytest.raises(SystemExit) as info:
        _cli(["infer", "--allow-free", value, "-"], "x", monkeypatch, capsys)
    assert info.value.code == 2
    assert "argument --allow-free: expected NAME or NAME,NAME,…" in capsys.readouterr().err


def test_json_diagnostics_carry_the_free_names(monkeypatch, capsys) -> None:
    code, out, _ = _cli(["infer", "--json", "-"], MISSPELLED, monkeypatch, capsys)
    assert code == 1
    diagnostics = json.loads(out)["files"][0]["diagnostics"]
    assert [
        (d["kind"], d["span"]["column"], d["summary"].rpartition("; ")[2]) for d in diagnostics
    ] == [
        ("UnboundSymbolError", 9, "did you mean `deref`?"),
        ("UnboundSymbolError", 20, "did you mean `sqrt`?"),
    ]
    assert diagnostics[0]["node"] == "derf"
    assert diagnostics[0]["details"][0].startswith("if `derf` is meant to be an unknown")


def test_explain_takes_allow_free(tmp_path, monkeypatch, capsys) -> None:
    path = tmp_path / "t.itir"
    path.write_text("λ(a) → ·a + k\n", encoding="utf-8")
    assert main(["explain", f"{path}:1:13"]) == 1
    assert "`k` is not defined" in capsys.readouterr().err
    assert main(["explain", f"{path}:1:13", "--allow-free", "k"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{path}:1:13: k\n  :: T₀¹ where T₀: numeric\n")


# -- a definition of a fencil on its own ----------------------------------------------------------
def test_a_definition_inferred_alone_names_its_callee_and_how_to_give_its_fencil() -> None:
    hdiff = iterir.load(ROOT / "examples" / "hdiff.itir")
    flux_i = hdiff.function_definitions[1]
    with pytest.raises(typeinf.UnboundSymbolError) as info:
        infer(flux_i)
    assert info.value.message.startswith("`laplacian` is not defined")
    assert info.value.details[-1] == (
        "if it is a function definition of the same fencil, infer this one within it: "
        "`infer(definition, within=fencil)`"
    )
    assert pformat(infer(flux_i, within=hdiff)) == "flux_i :: (It[float64⁰]) → float64⁰"


_EXAMPLES = [
    ("hdiff", None),
    ("laplacian", None),
    ("column_sum", None),
    ("tridiagonal", None),
    ("nabla", "nabla.offsets.json"),
    ("edge_sum", "edge_sum.offsets.json"),
]


@pytest.mark.parametrize(("name", "provider"), _EXAMPLES)
def test_every_definition_within_its_fencil_has_its_type_in_the_fencil(
    name: str, provider: str | None
) -> None:
    fencil = iterir.load(ROOT / "examples" / f"{name}.itir")
    assert isinstance(fencil, FencilDefinition)
    offsets = (
        None
        if provider is None
        else json.loads((ROOT / "examples" / provider).read_text(encoding="utf-8"))
    )
    whole = infer(fencil, offsets)
    for definition, in_fencil in zip(fencil.function_definitions, whole.definitions, strict=True):  # type: ignore[attr-defined]
        alone = infer(definition, offsets, within=fencil)
        assert pformat(alone, locations=True) == pformat(in_fencil, locations=True)


def test_within_types_only_the_definitions_called() -> None:
    fencil = iterir.parse(
        "f(a, b) {\n"
        "  bad = λ(x) → ·x + True + 1;\n"  # an error, but `g` does not reach it
        "  h = λ(x) → ·x;\n"
        "  g = λ(x) → h(x) + 1.0;\n"
        "  b ← (g)(a) @ c⟨ IDim: [0, 1) ⟩;\n"
        "}\n",
        "t.itir",
    )
    assert isinstance(fencil, FencilDefinition)
    g = fencil.function_definitions[2]
    assert pformat(infer(g, within=fencil)) == "g :: (It[float64⁰]) → float64⁰"
    checked = check(g, within=fencil)
    assert checked.errors == [] and pformat(checked.type) == "g :: (It[float64⁰]) → float64⁰"  # type: ignore[arg-type]
    types = infer_all(g, within=fencil)
    h = fencil.function_definitions[1]
    assert pformat(types[id(h)]) == "h :: (It[T₀¹]) → T₀¹"  # the callee's nodes are typed too
    assert id(fencil.function_definitions[0]) not in types
    bad = fencil.function_definitions[0]
    assert [str(e.node.loc) for e in check(bad, within=fencil).errors] == ["t.itir:2:21"]  # type: ignore[union-attr]


def test_within_finds_an_equal_definition_and_refuses_others() -> None:
    text = "f(a, b) { h = λ(x) → ·x; g = λ(x) → h(x); b ← (g)(a) @ c⟨ IDim: [0, 1) ⟩; }"
    fencil = iterir.parse(text)
    copy = iterir.parse(text)
    assert isinstance(fencil, FencilDefinition) and isinstance(copy, FencilDefinition)
    g = copy.function_definitions[1]
    assert pformat(infer(g, within=fencil)) == "g :: (It[T₀¹]) → T₀¹"
    with pytest.raises(ValueError, match="one of the function definitions of `f` \\(h, g\\)"):
        infer(iterir.parse("k = λ(x) → x;"), within=fencil)
    with pytest.raises(ValueError, match="one of the function definitions of `f`"):
        infer(fencil.closures[0], within=fencil)
    with pytest.raises(TypeError, match="`within` takes a FencilDefinition, not a Lambda"):
        infer(g, within=iterir.parse("λ(x) → x"))


def test_a_misspelled_callee_within_a_fencil_is_suggested_from_all_its_definitions() -> None:
    fencil = iterir.parse(
        "f(a, b) { lap = λ(x) → ·x; g = λ(x) → lpa(x); b ← (g)(a) @ c⟨ IDim: [0, 1) ⟩; }"
    )
    assert isinstance(fencil, FencilDefinition)
    with pytest.raises(typeinf.UnboundSymbolError, match="did you mean `lap`\\?"):
        infer(fencil.function_definitions[1], within=fencil)
