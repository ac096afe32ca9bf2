"""Typing GTIR (docs/gtir.md, "Typing"): a `Program`, or a standalone expression whose free
names carry their types, walked once, children before parents, each typing rule unifying what
it relates and relating (`gtir_rules`, `gtir_relations`) what unification cannot say.

A program's function definitions are typed first, each after the ones it uses (`order`:
recursion is an error naming the cycle) and generalized (let-polymorphism: each use is a fresh
instance); then its parameters (from `Sym.type`), temporaries (`Field[domain dims, dtype]`,
mapped over tuples) and statements, each definition and statement a part of its own, so that
`check` reports one error per failing part.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from functools import lru_cache
from itertools import repeat
from typing import NoReturn
from weakref import proxy

from iterir import (
    AxisLiteral,
    FencilDefinition,
    FunCall,
    FunctionDefinition,
    Lambda,
    Literal,
    Node,
    OffsetLiteral,
    StencilClosure,
    Sym,
    SymRef,
)
from iterir import gtir_types as gt
from iterir.nodes import (
    GTIR_CLASSES,
    PLACEMENT,
    CartesianOffset,
    IfStmt,
    InfinityLiteral,
    Program,
    SetAt,
    Temporary,
)
from iterir.offset_types import NeighborConnectivityType, OffsetType
from iterir.symbols import BindingKind, SymbolTable, resolve
from iterir.traversal import MOST_NODES, child_positions
from iterir.vocabulary import GTIR_BUILTINS, PRIMITIVES
from typeinf.core.constraints import GtirRule, RelationOf
from typeinf.core.constructors import DEMPTY, DTUPLE, Constructor, row, row_items
from typeinf.core.diagnostics import MAX_REASONS, arity_error, reason_text
from typeinf.core.errors import (
    GrammarBuiltinError,
    MalformedIRError,
    TypeInferenceError,
    UnsatisfiableConstraintError,
    checked_preorder,
)
from typeinf.core.order import definition_order
from typeinf.core.relations import Relation
from typeinf.core.schemes import Scheme
from typeinf.core.solve import Solver, check_finite
from typeinf.core.terms import INTEGERS, Cell, Mismatch, Sort, find, make, var
from typeinf.core.unify import Trail, undo, unify
from typeinf.gtir import terms as g
from typeinf.gtir.notation import GtirPrinter, pformat_gtir_all
from typeinf.gtir.relations import Subset, Union, set_difference
from typeinf.gtir.rules import (
    SIGNATURES,
    Along,
    Deduced,
    Index,
    Lifted,
    Moves,
    OnDomain,
    Scalar,
    Shifted,
    Spread,
    TupleMapped,
    as_lists,
    call_plan,
    promoted,
    scheme,
)
from typeinf.gtir.shifts import shifts_read
from typeinf.gtir.structured import from_gt4py

_PARAMETER = BindingKind.PARAMETER
_BUILTIN = BindingKind.BUILTIN


def rule_name(node: Node) -> str:
    """What a node's constraints come from, in words: `` `as_fieldop` `` for a call (or an
    applied call) of a builtin or definition, `` `it` `` for a name, else the node's kind."""
    callee = node.fun if isinstance(node, FunCall) else node
    if isinstance(callee, FunCall):
        callee = callee.fun
    if isinstance(callee, SymRef):
        return f"`{callee.id}`"
    return f"a {type(node).__name__}"


def _length(cell: Cell) -> int | None:
    """How many items a tuple known to end has; None for anything else."""
    root = find(cell)
    if root.ctor is not DTUPLE and root.ctor is not DEMPTY:
        return None
    items, tail = row_items(root)
    return len(items) if tail.ctor is DEMPTY else None


def is_gtir(root: Node) -> bool:
    """Whether `root` is GTIR: a GTIR node, or an expression holding one, a typed name or a
    GTIR-only builtin (`as_fieldop`). A malformed tree (a non-node, too many nodes) is left to
    the fencil IR's checks, which say what is wrong with it."""
    if isinstance(root, FencilDefinition | StencilClosure):
        return False  # the fencil IR's own: no walk (the fencil path's speed is unchanged)
    stack = [root]
    for _ in repeat(None, MOST_NODES):
        if not stack:
            return False
        node = stack.pop()
        if type(node) not in PLACEMENT:
            return False
        if (
            isinstance(node, GTIR_CLASSES)
            or (isinstance(node, SymRef | Sym) and node.type is not None)
            or (isinstance(node, SymRef) and node.id == "as_fieldop")
        ):
            return True
        stack.extend(node.children())
    return False


class GtirSolver(Solver):
    """The solver, with a relation's error said in GTIR's notation."""

    def cannot_hold(
        self, relation: Relation, position: int, reason: object, why: str
    ) -> UnsatisfiableConstraintError:
        shown = relation.show(GtirPrinter(list(relation.cells)).render)
        return UnsatisfiableConstraintError(
            f"`{shown}` cannot hold: {why}", self.nodes[position], shown, why
        )


def _equal_of(run: GtirInference) -> Callable[[Cell, Cell, int, object], None]:
    """`run.equal` for its solver, holding `run` by a weak reference: a bound method would
    make the run and its solver a cycle, so that every run (its cells with it) waited for the
    cyclic collector instead of going when its caller drops it; inside GT4Py's pass manager,
    whose passes then paid for collecting ours (a 1,616-node program: 2,166 objects left to
    the collector per run). The explaining run, which sets its own `equal` on itself, still
    is one: it runs only to report an error."""
    owner = proxy(run)

    def equal(expected: Cell, actual: Cell, position: int, reason: object = None) -> None:
        owner.equal(expected, actual, position, reason)

    return equal


class GtirInference:
    """One inference over a GTIR program or expression: the type of every node, by pre-order
    position; the first error raised, or with `max_errors` > 1 one per part kept in `errors`."""

    #: The free names without a type that are unknowns (True: all); see `__init__`.
    allow_free: bool | Collection[str]

    def __init__(
        self,
        root: Node,
        offset_types: Mapping[str, OffsetType] | None = None,
        *,
        max_errors: int = 1,
        explain: bool = False,
        as_gt4py: bool = False,
        allow_free: bool | Collection[str] = False,
    ) -> None:
        """`offset_types`: what each offset name is (None: no offset provider given);
        `allow_free`: the free names without a type (all, with True) that are unknowns, one
        variable per name (GT4Py's printed text writes no name's type), not errors;
        `explain`: keep the history of what was joined and why (`typeinf explain`);
        `as_gt4py`: leave on the nodes what GT4Py 1.2.3 leaves where its passes may tell the
        difference (`typeinf.gt4py`): unknown, the result of an `as_fieldop` given no domain
        that GT4Py deduces none for; and check no more than GT4Py does where its own tests
        rely on it (`neighbors` of an iterator defined elsewhere)."""
        tree = checked_preorder(root)
        symbols = resolve(root, GTIR_BUILTINS, tree=tree)
        self._start(root, tree, symbols, offset_types, max_errors, explain, as_gt4py)
        self.allow_free = allow_free
        for position, first in self.symbols.duplicates:
            self._guarded(position, self._duplicate, position, first)
        if isinstance(root, Program):
            self._program()
        else:
            self._statement(0)

    def _start(
        self,
        root: Node,
        tree: tuple[list[Node], list[int]],
        symbols: SymbolTable,
        offset_types: Mapping[str, OffsetType] | None,
        max_errors: int,
        explain: bool = False,
        as_gt4py: bool = False,
    ) -> None:
        """The state of a run over `tree` (nodes in pre-order, sizes) before anything is typed:
        shared with `typeinf.incremental.gtir`, which lays out only the parts it types again."""
        self.offset_types = offset_types
        self.as_gt4py = as_gt4py
        self.allow_free = False  # a free name without a type is an error unless allowed
        self.unknowns: dict[str, Cell] = {}
        self.root, (self.nodes, self.sizes) = root, tree
        self.symbols = symbols
        self.types: list[Cell | None] = [None] * len(self.nodes)
        self.solver = GtirSolver(self.nodes, self.types, explain)
        if explain:  # an attribute, so that the fast run's `equal` tests nothing more
            self.equal = self.equal_recorded  # type: ignore[method-assign]
        self.solver.equal = _equal_of(self)
        #: Whether a rule may read the parts of a type already known (a tuple's item, an
        #: iterator's parts) rather than unify it with a fresh pattern, and a builtin's call
        #: unify its arguments with its parameters directly: not in the explaining run, whose
        #: notes name the rules that joined each type (a direct unification binds without
        #: recording why). It keeps the fast run from building and unifying patterns
        #: (docs/performance.md, "GTIR inference").
        self.direct = not explain
        self.schemes: dict[int, Scheme] = {}
        self.errors: list[tuple[int, TypeInferenceError]] = []
        self.max_errors = max_errors
        #: The cells of the ground field types given, by type (see `declared`).
        self.fields: dict[gt.GType, Cell] = {}

    # -- driving ----------------------------------------------------------------------------------
    def _guarded(self, position: int, step: Callable[..., object], *args: object) -> bool:
        try:
            step(*args)
        except TypeInferenceError as error:
            if self.max_errors <= 1:
                raise
            self.errors.append((position, error))
            self.solver.forget()
            return False
        return True

    def _duplicate(self, position: int, first: int) -> NoReturn:
        node = self.nodes[position]
        name = getattr(node, "id", "?")
        raise TypeInferenceError(
            f"`{name}` is declared twice", node, notes=[(f"the first `{name}`", self.nodes[first])]
        )

    def _program(self) -> None:
        root = self.root
        assert isinstance(root, Program)
        children = child_positions(self.sizes, 0, root.child_count())
        ndefs = len(root.function_definitions)
        order: list[int] = []

        def ordered() -> None:
            order.extend(definition_order(self.nodes, self.sizes, self.symbols, children[:ndefs]))

        if not self._guarded(0, ordered):
            return
        for position in order:
            if not self._guarded(position, self._definition, position):
                self.schemes[position] = Scheme(var(Sort.DTYPE))  # anything, to its users
        nodes = self.nodes
        for position in children[ndefs:]:
            node = nodes[position]
            if type(node) is Sym:  # a parameter: its declared type, nothing to settle or check
                self._guarded(position, self._parameter, position, node)
            else:
                self._statement(position)

    def _parameter(self, position: int, node: Sym) -> None:
        """A program parameter typed as a part of its own, without `_part`'s walk, relations
        to settle or search for cycles (a declared type has none): a fixed cost per parameter
        that small programs with many parameters feel (docs/performance.md, "GTIR
        inference")."""
        self.types[position] = self.sym(position, node)

    def _statement(self, position: int) -> None:
        """Type a parameter, temporary or statement; an `IfStmt`'s condition and each
        statement of its branches as parts of their own (one error each), in source order
        (an explicit stack: `IfStmt`s nest without limit)."""
        pending = [position]
        while pending:
            at = pending.pop()
            node = self.nodes[at]
            if not isinstance(node, IfStmt):
                self._guarded(at, self._part, at)
                continue
            children = child_positions(self.sizes, at, node.child_count())
            if self._guarded(children[0], self._part, children[0]):
                self._guarded(at, self.if_stmt, at, node)
            pending.extend(reversed(children[1:]))

    def _definition(self, position: int) -> None:
        self._part(position)
        self.schemes[position] = Scheme(self.type_at(position), _distinct(self.solver.take_open()))

    def _part(self, start: int) -> None:
        """Type the subtree at `start`, children before parents (reverse pre-order)."""
        nodes, types, visit, bindings = self.nodes, self.types, _VISIT, self.symbols.bindings
        call, scalars = GtirInference.call, _SCALARS
        for position in range(start + self.sizes[start] - 1, start - 1, -1):
            if types[position] is not None:
                continue
            node = nodes[position]
            cls = type(node)
            # The three most frequent kinds (calls, names, literals) typed here or called
            # directly rather than through `_VISIT`: a lambda's parameter is its `Sym`'s cell,
            # a literal its kind's scalar (see `symref`, `literal`): no dispatch through a
            # table for the nodes most programs are made of (docs/performance.md, "GTIR
            # inference").
            if cls is FunCall:
                types[position] = call(self, position, node)  # type: ignore[arg-type]  # cls is FunCall
                continue
            if cls is SymRef:
                kind, declaration, declared = bindings[position]
                if kind is _PARAMETER:
                    cell = types[declared]  # type: ignore[index]  # a parameter's position
                    if cell is None:  # its `Sym`, after it in pre-order, is typed here first
                        cell = types[declared] = self.sym(declared, declaration)  # type: ignore[arg-type, index]  # a Sym's
                    types[position] = cell
                    continue
                # A builtin called (`deref` in `deref(it)`) has no type of its own: its call's
                # rule types the call. Skipped here, not dispatched to `builtin_value`, which
                # would make a type nothing reads (docs/performance.md, "GTIR inference").
                if kind is _BUILTIN and position:
                    parent = nodes[position - 1]
                    if type(parent) is FunCall and parent.fun is node:
                        continue
            elif cls is Literal:
                cell = scalars.get(node.type)  # type: ignore[attr-defined]  # cls is Literal
                if cell is not None:
                    types[position] = cell
                    continue
            rule = visit.get(cls)
            if rule is None:
                raise MalformedIRError(f"a {type(node).__name__} cannot be typed here", node)
            cell = rule(self, position, node)
            if types[position] is None:
                types[position] = cell
        self.solver.settle()
        # A type that contains itself (`λ(x) → x(x)`) is an error at its node, as for fencils,
        # before a definition is generalized (which needs finite types) or a value is read off.
        # Its cost: docs/performance.md, "GTIR inference".
        check_finite(nodes, self.types, range(start, start + self.sizes[start]), pformat_gtir_all)

    # -- helpers ----------------------------------------------------------------------------------
    def equal(self, expected: Cell, actual: Cell, position: int, reason: object = None) -> None:
        """`expected` and `actual` are one type: else a located error showing both."""
        try:
            undecided = unify(expected, actual, [])
        except Mismatch:
            raise self.mismatch(expected, actual, position) from None
        for x, y in undecided:
            self.equal(x, y, position)

    def mismatch(self, expected: Cell, actual: Cell, position: int) -> TypeInferenceError:
        """The error two types that cannot be one are; in the explaining run, with a note for
        each rule that gave either side its type."""
        shown, found = pformat_gtir_all([expected, actual])
        history = self.solver.history
        notes = []
        if history is not None:
            for text, cell in ((shown, expected), (found, actual)):
                notes += [
                    (f"`{text}` comes from {reason_text(reason)}", node)
                    for reason, node in history.of_type([cell])[:MAX_REASONS]
                ]
        difference = set_difference(expected, actual)
        return UnsatisfiableConstraintError(
            f"type mismatch: expected `{shown}`, found `{found}`"
            + ("" if difference is None else f": {difference}"),
            self.nodes[position],
            shown,
            found,
            difference,
            notes=notes,
        )

    def equal_recorded(
        self, expected: Cell, actual: Cell, position: int, reason: object = None
    ) -> None:
        """`equal` in the explaining run: what it joins is kept in the history, with its reason
        (a relation's, or the typing rule of the node at `position`)."""
        history = self.solver.history
        assert history is not None  # the explaining run keeps one
        start = len(history.joins)
        try:
            undecided = unify(expected, actual, [], history.joins)
        except Mismatch:
            history.forget(start)
            raise self.mismatch(expected, actual, position) from None
        cause = reason if reason is not None else GtirRule(rule_name(self.nodes[position]))
        history.record(start, position, cause)  # type: ignore[arg-type]  # a Reason
        for x, y in undecided:
            self.equal_recorded(x, y, position, reason)

    def type_at(self, position: int) -> Cell:
        cell = self.types[position]
        if cell is None:
            raise GrammarBuiltinError(
                "this builtin or type name is not a value here", self.nodes[position]
            )
        return cell

    def args(self, position: int, node: FunCall) -> list[int]:
        """The positions of a call's arguments (after its callee's subtree)."""
        return child_positions(self.sizes, position, len(node.args) + 1)[1:]

    def inside(self, position: int, ctor: Constructor, sort: Sort) -> Cell:
        """What the type at `position`, a `ctor[…]` of one part of `sort` (a domain's
        dimensions, a named range's dimension), holds: read where it is known (see `direct`:
        no fresh pattern to build and unify; docs/performance.md, "GTIR inference"), else
        unified with a fresh one."""
        cell = self.type_at(position)
        known = find(cell)
        if self.direct and known.ctor is ctor:
            return known.args[0]
        part = var(sort)
        self.equal(make(ctor, part), cell, position)
        return part

    def relate(self, relation: Relation, position: int) -> None:
        # A relation's reason is made only for the explaining run, whose notes say it: the
        # fast run reads none (its `equal` and `GtirSolver.cannot_hold` take no reason), and
        # a `RelationOf` is a frozen dataclass, slow to make (docs/performance.md, "GTIR
        # inference").
        reason = _UNSAID if self.solver.history is None else RelationOf(self.nodes[position])
        self.solver.relate(relation, position, reason)

    # -- declarations -----------------------------------------------------------------------------
    def sym(self, position: int, node: Sym) -> Cell:
        """A declared name: its given type; without one (a lambda's parameter, or a program's
        in GT4Py's printed text, which writes none), a variable its uses determine."""
        if node.type is not None:
            return self.declared(node.type, node)
        return var(Sort.DTYPE)

    def declared(self, type_: gt.GType, node: Node) -> Cell:
        """The cell of a type given on `node` (`read`), a ground field's shared."""
        # A field of a scalar, the type of most parameters, is read once per inference and its
        # ground cell shared (outside the explaining run, whose history is kept by cell), its
        # value made once by `gtir_infer`: a per-parameter cost paid once (docs/performance.md,
        # "GTIR inference").
        if (
            self.direct
            and type(type_) is gt.FieldType
            and type(type_.dtype) is gt.ScalarType
            and type(type_.dims) is tuple
        ):
            cell = self.fields.get(type_)
            if cell is None:
                cell = self.fields[type_] = self.read(type_, node)
            return cell
        return self.read(type_, node)

    def read(self, type_: gt.GType, node: Node) -> Cell:
        """The cell of a type given on `node`; a MalformedIRError if it has none."""
        try:
            return from_gt4py(type_)
        except ValueError as error:
            raise MalformedIRError(f"its type cannot be read: {error}", node) from None

    def temporary(self, position: int, node: Temporary) -> Cell:
        if node.dtype is None or node.domain is None:
            raise TypeInferenceError(
                f"temporary `{node.id}` needs a domain and a dtype to be typed", node
            )
        positions = var(Sort.DIMS)
        self.equal(make(g.DOMAIN, positions), self.type_at(position + 1), position)
        result = var(Sort.DTYPE)
        self.relate(OnDomain(positions, self.declared(node.dtype, node), result), position)
        return result

    def symref(self, position: int, node: SymRef) -> Cell | None:
        kind, declaration, declared = self.symbols.bindings[position]
        if kind is _BUILTIN:
            return self.builtin_value(position, node)
        if kind is BindingKind.FUNCTION_DEFINITION:
            assert declared is not None
            instance, relations = self.schemes[declared].instantiate_related()
            for relation in relations:
                self.relate(relation, position)
            return instance
        if kind is BindingKind.FREE:
            if node.type is not None:
                return self.declared(node.type, node)
            allowed = self.allow_free
            if allowed is True or (allowed is not False and node.id in allowed):
                return self.unknowns.setdefault(node.id, var(Sort.DTYPE))
            raise TypeInferenceError(
                f"`{node.id}` is not defined (give it a type, or allow it to be free)", node
            )
        assert declared is not None and declaration is not None
        if self.types[declared] is None:
            self.types[declared] = _VISIT[type(declaration)](self, declared, declaration)
        return self.types[declared]

    def builtin_value(self, position: int, node: SymRef) -> Cell | None:
        """A builtin's type where it is a value (`as_fieldop(deref, …)`); None where it is a
        type name (`cast_`'s rule reads it). A builtin called is never met here: `_part` skips
        it (the call's rule types it)."""
        if node.id in PRIMITIVES:
            return None
        if node.id in SIGNATURES:
            return scheme(node.id).instantiate()
        if node.id == "deref":
            argument = var(Sort.DTYPE)
            return g.function([argument], self.deref_of(position, argument))
        raise TypeInferenceError(f"builtin `{node.id}` is not typed yet on GTIR as a value", node)

    # -- expressions ------------------------------------------------------------------------------
    def literal(self, position: int, node: Literal) -> Cell:
        cell = _SCALARS.get(node.type)  # a call, not three (`g.scalar`): see `_part`'s skip
        if cell is None:
            raise MalformedIRError(f"a literal of type {node.type!r} cannot be typed", node)
        return cell

    def infinity(self, position: int, node: InfinityLiteral) -> Cell:
        return g.scalar("int32")

    def axis(self, position: int, node: AxisLiteral) -> Cell:
        return make(g.DIMENSION, _axis_cell(node.value, node.kind or "horizontal"))

    def offset(self, position: int, node: OffsetLiteral) -> Cell:
        if isinstance(node.value, int):
            return g.offset_amount("int32")
        return make(g.OFFSET, g.dim(gt.Dimension(node.value, "horizontal")))

    def cartesian(self, position: int, node: CartesianOffset) -> Cell:
        source, target = node.domain, node.codomain
        return make(
            g.CARTESIAN_OFFSET,
            _axis_cell(source.value, source.kind or "horizontal"),
            _axis_cell(target.value, target.kind or "horizontal"),
        )

    def function(self, position: int, node: Lambda | FunctionDefinition) -> Cell:
        children = child_positions(self.sizes, position, len(node.params) + 1)
        params = [self.types[p] or self.sym(p, node.params[i]) for i, p in enumerate(children[:-1])]
        for p, cell in zip(children, params, strict=False):
            self.types[p] = cell
        return g.function(params, self.type_at(children[-1]))

    def call(self, position: int, node: FunCall) -> Cell | None:
        callee = node.fun
        # Dispatched by the callee's name through `_APPLIED`, the arguments' positions found
        # only where a rule reads them, rather than a test of each applied builtin in turn
        # (docs/performance.md, "GTIR inference").
        builtin = self.types[position + 1] is None  # a builtin called: a rule types the call
        if builtin and type(callee) is SymRef:
            name = callee.id
            if name in _APPLIED:  # typed by the call that applies it
                if name != "shift":
                    return None
                return None if self.shift_applied(position) else self.shift(position, node)
            # The arguments' positions, after the callee's one node (`args`, inline, as
            # `_part` dispatches directly: see there).
            sizes, args, child = self.sizes, [], position + 2
            for _ in node.args:
                args.append(child)
                child += sizes[child]
            rule = _RULES.get(name)
            if rule is not None:
                return rule(self, position, node, args)
            if name in _ON_DOMAINS and self.on_domains(args):
                return self.domain_condition(position, node, args)
            if name in SIGNATURES:
                return self.by_signature(name, position, node, args)
            raise TypeInferenceError(f"builtin `{name}` is not typed yet on GTIR", node)
        args = self.args(position, node)
        if isinstance(callee, FunCall) and isinstance(callee.fun, SymRef):
            applied = _APPLIED.get(callee.fun.id)
            if applied is not None and (builtin or callee.fun.id != "shift"):
                return applied(self, position, callee, args)
        return self.apply(self.type_at(position + 1), position, args)

    def by_signature(self, name: str, position: int, node: FunCall, args: list[int]) -> Cell:
        """A call of the builtin `name` typed by its signature; an error says the signature."""
        plan = call_plan(name)
        if plan is not None and plan[1] != len(args):
            raise arity_error(node, plan[1], len(args))
        try:
            return self.signature_call(name, position, args)
        except UnsatisfiableConstraintError as error:
            said = f"`{name}` takes `{error.expected}`, not `{error.actual}`"
            raise error.reworded(said, node) from None

    def signature_call(self, name: str, position: int, args: list[int]) -> Cell:
        """A call of the builtin `name` typed by its signature: each argument unified with its
        parameter of a fresh instance, rather than the instance with the call's function type,
        which a call would build only to take apart (docs/performance.md, "GTIR inference"); on
        a mismatch the changes are undone and `apply` says the error, as it shows the whole
        types."""
        plan = call_plan(name) if self.direct else None
        if plan is not None and plan[1] == len(args):
            parts = plan[0]().args
            trail: Trail = []
            types = self.types
            try:
                for part, a in zip(parts, args):  # noqa: B905  # one more part: the result
                    for x, y in unify(part, types[a] or self.type_at(a), trail):
                        self.equal(x, y, position)
                return parts[-1]
            except Mismatch:
                undo(trail)
        return self.apply(scheme(name).instantiate(), position, args)

    def apply(self, function: Cell, position: int, args: list[int]) -> Cell:
        """A call of a function of type `function` with the arguments at `args`; a function
        known to take another number of arguments is an error that says how many."""
        known_function = find(function)
        if known_function.ctor is g.FUNCTION:
            params, tail = row_items(known_function.args[0])
            if tail.ctor is DEMPTY and len(params) != len(args):
                node = self.nodes[position]
                assert isinstance(node, FunCall)  # only calls apply a function
                raise arity_error(node, len(params), len(args))
        result = var(Sort.DTYPE)
        self.equal(function, g.function([self.type_at(a) for a in args], result), position)
        return result

    # -- rules ------------------------------------------------------------------------------------
    def rule_make_tuple(self, position: int, node: FunCall, args: list[int]) -> Cell:
        return g.tuple_of([self.type_at(a) for a in args])

    def rule_tuple_get(self, position: int, node: FunCall, args: list[int]) -> Cell:
        index = node.args[0]
        if not (isinstance(index, Literal) and index.value.isdigit()):
            raise GrammarBuiltinError("the index of `tuple_get` must be an integer literal", index)
        operand = self.type_at(args[1])
        if self.direct:
            item = _item(operand, int(index.value))
            if item is not None:
                return item
        items = [var(Sort.DTYPE) for _ in range(int(index.value) + 1)]
        try:
            self.equal(row(DTUPLE, items, var(Sort.DROW)), operand, position)
        except UnsatisfiableConstraintError:
            length = _length(operand)
            if length is None or length >= len(items):
                raise
            expected, found = pformat_gtir_all([row(DTUPLE, items, var(Sort.DROW)), operand])
            raise UnsatisfiableConstraintError(
                f"tuple index {index.value} is out of range: "
                f"`{found}` has {length} element{'s' * (length != 1)}",
                node,
                expected,
                found,
            ) from None
        return items[-1]

    def rule_deref(self, position: int, node: FunCall, args: list[int]) -> Cell:
        self.arity(node, 1)
        return self.deref_of(position, self.type_at(args[0]))

    def deref_of(self, position: int, argument: Cell) -> Cell:
        """`deref` of an iterator of type `argument`: its element, defined where it is."""
        known = find(argument)
        if self.direct and known.ctor is g.ITERATOR:  # its parts, read (see `direct`)
            positions, defined, element = known.args
            self.relate(Subset(defined, positions), position)
            return element
        positions, defined, element = var(Sort.DIMS), var(Sort.DIMS), var(Sort.DTYPE)
        self.equal(g.iterator(positions, defined, element), argument, position)
        self.relate(Subset(defined, positions), position)
        return element

    def rule_cast_(self, position: int, node: FunCall, args: list[int]) -> Cell:
        self.arity(node, 2)
        name = node.args[1]
        if not (isinstance(name, SymRef) and name.id in PRIMITIVES):
            raise GrammarBuiltinError("the second argument of `cast_` must be a type name", name)
        self.relate(Scalar(self.type_at(args[0])), position)
        return g.scalar(name.id)

    def rule_cartesian_domain(self, position: int, node: FunCall, args: list[int]) -> Cell:
        found = []
        for a in args:
            label = find(self.inside(a, g.NAMED_RANGE, Sort.DIM)).label
            if not isinstance(label, gt.Dimension):
                return make(g.DOMAIN, var(Sort.DIMS))
            found.append(label)
        try:
            return make(g.DOMAIN, g.dims(found))
        except g.DimensionSetError as error:
            raise TypeInferenceError(f"not a domain: {error}", node) from None

    rule_unstructured_domain = rule_cartesian_domain

    def rule_index(self, position: int, node: FunCall, args: list[int]) -> Cell:
        self.arity(node, 1)
        dimension = var(Sort.DIM)
        self.equal(make(g.DIMENSION, dimension), self.type_at(args[0]), position)
        label = find(dimension).label
        if not isinstance(label, gt.Dimension):
            return g.field(var(Sort.DIMS), g.scalar("int32"))
        return g.field(g.dims([label]), g.scalar("int32"))

    def as_fieldop(self, position: int, inner: FunCall, args: list[int]) -> Cell:
        """`as_fieldop(stencil, domain?)(inputs…)`: each input an iterator over the domain's
        dimensions; the result a field over them of what the stencil returns."""
        if not 1 <= len(inner.args) <= 2:
            raise GrammarBuiltinError("`as_fieldop` takes a stencil and a domain", inner)
        at = self.args(position + 1, inner)
        unknown = False
        if len(at) == 2:
            positions = self.inside(at[1], g.DOMAIN, Sort.DIMS)
        else:
            positions = var(Sort.DIMS)
            unknown = not self.deduce(position, inner.args[0], positions, args) and self.as_gt4py
        iterators = []
        for a in args:
            iterator = var(Sort.DTYPE)
            self.relate(Lifted(self.type_at(a), positions, iterator), a)
            iterators.append(iterator)
        element = var(Sort.DTYPE)
        self.equal(self.type_at(at[0]), g.function(iterators, element), at[0])
        result = var(Sort.DTYPE)
        if not unknown:
            self.relate(OnDomain(positions, element, result), position)
        self.types[position + 1] = g.function([self.type_at(a) for a in args], result)
        return result

    def deduce(self, position: int, stencil: Node, positions: Cell, args: list[int]) -> bool:
        """`as_fieldop` without a domain: its dimensions are those GT4Py deduces from the
        shifts the stencil reads its inputs after (`Deduced`), where it deduces any (whether
        it does)."""
        reads = shifts_read(stencil, len(args))
        if reads is None:
            return False
        moves = [{self.moves(tags) for tags in input_reads} for input_reads in reads]
        if any(None in each for each in moves):
            return False  # an offset the provider does not name: its shift says so
        deduced = tuple(frozenset(each) for each in moves)
        self.relate(Deduced(deduced, positions, *map(self.type_at, args)), position)  # type: ignore[arg-type]
        return True

    def moves(self, tags: tuple[Node, ...]) -> Moves | None:
        """The dimensions each shift tag moves from and to; None for a tag not known."""
        found = []
        for tag in tags:
            if isinstance(tag, CartesianOffset):
                found.append((_dimension(tag.domain), _dimension(tag.codomain)))
                continue
            connectivity = (
                self.offset_types.get(tag.value)
                if isinstance(tag, OffsetLiteral)
                and isinstance(tag.value, str)
                and self.offset_types is not None
                else None
            )
            if not isinstance(connectivity, NeighborConnectivityType):
                return None
            found.append((connectivity.domain[0], connectivity.codomain))
        return tuple(found)

    def lift(self, position: int, inner: FunCall, args: list[int]) -> Cell:
        """`lift(stencil)(iterators…)`: an iterator at the inputs' positions, defined
        everywhere (no dimension), of what the stencil returns, as GT4Py 1.2 types it. Where
        it is defined depends on the shifts the stencil reads its inputs after (the lifted
        iterator of a nested reduction is shifted off its inputs' dimensions and still read),
        which GT4Py does not trace. The stencil reads each input where the lifted iterator is
        dereferenced, after any shift of it: at positions of its own (GT4Py's "unknown"),
        defined where the input is, of its element."""
        self.arity(inner, 1)
        positions, element = var(Sort.DIMS), var(Sort.DTYPE)
        read: list[Cell] = []
        for a in args:
            own, held = var(Sort.DIMS), var(Sort.DTYPE)
            self.equal(g.iterator(positions, own, held), self.type_at(a), a)
            read.append(g.iterator(var(Sort.DIMS), own, held))
        stencil = self.args(position + 1, inner)[0]
        self.equal(self.type_at(stencil), g.function(read, element), stencil)
        result = g.iterator(positions, g.dims(()), element)
        self.types[position + 1] = g.function([self.type_at(a) for a in args], result)
        return result

    def on_domains(self, args: list[int]) -> bool:
        """Whether a comparison or `and_`/`or_`/`xor_` builds a domain (a `concat_where`
        condition): an argument is known to be a dimension or a domain."""
        return any(find(self.type_at(a)).ctor in (g.DIMENSION, g.DOMAIN) for a in args)

    def domain_condition(self, position: int, node: FunCall, args: list[int]) -> Cell:
        """`IDimₕ < n` or `n < IDimₕ`: the domain `Domain[[IDim]]`; `and_`/`or_`/`xor_` of
        domains: over the union of their dimensions (GT4Py's `promote_dims`)."""
        self.arity(node, 2)
        types = [find(self.type_at(a)) for a in args]
        for axis, other in ((0, 1), (1, 0)):
            if types[axis].ctor is g.DIMENSION:
                self.equal(var(Sort.DTYPE, INTEGERS), types[other], args[other])
                label = find(types[axis].args[0]).label
                assert isinstance(label, gt.Dimension)  # an axis's type holds its dimension
                return make(g.DOMAIN, g.dims([label]))
        first, second = types
        if getattr(node.fun, "id", "") not in ("and_", "or_", "xor_"):
            raise GrammarBuiltinError(
                "domains are combined with `and_`, `or_` and `xor_` only", node
            )
        left, right, union = var(Sort.DIMS), var(Sort.DIMS), var(Sort.DIMS)
        self.equal(make(g.DOMAIN, left), first, args[0])
        self.equal(make(g.DOMAIN, right), second, args[1])
        self.relate(Union(left, right, union), position)
        return make(g.DOMAIN, union)

    def rule_concat_where(self, position: int, node: FunCall, args: list[int]) -> Cell:
        """`concat_where(domain, a, b)`: `a` where the domain holds, else `b`: fields over the
        union of the domain's and the branches' dimensions, mapped over tuples (`Spread`)."""
        self.arity(node, 3)
        dims = self.inside(args[0], g.DOMAIN, Sort.DIMS)
        result = var(Sort.DTYPE)
        self.relate(Spread(dims, result, self.type_at(args[1]), self.type_at(args[2])), position)
        return result

    def rule_broadcast(self, position: int, node: FunCall, args: list[int]) -> Cell:
        """`broadcast(x, {IDimₕ, …})`: `x` over at least the dimensions listed."""
        self.arity(node, 2)
        listed = node.args[1]
        axes = listed.args if isinstance(listed, FunCall) else ()
        if not (
            _is_builtin_call(listed, "make_tuple") and all(isinstance(a, AxisLiteral) for a in axes)
        ):
            raise GrammarBuiltinError("`broadcast` takes a tuple of axes, `{IDimₕ, KDimᵥ}`", listed)
        try:
            dims = g.dims(_dimension(a) for a in axes)  # type: ignore[arg-type]  # axes, as tested
        except g.DimensionSetError as error:
            raise TypeInferenceError(f"not a set of dimensions: {error}", listed) from None
        result = var(Sort.DTYPE)
        self.relate(Spread(dims, result, self.type_at(args[0])), position)
        return result

    def rule_if_(self, position: int, node: FunCall, args: list[int]) -> Cell:
        """`if_(c, a, b)`: `c` is `bool`, `a` and `b` one type, as `if_`'s signature says
        (`builtins/gtir.gsig`); two lists, as GT4Py promotes them, of one element type, along
        one local dimension or along none (a `make_const_list`'s goes with any); a field with a
        local dimension as a field of lists along it, as GT4Py's inference sees it (the result then
        the first branch's type, as GT4Py's)."""
        branches = [find(self.type_at(a)) for a in args[1:]]
        if len(args) == 3 and all(b.ctor is g.FIELD for b in branches):
            # A field with a local dimension is a field of lists to GT4Py's inference.
            # The result is the first branch's, as GT4Py's (1.2.1–1.2.3) is.
            lists = [as_lists(b) for b in branches]
            if any(lists):
                seen = [find(c or b) for c, b in zip(lists, branches, strict=True)]
                self.equal(g.scalar("bool"), self.type_at(args[0]), args[0])
                self.equal(seen[0].args[0], seen[1].args[0], args[2])
                promoted(self.equate_at(args[2]), [find(b.args[1]) for b in seen])  # one dtype
                return branches[0]
        if len(args) != 3 or not all(b.ctor is g.LIST for b in branches):
            return self.by_signature("if_", position, node, args)
        self.equal(g.scalar("bool"), self.type_at(args[0]), args[0])
        return promoted(self.equate_at(args[2]), branches)

    def equate_at(self, position: int) -> Callable[[Cell, Cell], None]:
        """`equal` of two cells, an error located at `position` (for the rules' `promoted`)."""
        return lambda one, other: self.equal(one, other, position)

    def rule_list_get(self, position: int, node: FunCall, args: list[int]) -> Cell:
        """`list_get(i, list)`: an element; `i` an integer or an integer offset (`Index`)."""
        self.arity(node, 2)
        self.relate(Index(self.type_at(args[0])), args[0])
        return self.element(args[1], var(Sort.DIM))

    def rule_scan(self, position: int, node: FunCall, args: list[int]) -> Cell:
        """`scan(f, forward, init)`: a stencil of any inputs `(its…) → A`, where `f` is
        `(A, its…) → A`, `forward` a `bool` and `init` an `A`."""
        self.arity(node, 3)
        inputs, state = var(Sort.DROW), var(Sort.DTYPE)
        step = make(g.FUNCTION, make(DTUPLE, state, inputs), state)
        self.equal(step, self.type_at(args[0]), args[0])
        self.equal(g.scalar("bool"), self.type_at(args[1]), args[1])
        self.equal(state, self.type_at(args[2]), args[2])
        return make(g.FUNCTION, inputs, state)

    def rule_neighbors(self, position: int, node: FunCall, args: list[int]) -> Cell:
        """`neighbors(C, it)`: the values at `it`'s neighbours along `C`, `List[T, C's local
        dimension]`; `it` must stand at `C`'s source, defined at its target (with `as_gt4py`,
        anywhere: GT4Py 1.2 does not check where, and its own tests rely on that)."""
        self.arity(node, 2)
        tag = node.args[0]
        if not (isinstance(tag, OffsetLiteral) and isinstance(tag.value, str)):
            raise GrammarBuiltinError("the first argument of `neighbors` is a connectivity", tag)
        found = (self.offset_types or {}).get(tag.value)
        if not isinstance(found, NeighborConnectivityType):
            self.connectivity(tag)  # an unknown offset: its error
            raise TypeInferenceError(f"offset `{tag.value}` is not a connectivity", tag)
        positions, moved, defined, element = (
            var(Sort.DIMS),
            var(Sort.DIMS),
            var(Sort.DIMS),
            var(Sort.DTYPE),
        )
        self.equal(g.iterator(positions, defined, element), self.type_at(args[1]), args[1])
        move = make(g.CARTESIAN_OFFSET, _dim_cell(found.source_dim), _dim_cell(found.codomain))
        self.relate(Shifted(positions, moved, move), position)
        if not self.as_gt4py:
            self.relate(Subset(defined, moved), position)
        return g.list_of(element, _dim_cell(found.neighbor_dim))

    def reduce(self, position: int, inner: FunCall, args: list[int]) -> Cell:
        """`reduce(f, init)(lists…)`: `f` folds `(A, elements…) → A` from `init: A` over
        lists along one local dimension."""
        self.arity(inner, 2)
        step, init = self.args(position + 1, inner)
        # Lists along different local dimensions of one size fold together (GT4Py's samples
        # do: a sparse field along V2V with neighbours along V2E).
        state = self.type_at(init)
        elements = [self.element(a, var(Sort.DIM)) for a in args]
        self.equal(self.type_at(step), g.function([state, *elements], state), step)
        self.types[position + 1] = g.function([self.type_at(a) for a in args], state)
        return state

    def map_list(self, position: int, inner: FunCall, args: list[int]) -> Cell:
        """`map_list(f)(lists…)`: `f` applied elementwise, a list along the same dimension."""
        self.arity(inner, 1)
        local, result = var(Sort.DIM), var(Sort.DTYPE)
        elements = [self.element(a, local) for a in args]
        (function,) = self.args(position + 1, inner)
        self.equal(self.type_at(function), g.function(elements, result), function)
        mapped = g.list_of(result, local)
        self.types[position + 1] = g.function([self.type_at(a) for a in args], mapped)
        return mapped

    def map_tuple(self, position: int, inner: FunCall, args: list[int]) -> Cell:
        """`map_tuple(f)(t)`: `f` applied to each item of the tuple `t`; `tree_map_tuple`
        to each leaf of nested tuples (`TupleMapped`). A builtin `f` is instantiated afresh
        for each item, as GT4Py types each application on its own."""
        self.arity(inner, 1)
        name = inner.fun.id  # type: ignore[union-attr]  # a builtin's name (see `call`)
        if len(args) != 1:
            raise GrammarBuiltinError(f"`{name}(f)` takes one tuple", self.nodes[position])
        (function,) = self.args(position + 1, inner)
        op = inner.args[0]
        fresh = scheme(op.id) if isinstance(op, SymRef) and op.id in SIGNATURES else None
        result = var(Sort.DTYPE)
        mapped = TupleMapped(
            fresh, name == "tree_map_tuple", self.type_at(function), self.type_at(args[0]), result
        )
        self.relate(mapped, position)
        self.types[position + 1] = g.function([self.type_at(args[0])], result)
        return result

    def element(self, position: int, local: Cell) -> Cell:
        """The element type of the list at `position`, along the dimension `local` (or along
        none: a `make_const_list` goes with a list along any dimension)."""
        element, own = var(Sort.DTYPE), var(Sort.DIM)
        self.equal(g.list_of(element, own), self.type_at(position), position)
        self.relate(Along(own, local), position)
        return element

    def shift(self, position: int, node: FunCall) -> Cell:
        """`shift(offset, amount, …)`: an iterator to one at the positions the offsets reach
        (`Shifted`), defined and holding as before."""
        moves = self.moves_of(position, node)
        positions, moved, defined, element = (
            var(Sort.DIMS),
            var(Sort.DIMS),
            var(Sort.DIMS),
            var(Sort.DTYPE),
        )
        self.relate(Shifted(positions, moved, *moves), position)
        before = g.iterator(positions, defined, element)
        return g.function([before], g.iterator(moved, defined, element))

    def moves_of(self, position: int, node: FunCall) -> list[Cell]:
        """What each offset of the `shift(…)` call at `position` moves (`move`)."""
        if len(node.args) % 2:
            raise GrammarBuiltinError("`shift` takes offsets and amounts in pairs", node)
        tags = child_positions(self.sizes, position, len(node.args) + 1)[1::2]
        return [self.move(t, node.args[i * 2]) for i, t in enumerate(tags)]

    def shift_applied(self, position: int) -> bool:
        """Whether the `shift(…)` call at `position` is applied to one iterator, whose type
        its application reads (`shifted`), outside the explaining run (see `direct`)."""
        parent = self.nodes[position - 1] if position else None
        return (
            self.direct
            and isinstance(parent, FunCall)
            and parent.fun is self.nodes[position]
            and len(parent.args) == 1
        )

    def shifted(self, position: int, inner: FunCall, args: list[int]) -> Cell:
        """`shift(…)(it)`: `shift`'s rule, reading the parts of `it`'s type where it is known
        to be an iterator, rather than unifying function types built for it
        (docs/performance.md, "GTIR inference")."""
        known = find(self.type_at(args[0]))
        if known.ctor is not g.ITERATOR:  # typed as any call, which says what is wrong
            function = self.types[position + 1] = self.shift(position + 1, inner)
            return self.apply(function, position, args)
        positions, defined, element = known.args
        moved = var(Sort.DIMS)
        self.relate(Shifted(positions, moved, *self.moves_of(position + 1, inner)), position + 1)
        result = g.iterator(moved, defined, element)
        self.types[position + 1] = g.function([known], result)
        return result

    def move(self, position: int, tag: Node) -> Cell:
        """What a shift's offset moves: `Offset[a→b]`, from a Cartesian offset, a connectivity
        (from its source to its target) or an offset passed as a value (its type)."""
        if isinstance(tag, OffsetLiteral) and isinstance(tag.value, str):
            source, target = self.connectivity(tag)
            return make(g.CARTESIAN_OFFSET, _dim_cell(source), _dim_cell(target))
        if isinstance(tag, OffsetLiteral):
            raise GrammarBuiltinError("an offset of `shift` must be an offset's name", tag)
        given = self.type_at(position)
        known = find(given)
        # A Cartesian offset's type, known, is read rather than unified with a fresh pattern
        # (see `direct`), with `unify` calling no `join` when it keeps none
        # (docs/performance.md, "GTIR inference").
        if self.direct and known.ctor is g.CARTESIAN_OFFSET:
            return known
        move = make(g.CARTESIAN_OFFSET, var(Sort.DIM), var(Sort.DIM))
        self.equal(move, given, position)
        return move

    def connectivity(self, tag: OffsetLiteral) -> tuple[gt.Dimension, gt.Dimension]:
        """The dimension the named offset moves from, and the one it moves to."""
        found = (self.offset_types or {}).get(str(tag.value))
        if found is None:
            given = (
                "no offset provider was given"
                if self.offset_types is None
                else "the offset provider does not name it"
            )
            raise TypeInferenceError(f"offset `{tag.value}` is unknown: {given}", tag)
        if isinstance(found, gt.Dimension):
            return found, found
        return found.source_dim, found.codomain

    def arity(self, node: FunCall, count: int) -> None:
        if len(node.args) != count:
            raise GrammarBuiltinError(
                f"`{getattr(node.fun, 'id', '?')}` takes {count} arguments, not {len(node.args)}",
                node,
            )

    # -- statements -------------------------------------------------------------------------------
    def set_at(self, position: int, node: SetAt) -> None:
        expr, domain, target = child_positions(self.sizes, position, 3)
        try:
            self.equal(self.type_at(target), self.type_at(expr), expr)
        except UnsatisfiableConstraintError as error:
            raise error.reworded(
                f"the expression written is `{error.actual}`, its target `{error.expected}`"
            ) from None
        self.type_at(domain)  # a domain, or a tuple of them for a tuple target: its rules said

    def if_stmt(self, position: int, node: IfStmt) -> None:
        try:
            self.equal(g.scalar("bool"), self.type_at(position + 1), position + 1)
        except UnsatisfiableConstraintError as error:
            raise error.reworded(
                f"the condition of `if` must be `bool`, not `{error.actual}`"
            ) from None

    def nothing(self, position: int, node: Node) -> None:
        return None


#: The reason the fast run gives its relations (see `GtirInference.relate`): never read.
_UNSAID = GtirRule("a relation")

#: The scalar type of each kind of literal.
_SCALARS = {kind: g.scalar(kind) for kind in PRIMITIVES}

#: The builtins that build a `concat_where` condition when given a dimension or a domain.
_ON_DOMAINS = frozenset(
    ("eq", "not_eq", "less", "greater", "less_equal", "greater_equal", "and_", "or_", "xor_")
)


def _item(tuple_: Cell, index: int) -> Cell | None:
    """The item at `index` of a tuple known that far; None if it is not known (yet)."""
    cell = find(tuple_)
    for _ in range(index):
        if cell.ctor is not DTUPLE:
            return None
        cell = find(cell.args[1])
    return cell.args[0] if cell.ctor is DTUPLE else None


def _distinct(relations: tuple[Relation, ...]) -> tuple[Relation, ...]:
    """Each relation once: uses of one parameter make the same one again (`D₁ ⊆ D₀` at each
    `deref`), and a definition's type and each instance would carry every copy."""
    seen: set[tuple[type, tuple[int, ...]]] = set()
    out = []
    for relation in relations:
        key = (type(relation), tuple(id(find(c)) for c in relation.cells))
        if key not in seen:
            seen.add(key)
            out.append(relation)
    return tuple(out)


def _dimension(axis: AxisLiteral) -> gt.Dimension:
    """An axis's dimension; one without a kind (the fencil IR's) is horizontal, GT4Py's default."""
    return _dimension_named(axis.value, axis.kind or "horizontal")


# Every axis of a program names one of a few dimensions: made once each, not at each axis
# (docs/performance.md, "GTIR inference").
@lru_cache(maxsize=4096)
def _dimension_named(value: str, kind: str) -> gt.Dimension:
    return gt.Dimension(value, kind)


# An axis's constant, made once per axis, rather than found by its dimension at each axis
# (docs/performance.md, "GTIR inference").
@lru_cache(maxsize=4096)
def _axis_cell(value: str, kind: str) -> Cell:
    return g.dim(_dimension_named(value, kind))


def _dim_cell(dimension: gt.Dimension) -> Cell:
    """A dimension's constant by its name and kind, which hash faster than the dimension: a
    connectivity's, at each `neighbors` and shift (see `_axis_cell`)."""
    return _axis_cell(dimension.value, dimension.kind)


def _is_builtin_call(node: Node, name: str) -> bool:
    return isinstance(node, FunCall) and isinstance(node.fun, SymRef) and node.fun.id == name


_VISIT: dict[type, Callable[..., Cell | None]] = {
    Sym: GtirInference.sym,
    SymRef: GtirInference.symref,
    Literal: GtirInference.literal,
    InfinityLiteral: GtirInference.infinity,
    AxisLiteral: GtirInference.axis,
    OffsetLiteral: GtirInference.offset,
    CartesianOffset: GtirInference.cartesian,
    Lambda: GtirInference.function,
    FunctionDefinition: GtirInference.function,
    FunCall: GtirInference.call,
    Temporary: GtirInference.temporary,
    SetAt: GtirInference.set_at,
    Program: GtirInference.nothing,
}

_RULES: dict[str, Callable[[GtirInference, int, FunCall, list[int]], Cell]] = {
    name[len("rule_") :]: rule
    for name, rule in vars(GtirInference).items()
    if name.startswith("rule_")
}

#: The rules of the builtins typed where they are applied (`as_fieldop(stencil)(inputs…)`), by
#: name; `map_tuple` maps a function over a tuple, `tree_map_tuple` over its leaves.
_APPLIED: dict[str, Callable[[GtirInference, int, FunCall, list[int]], Cell]] = {
    "shift": GtirInference.shifted,
    "as_fieldop": GtirInference.as_fieldop,
    "lift": GtirInference.lift,
    "reduce": GtirInference.reduce,
    "map_list": GtirInference.map_list,
    "map_tuple": GtirInference.map_tuple,
    "tree_map_tuple": GtirInference.map_tuple,
}
