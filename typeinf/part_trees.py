"""The numbering and name resolution of one part of a fencil (a function definition or a
closure) on its own, made once per part node and kept by `typeinf.incremental`: a part's
subtree is immutable, so both stay valid while the node does, and re-inference after an edit
numbers and resolves only the parts the edit made (docs/architecture.md, "Incremental
re-inference")."""

from __future__ import annotations

from dataclasses import dataclass

from iterir import FencilDefinition, FunctionDefinition, Node, StencilClosure, Sym, SymRef
from iterir.nodes import MisplacedNodeError
from iterir.symbols import Binding, BindingKind, resolve
from iterir.traversal import preorder
from typeinf.signatures import BUILTINS


@dataclass(frozen=True)
class PartTree:
    """One part in pre-order (`nodes`, `sizes`: positions relative to the part), what each name
    bound inside it refers to (`inner`), and the positions of the names it takes from outside
    itself (`outside`: name → positions), which the fencil around it binds."""

    node: Node
    nodes: list[Node]
    sizes: list[int]
    inner: dict[int, Binding]
    outside: dict[str, list[int]]


def part_tree(part: Node) -> PartTree | None:
    """`part` numbered and resolved on its own; None if it is no tree of the fencil IR's
    (misplaced nodes, a name declared twice in one list: what a full check reports)."""
    try:
        nodes, sizes = preorder(part, checked=True)
    except MisplacedNodeError:
        return None
    symbols = resolve(part, BUILTINS.keys(), tree=(nodes, sizes))
    if symbols.duplicates:
        return None
    inner: dict[int, Binding] = {}
    outside: dict[str, list[int]] = {}
    bound = BindingKind.PARAMETER
    for position, binding in symbols.bindings.items():
        if binding.kind is bound:
            inner[position] = binding
        else:
            name = nodes[position]
            assert isinstance(name, SymRef)  # `bindings` holds the SymRefs
            outside.setdefault(name.id, []).append(position)
    return PartTree(part, nodes, sizes, inner, outside)


def fencil_fits(fencil: FencilDefinition) -> bool:
    """Whether the fencil's own fields hold what they may (its parts are checked as they are
    numbered): what numbering the whole fencil checks first."""
    fields = (
        (fencil.function_definitions, FunctionDefinition),
        (fencil.params, Sym),
        (fencil.closures, StencilClosure),
    )
    return all(
        type(parts) is tuple and all(type(part) is cls for part in parts) for parts, cls in fields
    )
