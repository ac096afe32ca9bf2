"""The command line's options and odd inputs, each pinned by its exact message: sibling offset
providers, `--defs` of an expression, `--max-errors`' summary, empty snapshot folders, created
snapshots, byte order marks, `explain` positions, the help's examples, `--version` and `docs`."""

from __future__ import annotations

import io
import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import typeinf
from tests.conftest import ROOT
from typeinf.core import packaged
from typeinf.frontends import docs_pages
from typeinf.frontends.cli import _EPILOG, main

EXAMPLES = ROOT / "examples"
NABLA, NABLA_PROVIDER = EXAMPLES / "nabla.itir", EXAMPLES / "nabla.offsets.json"
TWO_ERRORS = "f(a, b) {\n  g = λ(x) → sqrt(1);\n  h = λ(x) → sqrt(2);\n  a ← (g)(b) @ c⟨ IDim: [0, 1) ⟩;\n}\n"
BOM = "\ufeff"


def _nabla_in(folder: Path, max_neighbors: int) -> tuple[Path, Path]:
    """A copy of the nabla example whose sibling provider has `max_neighbors` neighbours per vertex."""
    program, provider = folder / "nabla.itir", folder / "nabla.offsets.json"
    shutil.copy(NABLA, program)
    provider.write_text(
        NABLA_PROVIDER.read_text().replace(
            '"max_neighbors": 7', f'"max_neighbors": {max_neighbors}'
        )
    )
    return program, provider


# 1. the offset provider beside a program --------------------------------------------------------
def test_infer_uses_the_sibling_offset_provider(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["infer", str(NABLA), "--offset-provider", str(NABLA_PROVIDER)]) == 0
    given = capsys.readouterr().out
    assert main(["infer", str(NABLA), "--verbose"]) == 0
    captured = capsys.readouterr()
    assert captured.out == given
    assert "L[float64, 7, True]" in given and "T₂" not in given
    assert captured.err == f"typeinf: {NABLA}: offset provider {NABLA_PROVIDER}\n"


def test_offset_provider_option_overrides_the_sibling(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program, _ = _nabla_in(tmp_path, 6)
    assert main(["infer", str(program), "--defs"]) == 0
    assert "L[float64, 6, True]" in capsys.readouterr().out
    assert (
        main(
            ["infer", str(program), "--defs", "--verbose", "--offset-provider", str(NABLA_PROVIDER)]
        )
        == 0
    )
    captured = capsys.readouterr()
    assert "L[float64, 7, True]" in captured.out and "L[float64, 6" not in captured.out
    assert captured.err == f"typeinf: {program}: offset provider {NABLA_PROVIDER}\n"


def test_each_file_has_its_own_sibling_and_standard_input_none(
    tmp_path: Path, monkeypatch, capsys: pytest.CaptureFixture[str]
) -> None:
    program, _ = _nabla_in(tmp_path, 6)
    lonely = tmp_path / "lonely.itir"
    lonely.write_text("λ(x) → ·x", encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO("λ(x) → ·x"))
    assert main(["infer", str(program), str(NABLA), str(lonely), "-", "--verbose", "--defs"]) == 0
    captured = capsys.readouterr()
    assert captured.err == (
        f"typeinf: {program}: offset provider {tmp_path / 'nabla.offsets.json'}\n"
        f"typeinf: {NABLA}: offset provider {NABLA_PROVIDER}\n"
        f"typeinf: {lonely}: no offset provider ({tmp_path / 'lonely.offsets.json'} does not exist)\n"
        f"{lonely}: no function definitions (an expression, not a fencil)\n"
        "typeinf: <stdin>: no offset provider (standard input has no file beside it: use --offset-provider)\n"
        "<stdin>: no function definitions (an expression, not a fencil)\n"
    )
    assert [line.split(" :: ")[0] for line in captured.out.splitlines()] == [
        f"{program}: edge_average",
        f"{program}: pnabla",
        f"{NABLA}: edge_average",
        f"{NABLA}: pnabla",
    ]


def test_a_broken_sibling_provider_is_an_error_of_that_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program, provider = _nabla_in(tmp_path, 6)
    provider.write_text('{"V2E": {"type": "Connectivity"}}', encoding="utf-8")
    assert main(["infer", str(program), str(EXAMPLES / "laplacian.itir")]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"{provider}: error: offset provider entry 'V2E': missing 'origin'\n"
    assert captured.out.startswith(f"{EXAMPLES / 'laplacian.itir'}: lap :: ")
    assert main(["infer", str(program), "--json"]) == 2
    [report] = json.loads(capsys.readouterr().out)["files"]
    assert (
        report["diagnostics"][0]["message"]
        == f"{provider}: offset provider entry 'V2E': missing 'origin'"
    )
    assert report["diagnostics"][0]["span"] is None


def test_explain_uses_the_sibling_offset_provider(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program, _ = _nabla_in(tmp_path, 6)
    assert main(["explain", f"{program}:5:7", "--verbose"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[:2] == [
        f"{program}:5:7: sign: It[L[float64]]",
        "  :: It[L[float64, 6, True]ᶜ]",
    ]
    assert (
        captured.err == f"typeinf: {program}: offset provider {tmp_path / 'nabla.offsets.json'}\n"
    )
    assert main(["explain", f"{program}:5:7", "--offset-provider", str(NABLA_PROVIDER)]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "  :: It[L[float64, 7, True]ᶜ]"
    provided = ["--offset-provider", str(NABLA_PROVIDER), "--locations"]
    assert main(["explain", f"{program}:5:7", *provided]) == 0
    assert (
        capsys.readouterr().out.splitlines()[1] == "  :: It[ANYWHERE, Vertex, L[float64, 7, True]ᶜ]"
    )


# 2. --defs without definitions ------------------------------------------------------------------
def test_defs_of_a_program_without_definitions_says_so(
    monkeypatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("λ(x) → ·x"))
    assert main(["infer", "-", "--defs"]) == 0
    assert capsys.readouterr() == (
        "",
        "<stdin>: no function definitions (an expression, not a fencil)\n",
    )
    monkeypatch.setattr(
        sys, "stdin", io.StringIO("f(a, b) {\n  a ← (λ(x) → ·x)(b) @ c⟨ IDim: [0, 1) ⟩;\n}\n")
    )
    assert main(["infer", "-", "--defs"]) == 0
    assert capsys.readouterr() == (
        "",
        "<stdin>: no function definitions (fencil `f` defines none)\n",
    )


# 3. --max-errors' summary -----------------------------------------------------------------------
def test_max_errors_says_that_more_were_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = tmp_path / "two.itir"
    program.write_text(TWO_ERRORS, encoding="utf-8")
    assert main(["infer", str(program), "--max-errors", "1"]) == 1
    err = capsys.readouterr().err
    assert err.count(": error: ") == 1
    assert err.endswith(f"\n{program}: 1 of at least 2 type errors shown (--max-errors 1)\n")
    for limit in ("2", "3"):  # every error shown: the count is exact
        assert main(["infer", str(program), "--max-errors", limit]) == 1
        err = capsys.readouterr().err
        assert err.count(": error: ") == 2 and err.endswith(f"\n{program}: 2 type errors\n")
    assert main(["infer", str(program), "--max-errors", "1", "--json"]) == 1
    [report] = json.loads(capsys.readouterr().out)["files"]
    assert [d["span"]["line"] for d in report["diagnostics"]] == [2]


# 4. and 5. snapshot folders ---------------------------------------------------------------------
def test_snapshot_of_a_folder_without_programs_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.txt").write_text("not IR")
    for action in ("check", "update"):
        assert main(["snapshot", action, str(tmp_path)]) == 2
        assert capsys.readouterr() == (
            "",
            f"typeinf: error: no IR files (*.itir, *.json) in {tmp_path}\n",
        )
    assert main(["snapshot", "check", str(tmp_path / "exampels")]) == 2
    assert capsys.readouterr() == ("", f"typeinf: error: {tmp_path / 'exampels'} is not a folder\n")


def test_snapshot_update_counts_created_and_updated_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.itir").write_text("λ(x) → ·x")
    (tmp_path / "b.itir").write_text("1.0")
    (tmp_path / "b.types").write_text("int32⁰\n")
    assert main(["snapshot", "update", str(tmp_path)]) == 0
    assert capsys.readouterr().out == (
        f"created {tmp_path / 'a.types'}\nupdated {tmp_path / 'b.types'}\n"
        "0 match, 1 created, 1 updated\n"
    )


# 6. byte order marks ----------------------------------------------------------------------------
def test_a_byte_order_mark_is_ignored(
    tmp_path: Path, monkeypatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text, as_json = tmp_path / "a.itir", tmp_path / "b.json"
    text.write_text(BOM + "λ(x) → ·x", encoding="utf-8")
    as_json.write_text(BOM + '{"node": "SymRef", "id": "x"}', encoding="utf-8")
    assert main(["infer", str(text)]) == 0
    assert capsys.readouterr().out == "(It[T₀¹]) → T₀¹\n"
    assert main(["explain", f"{text}:1:1"]) == 0  # columns count from after the mark
    assert capsys.readouterr().out.startswith(f"{text}:1:1: λ(x) → ·x\n")
    assert main(["format", str(as_json)]) == 0
    assert capsys.readouterr().out == "x\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(BOM + "1.0"))
    assert main(["infer", "-"]) == 0
    assert capsys.readouterr().out == "float64⁰\n"


def test_snapshots_ignore_byte_order_marks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program, provider = _nabla_in(tmp_path, 7)
    program.write_text(BOM + program.read_text(encoding="utf-8"), encoding="utf-8")
    provider.write_text(BOM + provider.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "nabla.types").write_text(
        BOM + (EXAMPLES / "nabla.types").read_text(encoding="utf-8"), encoding="utf-8"
    )
    assert main(["snapshot", "check", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "1 match\n"
    (tmp_path / "nabla.types").write_bytes(b"\xff\xfe")
    assert main(["snapshot", "check", str(tmp_path)]) == 2
    assert capsys.readouterr() == (
        "0 match, 1 unreadable\n",
        f"{tmp_path / 'nabla.types'}:1:1: error: not UTF-8 text (byte 0xff at offset 0)\n"
        "    \\xff\\xfe\n    ^\n",
    )


# 7. explain's positions -------------------------------------------------------------------------
def test_explain_needs_text_and_a_position_inside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    as_json = tmp_path / "lap.json"
    assert main(["format", str(EXAMPLES / "laplacian.itir"), "--to", "json"]) == 0
    as_json.write_text(capsys.readouterr().out, encoding="utf-8")
    assert main(["explain", f"{as_json}:1:1"]) == 2
    assert capsys.readouterr().err == (
        f"{as_json}:1:1: error: `explain` needs a position in the IR text syntax, and JSON has none: convert "
        f"it with `typeinf format {as_json} --to text > {tmp_path / 'lap.itir'}` and explain a position in "
        f"{tmp_path / 'lap.itir'}\n"
    )
    program = tmp_path / "e.itir"
    program.write_text("λ(x) →\n  ·x + 1.0   \n\n", encoding="utf-8")
    expected = {
        "2:14": "column 14 is past the end of line 2, which has 13 columns",
        "3:1": "column 1 is past the end of line 3, which has 0 columns",
        "4:1": "line 4 is past the end of the file, which has 3 lines",
        "0:1": "lines and columns are counted from 1",
        "2:0": "lines and columns are counted from 1",
        "2:12": "no expression there\n      ·x + 1.0   \n               ^",
    }
    for position, message in expected.items():
        assert main(["explain", f"{program}:{position}"]) == 2
        assert capsys.readouterr() == ("", f"{program}:{position}: error: {message}\n")


# 8. the help's examples -------------------------------------------------------------------------
def _pages_in(folder: Path, monkeypatch) -> None:
    """Point `typeinf docs` at `folder/docs`, with two pages of its own."""
    monkeypatch.setattr(packaged, "_PACKAGE", folder)
    folder = folder / "docs"
    folder.mkdir()
    (folder / "notation.md").write_text(
        "<!-- the notation -->\n# The notation of types\n\ntext\n", encoding="utf-8"
    )
    (folder / "offset-providers.md").write_text(
        "```\n# not a heading\n```\n## Offset providers ##\n", encoding="utf-8"
    )


def test_every_example_of_the_help_runs(
    tmp_path: Path, monkeypatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _pages_in(tmp_path, monkeypatch)
    monkeypatch.chdir(ROOT)
    commands = [line.split() for line in _EPILOG.splitlines() if line.startswith("  typeinf ")]
    assert len(commands) >= 5 and ["typeinf", "docs", "notation"] in commands
    for command in commands:
        assert main(command[1:]) == 0, shlex.join(command)
        capsys.readouterr()


# 9. --version ----------------------------------------------------------------------------------
def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == f"typeinf {typeinf.__version__}\n"
    result = subprocess.run(
        [sys.executable, "-m", "typeinf", "--version"], capture_output=True, text=True, check=False
    )
    assert (result.returncode, result.stdout, result.stderr) == (
        0,
        f"typeinf {typeinf.__version__}\n",
        "",
    )


# 10. documentation pages ------------------------------------------------------------------------
def test_docs_lists_and_prints_pages(
    tmp_path: Path, monkeypatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _pages_in(tmp_path, monkeypatch)
    assert main(["docs"]) == 0
    assert capsys.readouterr().out == (
        "notation          The notation of types\noffset-providers  Offset providers\n"
    )
    for name in ("notation", "notation.md"):
        assert main(["docs", name]) == 0
        assert capsys.readouterr().out == "<!-- the notation -->\n# The notation of types\n\ntext\n"
    assert main(["docs", "rulez"]) == 2
    assert capsys.readouterr() == (
        "",
        "typeinf: error: no documentation page 'rulez'; the pages are: notation, offset-providers\n",
    )
    nowhere = tmp_path / "nowhere" / "typeinf"
    monkeypatch.setattr(packaged, "_PACKAGE", nowhere)
    monkeypatch.delenv("TYPEINF_TRACEBACK", raising=False)
    assert main(["docs"]) == 3
    message = (
        f"FileNotFoundError: no *.md files in {nowhere / 'docs'} or {nowhere.parent / 'docs'}\n"
    )
    assert message in capsys.readouterr().err


def test_docs_are_found_beside_the_package_in_a_checkout() -> None:
    assert {page.path.parent for page in docs_pages.pages()} == {ROOT / "docs"}


def test_help_points_to_the_docs_command(capsys: pytest.CaptureFixture[str]) -> None:
    texts = []
    for command in ([], ["infer"], ["explain"], ["format"], ["snapshot"], ["docs"]):
        with pytest.raises(SystemExit):
            main([*command, "--help"])
        texts.append(" ".join(capsys.readouterr().out.split()))  # as wrapped at any width
    assert "`typeinf docs` lists the documentation pages" in texts[0]
    assert all(
        "(typeinf docs offset-providers)" in text and "notation: typeinf docs notation)" in text
        for text in texts[1:3]
    )
    assert all("TYPES.md" not in text and "../shared" not in text for text in texts)
