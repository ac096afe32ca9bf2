"""Every example in `docs/*.md` is executed and compared with the real output, so the pages
cannot drift from the tool. The forms an example can take (any other fenced block fails):

- ```` ```console ````: `$ ` lines are commands, the lines after each its exact output (standard
  output and error in write order), ending in `[exit N]` when it exits with N ≠ 0. Commands run
  in-process from the repository root: `typeinf ARGS`, `echo 'TEXT' | typeinf ARGS`,
  `printf 'TEXT' | typeinf ARGS` (standard input), `cat PATH` (a file of the repository).
- a table whose header starts `| program |` with `compact` and/or `located` columns: each program
  is inferred and each type cell must equal the printed type. An optional `free` column lists the
  free names a row allows as unknowns (`allow_free`), as code spans; any other is an error.
- ```` ```pycon ````: a doctest session.
- ```` ```text ````: not an example (syntax summaries).
"""

from __future__ import annotations

import contextlib
import doctest
import io
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import iterir
from tests.conftest import ROOT
from typeinf import infer, pformat
from typeinf.fencil.signatures import BUILTINS
from typeinf.frontends.cli import main

DOCS = ROOT / "docs"
#: The documentation pages, and the long description the wheel carries (PACKAGE.md).
PAGES = [*sorted(DOCS.glob("*.md")), ROOT / "PACKAGE.md"]
_FENCE = re.compile(r"^```(.*)$")
_EXIT = re.compile(r"^\[exit (\d+)\]$")
_CELL = re.compile(r"^`(.*)`$")


@dataclass(frozen=True)
class Example:
    """One checked example: a fenced block or a table, and the line where it starts."""

    page: Path
    line: int
    kind: str  # "console", "pycon", "table"
    lines: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.page.name}:{self.line}"


def examples(page: Path) -> list[Example]:
    """The examples of a page; a fenced block of any other kind than the four is an error."""
    found: list[Example] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        fence = _FENCE.match(lines[index])
        if fence:
            kind, start = fence.group(1).strip(), index + 1
            end = next((j for j in range(start, len(lines)) if lines[j] == "```"), None)
            if end is None:
                raise AssertionError(f"{page.name}:{start}: a code block that is never closed")
            if kind not in ("console", "pycon", "text"):
                raise AssertionError(
                    f"{page.name}:{start}: a code block must be console, pycon or text, not {kind!r}"
                )
            if kind != "text":
                found.append(Example(page, start, kind, tuple(lines[start:end])))
            index = end + 1
            continue
        if lines[index].startswith("| program |"):
            end = index
            while end < len(lines) and lines[end].startswith("|"):
                end += 1
            found.append(Example(page, index + 1, "table", tuple(lines[index:end])))
            index = end
            continue
        index += 1
    return found


ALL = [example for page in PAGES for example in examples(page)]


def test_the_documentation_pages_are_there_and_have_examples() -> None:
    names = {page.name for page in PAGES}
    assert {"notation.md", "rules.md", "offset-providers.md", "builtins.md"} <= names, names
    for name in ("notation.md", "rules.md", "offset-providers.md"):
        assert sum(example.page.name == name for example in ALL) >= 3, (
            f"{name} has too few checked examples"
        )


def test_no_page_points_outside_the_repository() -> None:
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        assert "../shared" not in text and "TYPES.md" not in text, page.name
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
            if "://" not in target:
                assert (page.parent / target).exists(), (
                    f"{page.name} links to {target}, which does not exist"
                )


# -- console transcripts --------------------------------------------------------------------------
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\"}


def _stdin(producer: str) -> str:
    """What `echo 'TEXT'` or `printf 'TEXT'` writes into the pipe."""
    words = shlex.split(producer)
    assert words[0] in ("echo", "printf") and len(words) == 2, (
        f"unsupported producer in the docs: {producer!r}"
    )
    if words[0] == "echo":
        return words[1] + "\n"
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group()), words[1])


def run_command(command: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, int]:
    """What a documented command prints (stdout and stderr in write order) and its exit code."""
    stdin = ""
    producer, pipe, rest = command.rpartition(" | typeinf")
    if pipe:
        stdin, command = _stdin(producer), "typeinf" + rest
    words = shlex.split(command)
    if words[0] == "cat" and len(words) == 2:
        return (ROOT / words[1]).read_text(encoding="utf-8"), 0
    assert words[0] == "typeinf", f"unsupported command in the docs: {command!r}"
    output = io.StringIO()
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "100")  # argparse wraps --help to the terminal's width
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
        try:
            code = main(words[1:])
        except SystemExit as exit_:  # argparse: --help, --version, usage errors
            code = exit_.code if isinstance(exit_.code, int) else 0
    return output.getvalue(), code


def _console(example: Example, monkeypatch: pytest.MonkeyPatch) -> None:
    commands: list[tuple[str, list[str]]] = []
    for line in example.lines:
        if line.startswith("$ "):
            commands.append((line[2:], []))
        else:
            assert commands, f"{example}: output before any `$ ` command"
            commands[-1][1].append(line)
    for command, expected_lines in commands:
        expected_code = 0
        if expected_lines and _EXIT.match(expected_lines[-1]):
            expected_code = int(_EXIT.match(expected_lines[-1]).group(1))  # type: ignore[union-attr]
            expected_lines = expected_lines[:-1]
        output, code = run_command(command, monkeypatch)
        expected = "".join(line + "\n" for line in expected_lines)
        assert (output, code) == (expected, expected_code), f"{example}: `{command}`"


# -- tables ---------------------------------------------------------------------------------------
def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def _table(example: Example) -> None:
    header = _cells(example.lines[0])
    checked = [column for column in header[1:] if column in ("compact", "located")]
    assert checked and set(header[1:]) - {"compact", "located", "free", "note", "why"} == set(), (
        f"{example}: header {header}"
    )
    for offset, row in enumerate(example.lines[2:], start=2):
        cells = dict(zip(header, _cells(row), strict=True))
        where = f"{example.page.name}:{example.line + offset}"
        program = _CELL.match(cells["program"])
        assert program, f"{where}: the program cell must be one `code` span"
        allowed = re.findall(r"`([^`]+)`", cells.get("free", ""))
        type_ = infer(iterir.parse(program.group(1)), allow_free=allowed)
        for column in checked:
            expected = _CELL.match(cells[column])
            assert expected, f"{where}: the {column} cell must be one `code` span"
            assert pformat(type_, locations=column == "located") == expected.group(1), (
                f"{where} ({column})"
            )


# -- doctest sessions -----------------------------------------------------------------------------
def _pycon(example: Example, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    text = "\n".join(example.lines) + "\n"
    test = doctest.DocTestParser().get_doctest(
        text, {}, str(example), str(example.page), example.line
    )
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report = io.StringIO()
    registered = dict(BUILTINS)  # an example may register a builtin: it stays in its page
    try:
        runner.run(test, out=report.write)
    finally:
        BUILTINS.clear()
        BUILTINS.update(registered)
    assert runner.failures == 0, report.getvalue()


@pytest.mark.parametrize("example", ALL, ids=str)
def test_documented_example_is_real(example: Example, monkeypatch: pytest.MonkeyPatch) -> None:
    if example.kind == "console":
        _console(example, monkeypatch)
    elif example.kind == "table":
        _table(example)
    else:
        _pycon(example, monkeypatch)
