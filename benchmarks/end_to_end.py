"""End to end from text: parse, then infer; each timed, their ratio, and peak memory.

    python3 -m benchmarks.end_to_end [--sizes 100000 200000 1000000] [--shapes …]

Each (shape, size) runs in a fresh interpreter: it prints the program built in Python, parses
the text (`iterir.parse`, the fast path where it applies), infers the type of what it parsed,
and then, for comparison, parses the same text with lark's LALR parser alone (`lark s`, the
parser every text took before the fast path). Times are CPU seconds of this process
(`time.process_time`: the shared machine's other load disturbs them less than wall time; the
work is single-threaded). Times and ratios are medians of 3 such rounds (1 at 1M nodes), nodes/s
is parse and infer's best round; peak memory is the process's peak resident memory after the
first parse and inference.
"""

from __future__ import annotations

import functools
import resource
import statistics
import time

from benchmarks.runner import run
from benchmarks.shapes import SHAPES


def repeats(size: int) -> int:
    """How many times each figure is taken: the machine is shared and its speed varies from
    second to second, so figures are medians of interleaved runs (once at 1M nodes)."""
    return 1 if size >= 1_000_000 else 3


def measure(shape: str, size: int) -> dict[str, float]:
    import iterir
    import typeinf
    from iterir import parser

    node = SHAPES[shape](size)
    nodes = sum(1 for _ in iterir.walk(node))
    text = iterir.pformat(node)
    del node
    iterir.parse("x")  # the parse tables are loaded (start-up is benchmarks/startup.py's)
    runs: dict[str, list[float]] = {"parse_s": [], "infer_s": [], "lark_s": [], "peak_rss_mb": []}
    for _ in range(repeats(size)):
        start = time.process_time()
        parsed = iterir.parse(text)
        parsed_at = time.process_time()
        typeinf.infer(parsed)
        runs["infer_s"].append(time.process_time() - parsed_at)
        runs["parse_s"].append(parsed_at - start)
        runs["peak_rss_mb"].append(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
        del parsed
        lark_start = time.process_time()
        parser.parse_fencil_by_lark(text)  # no fast path
        runs["lark_s"].append(time.process_time() - lark_start)
    figures = {key: statistics.median(values) for key, values in runs.items()}
    figures["peak_rss_mb"] = runs["peak_rss_mb"][0]  # parse and infer alone, before lark's parse
    ratios = {
        "parse/infer": ("parse_s", "infer_s"),
        "lark/parse": ("lark_s", "parse_s"),
    }
    for name, (a, b) in ratios.items():
        figures[name] = statistics.median(x / y for x, y in zip(runs[a], runs[b], strict=True))
    totals = [p + i for p, i in zip(runs["parse_s"], runs["infer_s"], strict=True)]
    return {**figures, "nodes": nodes, "text_mb": len(text.encode()) / 1e6, "total_s": min(totals)}


#: Each column: its heading, the figure (a key of `measure`'s result, or a ratio of two), and
#: its format.
_COLUMNS = [
    ("text MB", ("text_mb",), ".1f"),
    ("parse s", ("parse_s",), ".2f"),
    ("infer s", ("infer_s",), ".2f"),
    ("parse/infer", ("parse/infer",), ".2f"),
    ("nodes/s", ("nodes", "total_s"), ".0f"),
    ("peak MB", ("peak_rss_mb",), ".0f"),
    ("lark s", ("lark_s",), ".2f"),
    ("lark/parse", ("lark/parse",), ".1f"),
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
        default_sizes=(100_000, 200_000, 1_000_000),
    )


if __name__ == "__main__":
    main()
