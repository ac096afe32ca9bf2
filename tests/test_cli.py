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
