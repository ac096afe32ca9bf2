"""Re-inference of a GTIR `Program` after an edit, behind `typeinf.Reinference`: its function
definitions are the cached unit, as a fencil's (`definition_reuse` says which to type again);
its parameters, temporaries and statements (`SetAt`, `IfStmt`) unify into shared types one
after another, as a fencil's closures do, so they are typed again each time, each numbered
and resolved once (docs/architecture.md, "Incremental re-inference")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from iterir import FunctionDefinition, Node, Sym
from iterir.nodes import Program, Temporary
from iterir.symbols import Binding, BindingKind, SymbolTable
from iterir.traversal import MOST_NODES
from iterir.vocabulary import GTIR_BUILTINS
from typeinf.core.schemes import Scheme
from typeinf.core.type_map import TypeMap
from typeinf.gtir.collect import GtirInference
from typeinf.gtir.infer import (
    GtirDefinition,
    GtirInferred,
    GtirNodeTypes,
    GtirProgram,
    OffsetTypes,
    program_of,
    read_off,
)
from typeinf.incremental.definition_reuse import Meanings, dependencies, in_order
from typeinf.incremental.part_layout import BUILTIN, Unsupported, lay_out, slot
from typeinf.incremental.part_trees import PartTree, fits, part_tree

Part = dict[int, GtirInferred]

_FREE = Binding(BindingKind.FREE)  # typed by its own annotation, or an error


@dataclass
class Entry:
    """What typing one GTIR function definition found: its tree, its scheme, its type (with
    the text that says it up to renaming) and its nodes' types."""

    tree: PartTree
    scheme: Scheme
    definition: GtirDefinition
    typed: Part


@dataclass
class GtirState:
    """What the last run kept: each definition's entry by name, what the names they take
    from outside meant, and every other part's tree by node."""

    entries: dict[str, Entry]
    meanings: Meanings
    trees: dict[int, PartTree]


class _GtirLayout(GtirInference):
    """A GTIR inference over the parts laid out."""

    def __init__(self, root: Program, offsets: OffsetTypes) -> None:
        self._start(root, ([], []), SymbolTable([], {}), offsets, 1)


def reinfer(
    root: Program, offsets: OffsetTypes, state: GtirState | None
) -> tuple[GtirProgram, GtirNodeTypes, GtirState, tuple[str, ...]]:
    """`root`'s type and every node's, as `typeinf.check` gives them for a program without
    errors, typing again only what an edit of the program `state` was kept for can have
    changed; the state to keep, and the definitions typed again. Raises what it leaves to a
    full check (`Unsupported`, a type error)."""
    return _GtirRun(root, offsets, state).result()


class _GtirRun:
    def __init__(self, root: Program, offsets: OffsetTypes, state: GtirState | None) -> None:
        if not fits(root):
            raise Unsupported
        self.root, self.old = root, state
        self.definitions = {d.id: d for d in root.function_definitions}
        declared: list[Sym | Temporary] = [*root.params, *root.declarations]
        if len(self.definitions) != len(root.function_definitions) or len(
            {d.id for d in declared}
        ) != len(declared):
            raise Unsupported  # a name declared twice: a full check reports it
        self.layout = _GtirLayout(root, offsets)
        self.positions: dict[str, int] = {}  # definition name → its position in `layout`
        self.entries: dict[str, Entry] = {}  # the definitions typed again
        self.valid: Mapping[str, Entry] = {}
        self.declarations: dict[str, Binding] = {}  # parameters and temporaries, by name

    def result(self) -> tuple[GtirProgram, GtirNodeTypes, GtirState, tuple[str, ...]]:
        root, old = self.root, self.old
        cached = {} if old is None else old.entries
        trees = {name: self._tree(d, cached) for name, d in self.definitions.items()}
        known = dependencies(trees)
        self.valid = {n: e for n, e in cached.items() if n in trees and e.tree is trees[n]}
        meanings = Meanings({}, {}) if old is None else old.meanings.copy()
        changed = meanings.changed(trees, GTIR_BUILTINS.__contains__, same=False)
        meanings.texts = {n: t for n, t in meanings.texts.items() if n in trees}
        redo = {name for name in trees if name not in self.valid}
        in_order(known, redo, changed, self.definitions, lambda n: self._infer(n, meanings))
        entries = {name: self.entries.get(name) or self.valid[name] for name in trees}
        kept = {} if old is None else old.trees
        others = [_kept(part, kept) for part in root.children()[len(trees) :]]
        if sum(len(t.nodes) for t in (*trees.values(), *others)) >= MOST_NODES:
            raise Unsupported  # more occurrences than a program may have: a full check says so
        starts = self._statements(others)
        typed: list[Part] = [{}, *(entries[d.id].typed for d in root.function_definitions)]
        for start, tree in zip(starts, others, strict=True):
            part: Part = {}
            read_off(self.layout, range(start, start + len(tree.nodes)), part)
            typed.append(part)
        params = starts[: len(root.params)]
        program = program_of(
            root.id,
            tuple(entries[d.id].definition for d in root.function_definitions),
            [self.layout.type_at(p) for p in params],
            self.layout.solver.in_order(),
        )
        typed[0] = {id(root): program}
        types = GtirNodeTypes(TypeMap.made(typed).types)
        state = GtirState(entries, meanings, {id(t.node): t for t in others})
        return program, types, state, tuple(n for n in trees if n in self.entries)

    def _tree(self, definition: FunctionDefinition, cached: Mapping[str, Entry]) -> PartTree:
        entry = cached.get(definition.id)
        if entry is not None and entry.tree.node is definition:
            return entry.tree
        return _made(definition)

    def _infer(self, name: str, meanings: Meanings) -> bool:
        """Type the definition `name` again; whether its type changed."""
        layout, definition = self.layout, self.definitions[name]
        tree = self._tree(definition, self.valid)
        position = self.positions[name] = lay_out(layout, tree, self._in_definition)
        layout._definition(position)
        typed: Part = {}
        read_off(layout, range(position, position + len(tree.nodes)), typed)
        gtir_definition = typed[id(definition)]
        assert isinstance(gtir_definition, GtirDefinition)  # a definition's, with its scheme
        scheme = layout.schemes[position]
        assert isinstance(scheme, Scheme)  # generalized: only the drop-in types one `Shared`
        entry = Entry(tree, scheme, gtir_definition, typed)
        self.entries[name] = entry
        meanings.builtins.update(
            (n, n in GTIR_BUILTINS) for n in tree.outside if n not in self.definitions
        )
        if meanings.texts.get(name) == gtir_definition.text:
            return False
        meanings.texts[name] = gtir_definition.text
        return True

    def _in_definition(self, name: str) -> Binding:
        """What `name`, taken from outside a definition, names: a definition (typed again, or
        a slot with its entry's scheme), a builtin, or nothing (typed by its annotation)."""
        definition = self.definitions.get(name)
        if definition is None:
            return BUILTIN if name in GTIR_BUILTINS else _FREE
        position = self.positions.get(name)
        if position is None:
            position = self.positions[name] = slot(self.layout, definition)
            self.layout.schemes[position] = self.valid[name].scheme
        return Binding(BindingKind.FUNCTION_DEFINITION, definition, position)

    def _in_statement(self, name: str) -> Binding:
        """What `name`, taken from outside a temporary or statement, names: a parameter or a
        temporary, else as in a definition."""
        return self.declarations.get(name) or self._in_definition(name)

    def _statements(self, trees: list[PartTree]) -> list[int]:
        """Lay out and type the parameters, temporaries and statements in order; their
        starts. Parameters and temporaries are visible from every temporary and statement:
        their positions are known before any is laid out."""
        root, layout = self.root, self.layout
        names = {p.id for p in root.params} | {t.id for t in root.declarations}
        for tree in trees:  # the slots of the definitions they use first, before their starts
            for name in tree.outside.keys() - names:
                self._in_definition(name)
        start = len(layout.nodes)
        starts = []
        for tree in trees:
            starts.append(start)
            start += len(tree.nodes)
        declared = len(root.params) + len(root.declarations)
        kinds = [BindingKind.PROGRAM_PARAMETER] * len(root.params)
        kinds += [BindingKind.TEMPORARY] * len(root.declarations)
        for tree, at, kind in zip(trees[:declared], starts[:declared], kinds, strict=True):
            node = tree.node
            assert isinstance(node, (Sym, Temporary))  # the program's declarations
            self.declarations[node.id] = Binding(kind, node, at)
        for tree in trees:
            lay_out(layout, tree, self._in_statement)
        for at in starts:
            layout._statement(at)
        return starts


def _kept(part: Node, kept: Mapping[int, PartTree]) -> PartTree:
    tree = kept.get(id(part))
    return tree if tree is not None and tree.node is part else _made(part)


def _made(part: Node) -> PartTree:
    tree = part_tree(part, GTIR_BUILTINS)
    if tree is None:
        raise Unsupported  # a malformed part: said by a full check
    return tree
