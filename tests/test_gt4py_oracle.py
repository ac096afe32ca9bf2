"""`tools.gt4py_oracle` (GT4Py's test suite as the oracle), its parts that need no GT4Py: reading
pytest's junit XML, comparing two runs, the table and the report, the requirements read from a
GT4Py checkout, the command's exit statuses; and the plugin's grouping of tests by backend. The
runs themselves need GT4Py and a GT4Py checkout: docs/gt4py.md says how to make them."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from tools import gt4py_oracle as oracle
from tools import gt4py_oracle_plugin as plugin
from tools import gt4py_venv
from tools.gt4py_oracle import Difference, Outcome, Run

JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites name="pytest tests"><testsuite name="pytest" errors="1" failures="1" skipped="2" tests="6">
<testcase classname="tests.next_tests.unit_tests.test_a" name="test_ok[roundtrip.default]" time="0.1"/>
<testcase classname="tests.next_tests.unit_tests.test_a" name="test_bad" time="0.2">
<failure message="typeinf.gt4py.inference.GT4PyTypeInferenceError: a.py:3:4: error: no&#10;second line">Traceback
E   GT4PyTypeInferenceError</failure></testcase>
<testcase classname="tests.next_tests.unit_tests.test_a" name="test_skip" time="0.0">
<skipped type="pytest.skip" message="needs a GPU">skipped</skipped></testcase>
<testcase classname="tests.next_tests.unit_tests.test_a" name="test_xfail" time="0.0">
<skipped type="pytest.xfail" message="not supported">xfailed</skipped></testcase>
<testcase classname="tests.next_tests.unit_tests.test_a" name="test_teardown" time="0.0">
<error message="failed on teardown with &quot;OSError: gone&quot;">teardown</error></testcase>
<testcase classname="" name="tests.next_tests.unit_tests.test_b" time="0.0">
<error message="collection failure">ImportError: cannot import name 'x'</error></testcase>
</testsuite></testsuites>
"""


def junit(*cases: str) -> str:
    return f'<testsuites><testsuite name="pytest">{"".join(cases)}</testsuite></testsuites>'


def case(name: str, inner: str = "") -> str:
    return f'<testcase classname="m" name="{name}">{inner}</testcase>'


def failure(message: str, tag: str = "failure") -> str:
    return f'<{tag} message="{message}">traceback of {message}</{tag}>'


# -- junit XML -------------------------------------------------------------------------------


def test_each_outcome_is_read_with_its_message() -> None:
    outcomes = oracle.parse_junit(JUNIT)
    prefix = "tests.next_tests.unit_tests.test_a::"
    assert {test: o.kind for test, o in outcomes.items()} == {
        f"{prefix}test_ok[roundtrip.default]": "passed",
        f"{prefix}test_bad": "failed",
        f"{prefix}test_skip": "skipped",
        f"{prefix}test_xfail": "xfailed",
        f"{prefix}test_teardown": "error",
        "tests.next_tests.unit_tests.test_b": "error",  # a collection error has no class
    }
    bad = outcomes[f"{prefix}test_bad"]
    assert bad.first_line == "typeinf.gt4py.inference.GT4PyTypeInferenceError: a.py:3:4: error: no"
    assert bad.message.endswith("\nsecond line")
    assert bad.text == "Traceback\nE   GT4PyTypeInferenceError"
    assert outcomes[f"{prefix}test_skip"].message == "needs a GPU"


def test_a_failure_without_a_message_shows_its_traceback_first_line() -> None:
    outcome = oracle.parse_junit(junit(case("t", "<failure>\n\n  boom\nmore</failure>")))["m::t"]
    assert outcome == Outcome("failed", "", "\n\n  boom\nmore")
    assert outcome.first_line == "boom"
    assert Outcome("passed").first_line == ""


def test_a_test_reported_twice_keeps_its_worst_outcome() -> None:
    text = junit(case("t"), case("t", failure("E")), case("t"), case("u", failure("F", "error")))
    outcomes = oracle.parse_junit(text)
    assert outcomes["m::t"].kind == "failed"
    assert outcomes["m::u"].kind == "error"


def test_what_is_not_junit_xml_is_an_oracle_error(tmp_path: Path) -> None:
    with pytest.raises(oracle.OracleError, match="not a junit XML report"):
        oracle.parse_junit("<testsuites><testcase")
    broken = tmp_path / "broken.xml"
    broken.write_text("no xml", encoding="utf-8")
    with pytest.raises(oracle.OracleError, match=r"broken\.xml: not a junit XML report"):
        oracle.read_junit(broken)
    with pytest.raises(oracle.OracleError, match="cannot read"):
        oracle.read_junit(tmp_path / "missing.xml")


# -- comparison ------------------------------------------------------------------------------


def test_only_tests_whose_kind_of_outcome_differs_are_differences() -> None:
    gt4py = {
        "same": Outcome("passed"),
        "both_fail": Outcome("failed", "A: x"),
        "broke": Outcome("passed"),
        "fixed": Outcome("failed", "B: y"),
        "only_gt4py": Outcome("passed"),
        "skip": Outcome("skipped"),
    }
    ours = {
        "same": Outcome("passed"),
        "both_fail": Outcome("failed", "C: another message, same kind"),
        "broke": Outcome("error", "D: z"),
        "fixed": Outcome("passed"),
        "only_ours": Outcome("failed", "E: w"),
        "skip": Outcome("failed", "F: v"),
    }
    differences = oracle.compare(gt4py, ours)
    # Regressions (passed with GT4Py's, not with ours) first, then by test id.
    assert [(d.test, d.gt4py.kind, d.ours.kind, d.regression) for d in differences] == [
        ("broke", "passed", "error", True),
        ("only_gt4py", "passed", "absent", True),
        ("fixed", "failed", "passed", False),
        ("only_ours", "absent", "failed", False),
        ("skip", "skipped", "failed", False),
    ]
    # What explains a difference: ours' failure, or GT4Py's where ours passed.
    assert [d.shown.message for d in differences] == ["D: z", "", "B: y", "E: w", "F: v"]


@pytest.mark.parametrize(
    ("outcome", "expected"),
    [
        (
            Outcome("failed", "typeinf.gt4py.inference.GT4PyTypeInferenceError: a: b"),
            "GT4PyTypeInferenceError",
        ),
        (Outcome("error", "AssertionError"), "AssertionError"),
        (Outcome("failed", "", "\nValueError: bad\n"), "ValueError"),
        (Outcome("failed", "assert 1 == 2"), "other"),
        (Outcome("error", 'failed on teardown with "OSError: x"'), "other"),
        (Outcome("failed"), "other"),
        (Outcome("absent"), "absent"),
        (Outcome("passed"), "passed"),
        (Outcome("xfailed", "Error: x"), "xfailed"),
    ],
)
def test_error_class_is_the_exception_class_of_the_first_line(
    outcome: Outcome, expected: str
) -> None:
    assert oracle.error_class(outcome) == expected


# -- the table and the report ----------------------------------------------------------------


def runs_and_differences() -> tuple[dict[str, Run], list[Difference]]:
    error = "typeinf.gt4py.inference.GT4PyTypeInferenceError: f.py:1:2: error: `x` cannot hold"
    gt4py = Run(
        {"a": Outcome("passed"), "b": Outcome("passed"), "c": Outcome("failed", "KeyError: k")},
        seconds=61.4,
        header=["inference=gt4py"],
    )
    ours = Run(
        {"a": Outcome("failed", error, "trace"), "b": Outcome("passed"), "c": Outcome("passed")},
        seconds=59.6,
        header=["inference=ours via typeinf.gt4py.install(strict=True)"],
    )
    runs = {"gt4py": gt4py, "ours": ours}
    return runs, oracle.compare(gt4py.outcomes, ours.outcomes)


def test_the_table_counts_each_run_then_groups_the_differences() -> None:
    runs, differences = runs_and_differences()
    assert oracle.format_table(runs, differences, "GT4Py 9.9").splitlines() == [
        "GT4Py 9.9",
        "",
        "run    passed  failed  error  skipped  xfailed  total  time",
        "gt4py       2       1      0        0        0      3  61 s",
        "ours        2       1      0        0        0      3  60 s",
        "",
        "2 tests differ; 1 passed with GT4Py's inference and not with ours",
        "",
        "GT4PyTypeInferenceError (1, regression):",
        "  passed -> failed  a",
        "      typeinf.gt4py.inference.GT4PyTypeInferenceError: f.py:1:2: error: `x` cannot hold",
        "",
        "KeyError (1, not a regression):",
        "  failed -> passed  c",
        "      KeyError: k",
    ]


def test_the_table_of_runs_without_differences_or_times() -> None:
    runs = {"gt4py": Run({"a": Outcome("skipped")}), "ours": Run({"a": Outcome("skipped")})}
    lines = oracle.format_table(runs, [], "t").splitlines()
    assert lines[3:] == [
        "gt4py       0       0      0        1        0      1     -",
        "ours        0       0      0        1        0      1     -",
        "",
        "0 tests differ; 0 passed with GT4Py's inference and not with ours",
    ]


def test_the_tests_that_warned_are_counted_in_the_table_and_listed_in_the_report() -> None:
    runs, differences = runs_and_differences()
    runs["ours"].warned = ["t.py::a", "t.py::b[p]"]
    lines = oracle.format_table(runs, differences, "t").splitlines()
    assert lines[5] == (
        "ours: 2 tests emitted a DisagreementWarning (ours rejected a program that GT4Py's "
        "inference accepts; its types were used)"
    )
    made = oracle.report(runs, differences, {})
    assert made["runs"]["ours"]["warned"] == ["t.py::a", "t.py::b[p]"]  # type: ignore[index]
    assert "warned" not in made["runs"]["gt4py"]  # type: ignore[index]


def test_the_report_holds_both_outcomes_whole() -> None:
    runs, differences = runs_and_differences()
    made = oracle.report(runs, differences, {"gt4py": "9.9"})
    assert json.loads(json.dumps(made)) == made
    assert made["gt4py"] == "9.9"
    assert made["runs"] == {
        "gt4py": {
            "counts": {"passed": 2, "failed": 1, "error": 0, "skipped": 0, "xfailed": 0},
            "seconds": 61.4,
            "header": ["inference=gt4py"],
        },
        "ours": {
            "counts": {"passed": 2, "failed": 1, "error": 0, "skipped": 0, "xfailed": 0},
            "seconds": 59.6,
            "header": ["inference=ours via typeinf.gt4py.install(strict=True)"],
        },
    }
    first = made["differences"][0]  # type: ignore[index]
    assert first["test"] == "a" and first["regression"] is True
    assert first["gt4py"] == {"kind": "passed", "message": "", "text": ""}
    assert first["ours"]["text"] == "trace" and first["ours"]["kind"] == "failed"


# -- the checkout's requirements, the pytest arguments ---------------------------------------


def test_the_test_packages_are_pinned_as_the_checkout_lists_them() -> None:
    pyproject = """
[dependency-groups]
test = ['coverage[toml]>=7.6.1', 'hypothesis>=6.0.0', 'nox>=2025.02.09', 'pytest>=8.0.1',
        'Pytest_FactoryBoy>=2.6.1', 'pytest-xdist[psutil]>=3.5.0', {include-group = "x"}]
"""
    assert oracle.pins_from_pyproject(pyproject) == [
        "hypothesis>=6.0.0",
        "pytest>=8.0.1",
        "Pytest_FactoryBoy>=2.6.1",
        "pytest-xdist[psutil]>=3.5.0",
    ]
    # Without the group, the names alone.
    assert oracle.pins_from_pyproject("[project]\nname = 'gt4py'\n") == list(oracle.TEST_PACKAGES)
    with pytest.raises(oracle.OracleError, match="cannot be read"):
        oracle.pins_from_pyproject("[dependency-groups")


def test_test_paths_are_told_from_other_pytest_arguments(tmp_path: Path) -> None:
    (tmp_path / "tests" / "next_tests").mkdir(parents=True)
    (tmp_path / "tests" / "next_tests" / "test_x.py").write_text("", encoding="utf-8")
    args = ["-k", "roundtrip", "tests/next_tests/test_x.py::test_a[p]", "-x", "tests/next_tests"]
    assert oracle.split_pytest_args(args, tmp_path) == (
        ["tests/next_tests/test_x.py::test_a[p]", "tests/next_tests"],
        ["-k", "roundtrip", "-x"],
    )


def test_the_pytest_command_loads_the_plugin_and_writes_junit(tmp_path: Path) -> None:
    command = oracle.pytest_command(
        Path("/venv/bin/python"), "ours", "common,gtfn", tmp_path / "o.xml", 2, ["-k", "x", "t"]
    )
    assert command[:5] == ["/venv/bin/python", "-m", "pytest", "-p", "tools.gt4py_oracle_plugin"]
    assert "--oracle-inference=ours" in command and "--oracle-backends=common,gtfn" in command
    assert f"--junitxml={tmp_path / 'o.xml'}" in command
    assert "--continue-on-collection-errors" in command
    assert command[-5:] == ["-n", "2", "-k", "x", "t"]
    serial = oracle.pytest_command(Path("p"), "gt4py", "common", tmp_path / "o.xml", 0, [])
    assert "-n" not in serial
    assert not any(arg.startswith("--oracle-warned") for arg in serial)
    warned = oracle.pytest_command(
        Path("p"), "ours-default", "common", tmp_path / "o.xml", 0, [], tmp_path / "w.txt"
    )
    assert f"--oracle-warned={tmp_path / 'w.txt'}" in warned


def test_the_installs_are_the_plugins_inferences() -> None:
    assert set(oracle.INSTALLS.values()) | {"gt4py"} == set(plugin.INFERENCES)
    assert oracle.INSTALLS.keys() == oracle._INSTALL_CALLS.keys()


def test_an_earlier_runs_time_is_pytests_last_summary() -> None:
    log = "= 1 failed in 2.5s =\nx\n= 27 failed, 3426 passed, 18 errors in 1339.42s (0:22:19) =\n"
    assert oracle.pytest_seconds(log) == 1339.42
    assert oracle.pytest_seconds("== 3 passed in 7s ==") == 7.0
    assert oracle.pytest_seconds("no summary") is None


EARLIER_LOG = """== test session starts ==
typeinf-oracle: gt4py 1.2.3 from /venv/gt4py/__init__.py
typeinf-oracle: backends=common,embedded,roundtrip
typeinf-oracle: inference=gt4py
rootdir: /tmp/gt4py
== 1 passed in 12.0s ==
"""


def test_an_earlier_run_must_be_of_the_same_release_checkout_backends_and_inference() -> None:
    same = oracle.baseline_mismatches(
        EARLIER_LOG, "1.2.3", Path("/tmp/gt4py"), "roundtrip, common,embedded"
    )
    assert same == []
    ours = EARLIER_LOG.replace("inference=gt4py", "inference=ours-strict via x")
    assert oracle.baseline_mismatches(
        ours, "1.2.1", Path("/tmp/other"), "common,embedded,roundtrip,gtfn"
    ) == [
        "inference=ours-strict via x, not inference=gt4py",
        "GT4Py 1.2.3, not 1.2.1",
        "backends common,embedded,roundtrip, not common,embedded,roundtrip,gtfn",
        "rootdir /tmp/gt4py, not /tmp/other",
    ]
    assert oracle.baseline_mismatches("", "1.2.3", Path("/x"), "common") == [
        "no inference= line, not inference=gt4py",
        "GT4Py unknown, not 1.2.3",
        "backends unknown, not common",
        "rootdir unknown, not /x",
    ]


def test_the_plugin_header_lines_are_read_back() -> None:
    log = "== test session starts ==\ntypeinf-oracle: inference=ours\nrootdir: /x\ntypeinf-oracle: a b\n"
    assert oracle.header_lines(log) == ["inference=ours", "a b"]


# -- running pytest (a stand-in for the environment's python) --------------------------------


def stand_in(tmp_path: Path, status: int, writes_junit: bool = True) -> Path:
    """A `python` that, run as `python -m pytest … --junitxml=FILE …`, prints a header line,
    writes a junit report of one passed test (or none) and exits with `status`."""
    script = tmp_path / "python"
    write = (
        """for a in "$@"; do case "$a" in --junitxml=*) printf '%s' "$JUNIT" > "${a#--junitxml=}";; esac; done"""
        if writes_junit
        else ":"
    )
    script.write_text(
        f'#!/bin/sh\necho "typeinf-oracle: inference=x PYTHONPATH=$PYTHONPATH"\n{write}\nexit {status}\n',
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


@pytest.mark.skipif(os.name != "posix", reason="the stand-in is a shell script")
def test_a_run_reads_its_junit_report_and_header(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JUNIT", junit(case("t")))
    python = stand_in(tmp_path, 1)
    command = oracle.pytest_command(python, "ours", "common", tmp_path / "ours.xml", 0, [])
    run = oracle.one_run("ours", command, tmp_path, tmp_path, 60)
    assert run.outcomes == {"m::t": Outcome("passed")}
    assert run.seconds is not None and run.seconds >= 0
    # The header line, and this repository first on the run's PYTHONPATH.
    assert len(run.header) == 1
    assert run.header[0].startswith(f"inference=x PYTHONPATH={oracle.ROOT}")


@pytest.mark.skipif(os.name != "posix", reason="the stand-in is a shell script")
@pytest.mark.parametrize(("status", "writes"), [(2, True), (4, True), (0, False)])
def test_a_run_that_pytest_did_not_finish_is_an_oracle_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, status: int, writes: bool
) -> None:
    monkeypatch.setenv("JUNIT", junit(case("t")))
    python = stand_in(tmp_path, status, writes)
    command = oracle.pytest_command(python, "gt4py", "common", tmp_path / "gt4py.xml", 0, [])
    with pytest.raises(oracle.OracleError, match=rf"the gt4py run failed \(pytest exit {status};"):
        oracle.one_run("gt4py", command, tmp_path, tmp_path, 60)


# -- the command -----------------------------------------------------------------------------


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_compare_exits_1_on_a_regression_and_writes_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    theirs = write(tmp_path / "g.xml", junit(case("t"), case("u")))
    ours = write(tmp_path / "o.xml", junit(case("t", failure("ValueError: v")), case("u")))
    out = tmp_path / "r" / "report.json"
    assert oracle.main(["--compare", str(theirs), str(ours), "--report", str(out)]) == 1
    printed = capsys.readouterr().out
    assert "1 tests differ; 1 passed with GT4Py's inference and not with ours" in printed
    assert "ValueError (1, regression):\n  passed -> failed  m::t\n      ValueError: v" in printed
    made = json.loads(out.read_text(encoding="utf-8"))
    assert made["compare"] == [str(theirs), str(ours)]
    assert [d["test"] for d in made["differences"]] == ["m::t"]


def test_compare_exits_0_when_ours_breaks_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    theirs = write(tmp_path / "g.xml", junit(case("t", failure("KeyError: k")), case("u")))
    ours = write(tmp_path / "o.xml", junit(case("t"), case("u")))
    assert oracle.main(["--compare", str(theirs), str(ours)]) == 0
    assert "KeyError (1, not a regression):" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "--gt4py VERSION and --tests CHECKOUT are needed"),
        (["--gt4py", "1.2.3"], "--gt4py VERSION and --tests CHECKOUT are needed"),
        (["--gt4py", "1.2.3", "--tests", "{tmp}"], "is not a GT4Py checkout"),
        (["--compare", "{tmp}/none.xml", "{tmp}/none.xml"], "cannot read"),
        (["--compare", "{tmp}/a.xml", "{tmp}/a.xml", "-k", "x"], "--compare runs nothing: -k x"),
        (
            ["--compare", "{tmp}/a.xml", "{tmp}/a.xml", "--ours", "default"],
            "--compare runs nothing: --ours",
        ),
        (
            ["--compare", "{tmp}/a.xml", "{tmp}/a.xml", "--gt4py-junit", "{tmp}/a.xml"],
            "--compare runs nothing: --gt4py-junit",
        ),
    ],
)
def test_usage_and_setup_errors_exit_2_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    write(tmp_path / "a.xml", junit())
    argv = [arg.replace("{tmp}", str(tmp_path)) for arg in args]
    assert oracle.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("tools.gt4py_oracle: ") and message in err
    assert "Traceback" not in err


FAKE_VENV_PYTHON = """#!/bin/sh
# Stands for the environment's python: `-c CODE` prints $VERSION (GT4Py's version); as pytest,
# it writes $JUNIT_GT4PY or $JUNIT_OURS (by --oracle-inference) where --junitxml says, and one
# warned test where --oracle-warned says.
if [ "$1" = "-c" ]; then echo "$VERSION"; exit 0; fi
echo "typeinf-oracle: $*"
report=$JUNIT_GT4PY
for a in "$@"; do case "$a" in --oracle-inference=ours-*) report=$JUNIT_OURS;; esac; done
for a in "$@"; do case "$a" in --junitxml=*) printf '%s' "$report" > "${a#--junitxml=}";; esac; done
for a in "$@"; do case "$a" in --oracle-warned=*) echo "t.py::u" > "${a#--oracle-warned=}";; esac; done
exit 1
"""


@pytest.fixture
def fake_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[list[str]]]:
    """A GT4Py checkout (its test folders and pyproject.toml) and a stand-in environment; the
    requirements the environment is asked for, as they are asked."""
    checkout = tmp_path / "gt4py"
    for folder in oracle.TEST_FOLDERS[:2]:
        (checkout / folder).mkdir(parents=True)
    write(checkout / "pyproject.toml", "[dependency-groups]\ntest = ['pytest>=8']\n")
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    python = write(venv / "bin" / "python", FAKE_VENV_PYTHON)
    python.chmod(python.stat().st_mode | stat.S_IXUSR)
    asked: list[list[str]] = []

    def ensure_venv(interpreter: str, pins: list[str]) -> tuple[Path, None]:
        asked.append(pins)
        return venv, None

    monkeypatch.setattr(gt4py_venv, "find_python312", lambda: "python3.12")
    monkeypatch.setattr(gt4py_venv, "ensure_venv", ensure_venv)
    monkeypatch.setenv("VERSION", "1.2.3")
    monkeypatch.setenv("JUNIT_GT4PY", junit(case("t"), case("u")))
    monkeypatch.setenv("JUNIT_OURS", junit(case("t", failure("ValueError: v")), case("u")))
    return checkout, asked


@pytest.mark.skipif(os.name != "posix", reason="the stand-in is a shell script")
def test_both_runs_are_made_in_the_checkout_and_compared(
    fake_checkout: tuple[Path, list[list[str]]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    checkout, asked = fake_checkout
    argv = ["--gt4py", "1.2.3", "--tests", str(checkout), "--out", str(out), "-k", "x"]
    assert oracle.main([*argv, "--report", str(tmp_path / "r.json")]) == 1
    pins = ["hypothesis", "pytest>=8", "pytest-factoryboy", "pytest-xdist"]
    assert asked == [["gt4py[standard,testing]==1.2.3", *pins]]
    printed = capsys.readouterr().out
    assert "ValueError (1, regression):\n  passed -> failed  m::t" in printed
    assert sorted(p.name for p in out.iterdir()) == [
        "gt4py.log",
        "gt4py.xml",
        "ours.log",
        "ours.xml",
    ]
    made = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    # The default test folders that exist, after the other pytest arguments.
    assert made["paths"] == list(oracle.TEST_FOLDERS[:2])
    assert made["pytest_args"] == ["-k", "x"]
    header = made["runs"]["ours"]["header"][0]
    assert "--oracle-inference=ours-strict" in header and header.endswith(
        " ".join(["-k", "x", *oracle.TEST_FOLDERS[:2]])
    )
    assert "--oracle-warned" not in header and "warned" not in made["runs"]["ours"]
    assert made["ours"] == "strict" and made["gt4py_junit"] is None
    assert "ours installed strict (typeinf.gt4py.install(strict=True)); both runs made" in printed


@pytest.mark.skipif(os.name != "posix", reason="the stand-in is a shell script")
def test_a_relative_out_folder_is_relative_to_where_the_oracle_runs(
    fake_checkout: tuple[Path, list[list[str]]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pytest runs in the checkout: it is told where to write as an absolute path.
    monkeypatch.chdir(tmp_path)
    assert oracle.main(["--gt4py", "1.2.3", "--tests", str(fake_checkout[0]), "--out", "o"]) == 1
    assert (tmp_path / "o" / "ours.xml").is_file()
    assert not (fake_checkout[0] / "o").exists()


@pytest.mark.skipif(os.name != "posix", reason="the stand-in is a shell script")
def test_ours_installed_by_default_counts_the_tests_that_warned(
    fake_checkout: tuple[Path, list[list[str]]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    argv = ["--gt4py", "1.2.3", "--tests", str(fake_checkout[0]), "--out", str(out)]
    assert oracle.main([*argv, "--ours", "default", "--report", str(tmp_path / "r.json")]) == 1
    printed = capsys.readouterr().out
    assert "ours installed default (typeinf.gt4py.install()," in printed
    assert "\nours: 1 tests emitted a DisagreementWarning" in printed
    assert (out / "ours-warned.txt").read_text(encoding="utf-8") == "t.py::u\n"
    made = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert made["ours"] == "default" and made["runs"]["ours"]["warned"] == ["t.py::u"]
    assert "--oracle-inference=ours-default" in made["runs"]["ours"]["header"][0]
    assert "warned" not in made["runs"]["gt4py"]


@pytest.mark.skipif(os.name != "posix", reason="the stand-in is a shell script")
def test_an_earlier_gt4py_run_is_read_not_made(
    fake_checkout: tuple[Path, list[list[str]]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    checkout = fake_checkout[0]
    earlier = tmp_path / "earlier"
    earlier.mkdir()
    # The earlier run: t failed there, so ours (t failing, u passing) breaks nothing.
    write(earlier / "gt4py.xml", junit(case("t", failure("KeyError: k")), case("u")))
    log = EARLIER_LOG.replace("/tmp/gt4py", str(checkout))
    write(earlier / "gt4py.log", log.replace("roundtrip", "roundtrip,gtfn"))
    out = tmp_path / "out"
    argv = ["--gt4py", "1.2.3", "--tests", str(checkout), "--out", str(out), "--report"]
    argv += [str(tmp_path / "r.json"), "--gt4py-junit", str(earlier / "gt4py.xml")]
    assert oracle.main(argv) == 0
    printed = capsys.readouterr().out
    title = next(line for line in printed.splitlines() if line.startswith("GT4Py 1.2.3"))
    assert f"the gt4py column from {earlier / 'gt4py.xml'}, an earlier run (gt4py.log checked:" in (
        title
    )
    assert "\ngt4py       1       1      0        0        0      2  12 s\n" in printed
    assert sorted(p.name for p in out.iterdir()) == ["ours.log", "ours.xml"]
    made = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert made["gt4py_junit"] == str(earlier / "gt4py.xml")
    assert made["runs"]["gt4py"]["header"][2] == "inference=gt4py"
    # Another release's run is refused; without its log, it is taken unchecked.
    write(earlier / "gt4py.log", log.replace("1.2.3", "1.2.1"))
    assert oracle.main(argv) == 2
    assert "gt4py.log says: GT4Py 1.2.1, not 1.2.3" in capsys.readouterr().err
    (earlier / "gt4py.log").unlink()
    assert oracle.main(argv) == 0
    assert "(no gt4py.log beside it: its GT4Py, checkout, backends unchecked)" in (
        capsys.readouterr().out
    )


@pytest.mark.skipif(os.name != "posix", reason="the stand-in is a shell script")
def test_an_environment_with_another_gt4py_is_a_setup_error(
    fake_checkout: tuple[Path, list[list[str]]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("VERSION", "1.2.1")
    assert oracle.main(["--gt4py", "1.2.3", "--tests", str(fake_checkout[0])]) == 2
    assert "has GT4Py 1.2.1, not 1.2.3" in capsys.readouterr().err


# -- the plugin's backend groups -------------------------------------------------------------


class Enum(str):
    """Stands for GT4Py's `str` enums of backends (whose `str()` is their value)."""


@pytest.mark.parametrize(
    ("params", "markers", "group"),
    [
        ({}, set(), "common"),
        ({}, {"uses_dace"}, "dace"),
        ({"x": 1, "op": "plus"}, set(), "common"),
        (
            {"exec_alloc_descriptor": Enum("gt4py.next.program_processors.runners.gtfn.run_gtfn")},
            set(),
            "gtfn",
        ),
        (
            {
                "exec_alloc_descriptor": Enum(
                    "gt4py.next.program_processors.runners.gtfn.run_gtfn_gpu"
                )
            },
            {"requires_gpu"},
            "gpu",
        ),
        (
            {"exec_alloc_descriptor": Enum("gt4py.next.program_processors.runners.roundtrip.gtir")},
            set(),
            "roundtrip",
        ),
        (
            {
                "exec_alloc_descriptor": Enum(
                    "gt4py.next.program_processors.runners.dace.run_dace_cpu"
                )
            },
            {"uses_dace"},
            "dace",
        ),
        (
            {"exec_alloc_descriptor": Enum("next_tests.definitions.numpy_execution")},
            set(),
            "embedded",
        ),
        ({"exec_alloc_descriptor": Enum("next_tests.definitions.cupy_execution")}, set(), "gpu"),
        (
            {"exec_alloc_descriptor": Enum("next_tests.definitions.jax_numpy_execution")},
            set(),
            "jax",
        ),
        ({"program_processor": (None, True)}, set(), "embedded"),
        ({"program_processor_no_transforms": None}, set(), "embedded"),
        ({"other": None}, set(), "common"),
        (
            {
                "program_processor": (
                    Enum("gt4py.next.program_processors.runners.double_roundtrip.backend"),
                    True,
                )
            },
            set(),
            "roundtrip",
        ),
        (
            {
                "program_processor": (
                    Enum("gt4py.next.program_processors.formatters.gtfn.format_cpp"),
                    False,
                )
            },
            set(),
            "gtfn",
        ),
        (
            {
                "program_processor": (
                    Enum("gt4py.next.program_processors.formatters.lisp.format_lisp"),
                    False,
                )
            },
            set(),
            "roundtrip",
        ),
        (
            {
                "program_processor": (
                    Enum(
                        "gt4py.next.program_processors.formatters.pretty_print.format_itir_and_check"
                    ),
                    False,
                )
            },
            set(),
            "roundtrip",
        ),
    ],
)
def test_a_test_belongs_to_the_group_of_the_backend_it_runs_on(
    params: dict[str, object], markers: set[str], group: str
) -> None:
    assert plugin.backend_group(params, markers) == group
    assert group in plugin.GROUPS


def test_a_parameter_whose_equality_is_not_a_bool_is_not_compared() -> None:
    class Field:
        def __eq__(self, other: object) -> bool:
            raise AssertionError("compared")

        __hash__ = object.__hash__

    assert (
        plugin.backend_group({"program_processor": (Field(), 1), "a": Field()}, set()) == "common"
    )


def test_the_default_groups_are_the_same_in_the_command_and_the_plugin() -> None:
    assert oracle.DEFAULT_BACKENDS == plugin.DEFAULT_BACKENDS
