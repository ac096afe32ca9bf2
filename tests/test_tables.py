"""Parse tables kept on disk (`iterir.tables`): written once, read back by later starts, rebuilt
from a file cut short, and never a reason to fail where the cache folder cannot be made."""

from __future__ import annotations

from pathlib import Path

import pytest

from iterir import tables

GRAMMAR = """
start: NUMBER ("+" NUMBER)*
%import common.NUMBER
%ignore " "
"""


def test_tables_are_cached_once_and_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TYPEINF_CACHE_DIR", str(tmp_path / "cache"))
    first = tables.lalr("toy", GRAMMAR)
    files = list((tmp_path / "cache").iterdir())
    assert [f.name.startswith("toy-") and f.suffix == ".lark" for f in files] == [
        True
    ]  # no temporaries left
    written = files[0].read_bytes()
    second = tables.lalr("toy", GRAMMAR)  # read from the cache
    assert files[0].read_bytes() == written
    assert first.parse("1 + 2") == second.parse("1 + 2")
    other = tables.lalr("toy", GRAMMAR + "\n// another grammar\n")
    assert len(list((tmp_path / "cache").iterdir())) == 2  # keyed by the grammar
    assert other.parse("3") is not None


def test_an_unwritable_cache_folder_builds_the_tables_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would be", encoding="utf-8")
    monkeypatch.setenv("TYPEINF_CACHE_DIR", str(blocker / "cache"))
    assert tables.lalr("toy", GRAMMAR).parse("4 + 5") is not None
    assert blocker.read_text(encoding="utf-8") == "a file where the cache folder would be"


def test_the_cache_folder_follows_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("TYPEINF_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert tables.cache_dir() == tmp_path / "typeinf"
    monkeypatch.setenv("TYPEINF_CACHE_DIR", str(tmp_path / "mine"))
    assert tables.cache_dir() == tmp_path / "mine"


def test_a_cache_file_cut_short_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYPEINF_CACHE_DIR", str(tmp_path))
    tables.lalr("toy", GRAMMAR)
    (cached,) = tmp_path.iterdir()
    whole = cached.read_bytes()
    cached.write_bytes(whole[: len(whole) // 2])  # a full disk, or a start that read it mid-write
    assert tables.lalr("toy", GRAMMAR).parse("6 + 7") is not None
    rebuilt = cached.stat().st_mtime_ns
    assert len(cached.read_bytes()) > len(whole) // 2  # written whole again
    assert tables.lalr("toy", GRAMMAR).parse("8") is not None
    assert cached.stat().st_mtime_ns == rebuilt  # and read back, not rebuilt once more
