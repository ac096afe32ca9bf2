"""Re-inference in proportion to the edit, for compiler passes: `Reinference` keeps what the
last inference of a fencil found and, given the fencil a pass made of it (sharing the subtrees
it left alone, by identity), infers again only the function definitions the edit can have
changed. The result is `check`'s, node for node (docs/architecture.md, "Incremental
re-inference", says why; docs/api.md shows a pass using it)."""

from __future__ import annotations

from dataclasses import dataclass, field

from iterir import FencilDefinition, FunctionDefinition, Node
from iterir.gcpause import gc_paused
from iterir.symbols import BindingKind
from typeinf.collect import Inference
from typeinf.convert import to_value
from typeinf.errors import TypeInferenceError
from typeinf.infer import Checked, NodeTypes, Provider, _program_type, _provider, by_node, check
from typeinf.offsets import OffsetProvider
from typeinf.schemes import Scheme, Template
from typeinf.signatures import BUILTINS, Signature
from typeinf.sizes import check_node_types
from typeinf.terms import Cell, DefinitionType, Type

#: A definition's type with its relations, in the located notation (variables numbered in
#: order, so equal texts are equal types up to renaming).
TypeText = str
#: What a name a definition uses from outside itself named: a definition (its type's text) or
#: a builtin (its signature object: `register_builtin(…, replace=True)` makes another).
Named = TypeText | Signature


@dataclass
class _Entry:
    """What inferring one function definition found: the cells of its subtree (by offset from
    the definition's position), its generalized type, its type's text, what each name it uses
    from outside named when it was inferred, and the types read off its nodes (`typed`, filled
    once the run that made it has read them off)."""

    node: FunctionDefinition
    cells: list[Cell | None]
    template: Scheme | Template
    text: TypeText
    used: tuple[tuple[str, Named], ...]
    typed: list[Type | None] = field(default_factory=list)


@dataclass(frozen=True)
class Reused:
    """What the last `Reinference.check` did: the function definitions it took from the cache
    and those it inferred, by name in the order it typed them, and whether it had to check the
    whole fencil from scratch (`full`: a type error, or a root that is not a fencil)."""

    reused: tuple[str, ...] = ()
    inferred: tuple[str, ...] = ()
    full: bool = True


#: What a name a definition uses from outside itself can name (a free name is an error).
_OUTSIDE = frozenset((BindingKind.FUNCTION_DEFINITION, BindingKind.BUILTIN))


class _Reusing(Inference):
    """An inference that takes each function definition whose entry is still valid from
    `cache` instead of collecting it, and records an entry for each one it does collect."""

    def __init__(
        self, root: FencilDefinition, provider: OffsetProvider | None, cache: dict[int, _Entry]
    ) -> None:
        self.cache, self.entries = cache, dict[int, _Entry]()
        self.reused: list[str] = []
        self.inferred: list[str] = []
        self.texts: dict[str, TypeText] = {}  # definitions typed so far, by name
        self.taken: dict[int, _Entry] = {}  # definition position → the entry reused there
        self.made: dict[int, _Entry] = {}  # definition position → the entry made there
        super().__init__(root, provider)

    def _collect_part(self, start: int) -> None:
        node = self.nodes[start]
        if not isinstance(node, FunctionDefinition):
            super()._collect_part(start)
            return
        entry = self.cache.get(id(node))
        if entry is not None and entry.node is node and self._still_valid(entry):
            self.types[start : start + len(entry.cells)] = entry.cells
            self.taken[start] = entry
            self.reused.append(node.id)
            return
        super()._collect_part(start)
        self.inferred.append(node.id)

    def _still_valid(self, entry: _Entry) -> bool:
        """Whether every name the definition used from outside names what it did: the same
        builtin, or a definition whose type is the same up to renaming. A name that names a
        definition now is typed already: the order puts a definition's dependencies first."""
        return all(self._named(name) == named for name, named in entry.used)

    def _named(self, name: str) -> Named:
        """What `name`, used by a definition from outside itself, names now."""
        text = self.texts.get(name)
        return BUILTINS[name] if text is None else text

    def _generalize(self, position: int) -> None:
        node = self.nodes[position]
        assert isinstance(node, FunctionDefinition)  # only definitions are generalized
        entry = self.taken.get(position)
        if entry is not None:
            self.solver.schemes[position] = entry.template
        else:
            super()._generalize(position)
            entry = self.made[position] = self._entry(position, node)
        self.texts[node.id] = entry.text
        self.entries[id(node)] = entry

    def _entry(self, position: int, node: FunctionDefinition) -> _Entry:
        """The entry of the definition just generalized at `position`."""
        size = self.sizes[position]
        template = self.solver.schemes[position]
        definition = DefinitionType(node.id, self.type_at(position), template.relations)
        bindings, nodes = self.symbols.bindings, self.nodes
        names = {
            nodes[p].id  # type: ignore[attr-defined]  # a binding's node is a SymRef
            for p in range(position, position + size)
            if p in bindings and bindings[p].kind in _OUTSIDE
        }
        used = tuple((name, self._named(name)) for name in sorted(names))
        cells = self.types[position : position + size]
        return _Entry(node, cells, template, format(to_value(definition), "located"), used)

    def read_off(self) -> tuple[dict[int, Type], list[Node]]:
        """Every node's type (as `infer.by_node` gives them) and the nodes not taken from the
        cache. A reused definition's types were read off, and found printable, by the run that
        made its entry: they are taken as they are (measured at 100k nodes, chained
        definitions, a one-node edit: 1.16 s with all read off and measured again, 0.62 s)."""
        types: list[Type | None] = list(self.types)
        fresh: list[int] = []  # the positions outside reused definitions, in pre-order
        start = 0
        for reused in sorted(self.taken):
            fresh.extend(range(start, reused))
            start = reused + len(self.taken[reused].cells)
            types[reused:start] = self.taken[reused].typed
        fresh.extend(range(start, len(types)))
        for position in reversed(fresh):
            types[position] = _program_type(self, position, types)
        for position, entry in self.made.items():
            entry.typed = types[position : position + len(entry.cells)]
        nodes = self.nodes
        return by_node(nodes, types), [nodes[p] for p in fresh]


@dataclass
class Reinference:
    """Types a fencil, then each fencil a pass makes of it, reusing what is still valid.

    `check(root)` gives what `typeinf.check(root, offset_provider)` gives: the root's type,
    every node's (numbered together, in pre-order), every independent error. The cache keeps
    the entries of the last root's function definitions only."""

    offset_provider: Provider = None
    #: What the last `check` reused and inferred.
    last: Reused = field(default_factory=Reused)
    _cache: dict[int, _Entry] = field(default_factory=dict, repr=False)

    def check(self, root: Node) -> Checked:
        """Every node's type and every error of `root`, as `typeinf.check` gives them."""
        if isinstance(root, FencilDefinition):
            with gc_paused():
                checked = self._incremental(root)
            if checked is not None:
                return checked
        self.last = Reused()
        return check(root, self.offset_provider)

    def _incremental(self, root: FencilDefinition) -> Checked | None:
        """The incremental run's result, or None if it met an error (which a full `check`
        then reports, with its reasons)."""
        try:
            inference = _Reusing(root, _provider(self.offset_provider), self._cache)
        except TypeInferenceError:
            return None
        types, fresh = inference.read_off()
        if check_node_types(fresh, types) is not None:
            return None
        self._cache = inference.entries
        self.last = Reused(tuple(inference.reused), tuple(inference.inferred), full=False)
        values = NodeTypes(types)
        return Checked(values[id(root)], values, [])
