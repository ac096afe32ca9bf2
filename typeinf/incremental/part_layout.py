"""One inference run over only the parts of a program that re-inference types again, laid out
one after another as they are typed; whatever they use from outside (a definition taken from
the cache, a parameter) is one slot, a one-node position whose scheme or cell stands for it
(docs/architecture.md, "Incremental re-inference")."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol, cast

from iterir import Node
from iterir.symbols import Binding, BindingKind, SymbolTable
from typeinf.core.offsets import OffsetProvider
from typeinf.core.sizes import check_node_types
from typeinf.core.solve import check_finite
from typeinf.core.terms import Cell, Type
from typeinf.fencil.collect import Inference
from typeinf.fencil.infer import by_node, program_type
from typeinf.fencil.notation import pformat_all
from typeinf.incremental.part_trees import PartTree


class Unsupported(Exception):
    """What the incremental run leaves to a full check: an error to report in full (a free
    name, recursion, a malformed part, a type too large to print)."""


#: What a name a part takes from outside names (raises `Unsupported` for a name that names
#: nothing typeable).
Resolver = Callable[[str], Binding]

BUILTIN = Binding(BindingKind.BUILTIN)


class Placing(Protocol):
    """What laying parts out needs of an inference of either dialect: its nodes, sizes, cells
    and bindings, which `slot` and `lay_out` append to (positions, bindings and cells of this
    run only: the parts typed again, and slots for what they use)."""

    nodes: list[Node]
    sizes: list[int]
    types: list[Cell | None]
    symbols: SymbolTable


def slot(layout: Placing, node: Node) -> int:
    """A position for `node` alone (a definition taken from the cache, a parameter)."""
    layout.nodes.append(node)
    layout.sizes.append(1)
    layout.types.append(None)
    return len(layout.nodes) - 1


def lay_out(layout: Placing, tree: PartTree, resolve: Resolver) -> int:
    """`tree` placed after what `layout` holds, the names it takes from outside bound by
    `resolve`; its start."""
    start = len(layout.nodes)
    layout.nodes += tree.nodes
    layout.sizes += tree.sizes
    layout.types += [None] * len(tree.nodes)
    bindings = layout.symbols.bindings
    for position, (kind, declaration, declared) in tree.inner.items():
        assert declared is not None  # a parameter's binding has its position
        bindings[position + start] = Binding(kind, declaration, declared + start)
    for name, positions in tree.outside.items():
        binding = resolve(name)
        for position in positions:
            bindings[position + start] = binding
    return start


class Layout(Inference):
    """A fencil IR inference over the parts laid out."""

    def __init__(self, root: Node, provider: OffsetProvider | None) -> None:
        self._start(root, ([], []), SymbolTable([], {}), provider, False, 1)

    def type_part(self, start: int, definition: bool) -> None:
        """Type the part laid out at `start`; a definition is then generalized."""
        self._collect_part(start)
        if definition:
            self._generalize(start)

    def check_finite(self, start: int) -> None:
        """Raise InfiniteTypeError if a type laid out from `start` on contains itself: the
        parts before are read off already, and nothing unifies into their cells any more."""
        check_finite(self.nodes, self.types, range(start, len(self.nodes)), pformat_all)

    def read_off(self, start: int, tree: PartTree) -> dict[int, Type]:
        """The types of the part laid out at `start`, by `id(node)` (as `infer.by_node`); the
        part's own type (a definition's, a closure's) built from its parts'."""
        types = cast(list[Type | None], self.types)  # read off in place, as `infer` does
        end = start + len(tree.nodes)
        for position in range(end - 1, start - 1, -1):
            if types[position] is None or position == start:
                types[position] = program_type(self, position, types)
        return by_node(tree.nodes, types[start:end])


def printable(nodes: Iterable[Node], types: dict[int, Type]) -> None:
    """Raise `Unsupported` if a node's type is too large to print (a full check says where).
    The closures' nodes are measured together: their types share the parameters', which one
    closure at a time would measure again for each (docs/performance.md, "Incremental
    re-inference")."""
    if check_node_types(nodes, types) is not None:
        raise Unsupported
