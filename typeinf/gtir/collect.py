"""Typing GTIR (docs/gtir.md, "Typing"): a `Program`, or a standalone expression whose free
names carry their types, walked once, children before parents, each typing rule (a builtin's:
`rules.RULES`, or its signature) unifying what it relates and relating what unification cannot
say (`relations`).

A program's function definitions are typed first, each after the ones it uses (`order`:
recursion is an error naming the cycle) and generalized (let-polymorphism: each use is a fresh
instance); then its parameters (from `Sym.type`), temporaries (`Field[domain dims, dtype]`,
mapped over tuples) and statements, each definition and statement a part of its own, so that
`check` reports one error per failing part.

What the fast and the explaining run do differently (reading a type already known, a
builtin's call, a relation's reason, …) the collector and the rules ask their run
(`inf.run`, `typeinf.gtir.runs`), never which run it is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from iterir.nodes import (
    AxisLiteral,
    CartesianOffset,
    FunCall,
    FunctionDefinition,
    IfStmt,
    InfinityLiteral,
    Lambda,
    Literal,
    Node,
    OffsetLiteral,
    Program,
    SetAt,
    Sym,
    SymRef,
    Temporary,
)
from iterir.offset_types import OffsetType
from iterir.symbols import BindingKind, SymbolTable, resolve
from iterir.traversal import Tree, child_positions
from iterir.vocabulary import GTIR_BUILTINS
from typeinf.core.constraints import Equal, Reason
from typeinf.core.constructors import Constructor
from typeinf.core.diagnostics import MAX_REASONS
from typeinf.core.driver import Collector
from typeinf.core.errors import (
    GrammarBuiltinError,
    MalformedIRError,
    TypeInferenceError,
    UnsatisfiableConstraintError,
    checked_preorder,
    unchained,
)
from typeinf.core.order import definition_order
from typeinf.core.relations import Relation
from typeinf.core.schemes import Scheme, Shared
from typeinf.core.solve import Solver, check_finite
from typeinf.core.terms import Cell, Mismatch, Sort, find, make, var
from typeinf.gtir import calls, expressions, messages
from typeinf.gtir import terms as g
from typeinf.gtir.notation import GtirPrinter, pformat_gtir_all
from typeinf.gtir.relations import set_difference
from typeinf.gtir.rules import RULES
from typeinf.gtir.runs import SHOWS_FAST_ERRORS, ExplainingRun, FastRun
from typeinf.gtir.signatures import SIGNATURES

_PARAMETER = BindingKind.PARAMETER
_BUILTIN = BindingKind.BUILTIN


@dataclass(frozen=True)
class Reading:
    """What the rules leave open or unchecked where another inference does, so that a caller
    that stands in for it leaves on the nodes what it leaves (`PRINCIPAL`: nothing, the most
    general types; `GT4PY_READING`: GT4Py 1.2.3's, which the drop-in, `typeinf.gt4py`, passes).
    The caller chooses; the rules read each choice by its name, never who the caller is."""

    #: A function definition named once is typed at its one use, monomorphic
    #: (`schemes.Shared`), not generalized.
    monomorphic_once: bool = False
    #: The result of an `as_fieldop` given no domain, for which none is deduced, is left unknown.
    unknown_undeduced_domain: bool = False
    #: `neighbors` does not check that its iterator is defined at the connectivity's target.
    neighbors_unchecked: bool = False


PRINCIPAL = Reading()
#: GT4Py 1.2.3's: where its passes may tell the difference, and where its own tests rely on
#: what it does not check (`neighbors` of an iterator defined elsewhere). Kept here, without
#: GT4Py, so that tests and benchmarks that run without GT4Py read as the drop-in reads.
GT4PY_READING = Reading(
    monomorphic_once=True, unknown_undeduced_domain=True, neighbors_unchecked=True
)


class GtirSolver(Solver):
    """The solver, its errors said in GTIR's notation: a mismatch (`unsatisfiable`) and a
    relation that cannot hold (`cannot_hold`); its fast run's errors are shown as they are
    (`runs.SHOWS_FAST_ERRORS`)."""

    def __init__(self, nodes: list[Node], types: list[Cell | None], explain: bool = False) -> None:
        super().__init__(nodes, types, explain, SHOWS_FAST_ERRORS)

    def unsatisfiable(
        self, constraint: Equal, mismatch: Mismatch, start: int | None = None
    ) -> UnsatisfiableConstraintError:
        """The error two types that cannot be one are, showing both; in the explaining run,
        with a note for each rule that gave either side its type."""
        expected, actual, position, _ = constraint
        shown, found = pformat_gtir_all([expected, actual])
        notes = []
        if self.history is not None:
            for text, cell in ((shown, expected), (found, actual)):
                notes += [
                    (messages.comes_from(text, reason), node)
                    for reason, node in self.history.of_type([cell])[:MAX_REASONS]
                ]
        difference = set_difference(expected, actual)
        return UnsatisfiableConstraintError(
            messages.mismatch(shown, found, difference),
            self.nodes[position],
            shown,
            found,
            difference,
            notes=notes,
        )

    def cannot_hold(
        self, relation: Relation, position: int, reason: Reason, why: str
    ) -> UnsatisfiableConstraintError:
        shown = relation.show(GtirPrinter(list(relation.cells)).render)
        return UnsatisfiableConstraintError(
            messages.cannot_hold(shown, why), self.nodes[position], shown, why
        )


class GtirInference(Collector):
    """One inference over a GTIR program or expression: the type of every node, by pre-order
    position; the first error raised, or with `max_errors` > 1 one per part kept in `errors`
    (`Collector`, the driver both dialects share)."""

    #: The free names without a type that are unknowns (True: all); see `__init__`.
    allow_free: bool | Collection[str]
    #: `relate` of this run (`runs.FastRun.relate`, `runs.ExplainingRun.relate`): a relation
    #: that must hold, for the node at a position (see `_start`).
    relate: Callable[[Relation, int], None]
    #: The definitions typed monomorphic, at their one use (`Reading.monomorphic_once`).
    used_once: frozenset[int]

    def __init__(
        self,
        root: Node,
        offset_types: Mapping[str, OffsetType] | None = None,
        *,
        max_errors: int = 1,
        explain: bool = False,
        reading: Reading = PRINCIPAL,
        allow_free: bool | Collection[str] = False,
        tree: Tree | None = None,
    ) -> None:
        """`offset_types`: what each offset name is (None: no offset provider given);
        `allow_free`: the free names without a type (all, with True) that are unknowns, one
        variable per name (GT4Py's printed text writes no name's type), not errors;
        `explain`: keep the history of what was joined and why (`typeinf explain`);
        `reading`: what the rules leave open or unchecked (`Reading`; the drop-in passes
        `GT4PY_READING`); `tree`: `root` numbered in pre-order already (`checked_preorder`),
        by the dispatch that looked into it."""
        if tree is None:
            tree = checked_preorder(root)
        symbols = resolve(root, GTIR_BUILTINS, tree=tree)
        self._start(root, tree, symbols, offset_types, max_errors, explain, reading)
        self.allow_free = allow_free
        self.drive(self._collect)

    # -- driving ----------------------------------------------------------------------------------
    def _collect(self) -> None:
        """Type the program's parts, or the statement or expression at the root."""
        if isinstance(self.root, Program):
            self._program()
        else:
            self._statement(0)

    def _program(self) -> None:
        root = self.root
        assert isinstance(root, Program)
        children = child_positions(self.sizes, 0, root.child_count())
        ndefs = len(root.function_definitions)
        order: list[int] = []

        def ordered() -> None:
            order.extend(definition_order(self.nodes, self.sizes, self.symbols, children[:ndefs]))

        if not self.guarded(0, ordered):
            return
        if self.reading.monomorphic_once:
            self.used_once = _used_once(self.symbols)
        for position in order:
            if not self.guarded(position, self._definition, position):
                self.schemes[position] = Scheme(var(Sort.DTYPE))  # anything, to its users
        nodes = self.nodes
        for position in children[ndefs:]:
            node = nodes[position]
            if type(node) is Sym:  # a parameter: its declared type, nothing to settle or check
                self.guarded(position, self._parameter, position, node)
            else:
                self._statement(position)

    def _parameter(self, position: int, node: Sym) -> None:
        """A program parameter typed as a part of its own, without `_part`'s walk, relations
        to settle or search for cycles (a declared type has none): a fixed cost per parameter
        that small programs with many parameters feel (docs/performance.md, "GTIR
        inference")."""
        self.types[position] = expressions.sym(self, position, node)

    def _statement(self, position: int) -> None:
        """Type a parameter, temporary or statement; an `IfStmt`'s condition and each
        statement of its branches as parts of their own (one error each), in source order
        (an explicit stack: `IfStmt`s nest without limit)."""
        pending = [position]
        while pending:
            at = pending.pop()
            node = self.nodes[at]
            if not isinstance(node, IfStmt):
                self.guarded(at, self._part, at)
                continue
            children = child_positions(self.sizes, at, node.child_count())
            if self.guarded(children[0], self._part, children[0]):
                self.guarded(at, self.if_stmt, at, node)
            pending.extend(reversed(children[1:]))

    def _definition(self, position: int) -> None:
        # One typed at its one use is settled there, where its parameters are known: settled
        # here too, each of its relations would fire once more only to wait again.
        once = position in self.used_once
        self._part(position, settle=not once)
        cell = self.type_at(position)
        if once:
            self.schemes[position] = Shared(cell, *self.solver.take_waiting())
        else:  # a scheme copies each relation at every use: each once
            self.schemes[position] = Scheme(cell, _distinct(self.solver.take_open()))

    def _part(self, start: int, settle: bool = True) -> None:
        """Type the subtree at `start`, children before parents, in the run's order (reverse
        pre-order, in both runs: see `runs`), then settle its relations (but where `settle` is
        False: a definition typed at its one use, `_definition`)."""
        nodes, types, visit, bindings = self.nodes, self.types, _VISIT, self.symbols.bindings
        call, scalars = GtirInference.call, expressions.SCALARS
        for position in self.run.order(self.sizes, start):
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
                        cell = types[declared] = expressions.sym(self, declared, declaration)  # type: ignore[arg-type, index]  # a Sym's
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
                raise MalformedIRError(messages.cannot_type_here(type(node).__name__), node)
            cell = rule(self, position, node)
            if types[position] is None:
                types[position] = cell
        if settle:
            self.solver.settle()
        # A type that contains itself (`λ(x) → x(x)`) is an error at its node, as for fencils,
        # before a definition is generalized (which needs finite types) or a value is read off.
        # Its cost: docs/performance.md, "GTIR inference".
        check_finite(nodes, self.types, range(start, start + self.sizes[start]), pformat_gtir_all)

    # -- the state of a run -----------------------------------------------------------------------
    def _start(
        self,
        root: Node,
        tree: Tree,
        symbols: SymbolTable,
        offset_types: Mapping[str, OffsetType] | None,
        max_errors: int,
        explain: bool = False,
        reading: Reading = PRINCIPAL,
    ) -> None:
        """The state of a run over `tree` (nodes in pre-order, sizes) before anything is typed:
        shared with `typeinf.incremental.gtir`, which lays out only the parts it types again."""
        self.offset_types = offset_types
        self.reading = reading
        self.allow_free = False  # a free name without a type is an error unless allowed
        self.unknowns: dict[str, Cell] = {}
        self.begin(root, tree, symbols, GtirSolver, explain, max_errors)
        #: What the fast and the explaining run do differently (see `runs`): the rules ask it,
        #: never which run it is in.
        self.run: FastRun | ExplainingRun = (ExplainingRun if explain else FastRun)(self.solver)
        self.relate = self.run.relate
        self.schemes: dict[int, Scheme | Shared] = {}
        self.used_once = frozenset()

    # -- helpers ----------------------------------------------------------------------------------
    def visit(self, position: int, node: Node) -> Cell | None:
        """The type of the node at `position` by its kind's visit (`_VISIT`)."""
        return _VISIT[type(node)](self, position, node)

    def type_at(self, position: int) -> Cell:
        cell = self.types[position]
        if cell is None:
            raise GrammarBuiltinError(messages.NOT_A_VALUE, self.nodes[position])
        return cell

    def args(self, position: int, node: FunCall) -> list[int]:
        """The positions of a call's arguments (after its callee's subtree)."""
        return child_positions(self.sizes, position, len(node.args) + 1)[1:]

    def inside(self, position: int, ctor: Constructor, sort: Sort) -> Cell:
        """What the type at `position`, a `ctor[…]` of one part of `sort` (a domain's
        dimensions, a named range's dimension), holds: read where the run may read it (see
        `runs`: no fresh pattern to build and unify; docs/performance.md, "GTIR inference"),
        else unified with a fresh one."""
        cell = self.type_at(position)
        known = self.run.known(cell)
        if known is not None and known.ctor is ctor:
            return known.args[0]
        part = var(sort)
        self.equal(make(ctor, part), cell, position)
        return part

    # -- calls ------------------------------------------------------------------------------------
    def call(self, position: int, node: FunCall) -> Cell | None:
        """A call: of a builtin by its rule (`rules.RULES`) or its signature; of a call of a
        builtin typed where it is applied (`as_fieldop(stencil)(inputs…)`) by that rule; any
        other by its callee's type."""
        callee = node.fun
        # A callee without a type: a builtin called, which `_part` skips, or a call of one typed
        # where it is applied. Found by its name in one table, the arguments' positions found
        # only where a rule reads them (docs/performance.md, "GTIR inference").
        if self.types[position + 1] is None:
            if type(callee) is SymRef:
                name = callee.id
                rule = RULES.get(name)
                called = None if rule is None else rule.called
                if rule is not None and called is None:
                    return None  # typed by the call that applies it
                # The arguments' positions, after the callee's one node (`args`, inline, as
                # `_part` dispatches directly: see there).
                sizes, args, child = self.sizes, [], position + 2
                for _ in node.args:
                    args.append(child)
                    child += sizes[child]
                if called is not None:
                    return called(self, position, node, args)
                if name in SIGNATURES:
                    return calls.by_signature(self, name, position, node, args)
                raise TypeInferenceError(messages.builtin_not_typed(name), node)
            if isinstance(callee, FunCall) and isinstance(callee.fun, SymRef):
                rule = RULES.get(callee.fun.id)
                applied = None if rule is None else rule.applied
                if applied is not None:
                    return applied(self, position, callee, self.args(position, node))
        return calls.apply(self, self.type_at(position + 1), position, self.args(position, node))

    # -- statements -------------------------------------------------------------------------------
    def set_at(self, position: int, node: SetAt) -> None:
        expr, domain, target = child_positions(self.sizes, position, 3)
        try:
            self.equal(self.type_at(target), self.type_at(expr), expr)
        except UnsatisfiableConstraintError as error:
            raise unchained(
                error.reworded(messages.written_mismatch(error.actual, error.expected))
            ) from None
        self.type_at(domain)  # a domain, or a tuple of them for a tuple target: its rules said

    def if_stmt(self, position: int, node: IfStmt) -> None:
        try:
            self.equal(g.scalar("bool"), self.type_at(position + 1), position + 1)
        except UnsatisfiableConstraintError as error:
            raise unchained(error.reworded(messages.if_condition(error.actual))) from None

    def nothing(self, position: int, node: Node) -> None:
        return None


def _used_once(symbols: SymbolTable) -> frozenset[int]:
    """The positions of the function definitions named exactly once in the program."""
    uses = Counter(
        declared
        for kind, _, declared in symbols.bindings.values()
        if kind is BindingKind.FUNCTION_DEFINITION and declared is not None
    )
    return frozenset(position for position, count in uses.items() if count == 1)


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


_VISIT: dict[type, Callable[..., Cell | None]] = {
    Sym: expressions.sym,
    SymRef: expressions.symref,
    Literal: expressions.literal,
    InfinityLiteral: expressions.infinity,
    AxisLiteral: expressions.axis,
    OffsetLiteral: expressions.offset,
    CartesianOffset: expressions.cartesian,
    Lambda: expressions.function,
    FunctionDefinition: expressions.function,
    FunCall: GtirInference.call,
    Temporary: expressions.temporary,
    SetAt: GtirInference.set_at,
    Program: GtirInference.nothing,
}
