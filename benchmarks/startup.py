"""Start-up cost: CPU seconds of `import typeinf` and of `typeinf infer` on a one-line program,
each in a fresh interpreter, for this checkout and optionally another one, interleaved.

    python3 -m benchmarks.startup [--against PATH] [--runs 15]

`--against PATH` names another checkout (e.g. `git worktree add /tmp/before COMMIT`); runs
alternate between the two (A B A B …) so that the machine's load falls on both alike. Figures
are the CPU time (user + system) of the child process, minimum and median over the runs, and the
baseline of a bare interpreter (`python3 -c pass`) on this machine. The parse tables are cached
(`iterir/tables.py`) after the first run; the first, uncached run is reported separately.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
PROGRAM = "λ(x) → ·x + 1.0\n"
COMMANDS = {
    "bare python": ["-c", "pass"],
    "import typeinf": ["-c", "import typeinf"],
    "typeinf infer": ["-m", "typeinf.frontends.cli", "infer"],
}


def cpu_seconds(checkout: Path, arguments: list[str], environment: dict[str, str]) -> float:
    """The CPU time (user + system) of one child interpreter running `arguments`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, *arguments],
        cwd=tempfile.gettempdir(),
        check=True,
        stdout=subprocess.DEVNULL,
        env={**environment, "PYTHONPATH": str(checkout)},
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="another checkout, measured interleaved")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    checkouts = {"this": HERE, **({"against": args.against.resolve()} if args.against else {})}
    with tempfile.TemporaryDirectory() as scratch:
        program = Path(scratch) / "one.itir"
        program.write_text(PROGRAM, encoding="utf-8")
        environment = {**os.environ, "TYPEINF_CACHE_DIR": str(Path(scratch) / "cache")}
        first = {
            name: cpu_seconds(path, [*COMMANDS["typeinf infer"], str(program)], environment)
            for name, path in checkouts.items()
        }
        times: dict[tuple[str, str], list[float]] = {}
        for _ in range(args.runs):
            for what, arguments in COMMANDS.items():
                if what == "typeinf infer":
                    arguments = [*arguments, str(program)]
                for name, path in checkouts.items():
                    times.setdefault((what, name), []).append(
                        cpu_seconds(path, arguments, environment)
                    )
    print(
        f"CPU seconds (user + system) over {args.runs} runs each, interleaved; program: {PROGRAM.strip()}"
    )
    print(f"{'what':16} {'checkout':8} {'min':>6} {'median':>7}")
    for (what, name), values in times.items():
        print(
            f"{what:16} {name:8} {min(values):6.3f} {statistics.median(values):7.3f}  {checkouts[name]}"
        )
    for name, seconds in first.items():
        print(f"{'first infer':16} {name:8} {seconds:6.3f} {'':7}  (parse tables not yet cached)")


if __name__ == "__main__":
    main()
