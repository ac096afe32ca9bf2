"""The outside switches of the drop-in for GT4Py (`typeinf.frontends.gt4py_switches`) where GT4Py
is not installed (this environment): the values they take, and what they say when they cannot
install it. With GT4Py, in a fresh environment, tests/with_gt4py/test_outside_switches.py."""

from __future__ import annotations

import subprocess
import sys

import pytest

from typeinf.frontends.gt4py_switches import MODES, VARIABLE, ModeError, mode_of

HAS_GT4PY = subprocess.run([sys.executable, "-c", "import gt4py.next"]).returncode == 0


@pytest.mark.parametrize(
    ("value", "mode"),
    [("off", "off"), ("on", "on"), ("strict", "strict"), (" Strict\n", "strict"), ("", "off")],
)
def test_a_value_is_read_as_one_of_the_modes(value: str, mode: str) -> None:
    assert mode_of(value, VARIABLE) == mode and mode in MODES


@pytest.mark.parametrize("value", ["1", "true", "yes", "strickt", "on,strict"])
def test_any_other_value_says_which_are_taken(value: str) -> None:
    with pytest.raises(ModeError) as raised:
        mode_of(value, "--typeinf-gt4py")
    assert str(raised.value) == f"--typeinf-gt4py={value!r} is not one of off, on, strict"


@pytest.mark.skipif(HAS_GT4PY, reason="GT4Py is installed here")
def test_the_option_without_gt4py_is_a_usage_error_that_says_to_install_it(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(test_nothing="def test_nothing(): pass")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--typeinf-gt4py=on")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*typeinf.gt4py needs GT4Py 1.2 (Python ≥ 3.12): install the extra*"]
    )
    assert "Traceback" not in result.stderr.str()


def test_the_option_off_needs_no_gt4py(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_nothing="def test_nothing(): pass")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--typeinf-gt4py=off")
    result.assert_outcomes(passed=1)
    assert "typeinf drop-in" not in result.stdout.str()


def test_a_bad_option_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_nothing="def test_nothing(): pass")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--typeinf-gt4py=maybe")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--typeinf-gt4py='maybe' is not one of off, on, strict*"])


def test_the_variable_without_gt4py_does_nothing_until_gt4py_is_imported() -> None:
    """The `.pth` file's call, as Python's start makes it: armed, the process runs as before."""
    script = (
        "from typeinf.frontends import gt4py_switches as s; import sys; s.at_startup(); "
        "s.at_startup(); print(sum(isinstance(f, s.AfterImport) for f in sys.meta_path))"
    )
    environment = {"TYPEINF_GT4PY": "strict", "PATH": ""}
    run = subprocess.run(
        [sys.executable, "-c", script], env=environment, capture_output=True, text=True
    )
    assert run.returncode == 0 and run.stdout == "1\n" and run.stderr == ""
