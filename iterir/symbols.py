"""What each `SymRef` refers to: a parameter, a function definition, a fencil parameter, a
builtin, or nothing (free).

Scoping: a lambda's or function definition's parameters are visible in its body and shadow
everything outside; a fencil's function definitions are visible in every definition and closure
(in any order, so that the type checker can report recursion rather than an unbound name); the
fencil's parameters are visible in its closures only. A GTIR program's function definitions are
visible throughout it, its parameters and temporaries in its temporaries and statements.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterator
from typing import NamedTuple

from iterir.nodes import (
    GTIR_CLASSES,
    FencilDefinition,
    FunctionDefinition,
    Lambda,
    Node,
    Program,
    Sym,
    SymRef,
    Temporary,
)
from iterir.traversal import child_positions, preorder
from iterir.vocabulary import BUILTINS, GTIR_BUILTINS


class BindingKind(enum.Enum):
    PARAMETER = "parameter"
    FUNCTION_DEFINITION = "function definition"
    FENCIL_PARAMETER = "fencil parameter"
    PROGRAM_PARAMETER = "program parameter"
    TEMPORARY = "temporary"
    BUILTIN = "builtin"
    FREE = "free"


class Binding(NamedTuple):
    """What a name refers to: the declaring Sym or FunctionDefinition and its pre-order position
    (None for builtins and free names). A named tuple: one is made per parameter, and a tuple is
    the cheapest immutable record to make."""

    kind: BindingKind
    declaration: Sym | FunctionDefinition | Temporary | None = None
    position: int | None = None


_BUILTIN = Binding(BindingKind.BUILTIN)
_FREE = Binding(BindingKind.FREE)


class SymbolTable:
    """The binding of every SymRef occurrence, by pre-order position.

    Positions are the truth: one SymRef object used in two places occurs twice. Looking a SymRef
    up by object gives its first occurrence's binding.
    """

    def __init__(
        self,
        nodes: list[Node],
        bindings: dict[int, Binding],
        duplicates: list[tuple[int, int]] | None = None,
    ) -> None:
        self.nodes = nodes
        self.bindings = bindings
        #: (position, position of the first declaration) of every name declared twice in one
        #: parameter list, or twice among a fencil's function definitions.
        self.duplicates = duplicates or []
        self._by_object: dict[int, Binding] | None = None  # built on the first lookup by object

    @property
    def occurrences(self) -> list[tuple[SymRef, Binding]]:
        """Every SymRef occurrence with its binding, in pre-order."""
        return [(self.nodes[p], b) for p, b in self.bindings.items()]  # type: ignore[misc]

    def __getitem__(self, ref: SymRef) -> Binding:
        if self._by_object is None:
            self._by_object = {}
            for position, binding in self.bindings.items():
                self._by_object.setdefault(id(self.nodes[position]), binding)
        return self._by_object[id(ref)]

    def free(self) -> Iterator[SymRef]:
        """The SymRefs bound nowhere, in pre-order."""
        return (ref for ref, binding in self.occurrences if binding.kind is BindingKind.FREE)


def resolve(
    root: Node,
    builtins: Collection[str] | None = None,
    *,
    tree: tuple[list[Node], list[int]] | None = None,
) -> SymbolTable:
    """Bind every SymRef under `root`; `builtins` are the names that need no declaration.
    `tree` is `preorder(root)`, for callers that have it already. By default the builtins are
    GTIR's under a GTIR program or statement, else the fencil IR's."""
    if builtins is None:
        builtins = GTIR_BUILTINS if isinstance(root, GTIR_CLASSES) else BUILTINS
    nodes, sizes = tree or preorder(root)
    scopes: dict[str, list[Binding]] = {}  # name → its bindings, innermost last
    open_scopes: list[tuple[int, list[str]]] = []  # (end position, names), innermost last
    later: dict[int, tuple[int, list[tuple[str, Binding]]]] = {}  # scopes opening further on
    bindings: dict[int, Binding] = {}
    duplicates: list[tuple[int, int]] = []

    def open_scope(end: int, names: list[tuple[str, Binding]]) -> None:
        declared: dict[str, int] = {}
        for name, binding in names:
            if name in declared:
                duplicates.append((binding.position, declared[name]))  # type: ignore[arg-type]
            declared.setdefault(name, binding.position)  # type: ignore[arg-type]
            scopes.setdefault(name, []).append(binding)
        open_scopes.append((end, [name for name, _ in names]))

    close_at = len(nodes)  # where the innermost open scope ends
    parameter = BindingKind.PARAMETER  # read once: Python 3.11 reads Enum members slowly
    for position, node in enumerate(nodes):
        if position >= close_at:
            while open_scopes and open_scopes[-1][0] <= position:
                for name in open_scopes.pop()[1]:
                    scopes[name].pop()
            close_at = open_scopes[-1][0] if open_scopes else len(nodes)
        if later and position in later:
            open_scope(*later.pop(position))
            close_at = open_scopes[-1][0]
        cls = type(node)
        if cls is SymRef:
            bound = scopes.get(node.id)  # type: ignore[attr-defined]
            bindings[position] = bound[-1] if bound else _BUILTIN if node.id in builtins else _FREE  # type: ignore[attr-defined]
        elif cls is Lambda or cls is FunctionDefinition:
            params = child_positions(sizes, position, len(node.params))
            close_at = position + sizes[position]
            open_scope(close_at, [(nodes[p].id, Binding(parameter, nodes[p], p)) for p in params])  # type: ignore[attr-defined]
        elif cls is FencilDefinition:
            end = position + sizes[position]
            count = len(node.function_definitions) + len(node.params) + len(node.closures)
            children = child_positions(sizes, position, count)
            defs = children[: len(node.function_definitions)]
            params = children[len(defs) : len(defs) + len(node.params)]
            open_scope(
                end,
                [
                    (nodes[d].id, Binding(BindingKind.FUNCTION_DEFINITION, nodes[d], d))
                    for d in defs
                ],
            )  # type: ignore[attr-defined]
            close_at = end
            if node.closures:
                first_closure = children[len(defs) + len(params)]
                later[first_closure] = (
                    end,
                    [
                        (nodes[p].id, Binding(BindingKind.FENCIL_PARAMETER, nodes[p], p))
                        for p in params
                    ],
                )  # type: ignore[attr-defined]
        elif cls is Program:
            end = position + sizes[position]
            defs, params = len(node.function_definitions), len(node.params)  # type: ignore[attr-defined]
            count = defs + params + len(node.declarations) + len(node.body)  # type: ignore[attr-defined]
            children = child_positions(sizes, position, count)
            open_scope(
                end,
                [
                    (nodes[d].id, Binding(BindingKind.FUNCTION_DEFINITION, nodes[d], d))  # type: ignore[attr-defined, arg-type]
                    for d in children[:defs]
                ],
            )
            close_at = end
            if count > defs + params:  # parameters and temporaries, from the first declaration on
                declared = [
                    (nodes[p].id, Binding(BindingKind.PROGRAM_PARAMETER, nodes[p], p))  # type: ignore[attr-defined, arg-type]
                    for p in children[defs : defs + params]
                ]
                declared += [
                    (nodes[t].id, Binding(BindingKind.TEMPORARY, nodes[t], t))  # type: ignore[attr-defined, arg-type]
                    for t in children[defs + params :]
                    if type(nodes[t]) is Temporary
                ]
                later[children[defs + params]] = (end, declared)
    return SymbolTable(nodes, bindings, duplicates)
