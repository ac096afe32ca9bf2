"""The `typeinf` command line: reading IR files and printing them back."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys

import pytest

import iterir
from tests.conftest import ROOT
from typeinf.cli import main

EXAMPLE = ROOT / "examples" / "laplacian.itir"


def test_format_prints_the_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["format", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("laplacian(inp: It[float64], out: It[float64], nx, ny, nz) {\n")
    assert iterir.parse(out) == iterir.load(EXAMPLE)


def test_format_to_json_and_back(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["format", str(EXAMPLE), "--to", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["node"] == "FencilDefinition" and data["id"] == "laplacian"
    path = tmp_path / "lap.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["format", str(path)]) == 0
    assert iterir.parse(capsys.readouterr().out) == iterir.load(EXAMPLE)


def test_standard_input(monkeypatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"node": "SymRef", "id": "x"}'))
    assert main(["format", "-"]) == 0
    assert capsys.readouterr().out == "x\n"


def test_parse_errors_exit_2_with_location(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.itir"
    path.write_text("f(a) {\n  out ← (λ(x) → )(a) @ D;\n}\n", encoding="utf-8")
    assert main(["format", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"{path}:2:17: error: unexpected `)`; expected an expression\n"
        "      out ← (λ(x) → )(a) @ D;\n"
        "                    ^\n"
    )


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["frobnicate"])
    assert info.value.code == 2
    assert main(["format", "/nonexistent/x.itir"]) == 2
    assert "cannot read file" in capsys.readouterr().err


def test_console_script_is_installed() -> None:
    """The README installs the package; its `typeinf` command must then be on the PATH."""
    assert shutil.which("typeinf"), "typeinf is not installed: pip install -e '.[test]'"
    result = subprocess.run(["typeinf", "format", str(EXAMPLE)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("laplacian(")


def test_infer_prints_the_type(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["infer", str(EXAMPLE)]) == 0
    assert capsys.readouterr().out == (
        "{lap :: (It[float64⁰]) → float64⁰, laplacian(It[float64ᶜ], It[float64ᶜ], int32ˢ, int32ˢ, "
        "int32ˢ)}\n"
    )
    assert main(["infer", str(EXAMPLE), "--locations"]) == 0
    assert capsys.readouterr().out.startswith("{lap :: (It[T₁, T₁, float64⁰]) → float64⁰, laplacian(")


def test_infer_with_an_offset_provider(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    program = tmp_path / "p.itir"
    program.write_text("λ(it) → ·⟪V2Eₒ, 0ₒ⟫(it)", encoding="utf-8")
    provider = tmp_path / "op.json"
    provider.write_text(json.dumps({"V2E": {"type": "Connectivity", "origin": "Vertex", "neighbor": "Edge",
                                            "max_neighbors": 4, "has_skip_values": False}}), encoding="utf-8")  # fmt: skip
    assert main(["infer", str(program), "--locations", "--offset-provider", str(provider)]) == 0
    assert capsys.readouterr().out == "(It[Vertex, Edge, T₀¹]) → T₀¹\n"
    provider.write_text('{"V2E": {"type": "Connectivity"}}', encoding="utf-8")
    assert main(["infer", str(program), "--offset-provider", str(provider)]) == 2
    assert capsys.readouterr().err == f"{provider}: error: offset provider entry 'V2E': missing 'origin'\n"


def test_infer_type_errors_exit_1(monkeypatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("sqrt(1)"))
    assert main(["infer", "-"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("<stdin>:1:6: error: type mismatch in the first argument of `sqrt`")


def test_infer_parse_errors_exit_2(monkeypatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("λ(x) →"))
    assert main(["infer", "-"]) == 2
    assert capsys.readouterr().err.startswith("<stdin>:1:7: error: unexpected end of input")


def test_readme_example_with_offset_provider(capsys: pytest.CaptureFixture[str]) -> None:
    examples = ROOT / "examples"
    args = ["infer", str(examples / "edge_sum.itir"), "--offset-provider",
            str(examples / "edge_sum.offsets.json"), "--locations"]  # fmt: skip
    assert main(args) == 0
    assert capsys.readouterr().out == (
        "{sum_edges :: (It[Vertex, Edge, float64⁰]) → float64⁰, edge_sum(It[ANYWHERE, Edge, "
        "float64ᶜ], It[ANYWHERE, Vertex, float64ᶜ], int32ˢ)}\n"
    )
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "{sum_edges :: (It[Vertex, Edge, float64⁰]) → float64⁰, edge_sum(It[ANYWHERE, Edge" in readme
