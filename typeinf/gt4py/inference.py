"""Drop-ins for GT4Py 1.2.3's type inference (`gt4py.next.iterator.type_system.inference`):
`infer` and `reinfer`, with GT4Py's signatures and what GT4Py's passes read afterwards.

Each converts GT4Py's tree to ours (`typeinf.gt4py.nodes`), types it with our GTIR inference
(`typeinf.gtir.collect`) and writes the types back on GT4Py's nodes as GT4Py's own inference
leaves them (facts read from GT4Py 1.2.3's sources):

- `infer` returns a copy, one node per occurrence (GT4Py rebuilds the tree to clear stale types,
  and copies it unless `inplace`), keeping `Literal.type`, `Sym.type`, the `type` of a name
  declared nowhere in the tree and the `domain` annex; every other `type` is cleared, then set
  on every expression, on a lambda's parameters, on a function definition that is used (the
  type of its use, GT4Py's being monomorphic), on a temporary (its field) and on the program
  (`ProgramType` of its parameters). GT4Py leaves untyped, and so do we: a reference to a
  builtin, a statement (`SetAt`, `IfStmt`), a function definition's parameters, and a function
  definition nobody uses (with its body). The types are GT4Py's classes (`typeinf.gt4py.cells`),
  `DeferredType` where nothing is known.
- `reinfer` types a partly typed node in place, leaving what is typed as it is: a typed call
  stands in our tree as a name of its given type, so its subtree is not walked again.

A type error is a `GT4PyTypeInferenceError`: our located error, and an `AssertionError`, which
is what GT4Py's inference raises (its callers and tests expect that class).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from functools import partial
from typing import Any, NamedTuple, TypeVar, cast

from gt4py.next import common
from gt4py.next.iterator import ir
from gt4py.next.iterator.type_system import type_specifications as it_ts
from gt4py.next.type_system import type_specifications as ts

from iterir import gtir_types as gt
from iterir.gcpause import gc_paused
from iterir.nodes import (
    FIELD_KINDS,
    FunCall,
    FunctionDefinition,
    IfStmt,
    Lambda,
    Literal,
    Node,
    Program,
    SetAt,
    Sym,
    SymRef,
)
from iterir.offset_types import OffsetType
from iterir.symbols import BindingKind
from typeinf.core.errors import TypeInferenceError
from typeinf.core.offsets import read_offsets
from typeinf.core.terms import Mismatch
from typeinf.core.unify import Trail, unify
from typeinf.gt4py.cells import ToGT4Py
from typeinf.gt4py.errors import ConversionError
from typeinf.gt4py.nodes import ANNEX_IN_DICT, GT4PY_CLASSES, from_gt4py, location_from_gt4py
from typeinf.gt4py.offsets import offset_types_from_gt4py
from typeinf.gt4py.types import GT4PyObject, type_from_gt4py
from typeinf.gtir.collect import GT4PY_READING, GtirInference

T = TypeVar("T")

#: GT4Py's node classes that keep a symbol table in their annex (their copies get one: `_symbols`).
_WITH_SYMBOLS = (ir.Lambda, ir.FunctionDefinition, ir.Program)
#: The prefix of the names that stand for typed subtrees in `reinfer` (no GTIR name has it).
_GIVEN = "__typeinf_given_"


class GT4PyTypeInferenceError(TypeInferenceError, AssertionError):
    """A type error found by the drop-in: ours, located (GT4Py's location of the node when it
    has one), and an AssertionError like the errors of GT4Py's own inference."""

    def __init__(self, error: TypeInferenceError) -> None:
        super().__init__(
            error.message,
            error.node,
            summary=error.summary,
            details=error.details,
            notes=error.notes,
        )
        self._location = error.location

    @property
    def location(self) -> str:
        return self._location


def infer(
    node: T,
    *,
    offset_provider_type: Mapping[str, GT4PyObject] | None,
    inplace: bool = False,
    allow_undeclared_symbols: bool = False,
    reuse: Reuse | None = None,
) -> T:
    """GT4Py's `infer`: a typed copy of `node` (see the module's docstring). `inplace` changes
    nothing here: GT4Py's returns a rebuilt tree either way, and its callers use the result.

    `reuse` (ours, not GT4Py's): what this call may take from the earlier calls given the same
    `Reuse`, and leaves for the later ones; the types are the same with it or without it
    (None: nothing taken, nothing left). The drop-ins `install` puts in GT4Py have one."""
    del inplace  # GT4Py's signature; the result is always the rebuilt, typed tree
    with _UNCOLLECTED():
        originals: list[GT4PyObject] = []
        stand_ins = _StandIns(node, allow_undeclared_symbols, given=False)
        last = reuse.last if reuse is not None else None  # read once: see `Reuse`
        previous = last.inference.nodes if last is not None else ()
        ours = from_gt4py(node, stand_ins, originals, stand_ins.leave, previous)
        offsets = _offsets(offset_provider_type)
        if last is not None and last.inference.root is ours and last.offsets == offsets:
            typed = last  # `ours` is `last`'s tree itself: equal to it, spans included
        else:
            inference = _inferred(ours, offsets)
            typed = _Typed(offsets, inference, _types(inference))
            if reuse is not None:
                reuse.last = typed
        result: T = _rebuilt(originals, typed.types)
    return result


def reinfer(node: T, *, offset_provider_type: Mapping[str, GT4PyObject] | None = None) -> T:
    """GT4Py's `reinfer`: types the untyped nodes of `node` in place and returns it; a typed
    `node` is returned as it is."""
    if getattr(node, "type", None) is not None:
        return node
    with _UNCOLLECTED():
        originals: list[GT4PyObject] = []
        stand_ins = _StandIns(node, allow_undeclared=True, given=True)
        ours = from_gt4py(node, stand_ins, originals, stand_ins.leave)
        inference = _inferred(ours, _offsets(offset_provider_type))
        _annotate(_writes(inference, originals), originals)
    return node


class Reuse:
    """What a series of `infer` calls given it carries from one call to the next: the last
    inference that succeeded (`last`: of the last tree given, a program or an expression
    GT4Py's passes infer on its own), with its offsets and the types it left. The drop-ins of
    one `install` share one, which goes with them; a caller of `infer` may make its own.

    GT4Py's pass manager infers a program again after passes that changed nothing of what our
    inference reads. An inference is a function of our tree and the offsets, so a tree equal
    to `last`'s (values, children and source spans, so that an error cites this tree's places;
    told by `from_gt4py`, which gives `last`'s tree itself for an equal one) with equal offsets
    is given `last`'s inference and types again. A failing inference is not kept.

    Threads (GT4Py may infer in several): nothing `last` holds is changed once made, and a call
    reads `last` once and replaces it whole, so a call sees another's complete inference or
    none. Two threads' programs evict each other's (then a fresh inference, never a stale one:
    reuse needs an equal tree and equal offsets). What it saves:
    (docs/performance.md, "Against GT4Py inside its pass manager")."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last: _Typed | None = None


#: Python's cyclic collector paused during a call, as inference pauses it, but without moving
#: what the call made to the oldest generation (`age`: what stays is GT4Py's typed tree, which its
#: next pass replaces). A call makes a few objects per node that go by reference counting when it
#: returns; a collection in between walks GT4Py's whole heap, and moves them to older generations,
#: whose collections come sooner and walk more. The collector is the process's: while a call
#: runs, another thread's garbage waits for its end; calls overlapping in two threads may end
#: each other's pause early (a collection, no more), and the last to end leaves the collector on
#: if it was on before the first began (docs/performance.md, "Against GT4Py inside its pass
#: manager").
_UNCOLLECTED = partial(gc_paused, age=False)


class _StandIns:
    """What `from_gt4py` converts otherwise: a `Sym` that is no program parameter, without its
    type (GT4Py types a parameter from its uses, and only checks a given type's compatibility);
    each `SymRef` (its type, which GT4Py keeps only on names declared nowhere, as far as ours
    can read it: GT4Py may leave stale or constrained types there; an untyped one declared
    nowhere, when allowed, is of unknown type) and, when
    `given`, each typed call (a name of its type; a typed lambda is typed again: GT4Py reads
    a stencil's text to deduce an `as_fieldop`'s domain, so ours must see it too).

    A `SymRef` bound where it stands (by an enclosing lambda or function definition, or by the
    program: its function definitions everywhere, its parameters and temporaries outside its
    function definitions, as `iterir.symbols.resolve` binds them) keeps no type: our inference
    reads the type of a name declared nowhere only, and GT4Py's previous inference left one on
    most names. The scope is followed as `from_gt4py` enters (`__call__`) and leaves (`leave`)
    each node, so that the types GT4Py left are not converted for nothing
    (docs/performance.md, "Against GT4Py inside its pass manager")."""

    def __init__(self, root: GT4PyObject, allow_undeclared: bool, given: bool) -> None:
        self.allow_undeclared = allow_undeclared
        self.given = given
        self.count = 0
        self.params: set[int] = set()
        self.bound: dict[str, int] = {}  # name → how many scopes open here bind it
        self.program_names: list[str] = []  # bound outside the program's function definitions
        if type(root) is ir.Program:
            self.params = {id(p) for p in root.params}
            self.program_names = [s.id for s in (*root.params, *root.declarations)]
            self._bind([d.id for d in root.function_definitions], 1)
            self._bind(self.program_names, 1)

    def __call__(self, node: GT4PyObject) -> Node | None:
        cls = type(node)
        if cls is ir.SymRef:
            declared = node.type
            name = str(node.id)
            if declared is not None and name not in self.bound:
                return SymRef(name, _readable(declared), loc=_loc(node))
            unknown = declared is None and self.allow_undeclared
            return SymRef(name, gt.DeferredType() if unknown else None, loc=_loc(node))
        if cls is ir.Sym and node.type is not None and id(node) not in self.params:
            return Sym(str(node.id), loc=_loc(node))  # GT4Py types it from its uses
        if cls is ir.Lambda:
            self._bind([p.id for p in node.params], 1)
        elif cls is ir.FunctionDefinition:
            self._bind(self.program_names, -1)
            self._bind([p.id for p in node.params], 1)
        elif self.given and node.type is not None and cls is ir.FunCall:
            self.count += 1
            name = f"{_GIVEN}{self.count}"
            return SymRef(name, _lenient(_readable(node.type)), loc=_loc(node))
        return None

    def leave(self, node: GT4PyObject) -> None:
        """The end of `node`'s subtree: the names it bound are bound no more."""
        cls = type(node)
        if cls is ir.Lambda:
            self._bind([p.id for p in node.params], -1)
        elif cls is ir.FunctionDefinition:
            self._bind([p.id for p in node.params], -1)
            self._bind(self.program_names, 1)

    def _bind(self, names: list[str], change: int) -> None:
        bound = self.bound
        for name in names:
            count = bound.get(name, 0) + change
            if count:
                bound[name] = count
            else:
                del bound[name]


def _lenient(given: gt.GType) -> gt.GType:
    """A given function type as GT4Py checks the arguments of a call to it (compatible, not
    equal): an iterator defined nowhere takes an iterator defined anywhere."""
    if isinstance(given, gt.FunctionType):
        return gt.FunctionType(
            tuple(map(_lenient, given.pos_only_args)),
            given.pos_or_kw_args,
            given.kw_only_args,
            _lenient(given.returns),
        )
    if isinstance(given, gt.TupleType):
        return gt.TupleType(tuple(map(_lenient, given.types)))
    if isinstance(given, gt.IteratorType) and not given.defined_dims:
        anywhere: Any = "unknown"  # read as a fresh set of dimensions
        return gt.IteratorType(given.position_dims, anywhere, given.element_type)
    return given


def _loc(node: GT4PyObject) -> Any:
    return location_from_gt4py(node.location) if node.location is not None else None


def _readable(declared: GT4PyObject) -> gt.GType:
    """Our form of a type GT4Py left on a node; DeferredType where ours has none (a GT4Py
    form we do not convert, or a function with keyword parameters, which no GTIR term says)."""
    try:
        readable = type_from_gt4py(declared)
    except ConversionError:
        return gt.DeferredType()
    if isinstance(readable, gt.FunctionType) and (readable.pos_or_kw_args or readable.kw_only_args):
        return gt.DeferredType()
    return readable


def _offsets(provider: Mapping[str, GT4PyObject] | None) -> dict[str, OffsetType] | None:
    """Our offset types for GT4Py's, read once here as every way in reads an offset provider
    (`read_offsets`); None for no offset provider. An entry that is no offset-provider type
    (GT4Py's own tests pass a `FieldOffset` there) is left out, as GT4Py reads an entry only
    where the program shifts by it: such a shift is then our error."""
    known = (common.Dimension, common.NeighborConnectivityType)
    types = (
        None
        if provider is None
        else offset_types_from_gt4py({k: v for k, v in provider.items() if type(v) in known})
    )
    return read_offsets(types).gtir


def _inferred(ours: Node, offsets: dict[str, OffsetType] | None) -> GtirInference:
    """Our inference of `ours`; our errors as GT4PyTypeInferenceErrors."""
    try:
        inference = GtirInference(ours, offsets, reading=GT4PY_READING)
    except TypeInferenceError as error:
        raise GT4PyTypeInferenceError(error) from None
    _specialize_definitions(inference)
    return inference


class _Typed(NamedTuple):
    """An inference of `infer`'s, with the offsets it was given and the types it leaves on
    the copy (`_types`)."""

    offsets: dict[str, OffsetType] | None
    inference: GtirInference
    types: list[GT4PyObject]


def _specialize_definitions(inference: GtirInference) -> None:
    """Give each used function definition the type of its first use, as GT4Py's monomorphic
    inference does (its body's types with it); a definition used at other types (which GT4Py
    rejects and we generalize) keeps its general type.

    The definition's type is unified with its first use's instance, and its scheme's
    relations (over the definition's own cells, those of its body among them) are related
    again and settled: what they determine is what their copies determined at the use. Three
    things keep this second solve from costing as much as the first (most of a scheme's
    relations wait for good, and the solver fires every open relation at each `settle`):

    - a definition whose first use lies inside another definition comes after that one
      (`_specialization_order`), so that its use's types are final when it is specialized:
      the enclosing definition's specialization determined them (its scheme holds what the
      use's copies of the relations left open);
    - what is still open after a definition's `settle` is dropped (`forget`) before the
      next: those relations are over this definition's cells, joined with its use's, which
      are final, and the definitions after it join only their own cells to their uses',
      adding nothing there that their copies had not determined: firing them again at every
      later `settle` could determine nothing;
    - the relations are related last first: a relation made by a node inside another's
      (later in pre-order) determines what the enclosing one waits for, so that one `settle`
      pass finds them settled or waiting, rather than one pass per link of such a chain.

    (docs/performance.md, "Against GT4Py inside its pass manager".)"""
    for definition, use in _specialization_order(inference):
        trail: Trail = []
        try:
            unify(inference.type_at(definition), inference.type_at(use), trail)
            for relation in reversed(inference.schemes[definition].relations):
                inference.relate(relation, definition)
            inference.solver.settle()
        except (Mismatch, TypeInferenceError):
            pass
        inference.solver.forget()


def _specialization_order(inference: GtirInference) -> list[tuple[int, int]]:
    """Each used function definition's position with its first use's, a definition after the
    one its first use lies in (if any), else in source order."""
    uses: dict[int, int] = {}
    for position, (kind, _, declared) in inference.symbols.bindings.items():
        # One used once is typed at its use already (`GtirInference.used_once`).
        if (
            kind is BindingKind.FUNCTION_DEFINITION
            and declared is not None
            and declared not in inference.used_once
        ):
            uses.setdefault(declared, position)
    definitions = sorted(uses)
    sizes = inference.sizes
    inside: dict[int, int] = {}  # a definition → the definition its first use lies in
    for definition in definitions:
        use = uses[definition]
        at = bisect_right(definitions, use) - 1
        if at >= 0 and use < definitions[at] + sizes[definitions[at]]:
            inside[definition] = definitions[at]
    depths: dict[int, int] = {}
    for definition in definitions:  # how many definitions its first use lies in, nested
        chain = [definition]  # up to one whose depth is known, or that lies in none
        while chain[-1] not in depths and chain[-1] in inside:
            chain.append(inside[chain[-1]])
        top = chain.pop()
        depth = depths.setdefault(top, 0)
        for link in reversed(chain):
            depth += 1
            depths[link] = depth
    return [(d, uses[d]) for d in sorted(definitions, key=lambda d: (depths[d], d))]


def _rebuilt(originals: list[GT4PyObject], types: list[GT4PyObject]) -> GT4PyObject:
    """A copy of GT4Py's tree, one node per position (so per occurrence), with GT4Py's kept
    fields and `types` (`_types`: the type of each position's copy)."""
    built: list[GT4PyObject] = []  # made last position first: a node's first child on top
    for position in range(len(originals) - 1, -1, -1):
        original = originals[position]
        cls = type(original)
        # The fields as they are (not the annex), without GT4Py's validation, which a copy
        # of a valid node needs not; for a node with a symbol table, the table made here
        # (`_symbols`: what GT4Py's constructor would make, without its walk of the body);
        # the children taken by the class's list of child fields (`_CHILD_FIELDS`).
        copy = object.__new__(cls)
        fields = copy.__dict__
        fields.update(original.__dict__)
        if ANNEX_IN_DICT:  # GT4Py 1.2.1, 1.2.2: the original's annex, not the copy's
            fields.pop("__node_annex__", None)
        for field, several in _CHILD_FIELDS[cls]:
            if several:
                count = len(fields[field])
                taken = built[len(built) - count :]
                del built[len(built) - count :]
                taken.reverse()
                fields[field] = taken
            elif fields[field] is not None:
                fields[field] = built.pop()
        if cls in _WITH_SYMBOLS:
            copy.annex.symtable = _symbols(copy)
        annex = getattr(original, "__node_annex__", None)
        if annex is not None and hasattr(annex, "domain"):
            copy.annex.domain = annex.domain
        made = types[position]
        if made is _PROGRAM:
            copy.type = _program_type(copy)
        elif made is not _KEPT:
            fields["type"] = made
        built.append(copy)
    (root,) = built
    return root


#: GT4Py's fields that hold nodes, by class, in field order: (name, whether a list of them).
_CHILD_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {
    cls: tuple((f, kind == "nodes") for f, kind in FIELD_KINDS[name].items() if kind != "value")
    for name, cls in GT4PY_CLASSES.items()
}


def _symbols(node: GT4PyObject) -> dict[str, GT4PyObject]:
    """The symbol table GT4Py's constructor makes for a lambda, a function definition or a
    program: what each declares in its own scope, in field order (a program's builtins first,
    then its function definitions, parameters and temporaries)."""
    if type(node) is not ir.Program:
        return {p.id: p for p in node.params}
    table = {s.id: s for s in ir.Program._NODE_SYMBOLS_}
    for declared in (*node.function_definitions, *node.params, *node.declarations):
        table[declared.id] = declared
    return table


#: In `_types`: the copy keeps the original's type (a literal's, a parameter's, a name's
#: declared nowhere: what the caller said of it).
_KEPT = object()


def _types(inference: GtirInference) -> list[GT4PyObject]:
    """The type of `infer`'s copy of each node, by position: GT4Py's type object (`_writes`),
    None, `_KEPT` or `_PROGRAM`. A function of the inference alone, so made once for it and
    kept with it (`_Typed`: a reused inference is not converted again), and read as the copy
    is made (`_rebuilt`), rather than written on the copy afterwards (`_annotate`)
    (docs/performance.md, "Against GT4Py inside its pass manager")."""
    nodes = inference.nodes
    types: list[GT4PyObject] = [
        _KEPT if type(node) is Literal or type(node) is Sym else None for node in nodes
    ]
    for position, (kind, _, _) in inference.symbols.bindings.items():
        if kind is BindingKind.FREE or kind is BindingKind.BUILTIN:
            types[position] = _KEPT
    for position, made, lambdas in _writes(inference):
        types[position] = made
        if lambdas:  # its parameters, right after it in pre-order
            params = cast(Lambda, nodes[position]).params
            for offset, param_type in enumerate(made.pos_only_args[: len(params)]):
                types[position + 1 + offset] = param_type
    return types


#: What `_writes` says to write on one node: its position, GT4Py's type (`_PROGRAM`: the
#: program's, made from the copy's parameters) and whether it is a lambda's, whose parameters
#: get their types from it.
_Write = tuple[int, GT4PyObject, bool]
_PROGRAM = object()


def _program_type(program: GT4PyObject) -> GT4PyObject:
    """GT4Py's type of a program, as its inference makes it: of its parameters' types."""
    return it_ts.ProgramType(params={p.id: p.type for p in program.params})


def _writes(inference: GtirInference, given: list[GT4PyObject] | None = None) -> list[_Write]:
    """Our types as GT4Py's type objects (made by `ToGT4Py`) where GT4Py's inference sets
    them; with `given` (GT4Py's nodes by position: `reinfer`), only on the nodes it leaves
    untyped."""
    nodes, cells, sizes = inference.nodes, inference.types, inference.sizes
    bindings = inference.symbols.bindings
    used = {d for kind, _, d in bindings.values() if kind is BindingKind.FUNCTION_DEFINITION}
    convert = ToGT4Py()
    writes: list[_Write] = []
    position, end = 0, len(nodes)
    while position < end:
        ours, cell = nodes[position], cells[position]
        cls = type(ours)
        step = position + 1
        if given is not None and given[position].type is not None:
            pass
        elif cls is FunCall or cls is Lambda:
            if cell is not None:
                writes.append((position, convert.type(cell), cls is Lambda))
            elif position and type(nodes[position - 1]) is FunCall:
                # A call's callee (the node right after a call in pre-order is its `fun`),
                # typed by the call applying it (`as_fieldop(f, d)`, `reduce(f, i)`).
                writes.append((position, _callee_type(convert, inference, position - 1), False))
        elif cls is SymRef:
            binding = bindings.get(position)
            if binding is not None and binding.kind is not BindingKind.BUILTIN and cell:
                writes.append((position, convert.type(cell), False))
        elif cls is Program:
            writes.append((position, _PROGRAM, False))
        elif cls is FunctionDefinition:
            if position in used and cell is not None:
                writes.append((position, convert.type(cell), False))
            else:  # never called: GT4Py never walks it
                step = position + sizes[position]
        elif cls is Sym or cls is Literal or cls is SetAt or cls is IfStmt:
            pass  # kept as given (a lambda's parameters are typed with the lambda)
        elif cell is not None:  # a temporary, an axis, an offset, an infinity
            writes.append((position, convert.type(cell), False))
        position = step
    return writes


def _annotate(writes: list[_Write], targets: list[GT4PyObject]) -> None:
    """Set the types of `writes` on `targets` (GT4Py's nodes by position).

    A type is written in the node's `__dict__`, past GT4Py's validation on assignment, which
    ours need not: they are GT4Py's own type objects, made by `ToGT4Py`
    (docs/performance.md, "Against GT4Py inside its pass manager")."""
    for position, made, lambdas in writes:
        target = targets[position]
        if target.type is not None:  # one node object at two places: typed at its first, as
            continue  # GT4Py's inference, which skips a node it finds typed, leaves it
        if made is _PROGRAM:
            target.type = _program_type(target)
            continue
        target.__dict__["type"] = made
        if lambdas:
            for param, param_type in zip(target.params, made.pos_only_args, strict=False):
                param.__dict__["type"] = param_type


def _callee_type(convert: ToGT4Py, inference: GtirInference, caller: int) -> GT4PyObject:
    """The function type of the callee of the call at `caller`: its arguments' types to its
    result's, as GT4Py types a callee once the call gives it its arguments."""
    node = inference.nodes[caller]
    assert isinstance(node, FunCall)
    result = inference.types[caller]
    if result is None:
        return None
    positions = inference.args(caller, node)
    args = [inference.types[p] for p in positions]
    if any(a is None for a in args):
        return None
    return ts.FunctionType(
        pos_only_args=[convert.type(a) for a in args if a is not None],
        pos_or_kw_args={},
        kw_only_args={},
        returns=convert.type(result),
    )
