"""What the packages promise to export is there: every name in `__all__` imports; `typeinf.render`
prints an error as the command line does, and the names 0.1.0 documented for it still work, with
a warning naming it."""

from __future__ import annotations

import importlib
import json
import warnings
from pathlib import Path

import pytest

import iterir
import typeinf
import typeinf.gtir
from iterir import gtir_types as gt
from typeinf.frontends.cli import main


@pytest.mark.parametrize("package", [typeinf, typeinf.gtir, iterir], ids=lambda p: p.__name__)
def test_every_name_in_all_imports(package: object) -> None:
    for name in package.__all__:  # type: ignore[attr-defined]
        assert hasattr(package, name), f"{package.__name__}.{name} is in __all__ but not defined"


@pytest.mark.parametrize("name", ["typeinf", "typeinf.gtir", "iterir"])
def test_star_import(name: str) -> None:
    namespace: dict[str, object] = {}
    exec(f"from {name} import *", namespace)  # the import a user writes
    assert set(importlib.import_module(name).__all__) <= set(namespace)


def test_duplicate_name_error_is_exported() -> None:
    assert issubclass(typeinf.DuplicateNameError, typeinf.TypeInferenceError)


def test_one_version() -> None:
    from importlib.metadata import version

    assert typeinf.__version__ == version("itir-typeinf")


# -- typeinf.render: an error as the command line prints it ---------------------------------------
TWO_ERRORS = (
    "f(a, b) {\n  g = λ(x) → ·x + x;\n  b ← (λ(i) → ·i × True)(a) @ c⟨ IDim: [0, 1) ⟩;\n}\n"
)
GTIR_ERROR = "p(a: Field[[IDimₕ], f64], out: Field[[IDimₕ], i32]) { out @ c⟨ IDimₕ: [0, 5[ ⟩ ← a; }"


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("two.itir", TWO_ERRORS),
        ("two.json", json.dumps(iterir.to_json(iterir.parse(TWO_ERRORS)))),
        ("gtir.itir", GTIR_ERROR),
    ],
)
@pytest.mark.parametrize("color", [False, True])
def test_render_prints_what_the_command_line_prints(
    name: str, text: str, color: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    program = iterir.loads_ir(text, str(path))
    errors = typeinf.check(program).errors
    rendered = [typeinf.render(e, text, str(path), program, color=color) for e in errors]
    count = f"{len(errors)} type error{'s' if len(errors) > 1 else ''}"
    assert main(["infer", str(path), f"--color={'always' if color else 'never'}"]) == 1
    assert capsys.readouterr().err == "".join(r + "\n" for r in rendered) + f"{path}: {count}\n"
    if name.endswith(".json"):  # as after `iterir.load(path)`: no text, the tree locates
        assert [
            typeinf.render(e, filename=str(path), program=program, color=color) for e in errors
        ] == rendered


def test_render_without_the_text_names_the_place_and_quotes_nothing() -> None:
    text = "λ(it) → sqrt(1) + ·it"
    (error,) = typeinf.check(iterir.parse(text, "t.itir")).errors
    reasons = (
        "  expected `T₀¹`, found `int32²`; `sqrt` needs a float, found `int32`; where T₀: float"
    )
    head = "t.itir:1:14: error: type mismatch in the first argument of `sqrt`"
    assert typeinf.render(error, text, "t.itir") == "\n".join(
        [head, "    λ(it) → sqrt(1) + ·it", "                 ^", reasons]
    )
    assert typeinf.render(error) == "\n".join([head, reasons])
    (built,) = typeinf.check(iterir.from_json(iterir.to_json(iterir.parse(text)))).errors
    assert typeinf.render(built) == "\n".join(
        ["<ir> 1: error: type mismatch in the first argument of `sqrt`", reasons]
    )


def test_the_names_0_1_0_documented_still_render_with_a_warning_naming_typeinf_render() -> None:
    """0.1.0's README: `typeinf.diagnostics.render(error, Source(…))`."""
    import typeinf.diagnostics

    text = "λ(it) → sqrt(1) + ·it"
    (error,) = typeinf.check(iterir.parse(text, "t.itir")).errors
    new = r"typeinf\.render\(error, text, filename, program\)"
    with pytest.warns(
        DeprecationWarning, match=rf"typeinf\.diagnostics\.render is deprecated: use {new}"
    ):
        from typeinf.diagnostics import render
    with pytest.warns(
        DeprecationWarning, match=rf"typeinf\.diagnostics\.Source is deprecated: .*{new}"
    ):
        source = typeinf.diagnostics.Source("t.itir", text)
    assert render(error, source) == typeinf.render(error, text, "t.itir")
    with pytest.raises(AttributeError, match="has no attribute 'reason_text'"):
        typeinf.diagnostics.reason_text  # noqa: B018  # only the names 0.1.0 documented
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        importlib.reload(typeinf.diagnostics)  # importing it alone does not warn


def test_gt4py_str_where_docs_gtir_md_named_it_works_with_a_warning_naming_typeinf_gt4py_str() -> (
    None
):
    """docs/gtir.md sent users to `typeinf.gtir.gt4py_text.gt4py_str`; it is `typeinf.gt4py_str`."""
    import typeinf.gtir.gt4py_text

    field = gt.FieldType((gt.Dimension("IDim"),), gt.ScalarType("float64"))
    with pytest.warns(
        DeprecationWarning,
        match=r"typeinf\.gtir\.gt4py_text\.gt4py_str is deprecated: use typeinf\.gt4py_str",
    ):
        from typeinf.gtir.gt4py_text import gt4py_str
    assert gt4py_str(field) == typeinf.gt4py_str(field) == "Field[[IDim], float64]"
    with pytest.raises(AttributeError, match="has no attribute 'gt4py_repr'"):
        typeinf.gtir.gt4py_text.gt4py_repr  # noqa: B018  # only the name docs/gtir.md named
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        importlib.reload(typeinf.gtir.gt4py_text)  # importing it alone does not warn
