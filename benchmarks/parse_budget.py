"""Where text parsing spends its time, per shape, beside inference: the per-node budget.

    python3 -m benchmarks.parse_budget [--size 200000] [--rounds 3] [--shapes …]

For each shape of `benchmarks.shapes`, in this interpreter, the CPU time (`time.process_time`)
of: the fast path's lexer alone (`lex`); the fast path's parser over those tokens with callbacks
that build nothing (`+parser`); the whole parse, nodes and spans built (`parse`); and the
inference of what it parsed (`infer`). Each is the median of `--rounds` interleaved rounds,
printed as µs a node, with the parse's three parts (`lex`, `parser` = `+parser` − `lex`,
`nodes` = `parse` − `+parser`) and parse/infer.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from benchmarks.shapes import SHAPES

#: The callbacks the fast path calls.
_BUILDERS = ["symref", "number", "quoted_literal", "offset", "axis", "param", "lambda_", "if_",
             "infix_chain", "prefix", "called", "tuple_get", "named_range", "paren", "make_tuple",
             "shift", "cartesian_domain", "unstructured_domain", "fundef", "closure", "fencil"]  # fmt: skip


def budget(shape: str, size: int, rounds: int) -> dict[str, float]:
    import iterir
    import typeinf
    from iterir import fast_parser
    from iterir.gcpause import gc_paused
    from iterir.node_building import Callbacks
    from iterir.nodes import Node, SymRef

    nothing = SymRef("x", loc=iterir.SourceSpan(None, 1, 1, 1, 2))

    class Idle(Callbacks):
        """Callbacks that build nothing: what is left is the lexer's and the parser's work."""

    for name in _BUILDERS:
        setattr(Idle, name, lambda self, *args: nothing)
    idle = Idle()
    idle.filename = None
    text = iterir.pformat(SHAPES[shape](size))
    nodes = sum(1 for _ in iterir.walk(iterir.parse(text)))

    def lex() -> object:
        for _ in fast_parser.tokens(text):
            pass
        return None

    steps: dict[str, Callable[[], object]] = {
        "lex": lex,
        "+parser": lambda: fast_parser.parse(text, idle),
        "parse": lambda: iterir.parse(text),
    }
    times: dict[str, list[float]] = {name: [] for name in [*steps, "infer"]}
    for _ in range(rounds):
        for name, step in steps.items():
            with gc_paused():  # as `iterir.parse` runs
                start = time.process_time()
                made = step()
                times[name].append(time.process_time() - start)
            if name == "parse":
                assert isinstance(made, Node)
                start = time.process_time()
                typeinf.infer(made)
                times["infer"].append(time.process_time() - start)
            del made
    per_node = {name: statistics.median(values) / nodes * 1e6 for name, values in times.items()}
    return {"nodes": nodes, **per_node}


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--size", type=int, default=200_000)
    arguments.add_argument("--rounds", type=int, default=3)
    arguments.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=list(SHAPES))
    args = arguments.parse_args()
    print(f"size {args.size}, {args.rounds} rounds; CPU µs a node, medians")
    print(f"{'shape':<24} {'nodes':>8} {'lex':>6} {'parser':>7} {'nodes':>6} {'parse':>6} "
          f"{'infer':>6} {'parse/infer':>11}")  # fmt: skip
    for shape in args.shapes:
        r = budget(shape, args.size, args.rounds)
        parser_part, nodes_part = r["+parser"] - r["lex"], r["parse"] - r["+parser"]
        print(f"{shape:<24} {r['nodes']:>8.0f} {r['lex']:>6.2f} {parser_part:>7.2f} "
              f"{nodes_part:>6.2f} {r['parse']:>6.2f} {r['infer']:>6.2f} "
              f"{r['parse'] / r['infer']:>11.2f}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
