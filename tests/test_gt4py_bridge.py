"""The GT4Py side of typeinf (`typeinf.gt4py`, tests/with_gt4py) needs GT4Py 1.2, hence Python
≥ 3.12: this test runs tests/with_gt4py in a Python ≥ 3.12 virtual environment that
`tools.gt4py_venv` makes once and reuses, and fails with their output when they fail. Without
a Python ≥ 3.12 it skips, saying so, except under CI (`CI` set), where it fails; a
`TYPEINF_PYTHON312` that names no such Python fails. The other tests here check
`tools.gt4py_venv` itself with a fake interpreter."""

from __future__ import annotations

import importlib
import os
import sys
import time
from pathlib import Path

import pytest

from tools import gt4py_venv


def test_the_gt4py_side_passes_in_a_python_312_venv() -> None:
    try:
        python = gt4py_venv.find_python312()
    except gt4py_venv.VenvError as error:
        pytest.fail(str(error))
    if python is None:
        reason = (
            "no Python ≥ 3.12 found to run tests/with_gt4py (GT4Py 1.2 needs it): "
            "set TYPEINF_PYTHON312 to one"
        )
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI must run them")
        pytest.skip(reason)
    try:
        venv, seconds = gt4py_venv.ensure_venv(python)
    except gt4py_venv.VenvError as error:
        pytest.fail(str(error))
    made = "reused" if seconds is None else f"made in {seconds:.1f} s"
    start = time.monotonic()
    result = gt4py_venv.run_tests(venv, "-q")
    took = time.monotonic() - start
    # Shown with `-s`, and beside a failure: the figures, never asserted (the machine is noisy).
    print(f"GT4Py venv {venv} {made}; tests/with_gt4py took {took:.1f} s", file=sys.stderr)
    assert result.returncode == 0, result.stdout + result.stderr
    # Exit code 0 also when every test skips (GT4Py not importable, say): none may.
    summary = result.stdout.strip().splitlines()[-1]
    assert " passed" in summary, result.stdout + result.stderr
    assert not any(word in summary for word in ("skipped", "deselected", "xfailed")), summary


def test_typeinf_gt4py_without_gt4py_says_to_install_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "gt4py", None)  # as if GT4Py were not installed
    monkeypatch.delitem(sys.modules, "typeinf.gt4py", raising=False)
    with pytest.raises(ImportError, match=r'pip install "itir-typeinf\[gt4py\]"'):
        importlib.import_module("typeinf.gt4py")


#: Stands for a Python: `-m venv DIR` makes DIR/bin/python (itself); `-m pip …` fails when
#: FAKE_PIP_FAILS is set (an install that breaks half-way), else succeeds; each pip command is
#: appended to $FAKE_PIP_LOG, one argument a line, then a blank line.
FAKE_PYTHON = """#!/bin/sh
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then mkdir -p "$3/bin" && cp "$0" "$3/bin/python"; exit; fi
if [ "$1" = "-m" ] && [ -n "$FAKE_PIP_LOG" ]; then printf '%s\\n' "$@" "" >> "$FAKE_PIP_LOG"; fi
if [ -n "$FAKE_PIP_FAILS" ]; then echo "pip: no network" >&2; exit 1; fi
"""


@pytest.fixture
def fake_python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    python = tmp_path / "python"
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    monkeypatch.setenv("TYPEINF_GT4PY_VENV", str(tmp_path / "cache" / "venv"))
    monkeypatch.setenv("FAKE_PIP_LOG", str(tmp_path / "pip.log"))
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


def test_the_venv_holds_the_requirements_not_a_checkout(fake_python: str, tmp_path: Path) -> None:
    gt4py_venv.ensure_venv(fake_python)
    commands = [c.split("\n") for c in (tmp_path / "pip.log").read_text().split("\n\n") if c]
    # One pip command: no upgrade of pip, no editable install pointing at this checkout.
    assert commands == [["-m", "pip", "install", "-q", *gt4py_venv.requirements()]]
    assert "gt4py>=1.2.1,<1.3; python_version >= '3.12'" in gt4py_venv.requirements()
    assert "pytest>=7" in gt4py_venv.requirements()


def test_the_cached_venv_is_named_by_requirements_and_interpreter(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("TYPEINF_GT4PY_VENV", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = gt4py_venv.venv_path(sys.executable)
    assert path.parent == tmp_path / "typeinf"
    assert path.name.startswith("gt4py-venv-")
    assert gt4py_venv.venv_path(sys.executable) == path
    changed = tmp_path / "checkout"
    changed.mkdir()
    # Each GT4Py release pinned (tools.gt4py_versions) has an environment of its own.
    pinned = {gt4py_venv.venv_path(sys.executable, [f"gt4py=={v}"]) for v in ("1.2.1", "1.2.2")}
    assert len(pinned) == 2 and path not in pinned
    pyproject = (gt4py_venv.ROOT / "pyproject.toml").read_text()
    extra = "gt4py>=1.2.1,<1.3"
    assert extra in pyproject
    (changed / "pyproject.toml").write_text(pyproject.replace(extra, "gt4py>=1.2.1,<1.4"))
    monkeypatch.setattr(gt4py_venv, "ROOT", changed)
    assert gt4py_venv.venv_path(sys.executable).parent == path.parent
    assert gt4py_venv.venv_path(sys.executable) != path


def test_a_python312_variable_naming_no_python_is_an_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TYPEINF_PYTHON312", str(tmp_path / "no-such-python"))
    with pytest.raises(gt4py_venv.VenvError, match=r"TYPEINF_PYTHON312=.*no-such-python"):
        gt4py_venv.find_python312()
    assert gt4py_venv.main([]) == 2
    assert capsys.readouterr().err.startswith("tools.gt4py_venv: TYPEINF_PYTHON312=")


def test_a_venv_folder_that_is_no_venv_is_an_error_not_a_traceback(
    fake_python: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    taken = tmp_path / "cache" / "venv"
    taken.mkdir(parents=True)
    (taken / "notes.txt").write_text("mine")
    monkeypatch.setenv("TYPEINF_PYTHON312", fake_python)
    assert gt4py_venv.main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tools.gt4py_venv: cannot put the environment at {taken} ")
    assert "Traceback" not in err
    assert (taken / "notes.txt").read_text() == "mine"  # nothing of the user's is lost
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == ["venv"]


def test_an_interpreter_that_fails_is_an_error_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "python"
    # Passes the ≥ 3.12 probe (exit 0) but fails when asked its version (`print` in the code).
    broken.write_text('#!/bin/sh\ncase "$2" in *print*) exit 1;; esac\n')
    broken.chmod(0o755)
    monkeypatch.setenv("TYPEINF_PYTHON312", str(broken))
    monkeypatch.delenv("TYPEINF_GT4PY_VENV", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert gt4py_venv.main([]) == 2
    assert "import sys; print(sys.version)` failed" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["-q"], False),
        (["-k", "docs"], False),  # an option's value, though `docs` exists
        (["--rootdir", "."], False),
        (["tests/with_gt4py/test_switch.py"], True),
        (["-q", "tests/with_gt4py/test_switch.py::test_install"], True),
        (["tests/with_gt4py"], True),
        (["tests/with_gt4py/no_such_file.py"], False),  # pytest says so, on the whole folder
    ],
)
def test_run_tests_narrows_to_the_tests_named_only(args: list[str], named: bool) -> None:
    """`python3 -m tools.gt4py_venv pytest FILE` runs FILE, not the whole folder besides; an
    option's value that names a path does not drop the folder (which ran no GT4Py test)."""
    assert any(map(gt4py_venv._names_tests, args)) is named
