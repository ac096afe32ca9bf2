"""IR snapshot regression files: `typeinf snapshot check|update DIR`, the pytest plugin, and the
example gallery's own snapshots."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT
from typeinf.frontends.cli import main

EXAMPLES = ROOT / "examples"
GALLERY = [
    "column_sum",
    "edge_sum",
    "gtir_vertex_sum",
    "hdiff",
    "laplacian",
    "nabla",
    "tridiagonal",
]


def test_the_examples_match_their_snapshots(capsys: pytest.CaptureFixture[str]) -> None:
    assert sorted(p.stem for p in EXAMPLES.glob("*.types")) == GALLERY
    assert main(["snapshot", "check", str(EXAMPLES)]) == 0
    assert capsys.readouterr().out == f"{len(GALLERY)} match\n"


def test_check_reports_missing_and_changed_types_and_update_writes_them(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("laplacian.itir", "nabla.itir", "nabla.offsets.json", "nabla.types"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    (tmp_path / "bad.json").write_text(
        '{"node": "FunCall", "fun": {"node": "SymRef", "id": "sqrt"}, '
        '"args": [{"node": "Literal", "value": "1", "type": "int32"}]}'
    )
    provider = tmp_path / "nabla.offsets.json"
    provider.write_text(provider.read_text().replace('"max_neighbors": 7', '"max_neighbors": 6'))
    assert main(["snapshot", "check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert (
        f"{tmp_path / 'bad.types'}: missing (run `typeinf snapshot update {tmp_path}` to create it)\n"
        in out
    )
    assert f"{tmp_path / 'laplacian.types'}: missing" in out
    assert (
        f"--- {tmp_path / 'nabla.types'} (expected)\n+++ {tmp_path / 'nabla.itir'} (inferred)\n"
        in out
    )
    assert (
        "-pnabla :: (It[Vertex, Vertex, float64⁰], It[Vertex, Edge, float64⁰], It[T₁, T₁, L[float64, 7, True]⁰]"
        in out
    )
    assert (
        "+pnabla :: (It[Vertex, Vertex, float64⁰], It[Vertex, Edge, float64⁰], It[T₁, T₁, L[float64, 6, True]⁰]"
        in out
    )
    assert out.endswith("0 match, 1 differ, 2 missing\n")
    assert not (tmp_path / "laplacian.types").exists()  # check never writes

    # type errors are not recorded as expected output unless asked: that file is left alone
    assert main(["snapshot", "update", str(tmp_path)]) == 1
    assert capsys.readouterr() == (
        f"created {tmp_path / 'laplacian.types'}\nupdated {tmp_path / 'nabla.types'}\n"
        "0 match, 1 created, 1 updated, 1 not updated (type errors)\n",
        f"{tmp_path / 'bad.types'}: not updated: {tmp_path / 'bad.json'} has 1 type error "
        f"(`typeinf snapshot update --accept-errors {tmp_path}` records them as expected)\n",
    )
    assert not (tmp_path / "bad.types").exists()
    assert main(["snapshot", "update", "--accept-errors", str(tmp_path)]) == 0
    assert capsys.readouterr().out == (
        f"created {tmp_path / 'bad.types'} (1 type error recorded)\n"
        "2 match, 1 created, 1 type error recorded\n"
    )
    assert (tmp_path / "bad.types").read_text() == (
        "$.args[0]: error: type mismatch in the first argument of `sqrt`: expected `T₀¹`, found `int32²`; "
        "`sqrt` needs a float, found `int32`; where T₀: float\n"
    )
    assert (tmp_path / "laplacian.types").read_text() == (EXAMPLES / "laplacian.types").read_text()
    assert main(["snapshot", "check", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "3 match\n"


def test_unreadable_programs_and_folders_exit_2(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "broken.itir").write_text("λ(x) →")
    assert main(["snapshot", "check", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(
        f"{tmp_path / 'broken.itir'}:1:7: error: unexpected end of input"
    )
    assert captured.out == "0 match, 1 unreadable\n"
    assert main(["snapshot", "check", str(tmp_path / "nowhere")]) == 2


PLUGIN_TEST = """
import iterir

def test_ir(typeinf_snapshot):
    typeinf_snapshot.check(iterir.parse("λ(x) → ·x + 1.0"))
    typeinf_snapshot.check(iterir.parse("λ(a, b) → ·a"), name="second")

def test_error(typeinf_snapshot):
    typeinf_snapshot.check(iterir.parse("sqrt(1)"), accept_errors=True)
"""


def test_the_pytest_plugin(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_compiler=PLUGIN_TEST)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(
        ["*no expected types in *test_compiler.test_ir.types: run pytest with --typeinf-update*"]
    )

    result = pytester.runpytest("--typeinf-update")
    result.assert_outcomes(passed=2)
    folder = Path(pytester.path) / "__typeinf_snapshots__"
    result.stdout.fnmatch_lines(
        [
            "*- typeinf snapshots: 3 created -*",
            f"created {folder / 'test_compiler.test_ir.types'}",
            f"created {folder / 'test_compiler.test_ir.second.types'}",
            f"created {folder / 'test_compiler.test_error.types'}",
        ]
    )
    assert sorted(p.name for p in folder.iterdir()) == [
        "test_compiler.test_error.types",
        "test_compiler.test_ir.second.types",
        "test_compiler.test_ir.types",
    ]
    assert (
        folder / "test_compiler.test_ir.types"
    ).read_text() == "(It[T₁, T₁, float64⁰]) → float64⁰\n"
    assert (
        (folder / "test_compiler.test_error.types")
        .read_text()
        .startswith("1:6: error: type mismatch in the first argument of `sqrt`")
    )
    pytester.runpytest().assert_outcomes(passed=2)

    pytester.makepyfile(test_compiler=PLUGIN_TEST.replace("1.0", "1"))
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str()
    assert "the inferred types differ from" in out
    assert "\n-(It[T₁, T₁, float64⁰]) → float64⁰\n+(It[T₁, T₁, int32⁰]) → int32⁰\n" in out
    result = pytester.runpytest("--typeinf-update")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(
        [
            "*- typeinf snapshots: 1 updated -*",
            f"updated {Path(pytester.path) / '__typeinf_snapshots__' / 'test_compiler.test_ir.types'}",
        ]
    )
    assert "typeinf snapshots" not in pytester.runpytest("--typeinf-update").stdout.str()
