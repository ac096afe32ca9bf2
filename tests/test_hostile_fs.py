"""A hostile or unlucky file system under `typeinf snapshot check|update DIR` and the inputs of
`typeinf infer`: an expected-types file that is a folder, a FIFO, a symlink loop, a symlink out of
DIR, too large, or not UTF-8, and a read-only file system. Each is a clear error naming the file,
the other programs are still checked or written, nothing is lost, and the exit code is 2.

A read-only file system is simulated by injecting the OSError (EROFS) that creating the temporary
file would raise: the tests run as root, which ignores permissions, and mounting needs privileges.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from iterir import files
from iterir.files import MAX_INPUT_BYTES
from tests.conftest import ROOT
from typeinf.frontends.cli import main

PROGRAM = "λ(x) → ·x\n"
TYPES = "(It[T₂, T₂, T₀¹]) → T₀¹\n"
STALE = "stale\n"


def _folder(tmp_path: Path) -> Path:
    """DIR with two programs: `a` (whose expected file each test makes hostile) and `b`, whose
    stale expected file must still be reported by `check` and rewritten by `update`."""
    folder = tmp_path / "dir"
    folder.mkdir()
    for name in ("a", "b"):
        (folder / f"{name}.itir").write_text(PROGRAM, encoding="utf-8")
    (folder / "b.types").write_text(STALE, encoding="utf-8")
    return folder


def _run_both(folder: Path, capsys: pytest.CaptureFixture[str], problem: str) -> None:
    """`check` then `update` on `folder`: both exit 2 naming `a.types` with `problem` (after
    `error: `, or the whole message when it has a location); `b` is still compared, then
    written."""
    said = (
        problem if problem.startswith(str(folder)) else f"{folder / 'a.types'}: error: {problem}\n"
    )
    assert main(["snapshot", "check", str(folder)]) == 2
    out, err = capsys.readouterr()
    assert err == said
    assert f"-{STALE}+{TYPES}" in out
    assert out.endswith("0 match, 1 differ, 1 unreadable\n")
    assert main(["snapshot", "update", str(folder)]) == 2
    out, err = capsys.readouterr()
    assert err == said
    assert out == f"updated {folder / 'b.types'}\n0 match, 1 updated, 1 unreadable\n"
    assert (folder / "b.types").read_text(encoding="utf-8") == TYPES


def _in_a_process(*args: str) -> subprocess.CompletedProcess[str]:
    """`python3 -m typeinf ARGS`, where a hang is a failure (a generous timeout), not a stuck
    test run."""
    return subprocess.run(
        [sys.executable, "-m", "typeinf", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )


def test_an_expected_file_that_is_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _folder(tmp_path)
    (folder / "a.types").mkdir()
    (folder / "a.types" / "keep").write_text("kept\n", encoding="utf-8")
    _run_both(folder, capsys, "cannot read file: it is a folder, not a regular file")
    assert (folder / "a.types" / "keep").read_text(encoding="utf-8") == "kept\n"


def test_an_expected_file_that_is_a_fifo_never_blocks(tmp_path: Path) -> None:
    """In a process of its own, with a generous timeout: today's `check` waits forever for a
    writer."""
    folder = _folder(tmp_path)
    os.mkfifo(folder / "a.types")
    for action in ("check", "update"):
        result = _in_a_process("snapshot", action, str(folder))
        assert result.returncode == 2
        assert result.stderr == (
            f"{folder / 'a.types'}: error: cannot read file: it is a named pipe (FIFO), not a "
            "regular file\n"
        )
    assert (folder / "a.types").is_fifo()
    assert (folder / "b.types").read_text(encoding="utf-8") == TYPES


def test_a_symlink_loop(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path)
    (folder / "a.types").symlink_to("a.types")
    _run_both(folder, capsys, "cannot read file: Too many levels of symbolic links")
    assert os.readlink(folder / "a.types") == "a.types"


def test_a_symlink_out_of_the_folder_is_neither_read_nor_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _folder(tmp_path)
    outside = tmp_path / "precious.txt"
    outside.write_text("not ours\n", encoding="utf-8")
    (folder / "a.types").symlink_to(outside)
    _run_both(folder, capsys, f"a symlink to {outside}, outside {folder}: neither read nor written")
    assert outside.read_text(encoding="utf-8") == "not ours\n"
    assert (folder / "a.types").readlink() == outside


def test_a_symlink_inside_the_folder_is_written_through(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The link stays a link: the file it points to gets the new types."""
    folder = _folder(tmp_path)
    (folder / "shared").mkdir()
    (folder / "shared" / "a.types").write_text(STALE, encoding="utf-8")
    (folder / "a.types").symlink_to(Path("shared") / "a.types")
    assert main(["snapshot", "update", str(folder)]) == 0
    assert capsys.readouterr().out.endswith("0 match, 2 updated\n")
    assert (folder / "a.types").is_symlink()
    assert (folder / "shared" / "a.types").read_text(encoding="utf-8") == TYPES


def test_a_huge_expected_file_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """1 GiB, sparse: refused by its size before any of it is read."""
    folder = _folder(tmp_path)
    with open(folder / "a.types", "wb") as huge:
        huge.truncate(2**30)
    _run_both(folder, capsys, f"larger than the input limit of {MAX_INPUT_BYTES:,} bytes: not read")
    assert (folder / "a.types").stat().st_size == 2**30


def test_an_expected_file_that_is_not_utf8(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _folder(tmp_path)
    (folder / "a.types").write_bytes(b"(It[T\xe2\x82\x80]) \xff\n")
    _run_both(
        folder,
        capsys,
        f"{folder / 'a.types'}:1:10: error: not UTF-8 text (byte 0xff at offset 11)\n"
        "    (It[T₀]) \\xff\n             ^\n",
    )
    assert (folder / "a.types").read_bytes() == b"(It[T\xe2\x82\x80]) \xff\n"


def test_programs_that_cannot_be_read_are_named_not_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A FIFO or a dangling symlink named like a program, or a dangling offset provider, was
    silently left out (or typed without its provider)."""
    folder = _folder(tmp_path)
    (folder / "b.types").write_text(TYPES, encoding="utf-8")
    os.mkfifo(folder / "c.itir")
    (folder / "d.itir").symlink_to("nowhere.itir")
    (folder / "a.offsets.json").symlink_to("nowhere.json")
    assert main(["snapshot", "check", str(folder)]) == 2
    out, err = capsys.readouterr()
    assert err == (
        f"{folder / 'a.offsets.json'}: error: cannot read file: No such file or directory\n"
        f"{folder / 'c.itir'}: error: cannot read file: it is a named pipe (FIFO), not a "
        "regular file\n"
        f"{folder / 'd.itir'}: error: cannot read file: No such file or directory\n"
    )
    assert out == "1 match, 3 unreadable\n"


def test_a_read_only_file_system(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _folder(tmp_path)
    (folder / "a.types").write_text(STALE, encoding="utf-8")

    def read_only(*args: object, **kwargs: object) -> tuple[int, str]:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(files.tempfile, "mkstemp", read_only)
    assert main(["snapshot", "update", str(folder)]) == 2
    out, err = capsys.readouterr()
    assert err == "".join(
        f"{folder / name}: error: not written, left as it was: Read-only file system\n"
        for name in ("a.types", "b.types")
    )
    assert out == "0 match, 2 unwritable\n"
    assert [(folder / name).read_text(encoding="utf-8") for name in ("a.types", "b.types")] == [
        STALE,
        STALE,
    ]
    assert sorted(p.name for p in folder.iterdir()) == ["a.itir", "a.types", "b.itir", "b.types"]


def test_infer_names_a_dangling_sibling_provider(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It was taken for no provider at all, and the program typed without one."""
    program = tmp_path / "a.itir"
    program.write_text(PROGRAM, encoding="utf-8")
    (tmp_path / "a.offsets.json").symlink_to("moved.offsets.json")
    assert main(["infer", str(program)]) == 2
    assert capsys.readouterr() == (
        "",
        f"{tmp_path / 'a.offsets.json'}: error: cannot read file: No such file or directory\n",
    )


def test_an_offset_provider_that_is_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    """Beside the program (found, not named) or named: only a program FILE may be a pipe."""
    program = tmp_path / "a.itir"
    program.write_text(PROGRAM, encoding="utf-8")
    os.mkfifo(tmp_path / "a.offsets.json")
    for extra in ([], ["--offset-provider", str(tmp_path / "a.offsets.json")]):
        result = _in_a_process("infer", str(program), *extra)
        assert (result.returncode, result.stdout) == (2, "")
        assert result.stderr == (
            f"{tmp_path / 'a.offsets.json'}: error: cannot read file: it is a named pipe (FIFO), "
            "not a regular file\n"
        )
