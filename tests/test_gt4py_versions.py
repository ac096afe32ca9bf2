"""`tools.gt4py_versions`, which runs tests/with_gt4py on each GT4Py release the extra allows:
its reading of pytest's output, its table and exit code, with pytest's runs stood in for (the
real runs take minutes each; `python3 -m tools.gt4py_versions` does them)."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from tools import gt4py_venv, gt4py_versions
from tools.gt4py_versions import Outcome, failure_lines, outcome, summary_counts, table


@pytest.mark.parametrize(
    ("output", "counts"),
    [
        ("....\n2001 passed in 312.40s (0:05:12)\n", {"passed": 2001}),
        (
            "F.\nFAILED tests/x.py::t - boom\n3 failed, 1998 passed, 1 skipped in 9.1s\n",
            {"failed": 3, "passed": 1998, "skipped": 1},
        ),
        (
            "===== 1 failed, 5 passed, 2 errors, 1 warning in 0.50s =====\n",
            {"failed": 1, "passed": 5, "error": 2},
        ),
        ("== 1 error in 0.12s ==\n", {"error": 1}),
        ("no tests ran in 0.01s\n", {}),
        ("ERROR: file or directory not found: nope.py\n", {}),  # pytest stopped before running
        ("12 passed in 1s\nlater output without a time\n", {"passed": 12}),
    ],
)
def test_the_summary_line_is_read(output: str, counts: dict[str, int]) -> None:
    assert summary_counts(output) == counts


def _done(stdout: str, returncode: int) -> subprocess.CompletedProcess[str]:
    return subprocess.CompletedProcess(["pytest"], returncode, stdout, "")


def test_an_outcome_counts_errors_as_failures_and_keeps_the_failing_lines() -> None:
    output = (
        "F.E\n=== short test summary info ===\n"
        "FAILED tests/with_gt4py/test_a.py::test_x - AssertionError\n"
        "ERROR tests/with_gt4py/test_b.py::test_y - TypeError\n"
        "1 failed, 10 passed, 1 error in 2.00s\n"
    )
    got = outcome("1.2.1", _done(output, 1), 2.0)
    assert (got.passed, got.failed, got.ok) == (10, 2, False)
    assert got.failures == (
        "FAILED tests/with_gt4py/test_a.py::test_x - AssertionError",
        "ERROR tests/with_gt4py/test_b.py::test_y - TypeError",
    )
    passing = outcome("1.2.3", _done("11 passed in 2.00s\n", 0), 2.0)
    assert passing.ok and passing.failures == ()


def test_a_run_that_failed_naming_no_test_keeps_the_end_of_its_output() -> None:
    output = "".join(f"line {i}\n" for i in range(30)) + "ERROR: usage: pytest [options]\n"
    got = outcome("1.2.2", _done(output, 4), 0.3)
    assert not got.ok and got.failed == 0
    assert got.failures[-1] == "ERROR: usage: pytest [options]"
    assert len(got.failures) == 20
    assert failure_lines("a\n\nb\n") == ("a", "b")


def test_the_table_has_a_row_a_release_and_notes_what_else_happened() -> None:
    outcomes = [
        Outcome("1.2.1", 2001, 0, 312.44, 0),
        Outcome("1.2.2", 1990, 11, 5.0, 1, others=(("skipped", 2),)),
        Outcome("1.2.3", 0, 0, 0.25, 4),
    ]
    assert table(outcomes).splitlines() == [
        "version  passed  failed  seconds",
        "1.2.1      2001       0    312.4",
        "1.2.2      1990      11      5.0",
        "1.2.3         0       0      0.2",
        "1.2.2: 2 skipped",
        "1.2.3: pytest exited with 4",
    ]
    assert [o.ok for o in outcomes] == [True, False, False]
    assert "no test passed" in table([Outcome("1.2.1", 0, 0, 1.0, 0)])


@pytest.fixture
def releases(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[Sequence[str]]:
    """Each release's environment stood in for by a folder; returns the pins asked for."""
    asked: list[Sequence[str]] = []

    def ensure(python: str, pins: Sequence[str] = ()) -> tuple[Path, float | None]:
        asked.append(pins)
        return tmp_path / pins[0], None

    monkeypatch.setattr(gt4py_venv, "find_python312", lambda: "python3.12")
    monkeypatch.setattr(gt4py_venv, "ensure_venv", ensure)
    monkeypatch.setattr(gt4py_versions, "installed_version", lambda venv: venv.name[7:])
    monkeypatch.delenv("TYPEINF_GT4PY_VENV", raising=False)
    return asked


def test_each_release_runs_in_its_own_environment_with_the_arguments(
    releases: list[Sequence[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    ran: list[tuple[str, ...]] = []

    def run(venv: Path, *args: str) -> subprocess.CompletedProcess[str]:
        ran.append((venv.name, *args))
        failing = venv.name == "gt4py==1.2.1"
        if failing:
            return _done("FAILED tests/with_gt4py/t.py::x - boom\n1 failed, 9 passed in 1s\n", 1)
        return _done("10 passed in 1.00s\n", 0)

    assert gt4py_versions.main(["-q", "-k", "conversion"], run) == 1
    assert releases == [["gt4py==1.2.1"], ["gt4py==1.2.2"], ["gt4py==1.2.3"]]
    assert ran == [(f"gt4py=={v}", "-q", "-k", "conversion") for v in gt4py_versions.VERSIONS]
    out = capsys.readouterr().out
    assert "GT4Py 1.2.1:\nFAILED tests/with_gt4py/t.py::x - boom\n" in out
    assert out.rstrip().splitlines()[-4:] == [
        "version  passed  failed  seconds",
        "1.2.1         9       1      0.0",
        "1.2.2        10       0      0.0",
        "1.2.3        10       0      0.0",
    ]
    assert gt4py_versions.main([], lambda venv, *a: _done("10 passed in 1s\n", 0)) == 0


def test_what_stops_a_run_is_a_message_and_exit_code_2_not_a_traceback(
    releases: list[Sequence[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    def timing_out(venv: Path, *args: str) -> subprocess.CompletedProcess[str]:
        if venv.name == "gt4py==1.2.2":
            raise subprocess.TimeoutExpired(["pytest"], 3600)
        return _done("10 passed in 1s\n", 0)

    assert gt4py_versions.main([], timing_out) == 2
    captured = capsys.readouterr()
    assert captured.err == (
        "tools.gt4py_versions: GT4Py 1.2.2: tests/with_gt4py did not finish in 3600 s\n"
    )
    assert "1.2.1        10       0" in captured.out  # what ran before is still shown
    assert "Traceback" not in captured.err + captured.out


def test_an_environment_that_cannot_be_made_is_named_by_its_release(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def failing(python: str, pins: Sequence[str] = ()) -> tuple[Path, float | None]:
        raise gt4py_venv.VenvError("`pip install` failed (exit 1):\nno network")

    monkeypatch.delenv("TYPEINF_GT4PY_VENV", raising=False)
    monkeypatch.setattr(gt4py_venv, "find_python312", lambda: "python3.12")
    monkeypatch.setattr(gt4py_venv, "ensure_venv", failing)
    assert gt4py_versions.main([]) == 2
    assert capsys.readouterr().err.startswith(
        "tools.gt4py_versions: GT4Py 1.2.1: `pip install` failed (exit 1):\nno network"
    )
    monkeypatch.setattr(gt4py_venv, "find_python312", lambda: None)
    assert gt4py_versions.main([]) == 2
    assert "no Python ≥ 3.12 found" in capsys.readouterr().err


def test_the_releases_are_those_the_extra_allows() -> None:
    extra = next(r for r in gt4py_venv.requirements() if r.startswith("gt4py"))
    assert extra.startswith("gt4py>=1.2.1,<1.3")
    assert gt4py_versions.VERSIONS[0] == "1.2.1"
    assert list(gt4py_versions.VERSIONS) == sorted(gt4py_versions.VERSIONS)


def test_an_environment_holding_another_release_or_one_for_all_is_an_error(
    releases: list[Sequence[str]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    def passing(venv: Path, *args: str) -> subprocess.CompletedProcess[str]:
        return _done("10 passed in 1s\n", 0)

    monkeypatch.setattr(gt4py_versions, "installed_version", lambda venv: "1.2.3")
    assert gt4py_versions.main([], passing) == 2
    assert capsys.readouterr().err == (
        f"tools.gt4py_versions: GT4Py 1.2.1: {tmp_path / 'gt4py==1.2.1'} holds GT4Py 1.2.3, "
        "not 1.2.1\n"
    )
    monkeypatch.setenv("TYPEINF_GT4PY_VENV", str(tmp_path / "one"))
    assert gt4py_versions.main([], passing) == 2
    assert capsys.readouterr().err.startswith(
        "tools.gt4py_versions: TYPEINF_GT4PY_VENV names one environment"
    )
    assert releases == [["gt4py==1.2.1"]]  # nothing made for it


def test_the_installed_release_is_read_from_the_environments_python(tmp_path: Path) -> None:
    python = tmp_path / "bin" / "python"
    python.parent.mkdir()
    python.write_text("#!/bin/sh\necho 1.2.2\n")
    python.chmod(0o755)
    assert gt4py_versions.installed_version(tmp_path) == "1.2.2"
    python.write_text("#!/bin/sh\necho 'No module named gt4py' >&2\nexit 1\n")
    with pytest.raises(gt4py_venv.VenvError, match="No module named gt4py"):
        gt4py_versions.installed_version(tmp_path)
