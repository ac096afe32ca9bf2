"""The `typeinf` command line: reading IR files and printing them back."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys

import pytest

import iterir
import typeinf
from tests.conftest import ROOT
from typeinf.core.notation import to_ascii
from typeinf.frontends.cli import main

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
    result = subprocess.run(
        ["typeinf", "format", str(EXAMPLE)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("laplacian(")


def test_infer_prints_the_type(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["infer", str(EXAMPLE)]) == 0
    assert capsys.readouterr().out == (
        "lap :: (It[float64⁰]) → float64⁰\n"
        "{laplacian(It[float64ᶜ], It[float64ᶜ], int32ˢ, int32ˢ, int32ˢ)}\n"
    )
    assert main(["infer", str(EXAMPLE), "--locations"]) == 0
    assert capsys.readouterr().out.startswith(
        "lap :: (It[T₁, T₁, float64⁰]) → float64⁰\n{laplacian("
    )
    assert main(["infer", str(EXAMPLE), "--one-line"]) == 0
    assert capsys.readouterr().out == (
        "{lap :: (It[float64⁰]) → float64⁰, laplacian(It[float64ᶜ], It[float64ᶜ], int32ˢ, "
        "int32ˢ, int32ˢ)}\n"
    )


def test_infer_with_an_offset_provider(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    program = tmp_path / "p.itir"
    program.write_text("λ(it) → ·⟪V2Eₒ, 0ₒ⟫(it)", encoding="utf-8")
    provider = tmp_path / "op.json"
    provider.write_text(
        json.dumps(
            {
                "V2E": {
                    "type": "Connectivity",
                    "origin": "Vertex",
                    "neighbor": "Edge",
                    "max_neighbors": 4,
                    "has_skip_values": False,
                }
            }
        ),
        encoding="utf-8",
    )
    assert main(["infer", str(program), "--locations", "--offset-provider", str(provider)]) == 0
    assert capsys.readouterr().out == "(It[Vertex, Edge, T₀¹]) → T₀¹\n"
    provider.write_text('{"V2E": {"type": "Connectivity"}}', encoding="utf-8")
    assert main(["infer", str(program), "--offset-provider", str(provider)]) == 2
    assert (
        capsys.readouterr().err
        == f"{provider}: error: offset provider entry 'V2E': missing 'origin'\n"
    )


def test_infer_type_errors_exit_1(monkeypatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("sqrt(1)"))
    assert main(["infer", "-"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(
        "<stdin>:1:6: error: type mismatch in the first argument of `sqrt`"
    )


def test_an_internal_error_exits_3_with_one_line_and_a_traceback_only_when_asked(
    monkeypatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr("typeinf.frontends.cli.solve_either", broken)
    monkeypatch.delenv("TYPEINF_TRACEBACK", raising=False)
    assert main(["infer", str(EXAMPLE)]) == 3
    captured = capsys.readouterr()
    assert captured.err == (
        "typeinf: internal error (a bug in typeinf, not in the input): RuntimeError: a bug\n"
        "  please report it with the input; TYPEINF_TRACEBACK=1 shows where it happened\n"
    )
    monkeypatch.setenv("TYPEINF_TRACEBACK", "1")
    with pytest.raises(RuntimeError, match="a bug"):
        main(["infer", str(EXAMPLE)])


def test_infer_parse_errors_exit_2(monkeypatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("λ(x) →"))
    assert main(["infer", "-"]) == 2
    assert capsys.readouterr().err.startswith("<stdin>:1:7: error: unexpected end of input")


def test_readme_example_with_offset_provider(capsys: pytest.CaptureFixture[str]) -> None:
    examples = ROOT / "examples"
    args = [
        "infer",
        str(examples / "edge_sum.itir"),
        "--offset-provider",
        str(examples / "edge_sum.offsets.json"),
        "--locations",
    ]
    assert main(args) == 0
    expected = (
        "sum_edges :: (It[Vertex, Edge, float64⁰]) → float64⁰\n"
        "{edge_sum(It[ANYWHERE, Edge, float64ᶜ], It[ANYWHERE, Vertex, float64ᶜ], int32ˢ)}\n"
    )
    assert capsys.readouterr().out == expected
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert expected in readme


def test_readme_gtir_example(monkeypatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The README's GTIR program, typed with the offset provider found beside it."""
    monkeypatch.chdir(ROOT)
    assert main(["infer", "examples/gtir_vertex_sum.itir"]) == 0
    printed = capsys.readouterr().out
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert (
        printed.count("\n") == 3
        and f"$ typeinf infer examples/gtir_vertex_sum.itir\n{printed}" in readme
    )


def test_infer_all_defs_and_several_files(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    small = tmp_path / "small.itir"
    small.write_text("λ(x) → ·x", encoding="utf-8")
    assert main(["infer", str(small), "--all"]) == 0
    assert capsys.readouterr().out == (
        f"{small}:1:1: λ(x) → ·x :: (It[T₀¹]) → T₀¹\n"
        f"{small}:1:3: x :: It[T₀¹]\n"
        f"{small}:1:8: ·x :: T₀¹\n"
        f"{small}:1:8: deref :: (It[T₀¹]) → T₀¹\n"
        f"{small}:1:9: x :: It[T₀¹]\n"
    )
    assert main(["infer", str(EXAMPLE), "--defs"]) == 0
    assert capsys.readouterr().out == "lap :: (It[float64⁰]) → float64⁰\n"
    assert main(["infer", str(small), str(EXAMPLE), "--defs", "--locations"]) == 0
    assert capsys.readouterr().out == f"{EXAMPLE}: lap :: (It[T₁, T₁, float64⁰]) → float64⁰\n"
    assert main(["infer", str(small), str(EXAMPLE)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"{small}: (It[T₀¹]) → T₀¹"


def test_infer_json_output(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    good, bad, broken = tmp_path / "good.itir", tmp_path / "bad.itir", tmp_path / "broken.itir"
    good.write_text("λ(x) → sqrt(·x)", encoding="utf-8")
    bad.write_text("λ(x) → ·x + x", encoding="utf-8")
    broken.write_text("λ(x) →", encoding="utf-8")
    assert main(["infer", str(good), str(bad), str(broken), "--json", "--all"]) == 2
    files = json.loads(capsys.readouterr().out)["files"]
    assert [f["file"] for f in files] == [str(good), str(bad), str(broken)]
    assert files[0]["type"] == "(It[T₀¹]) → T₀¹ where T₀: float"
    assert files[0]["tree"]["class"] == "Fun" and files[0]["diagnostics"] == []
    assert files[0]["nodes"][1] == {
        "span": {"line": 1, "column": 3, "end_line": 1, "end_column": 4},
        "json_path": None,
        "node": "x",
        "type": "It[T₀¹] where T₀: float",
        "tree": {
            "class": "Val",
            "kind": "Iterator",
            "dtype": {"class": "Var", "sort": "dtype", "number": 0, "family": "float"},
            "size": {"class": "Var", "sort": "size", "number": 1, "family": None},
            "current_loc": {"class": "Var", "sort": "location", "number": 2, "family": None},
            "defined_loc": {"class": "Var", "sort": "location", "number": 2, "family": None},
        },
    }
    [diagnostic] = files[1]["diagnostics"]
    assert files[1]["type"] is None
    assert diagnostic["kind"] == "UnsatisfiableConstraintError"
    assert diagnostic["summary"] == "type mismatch in the second argument of `plus`"
    assert diagnostic["span"] == {"line": 1, "column": 13, "end_line": 1, "end_column": 14}
    assert (diagnostic["expected"], diagnostic["actual"]) == ("T₀¹", "It[T₀¹]")
    assert diagnostic["notes"] == [
        {
            "message": "this is `It[T₀¹]` because of the first argument of `deref`",
            "span": {"line": 1, "column": 9, "end_line": 1, "end_column": 10},
            "json_path": None,
            "node": "x",
        }
    ]
    assert files[2]["diagnostics"][0]["kind"] == "ParseError"
    assert files[2]["diagnostics"][0]["span"]["line"] == 1


def test_explain_a_position(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "e.itir"
    path.write_text("λ(x) →\n  ·x + 1.0", encoding="utf-8")
    assert main(["explain", f"{path}:2:4"]) == 0
    assert capsys.readouterr().out == (
        f"{path}:2:4: x\n"
        "  :: It[float64⁰]\n"
        "  because of the first argument of `deref` at 2:4: x\n"
        "  because of the first argument of `plus` at 2:3: ·x\n"
        "  because of the second argument of `plus` at 2:8: 1.0\n"
    )
    assert main(["explain", str(path), "--at", "2:8"]) == 0
    assert capsys.readouterr().out.startswith(f"{path}:2:8: 1.0\n  :: float64⁰\n")
    assert main(["explain", f"{path}:9:9"]) == 2
    assert (
        capsys.readouterr().err
        == f"{path}:9:9: error: line 9 is past the end of the file, which has 2 lines\n"
    )
    assert main(["explain", str(path)]) == 2


@pytest.mark.parametrize(
    "example", sorted((ROOT / "docs" / "examples").glob("*.itir")), ids=lambda path: path.stem
)
def test_explain_answers_at_every_position_of_every_example(
    example, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every line's first character and each word start: a type, or why there is none, never an
    internal error (a definition in a recursion cycle, which is never typed, was one)."""
    text = example.read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), start=1):
        starts = [
            i for i, c in enumerate(line) if not c.isspace() and (i == 0 or line[i - 1] == " ")
        ]
        for column in starts[:6]:
            code = main(["explain", f"{example}:{number}:{column + 1}"])
            captured = capsys.readouterr()
            assert code in (0, 1, 2), (number, column + 1, captured.err)
            assert "internal error" not in captured.err, (number, column + 1)


def test_explain_in_a_recursion_cycle_says_inference_stopped(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = ROOT / "docs" / "examples" / "rules-recursion.itir"
    assert main(["explain", f"{path}:3:3"]) == 1
    captured = capsys.readouterr()
    assert "recursion is not allowed: even → odd → even" in captured.err
    assert captured.out.endswith("  has no type: inference stopped before it (see the errors)\n")


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert all(command in out for command in ("infer", "explain", "format", "snapshot", "docs"))
    with pytest.raises(SystemExit):
        main(["infer", "--help"])
    out = capsys.readouterr().out
    assert all(
        option in out
        for option in (
            "--all",
            "--json",
            "--defs",
            "--max-errors",
            "--color",
            "--offset-provider",
            "--verbose",
        )
    )


# -- readable output for programs (issue 12, item 6) ----------------------------------------------
NABLA = ["infer", str(ROOT / "examples" / "nabla.itir"), "--offset-provider"]
NABLA += [str(ROOT / "examples" / "nabla.offsets.json")]


def test_a_fencil_prints_one_line_per_definition_each_read_back_alone(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(NABLA) == 0
    lines = capsys.readouterr().out.splitlines()
    provider = json.loads((ROOT / "examples" / "nabla.offsets.json").read_text(encoding="utf-8"))
    fencil = typeinf.infer(
        iterir.load(str(ROOT / "examples" / "nabla.itir")), typeinf.load_offset_provider(provider)
    )
    assert isinstance(fencil, typeinf.types.Fencil)
    names = [d.name for d in fencil.definitions]
    assert [line.split(" :: ")[0] for line in lines[:-1]] == names
    assert lines[-1].startswith("{nabla(")
    for line in lines:  # each numbered from 0, with its own `where` clause: it reads alone
        assert typeinf.pformat(typeinf.parse_type(line)) == line
    assert main([*NABLA, "--one-line"]) == 0
    (one,) = capsys.readouterr().out.splitlines()
    assert one == typeinf.pformat(fencil)


def test_shared_names_relate_a_nodes_type_to_its_parents(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("λ(a) → sqrt(·a)"))
    assert main(["infer", "-", "--all", "--shared-names"]) == 0
    shared = capsys.readouterr().out.splitlines()
    assert shared[0].endswith(":: (It[T₀¹]) → T₀¹")
    assert shared[1].endswith("a :: It[T₀¹]")  # the parameter: the same T₀
    assert shared[-1] == "where T₀: float"
    monkeypatch.setattr(sys, "stdin", io.StringIO("λ(a) → sqrt(·a)"))
    assert main(["infer", "-", "--all", "--shared-names", "--locations"]) == 0
    shared = capsys.readouterr().out.splitlines()
    assert shared[0].endswith(":: (It[T₂, T₂, T₀¹]) → T₀¹")
    assert shared[1].endswith("a :: It[T₂, T₂, T₀¹]")  # the parameter: the same T₀ and T₂
    assert shared[-1] == "where T₀: float"
    monkeypatch.setattr(sys, "stdin", io.StringIO("λ(a) → sqrt(·a)"))
    assert main(["infer", "-", "--all"]) == 0
    alone = capsys.readouterr().out.splitlines()
    assert alone[1].endswith("a :: It[T₀¹] where T₀: float")  # numbered on its own line
    assert main(["infer", str(EXAMPLE), "--shared-names"]) == 2
    assert "--shared-names numbers the types of --all" in capsys.readouterr().err


def test_ascii_spells_every_printed_type(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for options in ([], ["--one-line"], ["--defs"], ["--all"], ["--all", "--shared-names"]):
        assert main([*NABLA, "--locations", *options]) == 0
        unicode = capsys.readouterr().out
        assert main([*NABLA, "--locations", "--ascii", *options]) == 0
        ascii_ = capsys.readouterr().out
        if "--all" not in options:  # the node's text, IR, is left as it is
            assert ascii_.isascii()
        types = [
            line.rpartition(" :: ")[2] if "--all" in options else line
            for line in ascii_.splitlines()
        ]
        assert types == [
            to_ascii(line.rpartition(" :: ")[2] if "--all" in options else line)
            for line in unicode.splitlines()
        ]
    assert main(["explain", f"{EXAMPLE}:4:13", "--ascii"]) == 0
    assert "\n  :: It[float64^0]\n" in capsys.readouterr().out
