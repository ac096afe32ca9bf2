"""GT4Py's own test suite as the oracle for typeinf's inference inside GT4Py.

    python3 -m tools.gt4py_oracle --gt4py 1.2.3 --tests CHECKOUT [options] [pytest arguments…]

runs the tests of GT4Py's `next` (`tests/next_tests`: its unit, integration and regression
tests, not its benchmarks) of the GT4Py checkout CHECKOUT twice, in CHECKOUT, on GT4Py VERSION
as installed from the registry: once with GT4Py's own type inference, once with typeinf's
installed (by the pytest plugin `tools.gt4py_oracle_plugin`, which both runs load). It then
prints a table: per run the tests passed, failed, in error, skipped and expected to fail, and
the time taken; then every test whose outcome differs between the runs, with the first line of
its failure, grouped by the exception's class. Exit status: 0 when no test that passed with
GT4Py's inference does otherwise with ours, 1 when one does, 2 when the runs could not be made
(a message, no traceback).

- `--ours strict` (the default) installs ours as `typeinf.gt4py.install(strict=True)`: our type
  errors are raised, so every program ours rejects fails its test. `--ours default` installs
  it as a user does, `typeinf.gt4py.install()`: where ours rejects a program that GT4Py's
  inference accepts, GT4Py's types are used with a `typeinf.gt4py.DisagreementWarning` (kept a
  warning whatever the checkout's `filterwarnings`: the plugin's docstring says how); the run
  also counts the tests that emitted one (the programs on which the two disagreed), in the
  table, in `ours-warned.txt` (their pytest node ids) and in the report.
- `--gt4py-junit PATH` makes only the ours run and takes GT4Py's column from the junit XML of
  an earlier run (`gt4py.xml` of an earlier `--out`; the table's title names it). GT4Py's
  outcomes do not depend on typeinf, so an earlier run of the same checkout, GT4Py release,
  backends and test paths is as good as a new one. Where the earlier run's log lies beside it
  (`gt4py.log`), its time is read from it, and its GT4Py release, checkout (pytest's rootdir),
  backends and inference are checked against this run's (a mismatch is an error, exit 2); the
  test paths and other pytest arguments are the caller's to keep the same.
- The environment: `tools.gt4py_venv.ensure_venv` with this repository's requirements and
  `gt4py[standard,testing]==VERSION` and the pytest plugins of the checkout's `test` dependency
  group that its tests need (`TEST_PACKAGES`); made once, reused after.
- `--backends` (default `common,embedded,roundtrip,gtfn`): which tests run, by the backend they
  are run on (`tools.gt4py_oracle_plugin.backend_group`); `common` are those run on none.
- pytest arguments after the options go to both runs; test paths among them (relative to
  CHECKOUT) replace the default folders.
- `--out DIR` keeps both runs' junit XML and output (`gt4py.xml`, `ours.xml`, `gt4py.log`,
  `ours.log`; with `--ours default`, `ours-warned.txt`); `--report FILE` writes the differing
  tests with their whole failure messages as JSON; `--compare GT4PY_XML OURS_XML` compares two
  junit files of earlier runs and runs nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tools import gt4py_venv

ROOT = gt4py_venv.ROOT
PLUGIN = "tools.gt4py_oracle_plugin"
#: The folders of the checkout run by default (those that exist).
TEST_FOLDERS = (
    "tests/next_tests/unit_tests",
    "tests/next_tests/integration_tests",
    "tests/next_tests/regression_tests",
)
#: The packages of GT4Py's `test` dependency group that its `next` tests need: the rest
#: (coverage, nox, nbmake, benchmark, instafail, cache) serve its CI, not the tests.
TEST_PACKAGES = ("hypothesis", "pytest", "pytest-factoryboy", "pytest-xdist")
DEFAULT_BACKENDS = "common,embedded,roundtrip,gtfn"
#: Seconds one run may take before it is stopped (the whole suite takes far less).
RUN_TIMEOUT = 4 * 3600
#: The outcomes a test can have, in the order of the table's columns.
KINDS = ("passed", "failed", "error", "skipped", "xfailed")
ABSENT = "absent"
#: Which outcome wins when a test appears more than once (a teardown error after a failure).
_RANK = {"passed": 0, "skipped": 1, "xfailed": 1, "failed": 2, "error": 3}
#: `--ours`: how typeinf is installed in the ours run, and what that tells the plugin.
INSTALLS = {"strict": "ours-strict", "default": "ours-default"}
_INSTALL_CALLS = {
    "strict": "typeinf.gt4py.install(strict=True)",
    "default": "typeinf.gt4py.install(), GT4Py's types where ours disagrees",
}


class OracleError(Exception):
    """The runs could not be made or read; `main` prints it and exits 2."""


@dataclass(frozen=True)
class Outcome:
    """One test's outcome in one run: its kind (of `KINDS`), and for a failure, error or skip
    its message (pytest's one-line summary) and text (the traceback)."""

    kind: str
    message: str = ""
    text: str = ""

    @property
    def first_line(self) -> str:
        for line in (*self.message.splitlines(), *self.text.splitlines()):
            if line.strip():
                return line.strip()
        return ""


@dataclass(frozen=True)
class Difference:
    """A test whose outcome differs between GT4Py's inference and ours (`absent`: not run)."""

    test: str
    gt4py: Outcome
    ours: Outcome

    @property
    def regression(self) -> bool:
        """Passed with GT4Py's inference, and not with ours."""
        return self.gt4py.kind == "passed" and self.ours.kind != "passed"

    @property
    def shown(self) -> Outcome:
        """The outcome whose message tells why: ours, unless ours passed."""
        return self.gt4py if self.ours.kind == "passed" else self.ours


@dataclass
class Run:
    """One run of the tests: its outcomes by test id, the seconds it took, its header lines, and
    (ours installed by default) the tests that emitted a `DisagreementWarning`."""

    outcomes: dict[str, Outcome]
    seconds: float | None = None
    header: list[str] = field(default_factory=list)
    warned: list[str] | None = None

    def counts(self) -> dict[str, int]:
        counted = dict.fromkeys(KINDS, 0)
        for outcome in self.outcomes.values():
            counted[outcome.kind] += 1
        return counted


# -- junit XML -------------------------------------------------------------------------------


def parse_junit(text: str) -> dict[str, Outcome]:
    """The outcomes of a pytest junit XML report, by test id (`classname::name`, or the name
    alone for a collection error, which has no class)."""
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as error:
        raise OracleError(f"not a junit XML report: {error}") from None
    outcomes: dict[str, Outcome] = {}
    for case in root.iter("testcase"):
        classname = case.get("classname", "")
        name = case.get("name", "")
        test = f"{classname}::{name}" if classname else name
        outcome = _outcome(case)
        earlier = outcomes.get(test)
        if earlier is None or _RANK[outcome.kind] > _RANK[earlier.kind]:
            outcomes[test] = outcome
    return outcomes


def _outcome(case: ElementTree.Element) -> Outcome:
    for tag, kind in (("failure", "failed"), ("error", "error"), ("skipped", "skipped")):
        child = case.find(tag)
        if child is not None:
            if kind == "skipped" and child.get("type") == "pytest.xfail":
                kind = "xfailed"
            return Outcome(kind, child.get("message") or "", child.text or "")
    return Outcome("passed")


def read_junit(path: Path) -> dict[str, Outcome]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise OracleError(f"cannot read {path}: {error}") from None
    try:
        return parse_junit(text)
    except OracleError as error:
        raise OracleError(f"{path}: {error}") from None


# -- comparison and table --------------------------------------------------------------------


def compare(gt4py: dict[str, Outcome], ours: dict[str, Outcome]) -> list[Difference]:
    """The tests whose kind of outcome differs (a test run only once is `absent` in the other),
    regressions first, then by test id."""
    absent = Outcome(ABSENT)
    differences = [
        Difference(test, gt4py.get(test, absent), ours.get(test, absent))
        for test in sorted(gt4py.keys() | ours.keys())
        if gt4py.get(test, absent).kind != ours.get(test, absent).kind
    ]
    return sorted(differences, key=lambda d: (not d.regression, d.test))


def error_class(outcome: Outcome) -> str:
    """The class of the exception in a failure's first line (`…Error: message`), its last
    dotted component, or `absent`, `skipped`…, or `other`."""
    if outcome.kind in (ABSENT, "passed", "skipped", "xfailed"):
        return outcome.kind
    match = re.match(r"([A-Za-z_][\w.]*)(?::|$)", outcome.first_line)
    return match.group(1).rpartition(".")[2] if match else "other"


def format_table(runs: dict[str, Run], differences: Sequence[Difference], title: str) -> str:
    """The table of both runs' counts and time, then the differing tests, grouped by the class
    of the exception that makes them fail (ours, or GT4Py's where ours passed)."""
    heading = ("run", *KINDS, "total", "time")
    rows: list[tuple[str, ...]] = [heading]
    for name, run in runs.items():
        counts = run.counts()
        seconds = "-" if run.seconds is None else f"{run.seconds:.0f} s"
        rows.append((name, *(str(counts[k]) for k in KINDS), str(len(run.outcomes)), seconds))
    widths = [max(len(row[i]) for row in rows) for i in range(len(heading))]
    lines = [title, ""]
    for row in rows:
        cells = [
            row[0].ljust(widths[0]),
            *(c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)),
        ]
        lines.append("  ".join(cells).rstrip())
    for name, run in runs.items():
        if run.warned is not None:
            lines.append(
                f"{name}: {len(run.warned)} tests emitted a DisagreementWarning "
                "(ours rejected a program that GT4Py's inference accepts; its types were used)"
            )
    regressions = sum(d.regression for d in differences)
    lines += [
        "",
        f"{len(differences)} tests differ; {regressions} passed with GT4Py's inference "
        "and not with ours",
    ]
    groups: dict[tuple[bool, str], list[Difference]] = {}
    for difference in differences:
        key = (not difference.regression, error_class(difference.shown))
        groups.setdefault(key, []).append(difference)
    for (not_regression, kind), members in sorted(groups.items()):
        which = "not a regression" if not_regression else "regression"
        lines += ["", f"{kind} ({len(members)}, {which}):"]
        for d in members:
            lines.append(f"  {d.gt4py.kind} -> {d.ours.kind}  {d.test}")
            if d.shown.first_line:
                lines.append(f"      {d.shown.first_line}")
    return "\n".join(lines)


def report(
    runs: dict[str, Run], differences: Iterable[Difference], settings: dict[str, object]
) -> dict[str, object]:
    """What `--report` writes: the settings, each run's counts, time and header, and each
    differing test with both outcomes whole."""
    return {
        **settings,
        "runs": {name: _run_report(run) for name, run in runs.items()},
        "differences": [
            {
                "test": d.test,
                "regression": d.regression,
                "gt4py": asdict(d.gt4py),
                "ours": asdict(d.ours),
            }
            for d in differences
        ],
    }


def _run_report(run: Run) -> dict[str, object]:
    made: dict[str, object] = {"counts": run.counts(), "seconds": run.seconds, "header": run.header}
    if run.warned is not None:
        made["warned"] = run.warned
    return made


# -- the environment and the runs ------------------------------------------------------------


def pins_from_pyproject(pyproject_text: str) -> list[str]:
    """The requirements of `TEST_PACKAGES` as the checkout's `[dependency-groups] test` writes
    them, or just their names where it has none."""
    try:
        groups = tomllib.loads(pyproject_text).get("dependency-groups", {})
    except tomllib.TOMLDecodeError as error:
        raise OracleError(f"the checkout's pyproject.toml cannot be read: {error}") from None
    listed: dict[str, str] = {}
    for requirement in groups.get("test", []):
        if isinstance(requirement, str):
            match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
            if match:
                listed[_normal(match.group(1))] = requirement.strip()
    return [listed.get(name, name) for name in TEST_PACKAGES]


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def split_pytest_args(args: Sequence[str], checkout: Path) -> tuple[list[str], list[str]]:
    """(the test paths among `args`, which exist in `checkout`, the other arguments)."""
    paths: list[str] = []
    others: list[str] = []
    for arg in args:
        named = not arg.startswith("-") and (checkout / arg.partition("::")[0]).exists()
        (paths if named else others).append(arg)
    return paths, others


def pytest_command(
    python: Path,
    inference: str,
    backends: str,
    junit: Path,
    workers: int,
    args: Sequence[str],
    warned: Path | None = None,
) -> list[str]:
    """The pytest command of one run (in the checkout's folder); `inference` is the plugin's
    `--oracle-inference`, `warned` where it writes the tests that warned (`ours-default`)."""
    command = [str(python), "-m", "pytest", "-p", PLUGIN, "-p", "no:cacheprovider"]
    command += [f"--oracle-inference={inference}", f"--oracle-backends={backends}"]
    if warned is not None:
        command.append(f"--oracle-warned={warned}")
    command += ["--continue-on-collection-errors", "--tb=short", f"--junitxml={junit}"]
    if workers > 0:
        command += ["-n", str(workers)]
    return [*command, *args]


def run_pytest(command: list[str], checkout: Path, log: Path, timeout: float) -> tuple[int, float]:
    """Run one pytest command in the checkout with this repository first on PYTHONPATH, its
    output into `log`; its exit status and the seconds it took."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    start = time.monotonic()
    with log.open("w", encoding="utf-8") as out:
        try:
            process = subprocess.Popen(
                command,
                cwd=checkout,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        except OSError as error:
            raise OracleError(f"`{' '.join(command)}` cannot run: {error}") from None
        try:
            status = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            _stop(process)
            raise OracleError(
                f"`{' '.join(command)}` did not finish in {timeout:.0f} s (output: {log})"
            ) from None
        except KeyboardInterrupt:
            _stop(process)
            raise
    return status, time.monotonic() - start


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop a run and the workers it started (its own process group)."""
    for sig, wait in ((signal.SIGTERM, 30), (signal.SIGKILL, 30)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def header_lines(log_text: str) -> list[str]:
    """The plugin's lines in pytest's header (`typeinf-oracle: …`), without the prefix."""
    prefix = "typeinf-oracle: "
    return [line[len(prefix) :] for line in log_text.splitlines() if line.startswith(prefix)]


def one_run(
    name: str,
    command: list[str],
    checkout: Path,
    out: Path,
    timeout: float,
    warned: Path | None = None,
) -> Run:
    """Make one run, its junit XML and log in `out`; `warned`: the plugin's `--oracle-warned`
    file, read back."""
    junit = out / f"{name}.xml"
    log = out / f"{name}.log"
    junit.unlink(missing_ok=True)
    if warned is not None:
        warned.unlink(missing_ok=True)
    print(f"{name}: {' '.join(command)}", flush=True)
    status, seconds = run_pytest(command, checkout, log, timeout)
    text = log.read_text(encoding="utf-8", errors="replace")
    # 0: all passed, 1: some failed; anything else is pytest not running the tests.
    if status not in (0, 1) or not junit.exists():
        tail = "\n".join(text.splitlines()[-30:])
        raise OracleError(f"the {name} run failed (pytest exit {status}; output: {log}):\n{tail}")
    print(f"{name}: pytest exit {status} in {seconds:.0f} s", flush=True)
    return Run(read_junit(junit), seconds, header_lines(text), _read_warned(warned))


def _read_warned(path: Path | None) -> list[str] | None:
    if path is None:
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise OracleError(f"the plugin's list of warned tests cannot be read: {error}") from None
    return [line for line in text.splitlines() if line]


# -- the command -----------------------------------------------------------------------------


def parse_args(argv: Sequence[str]) -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(
        prog="python3 -m tools.gt4py_oracle",
        description="Run GT4Py's tests with GT4Py's type inference and with typeinf's; compare.",
        allow_abbrev=False,
    )
    parser.add_argument("--gt4py", metavar="VERSION", help="the GT4Py release to install")
    parser.add_argument("--tests", metavar="CHECKOUT", type=Path, help="a GT4Py checkout")
    parser.add_argument("--backends", default=DEFAULT_BACKENDS, help="backend groups to run")
    parser.add_argument("--workers", type=int, default=2, help="pytest-xdist workers (0: none)")
    parser.add_argument("--timeout", type=float, default=RUN_TIMEOUT, help="seconds per run")
    parser.add_argument("--out", type=Path, help="folder for the junit XML and logs")
    parser.add_argument("--report", type=Path, help="JSON file for the differing tests")
    parser.add_argument(
        "--ours",
        choices=tuple(INSTALLS),
        help="how typeinf is installed: strict (the default; our type errors raised) or "
        "default (typeinf.gt4py.install(): GT4Py's types where ours disagrees, with a warning)",
    )
    parser.add_argument(
        "--gt4py-junit",
        type=Path,
        metavar="PATH",
        help="make only the ours run; GT4Py's outcomes from this junit XML of an earlier run",
    )
    parser.add_argument(
        "--compare",
        nargs=2,
        type=Path,
        metavar=("GT4PY_XML", "OURS_XML"),
        help="compare two junit reports of earlier runs; run nothing",
    )
    return parser.parse_known_args(argv)


def main(argv: Sequence[str]) -> int:
    options, pytest_args = parse_args(argv)
    try:
        if options.compare:
            given = [*pytest_args, *(["--ours"] if options.ours else [])]
            given += ["--gt4py-junit"] if options.gt4py_junit else []
            if given:
                raise OracleError(f"--compare runs nothing: {' '.join(given)}")
            gt4py_xml, ours_xml = options.compare
            runs = {"gt4py": Run(read_junit(gt4py_xml)), "ours": Run(read_junit(ours_xml))}
            title = f"{gt4py_xml} (GT4Py's inference) vs {ours_xml} (ours)"
            settings: dict[str, object] = {"compare": [str(gt4py_xml), str(ours_xml)]}
        else:
            runs, title, settings = _run_both(options, pytest_args)
        differences = compare(runs["gt4py"].outcomes, runs["ours"].outcomes)
        print(format_table(runs, differences, title))
        if options.report:
            _write(options.report, json.dumps(report(runs, differences, settings), indent=1))
            print(f"\nreport: {options.report}")
    except (OracleError, gt4py_venv.VenvError) as error:
        print(f"tools.gt4py_oracle: {error}", file=sys.stderr)
        return 2
    return 1 if any(d.regression for d in differences) else 0


def _run_both(
    options: argparse.Namespace, pytest_args: list[str]
) -> tuple[dict[str, Run], str, dict[str, object]]:
    if not options.gt4py or not options.tests:
        raise OracleError("--gt4py VERSION and --tests CHECKOUT are needed (or --compare)")
    checkout: Path = options.tests.resolve()
    if not (checkout / "tests" / "next_tests").is_dir():
        raise OracleError(f"{checkout} is not a GT4Py checkout: it has no tests/next_tests")
    pyproject = checkout / "pyproject.toml"
    try:
        pins = pins_from_pyproject(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise OracleError(f"cannot read {pyproject}: {error}") from None
    pins.insert(0, f"gt4py[standard,testing]=={options.gt4py}")
    python = gt4py_venv.find_python312()
    if python is None:
        raise OracleError("no Python ≥ 3.12 found (set TYPEINF_PYTHON312)")
    print(f"environment: {', '.join(pins)} …", flush=True)
    venv, made = gt4py_venv.ensure_venv(python, pins)
    print(f"environment: {venv} ({'reused' if made is None else f'made in {made:.0f} s'})")
    installed = installed_gt4py(venv / "bin" / "python")
    if installed != options.gt4py:
        raise OracleError(
            f"the environment {venv} has GT4Py {installed}, not {options.gt4py} "
            "(TYPEINF_GT4PY_VENV names one environment for every release: unset it)"
        )
    paths, others = split_pytest_args(pytest_args, checkout)
    if not paths:
        paths = [folder for folder in TEST_FOLDERS if (checkout / folder).is_dir()]
    # Absolute: pytest runs in the checkout, and writes its junit XML where it is told.
    out: Path = (options.out or Path(tempfile.mkdtemp(prefix="gt4py-oracle-"))).resolve()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OracleError(f"cannot make {out}: {error}") from None
    install = options.ours or "strict"
    state = typeinf_state()
    runs: dict[str, Run] = {}
    earlier: Path | None = options.gt4py_junit.resolve() if options.gt4py_junit else None
    source = "both runs made now"
    if earlier is not None:
        runs["gt4py"], checked = earlier_gt4py_run(
            earlier, options.gt4py, checkout, options.backends
        )
        source = f"the gt4py column from {earlier}, an earlier run ({checked})"
        print(f"gt4py: {source}", flush=True)
    for name in ("gt4py", "ours")[len(runs) :]:
        inference = "gt4py" if name == "gt4py" else INSTALLS[install]
        warned = out / "ours-warned.txt" if inference == "ours-default" else None
        command = pytest_command(
            venv / "bin" / "python",
            inference,
            options.backends,
            out / f"{name}.xml",
            options.workers,
            [*others, *paths],
            warned,
        )
        runs[name] = one_run(name, command, checkout, out, options.timeout, warned)
    title = (
        f"GT4Py {options.gt4py}, the tests of {checkout} ({' '.join(paths)}), "
        f"backends {options.backends}; ours installed {install} ({_INSTALL_CALLS[install]}); "
        f"{source}; typeinf {state}; junit XML and logs in {out}"
    )
    settings: dict[str, object] = {
        "gt4py": options.gt4py,
        "tests": str(checkout),
        "paths": paths,
        "pytest_args": others,
        "backends": options.backends,
        "workers": options.workers,
        "out": str(out),
        "typeinf": state,
        "ours": install,
        "gt4py_junit": None if earlier is None else str(earlier),
    }
    return runs, title, settings


def earlier_gt4py_run(junit: Path, version: str, checkout: Path, backends: str) -> tuple[Run, str]:
    """GT4Py's run read from an earlier run's junit XML (`--gt4py-junit`), and what was checked
    of it: with its log beside it (same name, `.log`), its time, and its GT4Py release,
    checkout, backends and inference, which must be this run's (else an OracleError)."""
    outcomes = read_junit(junit)
    log = junit.with_suffix(".log")
    try:
        text = log.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return Run(outcomes), f"no {log.name} beside it: its GT4Py, checkout, backends unchecked"
    except OSError as error:
        raise OracleError(f"cannot read {log}: {error}") from None
    header = header_lines(text)
    wrong = baseline_mismatches(text, version, checkout, backends)
    if wrong:
        raise OracleError(
            f"{junit} is not a run of the same tests with GT4Py's inference ({log} says: "
            f"{'; '.join(wrong)})"
        )
    checked = f"{log.name} checked: GT4Py {version}, rootdir {checkout}, backends {backends}"
    return Run(outcomes, pytest_seconds(text), header), checked


def baseline_mismatches(log_text: str, version: str, checkout: Path, backends: str) -> list[str]:
    """How an earlier run's log differs from a GT4Py run of `version`, `checkout`, `backends`."""
    header = header_lines(log_text)
    wrong = []
    if "inference=gt4py" not in header:
        inference = [line for line in header if line.startswith("inference=")]
        wrong.append(f"{inference[0] if inference else 'no inference= line'}, not inference=gt4py")
    versions = [line.split()[1] for line in header if line.startswith("gt4py ") and " " in line]
    if versions != [version]:
        wrong.append(f"GT4Py {', '.join(versions) or 'unknown'}, not {version}")
    run_groups = [line.partition("=")[2] for line in header if line.startswith("backends=")]
    wanted = {group.strip() for group in backends.split(",") if group.strip()}
    if [set(g.split(",")) for g in run_groups] != [wanted]:
        wrong.append(f"backends {', '.join(run_groups) or 'unknown'}, not {backends}")
    roots = [
        line[len("rootdir: ") :] for line in log_text.splitlines() if line.startswith("rootdir: ")
    ]
    if [Path(root) for root in roots[:1]] != [checkout]:
        wrong.append(f"rootdir {roots[0] if roots else 'unknown'}, not {checkout}")
    return wrong


def pytest_seconds(log_text: str) -> float | None:
    """The seconds pytest's last summary line says the run took (`… in 1339.42s (0:22:19) =`)."""
    found = re.findall(r"^=+ .* in ([0-9]+(?:\.[0-9]+)?)s\b.*=+$", log_text, re.MULTILINE)
    return float(found[-1]) if found else None


def installed_gt4py(python: Path) -> str:
    """The version of GT4Py installed where `python` runs."""
    code = "import importlib.metadata as m; print(m.version('gt4py'))"
    try:
        done = subprocess.run(
            [str(python), "-c", code], capture_output=True, text=True, timeout=120
        )
    except (OSError, subprocess.SubprocessError) as error:
        raise OracleError(f"cannot ask {python} for its GT4Py: {error}") from None
    if done.returncode != 0:
        raise OracleError(f"{python} has no GT4Py: {done.stderr.strip()}")
    return done.stdout.strip()


def typeinf_state() -> str:
    """This repository's commit, and whether its files differ from it: the ours run used the
    files as they were (another change may be under way)."""
    try:
        commit = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout.strip()
        changed = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown (no git)"
    return f"{commit or 'unknown'}{' with uncommitted changes' if changed else ''}"


def _write(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
    except OSError as error:
        raise OracleError(f"cannot write {path}: {error}") from None


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
