"""The GT4Py side of typeinf (`typeinf.gt4py`, tests/with_gt4py) needs GT4Py 1.2, hence Python
≥ 3.12: this test runs tests/with_gt4py in a Python ≥ 3.12 virtual environment that
`tools.gt4py_venv` makes once and reuses, and fails with their output when they fail. Without
a Python ≥ 3.12 it skips, saying so, except under CI (`CI` set), where it fails."""

from __future__ import annotations

import importlib
import os
import sys
import time
from pathlib import Path

import pytest

from tools import gt4py_venv


def test_the_gt4py_side_passes_in_a_python_312_venv() -> None:
    python = gt4py_venv.find_python312()
    if python is None:
        reason = (
            "no Python ≥ 3.12 found to run tests/with_gt4py (GT4Py 1.2 needs it): "
            "set TYPEINF_PYTHON312 to one"
        )
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI must run them")
        pytest.skip(reason)
    venv, seconds = gt4py_venv.ensure_venv(python)
    made = "reused" if seconds is None else f"made in {seconds:.1f} s"
    start = time.monotonic()
    result = gt4py_venv.run_tests(venv, "-q")
    took = time.monotonic() - start
    # Shown with `-s`, and beside a failure: the figures, never asserted (the machine is noisy).
    print(f"GT4Py venv {venv} {made}; tests/with_gt4py took {took:.1f} s", file=sys.stderr)
    assert result.returncode == 0, result.stdout + result.stderr


def test_typeinf_gt4py_without_gt4py_says_to_install_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "gt4py", None)  # as if GT4Py were not installed
    monkeypatch.delitem(sys.modules, "typeinf.gt4py", raising=False)
    with pytest.raises(ImportError, match=r'pip install "itir-typeinf\[gt4py\]"'):
        importlib.import_module("typeinf.gt4py")


#: Stands for a Python: `-m venv DIR` makes DIR/bin/python (itself); `-m pip …` fails when
#: FAKE_PIP_FAILS is set (an install that breaks half-way), else succeeds.
FAKE_PYTHON = """#!/bin/sh
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then mkdir -p "$3/bin" && cp "$0" "$3/bin/python"; exit; fi
if [ -n "$FAKE_PIP_FAILS" ]; then echo "pip: no network" >&2; exit 1; fi
"""


@pytest.fixture
def fake_python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    python = tmp_path / "python"
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    monkeypatch.setenv("TYPEINF_GT4PY_VENV", str(tmp_path / "cache" / "venv"))
    return str(python)


def test_a_failed_install_leaves_no_venv_to_reuse(
    fake_python: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_PIP_FAILS", "1")
    with pytest.raises(gt4py_venv.VenvError, match="pip: no network"):
        gt4py_venv.ensure_venv(fake_python)
    assert list((tmp_path / "cache").iterdir()) == []  # neither the venv nor its half


def test_a_venv_is_renamed_into_place_when_complete_then_reused(
    fake_python: str, tmp_path: Path
) -> None:
    abandoned = tmp_path / "cache" / ".venv.tmp-999999999"  # a build whose process is gone
    (abandoned / "bin").mkdir(parents=True)
    venv, seconds = gt4py_venv.ensure_venv(fake_python)
    assert venv == tmp_path / "cache" / "venv"
    assert (venv / "bin" / "python").is_file()
    assert seconds is not None
    assert list((tmp_path / "cache").iterdir()) == [venv]
    assert gt4py_venv.ensure_venv(fake_python) == (venv, None)


def test_the_cached_venv_is_named_by_pyproject_and_interpreter(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("TYPEINF_GT4PY_VENV", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = gt4py_venv.venv_path(sys.executable)
    assert path.parent == tmp_path / "typeinf"
    assert path.name.startswith("gt4py-venv-")
    assert gt4py_venv.venv_path(sys.executable) == path
