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
from typing import NamedTuple, cast

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
from iterir.traversal import Tree, child_positions, preorder
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
        occurrences = [(self.nodes[p], b) for p, b in self.bindings.items()]
        return cast("list[tuple[SymRef, Binding]]", occurrences)  # `bindings` keys SymRefs only

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
    tree: Tree | None = None,
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
        declared: dict[str, Binding] = {}  # each name's first declaration in this scope
        for name, binding in names:
            if name in declared:  # every binding in a scope has a position
                duplicates.append(
                    cast("tuple[int, int]", (binding.position, declared[name].position))
                )
            declared.setdefault(name, binding)
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
            name = node.id  # type: ignore[attr-defined]  # cls is SymRef
            bound = scopes.get(name)
            bindings[position] = bound[-1] if bound else _BUILTIN if name in builtins else _FREE
        elif cls is Lambda or cls is FunctionDefinition:
            params = child_positions(sizes, position, len(node.params))  # type: ignore[attr-defined]  # cls is Lambda or FunctionDefinition
            close_at = position + sizes[position]
            declared = [(nodes[p].id, Binding(parameter, nodes[p], p)) for p in params]  # type: ignore[attr-defined, arg-type]  # preorder put node.params, Syms, at `params`
            open_scope(close_at, declared)
        elif cls is FencilDefinition:
            fencil = cast(FencilDefinition, node)  # `cls` says so
            # Each zip below pairs a child with its position: preorder lists a node's children there.
            end = position + sizes[position]
            count = len(fencil.function_definitions) + len(fencil.params) + len(fencil.closures)
            children = child_positions(sizes, position, count)
            defs = children[: len(fencil.function_definitions)]
            params = children[len(defs) : len(defs) + len(fencil.params)]
            open_scope(
                end,
                [
                    (f.id, Binding(BindingKind.FUNCTION_DEFINITION, f, d))
                    for f, d in zip(fencil.function_definitions, defs, strict=True)
                ],
            )
            close_at = end
            if fencil.closures:
                first_closure = children[len(defs) + len(params)]
                later[first_closure] = (
                    end,
                    [
                        (sym.id, Binding(BindingKind.FENCIL_PARAMETER, sym, p))
                        for sym, p in zip(fencil.params, params, strict=True)
                    ],
                )
        elif cls is Program:
            program = cast(Program, node)  # `cls` says so
            end = position + sizes[position]
            n_defs, n_params = len(program.function_definitions), len(program.params)
            count = n_defs + n_params + len(program.declarations) + len(program.body)
            children = child_positions(sizes, position, count)
            open_scope(
                end,
                [
                    (f.id, Binding(BindingKind.FUNCTION_DEFINITION, f, d))
                    for f, d in zip(program.function_definitions, children[:n_defs], strict=True)
                ],
            )
            close_at = end
            if count > n_defs + n_params:  # parameters and temporaries, from the first declaration
                declared = [
                    (sym.id, Binding(BindingKind.PROGRAM_PARAMETER, sym, p))
                    for sym, p in zip(
                        program.params, children[n_defs : n_defs + n_params], strict=True
                    )
                ]
                declared += [
                    (temporary.id, Binding(BindingKind.TEMPORARY, temporary, t))
                    for t in children[n_defs + n_params :]
                    if type(temporary := nodes[t]) is Temporary
                ]
                later[children[n_defs + n_params]] = (end, declared)
    return SymbolTable(nodes, bindings, duplicates)
