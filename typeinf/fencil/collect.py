"""Constraint collection: one pass over the IR assigns every node a type and emits, for each
typing rule (docs/rules.md, docs/offset-providers.md), the constraints that relate the types, which the solver
unifies at once.

Each definition and closure is collected children before parents in the order its run chooses
(`runs`: the fast run in reverse pre-order; the explaining run, for errors, in post-order: left
to right, the order of evaluation, so that an error blames the later of two conflicting uses);
a fencil's definitions come first, each after the definitions it uses. No recursion is
involved. Names declared twice (the driver, `typeinf.core.driver`) and free names (`names`)
are reported first; what the two runs do differently is asked of the run (`self.run`), never
which run it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

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
from iterir.nodes import PLACEMENT
from iterir.symbols import BindingKind, SymbolTable, resolve
from iterir.traversal import Tree, child_positions
from typeinf.core.constraints import (
    Annotation,
    Argument,
    Call,
    Equal,
    Reason,
)
from typeinf.core.constructors import FUN, T_EMPTY, TTUPLE, fixed_params, fun, prim, row
from typeinf.core.diagnostics import arity_error
from typeinf.core.driver import Collector
from typeinf.core.errors import (
    TypeInferenceError,
    UnsatisfiableConstraintError,
    checked_preorder,
)
from typeinf.core.offsets import OffsetProvider
from typeinf.core.order import definition_order
from typeinf.core.relations import Relation
from typeinf.core.schemes import Scheme
from typeinf.core.sizes import check_definition
from typeinf.core.solve import Solver, check_finite
from typeinf.core.terms import Cell, Mismatch, Sort, find, make, var
from typeinf.fencil import conflicts, messages, names, rules
from typeinf.fencil.constructors import ITERATOR, LIST, SCALAR, VALUE, val
from typeinf.fencil.notation import pformat_all
from typeinf.fencil.runs import ExplainingRun, FastRun, Run
from typeinf.fencil.signatures import BUILTINS, Signature


class FencilSolver(Solver):
    """The solver, its errors said in the fencil IR's words, with the reasons behind each side
    in the explaining run (`conflicts`): a mismatch (`unsatisfiable`) and a relation that cannot
    hold (`cannot_hold`)."""

    def cannot_hold(
        self, relation: Relation, position: int, reason: Reason, why: str
    ) -> UnsatisfiableConstraintError:
        return conflicts.cannot_hold(self.nodes, self.history, relation, position, reason, why)

    def unsatisfiable(
        self, constraint: Equal, mismatch: Mismatch, start: int | None = None
    ) -> UnsatisfiableConstraintError:
        return conflicts.unsatisfiable(
            self.nodes, self.types, self.history, constraint, mismatch, start
        )


class Inference(Collector):
    """One inference run over one program: the solved type of every node, by pre-order
    position (constraints collected from each typing rule and solved as they come; `Collector`,
    the driver both dialects share)."""

    def __init__(
        self,
        root: Node,
        offset_provider: OffsetProvider | None,
        *,
        explain: bool = False,
        max_errors: int = 1,
        allow_free: bool | frozenset[str] = False,
        known: tuple[str, ...] = (),
        tree: Tree | None = None,
    ) -> None:
        """Collect and solve; raise the first error, or with `max_errors` > 1 keep up to that
        many (one per failing definition or closure, and one per free name) in `errors`.
        `explain` keeps the history that errors need to give their reasons (see `FencilSolver`).
        `allow_free` says which free names are unknowns (True: all) rather than errors; `known`
        are names defined around `root` that it does not see, for suggestions; `tree`: `root`
        numbered in pre-order already (`checked_preorder`), by the dispatch that looked into it."""
        if tree is None:
            if type(root) not in PLACEMENT:
                raise messages.not_an_ir_node(root)
            tree = checked_preorder(root)
        nodes, sizes = tree
        symbols = resolve(root, BUILTINS.keys(), tree=(nodes, sizes))
        self._start(root, (nodes, sizes), symbols, offset_provider, explain, max_errors)
        self.allow_free: bool | frozenset[str] = allow_free
        self.known: tuple[str, ...] = known
        self.drive(self._collect)

    def _start(
        self,
        root: Node,
        tree: Tree,
        symbols: SymbolTable,
        offset_provider: OffsetProvider | None,
        explain: bool,
        max_errors: int,
    ) -> None:
        """The state of a run over `tree` (nodes in pre-order, sizes) before anything is typed:
        shared with `typeinf.incremental.reinference`, which lays out only the parts it infers again."""
        self.begin(root, tree, symbols, FencilSolver, explain, max_errors)
        self.offset_provider = offset_provider
        #: What the fast and the explaining run do differently (see `runs`).
        self.run: Run = (ExplainingRun if explain else FastRun)(self.solver)
        self.free_names: dict[str, Cell] = {}  # an allowed free name's type, shared by its uses
        self.unbound_parts: set[int] = set()  # definitions and closures with an unbound name
        self.uncalled: dict[int, str] = {}  # grammar builtins and type names not yet consumed
        self.builtin_callees: dict[int, Signature] = {}  # SymRef position → builtin it calls

    def failed(self) -> None:
        """Drop what a failed part left behind: the grammar builtins and type names it did not
        consume too."""
        self.uncalled.clear()
        super().failed()

    # -- driving ----------------------------------------------------------------------------------
    def _collect(self) -> None:
        """The free names, the parts, then a search for infinite types over the whole program."""
        self._parts()
        self.guarded(0, check_finite, self.nodes, self.types, range(len(self.nodes)), pformat_all)

    def _parts(self) -> None:
        for position, error in names.unbound_names(self):
            self.guarded(position, _raise, error)
        root = self.root
        if not isinstance(root, FencilDefinition):
            if not self.unbound_parts:
                self.guarded(0, self._collect_part, 0)
            return
        children = self.children(0)
        ndefs, nparams = len(root.function_definitions), len(root.params)
        order: list[int] = []
        if not self.guarded(0, self._order, children[:ndefs], order):
            return  # recursion: nothing can be typed in the order it needs
        for position in order:
            if not (
                position not in self.unbound_parts
                and self.guarded(position, self._collect_part, position)
                and self.guarded(position, self._generalize, position)
            ):
                # A definition that failed is, to its users, anything at all: no second error.
                self.solver.schemes[position] = Scheme(var(Sort.TYPE))
        for position in children[ndefs : ndefs + nparams]:
            self.decl(position)
        for position in children[ndefs + nparams :]:
            if position not in self.unbound_parts:
                self.guarded(position, self._collect_part, position)

    def _order(self, definitions: list[int], out: list[int]) -> None:
        out.extend(definition_order(self.nodes, self.sizes, self.symbols, definitions))

    def _generalize(self, position: int) -> None:
        cell = self.type_at(position)
        check_definition(cell, self.nodes[position])  # a type every use would copy: bounded
        self.run.generalize(position, cell, self.types, self.sizes[position])

    def _collect_part(self, start: int) -> None:
        """Type the definition, closure or expression at `start`, children before parents in the
        order the run chooses (unification does not depend on it)."""
        nodes, types, bindings, visit = self.nodes, self.types, self.symbols.bindings, _VISIT
        for position in self.run.order(self.sizes, start):
            node = nodes[position]
            cls = type(node)
            if cls is SymRef:  # the most frequent node: a parameter's use is typed here
                kind, _, declared = bindings[position]
                if kind is _PARAMETER or kind is _FENCIL_PARAMETER:
                    types[position] = types[declared] or self.decl(declared)  # type: ignore[index, arg-type]  # a parameter's binding has its position
                    continue
            typing = visit.get(cls)
            if typing is None:  # a node of another dialect (GTIR): read by iterir, not typed yet
                raise messages.not_the_fencil_ir(node)
            cell = typing(self, position, node)
            if types[position] is None:
                types[position] = cell
        for position, how in sorted(self.uncalled.items()):
            rules.misuse(self.nodes[position], how)
        self.solver.settle()

    def children(self, position: int) -> list[int]:
        node = self.nodes[position]
        return child_positions(self.sizes, position, node.child_count())

    def built(self, position: int) -> Cell | None:
        """The type of the node at `position`, for reading it off. A builtin (or, in the fast
        run, a definition) called directly gets its type at the call (its arguments' types
        to its result) only here: inference itself never needs it, and it would be a few cells
        more at every such call."""
        types = self.types
        cell = types[position]
        # Untyped, and the callee of a typed call (a call's first child is its callee): a
        # builtin called directly (typed by a signature or by a rule), or a definition.
        if (
            cell is None
            and position
            and type(self.nodes[position - 1]) is FunCall
            and types[position - 1] is not None
        ):
            call, call_type = self.nodes[position - 1], types[position - 1]
            assert isinstance(call, FunCall) and call_type is not None  # as just tested
            args = child_positions(self.sizes, position - 1, len(call.args) + 1)[1:]
            cell = types[position] = fun([self.type_at(a) for a in args], call_type)
        return cell

    def type_at(self, position: int) -> Cell:
        cell = self.types[position]
        if cell is None:  # a grammar builtin or type name used as a value
            rules.misuse(self.nodes[position], self.uncalled.get(position, "rule"))
        return cell

    # -- declarations and names -------------------------------------------------------------------
    def decl(self, position: int) -> Cell:
        """The type of the parameter declared at `position`, with its annotation's constraints."""
        cell = self.types[position]
        if cell is not None:
            return cell
        cell = self.types[position] = var(Sort.TYPE)
        sym = self.nodes[position]
        assert isinstance(sym, Sym)
        if sym.kind is not None or sym.dtype is not None:
            kind = {"Iterator": ITERATOR, "Value": VALUE}.get(sym.kind or "") or var(Sort.KIND)
            dtype = var(Sort.DTYPE)
            if sym.dtype is not None:
                name, is_list = sym.dtype
                dtype = prim(name)
                if is_list:
                    dtype = make(LIST, dtype, var(Sort.LENGTH), var(Sort.SKIP))
            # A value stands ANYWHERE, as every value does (so its type reads back from text).
            where = () if kind is VALUE else (var(Sort.LOC), var(Sort.LOC))
            annotated = val(kind, dtype, var(Sort.SIZE), *where)
            self.equal(annotated, cell, position, Annotation(sym.id))
        return cell

    def symref(self, position: int, node: SymRef) -> Cell | None:
        """The type of a use of a builtin, definition or free name (`_collect_part` types the uses
        of parameters)."""
        kind, _, declared = self.symbols.bindings[position]
        if kind is _BUILTIN:
            signature = BUILTINS[node.id]
            if signature.relations:  # typed the general way, by an instance with its relations
                return self.solver.instantiate(signature.scheme, position)  # type: ignore[arg-type]  # a signature with relations has a scheme
            if signature.how == "signature":
                if (
                    signature.instantiate_call is not None
                    and position
                    and type(self.nodes[position - 1]) is FunCall
                ):
                    # The callee of the call at position - 1 (a call's first child is its
                    # callee): `call` instantiates it.
                    self.builtin_callees[position] = signature
                    return None
                instantiate = signature.instantiate
                assert instantiate is not None  # typed by a signature
                return instantiate()
            self.uncalled[position] = signature.how  # the call or cast_ that uses it clears this
            return None
        if kind is _FUNCTION_DEFINITION:
            assert declared is not None  # a definition's binding has its position
            return self.run.definition_use(self, position, declared)
        # A free name: allowed, or its definition or closure is not typed (`names.unbound_names`).
        cell = self.free_names.get(node.id)
        if cell is None:
            cell = self.free_names[node.id] = var(Sort.TYPE)
        return cell

    # -- functions and calls ----------------------------------------------------------------------
    def function(self, position: int, node: Lambda | FunctionDefinition) -> Cell:
        *params, body = self.children(position)
        return fun([self.decl(p) for p in params], self.type_at(body))

    def call(self, position: int, node: FunCall) -> Cell:
        sizes, fun_position = self.sizes, position + 1
        args, child = [], fun_position + sizes[fun_position]  # `child_positions`, inline: hot
        for _ in node.args:
            args.append(child)
            child += sizes[child]
        callee = node.fun
        if fun_position in self.uncalled:
            assert isinstance(callee, SymRef)  # only names are left uncalled (see `symref`)
            how = self.uncalled.pop(fun_position)
            if how == "dtype":
                raise messages.type_name_called(callee)
            # Its callee's type is made only if read (see `built`).
            return rules.RULES[callee.id](self, position, node, args)
        signature = self.builtin_callees.pop(fun_position, None)
        if signature is not None:  # its function type is made only if read (see `built`)
            return self.run.call_builtin(self, signature, node, args, position)
        result = self.run.call_definition(self, fun_position, args, position)
        if result is not None:  # its callee's type is made only if read (see `built`)
            return result
        fun_type = self.type_at(fun_position)
        params = fixed_params(fun_type)
        if params is not None:  # a callee of known arity: the call's type is its result
            self.arguments(node, params, args, fun_position)
            return find(fun_type).args[1]
        ret = var(Sort.TYPE)
        called = make(FUN, row(TTUPLE, [self.type_at(a) for a in args], T_EMPTY), ret)
        self.equal(fun_type, called, position, self.call_reason(position, len(args)))
        return ret

    def call_reason(self, position: int, count: int) -> Reason:
        """The reason of the call at `position`, with `count` arguments (its callee is next)."""
        return Call(count, self.nodes[position + 1], position + 1)

    def arguments(
        self, node: FunCall, params: list[Cell], args: list[int], fun_position: int
    ) -> None:
        """One constraint per argument of a callee of known arity, for precise errors."""
        callee = node.fun
        if len(params) != len(args):
            raise arity_error(node, len(params), len(args))
        types, equal = self.types, self.equal
        for i, param in enumerate(params):
            arg = args[i]
            equal(param, types[arg] or self.type_at(arg), arg, Argument(i, callee, fun_position))


#: Binding kinds, read once: Python 3.11 reads an Enum's members slowly (see `terms.Sort`).
_PARAMETER, _FENCIL_PARAMETER = BindingKind.PARAMETER, BindingKind.FENCIL_PARAMETER
_BUILTIN, _FUNCTION_DEFINITION = BindingKind.BUILTIN, BindingKind.FUNCTION_DEFINITION


def _raise(error: TypeInferenceError) -> NoReturn:
    raise error


#: How each node class is typed.
_VISIT: dict[type, Callable[[Inference, int, Any], Cell | None]] = {
    Sym: lambda self, position, node: self.decl(position),
    SymRef: Inference.symref,
    Literal: rules.literal,
    OffsetLiteral: lambda self, position, node: var(Sort.TYPE),
    AxisLiteral: lambda self, position, node: val(VALUE, prim("axis"), SCALAR),
    Lambda: Inference.function,
    FunctionDefinition: Inference.function,
    FunCall: Inference.call,
    StencilClosure: rules.closure,
}
