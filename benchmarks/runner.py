"""What both benchmarks share: the command line, one fresh interpreter per measurement, the
table, and the scaling fit."""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

Measure = Callable[[str, int], dict[str, Any]]


def in_child(module: str, shape: str, size: int) -> dict[str, Any]:
    """Run `python -m module --child shape size` and return the JSON it prints; a fresh process
    per measurement keeps each peak-memory figure its own."""
    child = subprocess.run(
        [sys.executable, "-m", module, "--child", shape, str(size)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(child.stdout)  # type: ignore[no-any-return]


def calibration() -> float:
    """Seconds for a fixed pure-Python loop: shared machines vary by tens of percent from hour
    to hour, and this says how fast this one is while the figures are taken."""
    start = time.perf_counter()
    total = 0
    for i in range(10_000_000):
        total += i
    return time.perf_counter() - start


def scaling_exponent(points: list[tuple[float, float]]) -> float:
    """The slope of log(time) over log(size), fitted by least squares: 1.0 is linear."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    covariance = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    return covariance / sum((x - mx) ** 2 for x in xs)


def run(
    module: str,
    description: str,
    measure: Measure,
    shapes: list[str],
    default_shapes: list[str],
    columns: list[tuple[str, Callable[[dict[str, Any]], str]]],
    timed: str,
    default_sizes: tuple[int, ...] = (10_000, 100_000, 1_000_000),
) -> None:
    """Measure every (shape, size) in a child process and print one row each, then the scaling
    exponent of the `timed` figure per shape. `columns` are (heading, cell formatter) pairs."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(default_sizes))
    parser.add_argument("--shapes", nargs="+", default=default_shapes, choices=shapes)
    parser.add_argument("--child", nargs=2, metavar=("SHAPE", "SIZE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child[0], int(args.child[1]))))
        return
    print(
        f"calibration: a 10-million-step Python loop takes {calibration():.2f} s on this machine now "
        "(figures scale with it)"
    )
    width = max(len(s) for s in args.shapes) + 1
    header = f"{'shape':<{width}} {'nodes':>9} " + " ".join(
        f"{h:>{max(len(h), 8)}}" for h, _ in columns
    )
    print(header)
    print("-" * len(header))
    for shape in args.shapes:
        points = []
        for size in args.sizes:
            r = in_child(module, shape, size)
            points.append((r["nodes"], r[timed]))
            cells = " ".join(f"{cell(r):>{max(len(h), 8)}}" for h, cell in columns)
            print(f"{shape:<{width}} {r['nodes']:>9} {cells}", flush=True)
        if len(points) > 1:
            print(
                f"{shape:<{width}} scaling exponent ({timed}) {scaling_exponent(points):.2f}",
                flush=True,
            )
