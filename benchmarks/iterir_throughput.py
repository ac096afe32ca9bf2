"""Throughput of the IR layer: parse, print and JSON load, in nodes per second, and peak memory.

    python3 -m benchmarks.iterir_throughput [--sizes 10000 100000 1000000] [--shapes …]

Each (shape, size) runs in a fresh interpreter so that its peak resident memory is its own.
The scaling exponent is the slope of log(parse time) over log(nodes) across the sizes.
"""

from __future__ import annotations

import argparse
import json
import resource
import time

from benchmarks.runner import in_child, scaling_exponent
from benchmarks.shapes import SHAPES


def measure(shape: str, size: int) -> dict[str, float]:
    """Build one program and time its print, parse and JSON load (run in a child process)."""
    import iterir
    from iterir import jsontext

    node = SHAPES[shape](size)
    nodes = sum(1 for _ in iterir.walk(node))
    start = time.perf_counter()
    text = iterir.pformat(node)
    printed = time.perf_counter()
    parsed = iterir.parse(text)
    parse_done = time.perf_counter()
    json_text = jsontext.dumps(iterir.to_json(node))
    json_start = time.perf_counter()
    loaded = iterir.from_json(jsontext.loads(json_text))
    json_done = time.perf_counter()
    assert parsed == node and loaded == node
    return {
        "nodes": nodes,
        "text_mb": len(text.encode()) / 1e6,
        "print_s": printed - start,
        "parse_s": parse_done - printed,
        "json_load_s": json_done - json_start,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=list(SHAPES))
    parser.add_argument("--child", nargs=2, metavar=("SHAPE", "SIZE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child[0], int(args.child[1]))))
        return
    header = f"{'shape':<17} {'nodes':>9} {'text MB':>8} {'parse n/s':>10} {'print n/s':>10} {'JSON-load n/s':>13} {'peak MB':>8}"
    print(header)
    print("-" * len(header))
    for shape in args.shapes:
        points = []
        for size in args.sizes:
            r = in_child("benchmarks.iterir_throughput", shape, size)
            points.append((r["nodes"], r["parse_s"]))
            print(
                f"{shape:<17} {r['nodes']:>9} {r['text_mb']:>8.1f} {r['nodes'] / r['parse_s']:>10.0f}"
                f" {r['nodes'] / r['print_s']:>10.0f} {r['nodes'] / r['json_load_s']:>13.0f}"
                f" {r['peak_rss_mb']:>8.0f}",
                flush=True,
            )
        if len(points) > 1:
            print(f"{shape:<17} parse scaling exponent {scaling_exponent(points):.2f}", flush=True)


if __name__ == "__main__":
    main()
