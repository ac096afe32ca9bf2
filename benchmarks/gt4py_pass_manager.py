"""GT4Py 1.2.3's pass manager with GT4Py's type inference and with typeinf's (the switch,
`typeinf.gt4py`), interleaved in one run: per input, the pass manager's total time, the time
spent inside type inference (`infer` and `reinfer` at the module attributes the passes call;
for ours, the conversion to and from GT4Py's nodes included), and the number of those calls.

Inputs: the largest `pre` samples (tests/data/gtir-samples: pass-manager inputs captured from
GT4Py's own tests), and larger programs made from the largest by repeating its statements
(each repetition writing its own copies of the outputs), up to `--most` nodes with both
inferences, then up to `--ours-most` nodes with ours only (GT4Py's pass manager with its own
inference took over two minutes on 6,449 nodes; GT4Py's columns are then empty).

Times are CPU time of this process (`time.process_time`), not wall time: the machine is
shared, and a wall clock counts whatever else runs as the pass manager's. The boundaries of
"inside type inference" are the same for both: the calls at the patched attributes.

Needs GT4Py, so it runs in the GT4Py venv, from the checkout's root:

    $(python3 -m tools.gt4py_venv) -m benchmarks.gt4py_pass_manager [--rounds 3] [--most 7000]
        [--ours-most 30000]
    $(python3 -m tools.gt4py_venv) -m benchmarks.gt4py_pass_manager --corpus icon4py
        [--largest 4] [--spread 0] [--rounds 3]

`--corpus icon4py` takes its inputs from the icon4py corpus instead (benchmarks/data/icon4py:
icon4py 0.4.1's programs, GTIR as GT4Py's backends hand it to the pass manager, with the simple
grid's offset-provider types): its `--largest` programs and `--spread` more spread evenly over
the rest by size (`benchmarks.icon4py_inference.select`), none repeated.

Each round runs GT4Py's then ours on a fresh copy of the input; the figures are the medians
over the rounds (the machine is shared: read the ratios).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from gt4py import eve
from gt4py.next.iterator import ir
from gt4py.next.iterator.transforms import pass_manager

import iterir
from iterir.offset_types import offset_types_from_json
from tests.test_gtir_samples import SAMPLES
from tests.with_gt4py.providers import offset_provider
from typeinf.gt4py import install, offset_types_to_gt4py, to_gt4py, uninstall
from typeinf.gt4py.switch import SITES


@dataclasses.dataclass
class Run:
    total: float = 0.0
    inference: float = 0.0
    calls: int = 0


@contextmanager
def timed(ours: bool, run: Run) -> Iterator[None]:
    """Every site set to the chosen inference, wrapped to add its time and calls to `run`. Ours
    is the switch's drop-ins, installed (strict) for this block alone: a fresh installation,
    which has nothing of an earlier run to reuse (`typeinf.gt4py.Reuse`)."""

    def wrapped(function: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                run.inference += time.process_time() - start
                run.calls += 1

        return call

    if ours:
        install(strict=True)
    chosen = {
        (module, attribute): getattr(importlib.import_module(module), attribute)
        for module, attribute, _ in SITES
    }
    for (module, attribute), function in chosen.items():
        setattr(importlib.import_module(module), attribute, wrapped(function))
    try:
        yield
    finally:
        for (module, attribute), function in chosen.items():
            setattr(importlib.import_module(module), attribute, function)
        if ours:
            uninstall()


def inputs(largest: int, most: int) -> Iterator[tuple[str, dict, int]]:
    """(name, record, copies of its statements) for the largest `pre` samples, then the largest
    repeated while under `most` nodes (estimated from the sample's)."""
    pre = sorted((s for s in SAMPLES if ".pre." in s["id"]), key=lambda s: -s["nodes"])
    for sample in pre[:largest]:
        yield sample["id"], sample, 1
    copies = 4
    while pre[0]["nodes"] * copies <= most:
        yield f"{pre[0]['id']} ×{copies}", pre[0], copies
        copies *= 4


def program(sample: dict, copies: int) -> ir.Program:
    """The sample's program, its statements `copies` times, each copy writing outputs of its
    own (one parameter per output and copy), so that no pass merges the copies."""
    node = to_gt4py(iterir.from_json(sample["ir"]))
    if copies == 1:
        return node
    targets = {str(s.target.id) for s in node.body if isinstance(s.target, ir.SymRef)}
    params, body = list(node.params), list(node.body)
    for copy in range(1, copies):
        renamed = {name: f"{name}_{copy}" for name in targets}
        params += [ir.Sym(id=renamed[p.id], type=p.type) for p in node.params if p.id in targets]
        body += [_retargeted(s, renamed) for s in node.body]
    return ir.Program(
        id=node.id,
        function_definitions=node.function_definitions,
        params=params,
        declarations=node.declarations,
        body=body,
    )


def _retargeted(statement: ir.Stmt, renamed: dict[str, str]) -> ir.Stmt:
    """The statement with its target, and the target's uses in its domain, renamed."""
    if not isinstance(statement, ir.SetAt) or not isinstance(statement.target, ir.SymRef):
        return statement
    old = str(statement.target.id)
    if old not in renamed:
        return statement
    new = renamed[old]
    return ir.SetAt(
        expr=statement.expr,
        domain=_Rename(old, new).visit(statement.domain),
        target=ir.SymRef(id=new),
    )


class _Rename(eve.NodeTranslator):  # type: ignore[misc]
    def __init__(self, old: str, new: str) -> None:
        self.old, self.new = old, new

    def visit_SymRef(self, node: ir.SymRef) -> ir.SymRef:
        return ir.SymRef(id=self.new, type=node.type) if node.id == self.old else node


class Failed(Exception):
    """The pass manager raised: with which inference, and what."""


def measure(node: ir.Program, provider: dict, ours: bool, who: str = "") -> Run:
    """One run of the pass manager on `node`; ours starts afresh (`timed`), with nothing of
    the same input's run in the previous round to reuse. What it raises is a `Failed`."""
    run = Run()
    with timed(ours, run):
        start = time.process_time()
        try:
            pass_manager.apply_common_transforms(node, offset_provider=provider)
        except Exception as error:
            message = str(error).strip().splitlines()[0] if str(error).strip() else ""
            raise Failed(
                f"the pass manager with {who} inference fails: {type(error).__name__}: "
                f"{message[:200]}"
            ) from None
        run.total = time.process_time() - start
    return run


def corpus_inputs(largest: int, count: int) -> Iterator[tuple[str, dict, int]]:
    """(name, record, 1) for the icon4py corpus's `largest` programs and `count` more."""
    from benchmarks.icon4py_inference import load_corpus, select, short

    for record in select(load_corpus(), largest, count):
        name = short(record["id"])
        yield name if len(name) <= 58 else "…" + name[-57:], record, 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--corpus", choices=["samples", "icon4py"], default="samples")
    parser.add_argument("--spread", type=int, default=0, help="with --corpus icon4py: N more")
    parser.add_argument("--largest", type=int, default=4, help="how many of the largest samples")
    parser.add_argument("--most", type=int, default=7_000, help="most nodes of a repeated one")
    parser.add_argument(
        "--ours-most", type=int, default=0, help="most nodes of a repeated one, ours only"
    )
    options = parser.parse_args()
    header = (
        f"{'input':58} {'nodes':>6} │ {'GT4Py total':>11} {'infer':>7} {'share':>6} {'calls':>5}"
        f" │ {'ours total':>10} {'infer':>7} {'share':>6} {'calls':>5} │ {'total ×':>7}"
        f" {'infer ×':>7}"
    )
    print(header)
    print("─" * len(header))
    if options.corpus == "icon4py":
        chosen = corpus_inputs(options.largest, options.spread)
    else:
        chosen = inputs(options.largest, max(options.most, options.ours_most))
    for name, sample, copies in chosen:
        node = program(sample, copies)
        both = sample["nodes"] * copies <= options.most
        nodes = sum(1 for _ in node.pre_walk_values() if isinstance(_, ir.Node))
        types = offset_types_to_gt4py(offset_types_from_json(sample["offset_provider_type"]))
        provider = offset_provider(types)
        theirs, ours = [], []
        try:
            for _ in range(options.rounds):  # interleaved: a noisy moment hits both alike
                if both:
                    theirs.append(measure(node, provider, ours=False, who="GT4Py's"))
                ours.append(measure(node, provider, ours=True, who="ours"))
        except Failed as failure:
            print(f"{name[:58]:58} {nodes:>6} │ {failure}", flush=True)
            continue
        o = _median(ours)
        if not both:
            print(
                f"{name[:58]:58} {nodes:>6} │ {'(ours only)':>34} │ {o.total:>9.3f}s"
                f" {o.inference:>6.3f}s {o.inference / o.total:>6.1%} {o.calls:>5} │",
                flush=True,
            )
            continue
        t = _median(theirs)
        print(
            f"{name[:58]:58} {nodes:>6} │ {t.total:>10.3f}s {t.inference:>6.3f}s"
            f" {t.inference / t.total:>6.1%} {t.calls:>5} │ {o.total:>9.3f}s {o.inference:>6.3f}s"
            f" {o.inference / o.total:>6.1%} {o.calls:>5} │ {t.total / o.total:>7.2f}"
            f" {t.inference / o.inference:>7.2f}",
            flush=True,
        )


def _median(runs: list[Run]) -> Run:
    return Run(
        statistics.median(r.total for r in runs),
        statistics.median(r.inference for r in runs),
        runs[0].calls,
    )


if __name__ == "__main__":
    main()
