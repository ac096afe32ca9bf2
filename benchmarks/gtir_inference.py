"""GTIR inference: throughput, scaling and peak memory; and the same programs typed by GT4Py 1.2.3.

    python3 -m benchmarks.gtir_inference [--sizes 10000 100000 1000000] [--shapes …]
    python3 -m benchmarks.gtir_inference --gt4py [--rounds 3] [--samples 20] [--budget 60]

Times are CPU seconds (`time.process_time`; the work is single-threaded), as in
`benchmarks.end_to_end`: on the shared 2-core machine, with a load average of 5, a call of a
few milliseconds waits for the processor several times its own work in wall time, which would
weigh on the short calls (ours) far more than on the long ones (GT4Py's).

Throughput: each (shape, size) of `benchmarks.gtir_shapes` runs in a fresh interpreter, which
builds the program in Python (not timed), then times `typeinf.infer` on it: the inference and
the conversion of the program's type to public values (`GtirProgram`), parsing excluded; the
wall time is shown too. Peak memory is the process's peak resident set (the program itself
included). The scaling exponent is the slope of log(CPU time) over log(nodes) (1.0 is linear).

`--gt4py`: GT4Py's `gt4py.next.iterator.type_system.inference.infer(node,
offset_provider_type=…)`, as its passes call it (a copy of the node typed, the input left
alone), against ours (`typeinf.infer(node, offset_types)`, as above), on the same programs with
the same offset-provider types: the `--samples` largest records of
tests/data/gtir-samples, then each generated shape at growing sizes, up to the one whose GT4Py
inference is predicted to take `--budget` seconds, or the first GT4Py cannot type. GT4Py needs
Python ≥ 3.12: the run moves into the environment of `tools.gt4py_venv` (made first if it is
missing), with this checkout first on PYTHONPATH. Both inferences run in that one process,
interleaved: each of `--rounds` rounds types the program once with each, alternating which goes
first, GT4Py each time on a fresh conversion of our node (`typeinf.gt4py.to_gt4py`, not timed),
a garbage collection before each timed call. The table gives medians, and GT4Py/ours per
program; beside them, timed in the same rounds, `benchmarks.gtir_floor`: the least work any
unification-based inference does on the program (walk, names, a variable a node, a unification
per call), and GT4Py/floor, the highest ratio any inference built that way could reach.
"""

from __future__ import annotations

import argparse
import gc
import json
import lzma
import resource
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from benchmarks.gtir_shapes import GTIR_SHAPES, OFFSET_TYPES
from benchmarks.runner import calibration, run
from tools import gt4py_venv

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "tests" / "data" / "gtir-samples" / "samples.jsonl.xz"
#: The sizes tried per shape against GT4Py, smallest first (each ~3× the last).
LADDER = (300, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000)


def measure(shape: str, size: int) -> dict[str, float]:
    """Build one program and time its inference (run in a child process)."""
    import iterir
    import typeinf

    node = GTIR_SHAPES[shape](size)
    nodes = sum(1 for _ in iterir.walk(node))
    wall, cpu = time.perf_counter(), time.process_time()
    typeinf.infer(node, OFFSET_TYPES)
    return {
        "nodes": nodes,
        "cpu_s": time.process_time() - cpu,
        "wall_s": time.perf_counter() - wall,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


# --- against GT4Py: runs in the GT4Py environment -------------------------------------------------


def largest_samples(count: int) -> list[dict[str, Any]]:
    """The `count` records of the samples with the most nodes (most first)."""
    with lzma.open(SAMPLES, "rt", encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines if line.strip()]
    return sorted(records, key=lambda r: (-r["nodes"], r["id"]))[:count]


def timed(call: Callable[[], object]) -> float:
    gc.collect()  # neither pays for the garbage the other left
    start = time.process_time()
    call()
    return time.process_time() - start


def side_by_side(node: Any, offsets: Any, rounds: int) -> tuple[float, float, float, int] | str:
    """Median seconds of GT4Py's inference, of ours and of the floor on `node`, and how many of
    the floor's unifications ended early; or why GT4Py failed."""
    from gt4py.next.iterator.type_system import inference

    import typeinf
    from benchmarks.gtir_floor import floor
    from typeinf.gt4py import offset_types_to_gt4py, to_gt4py

    their_offsets = offset_types_to_gt4py(offsets)
    times: dict[str, list[float]] = {"gt4py": [], "ours": [], "floor": []}
    for turn in range(rounds):
        for who in ("gt4py", "ours", "floor") if turn % 2 == 0 else ("floor", "ours", "gt4py"):
            if who == "ours":
                times[who].append(timed(partial(typeinf.infer, node, offsets)))
                continue
            if who == "floor":
                times[who].append(timed(partial(floor, node)))
                continue
            try:  # GT4Py's failures are figures of the table
                fresh = to_gt4py(node)
            except Exception as error:
                return f"GT4Py cannot build the node: {type(error).__name__}"
            try:
                call = partial(inference.infer, fresh, offset_provider_type=their_offsets)
                times[who].append(timed(call))
            except Exception as error:
                return f"GT4Py's inference fails: {type(error).__name__}"
    median = statistics.median
    return median(times["gt4py"]), median(times["ours"]), median(times["floor"]), floor(node)


def compare(samples: int, budget: float, rounds: int) -> None:
    """Print GT4Py's and our median inference times and their ratio, per program."""
    import iterir
    from iterir.offset_types import offset_types_from_json

    def row(name: str, node: Any, offsets: Any) -> float | None:
        nodes = sum(1 for _ in iterir.walk(node))
        result = side_by_side(node, offsets, rounds)
        if isinstance(result, str):
            print(f"{name:<{width}} {nodes:>7}  {result}", flush=True)
            return None
        theirs, ours, least, early = result
        print(
            f"{name:<{width}} {nodes:>7} {theirs * 1000:>10.1f} {ours * 1000:>9.2f} "
            f"{theirs / ours:>6.0f}× {least * 1000:>9.2f} {theirs / least:>6.0f}× "
            f"{nodes / theirs:>9.0f} {nodes / ours:>9.0f}"
            + (f"  (floor: {early} unifications ended early)" if early else ""),
            flush=True,
        )
        return theirs

    print(f"calibration: a 10-million-step Python loop takes {calibration():.2f} s now")
    print(f"Python {sys.version.split()[0]}; CPU times, medians of {rounds} interleaved rounds")
    records = largest_samples(samples)
    width = max(len(r["id"]) for r in records)
    header = (
        f"{'program':<{width}} {'nodes':>7} {'GT4Py ms':>10} {'ours ms':>9} {'ratio':>7} "
        f"{'floor ms':>9} {'ratio':>7} {'GT4Py n/s':>9} {'ours n/s':>9}"
    )
    print(header)
    print("-" * len(header))
    warm = records[0]  # one untimed round, so that no first call pays for imports
    side_by_side(
        iterir.from_json(warm["ir"]), offset_types_from_json(warm["offset_provider_type"]), 1
    )
    for record in records:
        offsets = offset_types_from_json(record["offset_provider_type"])
        row(record["id"], iterir.from_json(record["ir"]), offsets)
    for shape, build in GTIR_SHAPES.items():
        for size, bigger in zip(LADDER, (*LADDER[1:], 0), strict=True):
            theirs = row(f"{shape} ({size:,})", build(size), OFFSET_TYPES)
            if theirs is None or not bigger or theirs * bigger / size > budget:
                break
    print(f"calibration: a 10-million-step Python loop takes {calibration():.2f} s now")


def in_gt4py_venv(arguments: list[str]) -> int:
    """Run this module with `arguments` in the GT4Py environment (made if missing)."""
    return gt4py_venv.run_module("benchmarks.gtir_inference", arguments)


def main() -> None:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--gt4py", action="store_true")
    parser.add_argument("--in-gt4py-venv", action="store_true")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--budget", type=float, default=60.0)
    known, _ = parser.parse_known_args()
    if known.in_gt4py_venv:
        compare(known.samples, known.budget, known.rounds)
        return
    if known.gt4py:
        settings = ["--rounds", str(known.rounds), "--samples", str(known.samples)]
        sys.exit(in_gt4py_venv(["--in-gt4py-venv", *settings, "--budget", str(known.budget)]))
    run(
        "benchmarks.gtir_inference",
        __doc__.splitlines()[0],
        measure,
        list(GTIR_SHAPES),
        list(GTIR_SHAPES),
        [
            ("CPU s", lambda r: f"{r['cpu_s']:.2f}"),
            ("nodes/s", lambda r: f"{r['nodes'] / r['cpu_s']:.0f}"),
            ("wall s", lambda r: f"{r['wall_s']:.2f}"),
            ("peak MB", lambda r: f"{r['peak_rss_mb']:.0f}"),
        ],
        timed="cpu_s",
    )


if __name__ == "__main__":
    main()
