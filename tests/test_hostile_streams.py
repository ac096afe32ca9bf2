"""Hostile standard streams and oversized inputs, each in a `python3 -m typeinf` process of its
own: output in an encoding without `⁰` or `→` is escaped, a closed, full or broken stream is one
line on standard error and exit 2 (or the diagnostics' own exit code when they alone were
written), never an internal error; inputs larger than the limit (`/dev/zero` named or on standard
input, a huge sparse file) are refused before memory runs out; invalid UTF-8 on standard input is
an error located as in a file."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from iterir.files import MAX_INPUT_BYTES
from tests.conftest import ROOT
from typeinf.core.notation import to_ascii

TIMEOUT = 300  # generous: only there to turn a hang into a failure
EXAMPLES = ROOT / "examples"
TOO_LARGE = f"larger than the input limit of {MAX_INPUT_BYTES:,} bytes: not read"


def _env(**changes: str | None) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for name in ("PYTHONIOENCODING", "PYTHONUTF8", "LC_ALL", "LANG", "TYPEINF_TRACEBACK"):
        env.pop(name, None)
    env.update({name: value for name, value in changes.items() if value is not None})
    return env


def _typeinf(
    *args: str,
    env: dict[str, str] | None = None,
    shell_redirect: str = "",
    **options: object,
) -> subprocess.CompletedProcess[bytes]:
    """`python3 -m typeinf ARGS`, its redirections (`>&-`) made by a shell when asked."""
    command = [sys.executable, "-m", "typeinf", *args]
    if shell_redirect:
        command = ["bash", "-c", f'"$@" {shell_redirect}', "typeinf", *command]
    return subprocess.run(
        command,
        env=env or _env(),
        capture_output="stdout" not in options and "stderr" not in options,
        timeout=TIMEOUT,
        check=False,
        **options,  # type: ignore[arg-type]
    )


# -- output in a narrow encoding ------------------------------------------------------------------
NARROW = {
    "PYTHONIOENCODING=ascii": ("ascii", {"PYTHONIOENCODING": "ascii"}),
    "PYTHONIOENCODING=latin-1": ("latin-1", {"PYTHONIOENCODING": "latin-1"}),
    "LC_ALL=C PYTHONUTF8=0": ("ascii", {"LC_ALL": "C", "PYTHONUTF8": "0"}),
}


@pytest.fixture(scope="module")
def paths(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A folder whose one snapshot differs (`check` prints a diff full of `⁰` and `→`), and a
    program with a type error (its diagnostics are full of them too)."""
    root = tmp_path_factory.mktemp("narrow")
    (root / "snapshots").mkdir()
    shutil.copy(EXAMPLES / "laplacian.itir", root / "snapshots")
    (root / "snapshots" / "laplacian.types").write_text("λ → ⁰\n", encoding="utf-8")
    (root / "bad.itir").write_text("λ(x) → sqrt(1) + ·x\n", encoding="utf-8")
    return {
        "{good}": str(EXAMPLES / "laplacian.itir"),
        "{bad}": str(root / "bad.itir"),
        "{folder}": str(root / "snapshots"),
    }


COMMANDS = {
    "infer": (["infer", "{good}"], 0),
    "infer --all": (["infer", "--all", "{good}"], 0),
    "infer --json": (["infer", "--json", "{good}"], 0),
    "type errors": (["infer", "{bad}"], 1),
    "explain": (["explain", "{good}", "--at", "4:13"], 0),
    "format": (["format", "{good}"], 0),
    "docs": (["docs", "notation"], 0),
    "snapshot check": (["snapshot", "check", "{folder}"], 1),
}


# every command in ASCII; the other settings (the same mechanism) on three of them
CASES = [("PYTHONIOENCODING=ascii", command) for command in COMMANDS] + [
    (setting, command)
    for setting in ("PYTHONIOENCODING=latin-1", "LC_ALL=C PYTHONUTF8=0")
    for command in ("infer", "type errors", "snapshot check")
]


@pytest.fixture(scope="module")
def in_utf8(paths: dict[str, str]) -> Callable[[str], subprocess.CompletedProcess[bytes]]:
    """Each command's UTF-8 output, run once."""
    return functools.cache(
        lambda command: _typeinf(
            *[paths.get(arg, arg) for arg in COMMANDS[command][0]],
            env=_env(PYTHONIOENCODING="utf-8"),
        )
    )


@pytest.mark.parametrize(("setting", "command"), CASES)
def test_output_in_a_narrow_encoding_is_escaped(
    setting: str,
    command: str,
    paths: dict[str, str],
    in_utf8: Callable[[str], subprocess.CompletedProcess[bytes]],
) -> None:
    """The UTF-8 output, with the notation in its ASCII spelling (`⁰` as `^0`) and what the
    encoding still lacks escaped (`λ` as `\\u03bb`)."""
    args, code = COMMANDS[command]
    encoding, changes = NARROW[setting]
    reference = in_utf8(command)
    narrow = _typeinf(*[paths.get(arg, arg) for arg in args], env=_env(**changes))
    assert (reference.returncode, narrow.returncode) == (code, code)
    said = (reference.stdout + reference.stderr).decode("utf-8")
    assert said.encode(encoding, "replace") != said.encode(encoding, "backslashreplace")
    for utf8, got in ((reference.stdout, narrow.stdout), (reference.stderr, narrow.stderr)):
        expected = to_ascii(utf8.decode("utf-8")).encode(encoding, "backslashreplace")
        assert to_ascii(got.decode(encoding)) == expected.decode(encoding)
        if encoding == "ascii":  # nothing is left of the notation but its ASCII spelling
            assert got == expected


# -- closed, full and broken streams --------------------------------------------------------------
GOOD = str(EXAMPLES / "laplacian.itir")


def test_a_closed_standard_output() -> None:
    result = _typeinf("infer", GOOD, shell_redirect=">&-")
    assert (result.returncode, result.stdout) == (2, b"")
    assert result.stderr == b"typeinf: error: cannot write to standard output: it is closed\n"


def test_diagnostics_alone_keep_their_exit_code_when_standard_output_is_closed(
    paths: dict[str, str],
) -> None:
    result = _typeinf("infer", paths["{bad}"], shell_redirect=">&-")
    assert result.returncode == 1
    assert result.stderr.decode("utf-8").endswith(f"{paths['{bad}']}: 1 type error\n")


def test_a_full_standard_output() -> None:
    with open("/dev/full", "wb") as full:
        result = _typeinf("infer", GOOD, stdout=full, stderr=subprocess.PIPE)
    assert result.returncode == 2
    assert result.stderr == (
        b"typeinf: error: cannot write to standard output: No space left on device\n"
    )


@pytest.mark.parametrize("args", [["--help"], ["docs", "notation"]])
def test_help_and_docs_into_a_full_standard_output(args: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        result = _typeinf(*args, stdout=full, stderr=subprocess.PIPE)
    assert result.returncode == 2
    assert result.stderr == (
        b"typeinf: error: cannot write to standard output: No space left on device\n"
    )


def test_a_full_or_closed_standard_error_still_exits_with_a_code(paths: dict[str, str]) -> None:
    """Nothing can be said; the exit code still says it: 2, not 3 nor a crash at exit."""
    with open("/dev/full", "wb") as full:
        result = _typeinf("infer", paths["{bad}"], stdout=subprocess.PIPE, stderr=full)
    assert (result.returncode, result.stdout) == (2, b"")
    result = _typeinf("infer", paths["{bad}"], shell_redirect="2>&-")
    assert (result.returncode, result.stdout, result.stderr) == (2, b"", b"")


def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path: Path) -> None:
    """`typeinf infer --all BIG | head -c 10`: far more output than a pipe holds. The reader has
    what it wanted: no message, and the shell's status for a broken pipe (as git and grep)."""
    program = tmp_path / "sum.itir"
    program.write_text("λ(x) → " + " + ".join("·x" for _ in range(3000)) + "\n", encoding="utf-8")
    with subprocess.Popen(
        [sys.executable, "-m", "typeinf", "infer", "--all", str(program)],
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        assert len(process.stdout.read(10)) == 10
        process.stdout.close()
        assert process.wait(timeout=TIMEOUT) == 141
        assert process.stderr.read() == b""


def test_a_closed_standard_input() -> None:
    result = _typeinf("infer", "-", shell_redirect="<&-")
    assert (result.returncode, result.stdout) == (2, b"")
    assert result.stderr == b"<stdin>: error: cannot read standard input: it is closed\n"


# -- input limits and standard input --------------------------------------------------------------
def test_dev_zero_named_is_refused_at_the_limit() -> None:
    result = _typeinf("infer", "/dev/zero")
    assert (result.returncode, result.stdout) == (2, b"")
    assert result.stderr.decode("utf-8") == f"/dev/zero: error: {TOO_LARGE}\n"


def test_dev_zero_on_standard_input_is_refused_at_the_limit() -> None:
    with open("/dev/zero", "rb") as zero:
        result = _typeinf("infer", "-", stdin=zero, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert (result.returncode, result.stdout) == (2, b"")
    assert result.stderr.decode("utf-8") == f"<stdin>: error: {TOO_LARGE}\n"


@pytest.mark.parametrize("suffix", [".json", ".itir", ".offsets.json"])
def test_a_file_over_the_limit_is_refused_unread(tmp_path: Path, suffix: str) -> None:
    """A sparse file one byte over the limit (a program, or the provider beside one)."""
    huge = tmp_path / f"huge{suffix}"
    with open(huge, "wb") as file:
        file.truncate(MAX_INPUT_BYTES + 1)
    program = huge if suffix != ".offsets.json" else tmp_path / "huge.itir"
    if program != huge:
        program.write_text("λ(x) → ·x\n", encoding="utf-8")
    result = _typeinf("infer", str(program))
    assert (result.returncode, result.stdout) == (2, b"")
    assert result.stderr.decode("utf-8") == f"{huge}: error: {TOO_LARGE}\n"


def test_a_pipe_named_on_the_command_line_is_read() -> None:
    """`typeinf infer <(…)`: a named pipe the user gave is read (a found one never is)."""
    result = _typeinf("infer", shell_redirect="<(echo 'λ(x) → ·x + 1.0')")
    assert (result.returncode, result.stdout) == (0, "(It[float64⁰]) → float64⁰\n".encode())


def test_invalid_utf8_on_standard_input_is_an_error_located_as_in_a_file(tmp_path: Path) -> None:
    data = "λ(x) →\n  ·x + ".encode() + b"\xff1.0\n"
    program = tmp_path / "p.itir"
    program.write_bytes(data)
    from_stdin = _typeinf("infer", "-", input=data)
    from_file = _typeinf("infer", str(program))
    expected = (
        ":2:8: error: not UTF-8 text (byte 0xff at offset 18)\n      ·x + \\xff1.0\n           ^\n"
    )
    assert (from_stdin.returncode, from_file.returncode) == (2, 2)
    assert from_stdin.stderr.decode("utf-8") == "<stdin>" + expected
    assert from_file.stderr.decode("utf-8") == str(program) + expected
