"""Files we write are written whole or not at all (`iterir.files.write_text`): `snapshot
update`, the pytest plugin's `--typeinf-update` and the docs generator use it. A failure while
writing one expected-types file leaves it as it was, and the others are still written."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from iterir import files
from iterir.files import write_text
from typeinf.frontends.cli import main


def test_a_file_is_replaced_whole_and_keeps_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "a.types"
    path.write_text("old\n", encoding="utf-8")
    path.chmod(0o640)
    write_text(path, "new\n")
    assert path.read_text(encoding="utf-8") == "new\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["a.types"]  # no temporary left


def test_a_text_that_cannot_be_encoded_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "a.types"
    path.write_text("old\n", encoding="utf-8")
    with pytest.raises(UnicodeEncodeError):
        write_text(path, "`\ud800` :: T₀\n")  # a lone surrogate
    assert path.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.types"]


def test_a_full_disk_leaves_the_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills while the new text is written (an injected ENOSPC from `os.fsync`)."""
    path = tmp_path / "a.types"
    path.write_text("old\n", encoding="utf-8")

    def full(descriptor: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "fsync", full)
    with pytest.raises(OSError, match="No space left"):
        write_text(path, "new\n" * 1000)
    assert path.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.types"]


def test_snapshot_update_writes_the_others_when_one_cannot_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("a", "b"):
        (tmp_path / f"{name}.itir").write_text("λ(x) → ·x\n", encoding="utf-8")
        (tmp_path / f"{name}.types").write_text("stale\n", encoding="utf-8")
    real = files.os.fsync

    def full_for_a(descriptor: int) -> None:
        if os.readlink(f"/proc/self/fd/{descriptor}").rpartition("/")[2].startswith(".a.types."):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(descriptor)

    monkeypatch.setattr(files.os, "fsync", full_for_a)
    assert main(["snapshot", "update", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert (tmp_path / "a.types").read_text(encoding="utf-8") == "stale\n"
    assert (tmp_path / "b.types").read_text(encoding="utf-8") == "(It[T₂, T₂, T₀¹]) → T₀¹\n"
    assert (
        err
        == f"{tmp_path / 'a.types'}: error: not written, left as it was: No space left on device\n"
    )
    assert out == f"updated {tmp_path / 'b.types'}\n0 match, 1 updated, 1 unwritable\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.itir", "a.types", "b.itir", "b.types"]
