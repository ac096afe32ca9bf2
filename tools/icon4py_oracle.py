"""icon4py's stencil tests as the oracle and the stopwatch of typeinf's drop-in for GT4Py's type
inference (issue #34, item 2).

    python3 -m tools.icon4py_oracle --icon4py CHECKOUT [options] [pytest arguments…]
    python3 -m tools.icon4py_oracle --table DIR

runs the `StencilTest`s of the icon4py checkout CHECKOUT (the `stencil_tests` folders of its
dycore, diffusion and common packages, on icon4py's default simple grid; the serialized-data
tests, which need downloads, are left out by `--datatest-skip`) once per mode of
`--typeinf-gt4py` (typeinf's pytest plugin): `off` (GT4Py's own inference), `on` (ours, GT4Py's
types where ours rejects a program, with a `DisagreementWarning`) and `strict` (ours, its errors
raised). Each run is one pytest process in CHECKOUT, on a backend that runs GT4Py's pass manager
and needs no C++: GT4Py's roundtrip backend (`--backend ROUNDTRIP`), or with `--gtfn-options`
the roundtrip backend with the pass-manager options of GT4Py's gtfn backend (temporaries
extracted, reductions unrolled: `tools.icon4py_oracle_plugin`'s `GTFN_PASSES`), whose
intermediates are those gtfn types; there GT4Py compiles in the test's own thread, so that a
rejection fails the test that compiles the program even under icon4py's
`--skip-stenciltest-verification`. Then it prints a table: per run the tests passed, failed, in
error, skipped and expected to fail, the wall and CPU time of the pytest process (its children
included), the seconds the drop-in spent in inference (its summary), the ratio of each run's
times to the `off` run's; every test that passed with GT4Py's inference and not in another run
(a test lost), with the first line of its failure; every `DisagreementWarning` (program and our
message's first line); and every rejection of the strict run, grouped by the step of GT4Py's
pass manager that ran, with the program, the function that called the drop-in, our message's
first line and the files where the rejected node was saved.

Exit status: 0 when no test is lost and no `DisagreementWarning` was raised, 1 otherwise, 2 when
the runs could not be made or read (a message, no traceback).

- `--runs off,on,strict` (the default): which runs, in that order; `off` is needed to find tests
  lost (without it, none is looked for).
- `--out DIR` keeps each run's files (a temporary folder otherwise): `RUN.xml` (junit XML),
  `RUN.log` (pytest's output), `RUN.json` (its command, exit status and times), for `on`
  `RUN-warned.txt` (the tests that warned), for `strict` `RUN-rejections/` (`rejections.json`
  and the rejected nodes: `NNN.itir`, `NNN.json`, `NNN.offsets.json`; `typeinf infer
  DIR/RUN-rejections/NNN.json` reproduces one). RUN is the mode, `gtfn-` before it with
  `--gtfn-options`. `--report FILE` writes the table's content as JSON; `--table DIR` prints the
  table of the runs an earlier `--out DIR` holds and runs nothing.
- The environment: `tools.gt4py_venv.ensure_venv` with this repository's requirements and
  `PINS` (icon4py's packages of `ICON4PY_VERSION`, which pin GT4Py 1.2.1, and the pytest plugin
  its stencil tests need), made once under `~/.cache/typeinf/` and reused; this checkout first
  on PYTHONPATH, so the code run is the caller's.
- pytest arguments after the options go to every run; test paths among them (relative to
  CHECKOUT) replace the default folders. Run it with `nice`: the runs take long.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from iterir.files import write_text
from tools import gt4py_oracle, gt4py_venv
from tools.gt4py_oracle import OracleError, Run
from tools.icon4py_oracle_plugin import Rejection, read_rejections

#: The icon4py release whose packages are installed; the checkout's tests should be of it.
ICON4PY_VERSION = "0.4.1"
#: What the environment installs besides this repository's requirements: icon4py's packages
#: (which pin GT4Py); `icon4py-testing` imports `icon4py.model.driver`, whose configuration
#: imports the tracer-advection and microphysics packages, none of which it declares; the
#: StencilTests ask for pytest-benchmark's `benchmark` fixture.
PINS = (
    f"icon4py-common=={ICON4PY_VERSION}",
    f"icon4py-atmosphere-dycore=={ICON4PY_VERSION}",
    f"icon4py-atmosphere-diffusion=={ICON4PY_VERSION}",
    f"icon4py-testing=={ICON4PY_VERSION}",
    f"icon4py-driver=={ICON4PY_VERSION}",
    f"icon4py-atmosphere-tracer_advection=={ICON4PY_VERSION}",
    f"icon4py-atmosphere-microphysics=={ICON4PY_VERSION}",
    "pytest-benchmark>=5.0.0",
)
#: The packages whose `tests/**/stencil_tests` folders are run by default.
PACKAGES = ("model/atmosphere/dycore", "model/atmosphere/diffusion", "model/common")
MODES = ("off", "on", "strict")
#: icon4py's `--backend` (a `module:attribute` spec) for each choice of pass-manager options.
ROUNDTRIP = "gt4py.next.program_processors.runners.roundtrip:default"
GTFN_PASSES = "tools.icon4py_oracle_plugin:GTFN_PASSES"
PLUGINS = ("typeinf.frontends.pytest_plugin", "tools.icon4py_oracle_plugin")
#: icon4py's own options: no benchmark rounds (as its CI runs the tests), no serialized data.
ICON4PY_OPTIONS = ("--benchmark-disable", "--datatest-skip")
RUN_TIMEOUT = 6 * 3600


@dataclass(frozen=True)
class DropIn:
    """What the drop-in's summary at the end of a run says: its calls of inference, the seconds
    in them, and each `DisagreementWarning` (program: our message's first line)."""

    calls: int
    seconds: float
    disagreements: list[str]


@dataclass
class IconRun:
    """One run: its mode, backend, outcomes (with wall seconds and header), CPU seconds, the
    drop-in's summary (None: off), the tests that warned (on) and the rejections (strict)."""

    name: str
    mode: str
    backend: str
    run: Run
    cpu: float | None = None
    dropin: DropIn | None = None
    warned: list[str] | None = None
    rejections: list[Rejection] | None = None
    rejections_folder: str | None = None


@dataclass
class Lost:
    """A test that passed in the `off` run and not in `run`."""

    run: str
    test: str
    kind: str
    first_line: str


@dataclass
class Findings:
    """What the table shows, besides the runs: the tests lost, the warnings."""

    lost: list[Lost] = field(default_factory=list)
    disagreements: int = 0


# -- reading a run's files --------------------------------------------------------------------


def parse_dropin_summary(log_text: str) -> DropIn | None:
    """The drop-in's summary in a run's output (the last one, if several), or None."""
    lines = log_text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("typeinf's drop-in for GT4Py")]
    if not starts:
        return None
    rest = lines[starts[-1] + 1 :]
    calls = re.match(r"\s+calls: (.*); ([0-9.]+) s in inference$", rest[0] if rest else "")
    counted = re.match(r"\s+DisagreementWarnings: ([0-9]+)$", rest[1] if len(rest) > 1 else "")
    if calls is None or counted is None:
        raise OracleError(f"the drop-in's summary is not as expected: {lines[starts[-1]]!r} …")
    total = sum(int(n) for n in re.findall(r"([0-9]+) of `", calls.group(1)))
    said = [line.strip() for line in rest[2 : 2 + int(counted.group(1))]]
    return DropIn(total, float(calls.group(2)), said)


def run_names(gtfn_options: bool, modes: Sequence[str]) -> list[str]:
    return [f"gtfn-{mode}" if gtfn_options else mode for mode in modes]


def read_run(out: Path, name: str) -> IconRun:
    """The run `name` of an `--out` folder, from its files."""
    record_path = out / f"{name}.json"
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
        mode, backend = str(record["mode"]), str(record["backend"])
        wall, cpu = record["wall"], record["cpu"]
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError) as error:
        raise OracleError(f"cannot read {record_path}: {error!r}") from None
    log = out / f"{name}.log"
    try:
        text = log.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise OracleError(f"cannot read {log}: {error}") from None
    outcomes = gt4py_oracle.read_junit(out / f"{name}.xml")
    made = IconRun(name, mode, backend, Run(outcomes, wall, gt4py_oracle.header_lines(text)), cpu)
    made.dropin = parse_dropin_summary(text)
    if mode == "on":
        made.warned = _lines(out / f"{name}-warned.txt")
    if mode == "strict":
        folder = out / f"{name}-rejections"
        try:
            made.rejections = read_rejections(folder)
        except ValueError as error:
            raise OracleError(str(error)) from None
        made.rejections_folder = str(folder)
    return made


def _lines(path: Path) -> list[str]:
    try:
        return [line for line in path.read_text(encoding="utf-8").splitlines() if line]
    except (OSError, UnicodeDecodeError) as error:
        raise OracleError(f"cannot read {path}: {error}") from None


def runs_in(out: Path) -> list[IconRun]:
    """Every run an `--out` folder holds, the roundtrip runs first, each in `MODES`' order."""
    names = [n for gtfn in (False, True) for n in run_names(gtfn, MODES)]
    found = [name for name in names if (out / f"{name}.json").exists()]
    if not found:
        raise OracleError(f"{out} holds no run (no {', '.join(f'{n}.json' for n in names)})")
    return [read_run(out, name) for name in found]


# -- the table --------------------------------------------------------------------------------


def findings(runs: Sequence[IconRun]) -> Findings:
    """The tests each run lost against the `off` run of the same backend, and the warnings."""
    found = Findings()
    baselines = {run.backend: run for run in runs if run.mode == "off"}
    for run in runs:
        if run.dropin is not None:
            found.disagreements += len(run.dropin.disagreements)
        baseline = baselines.get(run.backend)
        if baseline is None or baseline is run:
            continue
        for difference in gt4py_oracle.compare(baseline.run.outcomes, run.run.outcomes):
            if difference.regression:
                outcome = difference.ours
                found.lost.append(Lost(run.name, difference.test, outcome.kind, outcome.first_line))
    return found


def format_table(runs: Sequence[IconRun], title: str) -> str:
    heading = ("run", *gt4py_oracle.KINDS, "total", "wall", "CPU", "inference", "warnings")
    rows: list[tuple[str, ...]] = [heading]
    for run in runs:
        counts = run.run.counts()
        dropin = run.dropin
        rows.append(
            (
                run.name,
                *(str(counts[kind]) for kind in gt4py_oracle.KINDS),
                str(len(run.run.outcomes)),
                _seconds(run.run.seconds),
                _seconds(run.cpu),
                "-" if dropin is None else f"{dropin.seconds:.1f} s in {dropin.calls} calls",
                "-" if dropin is None else str(len(dropin.disagreements)),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(heading))]
    lines = [title, ""]
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    lines += ratios(runs)
    found = findings(runs)
    lines += ["", f"{len(found.lost)} tests lost (passed with GT4Py's inference, not so here)"]
    for lost in found.lost:
        lines.append(f"  {lost.run}: {lost.kind}  {lost.test}")
        if lost.first_line:
            lines.append(f"      {lost.first_line}")
    lines += ["", f"{found.disagreements} DisagreementWarnings"]
    for run in runs:
        for said in run.dropin.disagreements if run.dropin is not None else []:
            lines.append(f"  {run.name}: {said}")
    for run in runs:
        if run.rejections is not None:
            lines += ["", *rejection_lines(run)]
    return "\n".join(lines)


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f} s"


def ratios(runs: Sequence[IconRun]) -> list[str]:
    """Each run's wall and CPU time over those of the `off` run of its backend."""
    baselines = {run.backend: run for run in runs if run.mode == "off"}
    lines = []
    for run in runs:
        baseline = baselines.get(run.backend)
        if baseline is None or baseline is run:
            continue
        said = []
        for what, mine, theirs in (
            ("wall", run.run.seconds, baseline.run.seconds),
            ("CPU", run.cpu, baseline.cpu),
        ):
            if mine is not None and theirs:
                said.append(f"{what} {mine / theirs:.2f} ({(mine / theirs - 1) * 100:+.0f} %)")
        if said:
            lines.append(f"{run.name} / {baseline.name}: {', '.join(said)}")
    return ["", *lines] if lines else []


def rejection_lines(run: IconRun) -> list[str]:
    """A strict run's rejections grouped by the pass-manager step that ran."""
    rejections = run.rejections or []
    lines = [f"{run.name}: {len(rejections)} tests failed on a rejection by typeinf"]
    if rejections:
        lines[0] += f" (nodes saved in {run.rejections_folder})"
    groups: dict[tuple[str, str], list[Rejection]] = {}
    for rejection in rejections:
        groups.setdefault((rejection.step, rejection.where), []).append(rejection)
    for (step, where), members in sorted(groups.items()):
        lines.append(f"  {step} ({where}): {len(members)}")
        for r in members:
            lines.append(f"    {r.program} [{r.files}], called from {r.caller}: {r.message}")
            lines.append(f"        {r.test}")
    return lines


def report(runs: Sequence[IconRun], title: str) -> dict[str, object]:
    """What `--report` writes: the title, each run whole, the tests lost."""
    made: list[dict[str, object]] = []
    for run in runs:
        entry = asdict(run)
        entry["run"] = {"counts": run.run.counts(), "wall": run.run.seconds}
        entry["header"] = run.run.header
        made.append(entry)
    found = findings(runs)
    return {"title": title, "runs": made, "lost": [asdict(lost) for lost in found.lost]}


# -- the runs ---------------------------------------------------------------------------------


def stencil_folders(checkout: Path) -> list[str]:
    """The `stencil_tests` folders of `PACKAGES` in the checkout, relative to it."""
    found = {
        str(folder.relative_to(checkout))
        for package in PACKAGES
        for folder in (checkout / package).glob("tests/**/stencil_tests")
        if folder.is_dir()
    }
    return sorted(found)


def check_checkout(checkout: Path) -> None:
    pyproject = checkout / "pyproject.toml"
    try:
        text = pyproject.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise OracleError(f"{checkout} is not an icon4py checkout: {error}") from None
    if "icon4py.model.testing.pytest_hooks" not in text:
        raise OracleError(
            f"{checkout} is not an icon4py checkout: its pyproject.toml does not load "
            "icon4py.model.testing.pytest_hooks"
        )


def pytest_command(python: Path, name: str, mode: str, backend: str, out: Path) -> list[str]:
    """One run's pytest command, without the test paths and the caller's arguments."""
    command = [str(python), "-m", "pytest", "-p", "no:cacheprovider"]
    for plugin in PLUGINS:
        command += ["-p", plugin]
    command += [f"--typeinf-gt4py={mode}", f"--backend={backend}", *ICON4PY_OPTIONS]
    command += ["--continue-on-collection-errors", "--tb=short", f"--junitxml={out / name}.xml"]
    if mode == "on":
        command.append(f"--oracle-warned={out / name}-warned.txt")
    if mode == "strict":
        command.append(f"--oracle-rejections={out / name}-rejections")
    if backend == GTFN_PASSES:  # each rejection in the test that compiles it
        command.append("--oracle-serial-builds")
    return command


def one_run(
    python: Path, name: str, mode: str, backend: str, args: list[str], checkout: Path, out: Path
) -> IconRun:
    """Make one run (its files in `out`) and read it back."""
    command = [*pytest_command(python, name, mode, backend, out), *args]
    for stale in (f"{name}.xml", f"{name}.json", f"{name}-warned.txt"):
        (out / stale).unlink(missing_ok=True)
    print(f"{name}: {' '.join(command)}", flush=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    status, wall = gt4py_oracle.run_pytest(command, checkout, out / f"{name}.log", RUN_TIMEOUT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if status not in (0, 1) or not (out / f"{name}.xml").exists():
        text = (out / f"{name}.log").read_text(encoding="utf-8", errors="replace")
        tail = "\n".join(text.splitlines()[-30:])
        raise OracleError(f"the {name} run failed (pytest exit {status}; output in {out}):\n{tail}")
    record = {"mode": mode, "backend": backend, "wall": wall, "cpu": cpu, "exit": status}
    record["command"] = command
    write_text(out / f"{name}.json", json.dumps(record, indent=1) + "\n")
    print(f"{name}: pytest exit {status}, wall {wall:.0f} s, CPU {cpu:.0f} s", flush=True)
    return read_run(out, name)


def environment() -> Path:
    """The environment's python, made once (`PINS`) and reused."""
    found = gt4py_venv.find_python312()
    if found is None:
        raise OracleError("no Python ≥ 3.12 found (set TYPEINF_PYTHON312)")
    venv, made = gt4py_venv.ensure_venv(found, PINS)
    how = "reused" if made is None else f"made in {made:.0f} s"
    print(f"environment: {venv} ({how}; {', '.join(PINS)})", flush=True)
    return venv / "bin" / "python"


def checkout_commit(checkout: Path) -> str:
    """The commit the checkout is at, as git says it, or "unknown"."""
    asked = ["git", "-C", str(checkout), "rev-parse", "HEAD"]
    try:
        said = subprocess.check_output(asked, text=True, stderr=subprocess.DEVNULL, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return said.strip()


def parse_modes(given: str) -> list[str]:
    modes = [mode.strip() for mode in given.split(",") if mode.strip()]
    wrong = [mode for mode in modes if mode not in MODES]
    if wrong or not modes:
        raise OracleError(f"--runs {given!r}: give modes of {', '.join(MODES)}, comma-separated")
    return [mode for mode in MODES if mode in modes]


def make_runs(options: argparse.Namespace, pytest_args: list[str]) -> tuple[list[IconRun], str]:
    if options.icon4py is None:
        raise OracleError("--icon4py CHECKOUT is needed (or --table DIR)")
    checkout: Path = options.icon4py.resolve()
    check_checkout(checkout)
    modes = parse_modes(options.runs)
    paths, others = gt4py_oracle.split_pytest_args(pytest_args, checkout)
    paths = paths or stencil_folders(checkout)
    if not paths:
        raise OracleError(f"{checkout} has no stencil_tests folder under {', '.join(PACKAGES)}")
    python = environment()
    out: Path = (options.out or Path(tempfile.mkdtemp(prefix="icon4py-oracle-"))).resolve()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OracleError(f"cannot make {out}: {error}") from None
    backend = GTFN_PASSES if options.gtfn_options else ROUNDTRIP
    runs = [
        one_run(python, name, mode, backend, [*others, *paths], checkout, out)
        for name, mode in zip(run_names(options.gtfn_options, modes), modes, strict=True)
    ]
    title = (
        f"icon4py's stencil tests at {checkout_commit(checkout)} ({checkout}: "
        f"{' '.join(paths)}), backend {backend}; GT4Py {gt4py_oracle.installed_gt4py(python)}; "
        f"typeinf {gt4py_oracle.typeinf_state()}; files in {out}"
    )
    return runs, title


def parse_args(argv: Sequence[str]) -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(
        prog="python3 -m tools.icon4py_oracle",
        description="Run icon4py's stencil tests with GT4Py's type inference and with typeinf's.",
        allow_abbrev=False,
    )
    parser.add_argument("--icon4py", metavar="CHECKOUT", type=Path, help="an icon4py checkout")
    parser.add_argument("--runs", default=",".join(MODES), help="modes to run (off,on,strict)")
    parser.add_argument(
        "--gtfn-options",
        action="store_true",
        help="run GT4Py's pass manager with the gtfn backend's options (no C++ compiled)",
    )
    parser.add_argument("--out", type=Path, help="folder for each run's files")
    parser.add_argument("--report", type=Path, help="JSON file for the table's content")
    parser.add_argument("--table", type=Path, metavar="DIR", help="the table of an earlier --out")
    return parser.parse_known_args(argv)


def main(argv: Sequence[str]) -> int:
    options, pytest_args = parse_args(argv)
    try:
        if options.table is not None:
            if options.icon4py is not None or pytest_args:
                given = " ".join([*(["--icon4py"] if options.icon4py else []), *pytest_args])
                raise OracleError(f"--table runs nothing: {given}")
            runs = runs_in(options.table)
            title = f"the runs in {options.table}"
        else:
            runs, title = make_runs(options, pytest_args)
        print(format_table(runs, title))
        if options.report is not None:
            try:
                options.report.parent.mkdir(parents=True, exist_ok=True)
                write_text(options.report, json.dumps(report(runs, title), indent=1) + "\n")
            except OSError as error:
                raise OracleError(f"cannot write {options.report}: {error}") from None
            print(f"\nreport: {options.report}")
    except (OracleError, gt4py_venv.VenvError) as error:
        print(f"tools.icon4py_oracle: {error}", file=sys.stderr)
        return 2
    found = findings(runs)
    return 1 if found.lost or found.disagreements else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
