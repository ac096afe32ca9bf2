"""Generators of large GTIR programs, for the benchmarks and the deep-GTIR tests.

Each takes a size (roughly the number of nodes) and returns a node built without recursion, in
the forms GT4Py's lowering produces: `SetAt`s of `as_fieldop`s over a program's fields, nested
`concat_where`/`if_`, and `neighbors`/`reduce` stencils on an unstructured mesh. The programs
type (every parameter is typed, as GTIR requires); the unstructured one with `OFFSET_TYPES`.
"""

from __future__ import annotations

from collections.abc import Callable

from iterir import FunCall, Lambda, Node, Sym, SymRef
from iterir.builders import (
    as_fieldop,
    axis,
    call,
    cartesian_domain,
    cartesian_offset,
    deref,
    dim,
    field,
    if_,
    lam,
    named_range,
    offset,
    program,
    scalar,
    set_at,
    sym,
    unstructured_domain,
)
from iterir.nodes import Program
from iterir.offset_types import NeighborConnectivityType

IDIM, KDIM = axis("IDim", "horizontal"), axis("KDim", "vertical")
IK = [dim("IDim"), dim("KDim", "vertical")]
INT32 = scalar("int32")
#: The offset-provider types the programs need: `V2E`, from each vertex to four edges.
OFFSET_TYPES = {
    "V2E": NeighborConnectivityType(
        (dim("Vertex"), dim("V2E", "local")), dim("Edge"), None, "int32", 4
    )
}


def _domain() -> FunCall:
    return cartesian_domain(
        named_range("IDim", 0, "ni", "horizontal"), named_range("KDim", 0, "nk", "vertical")
    )


def _stencil() -> Lambda:
    """`λ(a, b) → ·a + ·⟪IDimₕ→IDimₕ, 1ₒ⟫(b) × 2.0`: 15 nodes."""
    shifted = call(FunCall(SymRef("shift"), (cartesian_offset(IDIM), offset(1))))("b")
    return lam("a", "b")(call("plus")(deref("a"), call("multiplies")(deref(shifted), 2.0)))


def setat_program(nodes: int) -> Program:
    """Many `out_i @ c⟨…⟩ ← as_fieldop(stencil, c⟨…⟩)(f_j, f_k);` over 16 shared fields: ~47
    nodes a statement."""
    fields = [sym(f"f{i}", type=field(IK, "float64")) for i in range(16)]
    params = [*fields, sym("ni", type=INT32), sym("nk", type=INT32)]
    body = []
    for i in range(max(nodes // 47, 1)):
        fun = as_fieldop(_stencil(), _domain())
        body.append(
            set_at(f"f{i % 16}", _domain(), call(fun)(f"f{(i + 1) % 16}", f"f{i * 7 % 16}"))
        )
    return program("setats", params, body)


def deep_concat_where(nodes: int) -> Program:
    """`concat_where(KDimᵥ < 1, a, if_(…, concat_where(KDimᵥ < 2, …)))`, nested ~nodes/7 deep,
    written by one `SetAt`."""
    node: Node = SymRef("a")
    for i in range(max(nodes // 7, 1)):
        if i % 2:
            node = if_(call("less")(SymRef("n"), i), node, SymRef("b"))
        else:
            condition = call("less" if i % 4 else "greater_equal")(KDIM, i)
            node = call("concat_where")(condition, SymRef("b"), node)
    fields = [sym(name, type=field(IK, "float64")) for name in ("a", "b", "out")]
    sizes = [sym(name, type=INT32) for name in ("n", "ni", "nk")]
    params = [*fields, *sizes]
    return program("nested", params, [set_at("out", _domain(), node)])


def unstructured_program(nodes: int) -> Program:
    """`out_i @ u⟨ Vertexₕ: [0, nv[ ⟩ ← as_fieldop(λ(it) → reduce(plus, 0.0)(neighbors(V2Eₒ,
    it)), u⟨…⟩)(e_j);` over 8 edge fields: ~25 nodes a statement."""
    edges = [sym(f"e{i}", type=field(["Edge"], "float64")) for i in range(8)]
    vertices = [sym(f"v{i}", type=field(["Vertex"], "float64")) for i in range(8)]
    body = []
    for i in range(max(nodes // 25, 1)):
        domain = unstructured_domain(named_range("Vertex", 0, "nv", "horizontal"))
        neighbors = call("neighbors")(offset("V2E"), "it")
        stencil = lam("it")(call(call("reduce")("plus", 0.0))(neighbors))
        body.append(set_at(f"v{i % 8}", domain, call(as_fieldop(stencil, domain))(f"e{i % 8}")))
    return program("unstructured", [*edges, *vertices, sym("nv", type=INT32)], body)


def deep_gtir(levels: int) -> Node:
    """`levels` nested levels, taking turns: `as_fieldop(λ(x) → ·x)(…)`, `λ(yᵢ) → …`, `g(…)`."""
    node: Node = SymRef("a")
    for i in range(levels):
        turn = i % 3
        if turn == 0:
            node = call(as_fieldop(lam("x")(deref("x"))))(node)
        elif turn == 1:
            node = Lambda((Sym(f"y{i}"),), node)
        else:
            node = FunCall(SymRef("g"), (node,))
    return node


def many_statements(count: int) -> Program:
    """A program of `count` statements `out @ c⟨…⟩ ← fᵢ;`."""
    params = [sym(f"f{i}", type=field(IK, "float64")) for i in range(10)]
    body = [set_at("out", _domain(), f"f{i % 10}") for i in range(count)]
    return program("statements", [*params, "out", "ni", "nk"], body)


GTIR_SHAPES: dict[str, Callable[[int], Node]] = {
    "gtir_setats": setat_program,
    "gtir_concat_where": deep_concat_where,
    "gtir_unstructured": unstructured_program,
}
