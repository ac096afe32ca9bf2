"""The inference entry points: collect constraints, solve them, read off the types."""

from __future__ import annotations

from typing import Any

from iterir import FencilDefinition, FunctionDefinition, Node, StencilClosure
from iterir.gcpause import gc_paused
from iterir.traversal import child_positions
from typeinf.collect import Collection
from typeinf.offsets import OffsetProvider, load_offset_provider
from typeinf.solve import solve
from typeinf.terms import ClosureType, DefinitionType, FencilType, Type


def _run(node: Node, offset_provider: OffsetProvider | dict[str, Any] | None) -> tuple[Collection, list[Type | None]]:
    provider = None if offset_provider is None else load_offset_provider(dict(offset_provider))
    with gc_paused():
        collection = Collection(node, provider)
        solve(collection)
    types: list[Type | None] = list(collection.types)
    for position in range(len(types) - 1, -1, -1):  # program-level nodes, innermost first
        current = collection.nodes[position]
        if isinstance(current, FunctionDefinition):
            types[position] = DefinitionType(current.id, collection.type_at(position))
        elif isinstance(current, StencilClosure):
            _, _, output, *inputs = collection.children(position)
            types[position] = ClosureType(tuple(collection.type_at(i) for i in inputs), collection.type_at(output))
        elif isinstance(current, FencilDefinition):
            count = len(current.function_definitions) + len(current.params)
            children = child_positions(collection.sizes, position, count)
            definitions = tuple(types[p] for p in children[: len(current.function_definitions)])
            params = tuple(collection.type_at(p) for p in children[len(current.function_definitions) :])
            types[position] = FencilType(current.id, definitions, params)  # type: ignore[arg-type]
    return collection, types


def infer(node: Node, offset_provider: OffsetProvider | dict[str, Any] | None = None) -> Type:
    """The most general type of `node` (an expression, definition, closure or fencil).

    Raises a TypeInferenceError subclass for a program without a type.
    """
    _, types = _run(node, offset_provider)
    return types[0]  # type: ignore[return-value]


def infer_all(
    node: Node, offset_provider: OffsetProvider | dict[str, Any] | None = None, *, attach: bool = False
) -> dict[int, Type]:
    """The type of every node, keyed by `id(node)`, in pre-order. A node object used in several
    places is keyed by its first occurrence. With `attach`, each node also gets its type as
    `node.inferred_type` (the types share one solved graph: print them with `pformat`)."""
    collection, types = _run(node, offset_provider)
    result: dict[int, Type] = {}
    for current, type_ in zip(collection.nodes, types):
        if type_ is not None and id(current) not in result:
            result[id(current)] = type_
            if attach:
                object.__setattr__(current, "inferred_type", type_)
    return result
