"""What handing out types as values costs: converting the solved cells into `typeinf.types`
values, beside the inference that solved them, on the benchmark shapes.

    python3 -m benchmarks.conversion [--sizes 10000 100000] [--shapes …]

Each (shape, size) runs in a fresh interpreter: it infers the program (cells, as `infer` does
before converting), then converts the program's type (what `infer` adds) and every node's type
together (what `infer_all` and `check` add), and reports each conversion as a share of the
inference.
"""

from __future__ import annotations

import time

from benchmarks.inference_throughput import DEFAULT_SHAPES
from benchmarks.runner import run
from benchmarks.shapes import SHAPES


def measure(shape: str, size: int) -> dict[str, float]:
    import iterir
    from iterir.gcpause import gc_paused
    from typeinf.convert import to_value
    from typeinf.infer import _node_types, _program_type, _solved, _values
    from typeinf.within import subject

    node = SHAPES[shape](size)
    nodes = sum(1 for _ in iterir.walk(node))
    with gc_paused():  # as `infer` and `infer_all` run
        start = time.perf_counter()
        solved = _solved(subject(node, False, None), None)
        program = _program_type(solved, 0, solved.types)
        inferred = time.perf_counter()
        assert program is not None  # the root of a program without errors has a type
        to_value(program)
        converted = time.perf_counter()
        every = _node_types(solved, complete=True)
        listed = time.perf_counter()
        _values(every)
        converted_all = time.perf_counter()
    return {
        "nodes": nodes,
        "infer": inferred - start,
        "type": converted - inferred,
        "all": converted_all - listed,
    }


def main() -> None:
    run(
        "benchmarks.conversion",
        __doc__.splitlines()[0],
        measure,
        list(SHAPES),
        DEFAULT_SHAPES,
        [
            ("infer s", lambda r: f"{r['infer']:.2f}"),
            ("type ms", lambda r: f"{r['type'] * 1000:.1f}"),
            ("type %", lambda r: f"{100 * r['type'] / r['infer']:.1f}"),
            ("all s", lambda r: f"{r['all']:.2f}"),
            ("all %", lambda r: f"{100 * r['all'] / r['infer']:.1f}"),
        ],
        timed="infer",
    )


if __name__ == "__main__":
    main()
