"""How text parsing scales with depth: seconds per depth and the fitted exponent, per dialect.

    python3 -m benchmarks.parse_scaling [--levels 10000 … 1000000] [--dialects …]
                                        [--against PATH_OR_REVISION] [--rounds 1] [--budget 60]

Each dialect is a deep program of that many nested levels, printed, then parsed by
`iterir.parse` and timed in CPU time (`time.process_time`):

- `fencil`: `λ(f, x) → f(f(…f(x)…))` (`benchmarks.shapes.deep_calls`);
- `gtir`: `as_fieldop(λ(x) → ·x)(…)`, `λ(yᵢ) → …` and `g(…)` in turn
  (`benchmarks.gtir_shapes.deep_gtir`), the shape that GT4Py's lowering nests;
- `gtir_program`: a typed GTIR program of nested `concat_where`/`if_` levels
  (`benchmarks.gtir_shapes.deep_concat_where`), whose marks send it to GTIR's grammar.

Every measurement runs in a fresh interpreter. With `--against`, another checkout (a folder, or
a git revision exported with `git archive`) is measured too, interleaved with this one (A B, then
B A, …) so that the shared machine's load falls on both alike; its interpreter imports `iterir`
and the shapes from that checkout. A version's larger depths are skipped once one of its parses
took more than `--budget` seconds. The exponent is the least-squares slope of log(seconds) over
log(levels) across the depths measured: 1 is linear, 2 quadratic.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
DIALECTS = ["fencil", "gtir", "gtir_program"]
LEVELS = [10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000]


def child(dialect: str, levels: int) -> None:
    """Print, as JSON, the parse's CPU seconds and the text's size, for this interpreter's
    version of `iterir` (run with the checkout on PYTHONPATH)."""
    import iterir
    from benchmarks.gtir_shapes import deep_concat_where, deep_gtir
    from benchmarks.shapes import deep_calls

    builders = {
        "fencil": deep_calls,
        "gtir": deep_gtir,
        "gtir_program": lambda n: deep_concat_where(7 * n),  # 7 nodes a level
    }
    node = builders[dialect](levels)
    text = iterir.pformat(node)
    iterir.parse("x"), iterir.parse("IDimₕ")  # both dialects' parse tables are loaded
    start = time.process_time()
    parsed = iterir.parse(text)
    seconds = time.process_time() - start
    assert parsed == node
    print(json.dumps({"seconds": seconds, "mb": len(text.encode()) / 1e6}))


def measure(root: Path, dialect: str, levels: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    command = [sys.executable, str(Path(__file__).resolve()), "--child", dialect, str(levels)]
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{root} {dialect} {levels}: {done.stderr.strip()}")
    figures: dict[str, float] = json.loads(done.stdout)
    return figures


def exponent(points: dict[int, float]) -> float | None:
    """The fitted exponent of seconds over levels; None below two points."""
    # Imported here: a child runs this file with another checkout's `benchmarks` first on its path.
    from benchmarks.runner import scaling_exponent

    return scaling_exponent(list(points.items())) if len(points) >= 2 else None


def exported(revision: str, into: Path) -> Path:
    archive = subprocess.run(
        ["git", "archive", revision], cwd=HERE, capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def run(versions: dict[str, Path], args: argparse.Namespace) -> None:
    names = list(versions)
    # version → dialect → levels → seconds of each round
    runs: dict[str, dict[str, dict[int, list[float]]]] = {
        name: {dialect: {} for dialect in args.dialects} for name in names
    }
    over: set[tuple[str, str]] = set()  # (version, dialect) past the budget
    sizes: dict[tuple[str, int], float] = {}
    for dialect in args.dialects:
        for levels in args.levels:
            for i in range(args.rounds):
                for name in names if i % 2 == 0 else names[::-1]:
                    if (name, dialect) in over:
                        continue
                    figures = measure(versions[name], dialect, levels)
                    runs[name][dialect].setdefault(levels, []).append(figures["seconds"])
                    sizes[dialect, levels] = figures["mb"]
                    if figures["seconds"] > args.budget:
                        over.add((name, dialect))
            shown = [
                f"{name} {statistics.median(runs[name][dialect][levels]):.3f} s"
                for name in names
                if levels in runs[name][dialect]
            ]
            print(f"  {dialect} {levels}: " + ", ".join(shown), file=sys.stderr, flush=True)
    print(f"CPU seconds of iterir.parse, medians of {args.rounds} round(s); exponent: the slope")
    print("of log(seconds) over log(levels)")
    for dialect in args.dialects:
        print(f"\n{dialect}")
        header = f"{'levels':>9} {'MB':>7}" + "".join(f" {name:>10}" for name in names)
        print(header + (f" {names[1] + '/' + names[0]:>12}" if len(names) == 2 else ""))
        medians = {
            name: {lv: statistics.median(s) for lv, s in runs[name][dialect].items()}
            for name in names
        }
        for levels in args.levels:
            if (dialect, levels) not in sizes:
                continue
            cells = [medians[name].get(levels) for name in names]
            row = f"{levels:>9} {sizes[dialect, levels]:>7.1f}"
            row += "".join(f" {c:>10.3f}" if c is not None else f" {'—':>10}" for c in cells)
            if len(names) == 2 and None not in cells:
                row += f" {cells[1] / cells[0]:>12.2f}"  # type: ignore[operator]
            print(row)
        slopes = [exponent(medians[name]) for name in names]
        print(f"{'exponent':>17}" + "".join(f" {s:>10.2f}" if s else f" {'—':>10}" for s in slopes))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, nargs="+", default=LEVELS)
    parser.add_argument("--dialects", nargs="+", default=DIALECTS, choices=DIALECTS)
    parser.add_argument("--against", help="another checkout's folder, or a git revision")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--budget", type=float, default=60.0, help="seconds; see above")
    parser.add_argument("--child", nargs=2, metavar=("DIALECT", "LEVELS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]))
        return
    versions = {"this": HERE}
    with tempfile.TemporaryDirectory() as scratch:
        if args.against:
            against = Path(args.against)
            if not against.is_dir():
                against = exported(args.against, Path(scratch))
            versions = {"against": against.resolve(), "this": HERE}
        run(versions, args)


if __name__ == "__main__":
    main()
