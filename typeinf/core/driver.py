"""The one driver of inference, for both dialects: what a collector does alike whatever IR it
types.

- `Collector`, the base of both dialects' collectors: the names declared twice reported
  first, then each part typed under a guard (`guarded`) that keeps its error, once per node
  and message, up to the error limit, and the errors put in source order at the end (`drive`);
- `check_arity`: a builtin typed by a rule, called with another number of arguments.

A dialect gives its hooks: which parts it types, in which order (the `collect` given to
`drive`), and what a failed part leaves behind besides the solver's (`failed`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn, Protocol

from iterir import FunCall, FunctionDefinition, Node, Sym
from iterir.nodes import Temporary
from iterir.symbols import SymbolTable
from iterir.traversal import Tree
from typeinf.core.constraints import Reason
from typeinf.core.diagnostics import declared_twice_error, rule_arity_error
from typeinf.core.errors import TypeInferenceError
from typeinf.core.solve import Solver
from typeinf.core.terms import Cell


class EnoughErrors(Exception):
    """As many errors as were asked for: stop collecting."""


class Equality(Protocol):
    """What a collector and its rules say two types are one through: `Solver.equal`."""

    def __call__(
        self, expected: Cell, actual: Cell, position: int, reason: Reason | None = None
    ) -> None:
        """`expected` and `actual` are one type, for the node at `position` (`reason`: why, if
        not that node's typing rule)."""


class Collector:
    """What a collector of either dialect does alike: it types its parts under a guard, each
    failing part an error of its own, and reports the names declared twice first."""

    root: Node
    nodes: list[Node]
    sizes: list[int]
    symbols: SymbolTable
    #: The type of each node, by pre-order position (None: not typed, or not typed yet).
    types: list[Cell | None]
    solver: Solver
    #: `Solver.equal` of this run's solver.
    equal: Equality
    #: (the position of the part that failed, its error), in source order once collected.
    errors: list[tuple[int, TypeInferenceError]]
    #: Each error's node and message, once.
    reported: set[tuple[int, str]]
    #: 1: raise the first error; more: keep that many in `errors`, then stop.
    max_errors: int

    def begin(
        self,
        root: Node,
        tree: Tree,
        symbols: SymbolTable,
        solver: type[Solver],
        explain: bool,
        max_errors: int,
    ) -> None:
        """The state of a run over `root`'s `tree` (its nodes in pre-order, their subtrees'
        sizes) before anything is typed: what each name refers to (`symbols`), no type, a
        solver of the dialect's class (keeping a history if `explain`), no error (the first
        raised if `max_errors` is 1, else that many kept)."""
        self.root, (self.nodes, self.sizes) = root, tree
        self.symbols = symbols
        self.types = [None] * len(self.nodes)
        self.solver = solver(self.nodes, self.types, explain)
        # Every constraint goes through the solver, which knows the run it is in: the inference
        # holds its solver, never the other way round, so that a run is freed by reference
        # counting when its caller drops it (inside GT4Py's pass manager too).
        self.equal = self.solver.equal
        self.errors = []
        self.reported = set()
        self.max_errors = max_errors

    def drive(self, collect: Callable[[], None]) -> None:
        """Report the names declared twice, then `collect` the parts (each under `guarded`),
        until there are as many errors as were asked for; the errors in source order."""
        try:
            for position, first in self.symbols.duplicates:
                self.guarded(position, _declared_twice, self.nodes, position, first)
            collect()
        except EnoughErrors:
            pass
        self.errors.sort(key=_source_order)

    def guarded(self, position: int, step: Callable[..., object], *args: object) -> bool:
        """Run `step(*args)`; on a type error, raise it (when one error is wanted) or keep it,
        as the error of the part at `position`, and say False."""
        try:
            step(*args)
        except TypeInferenceError as error:
            if self.max_errors <= 1:
                raise
            # A part's error can be found again (the fencil IR's final search for infinite
            # types finds a failed definition's cycle again): once. A set, as a scan of the
            # errors kept made reporting N errors quadratic.
            key = (id(error.node), error.message)
            if key not in self.reported:
                self.reported.add(key)
                self.errors.append((position, error))
            if len(self.errors) >= self.max_errors:
                raise EnoughErrors from None
            self.failed()
            return False
        return True

    def failed(self) -> None:
        """Drop what a failed part left behind: the solver's pairs undecided and relations
        open (a dialect adds its own)."""
        self.solver.forget()


def _declared_twice(nodes: list[Node], position: int, first: int) -> NoReturn:
    node = nodes[position]
    assert isinstance(node, (Sym, FunctionDefinition, Temporary))  # what declares a name
    raise declared_twice_error(node, nodes[first])


def _source_order(error: tuple[int, TypeInferenceError]) -> tuple[int, int, int]:
    """Errors by line and column where the program was parsed, else by pre-order position."""
    position, exc = error
    loc = exc.node.loc if exc.node is not None else None
    return (loc.line, loc.column, position) if loc is not None else (0, 0, position)


def check_arity(call: FunCall, count: int) -> None:
    """A builtin typed by a rule that takes `count` arguments, called with another number, is
    an error."""
    if len(call.args) != count:
        raise rule_arity_error(call, count)
