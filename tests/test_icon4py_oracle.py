"""`tools.icon4py_oracle` (icon4py's stencil tests as the oracle and stopwatch of the drop-in) and
its pytest plugin, the parts that need neither icon4py nor GT4Py: the drop-in's summary read from
a run's output, the runs' commands, the table and the report, the exit statuses, and the
plugin's finding of where a rejection was raised (on a real traceback through stand-ins of
GT4Py's pass manager and typeinf's drop-in), the rejected node saved, the tests that warned.
The runs themselves need an icon4py checkout: docs/gt4py.md says how to make them."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from tools import gt4py_oracle, gt4py_venv
from tools import icon4py_oracle as oracle
from tools import icon4py_oracle_plugin as plugin
from tools.gt4py_oracle import OracleError, Outcome, Run
from tools.icon4py_oracle import DropIn, IconRun
from tools.icon4py_oracle_plugin import Frame, Rejection, Site

SUMMARY = """\
------------------------------- typeinf drop-in --------------------------------
typeinf's drop-in for GT4Py's type inference (on, with GT4Py's inference as the fallback):
  calls: 1117 of `infer`, 9016 of `reinfer`; 4.045 s in inference
  DisagreementWarnings: 2
    program `fused`: <ir> fused(…): error: no
    a node: <ir>: error: other
12 passed in 3.20s
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def junit(*cases: str) -> str:
    return f'<testsuites><testsuite name="pytest">{"".join(cases)}</testsuite></testsuites>'


def case(name: str, failure: str = "") -> str:
    inner = f'<failure message="{failure}">trace</failure>' if failure else ""
    return f'<testcase classname="m" name="{name}">{inner}</testcase>'


# -- a run's output ----------------------------------------------------------------------------


def test_the_drop_ins_summary_is_read_from_the_output() -> None:
    assert oracle.parse_dropin_summary(SUMMARY) == DropIn(
        10133, 4.045, ["program `fused`: <ir> fused(…): error: no", "a node: <ir>: error: other"]
    )
    quiet = SUMMARY.replace("DisagreementWarnings: 2", "DisagreementWarnings: 0")
    assert oracle.parse_dropin_summary(quiet) == DropIn(10133, 4.045, [])
    assert oracle.parse_dropin_summary("12 passed in 3.20s\n") is None  # off: no drop-in


def test_a_summary_not_as_expected_is_an_oracle_error() -> None:
    broken = SUMMARY.replace("; 4.045 s in inference", "")
    with pytest.raises(OracleError, match="the drop-in's summary is not as expected"):
        oracle.parse_dropin_summary(broken)


@pytest.mark.parametrize(
    ("given", "modes"),
    [("off,on,strict", ["off", "on", "strict"]), ("strict, off", ["off", "strict"])],
)
def test_the_runs_are_made_in_the_order_of_the_modes(given: str, modes: list[str]) -> None:
    assert oracle.parse_modes(given) == modes
    assert oracle.run_names(True, modes) == [f"gtfn-{mode}" for mode in modes]


@pytest.mark.parametrize("given", ["", ",", "off,fast", "ON"])
def test_a_mode_that_is_none_of_the_three_is_an_oracle_error(given: str) -> None:
    with pytest.raises(OracleError, match="give modes of off, on, strict"):
        oracle.parse_modes(given)


def test_the_default_tests_are_the_stencil_folders_of_the_three_packages(tmp_path: Path) -> None:
    for folder in (
        "model/atmosphere/dycore/tests/dycore/stencil_tests",
        "model/common/tests/common/math/stencil_tests",
        "model/common/tests/common/grid/unit_tests",
        "model/atmosphere/advection/tests/advection/stencil_tests",
    ):
        (tmp_path / folder).mkdir(parents=True)
    write(tmp_path / "model/common/tests/common/io/stencil_tests", "a file, not a folder")
    assert oracle.stencil_folders(tmp_path) == [
        "model/atmosphere/dycore/tests/dycore/stencil_tests",
        "model/common/tests/common/math/stencil_tests",
    ]


def test_each_mode_has_its_command(tmp_path: Path) -> None:
    python = Path("/venv/bin/python")
    off = oracle.pytest_command(python, "off", "off", oracle.ROUNDTRIP, tmp_path)
    assert off[:11] == [
        "/venv/bin/python",
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-p",
        "typeinf.frontends.pytest_plugin",
        "-p",
        "tools.icon4py_oracle_plugin",
        "--typeinf-gt4py=off",
        f"--backend={oracle.ROUNDTRIP}",
    ]
    assert "--benchmark-disable" in off and "--datatest-skip" in off
    assert f"--junitxml={tmp_path / 'off'}.xml" in off
    assert not [arg for arg in off if arg.startswith("--oracle-")]
    on = oracle.pytest_command(python, "gtfn-on", "on", oracle.GTFN_PASSES, tmp_path)
    assert f"--oracle-warned={tmp_path / 'gtfn-on'}-warned.txt" in on
    assert "--oracle-serial-builds" in on and "--oracle-serial-builds" not in off
    strict = oracle.pytest_command(python, "strict", "strict", oracle.ROUNDTRIP, tmp_path)
    assert f"--oracle-rejections={tmp_path / 'strict'}-rejections" in strict


# -- the table ---------------------------------------------------------------------------------


def rejection(test: str, step: str = "CollapseTuple.apply", files: str = "001") -> Rejection:
    return Rejection(
        test,
        "fused",
        step,
        "apply_common_transforms:250",
        "gt4py.next.iterator.transforms.collapse_tuple:apply",
        "<ir> fused(…): error: no",
        "GT4PyTypeInferenceError",
        files,
    )


def three_runs() -> list[IconRun]:
    error = "GT4PyTypeInferenceError: <ir> fused(…): error: no"
    passed = {"a": Outcome("passed"), "b": Outcome("passed"), "c": Outcome("skipped")}
    lost = {**passed, "b": Outcome("error", error)}
    return [
        IconRun("off", "off", oracle.ROUNDTRIP, Run(passed, 100.0), 180.0),
        IconRun(
            "on",
            "on",
            oracle.ROUNDTRIP,
            Run(passed, 80.0),
            150.0,
            DropIn(20, 1.25, ["program `fused`: <ir> fused(…): error: no"]),
            warned=["b"],
        ),
        IconRun(
            "strict",
            "strict",
            oracle.ROUNDTRIP,
            Run(lost, 75.0),
            dropin=DropIn(19, 1.0, []),
            rejections=[rejection("b")],
            rejections_folder="/out/strict-rejections",
        ),
    ]


def test_the_table_counts_times_losses_warnings_and_rejections() -> None:
    assert oracle.format_table(three_runs(), "icon4py 9.9").splitlines() == [
        "icon4py 9.9",
        "",
        "run     passed  failed  error  skipped  xfailed  total   wall    CPU          inference  warnings",
        "off          2       0      0        1        0      3  100 s  180 s                  -         -",
        "on           2       0      0        1        0      3   80 s  150 s  1.2 s in 20 calls         1",
        "strict       1       0      1        1        0      3   75 s      -  1.0 s in 19 calls         0",
        "",
        "on / off: wall 0.80 (-20 %), CPU 0.83 (-17 %)",
        "strict / off: wall 0.75 (-25 %)",
        "",
        "1 tests lost (passed with GT4Py's inference, not so here)",
        "  strict: error  b",
        "      GT4PyTypeInferenceError: <ir> fused(…): error: no",
        "",
        "1 DisagreementWarnings",
        "  on: program `fused`: <ir> fused(…): error: no",
        "",
        "strict: 1 tests failed on a rejection by typeinf (nodes saved in /out/strict-rejections)",
        "  CollapseTuple.apply (apply_common_transforms:250): 1",
        "    fused [001], called from gt4py.next.iterator.transforms.collapse_tuple:apply: "
        "<ir> fused(…): error: no",
        "        b",
    ]


def test_runs_are_compared_with_the_off_run_of_their_own_backend() -> None:
    off, _, strict = three_runs()
    gtfn_strict = IconRun("gtfn-strict", "strict", oracle.GTFN_PASSES, strict.run, rejections=[])
    # No off run with gtfn's options: nothing is lost there, and no ratio is said.
    found = oracle.findings([off, gtfn_strict])
    assert found.lost == [] and found.disagreements == 0
    assert oracle.ratios([off, gtfn_strict]) == []
    table = oracle.format_table([gtfn_strict], "t").splitlines()
    assert table[-1] == "gtfn-strict: 0 tests failed on a rejection by typeinf"


def test_the_report_holds_each_run_and_the_tests_lost() -> None:
    made = oracle.report(three_runs(), "icon4py 9.9")
    assert made["title"] == "icon4py 9.9"
    runs: Any = made["runs"]
    assert [run["name"] for run in runs] == ["off", "on", "strict"]
    assert runs[0]["run"] == {
        "counts": {"passed": 2, "failed": 0, "error": 0, "skipped": 1, "xfailed": 0},
        "wall": 100.0,
    }
    assert runs[1]["dropin"]["calls"] == 20 and runs[1]["warned"] == ["b"]
    assert runs[2]["rejections"][0]["step"] == "CollapseTuple.apply"
    assert made["lost"] == [
        {
            "run": "strict",
            "test": "b",
            "kind": "error",
            "first_line": "GT4PyTypeInferenceError: <ir> fused(…): error: no",
        }
    ]
    json.dumps(made)  # what --report writes


# -- the command, on a stand-in environment ----------------------------------------------------

FAKE_VENV_PYTHON = """#!/bin/sh
# Stands for the environment's python: `-c CODE` prints GT4Py's version; as pytest, it writes
# $JUNIT (with $JUNIT_STRICT in the strict run) where --junitxml says, the drop-in's summary
# when on or strict, a warned test where --oracle-warned says, no rejection where
# --oracle-rejections says, and exits $STATUS.
if [ "$1" = "-c" ]; then echo "1.2.1"; exit 0; fi
echo "typeinf-oracle: $*"
report=$JUNIT
for a in "$@"; do case "$a" in --typeinf-gt4py=strict) report=$JUNIT_STRICT;; esac; done
for a in "$@"; do case "$a" in --junitxml=*) printf '%s' "$report" > "${a#--junitxml=}";; esac; done
for a in "$@"; do case "$a" in --oracle-warned=*) echo "m::t" > "${a#--oracle-warned=}";; esac; done
for a in "$@"; do case "$a" in
  --oracle-rejections=*) mkdir -p "${a#--oracle-rejections=}"; echo "[]" > "${a#--oracle-rejections=}/rejections.json";;
esac; done
for a in "$@"; do case "$a" in --typeinf-gt4py=on|--typeinf-gt4py=strict)
  echo "typeinf's drop-in for GT4Py's type inference (x):"
  echo "  calls: 3 of \\`infer\\`; 0.500 s in inference"
  echo "  DisagreementWarnings: 0";;
esac; done
exit $STATUS
"""


@pytest.fixture
def fake_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[Any]]:
    """An icon4py checkout (a stencil_tests folder, its pyproject.toml) and a stand-in
    environment; the requirements the environment is asked for."""
    checkout = tmp_path / "icon4py"
    (checkout / "model/atmosphere/dycore/tests/dycore/stencil_tests").mkdir(parents=True)
    write(checkout / "pyproject.toml", "addopts = ['-p icon4py.model.testing.pytest_hooks']\n")
    python = write(tmp_path / "venv" / "bin" / "python", FAKE_VENV_PYTHON)
    python.chmod(python.stat().st_mode | stat.S_IXUSR)
    asked: list[Any] = []

    def ensure_venv(interpreter: str, pins: tuple[str, ...]) -> tuple[Path, None]:
        asked.append(pins)
        return tmp_path / "venv", None

    monkeypatch.setattr(gt4py_venv, "find_python312", lambda: "python3.12")
    monkeypatch.setattr(gt4py_venv, "ensure_venv", ensure_venv)
    monkeypatch.setenv("JUNIT", junit(case("t"), case("u")))
    monkeypatch.setenv("JUNIT_STRICT", junit(case("t"), case("u", "ValueError: v")))
    monkeypatch.setenv("STATUS", "1")
    return checkout, asked


@pytest.mark.skipif(os.name != "posix", reason="the stand-in is a shell script")
def test_the_three_runs_are_made_timed_and_tabled(
    fake_checkout: tuple[Path, list[Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    checkout, asked = fake_checkout
    out = tmp_path / "out"
    argv = ["--icon4py", str(checkout), "--out", str(out), "-k", "x"]
    assert oracle.main([*argv, "--report", str(tmp_path / "r.json")]) == 1  # a test lost
    assert asked == [oracle.PINS]
    printed = capsys.readouterr().out
    assert "1 tests lost (passed with GT4Py's inference, not so here)" in printed
    assert "  strict: failed  m::u\n      ValueError: v" in printed
    assert "strict: 0 tests failed on a rejection by typeinf" in printed
    assert sorted(p.name for p in out.iterdir()) == [
        *("off.json", "off.log", "off.xml", "on-warned.txt", "on.json", "on.log", "on.xml"),
        *("strict-rejections", "strict.json", "strict.log", "strict.xml"),
    ]
    record = json.loads((out / "strict.json").read_text(encoding="utf-8"))
    assert record["mode"] == "strict" and record["backend"] == oracle.ROUNDTRIP
    assert record["exit"] == 1 and record["wall"] >= 0 and record["cpu"] >= 0
    # The caller's arguments, then the default test folders.
    assert record["command"][-3:] == [
        "-k",
        "x",
        "model/atmosphere/dycore/tests/dycore/stencil_tests",
    ]
    made = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert [run["warned"] for run in made["runs"]] == [None, ["m::t"], None]
    assert made["runs"][1]["dropin"] == {"calls": 3, "seconds": 0.5, "disagreements": []}
    # The table again, from the files alone.
    assert oracle.main(["--table", str(out)]) == 1
    again = capsys.readouterr().out
    table = printed.partition("\nrun ")[2].partition("\nreport:")[0]
    assert again.partition("\nrun ")[2] == table.rstrip("\n") + "\n"


@pytest.mark.skipif(os.name != "posix", reason="the stand-in is a shell script")
def test_with_gtfn_options_the_runs_use_that_backend_and_exit_0_when_none_is_lost(
    fake_checkout: tuple[Path, list[Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checkout, _ = fake_checkout
    monkeypatch.setenv("JUNIT_STRICT", junit(case("t"), case("u")))
    monkeypatch.setenv("STATUS", "0")
    out = tmp_path / "out"
    argv = ["--icon4py", str(checkout), "--out", str(out), "--gtfn-options", "--runs", "off,strict"]
    assert oracle.main(argv) == 0
    assert sorted(p.name for p in out.glob("*.json")) == ["gtfn-off.json", "gtfn-strict.json"]
    record = json.loads((out / "gtfn-off.json").read_text(encoding="utf-8"))
    assert f"--backend={oracle.GTFN_PASSES}" in record["command"]


@pytest.mark.skipif(os.name != "posix", reason="the stand-in is a shell script")
def test_a_run_that_pytest_did_not_finish_is_an_error(
    fake_checkout: tuple[Path, list[Any]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    checkout, _ = fake_checkout
    monkeypatch.setenv("STATUS", "4")  # pytest's usage error
    assert oracle.main(["--icon4py", str(checkout), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tools.icon4py_oracle: the off run failed (pytest exit 4;")
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "--icon4py CHECKOUT is needed (or --table DIR)"),
        (["--icon4py", "{tmp}"], "is not an icon4py checkout: [Errno 2]"),
        (["--icon4py", "{tmp}/other"], "does not load icon4py.model.testing.pytest_hooks"),
        (["--icon4py", "{tmp}/bare"], "has no stencil_tests folder under model/atmosphere/dycore"),
        (["--icon4py", "{tmp}/bare", "--runs", "fast"], "--runs 'fast': give modes of"),
        (["--table", "{tmp}"], "holds no run (no off.json, on.json"),
        (["--table", "{tmp}", "-k", "x"], "--table runs nothing: -k x"),
        (["--table", "{tmp}", "--icon4py", "{tmp}"], "--table runs nothing: --icon4py"),
        (["--table", "{tmp}/broken"], "cannot read {tmp}/broken/off.json"),
    ],
)
def test_usage_and_setup_errors_exit_2_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    write(tmp_path / "other" / "pyproject.toml", "[project]\nname = 'other'\n")
    write(tmp_path / "bare" / "pyproject.toml", "-p icon4py.model.testing.pytest_hooks\n")
    write(tmp_path / "broken" / "off.json", "{}")
    argv = [arg.replace("{tmp}", str(tmp_path)) for arg in args]
    assert oracle.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("tools.icon4py_oracle: ")
    assert message.replace("{tmp}", str(tmp_path)) in err
    assert "Traceback" not in err


# -- the plugin: where a rejection was raised ----------------------------------------------------


@pytest.mark.parametrize(
    ("line", "step"),
    [
        ("inlined = CollapseTuple.apply(", "CollapseTuple.apply"),
        ("ir = MergeLet().visit(ir)", "MergeLet"),
        ("ir = infer(ir, inplace=True, offset_provider_type=offset_provider_type)", "infer"),
        ("ir = infer_domain.infer_program(", "infer_domain.infer_program"),
        ("unrolled = UnrollReduce.apply(ir, uids=uids)", "UnrollReduce.apply"),
        ("return something", "return something"),
    ],
)
def test_a_pass_manager_step_is_named_by_its_callee(line: str, step: str) -> None:
    assert plugin.step_name(line) == step


def frame(module: str, function: str, lineno: int = 1, line: str = "") -> Frame:
    return Frame(module, function, lineno, line)


def test_the_site_is_the_last_pass_manager_step_above_the_drop_in() -> None:
    frames = [
        frame("tests.test_x", "test_x"),
        frame(
            plugin.PASS_MANAGER, "apply_common_transforms", 250, "inlined = CollapseTuple.apply("
        ),
        frame("gt4py.next.iterator.transforms.collapse_tuple", "apply", 9),
        frame(*plugin.DROP_IN),
        frame("typeinf.gt4py.switch", "_called"),
    ]
    assert plugin.site_of(frames) == (
        Site(
            "CollapseTuple.apply",
            "apply_common_transforms:250",
            "gt4py.next.iterator.transforms.collapse_tuple:apply",
        ),
        3,
        1,
    )
    # Called from outside any pass manager: the caller is the step.
    outside = [frames[0], frames[2], frames[3]]
    caller = "gt4py.next.iterator.transforms.collapse_tuple"
    assert plugin.site_of(outside) == (
        Site(f"{caller}:apply", f"{caller}:9", f"{caller}:apply"),
        2,
        None,
    )
    assert plugin.site_of([frames[0], frames[2]]) is None  # the drop-in is not in it


STAND_INS = {
    "pass_manager.py": (
        plugin.PASS_MANAGER,
        "def apply_common_transforms(ir, collapse):\n"
        "    inlined = collapse.apply(ir)\n"
        "    return inlined\n",
    ),
    "collapse_tuple.py": (
        "gt4py.next.iterator.transforms.collapse_tuple",
        "class CollapseTuple:\n"
        "    def __init__(self, drop_in):\n"
        "        self.drop_in = drop_in\n"
        "    def apply(self, ir):\n"
        "        return self.drop_in(ir.expr, offset_provider_type=None)\n",
    ),
    "switch.py": (
        "typeinf.gt4py.switch",
        "class DropIn:\n"
        "    def __call__(self, node, **options):\n"
        "        raise ValueError('<ir> fused(…): error: no\\nmore')\n",
    ),
}


class Node:
    """A stand-in for a GT4Py node: what the plugin reads of one (`id`, `str()`)."""

    def __init__(self, text: str, node_id: str | None = None, expr: Any = None) -> None:
        self.text, self.id, self.expr = text, node_id, expr

    def __str__(self) -> str:
        return self.text


def rejected_error(tmp_path: Path, program: Node) -> BaseException:
    """The error a strict drop-in raises inside a pass of the pass manager, wrapped by the
    caller, as it comes out of real frames of modules named as GT4Py's and typeinf's."""
    spaces: dict[str, dict[str, Any]] = {}
    for filename, (module, source) in STAND_INS.items():
        path = write(tmp_path / "stand_ins" / filename, source)
        spaces[filename] = {"__name__": module}
        exec(compile(source, str(path), "exec"), spaces[filename])
    collapse = spaces["collapse_tuple.py"]["CollapseTuple"](spaces["switch.py"]["DropIn"]())
    try:
        try:
            spaces["pass_manager.py"]["apply_common_transforms"](program, collapse)
        except ValueError as error:
            raise RuntimeError("the backend failed") from error
    except RuntimeError as wrapped:
        return wrapped
    raise AssertionError("the stand-in drop-in did not raise")


def test_a_rejection_is_located_and_its_node_saved_once(tmp_path: Path) -> None:
    program = Node("fused(…) { … }", "fused", Node("as_fieldop(λ(x) → ·x)(a)"))
    rejections = plugin.Rejections(tmp_path / "rejections")
    rejections.note("m::t", rejected_error(tmp_path, program))
    rejections.note("m::u", rejected_error(tmp_path, program))  # the same node: saved once
    rejections.note("m::v", ValueError("not the drop-in's"))
    assert rejections.found == [
        Rejection(
            test,
            "fused",
            "collapse.apply",
            "apply_common_transforms:2",
            "gt4py.next.iterator.transforms.collapse_tuple:apply",
            "<ir> fused(…): error: no",
            "ValueError",
            "001",
        )
        for test in ("m::t", "m::u")
    ]
    folder = tmp_path / "rejections"
    assert (folder / "001.itir").read_text(encoding="utf-8") == "as_fieldop(λ(x) → ·x)(a)\n"
    assert (folder / "001.program.itir").read_text(encoding="utf-8") == "fused(…) { … }\n"
    # A stand-in is no GT4Py node: its conversion fails, and says why.
    assert list(json.loads((folder / "001.json").read_text(encoding="utf-8"))) == ["not converted"]
    assert not (folder / "001.offsets.json").exists()  # none was given
    rejections.write()
    assert plugin.read_rejections(folder) == rejections.found


def test_unreadable_rejections_are_a_value_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot read"):
        plugin.read_rejections(tmp_path)
    write(tmp_path / plugin.REJECTIONS, '[{"test": "t"}]')
    with pytest.raises(ValueError, match="cannot read"):
        plugin.read_rejections(tmp_path)


def test_the_gtfn_backend_is_made_on_demand_only() -> None:
    # icon4py's `--backend MODULE:GTFN_PASSES` must reach the module's __getattr__.
    assert plugin.BACKEND_ATTRIBUTE not in vars(plugin)
    with pytest.raises(AttributeError, match="has no attribute 'OTHER'"):
        plugin.__getattr__("OTHER")


def test_the_plugin_lists_the_tests_that_warned_and_the_rejections(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    pytester.makepyfile(
        """
        import warnings

        class DisagreementWarning(UserWarning):
            pass

        def test_warns():
            warnings.warn("typeinf rejected", DisagreementWarning)

        def test_quiet():
            warnings.warn("another", UserWarning)

        def test_fails():
            raise ValueError("not the drop-in's")
        """
    )
    warned = tmp_path / "w" / "warned.txt"
    folder = tmp_path / "r"
    result = pytester.runpytest_inprocess(
        "-p",
        "tools.icon4py_oracle_plugin",
        f"--oracle-warned={warned}",
        f"--oracle-rejections={folder}",
    )
    result.assert_outcomes(passed=2, failed=1)
    assert (
        warned.read_text(encoding="utf-8")
        == "test_the_plugin_lists_the_tests_that_warned_and_the_rejections.py::test_warns\n"
    )
    assert plugin.read_rejections(folder) == []
    result.stdout.fnmatch_lines(["typeinf-oracle: gt4py *", "typeinf-oracle: backend=None"])


def test_the_checkouts_commit_is_said_or_unknown(tmp_path: Path) -> None:
    assert oracle.checkout_commit(tmp_path / "none") == "unknown"
    assert oracle.checkout_commit(gt4py_oracle.ROOT) == gt4py_oracle.typeinf_state()[:40]
