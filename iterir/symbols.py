"""What each `SymRef` refers to: a parameter, a function definition, a fencil parameter, a
builtin, or nothing (free).

Scoping: a lambda's or function definition's parameters are visible in its body and shadow
everything outside; a fencil's function definitions are visible in every definition and closure
(in any order, so that the type checker can report recursion rather than an unbound name); the
fencil's parameters are visible in its closures only.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterator
from dataclasses import dataclass

from iterir.nodes import FencilDefinition, FunctionDefinition, Lambda, Node, Sym, SymRef
from iterir.vocabulary import BUILTINS


class BindingKind(enum.Enum):
    PARAMETER = "parameter"
    FUNCTION_DEFINITION = "function definition"
    FENCIL_PARAMETER = "fencil parameter"
    BUILTIN = "builtin"
    FREE = "free"


@dataclass(frozen=True, slots=True)
class Binding:
    """What a name refers to; `declaration` is the Sym or FunctionDefinition (None otherwise)."""

    kind: BindingKind
    declaration: Sym | FunctionDefinition | None = None


_BUILTIN = Binding(BindingKind.BUILTIN)
_FREE = Binding(BindingKind.FREE)


class SymbolTable:
    """The binding of every SymRef occurrence, in pre-order.

    Occurrences are the truth: one SymRef object shared by two places of the tree occurs twice.
    Looking a SymRef up by object gives its first occurrence's binding.
    """

    def __init__(self, occurrences: list[tuple[SymRef, Binding]]) -> None:
        self.occurrences = occurrences
        self._by_object: dict[int, Binding] = {}
        for ref, binding in occurrences:
            self._by_object.setdefault(id(ref), binding)

    def __getitem__(self, ref: SymRef) -> Binding:
        return self._by_object[id(ref)]

    def free(self) -> Iterator[SymRef]:
        """The SymRefs bound nowhere, in pre-order."""
        return (ref for ref, binding in self.occurrences if binding.kind is BindingKind.FREE)


def resolve(root: Node, builtins: Collection[str] = BUILTINS) -> SymbolTable:
    """Bind every SymRef under `root`; `builtins` are the names that need no declaration."""
    scopes: dict[str, list[Binding]] = {}  # name → its bindings, innermost last
    occurrences: list[tuple[SymRef, Binding]] = []
    # Work items, run last-in first-out: a node to visit, names to bind, or names to unbind.
    stack: list[Node | tuple[str, list[tuple[str, Binding]]]] = [root]

    def scoped(names: list[tuple[str, Binding]], body: list[Node]) -> None:
        """Queue: bind `names`, visit `body` in order, unbind `names`."""
        stack.append(("unbind", names))
        stack.extend(reversed(body))
        stack.append(("bind", names))

    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            action, names = item
            for name, binding in names:
                if action == "bind":
                    scopes.setdefault(name, []).append(binding)
                else:
                    scopes[name].pop()
        elif isinstance(item, SymRef):
            bound = scopes.get(item.id)
            if bound:
                binding = bound[-1]
            else:
                binding = _BUILTIN if item.id in builtins else _FREE
            occurrences.append((item, binding))
        elif isinstance(item, (Lambda, FunctionDefinition)):
            scoped([(p.id, Binding(BindingKind.PARAMETER, p)) for p in item.params], [item.expr])
        elif isinstance(item, FencilDefinition):
            params = [(p.id, Binding(BindingKind.FENCIL_PARAMETER, p)) for p in item.params]
            defs = [(d.id, Binding(BindingKind.FUNCTION_DEFINITION, d))
                    for d in item.function_definitions]  # fmt: skip
            # Closures see the parameters; definitions do not. Queued in reverse run order.
            stack.append(("unbind", defs))
            scoped(params, list(item.closures))
            stack.extend(reversed(item.function_definitions))
            stack.append(("bind", defs))
        else:
            stack.extend(reversed(list(item.iter_children())))
    return SymbolTable(occurrences)
