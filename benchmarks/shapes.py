"""Generators of large IR programs, shared by the benchmarks and the deep-program tests.

Each takes a size (roughly the number of nodes) and returns a node built without recursion.
"""

from __future__ import annotations

from collections.abc import Callable

from iterir import FencilDefinition, FunCall, Lambda, Node, Sym, SymRef
from iterir.builders import (
    call,
    cartesian_domain,
    closure,
    deref,
    fencil,
    fundef,
    lam,
    named_range,
    shift,
)


def deep_lambdas(levels: int) -> Node:
    """`λ(x0) → λ(x1) → … → x0`: 2 nodes a level."""
    node: Node = SymRef("x0")
    for i in reversed(range(levels)):
        node = Lambda((Sym(f"x{i}"),), node)
    return node


def deep_calls(levels: int) -> Node:
    """`λ(f, x) → f(f(…f(x)…))`: 2 nodes a level (closed: a free name is an error)."""
    node: Node = SymRef("x")
    for _ in range(levels):
        node = FunCall(SymRef("f"), (node,))
    return Lambda((Sym("f"), Sym("x")), node)


def plus_chain(levels: int) -> Node:
    """`λ(x0, …, x96) → x0 + x1 + … + xn`, left-nested as the parser builds it: 3 nodes a
    level (closed: a free name is an error)."""
    node: Node = SymRef("x0")
    for i in range(1, levels + 1):
        node = FunCall(SymRef("plus"), (node, SymRef(f"x{i % 97}")))
    return Lambda(tuple(Sym(f"x{i}") for i in range(97)), node)


def balanced_stencil(nodes: int) -> Node:
    """One large lambda whose body is a balanced tree of arithmetic on shifted derefs."""
    leaves = [
        deref(call(shift("I", i % 5 - 2, "J", i % 3 - 1))(f"in{i % 4}"))
        for i in range(max(nodes // 11, 2))
    ]
    ops = ("plus", "minus", "multiplies")
    level = 0
    while len(leaves) > 1:
        pairs = [
            call(ops[(level + i) % 3])(leaves[i], leaves[i + 1])
            for i in range(0, len(leaves) - 1, 2)
        ]
        leaves = pairs + (leaves[-1:] if len(leaves) % 2 else [])
        level += 1
    return lam("in0", "in1", "in2", "in3")(leaves[0])


def wide_fencil(nodes: int) -> FencilDefinition:
    """A fencil of many small Laplacian-like stencils over shared parameters (~70 nodes each)."""
    count = max(nodes // 70, 1)
    domain = cartesian_domain(named_range("IDim", 0, "ni"), named_range("JDim", 0, "nj"))
    defs, closures = [], []
    for i in range(count):
        it = "it"
        body = call("plus")(
            call("multiplies")(-4.0, deref(it)),
            call("plus")(
                call("plus")(deref(call(shift("I", 1))(it)), deref(call(shift("I", -1))(it))),
                call("plus")(deref(call(shift("J", 1))(it)), deref(call(shift("J", -1))(it))),
            ),
        )
        defs.append(fundef(f"lap{i}", it)(body))
        closures.append(closure(f"out{i % 16}", f"lap{i}", [f"in{i % 16}"], domain))
    params = ["ni", "nj", *(f"in{j}" for j in range(16)), *(f"out{j}" for j in range(16))]
    return fencil("wide", params, closures, defs)


def chained_definitions(nodes: int) -> FencilDefinition:
    """A fencil of thousands of definitions, each calling the one before (~17 nodes each)."""
    count = max(nodes // 17, 1)
    defs = [fundef("f0", "x")(deref("x"))]
    for i in range(1, count):
        defs.append(
            fundef(f"f{i}", "x")(
                call("plus")(call(f"f{i - 1}")("x"), deref(call(shift("I", 1))("x")))
            )
        )
    domain = cartesian_domain(named_range("IDim", 0, "n"))
    return fencil(
        "chain", ["n", "inp", "out"], [closure("out", f"f{count - 1}", ["inp"], domain)], defs
    )


def many_closures(nodes: int) -> FencilDefinition:
    """Many closures with inline stencils over 32 shared parameters (~30 nodes each)."""
    count = max(nodes // 30, 1)
    domain = cartesian_domain(named_range("IDim", 0, "n"), named_range("JDim", 0, "m"))
    closures = [
        closure(
            f"out{i % 16}",
            lam("a", "b")(call("plus")(deref("a"), deref(call(shift("I", 1))("b")))),
            [f"in{i % 16}", f"in{(i * 7) % 16}"],
            domain,
        )
        for i in range(count)
    ]
    params = ["n", "m", *(f"in{j}" for j in range(16)), *(f"out{j}" for j in range(16))]
    return fencil("closures", params, closures)


def deep_lift_shift_tuple(nodes: int) -> Node:
    """An iterator through nested lifts of stencils that shift, build and take tuples apart."""
    node: Node = SymRef("it")
    for _ in range(max(nodes // 19, 1)):
        stencil = lam("a")(
            call("tuple_get")(0, call("make_tuple")(deref("a"), deref(call(shift("I", 1))("a"))))
        )
        node = call(call("lift")(stencil))(node)
    return lam("it")(deref(node))


SHAPES: dict[str, Callable[[int], Node]] = {
    "deep_lambdas": lambda n: deep_lambdas(n // 2),
    "deep_calls": lambda n: deep_calls(n // 2),
    "plus_chain": lambda n: plus_chain(n // 3),
    "balanced_stencil": balanced_stencil,
    "wide_fencil": wide_fencil,
    "chained_definitions": chained_definitions,
    "many_closures": many_closures,
    "deep_lift_shift_tuple": deep_lift_shift_tuple,
}
