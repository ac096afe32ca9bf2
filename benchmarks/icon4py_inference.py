"""Real programs: typeinf's drop-in against GT4Py 1.2.3's own type inference on the icon4py
corpus (benchmarks/data/icon4py: icon4py 0.4.1's programs and field operators as GTIR).

    $(python3 -m tools.gt4py_venv | cut -d' ' -f1) -m benchmarks.icon4py_inference
        [--largest 20] [--spread 40] [--all] [--ids ID …] [--rounds 3]
    … -m benchmarks.icon4py_inference --profile ID [--rounds 3]

(Run from another Python, it moves into that environment itself, made first if missing, with
this checkout first on PYTHONPATH.)

Per program: its JSON is built as GT4Py's nodes (`iterir.from_json`, `typeinf.gt4py.to_gt4py`)
and its offset-provider types as GT4Py's, not timed; then, interleaved in this one process,
each of `--rounds` rounds times `typeinf.gt4py.infer(node, offset_provider_type=…)` and GT4Py's
`gt4py.next.iterator.type_system.inference.infer(node, offset_provider_type=…)` once each,
alternating which goes first, a garbage collection before each call. Times are CPU time of
this process (`time.process_time`); the table gives the **minimum** over the rounds (the
machine is shared: the least-disturbed run), GT4Py/ours, and our µs per node. `types` compares
the two typed copies node for node in a parallel walk: `equal` where every node's `type` is
GT4Py's, `compatible` where some differ only where GT4Py's is not ground (tests/with_gt4py/
test_dropin.py's rule), `DIFFERENT` otherwise. The summary gives the median and lowest ratio,
the median µs per node, how many programs are typed equal, and, where our solver counts them,
how often each relation fired.

`--profile ID` runs cProfile over our inference of one program (`--rounds` calls) and prints
the 30 functions of highest cumulative time.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import lzma
import pstats
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools import gt4py_venv
from tools.icon4py_corpus import spread
from typeinf.gtir.collect import GT4PY_READING, GtirInference

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "benchmarks" / "data" / "icon4py" / "programs.jsonl.xz"
PREFIX = "icon4py.model."


def load_corpus(path: Path = CORPUS) -> list[dict[str, Any]]:
    """The corpus records, in the file's (id) order."""
    with lzma.open(path, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def select(
    records: list[dict[str, Any]], largest: int, count: int, ids: list[str] | None = None
) -> list[dict[str, Any]]:
    """The records named by `ids` (a full id, or one without `icon4py.model.`, or its last
    part), else the `largest` with the most nodes and `count` spread evenly over the rest;
    most nodes first. An id that names no record, or several, is a ValueError."""
    if ids:
        chosen = []
        for wanted in ids:
            hits = [r for r in records if wanted in (r["id"], short(r["id"]), last(r["id"]))]
            if len(hits) != 1:
                found = "no record" if not hits else f"{len(hits)} records"
                raise ValueError(f"{wanted!r} names {found} of the corpus")
            chosen += hits
    else:
        chosen = spread(records, largest, count)
    return sorted(chosen, key=lambda r: (-r["nodes"], r["id"]))


def short(name: str) -> str:
    return name.removeprefix(PREFIX)


def last(name: str) -> str:
    return name.rsplit(".", 1)[1]


def relation_fires(inference: GtirInference) -> tuple[int, int]:
    """The relations one of our inferences made and how many times it fired one (its
    solver's `related` and `fires`)."""
    return inference.solver.related, inference.solver.fires


# --- in the GT4Py environment ----------------------------------------------------------------


@dataclass
class Row:
    name: str
    nodes: int
    theirs: float
    ours: float
    types: str


def built(record: dict[str, Any]) -> tuple[Any, Any]:
    """GT4Py's node and offset-provider types for a record."""
    import iterir
    from iterir.offset_types import offset_types_from_json
    from typeinf.gt4py import offset_types_to_gt4py, to_gt4py

    node = to_gt4py(iterir.from_json(record["ir"]))
    offsets = offset_types_to_gt4py(offset_types_from_json(record["offset_provider_type"]))
    return node, offsets


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    gc.collect()  # neither pays for the garbage the other left
    start = time.process_time()
    result = call()
    return time.process_time() - start, result


def walk(node: Any) -> Iterator[Any]:
    """Every node occurrence of a GT4Py tree, in pre-order (as its fields hold them)."""
    from gt4py.next.iterator import ir

    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        children: list[Any] = []
        for _, value in current.iter_children_items():
            if isinstance(value, ir.Node):
                children.append(value)
            elif isinstance(value, list):
                children.extend(v for v in value if isinstance(v, ir.Node))
        stack.extend(reversed(children))


def compared(theirs: Any, ours: Any) -> str:
    """ "equal", "compatible" or "DIFFERENT" (see the module's docstring)."""
    from tests.with_gt4py.test_dropin import compatible

    verdict = "equal"
    theirs_nodes, our_nodes = list(walk(theirs)), list(walk(ours))
    if len(theirs_nodes) != len(our_nodes):
        return "DIFFERENT"
    for gt4pys, mine in zip(theirs_nodes, our_nodes, strict=True):
        if type(gt4pys) is not type(mine):
            return "DIFFERENT"
        if mine.type != gt4pys.type:
            if not compatible(gt4pys.type, mine.type):
                return "DIFFERENT"
            verdict = "compatible"
    return verdict


def side_by_side(record: dict[str, Any], rounds: int) -> Row | str:
    """The minimum times over `rounds` of GT4Py's inference and of ours, and how the types
    compare; or why one of them failed."""
    from gt4py.next.iterator.type_system import inference

    import typeinf.gt4py

    node, offsets = built(record)
    times: dict[str, list[float]] = {"gt4py": [], "ours": []}
    typed: dict[str, Any] = {}
    calls = {
        "gt4py": lambda: inference.infer(node, offset_provider_type=offsets),
        "ours": lambda: typeinf.gt4py.infer(node, offset_provider_type=offsets),
    }
    for turn in range(rounds):
        for who in ("gt4py", "ours") if turn % 2 == 0 else ("ours", "gt4py"):
            try:
                seconds, typed[who] = timed(calls[who])
            except Exception as error:
                side = "GT4Py's" if who == "gt4py" else "our"
                return f"{side} inference fails: {type(error).__name__}: {str(error)[:120]}"
            times[who].append(seconds)
    verdict = compared(typed["gt4py"], typed["ours"])
    return Row(record["id"], record["nodes"], min(times["gt4py"]), min(times["ours"]), verdict)


def fires_of(record: dict[str, Any]) -> tuple[int, int] | None:
    """The relations made and fired on one program (an untimed inference of its own, as the
    drop-in makes it), or None where it is a type error."""
    import iterir
    from iterir.offset_types import offset_types_from_json

    node = iterir.from_json(record["ir"])
    offsets = offset_types_from_json(record["offset_provider_type"])
    try:
        inference = GtirInference(node, offsets, reading=GT4PY_READING)
    except Exception:
        return None
    return relation_fires(inference)


def compare(records: list[dict[str, Any]], rounds: int) -> int:
    from benchmarks.runner import calibration

    print(f"calibration: a 10-million-step Python loop takes {calibration():.2f} s now")
    import gt4py

    print(
        f"Python {sys.version.split()[0]}, GT4Py {gt4py.__version__}; CPU times, the minimum "
        f"of {rounds} interleaved rounds; {len(records)} programs of {CORPUS.name}"
    )
    width = max(len(short(r["id"])) for r in records)
    header = (
        f"{'program':<{width}} {'nodes':>6} {'GT4Py ms':>9} {'ours ms':>8} {'GT4Py/ours':>10}"
        f" {'ours µs/node':>12}  types"
    )
    print(header)
    print("-" * len(header))
    side_by_side(records[-1], 1)  # untimed: no first call pays for imports
    rows: list[Row] = []
    related = fired = 0
    for record in records:
        result = side_by_side(record, rounds)
        if isinstance(result, str):
            print(f"{short(record['id']):<{width}} {record['nodes']:>6}  {result}", flush=True)
            continue
        rows.append(result)
        print(
            f"{short(result.name):<{width}} {result.nodes:>6} {result.theirs * 1e3:>9.1f}"
            f" {result.ours * 1e3:>8.2f} {result.theirs / result.ours:>9.1f}×"
            f" {result.ours * 1e6 / result.nodes:>12.1f}  {result.types}",
            flush=True,
        )
        found = fires_of(record)
        if found is not None:
            related, fired = related + found[0], fired + found[1]
    print("-" * len(header))
    if not rows:
        print("no program was typed by both")
        return 1
    ratios = sorted((r.theirs / r.ours, r.name) for r in rows)
    per_node = statistics.median(r.ours * 1e6 / r.nodes for r in rows)
    equal = sum(r.types == "equal" for r in rows)
    compatible = sum(r.types == "compatible" for r in rows)
    print(
        f"{len(rows)} programs ({sum(r.nodes for r in rows):,} nodes): GT4Py/ours median "
        f"{statistics.median(x for x, _ in ratios):.1f}×, lowest {ratios[0][0]:.1f}× "
        f"({short(ratios[0][1])}); ours median {per_node:.1f} µs/node; GT4Py total "
        f"{sum(r.theirs for r in rows):.2f} s, ours {sum(r.ours for r in rows):.2f} s"
    )
    print(
        f"types: {equal} of {len(rows)} equal to GT4Py's on every node, {compatible} "
        f"compatible, {len(rows) - equal - compatible} different"
    )
    print(
        f"relations: {related:,} made, {fired:,} fires, "
        f"{fired / max(related, 1):.2f} fires per relation (one inference per program)"
    )
    print(f"calibration: a 10-million-step Python loop takes {calibration():.2f} s now")
    return 0


def profile(record: dict[str, Any], rounds: int) -> int:
    import typeinf.gt4py

    node, offsets = built(record)
    typeinf.gt4py.infer(node, offset_provider_type=offsets)  # untimed: imports
    profiler = cProfile.Profile(time.process_time)
    gc.collect()
    profiler.enable()
    for _ in range(rounds):
        typeinf.gt4py.infer(node, offset_provider_type=offsets)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("cumulative").print_stats(30)
    print(f"{record['id']} ({record['nodes']} nodes), our inference {rounds}× under cProfile")
    print(out.getvalue())
    return 0


def in_gt4py_venv(arguments: list[str]) -> int:
    """Run this module with `arguments` in the GT4Py environment (made if missing)."""
    return gt4py_venv.run_module("benchmarks.icon4py_inference", arguments)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--largest", type=int, default=20, help="the N largest programs")
    parser.add_argument("--spread", type=int, default=40, help="and N more spread over the rest")
    parser.add_argument("--all", action="store_true", help="every program of the corpus")
    parser.add_argument("--ids", nargs="+", help="these programs (id, or its last part)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", metavar="ID", help="profile our inference of one program")
    options = parser.parse_args(argv)
    if options.rounds < 1 or options.largest < 0 or options.spread < 0:
        parser.error("--rounds must be at least 1, --largest and --spread at least 0")
    try:
        import gt4py.next  # noqa: F401  # only to know where this runs
    except ImportError:
        return in_gt4py_venv(argv)
    try:
        records = load_corpus()
    except (OSError, EOFError, lzma.LZMAError, json.JSONDecodeError) as error:
        print(f"benchmarks.icon4py_inference: cannot read {CORPUS}: {error}", file=sys.stderr)
        return 2
    try:
        if options.profile:
            (record,) = select(records, 0, 0, [options.profile])
            return profile(record, options.rounds)
        if options.all:
            chosen = select(records, len(records), 0)
        else:
            chosen = select(records, options.largest, options.spread, options.ids)
    except ValueError as error:
        print(f"benchmarks.icon4py_inference: {error}", file=sys.stderr)
        return 2
    if not chosen:
        print("benchmarks.icon4py_inference: no program chosen", file=sys.stderr)
        return 2
    return compare(chosen, options.rounds)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
