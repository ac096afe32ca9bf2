"""Throughput of the IR layer: parse, print and JSON load, in nodes per second, and peak memory.

    python3 -m benchmarks.iterir_throughput [--sizes 10000 100000 1000000] [--shapes …]

The fencil-IR shapes run by default; GTIR's (benchmarks/gtir_shapes.py) with
`--shapes gtir_setats gtir_concat_where gtir_unstructured`.

Each (shape, size) runs in a fresh interpreter so that its peak resident memory is its own.
The scaling exponent is the slope of log(parse time) over log(nodes) across the sizes.
"""

from __future__ import annotations

import resource
import time

from benchmarks.gtir_shapes import GTIR_SHAPES
from benchmarks.runner import run
from benchmarks.shapes import SHAPES

ALL_SHAPES = {**SHAPES, **GTIR_SHAPES}


def measure(shape: str, size: int) -> dict[str, float]:
    """Build one program and time its print, parse and JSON load (run in a child process)."""
    import iterir
    from iterir import jsontext

    node = ALL_SHAPES[shape](size)
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
    run(
        "benchmarks.iterir_throughput",
        __doc__.splitlines()[0],
        measure,
        list(ALL_SHAPES),
        list(SHAPES),
        [
            ("text MB", lambda r: f"{r['text_mb']:.1f}"),
            ("parse n/s", lambda r: f"{r['nodes'] / r['parse_s']:.0f}"),
            ("print n/s", lambda r: f"{r['nodes'] / r['print_s']:.0f}"),
            ("JSON-load n/s", lambda r: f"{r['nodes'] / r['json_load_s']:.0f}"),
            ("peak MB", lambda r: f"{r['peak_rss_mb']:.0f}"),
        ],
        timed="parse_s",
    )


if __name__ == "__main__":
    main()
