"""How large a type is, and the limits on it (docs/rules.md, Limits).

A type is a shared graph: instantiating a definition copies its graph once per use, so a chain
of definitions that each use the one before twice (`f2 = λ(x) → f1(f1(x))`) doubles the graph at
every step, and writing a type out (printing it) repeats every shared part at each of its uses,
so its text can be exponentially longer than its graph. Two limits keep both finite:

- a definition's type may have at most `MOST_TYPE_CELLS` cells in its graph (checked when it is
  generalized, in both runs alike: a located `TypeTooLargeError`);
- a type is printed only if, written out, it has at most `MOST_PRINTED_CELLS` cells; beyond,
  `pformat` raises a `TypeTooLargeError` saying its size, and a message shows it as
  `‹a type of … cells›` (`placeholder`).

Both measures walk the shared graph once (linear in its size, never in the written-out size).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from iterir import FunctionDefinition, Node
from typeinf.core import messages
from typeinf.core.errors import TypeInferenceError
from typeinf.core.terms import Cell, DefinitionType, FencilType, Type, roots

if TYPE_CHECKING:
    from collections.abc import Iterable

#: The most cells the graph of one definition's type may have: far above any stencil's (a
#: 10,000-element tuple, the largest `tuple_get` allows, has about 30,000), and small enough that
#: a chain that doubles it stops within a few seconds (`benchmarks/doubling_types.py`).
MOST_TYPE_CELLS = 100_000
#: The most cells a type may have written out (each shared part counted at each of its uses) to
#: be printed: about 50 MB of text in the located notation.
MOST_PRINTED_CELLS = 10_000_000


class TypeTooLargeError(TypeInferenceError):
    """A type beyond one of the limits above: `cells` is its size (graph cells for a
    definition's type, written-out cells for a printed one)."""

    def __init__(self, message: str, node: Node | None, cells: int) -> None:
        super().__init__(message, node)
        self.cells = cells


def graph_cells(root: Cell, limit: int) -> int:
    """The number of cells of the graph at `root` (each class counted once, by its root),
    counting no further than `limit` + 1."""
    seen = object()  # this search's mark
    constants: set[int] = set()  # shared by every inference, so never marked (`terms`, "Marks")
    count = 0
    stack = [root]
    while stack and count <= limit:
        cell = stack.pop()
        while cell.parent is not None:  # `root_of` inline: see there
            cell = cell.parent
        if cell.mark is seen:
            continue
        if cell.args or cell.ctor is None:
            cell.mark = seen
            count += 1
            stack += cell.args
        elif id(cell) not in constants:
            constants.add(id(cell))
            count += 1
    return count


def check_definition(root: Cell, definition: Node) -> None:
    """Raise TypeTooLargeError, at `definition`, if its type's graph has more cells than
    `MOST_TYPE_CELLS`: every use of it would copy them all."""
    cells = graph_cells(root, MOST_TYPE_CELLS)
    if cells > MOST_TYPE_CELLS:
        name = definition.id if isinstance(definition, FunctionDefinition) else None
        raise TypeTooLargeError(messages.type_too_large(name, MOST_TYPE_CELLS), definition, cells)


class WrittenOut:
    """The written-out size of cells (each shared part counted at each of its uses; a cycle,
    which only a failed inference leaves, counted once, as the printer shows it as `…`),
    remembered by cell so that several types of one graph are measured in one walk."""

    def __init__(self) -> None:
        self.sizes: dict[int, int] = {}  # id of a root cell → its written-out size

    def __call__(self, cell: Cell) -> int:
        sizes = self.sizes
        while cell.parent is not None:  # `root_of` inline: see there
            cell = cell.parent
        if not cell.args:
            return 1
        if id(cell) in sizes:
            return sizes[id(cell)]
        # Post-order with an iterator per cell on the path, as `solve._cycle` searches, rather
        # than a stack of (cell, ready) pairs, which was slower (docs/performance.md, "Memory").
        # Leaves are not stored (they count 1); a cell on the path counts 1 until it is measured
        # (a cycle: it counts 1 where it closes). Kept in `sizes`, not marked on the cells, so
        # that measuring only reads a graph, even one every inference shares (`terms`, "Marks").
        sizes[id(cell)] = 1
        path, pending = [cell], [iter(cell.args)]
        while pending:
            for child in pending[-1]:
                while child.parent is not None:  # `root_of` inline: see there
                    child = child.parent
                if child.args:
                    key = id(child)
                    if key in sizes:
                        continue
                    sizes[key] = 1
                    path.append(child)
                    pending.append(iter(child.args))
                    break
            else:
                done = path.pop()
                pending.pop()
                total = 1
                for argument in done.args:
                    while argument.parent is not None:  # `root_of` inline: see there
                        argument = argument.parent
                    total += sizes.get(id(argument), 1)
                sizes[id(done)] = total
        return sizes[id(cell)]


def shown(cells: int) -> str:
    """A size as a message says it: exactly while it is short, else as a power of two."""
    if cells < 10**15:
        return f"{cells:,}"
    return f"more than 2^{cells.bit_length() - 1:,}"


def placeholder(cells: int) -> str:
    """What a message shows for a type too large to print."""
    return f"‹a type of {shown(cells)} cells, too large to print›"


def check_printable(types: Iterable[Type], node: Node | None = None) -> None:
    """Raise TypeTooLargeError if one of `types`, written out, has more than
    `MOST_PRINTED_CELLS` cells, naming the definition it is (or is part of) and its size."""
    measure = WrittenOut()
    for type_ in types:
        parts = type_.definitions if isinstance(type_, FencilType) else ()
        for part in (*parts, type_):
            cells = sum(measure(cell) for cell in roots(part))
            if cells > MOST_PRINTED_CELLS:
                raise TypeTooLargeError(too_large_to_print(part, cells), node, cells)


def too_large_to_print(type_: Type | None, cells: int) -> str:
    what = f"the type of `{type_.name}`" if isinstance(type_, DefinitionType) else "the type"
    return (
        f"{what} is too large to print: written out, it has {shown(cells)} cells, more than "
        f"the {MOST_PRINTED_CELLS:,} a printed type may have (its graph is shared, and each "
        "shared part is written out at each use; see the limits in docs/rules.md)"
    )


def check_node_types(nodes: Iterable[Node], types: dict[int, Type]) -> TypeTooLargeError | None:
    """The error of the first node, in pre-order, whose type (in `types`, by the node's id) is
    too large to print; None if every one can be printed. A fencil's type is left out: its
    parts, each the type of a node of its own, are measured, and the error names the part."""
    measure = WrittenOut()
    measured = measure.sizes
    for node in nodes:
        type_ = types.get(id(node))
        if type(type_) is Cell:  # most nodes: often a leaf or a part measured already
            cell = type_
            while cell.parent is not None:  # `root_of` inline: see there
                cell = cell.parent
            if not cell.args or id(cell) in measured:
                continue  # measured within the limit, or the error was returned
            cells = measure(cell)
        elif type_ is None or isinstance(type_, FencilType):
            continue
        else:
            cells = sum(measure(cell) for cell in roots(type_))
        if cells > MOST_PRINTED_CELLS:
            return TypeTooLargeError(too_large_to_print(type_, cells), node, cells)
    return None
