"""The order in which a fencil's function definitions are typed: each after the definitions it
uses (source order otherwise), so that every reference finds a generalized type to instantiate.
A definition that reaches itself is recursion, an error naming the cycle."""

from __future__ import annotations

from iterir import FunctionDefinition, Node
from iterir.symbols import BindingKind, SymbolTable
from typeinf.core import messages
from typeinf.core.errors import RecursionCycleError


def definition_order(
    nodes: list[Node], sizes: list[int], symbols: SymbolTable, definitions: list[int]
) -> list[int]:
    """The positions of `definitions` (a fencil's, in source order), dependencies first."""
    uses = _uses(sizes, symbols, definitions)
    order: list[int] = []
    state: dict[int, str] = {}  # "active" on the current path, "done" once ordered
    for start in definitions:
        if start in state:
            continue
        path: list[tuple[int, int]] = [(start, 0)]  # (definition, index of its next use)
        state[start] = "active"
        while path:
            position, next_use = path[-1]
            if next_use == len(uses[position]):
                path.pop()
                state[position] = "done"
                order.append(position)
                continue
            path[-1] = (position, next_use + 1)
            used, reference = uses[position][next_use]
            if state.get(used) == "active":
                on_path = [p for p, _ in path]
                names = [_name(nodes[p]) for p in on_path[on_path.index(used) :]]
                cycle = [*names, names[0]]
                raise RecursionCycleError(messages.recursion(cycle), nodes[reference], cycle)
            if used not in state:
                state[used] = "active"
                path.append((used, 0))
    return order


def _uses(
    sizes: list[int], symbols: SymbolTable, definitions: list[int]
) -> dict[int, list[tuple[int, int]]]:
    """Per definition: (used definition, referring SymRef position), in source order."""
    uses: dict[int, list[tuple[int, int]]] = {d: [] for d in definitions}
    spans = iter(definitions)
    current = next(spans, None)
    definition = BindingKind.FUNCTION_DEFINITION  # read once: Python 3.11 reads Enum members slowly
    for position, binding in symbols.bindings.items():  # in pre-order
        if binding.kind is not definition:
            continue
        while current is not None and position >= current + sizes[current]:
            current = next(spans, None)
        if current is None:
            break  # the rest are in closures
        assert binding.position is not None  # a function definition's binding: it is declared
        uses[current].append((binding.position, position))
    return uses


def _name(node: Node) -> str:
    return node.id if isinstance(node, FunctionDefinition) else "?"
