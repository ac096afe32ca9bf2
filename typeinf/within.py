"""What inference runs over, for a node asked about (`Subject`): the node itself, or, for a
function definition of a fencil inferred on its own, a fencil of it and the definitions it calls.

IR nodes have no parent links, so the caller names the fencil (`infer(definition,
within=fencil)`); the definition is typed in a fencil of just the definitions it calls, directly
or not, as it is typed in the whole fencil (a definition's type depends on its callees only,
never on closures or on other definitions)."""

from __future__ import annotations

from collections.abc import Collection
from typing import NamedTuple

from iterir import FencilDefinition, FunctionDefinition, Node
from iterir.nodes import MisplacedNodeError
from iterir.symbols import BindingKind, resolve
from iterir.traversal import child_positions, preorder
from typeinf.fencil.infer import Subject


class Within(NamedTuple):
    """What `definition` is inferred in: a fencil of it (`target`, the fencil's own node) and
    the definitions it calls, in the fencil's order; `names`: every definition's name (for a
    misspelled name's suggestions)."""

    fencil: FencilDefinition
    target: FunctionDefinition
    names: tuple[str, ...]


def with_callees(definition: Node, fencil: Node) -> Within:
    """`definition`, one of `fencil`'s function definitions (the same object, else an equal one),
    with the definitions it calls."""
    if not isinstance(fencil, FencilDefinition):
        raise TypeError(f"`within` takes a FencilDefinition, not a {type(fencil).__name__}")
    definitions = fencil.function_definitions
    index = next((i for i, d in enumerate(definitions) if d is definition), None)
    if index is None:
        index = next((i for i, d in enumerate(definitions) if d == definition), None)
    if index is None or not isinstance(definition, FunctionDefinition):
        raise ValueError(
            f"`infer(…, within=fencil)` takes one of the function definitions of `{fencil.id}` "
            f"({', '.join(d.id for d in definitions) or 'it has none'})"
        )
    alone = FencilDefinition(fencil.id, definitions, (), ())
    names = tuple(d.id for d in definitions)
    try:
        nodes, sizes = preorder(alone, checked=True)
    except MisplacedNodeError:  # all of them, for inference to say where the tree is malformed
        return Within(alone, definitions[index], names)
    table = resolve(alone, tree=(nodes, sizes))
    starts = child_positions(sizes, 0, len(definitions))
    index_at = {start: i for i, start in enumerate(starts)}
    needed, pending = {index}, [index]
    while pending:  # the definitions reached from `definition`, by what each one's names refer to
        start = starts[pending.pop()]
        for position in range(start, start + sizes[start]):
            binding = table.bindings.get(position)
            if binding is not None and binding.kind is BindingKind.FUNCTION_DEFINITION:
                reached = index_at[binding.position]  # type: ignore[index]  # a definition's binding has its position
                if reached not in needed:
                    needed.add(reached)
                    pending.append(reached)
    kept = tuple(definitions[i] for i in sorted(needed))
    return Within(FencilDefinition(fencil.id, kept, (), ()), definitions[index], names)


def subject(node: Node, allow_free: bool | Collection[str], within: Node | None) -> Subject:
    """What to infer for `node`, with `allow_free` checked (a string is refused: it would be
    read as a set of its letters)."""
    if not isinstance(allow_free, bool):
        if (
            not isinstance(allow_free, Collection)
            or isinstance(allow_free, str)
            or not all(isinstance(n, str) for n in allow_free)
        ):
            raise TypeError(
                f"allow_free takes True, False or a set of names, such as {{'x'}}, not {allow_free!r}"
            )
        allow_free = frozenset(allow_free)
    if within is None:
        return Subject(node, node, allow_free)
    fencil, target, names = with_callees(node, within)
    return Subject(fencil, target, allow_free, names)
