"""Every kind of type error has its own message, with its location, the source line and the
reasons behind it; the full text is pinned (messages are deterministic)."""

from __future__ import annotations

import json
import traceback

import pytest

import iterir
import typeinf
from iterir.builders import call, deref, lam
from typeinf.frontends.cli import main

PROVIDER = {
    "V2E": {
        "type": "Connectivity",
        "origin": "Vertex",
        "neighbor": "Edge",
        "max_neighbors": 4,
        "has_skip_values": False,
    },
    "I": {"type": "Dimension", "value": "IDim"},
}


@pytest.mark.parametrize(
    ("text", "with_provider", "expected"),
    [
        pytest.param(
            "f(a, b) {\n  b ← (λ(x) → x)(a) @ c⟨ IDim: [0, y) ⟩;\n}\n",
            False,
            "t.itir:2:36: error: `y` is not defined: not a parameter, a function definition or a builtin\n      b ← (λ(x) → x)(a) @ c⟨ IDim: [0, y) ⟩;\n                                       ^\n  if `y` is meant to be an unknown, allow it: `--allow-free y` (in Python: `allow_free={'y'}`)\nt.itir: 1 type error\n",
            id="unbound symbol",
        ),
        pytest.param(
            "λ(it) → derf(it) + sqtr(·it)",
            False,
            "t.itir:1:9: error: `derf` is not defined: not a parameter, a function definition or a builtin; did you mean `deref`?\n    λ(it) → derf(it) + sqtr(·it)\n            ^^^^\n  if `derf` is meant to be an unknown, allow it: `--allow-free derf` (in Python: `allow_free={'derf'}`)\n"
            "t.itir:1:20: error: `sqtr` is not defined: not a parameter, a function definition or a builtin; did you mean `sqrt`?\n    λ(it) → derf(it) + sqtr(·it)\n                       ^^^^\n  if `sqtr` is meant to be an unknown, allow it: `--allow-free sqtr` (in Python: `allow_free={'sqtr'}`)\nt.itir: 2 type errors\n",
            id="misspelled builtins",
        ),
        pytest.param(
            "f(a, b) {\n  g = λ(x) → h(x);\n  h = λ(y) → g(y);\n  b ← (g)(a) @ c⟨ IDim: [0, 1) ⟩;\n}\n",
            False,
            "t.itir:3:14: error: recursion is not allowed: g → h → g\n      h = λ(y) → g(y);\n                 ^\nt.itir: 1 type error\n",
            id="recursion cycle",
        ),
        pytest.param(
            "λ(x) → make_tuple",
            False,
            "t.itir:1:8: error: `make_tuple` is part of the grammar: it can only be called, not used as a value\n    λ(x) → make_tuple\n           ^^^^^^^^^^\nt.itir: 1 type error\n",
            id="grammar builtin as a value",
        ),
        pytest.param(
            "λ(i, t) → tuple_get(i, t)",
            False,
            "t.itir:1:21: error: the index of `tuple_get` must be a non-negative integer literal\n    λ(i, t) → tuple_get(i, t)\n                        ^\nt.itir: 1 type error\n",
            id="non-literal tuple_get index",
        ),
        pytest.param(
            "λ(a) → tuple_get(3, {·a, 1.0, 2})",
            False,
            "t.itir:1:21: error: `tuple_get` takes element 3 of a tuple of 3 elements\n    λ(a) → tuple_get(3, {·a, 1.0, 2})\n                        ^^^^^^^^^^^^\nt.itir: 1 type error\n",
            id="tuple_get past the end of a known tuple",
        ),
        pytest.param(
            "λ(t) → tuple_get(123456789012345678901234567890, t)",
            False,
            "t.itir:1:18: error: `tuple_get` takes element 12345678…34567890 (30 digits) of a tuple, but tuples of more than 10,000 elements are not supported\n    λ(t) → tuple_get(123456789012345678901234567890, t)\n                     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\nt.itir: 1 type error\n",
            id="tuple_get index too large",
        ),
        pytest.param(
            "λ(it) → ·⟪E2Cₒ, 0ₒ⟫(it)",
            True,
            "t.itir:1:11: error: offset `E2C` is not in the offset provider (it has: I, V2E)\n    λ(it) → ·⟪E2Cₒ, 0ₒ⟫(it)\n              ^^^^\nt.itir: 1 type error\n",
            id="unknown offset tag",
        ),
        pytest.param(
            "λ(a) → plus(a, a, a)",
            False,
            "t.itir:1:8: error: `plus` takes 2 arguments, but is given 3\n    λ(a) → plus(a, a, a)\n           ^^^^^^^^^^^^^\nt.itir: 1 type error\n",
            id="wrong arity of a builtin",
        ),
        pytest.param(
            "λ(x) → (λ(a, b) → a)(x)",
            False,
            "t.itir:1:8: error: `λ(a, b) → a` takes 2 arguments, but is given 1\n    λ(x) → (λ(a, b) → a)(x)\n           ^^^^^^^^^^^^^^^^\nt.itir: 1 type error\n",
            id="wrong arity of a lambda",
        ),
        pytest.param(
            "sqrt(1)",
            False,
            "t.itir:1:6: error: type mismatch in the first argument of `sqrt`\n    sqrt(1)\n         ^\n  expected `T₀¹`, found `int32²`; `sqrt` needs a float, found `int32`; where T₀: float\nt.itir: 1 type error\n",
            id="sqrt(1)",
        ),
        pytest.param(
            "power(True, 1.0)",
            False,
            "t.itir:1:7: error: type mismatch in the first argument of `power`\n    power(True, 1.0)\n          ^^^^\n  expected `T₀¹`, found `bool²`; `power` needs a number, found `bool`; where T₀: numeric\nt.itir: 1 type error\n",
            id="power(True, 1.0)",
        ),
        pytest.param(
            "1 + True",
            False,
            "t.itir:1:5: error: type mismatch in the second argument of `plus`\n    1 + True\n        ^^^^\n  expected `int32⁰`, found `bool¹`; `int32` is not `bool`\n  note: `int32` comes from the first argument of `plus` at 1:1\nt.itir: 1 type error\n",
            id="1 + True",
        ),
        pytest.param(
            "λ(x) → ·x + x",
            False,
            "t.itir:1:13: error: type mismatch in the second argument of `plus`\n    λ(x) → ·x + x\n                ^\n  expected `T₀¹`, found `It[T₀¹]`; `Value` and `Iterator` differ (different constructors); where T₀: numeric; did you mean `·x`?\n  note: this is `It[T₀¹]` because of the first argument of `deref` at 1:9\nt.itir: 1 type error\n",
            id="an iterator where a value is expected",
        ),
        pytest.param(
            "λ(x) → x + ·x",
            False,
            "t.itir:1:8: error: type mismatch in the first argument of `plus`\n    λ(x) → x + ·x\n           ^\n  expected `T₀¹`, found `It[T₂³]`; `Value` and `Iterator` differ (different constructors); where T₀: numeric; did you mean `·x`?\n  note: this is `It[T₂³]` because of the first argument of `deref` at 1:13\nt.itir: 1 type error\n",
            id="an iterator name where a value is expected",
        ),
        pytest.param(
            "λ(x) → ·(·x)",
            False,
            "t.itir:1:9: error: a value is dereferenced: `·` (`deref`) reads the value an iterator points at\n    λ(x) → ·(·x)\n            ^^^^\n  expected `It[T₀¹]`, found `T₂³`\n  note: this is a value: what `deref` returns at 1:9\nt.itir: 1 type error\n",
            id="deref of a value",
        ),
        pytest.param(
            "λ(x) → (x + 1) + ·x",
            False,
            "t.itir:1:19: error: a value is dereferenced: `·` (`deref`) reads the value an iterator points at\n    λ(x) → (x + 1) + ·x\n                      ^\n  expected `It[T₀¹]`, found `int32²`\n  note: this is `int32²` because of the first argument of `plus` at 1:9\nt.itir: 1 type error\n",
            id="deref of a parameter used as a value",
        ),
        pytest.param(
            "f(inp: It[float64], out, n) {\n  s = λ(it) → it + 1.0;\n  out ← (s)(inp) @ c⟨ IDim: [0, n) ⟩;\n}\n",
            False,
            "t.itir:2:15: error: `it` is an iterator, used as a value in the first argument of `plus`\n      s = λ(it) → it + 1.0;\n                  ^^\n  did you mean `·it`?\n  note: the closure passes an iterator as the stencil's first input at 3:10\nt.itir: 1 type error\n",
            id="a missing deref in a stencil definition",
        ),
        pytest.param(
            "f(a: It[float64], b: It[float64], out, n) {\n  out ← (λ(a, it) → ·a + it)(a, b) @ c⟨ IDim: [0, n) ⟩;\n}\n",
            False,
            "t.itir:2:26: error: `it` is an iterator, used as a value in the second argument of `plus`\n      out ← (λ(a, it) → ·a + it)(a, b) @ c⟨ IDim: [0, n) ⟩;\n                             ^^\n  did you mean `·it`?\n  note: the closure passes an iterator as the stencil's second input at 2:10\nt.itir: 1 type error\n",
            id="a missing deref in a stencil lambda",
        ),
        pytest.param(
            "f(a, out, n) {\n  out ← (λ(x, y) → ·x)(a) @ c⟨ IDim: [0, n) ⟩;\n}\n",
            False,
            "t.itir:2:10: error: the stencil takes 2 inputs but the closure passes 1\n      out ← (λ(x, y) → ·x)(a) @ c⟨ IDim: [0, n) ⟩;\n             ^^^^^^^^^^^^\n  expected `(ItOrVal₀[T₁²]) → T₃ᶜ`, found `(It[T₄⁵], T₆) → T₄⁵`\nt.itir: 1 type error\n",
            id="a stencil of another arity than the closure",
        ),
        pytest.param(
            "1.0 + 1",
            False,
            "t.itir:1:7: error: type mismatch in the second argument of `plus`\n    1.0 + 1\n          ^\n  expected `float64⁰`, found `int32¹`; `float64` is not `int32`\n  note: `float64` comes from the first argument of `plus` at 1:1\nt.itir: 1 type error\n",
            id="1.0 + 1",
        ),
        pytest.param(
            "f(inp: It[float64], out: It[int32], n) {\n  out ← (λ(it) → ·it + 1.0)(inp) @ c⟨ IDim: [0, n) ⟩;\n}\n",
            False,
            "t.itir:2:10: error: type mismatch in the stencil, which is applied to the closure's 1 input\n      out ← (λ(it) → ·it + 1.0)(inp) @ c⟨ IDim: [0, n) ⟩;\n             ^^^^^^^^^^^^^^^^^\n  expected `(It[float64⁰]) → int32ᶜ`, found `(It[float64¹]) → float64¹`; `int32` is not `float64`\n  note: `int32` comes from the annotation of `out` at 1:21\n  note: `int32` comes from the closure's output, which is written through a column iterator at 2:3\n  note: `float64` comes from the second argument of `plus` at 2:24\nt.itir: 1 type error\n",
            id="an annotated output of another dtype",
        ),
        pytest.param(
            "λ(f) → f(f)",
            False,
            "t.itir:1:10: error: this would need an infinite type (`(…) → T₀`, where `…` is the type itself)\n    λ(f) → f(f)\n             ^\nt.itir: 1 type error\n",
            id="infinite type",
        ),
        pytest.param(
            "λ(it) → neighbors(Iₒ, it)",
            True,
            "t.itir:1:19: error: `neighbors` needs a connectivity, but `I` is the dimension IDim\n    λ(it) → neighbors(Iₒ, it)\n                      ^^\nt.itir: 1 type error\n",
            id="a neighbors of a dimension",
        ),
        pytest.param(
            "λ(x, y, x) → x",
            False,
            "t.itir:1:9: error: `x` is declared twice\n    λ(x, y, x) → x\n"
            "            ^\n  note: the first `x` is declared at 1:3\nt.itir: 1 type error\n",
            id="duplicate parameter",
        ),
        pytest.param(
            "f(a, b, a) {\n  g = λ(x) → x;\n  g = λ(y) → ·y;\n  b ← (g)(a) @ c⟨ IDim: [0, 1) ⟩;\n}\n",
            False,
            "t.itir:1:9: error: `a` is declared twice\n    f(a, b, a) {\n            ^\n"
            "  note: the first `a` is declared at 1:3\n"
            "t.itir:3:3: error: `g` is declared twice\n      g = λ(y) → ·y;\n      ^^^^^^^^^^^^^^\n"
            "  note: the first `g` is declared at 2:3\nt.itir: 2 type errors\n",
            id="duplicate definition and parameter",
        ),
    ],
)
def test_each_kind_of_error_has_its_message(
    text: str,
    with_provider: bool,
    expected: str,
    tmp_path,
    monkeypatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.itir").write_text(text, encoding="utf-8")
    (tmp_path / "p.json").write_text(json.dumps(PROVIDER), encoding="utf-8")
    assert (
        main(
            [
                "infer",
                "t.itir",
                "--color=never",
                *(["--offset-provider", "p.json"] if with_provider else []),
            ]
        )
        == 1
    )
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", expected)


MULTI = """f(a, b, c, n) {
  g = λ(x) → ·x + x;
  h = λ(y) → sqrt(·y);
  k = λ(z) → h(z) + 1;
  b ← (g)(a) @ c⟨ IDim: [0, n) ⟩;
  c ← (λ(i) → ·i × True)(a) @ c⟨ IDim: [0, n) ⟩;
}
"""


def test_all_independent_errors_are_reported(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "multi.itir"
    path.write_text(MULTI, encoding="utf-8")
    assert main(["infer", str(path)]) == 1
    err = capsys.readouterr().err
    # One per failing definition (g, k: h is fine) and one for the failing closure; `b ← (g)(a)`
    # uses the failed `g` and adds no second error.
    assert [line.split(": error: ")[0] for line in err.splitlines() if ": error: " in line] == [
        f"{path}:2:19",
        f"{path}:4:21",
        f"{path}:6:20",
    ]
    assert err.endswith(f"{path}: 3 type errors\n")
    assert "  note: `T₀` comes from the first argument of `plus` at 4:14\n" in err
    assert main(["infer", str(path), "--max-errors", "2"]) == 1
    assert capsys.readouterr().err.endswith(
        f"{path}: 2 of at least 3 type errors shown (--max-errors 2)\n"
    )
    assert main(["infer", str(path), "--max-errors", "0"]) == 2


def test_errors_in_json_input_name_the_json_path(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "multi.json"
    path.write_text(json.dumps(iterir.to_json(iterir.parse(MULTI))), encoding="utf-8")
    assert main(["infer", str(path)]) == 1
    assert capsys.readouterr().err.splitlines()[:3] == [
        f"{path}: $.function_definitions[0].expr.args[1]: error: type mismatch in the second argument of `plus`",
        "  expected `T₀¹`, found `It[T₀¹]`; `Value` and `Iterator` differ (different constructors); where T₀: numeric; did you mean `·x`?",
        "  note: this is `It[T₀¹]` because of the first argument of `deref` at $.function_definitions[0].expr.args[0].args[0]",
    ]


def test_errors_in_ir_built_in_python_name_the_node() -> None:
    with pytest.raises(typeinf.TypeInferenceError) as info:
        typeinf.infer(lam("x")(call("plus")(deref("x"), "x")))
    assert str(info.value).startswith(
        "<ir> x: error: type mismatch in the second argument of `plus`"
    )
    assert [text for text, _ in info.value.notes] == [
        "this is `It[T₀¹]` because of the first argument of `deref`"
    ]


def test_check_returns_every_error_and_infer_the_first() -> None:
    program = iterir.parse(MULTI, "multi.itir")
    checked = typeinf.check(program)
    assert checked.type is None and [e.node.loc.line for e in checked.errors] == [2, 4, 6]  # type: ignore[union-attr]
    assert len(typeinf.check(program, max_errors=1).errors) == 1
    with pytest.raises(typeinf.UnsatisfiableConstraintError) as info:
        typeinf.infer(program)
    assert (
        info.value.message == checked.errors[0].message
        and info.value.notes == checked.errors[0].notes
    )
    fine = typeinf.check(iterir.parse("λ(x) → ·x"))
    assert fine.errors == [] and typeinf.pformat(fine.type) == "(It[T₀¹]) → T₀¹"  # type: ignore[arg-type]


def test_an_infinite_type_in_a_used_definition_is_one_error() -> None:
    program = iterir.parse(
        "f(a, b) {\n  g = λ(x) → x(x);\n  h = λ(y) → g(y);\n  b ← (h)(a) @ c⟨ IDim: [0, 1) ⟩;\n}",
        "inf.itir",
    )
    checked = typeinf.check(program)
    assert [(type(e).__name__, e.node.loc.line, e.node.loc.column) for e in checked.errors] == [  # type: ignore[union-attr]
        ("InfiniteTypeError", 2, 16)
    ]
    with pytest.raises(typeinf.InfiniteTypeError) as info:
        typeinf.infer(program)
    assert info.value.message == checked.errors[0].message


def test_colour_only_when_asked_or_on_a_terminal(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.itir"
    path.write_text("sqrt(1)", encoding="utf-8")
    assert main(["infer", str(path), "--color=always"]) == 1
    assert "\x1b[1;31merror\x1b[0m" in capsys.readouterr().err
    assert main(["infer", str(path)]) == 1  # auto: captured output is not a terminal
    assert "\x1b[" not in capsys.readouterr().err


def test_the_command_line_page_shows_real_output(
    tmp_path, monkeypatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/cli.md's error report (a `text` block: its program is this module's MULTI, not a
    file of the repository) is what `typeinf infer` prints."""
    from tests.conftest import ROOT

    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.itir").write_text(MULTI, encoding="utf-8")
    main(["infer", "bad.itir"])
    err = capsys.readouterr().err
    k_error = err[err.index("bad.itir:4:21") : err.index("bad.itir:6:20")]
    assert k_error in page
    monkeypatch.chdir(ROOT)
    main(["explain", "examples/laplacian.itir:4:13"])
    assert "\n".join(capsys.readouterr().out.splitlines()[:3]) in page


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("1 + True", "type mismatch"),
        ("λ(x) → make_tuple", "part of the grammar"),
        ("λ(i, t) → tuple_get(i, t)", "non-negative integer literal"),
        ("λ(f) → f(f)", "infinite type"),
    ],
)
def test_a_type_error_from_infer_is_raised_once(text: str, says: str) -> None:
    # Not "during handling of" the fast run's error: a traceback shows it once.
    with pytest.raises(typeinf.TypeInferenceError) as info:
        typeinf.infer(iterir.parse(text))
    shown = "".join(traceback.format_exception(info.value))
    assert "During handling" not in shown and shown.count(says) == 1


def test_a_signature_without_size_marks_is_shown_corrected() -> None:
    with pytest.raises(ValueError) as info:
        typeinf.register_builtin("size_marks_missing", "(It[float64]) → float64")
    assert str(info.value) == (
        "not a type at column 12: '(It[float64]) → float64': a dtype that stands for a value"
        " needs a size mark (`float64¹`); did you mean '(It[float64¹]) → float64¹'?"
    )
    shown = "".join(traceback.format_exception(info.value))
    assert "During handling" not in shown and shown.count("not a type") == 1
    assert "size_marks_missing" not in typeinf.fencil.signatures.BUILTINS
    with pytest.raises(ValueError) as info:  # not a matter of size marks: said as it was
        typeinf.register_builtin("size_marks_missing", "(It[float64¹]) → ")
    assert "size mark" not in str(info.value)
