"""tests/with_gt4py on each GT4Py release the `gt4py` extra allows (1.2.1, 1.2.2, 1.2.3), one
after the other, each in a virtual environment of its own, and a table of what each gave.

    python3 -m tools.gt4py_versions [pytest arguments]

Each environment is `tools.gt4py_venv`'s, with `gt4py==<release>` added to its requirements
(a key of its own: made once, reused afterwards); the tests run there on this checkout, with
the arguments given (as `python3 -m tools.gt4py_venv pytest …` takes them). It prints the
failing tests of each release that fails, then a table (release, passed, failed, seconds);
errors count as failed. Exit code: 0 when every release passed, 1 when any failed (or ran no
test), 2 when an environment could not be made, holds another release than its pin says, or
the tests could not be run (the reason, never a traceback). `TYPEINF_GT4PY_VENV`, which names
one environment for all, is an error here.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tools import gt4py_venv

#: The GT4Py releases `typeinf.gt4py` supports, oldest first (pyproject.toml's `gt4py` extra).
VERSIONS = ("1.2.1", "1.2.2", "1.2.3")
#: The outcomes of pytest's last line that count, singular and plural ("1 error", "2 errors").
_COUNTED = re.compile(r"(\d+) (passed|failed|errors?|skipped|xfailed|xpassed|deselected)\b")
#: How much of the output stands for a run that failed without naming a test.
_TAIL_LINES = 20


@dataclass(frozen=True)
class Outcome:
    """What tests/with_gt4py gave on one release."""

    version: str
    passed: int
    failed: int  # failures and errors
    seconds: float
    returncode: int
    #: pytest's lines that name what failed, or the end of its output when none do.
    failures: tuple[str, ...] = ()
    #: What else the last line counted (skipped, deselected, …), for the notes.
    others: tuple[tuple[str, int], ...] = ()

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and self.failed == 0 and self.passed > 0


def summary_counts(output: str) -> dict[str, int]:
    """The counts of pytest's summary line (its last line that says how long the run took,
    "3 failed, 1990 passed, 1 skipped in 12.34s", with or without `=` around it), by outcome
    ("error" for errors); empty when there is none (pytest did not get that far)."""
    for line in reversed(output.splitlines()):
        text = line.strip().strip("=").strip()
        if not re.search(r"\bin \d+(\.\d+)?s\b", text):
            continue
        counts: dict[str, int] = {}
        for number, outcome in _COUNTED.findall(text):
            name = "error" if outcome.startswith("error") else outcome
            counts[name] = counts.get(name, 0) + int(number)
        if counts or text.startswith("no tests ran"):
            return counts
    return {}


def failure_lines(output: str) -> tuple[str, ...]:
    """The lines of pytest's short summary that name a failed test or an error; else, when the
    run failed without any (a usage error, an interruption), the end of its output."""
    named = tuple(line for line in output.splitlines() if line.startswith(("FAILED ", "ERROR ")))
    if named:
        return named
    return tuple(line for line in output.splitlines() if line.strip())[-_TAIL_LINES:]


def outcome(version: str, result: subprocess.CompletedProcess[str], seconds: float) -> Outcome:
    """The outcome of one release's run of pytest."""
    output = result.stdout + result.stderr
    counts = summary_counts(output)
    passed = counts.pop("passed", 0)
    failed = counts.pop("failed", 0) + counts.pop("error", 0)
    ran_well = result.returncode == 0 and failed == 0 and passed > 0
    return Outcome(
        version,
        passed,
        failed,
        seconds,
        result.returncode,
        () if ran_well else failure_lines(output),
        tuple(sorted(counts.items())),
    )


def table(outcomes: Sequence[Outcome]) -> str:
    """The outcomes as a table, a release a row, then a note for each that did not simply pass
    or fail tests (what else its run counted, pytest's exit code without a failed test)."""
    rows = [("version", "passed", "failed", "seconds")]
    rows += [(o.version, str(o.passed), str(o.failed), f"{o.seconds:.1f}") for o in outcomes]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = []
    for name, *numbers in rows:  # the release's name on the left, the numbers on the right
        cells = (v.rjust(w) for v, w in zip(numbers, widths[1:], strict=True))
        lines.append("  ".join([name.ljust(widths[0]), *cells]))
    for each in outcomes:
        notes = [f"{count} {name}" for name, count in each.others]
        if each.returncode != 0 and each.failed == 0:
            notes.append(f"pytest exited with {each.returncode}")
        elif each.returncode == 0 and each.passed == 0:
            notes.append("no test passed")
        if notes:
            lines.append(f"{each.version}: {', '.join(notes)}")
    return "\n".join(lines)


#: Runs tests/with_gt4py in an environment (`gt4py_venv.run_tests`'s signature).
Runner = Callable[..., subprocess.CompletedProcess[str]]


def installed_version(venv: Path) -> str:
    """The GT4Py release installed in the environment (its `gt4py.__version__`)."""
    command = [str(venv / "bin" / "python"), "-c", "import gt4py; print(gt4py.__version__)"]
    try:
        probe = subprocess.run(command, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise gt4py_venv.VenvError(f"`{' '.join(command)}` failed: {error}") from None
    if probe.returncode != 0:
        raise gt4py_venv.VenvError(
            f"`{' '.join(command)}` failed (exit {probe.returncode}):\n{probe.stderr}"
        )
    return probe.stdout.strip()


def run_version(python: str, version: str, args: Sequence[str], run: Runner) -> Outcome:
    """tests/with_gt4py with `args` on GT4Py `version`, its environment made if absent."""
    venv, made = gt4py_venv.ensure_venv(python, pins=[f"gt4py=={version}"])
    there = installed_version(venv)
    if there != version:  # what is run must be the release named in the table
        raise gt4py_venv.VenvError(f"{venv} holds GT4Py {there}, not {version}")
    how = "reused" if made is None else f"made in {made:.1f} s"
    print(f"GT4Py {version}: environment {venv} ({how}); running tests/with_gt4py", flush=True)
    start = time.monotonic()
    try:
        result = run(venv, *args)
    except subprocess.TimeoutExpired:
        raise gt4py_venv.VenvError(
            f"tests/with_gt4py did not finish in {gt4py_venv.TESTS_TIMEOUT} s"
        ) from None
    except OSError as error:
        python_there = Path(venv) / "bin" / "python"
        raise gt4py_venv.VenvError(f"cannot run {python_there}: {error}") from None
    return outcome(version, result, time.monotonic() - start)


def main(argv: list[str], run: Runner = gt4py_venv.run_tests) -> int:
    outcomes: list[Outcome] = []
    try:
        if os.environ.get("TYPEINF_GT4PY_VENV"):
            raise gt4py_venv.VenvError(
                "TYPEINF_GT4PY_VENV names one environment, and each GT4Py release needs its "
                "own: unset it (each is then made in the cache, by its requirements)"
            )
        python = gt4py_venv.find_python312()
        if python is None:
            raise gt4py_venv.VenvError("no Python ≥ 3.12 found (set TYPEINF_PYTHON312)")
        for version in VERSIONS:
            try:
                outcomes.append(run_version(python, version, argv, run))
            except gt4py_venv.VenvError as error:
                raise gt4py_venv.VenvError(f"GT4Py {version}: {error}") from None
    except gt4py_venv.VenvError as error:
        if outcomes:
            print(table(outcomes))
        print(f"tools.gt4py_versions: {error}", file=sys.stderr)
        return 2
    for each in outcomes:
        if not each.ok and each.failures:
            print(f"\nGT4Py {each.version}:")
            print("\n".join(each.failures))
    print()
    print(table(outcomes))
    return 0 if all(each.ok for each in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
