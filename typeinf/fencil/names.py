"""The free names the fencil IR's collector reports before it types anything (docs/rules.md): a
free name that is not allowed, with the names nearest to it that are visible where it is used.
Names are resolved before types, as in a compiler's front end (the names declared twice come
first, the driver's: `typeinf.core.driver`)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from typing import TYPE_CHECKING

from iterir import FencilDefinition, FunctionDefinition, Lambda, SymRef
from iterir.nodes import GTIR_CLASSES
from iterir.symbols import BindingKind
from typeinf.core.errors import TypeInferenceError
from typeinf.fencil.messages import unbound
from typeinf.fencil.signatures import BUILTINS
from typeinf.fencil.suggest import suggestions

if TYPE_CHECKING:
    from typeinf.fencil.collect import Inference


def unbound_names(inference: Inference) -> Iterator[tuple[int, TypeInferenceError]]:
    """The error of each free name that is not allowed (and of an allowed one in a fencil's
    function definition, whose type is generalized: its unknown's would not be) at its first use
    in each definition or closure, with its position; each such part is added to
    `inference.unbound_parts` (it is then not typed) before its error is given."""
    root = inference.root
    if isinstance(root, GTIR_CLASSES):
        return  # GTIR's names are GTIR's builtins: `_collect_part` says it is not typed yet
    bindings, allow = inference.symbols.bindings, inference.allow_free
    positions = [p for p, binding in bindings.items() if binding.kind is _FREE]
    if not positions:
        return
    # Where each definition or closure starts; how many are definitions.
    parts, definitions = [0], 0
    if isinstance(root, FencilDefinition):
        parts, definitions = inference.children(0), len(root.function_definitions)
    reported: set[tuple[int, str]] = set()  # (part, name)
    for position in positions:
        name = inference.nodes[position]
        assert isinstance(name, SymRef)  # `bindings` holds the SymRefs
        part = bisect_right(parts, position) - 1
        allowed = allow is True or (allow is not False and name.id in allow)
        if (allowed and part >= definitions) or (part, name.id) in reported:
            continue
        reported.add((part, name.id))
        inference.unbound_parts.add(parts[part])
        nearest = () if allowed else _nearest(inference, position, name.id)
        yield position, unbound(name, nearest, allowed, isinstance(root, FunctionDefinition))


def _nearest(inference: Inference, position: int, name: str) -> tuple[str, ...]:
    """The names visible at `position` (and the builtins, and `known`) nearest to `name`; the
    literals `True` and `False` too, for their lower-case spelling."""
    visible = [*BUILTINS, *inference.known, "True", "False"]
    nodes, sizes = inference.nodes, inference.sizes
    for ancestor in range(position):
        node = nodes[ancestor]
        if ancestor + sizes[ancestor] <= position:
            continue
        if isinstance(node, (Lambda, FunctionDefinition)):
            visible += [p.id for p in node.params]
        elif isinstance(node, FencilDefinition):
            visible += [d.id for d in node.function_definitions]
            closures = inference.children(ancestor)[-len(node.closures) :] if node.closures else []
            if closures and position >= closures[0]:  # its parameters: in its closures only
                visible += [p.id for p in node.params]
    return suggestions(name, visible)


#: Read once: Python 3.11 reads an Enum's members slowly (see `terms.Sort`).
_FREE = BindingKind.FREE
