"""What handing out types as values costs: converting the solved cells into `typeinf.types`
values, beside the inference that solved them, on the benchmark shapes.

    python3 -m benchmarks.conversion [--sizes 10000 100000] [--shapes …]
    python3 -m benchmarks.conversion --base REV [--rounds 3] [--sizes …] [--shapes …]

Each (shape, size) runs in a fresh interpreter: it infers the program (cells, as `infer` does
before converting), then measures in CPU time, each as a share of the inference:
- `type`: what `infer` adds to hand out the program's type (a fencil's is made when first
  read: nothing then);
- `made`: `type` and reading one field of the value (the fencil's type made);
- `list`: listing every node's type in cells (what `infer_all` and `check` add before any
  conversion: it builds the types of builtins called directly, which inference never needs);
- `all`: making the mapping of every node's type (`NodeTypes`, which converts a value when first
  read);
- `read`: reading every value of it once;
- `fields`: then reading one field of each (a value made on demand is made then): `read` and
  `fields` together are what a caller that uses every node's type pays;
- `attach`: `infer_all(attach=True)` on the same inference, less `list`.

And three floors, what no conversion that hands out one Python object per value can go below
(`--base` shows `nan` for a REV that does not measure them):
- `loop`: a Python loop over every node's type in cells with one dict look-up each;
- `cells`: reading the cells a conversion must read: each node's root cell and its arguments'
  roots (`find`), nothing made;
- `objects`: making exactly the values `read` made (every value reachable from the nodes',
  once), of the same classes in the same numbers, the fastest way `typeinf.types` makes them
  (`fast_maker`), without any walk.

With `--base REV`, the git revision REV (exported with `git archive` into a temporary folder)
and this checkout's working tree are measured alike, interleaved: each round runs one fresh
interpreter per version, alternating which goes first, so that the shared machine's load falls
on both; the figures are medians over the rounds.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.inference_throughput import DEFAULT_SHAPES
from benchmarks.runner import calibration, run
from benchmarks.shapes import SHAPES

HERE = Path(__file__).resolve().parent.parent
#: The process's CPU time: on the shared machine, wall time also counts the moments other
#: processes ran instead (a conversion measured 156 ms of CPU took 233–252 ms of wall time).
clock = time.process_time
#: What `--base` compares, each as a share of the inference.
FIGURES = ("type", "made", "list", "read", "fields", "attach", "loop", "cells", "objects")


def measure(shape: str, size: int) -> dict[str, float]:
    import iterir
    import typeinf
    from iterir.gcpause import gc_paused
    from typeinf.fencil import convert
    from typeinf.within import subject

    # The fencil IR's read-off: `typeinf.fencil.infer`, in `typeinf.infer` before (for `--base`).
    moved = importlib.util.find_spec("typeinf.fencil.infer") is not None
    read_off = importlib.import_module("typeinf.fencil.infer" if moved else "typeinf.infer")
    node_types = read_off.node_types if moved else read_off._node_types

    node = SHAPES[shape](size)
    nodes = sum(1 for _ in iterir.walk(node))
    with gc_paused():  # as `infer` and `infer_all` run
        start = clock()
        solved = read_off._solved(subject(node, False, None), None)
        program = read_off.program_type(solved, 0, solved.types)
        inferred = clock()
        assert program is not None  # the root of a program without errors has a type
        # What `infer` hands out (`to_value` in versions before `result_value`, for `--base`).
        value = getattr(convert, "result_value", convert.to_value)(program)
        converted = clock()
        _first_field(value)
        made = clock()
        every = node_types(solved, complete=True)
        listed = clock()
        mapping = read_off.NodeTypes(every)
        mapped = clock()
        values = [mapping[key] for key in mapping]
        read = clock()
        for each in values:
            _first_field(each)
        fields = clock()
        floors = _floors(every, _made(values))
    # `infer_all(attach=True)` on the inference solved above, less the listing of its types.
    read_off._solved = lambda *_: solved
    attaching = clock()
    typeinf.infer_all(node, attach=True)
    attached = clock()
    return {
        "nodes": nodes,
        "infer": inferred - start,
        "type": converted - inferred,
        "made": made - inferred,
        "list": listed - made,
        "all": mapped - listed,
        "read": read - mapped,
        "fields": fields - read,
        "attach": attached - attaching - (listed - made),
        **floors,
    }


def _floors(types: dict[int, Any], made: Counter[type]) -> dict[str, float]:
    """The `loop`, `cells` and `objects` floors, in seconds (`made`: how many values of each
    class `read` made)."""
    from typeinf.core.terms import Cell, find
    from typeinf.types import fast_maker

    memo: dict[Any, Any] = {}
    get = memo.get
    start = clock()
    for type_ in types.values():
        get(type_)
    looped = clock()
    for type_ in types.values():
        if type(type_) is Cell:
            for arg in find(type_).args:
                find(arg)
    walked = clock()
    kept = []
    for cls, count in made.items():
        make = fast_maker(cls)
        fields = range(len(cls._names))  # any field values: only the making is measured
        kept += [make(*fields) for _ in range(count)]
    end = clock()
    del kept
    return {"loop": looped - start, "cells": walked - looped, "objects": end - walked}


def _made(values: list[Any]) -> Counter[type]:
    """How many values of each class are reachable from `values`, each counted once."""
    from typeinf.types import Type

    seen: dict[int, Type] = {}
    stack = list(values)
    while stack:
        value = stack.pop()
        if isinstance(value, Type) and id(value) not in seen:
            seen[id(value)] = value
            stack.extend(value.parts())
    return Counter(map(type, seen.values()))


def _first_field(value: Any) -> None:
    """Read the first field of `value` (which makes a value made on demand)."""
    getattr(value, value._names[0])


def compare(base: str, sizes: list[int], shapes: list[str], rounds: int) -> None:
    """Print, per shape and size, the medians of `FIGURES` as shares of inference for REV and
    for this working tree, measured interleaved (`nan`: a figure REV does not measure)."""
    print(f"calibration: a 10-million-step Python loop takes {calibration():.2f} s now")
    with tempfile.TemporaryDirectory() as scratch:
        archive = subprocess.run(
            ["git", "archive", base], cwd=HERE, capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", scratch], input=archive.stdout, check=True)
        versions = [("base", Path(scratch)), ("head", HERE)]
        print(f"{'shape':<22} {'nodes':>7}", *(f"{f + ' %':>16}" for f in FIGURES))
        for shape in shapes:
            for size in sizes:
                runs: dict[str, list[dict[str, Any]]] = {"base": [], "head": []}
                for i in range(rounds):
                    for name, root in versions if i % 2 == 0 else versions[::-1]:
                        runs[name].append(in_version(root, shape, size))
                share = {
                    (name, figure): statistics.median(
                        100 * r.get(figure, math.nan) / r["infer"] for r in done
                    )
                    for name, done in runs.items()
                    for figure in FIGURES
                }
                cells = (f"{share['base', f]:>7.1f} → {share['head', f]:<6.1f}" for f in FIGURES)
                print(f"{shape:<22} {runs['head'][0]['nodes']:>7}", *cells, flush=True)
    print(f"calibration: a 10-million-step Python loop takes {calibration():.2f} s now")


def in_version(root: Path, shape: str, size: int) -> dict[str, Any]:
    """This file's `measure` in a fresh interpreter that imports the code under `root`."""
    child = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", shape, str(size)],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(child.stdout)  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--base")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--shapes", nargs="+", default=DEFAULT_SHAPES, choices=list(SHAPES))
    known, _ = parser.parse_known_args()
    if known.base is not None:
        compare(known.base, known.sizes, known.shapes, known.rounds)
        return
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
            ("made %", lambda r: f"{100 * r['made'] / r['infer']:.1f}"),
            ("list %", lambda r: f"{100 * r['list'] / r['infer']:.1f}"),
            ("all ms", lambda r: f"{r['all'] * 1000:.1f}"),
            ("all %", lambda r: f"{100 * r['all'] / r['infer']:.1f}"),
            ("read s", lambda r: f"{r['read']:.2f}"),
            ("read %", lambda r: f"{100 * r['read'] / r['infer']:.1f}"),
            ("fields %", lambda r: f"{100 * r['fields'] / r['infer']:.1f}"),
            ("attach %", lambda r: f"{100 * r['attach'] / r['infer']:.1f}"),
            ("loop %", lambda r: f"{100 * r['loop'] / r['infer']:.1f}"),
            ("cells %", lambda r: f"{100 * r['cells'] / r['infer']:.1f}"),
            ("objects %", lambda r: f"{100 * r['objects'] / r['infer']:.1f}"),
        ],
        timed="infer",
    )


if __name__ == "__main__":
    main()
