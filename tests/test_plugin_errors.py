"""The pytest plugin's `--typeinf-update` records type errors only when a check accepts them
(as `typeinf snapshot update --accept-errors`), and a check allows free names as `check` does."""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = """
import iterir

def test_wrong(typeinf_snapshot):
    typeinf_snapshot.check(iterir.parse("1 + 1.0"){accept})

def test_free(typeinf_snapshot):
    typeinf_snapshot.check(iterir.parse("λ(it) → ·it + offset"){allow})
"""
FOLDER = "__typeinf_snapshots__"


def _run(pytester: pytest.Pytester, accept: str, allow: str) -> pytest.RunResult:
    pytester.makepyfile(test_compiler=TESTS.format(accept=accept, allow=allow))
    return pytester.runpytest("-p", "no:cacheprovider", "--typeinf-update")


def test_update_does_not_record_type_errors_unless_accepted(pytester: pytest.Pytester) -> None:
    folder = Path(pytester.path) / FOLDER
    folder.mkdir()
    kept = folder / "test_compiler.test_wrong.types"
    kept.write_text("int32⁰\n", encoding="utf-8")
    result = _run(pytester, "", ", allow_free={'offset'}")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*test_compiler.test_wrong.types is not updated: the program has type errors (pass "
            "accept_errors=True to record them as its expected output):",
            "1:5: error: type mismatch in the second argument of `plus`: expected `int32⁰`, found "
            "`float64¹`; `int32` is not `float64`",
        ]
    )
    assert kept.read_text(encoding="utf-8") == "int32⁰\n"  # the old expectation is kept

    result = _run(pytester, ", accept_errors=True", ", allow_free={'offset'}")
    result.assert_outcomes(passed=2)
    assert kept.read_text(encoding="utf-8").startswith("1:5: error: type mismatch")
    assert (folder / "test_compiler.test_free.types").read_text(encoding="utf-8") == (
        "(It[T₂, T₂, T₀¹]) → T₀¹ where T₀: numeric\n"
    )
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=2)


def test_a_free_name_is_an_error_unless_the_check_allows_it(pytester: pytest.Pytester) -> None:
    result = _run(pytester, ", accept_errors=True", "")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*`offset` is not defined*"])
