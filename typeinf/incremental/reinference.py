"""Re-inference in proportion to the edit, for compiler passes: `Reinference` keeps what the
last inference of a fencil (or GTIR program, `incremental.gtir`) found and, given the one a
pass made of it (sharing the subtrees it left alone, by identity), numbers, resolves, infers
and reads off again only the parts the edit can have changed, and patches the rest of what it
keeps. The result is `check`'s, node for node (docs/architecture.md, "Incremental
re-inference", says why; docs/api.md shows a pass using it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import chain

from iterir import FencilDefinition, FunctionDefinition, Node
from iterir.gcpause import gc_paused
from iterir.nodes import Program
from iterir.symbols import Binding, BindingKind
from iterir.traversal import MOST_NODES
from typeinf.core.errors import TypeInferenceError
from typeinf.core.offsets import OffsetProvider, read_offsets
from typeinf.core.schemes import Scheme, Template
from typeinf.core.terms import Cell, DefinitionType, FencilType, Type
from typeinf.core.type_map import TypeMap
from typeinf.fencil.convert import to_value
from typeinf.fencil.infer import NodeTypes, by_node
from typeinf.fencil.signatures import BUILTINS
from typeinf.fencil.values import Inferred
from typeinf.gtir.infer import OffsetTypes
from typeinf.incremental.definition_reuse import Dependencies, Meanings, dependencies, in_order
from typeinf.incremental.gtir import GtirState, reinfer
from typeinf.incremental.part_layout import BUILTIN, Layout, Unsupported, lay_out, printable, slot
from typeinf.incremental.part_trees import PartTree, fits, part_tree
from typeinf.infer import Checked, Provider, Result, checked_read

#: A definition's type as a value (variables numbered in the order the located notation
#: numbers them, so equal values are equal types up to renaming), or in the located notation
#: when it is subject to relations (whose values name their rule, not all of what it says).
Signature = Inferred | str


@dataclass
class _Entry:
    """What inferring one function definition found: its numbered and resolved tree, its
    generalized type (`template`, with its open relations; `definition`, as the fencil's type
    holds it; `signature`, to compare) and the types read off its nodes, by `id(node)`."""

    tree: PartTree
    template: Scheme | Template
    definition: DefinitionType
    signature: Signature
    typed: Part


@dataclass(frozen=True)
class Reused:
    """What the last `Reinference.check` did: the function definitions it took from the cache
    and those it inferred, by name in source order, and whether it had to check the whole
    program from scratch (`full`: a type error, or a root that is neither a fencil nor a GTIR
    program)."""

    reused: tuple[str, ...] = ()
    inferred: tuple[str, ...] = ()
    full: bool = True


@dataclass
class _State:
    """What the last incremental run found, for the next one to patch: the fencil, each
    definition's entry by name, the definitions' order and users, what each name they take
    from outside meant, what typing the closures found and the map of node types."""

    root: FencilDefinition
    entries: dict[str, _Entry]
    known: Dependencies
    meanings: Meanings
    closures: _Closures
    types: TypeMap[Type]
    size: int  # how many nodes the definitions hold


@dataclass(frozen=True)
class _Closures:
    """What typing a fencil's closures found: the parameters' cells, the parameters' types
    and each closure's (parts of the map of node types), the closures' trees, and the names
    they take from outside."""

    params: list[Cell]
    parts: list[Part]
    trees: list[PartTree]
    names: frozenset[str]


#: One part's types by `id(node)`.
Part = dict[int, Type]

_DEFINITION, _FENCIL_PARAMETER = BindingKind.FUNCTION_DEFINITION, BindingKind.FENCIL_PARAMETER


@dataclass
class Reinference:
    """Types a fencil or a GTIR program, then each one a pass makes of it, reusing what is
    still valid.

    `check(root)` gives what `typeinf.check(root, offset_provider)` gives: the root's type
    (a fencil's converted when first read, as every node's), every node's (numbered together,
    in pre-order), every independent error. The context keeps what the last root's parts need
    (one fencil's and one GTIR program's)."""

    offset_provider: Provider = None
    #: What the last `check` reused and inferred.
    last: Reused = field(default_factory=Reused)
    _state: _State | None = field(default=None, repr=False)
    _gtir_state: GtirState | None = field(default=None, repr=False)

    def check(self, root: Node) -> Checked:
        """Every node's type and every error of `root`, as `typeinf.check` gives them."""
        offsets = read_offsets(self.offset_provider)  # once, for this run and a full check
        with gc_paused():
            try:
                if isinstance(root, FencilDefinition):  # the fencil IR's (`dialect.decide`)
                    return _Run(self, root, offsets.fencil).result()
                if isinstance(root, Program):
                    return self._gtir(root, offsets.gtir)
            except (Unsupported, TypeInferenceError):
                pass  # reported, with every error and its reasons, by a full check
        self.last = Reused()
        return checked_read(root, offsets)

    def _gtir(self, root: Program, offsets: OffsetTypes) -> Checked:
        """A GTIR program's re-inference (`incremental.gtir`)."""
        program, types, state, inferred = reinfer(root, offsets, self._gtir_state)
        self._gtir_state = state
        names = [d.id for d in root.function_definitions]
        again = set(inferred)
        self.last = Reused(
            tuple(n for n in names if n not in again), tuple(n for n in names if n in again), False
        )
        return Checked(program, types, [])


class _Run:
    """One incremental run: what it inferred again, laid out in `layout`."""

    def __init__(
        self, context: Reinference, root: FencilDefinition, provider: OffsetProvider | None
    ) -> None:
        if not fits(root):
            raise Unsupported
        self.context, self.root, self.old = context, root, context._state
        self.definitions = {d.id: d for d in root.function_definitions}
        if len(self.definitions) != len(root.function_definitions) or len(
            {p.id for p in root.params}
        ) != len(root.params):
            raise Unsupported  # a name declared twice
        self.layout = Layout(root, provider)
        self.positions: dict[str, int] = {}  # definition name → its position in `layout`
        self.entries: dict[str, _Entry] = {}  # the definitions inferred again
        self.params: dict[str, Binding] = {}  # a fencil parameter's, by name, in closures
        self.param_cells: list[Cell] = []
        self.retyped: set[str] = set()  # the definitions whose type changed
        self.valid: Mapping[str, _Entry] = {}  # the entries that stand for definitions

    def result(self) -> Checked:
        """Infer again what the edit can have changed; the result, the context updated."""
        old, root = self.old, self.root
        replaced = self._replaced()
        if old is not None and replaced is not None:
            state = self._patched(old, replaced)
        else:
            state = self._made()
        self.context._state = state
        again = self.entries
        self.context.last = Reused(
            tuple(name for name in self.definitions if name not in again),
            tuple(name for name in self.definitions if name in again),
            full=False,
        )
        return _Checked(id(root), NodeTypes(state.types))

    # -- which definitions to infer again ---------------------------------------------------------
    def _replaced(self) -> list[int] | None:
        """The indices of the definitions the edit replaced, when it changed neither which
        definitions there are nor which use which (the order and the users then stay)."""
        old = self.old
        if old is None:
            return None
        before, now = old.root.function_definitions, self.root.function_definitions
        if len(before) != len(now) or old.root.params != self.root.params:
            return None
        replaced = [i for i, (a, b) in enumerate(zip(before, now, strict=True)) if a is not b]
        for i in replaced:
            name = now[i].id
            if name != before[i].id:
                return None
            uses = self._tree(now[i]).outside
            if _definitions_used(uses, self.definitions) != _definitions_used(
                old.entries[name].tree.outside, self.definitions
            ):
                return None
        return replaced

    def _patched(self, old: _State, replaced: list[int]) -> _State:
        """The run when the definitions are those of the last root but the replaced ones:
        the order, the users and the map of types are the last run's, patched."""
        now = self.root.function_definitions
        meanings = old.meanings.copy()
        redo = {now[i].id for i in replaced}
        meant = meanings.changed(self.definitions, BUILTINS.get, same=True)
        self._infer(old.known, old.entries, redo, meant, meanings)
        closures = self._closures(old, meant)
        entries = {**old.entries, **self.entries}
        users = dict(old.known.users)  # the sets of the names whose users changed are made anew
        for i in replaced:
            name = now[i].id
            before, after = old.entries[name].tree.outside, entries[name].tree.outside
            for used in before.keys() - after.keys():
                users[used] = users[used] - {name}
            for used in after.keys() - before.keys():
                users[used] = users.get(used, set()) | {name}
        size = old.size + sum(
            len(entries[now[i].id].tree.nodes) - len(old.entries[now[i].id].tree.nodes)
            for i in replaced
        )
        _fits(size, closures)
        index = {d.id: i for i, d in enumerate(now)} if self.entries else {}
        parts = list(old.types.parts)
        parts[0] = self._fencil_part(entries, self._patched_definitions(old, index))
        changed = {0}
        if closures is not old.closures:
            changed.update(range(len(now) + 1, max(len(parts), len(now) + 1 + len(closures.parts))))
        for name, entry in self.entries.items():
            parts[index[name] + 1] = entry.typed
            changed.add(index[name] + 1)
        parts[len(now) + 1 :] = closures.parts
        types = old.types.patched(parts, changed)
        known = Dependencies(old.known.rank, users)
        return _State(self.root, entries, known, meanings, closures, types, size)

    def _made(self) -> _State:
        """The run when the definitions changed more than in place: order and users again."""
        old = self.old
        trees = {name: self._tree(d) for name, d in self.definitions.items()}
        known = dependencies(trees)
        cached = {} if old is None else old.entries
        valid = {
            name: entry
            for name, entry in cached.items()
            if name in trees and entry.tree is trees[name]
        }
        meanings = Meanings({}, {}) if old is None else old.meanings.copy()
        changed = meanings.changed(trees, BUILTINS.get, same=False)
        meanings.texts = {n: t for n, t in meanings.texts.items() if n in trees}
        redo = {name for name in trees if name not in valid}
        self._infer(known, valid, redo, changed, meanings)
        entries = {name: self.entries.get(name) or valid[name] for name in self.definitions}
        size = sum(len(tree.nodes) for tree in trees.values())
        closures = self._closures(old, changed)
        _fits(size, closures)
        parts = [
            self._fencil_part(
                entries, [entries[d.id].definition for d in self.root.function_definitions]
            ),
            *(entries[d.id].typed for d in self.root.function_definitions),
            *closures.parts,
        ]
        return _State(self.root, entries, known, meanings, closures, TypeMap.made(parts), size)

    def _infer(
        self,
        known: Dependencies,
        valid: Mapping[str, _Entry],
        redo: set[str],
        changed: set[str],
        meanings: Meanings,
    ) -> None:
        """Infer again the definitions `definition_reuse.in_order` says; `valid` are the
        entries that stand for the others; `named` is updated."""
        self.valid = valid
        layout = self.layout

        def infer(name: str) -> bool:
            tree = self._tree(self.definitions[name])
            position = self.positions[name] = lay_out(layout, tree, self._in_definition)
            layout.type_part(position, definition=True)
            layout.check_finite(position)
            entry = self.entries[name] = _entry(layout, position, tree)
            meanings.builtins.update(
                (n, BUILTINS.get(n)) for n in tree.outside if n not in self.definitions
            )
            if meanings.texts.get(name) == entry.signature:
                return False
            meanings.texts[name] = entry.signature
            self.retyped.add(name)
            return True

        in_order(known, redo, changed, self.definitions, infer)

    # -- what names name --------------------------------------------------------------------------
    def _in_definition(self, name: str) -> Binding:
        """What `name`, taken from outside a definition, names: a definition (inferred again,
        or a slot with its entry's scheme), else a builtin."""
        definition = self.definitions.get(name)
        if definition is None:
            if name not in BUILTINS:
                raise Unsupported  # a free name: an error, which a full check reports
            return BUILTIN
        position = self.positions.get(name)
        if position is None:
            position = self.positions[name] = slot(self.layout, definition)
            self.layout.solver.schemes[position] = self.valid[name].template
        return Binding(_DEFINITION, definition, position)

    def _in_closure(self, name: str) -> Binding:
        """What `name`, taken from outside a closure, names: a parameter of the fencil, else
        as in a definition."""
        return self.params.get(name) or self._in_definition(name)

    # -- parts ------------------------------------------------------------------------------------
    def _tree(self, definition: FunctionDefinition) -> PartTree:
        """The definition numbered and resolved: its entry's tree, or made now."""
        old = self.old
        entry = None if old is None else old.entries.get(definition.id)
        if entry is not None and entry.tree.node is definition:
            return entry.tree
        return _made(definition)

    def _closures(self, old: _State | None, meant: set[str]) -> _Closures:
        """What typing the closures finds: the last run's if the closures and parameters are
        the same nodes and no name they take from outside changed meaning (typing them is a
        function of those alone, and a fencil of many closures would otherwise type them all
        again for an edit of a definition: docs/performance.md, "Incremental re-inference");
        else typed again, in order (closures unify into the parameters' types one after
        another)."""
        layout, root = self.layout, self.root
        if old is not None and self._closures_kept(old, meant):
            self.param_cells = old.closures.params
            return old.closures
        first = len(layout.nodes)  # from here on, this run's parameters and closures
        slots = [slot(layout, sym) for sym in root.params]
        self.params = {
            sym.id: Binding(_FENCIL_PARAMETER, sym, position)
            for sym, position in zip(root.params, slots, strict=True)
        }
        self.param_cells = [layout.decl(position) for position in slots]
        kept = {} if old is None else {id(t.node): t for t in old.closures.trees}
        trees = []
        for closure in root.closures:
            tree = kept.get(id(closure))
            trees.append(tree if tree is not None and tree.node is closure else _made(closure))
        starts = [lay_out(layout, tree, self._in_closure) for tree in trees]
        for start in starts:
            layout.type_part(start, definition=False)
        layout.check_finite(first)
        params = by_node(list(root.params), self.param_cells)
        closures = [layout.read_off(s, t) for s, t in zip(starts, trees, strict=True)]
        printable(
            chain.from_iterable(t.nodes for t in trees),
            {k: v for c in closures for k, v in c.items()},
        )
        names = frozenset(chain.from_iterable(t.outside for t in trees))
        return _Closures(self.param_cells, [params, *closures], trees, names)

    def _closures_kept(self, old: _State, meant: set[str]) -> bool:
        """Whether the last run's closures stand: the same closure and parameter nodes, and
        none of the names they take from outside changed meaning or type."""
        before, now = old.root, self.root
        return (
            _same(before.closures, now.closures)
            and _same(before.params, now.params)
            and old.closures.names.isdisjoint(meant)
            and old.closures.names.isdisjoint(self.retyped)
        )

    def _patched_definitions(self, old: _State, index: Mapping[str, int]) -> list[DefinitionType]:
        """The definitions' types as the fencil's type holds them: the last one's, but for
        those inferred again, not all made again (docs/performance.md, "Incremental
        re-inference")."""
        fencil = old.types.parts[0][id(old.root)]
        assert isinstance(fencil, FencilType)  # the first part is the fencil's type
        definitions = list(fencil.definitions)
        for name, entry in self.entries.items():
            definitions[index[name]] = entry.definition
        return definitions

    def _fencil_part(
        self, entries: Mapping[str, _Entry], definitions: list[DefinitionType]
    ) -> Part:
        """The fencil's own type, in a part of its own."""
        root = self.root
        return {id(root): FencilType(root.id, tuple(definitions), tuple(self.param_cells))}


def _same(before: tuple[Node, ...], now: tuple[Node, ...]) -> bool:
    """Whether two tuples hold the same node objects."""
    return len(before) == len(now) and all(a is b for a, b in zip(before, now, strict=True))


def _fits(size: int, closures: _Closures) -> None:
    """Raise `Unsupported` past the occurrences a fencil may have (said by a full check)."""
    if size + sum(len(tree.nodes) for tree in closures.trees) >= MOST_NODES:
        raise Unsupported


def _definitions_used(outside: Mapping[str, object], definitions: Mapping[str, object]) -> set[str]:
    return {name for name in outside if name in definitions}


def _entry(layout: Layout, position: int, tree: PartTree) -> _Entry:
    """The entry of the definition just inferred and generalized at `position`."""
    typed = layout.read_off(position, tree)
    printable(tree.nodes, typed)
    definition = typed[id(tree.node)]
    assert isinstance(definition, DefinitionType)  # what `read_off` gives a definition
    value = to_value(definition)
    # A value, compared as it is, rather than its text: printing every re-inferred
    # definition's type was a large part of re-inferring a chain (docs/performance.md,
    # "Incremental re-inference").
    signature = format(value, "located") if definition.relations else value
    return _Entry(tree, layout.solver.schemes[position], definition, signature, typed)


def _made(part: Node) -> PartTree:
    tree = part_tree(part)
    if tree is None:
        raise Unsupported  # a malformed part: said by a full check
    return tree


class _Checked(Checked):
    """`check`'s result whose root type is converted only when read: converting a fencil's
    type converts every definition's, whatever the edit, which would be most of a one-node
    edit's cost (docs/performance.md, "Incremental re-inference")."""

    def __init__(self, root: int, types: NodeTypes) -> None:
        self._root, self.types, self.errors = root, types, []

    @property
    def type(self) -> Result | None:  # type: ignore[override]  # read-only, as results are read
        return self.types[self._root]
