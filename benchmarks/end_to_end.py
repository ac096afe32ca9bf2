"""End to end from text: parse, then infer; each timed, their ratio, and peak memory.

    python3 -m benchmarks.end_to_end [--sizes 100000 200000 1000000] [--shapes …]

Each (shape, size) runs in a fresh interpreter: it prints the program built in Python, parses
the text (`iterir.parse`, the fast path where it applies), infers the type of what it parsed,
and reports the process's peak resident memory. Then, for comparison, it parses the same text
again with lark's LALR parser alone (`lark s`), the parser every text took before the fast path.
"""

from __future__ import annotations

import functools
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
        "end_to_end_s": inferred_at - start,
        "lark_s": time.perf_counter() - lark_start,
        "peak_rss_mb": peak,
    }


#: Each column: its heading, the figure (a key of `measure`'s result, or a ratio of two), and
#: its format.
_COLUMNS = [
    ("text MB", ("text_mb",), ".1f"),
    ("parse s", ("parse_s",), ".2f"),
    ("infer s", ("infer_s",), ".2f"),
    ("parse/infer", ("parse_s", "infer_s"), ".2f"),
    ("nodes/s", ("nodes", "end_to_end_s"), ".0f"),
    ("peak MB", ("peak_rss_mb",), ".0f"),
    ("lark s", ("lark_s",), ".2f"),
    ("lark/parse", ("lark_s", "parse_s"), ".1f"),
]


def _cell(keys: tuple[str, ...], spec: str, r: dict[str, float]) -> str:
    value = r[keys[0]] if len(keys) == 1 else r[keys[0]] / r[keys[1]]
    return format(value, spec)


def main() -> None:
    columns = [(h, functools.partial(_cell, keys, spec)) for h, keys, spec in _COLUMNS]
    run(
        "benchmarks.end_to_end",
        __doc__.splitlines()[0],
        measure,
        *[list(SHAPES)] * 2,
        columns,
        "parse_s",
    )


if __name__ == "__main__":
    main()
