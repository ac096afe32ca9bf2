"""End to end from text: parse, then infer; each timed, their ratio, and peak memory.

    python3 -m benchmarks.end_to_end [--sizes 100000 200000 1000000] [--shapes …]

Each (shape, size) runs in a fresh interpreter: it prints the program built in Python, parses
the text (`iterir.parse`, the fast path where it applies), infers the type of what it parsed,
and reports the process's peak resident memory. Then, for comparison, it parses the same text
again with lark's LALR parser alone (`lark s`), the parser every text took before the fast path.
"""

from __future__ import annotations

import resource
import time

from benchmarks.runner import run
from benchmarks.shapes import SHAPES


def measure(shape: str, size: int) -> dict[str, float]:
    import iterir
    import typeinf
    from iterir import parser

    node = SHAPES[shape](size)
    nodes = sum(1 for _ in iterir.walk(node))
    text = iterir.pformat(node)
    del node
    iterir.parse("x")  # the parse tables are loaded (start-up is benchmarks/startup.py's)
    start = time.perf_counter()
    parsed = iterir.parse(text)
    parsed_at = time.perf_counter()
    typeinf.infer(parsed)
    inferred_at = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    del parsed
    lark_start = time.perf_counter()
    parser.run(parser._parser, parser._callbacks, text, None)  # no fast path
    return {
        "nodes": nodes,
        "text_mb": len(text.encode()) / 1e6,
        "parse_s": parsed_at - start,
        "infer_s": inferred_at - parsed_at,
        "lark_s": time.perf_counter() - lark_start,
        "peak_rss_mb": peak,
    }


def main() -> None:
    run(
        "benchmarks.end_to_end",
        __doc__.splitlines()[0],
        measure,
        list(SHAPES),
        list(SHAPES),
        [
            ("text MB", lambda r: f"{r['text_mb']:.1f}"),
            ("parse s", lambda r: f"{r['parse_s']:.2f}"),
            ("infer s", lambda r: f"{r['infer_s']:.2f}"),
            ("parse/infer", lambda r: f"{r['parse_s'] / r['infer_s']:.2f}"),
            ("nodes/s", lambda r: f"{r['nodes'] / (r['parse_s'] + r['infer_s']):.0f}"),
            ("peak MB", lambda r: f"{r['peak_rss_mb']:.0f}"),
            ("lark s", lambda r: f"{r['lark_s']:.2f}"),
            ("lark/parse", lambda r: f"{r['lark_s'] / r['parse_s']:.1f}"),
        ],
        timed="parse_s",
    )


if __name__ == "__main__":
    main()
