"""The GT4Py side of typeinf (`typeinf.gt4py`, tests/with_gt4py) needs GT4Py 1.2, hence Python
≥ 3.12: this test runs tests/with_gt4py in a Python ≥ 3.12 virtual environment that
`tools.gt4py_venv` makes once and reuses, and fails with their output when they fail. Without
a Python ≥ 3.12 it skips, saying so, except under CI (`CI` set), where it fails."""

from __future__ import annotations

import importlib
import os
import sys
import time

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
