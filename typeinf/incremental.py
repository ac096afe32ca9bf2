"""Re-inference in proportion to the edit, for compiler passes: `Reinference` keeps what the
last inference of a fencil found and, given the fencil a pass made of it (sharing the subtrees
it left alone, by identity), numbers, resolves and infers again only the parts the edit can
have changed. The result is `check`'s, node for node (docs/architecture.md, "Incremental
re-inference", says why; docs/api.md shows a pass using it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from graphlib import CycleError, TopologicalSorter
from typing import cast

from iterir import FencilDefinition, FunctionDefinition, Node
from iterir.gcpause import gc_paused
from iterir.symbols import Binding, BindingKind, SymbolTable
from iterir.traversal import MOST_NODES
from typeinf.collect import Inference
from typeinf.convert import to_value
from typeinf.errors import TypeInferenceError
from typeinf.infer import Checked, NodeTypes, Provider, _program_type, _provider, by_node, check
from typeinf.offsets import OffsetProvider
from typeinf.part_trees import PartTree, fencil_fits, part_tree
from typeinf.schemes import Scheme, Template
from typeinf.signatures import BUILTINS, Signature
from typeinf.sizes import check_node_types
from typeinf.solve import check_finite
from typeinf.terms import DefinitionType, FencilType, Type
from typeinf.types import Inferred

#: A definition's type with its relations, in the located notation (variables numbered in
#: order, so equal texts are equal types up to renaming).
TypeText = str


@dataclass
class _Entry:
    """What inferring one function definition found: its numbered and resolved tree, its
    generalized type (`template`, with its open relations; `definition`, as the fencil's type
    holds it; `text`, printed) and the types read off its nodes, by `id(node)`."""

    tree: PartTree
    template: Scheme | Template
    definition: DefinitionType
    text: TypeText
    typed: dict[int, Type]


@dataclass(frozen=True)
class Reused:
    """What the last `Reinference.check` did: the function definitions it took from the cache
    and those it inferred, by name in source order, and whether it had to check the
    whole fencil from scratch (`full`: a type error, or a root that is not a fencil)."""

    reused: tuple[str, ...] = ()
    inferred: tuple[str, ...] = ()
    full: bool = True


class _Unsupported(Exception):
    """What the incremental run leaves to a full check: an error to report in full (a free
    name, recursion, a malformed part, a type error)."""


class _Layout(Inference):
    """One inference over the parts an edit made, laid out one after another as they are
    inferred (`lay_out`), and a one-node slot for every definition taken from the cache,
    whose scheme is its entry's: positions, bindings and cells of this run only."""

    def __init__(self, fencil: FencilDefinition, provider: OffsetProvider | None) -> None:
        self._start(fencil, ([], []), SymbolTable([], {}), provider, False, 1)

    def slot(self, node: Node) -> int:
        """A position for `node` alone (a reused definition, a fencil parameter)."""
        self.nodes.append(node)
        self.sizes.append(1)
        self.types.append(None)
        return len(self.nodes) - 1

    def lay_out(self, tree: PartTree, scope: dict[str, Binding]) -> int:
        """`tree` placed after what is laid out, its names from outside bound by `scope` (or
        as builtins); its start."""
        start = len(self.nodes)
        self.nodes += tree.nodes
        self.sizes += tree.sizes
        self.types += [None] * len(tree.nodes)
        bindings = self.symbols.bindings
        for position, (kind, declaration, declared) in tree.inner.items():
            assert declared is not None  # a parameter's binding has its position
            bindings[position + start] = Binding(kind, declaration, declared + start)
        for name, positions in tree.outside.items():
            binding = scope.get(name)
            if binding is None:
                if name not in BUILTINS:
                    raise _Unsupported  # a free name: an error, which a full check reports
                binding = _BUILTIN
            for position in positions:
                bindings[position + start] = binding
        return start

    def check_finite(self, start: int) -> None:
        """Raise InfiniteTypeError if a type laid out from `start` on contains itself: the
        parts before are read off already, and nothing unifies into their cells any more."""
        check_finite(self.nodes, self.types, range(start, len(self.nodes)))

    def read_off(self, start: int, tree: PartTree) -> dict[int, Type]:
        """The types of the part laid out at `start`, by `id(node)` (as `infer.by_node`), each
        printable; the part's own type (a definition's, a closure's) built from its parts'."""
        types = cast(list[Type | None], self.types)  # read off in place, as `infer` does
        end = start + len(tree.nodes)
        for position in range(end - 1, start - 1, -1):
            if types[position] is None or position == start:
                types[position] = _program_type(self, position, types)
        typed = by_node(tree.nodes, types[start:end])
        if check_node_types(tree.nodes, typed) is not None:
            raise _Unsupported  # a type too large to print: a full check says where
        return typed


_BUILTIN = Binding(BindingKind.BUILTIN)


@dataclass
class Reinference:
    """Types a fencil, then each fencil a pass makes of it, reusing what is still valid.

    `check(root)` gives what `typeinf.check(root, offset_provider)` gives: the root's type
    (converted when first read, as every node's), every node's (numbered together, in
    pre-order), every independent error. The context keeps what the last root's parts need."""

    offset_provider: Provider = None
    #: What the last `check` reused and inferred.
    last: Reused = field(default_factory=Reused)
    _entries: dict[int, _Entry] = field(default_factory=dict, repr=False)
    _closures: dict[int, PartTree] = field(default_factory=dict, repr=False)
    #: What each name the entries use from outside named: a definition's type text, a builtin.
    _named: dict[str, TypeText | Signature] = field(default_factory=dict, repr=False)

    def check(self, root: Node) -> Checked:
        """Every node's type and every error of `root`, as `typeinf.check` gives them."""
        if isinstance(root, FencilDefinition):
            with gc_paused():
                try:
                    return self._incremental(root, _provider(self.offset_provider))
                except (_Unsupported, TypeInferenceError):
                    pass  # reported, with every error and its reasons, by a full check
        self.last = Reused()
        return check(root, self.offset_provider)

    def _incremental(self, root: FencilDefinition, provider: OffsetProvider | None) -> Checked:
        """The incremental run's result; raises what it leaves to a full check."""
        if not fencil_fits(root):
            raise _Unsupported
        definitions = {d.id: d for d in root.function_definitions}
        trees = {d.id: self._tree(d) for d in root.function_definitions}
        order = _order(trees)
        if len(definitions) != len(root.function_definitions) or len(
            {p.id for p in root.params}
        ) != len(root.params):
            raise _Unsupported  # a name declared twice
        changed = self._changed(definitions)
        layout = _Layout(root, provider)
        scope: dict[str, Binding] = {}  # what a name taken from outside a part names
        entries: dict[str, _Entry] = {}
        inferred: list[str] = []
        # What the names the entries use from outside name now: builtins, definitions' types.
        named = {n: v for n, v in self._named.items() if n not in definitions}
        for name in order:
            node, tree = definitions[name], trees[name]
            entry = self._entries.get(id(node))
            if entry is not None and entry.tree.node is node and changed.isdisjoint(tree.outside):
                position = layout.slot(node)
                layout.solver.schemes[position] = entry.template
            else:
                position = layout.lay_out(tree, scope)
                layout._collect_part(position)
                layout._generalize(position)
                layout.check_finite(position)
                inferred.append(name)
                entry = self._entry(layout, position, tree)
                if self._named.get(name) != entry.text:
                    changed.add(name)
                named.update((n, BUILTINS[n]) for n in tree.outside if n not in definitions)
            entries[name] = entry
            named[name] = entry.text
            scope[name] = Binding(_DEFINITION, node, position)
        params = [layout.slot(param) for param in root.params]
        for position in params:
            layout.decl(position)
        scope.update(
            (sym.id, Binding(_FENCIL_PARAMETER, sym, position))
            for sym, position in zip(root.params, params, strict=True)
        )
        closures = [self._closure_tree(closure) for closure in root.closures]
        if sum(len(t.nodes) for t in (*trees.values(), *closures)) >= MOST_NODES:
            raise _Unsupported  # more occurrences than a fencil may have: said by a full check
        starts = [layout.lay_out(tree, scope) for tree in closures]
        for start in starts:
            layout._collect_part(start)
        layout.check_finite(
            len(layout.nodes) - sum(map(len, (t.nodes for t in closures))) - len(params)
        )
        closure_types = [layout.read_off(s, t) for s, t in zip(starts, closures, strict=True)]
        definition_types = tuple(entries[d.id].definition for d in root.function_definitions)
        param_cells = [layout.type_at(p) for p in params]
        fencil_type = FencilType(root.id, definition_types, tuple(param_cells))
        types = _merged(
            [
                {id(root): fencil_type},
                *(entries[d.id].typed for d in root.function_definitions),
                by_node(list(root.params), param_cells),
                *closure_types,
            ]
        )
        self._entries = {id(definitions[name]): entry for name, entry in entries.items()}
        self._closures = {id(tree.node): tree for tree in closures}
        self._named = named
        again = set(inferred)
        self.last = Reused(
            tuple(name for name in definitions if name not in again),
            tuple(name for name in definitions if name in again),
            full=False,
        )
        return _Checked(id(root), NodeTypes(types))

    def _tree(self, definition: FunctionDefinition) -> PartTree:
        """The definition numbered and resolved: its entry's tree, or made now."""
        entry = self._entries.get(id(definition))
        if entry is not None and entry.tree.node is definition:
            return entry.tree
        return _made(definition)

    def _closure_tree(self, closure: Node) -> PartTree:
        """The closure numbered and resolved: as the last root had it, or made now."""
        tree = self._closures.get(id(closure))
        return tree if tree is not None and tree.node is closure else _made(closure)

    def _changed(self, definitions: dict[str, FunctionDefinition]) -> set[str]:
        """The names that name something else than they did for the entries: names that came
        to or stopped naming a definition, builtins registered again (a definition whose type
        changes is added as it is inferred)."""
        changed = {name for name in definitions if not isinstance(self._named.get(name), str)}
        changed.update(
            name
            for name, named in self._named.items()
            if name not in definitions
            and (isinstance(named, str) or BUILTINS.get(name) is not named)
        )
        return changed

    @staticmethod
    def _entry(layout: _Layout, position: int, tree: PartTree) -> _Entry:
        """The entry of the definition just inferred and generalized at `position`."""
        typed = layout.read_off(position, tree)
        definition = typed[id(tree.node)]
        assert isinstance(definition, DefinitionType)  # what `read_off` gives a definition
        text = format(to_value(definition), "located")
        return _Entry(tree, layout.solver.schemes[position], definition, text, typed)


_DEFINITION, _FENCIL_PARAMETER = BindingKind.FUNCTION_DEFINITION, BindingKind.FENCIL_PARAMETER


def _made(part: Node) -> PartTree:
    tree = part_tree(part)
    if tree is None:
        raise _Unsupported  # a malformed part: said by a full check
    return tree


def _order(trees: dict[str, PartTree]) -> list[str]:
    """The definitions' names, each after those of the definitions it uses (recursion: left to
    a full check, which reports it)."""
    graph = {name: [n for n in tree.outside if n in trees] for name, tree in trees.items()}
    try:
        return list(TopologicalSorter(graph).static_order())
    except CycleError:
        raise _Unsupported from None


def _merged(parts: list[dict[int, Type]]) -> dict[int, Type]:
    """The parts' types in one map, in order; a node object in several parts keeps its first
    occurrence's type (as `infer.by_node`)."""
    merged: dict[int, Type] = {}
    for part in parts:
        merged.update(part)
    if len(merged) == sum(map(len, parts)):
        return merged
    merged = {}
    for part in parts:
        for key, type_ in part.items():
            merged.setdefault(key, type_)
    return merged


class _Checked(Checked):
    """`check`'s result whose root type is converted only when read: converting a fencil's
    type converts every definition's, whatever the edit (measured at 100k nodes, chained
    definitions: 0.47 s of a one-node edit's 0.49 s before the parts were reused)."""

    def __init__(self, root: int, types: NodeTypes) -> None:
        self._root, self.types, self.errors = root, types, []

    @property
    def type(self) -> Inferred | None:  # type: ignore[override]  # read-only, as results are read
        return self.types[self._root]
