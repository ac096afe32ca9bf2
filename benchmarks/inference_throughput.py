"""Inference throughput: nodes per second (parsing excluded), scaling, and peak memory.

    python3 -m benchmarks.inference_throughput [--sizes 10000 100000 1000000] [--shapes …]

Each (shape, size) runs in a fresh interpreter: it builds the program in Python, infers its
type, and reports the inference time and the process's peak resident memory. The scaling
exponent is the slope of log(time) over log(nodes) across the sizes (1.0 is linear).
"""

from __future__ import annotations

import argparse
import json
import resource
import time

from benchmarks.runner import in_child, scaling_exponent
from benchmarks.shapes import SHAPES

DEFAULT_SHAPES = ["balanced_stencil", "chained_definitions", "many_closures", "deep_lift_shift_tuple"]


def measure(shape: str, size: int) -> dict[str, float]:
    import iterir
    import typeinf

    node = SHAPES[shape](size)
    nodes = sum(1 for _ in iterir.walk(node))
    start = time.perf_counter()
    type_ = typeinf.infer(node)
    elapsed = time.perf_counter() - start
    printed = typeinf.pformat(type_)
    return {
        "nodes": nodes,
        "seconds": elapsed,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "type_chars": len(printed),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--shapes", nargs="+", default=DEFAULT_SHAPES, choices=list(SHAPES))
    parser.add_argument("--child", nargs=2, metavar=("SHAPE", "SIZE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child[0], int(args.child[1]))))
        return
    header = f"{'shape':<22} {'nodes':>9} {'seconds':>8} {'nodes/s':>9} {'peak MB':>8}"
    print(header)
    print("-" * len(header))
    for shape in args.shapes:
        points = []
        for size in args.sizes:
            r = in_child("benchmarks.inference_throughput", shape, size)
            points.append((r["nodes"], r["seconds"]))
            print(f"{shape:<22} {r['nodes']:>9} {r['seconds']:>8.2f} {r['nodes'] / r['seconds']:>9.0f}"
                  f" {r['peak_rss_mb']:>8.0f}", flush=True)  # fmt: skip
        if len(points) > 1:
            print(f"{shape:<22} scaling exponent {scaling_exponent(points):.2f}", flush=True)


if __name__ == "__main__":
    main()
