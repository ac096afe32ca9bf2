"""Inference throughput: nodes per second (parsing excluded), scaling, and peak memory.

    python3 -m benchmarks.inference_throughput [--sizes 10000 100000 1000000] [--shapes …]

Each (shape, size) runs in a fresh interpreter: it builds the program in Python, infers its
type, and reports the inference time and the process's peak resident memory. The scaling
exponent is the slope of log(time) over log(nodes) across the sizes (1.0 is linear).
"""

from __future__ import annotations

import resource
import time

from benchmarks.runner import run
from benchmarks.shapes import SHAPES

DEFAULT_SHAPES = [
    "balanced_stencil",
    "chained_definitions",
    "many_closures",
    "deep_lift_shift_tuple",
]


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
    run(
        "benchmarks.inference_throughput",
        __doc__.splitlines()[0],
        measure,
        list(SHAPES),
        DEFAULT_SHAPES,
        [
            ("seconds", lambda r: f"{r['seconds']:.2f}"),
            ("nodes/s", lambda r: f"{r['nodes'] / r['seconds']:.0f}"),
            ("peak MB", lambda r: f"{r['peak_rss_mb']:.0f}"),
        ],
        timed="seconds",
    )


if __name__ == "__main__":
    main()
