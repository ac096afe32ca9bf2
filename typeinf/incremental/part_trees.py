"""The numbering and name resolution of one part of a fencil (a function definition or a
closure) on its own, made once per part node and kept by `typeinf.incremental.reinference`: a part's
subtree is immutable, so both stay valid while the node does, and re-inference after an edit
numbers and resolves only the parts the edit made (docs/architecture.md, "Incremental
re-inference")."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from iterir import Node, SymRef
from iterir.nodes import PLACEMENT, MisplacedNodeError
from iterir.symbols import Binding, BindingKind, resolve
from iterir.traversal import preorder
from typeinf.fencil.signatures import BUILTINS


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


def part_tree(part: Node, builtins: Collection[str] = BUILTINS.keys()) -> PartTree | None:
    """`part` numbered and resolved on its own (`builtins`: the dialect's); None if it is no
    tree (misplaced nodes, a name declared twice in one list: what a full check reports)."""
    try:
        nodes, sizes = preorder(part, checked=True)
    except MisplacedNodeError:
        return None
    symbols = resolve(part, builtins, tree=(nodes, sizes))
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


def fits(program: Node) -> bool:
    """Whether a program's own fields hold what they may (its parts are checked as they are
    numbered): what numbering the whole program checks first."""
    for name, many, allowed in PLACEMENT[type(program)]:
        value = getattr(program, name)
        values = value if many and type(value) is tuple else (value,)
        if (many and type(value) is not tuple) or any(type(v) not in allowed for v in values):
            return False
    return True
