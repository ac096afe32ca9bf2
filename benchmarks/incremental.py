"""Re-inference after an edit (`typeinf.Reinference`) against a full `check`, on the fencil
shapes of benchmarks/shapes.py and GTIR programs (benchmarks/gtir_shapes.py, and chained
GTIR definitions).

    python3 -m benchmarks.incremental [--sizes 100000] [--shapes …]

Each (shape, size) runs in a fresh interpreter. Columns (seconds, medians of 3 where cheap):
`full` a full `typeinf.check` (what `Reinference.check` stands for); `all` a full
`typeinf.infer_all` (no explaining run: the stricter baseline); `first` the first
`Reinference.check` (a full inference that fills the cache); `deep` after a one-node edit deep
in the middle definition (a fresh copy of its deepest leaf: same type), the median of 3, each
timed between a full check and an infer_all (interleaved); `×full` full / deep; `×all` all /
deep;
`re` how many definitions that edit re-inferred; `used=` after a one-node edit of the
definition with the most users, keeping its type; `used≠` after giving that definition another
type (`cast_` to float32: every user whose type changes is re-inferred; `*` marks a type error,
checked in full); `1%` after a pass that rewrites 1 % of the nodes (fresh copies of leaves
spread evenly); `chain` the mean of a chain of 100 one-node edits in random definitions;
`kept` the memory the context keeps between re-inferences over the peak of one full `check`
(tracemalloc, measured last).
"""

from __future__ import annotations

import dataclasses
import gc
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable
from functools import partial
from typing import Any

from benchmarks.gtir_shapes import GTIR_SHAPES
from benchmarks.runner import run
from benchmarks.shapes import SHAPES, balanced_stencil


def gtir_chained_definitions(nodes: int) -> Any:
    """A GTIR program of thousands of definitions, each calling the one before (~17 nodes
    each), applied by one `SetAt`: the GTIR counterpart of chained_definitions."""
    from benchmarks.gtir_shapes import IDIM, IK, _domain
    from iterir import FunCall, SymRef
    from iterir.builders import (
        as_fieldop,
        call,
        cartesian_offset,
        deref,
        field,
        fundef,
        offset,
        program,
        scalar,
        set_at,
        sym,
    )

    count = max(nodes // 17, 1)
    definitions = [fundef("f0", "a")(deref("a"))]
    for i in range(1, count):
        shifted = call(FunCall(SymRef("shift"), (cartesian_offset(IDIM), offset(1))))("a")
        definitions.append(
            fundef(f"f{i}", "a")(call("plus")(call(f"f{i - 1}")("a"), deref(shifted)))
        )
    params = [sym(name, type=field(IK, "float64")) for name in ("inp", "out")]
    params += [sym(name, type=scalar("int32")) for name in ("ni", "nk")]
    applied = call(as_fieldop(f"f{count - 1}", _domain()))("inp")
    return program("chain", params, [set_at("out", _domain(), applied)], definitions)


def one_stencil(nodes: int) -> Any:
    """A fencil of one 100k-node stencil definition: the worst case of per-definition reuse."""
    from iterir.builders import cartesian_domain, closure, fencil, fundef, named_range

    stencil = balanced_stencil(nodes)
    definition = fundef("big", *(p.id for p in stencil.params))(stencil.expr)
    domain = cartesian_domain(named_range("IDim", 0, "n"), named_range("JDim", 0, "m"))
    inputs = ["in0", "in1", "in2", "in3"]
    return fencil(
        "one", ["n", "m", *inputs, "out"], [closure("out", "big", inputs, domain)], [definition]
    )


FENCILS: dict[str, Callable[[int], Any]] = {
    "chained_definitions": SHAPES["chained_definitions"],
    "wide_fencil": SHAPES["wide_fencil"],
    "many_closures": SHAPES["many_closures"],
    "one_stencil": one_stencil,
    "gtir_chained_definitions": gtir_chained_definitions,
    "gtir_setats": GTIR_SHAPES["gtir_setats"],
}


def _leaves(part: Any) -> list[Any]:
    """The leaves of `part` that a copy can stand for (literals, offsets, names), deepest last."""
    import iterir
    from iterir import Literal, OffsetLiteral, SymRef

    return [n for n in iterir.walk(part) if isinstance(n, (Literal, OffsetLiteral, SymRef))]


def _replaced(root: Any, targets: set[int]) -> Any:
    """`root` with each node whose id is in `targets` replaced by a fresh copy of itself: the
    paths above them are rebuilt, the rest shared (what a pass that touched them makes)."""
    import dataclasses

    from iterir import NodeTranslator

    class Copy(NodeTranslator):
        def generic_visit(self, node: Any, **kwargs: Any) -> Any:
            if id(node) in targets:
                return dataclasses.replace(node)
            return (yield from super().generic_visit(node, **kwargs))

    return Copy().visit(root)


def _deepest_leaf(part: Any) -> Any:
    """The leaf of `part` farthest from it."""
    from iterir.traversal import depths, preorder

    nodes, sizes = preorder(part)
    levels = depths(sizes)
    leaves = {id(n) for n in _leaves(part)}
    return nodes[max((levels[i], i) for i, n in enumerate(nodes) if id(n) in leaves)[1]]


def _most_used(root: Any) -> Any:
    """The definition with the most (direct) uses in the fencil, the first on a tie."""
    import iterir
    from iterir import SymRef

    uses = {d.id: 0 for d in root.function_definitions}
    for node in iterir.walk(root):
        if isinstance(node, SymRef) and node.id in uses:
            uses[node.id] += 1
    return max(
        root.function_definitions, key=lambda d: (uses[d.id], -root.function_definitions.index(d))
    )


def _parts(root: Any) -> list[Any]:
    """A fencil's definitions and closures; a GTIR program's definitions and statements."""
    from iterir.nodes import Program

    if isinstance(root, Program):
        return [*root.function_definitions, *root.body]
    return [*root.function_definitions, *root.closures]


def _timed(step: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = step()
    return time.perf_counter() - start, result


def measure(shape: str, size: int) -> dict[str, Any]:
    import iterir
    import typeinf
    from iterir import FunCall, SymRef

    root = FENCILS[shape](size)
    nodes = sum(1 for _ in iterir.walk(root))
    context = typeinf.Reinference()
    first, _ = _timed(lambda: context.check(root))
    parts = _parts(root)
    middle = (
        parts[len(root.function_definitions) // 2]
        if root.function_definitions
        else parts[len(parts) // 2]
    )

    def after(edited: Any) -> tuple[float, Any]:
        """Seconds to re-infer `edited` (from the original's cache), and what was re-inferred."""
        context.check(root)
        seconds, checked = _timed(lambda: context.check(edited))
        assert not checked.errors or context.last.full
        return seconds, context.last

    deep_edit = _replaced(root, {id(_deepest_leaf(middle))})
    deeps, fulls, everys = [], [], []
    for _ in range(3):  # interleaved with the full inferences it is compared with
        deeps.append(after(deep_edit))
        fulls.append(_timed(lambda: typeinf.check(root))[0])
        everys.append(_timed(lambda: typeinf.infer_all(root))[0])
    deep, deep_last = sorted(deeps, key=lambda d: d[0])[1]
    full, every = statistics.median(fulls), statistics.median(everys)
    result: dict[str, Any] = {"nodes": nodes, "full": full, "all": every, "first": first}
    result["deep"] = deep
    result["re"] = len(deep_last.inferred) if not deep_last.full else -1
    if root.function_definitions:
        used = _most_used(root)
        result["used_same"], _ = after(_replaced(root, {id(_leaves(used)[-1])}))
        retyped = type(used)(
            used.id, used.params, FunCall(SymRef("cast_"), (used.expr, SymRef("float32")))
        )
        new_type = dataclasses.replace(
            root,
            function_definitions=tuple(
                retyped if d is used else d for d in root.function_definitions
            ),
        )
        try:
            result["used_new"], last = after(new_type)
            result["used_new_full"] = last.full
        except KeyError:  # GTIR's conversion fails on this type in a full check too
            pass
    leaves = [leaf for part in parts for leaf in _leaves(part)]
    step = max(len(leaves) * 100 // max(nodes, 1), 1)  # 1 % of the nodes, spread evenly
    result["pass"], _ = after(_replaced(root, {id(leaf) for leaf in leaves[::step]}))
    context.check(root)
    generator, current, total = random.Random(0), root, 0.0
    for _ in range(100):
        leaf = generator.choice(_leaves(generator.choice(_parts(current))))
        current = _replaced(current, {id(leaf)})  # each edit on the tree the last one made
        seconds, _ = _timed(partial(context.check, current))
        total += seconds
    result["chain"] = total / 100
    result["kept"] = _kept_ratio(root)
    return result


def _kept_ratio(root: Any) -> float:
    """What a context keeps after a check (its cache, no result), over the peak of a full check."""
    import typeinf

    gc.collect()
    tracemalloc.start()
    typeinf.check(root)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    gc.collect()
    tracemalloc.start()
    context = typeinf.Reinference()
    context.check(root)
    gc.collect()
    kept, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del context
    return kept / peak


def _seconds(key: str) -> Callable[[dict[str, Any]], str]:
    return lambda r: f"{r[key]:.3f}" if key in r else "n/a"


def main() -> None:
    run(
        "benchmarks.incremental",
        __doc__.splitlines()[0],
        measure,
        list(FENCILS),
        list(FENCILS),
        [
            ("full", _seconds("full")),
            ("all", _seconds("all")),
            ("first", _seconds("first")),
            ("deep", _seconds("deep")),
            ("×full", lambda r: f"{r['full'] / r['deep']:.0f}"),
            ("×all", lambda r: f"{r['all'] / r['deep']:.0f}"),
            ("re", lambda r: str(r["re"])),
            ("used=", _seconds("used_same")),
            ("used≠", lambda r: _seconds("used_new")(r) + ("*" if r.get("used_new_full") else "")),
            ("1%", _seconds("pass")),
            ("chain", _seconds("chain")),
            ("kept", lambda r: f"{r['kept']:.2f}×"),
        ],
        timed="deep",
        default_sizes=(100_000,),
    )


if __name__ == "__main__":
    main()
