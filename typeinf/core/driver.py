"""The one driver of inference, for both dialects (docs/architecture.md, "One driver"): what a
collector does alike whatever IR it types, and the order of its two runs.

- `Collector`, the base of both dialects' collectors: the names declared twice reported
  first, then each part typed under a guard (`guarded`) that keeps its error, once per node
  and message, up to the error limit, and the errors put in source order at the end (`drive`);
- `check_arity`: a builtin typed by a rule, called with another number of arguments;
- `typed` and `checked`: the fast run first, and only on an error the explaining run, whose
  errors are the ones reported (`typed` raises the first, `checked` keeps them all); a
  disagreement of the two runs is an `InternalError` (`errors.runs_disagree`).

A dialect gives its hooks: which parts it types, in which order (the `collect` given to
`drive`); what a failed part leaves behind besides the solver's (`failed`); and whether its
fast run's errors are shown as they are (`shows_fast_errors`, the solver's). GTIR's are: the
GT4Py drop-in raises them with no second run, so both runs must say the same words, and the
driver checks that they do. The fencil IR's are never shown: its explaining run visits in
post-order, to blame the later of two conflicting uses, and may word an error otherwise.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import NoReturn, Protocol, TypeVar

from iterir import FunCall, FunctionDefinition, Node, Sym
from iterir.nodes import Temporary
from iterir.symbols import SymbolTable
from iterir.traversal import Tree
from typeinf.core.constraints import Reason
from typeinf.core.diagnostics import declared_twice_error, rule_arity_error
from typeinf.core.errors import TypeInferenceError, runs_disagree
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


C = TypeVar("C", bound=Collector)


def typed(run: Callable[[bool, int], C], shows_fast_errors: bool) -> C:
    """The fast run's inference (`run(explain, max_errors)`); on a type error, the explaining
    run's first error, with its reasons, raised instead: an `InternalError` if it finds none,
    or, where the fast run's errors are shown (`shows_fast_errors`), one in other words."""
    try:
        return run(False, 1)
    except TypeInferenceError as error:
        fast = error
    # Outside the handler, so that the error with reasons is raised alone, not "during
    # handling" of the fast run's.
    try:
        run(True, 1)
    except TypeInferenceError as error:
        _confirm(fast, [error], shows_fast_errors)
        raise
    raise runs_disagree("fast", "explaining", fast) from fast


def checked(
    run: Callable[[bool, int], C], max_errors: int | None, shows_fast_errors: bool
) -> tuple[C | None, list[TypeInferenceError]]:
    """Every independent error (at most `max_errors`), with its reasons, and the inference
    to read the types off: the fast run's when it finds no error; else the explaining run's,
    whose errors those are (`typed` says when the two disagree). None with a tree that no
    part of can be typed, whose error is then the only one."""
    try:
        return run(False, 1), []
    except TypeInferenceError as error:
        fast = error
    try:
        # Two at least, so that the first error is kept rather than raised.
        inference = run(True, max(max_errors or sys.maxsize, 2))
    except TypeInferenceError as error:  # before any part could be typed: a malformed tree
        return None, [error]
    errors = [error for _, error in inference.errors]
    _confirm(fast, errors, shows_fast_errors)
    return inference, errors[:max_errors]


def _confirm(
    fast: TypeInferenceError, explained: list[TypeInferenceError], shows_fast_errors: bool
) -> None:
    """Raise `InternalError` unless the explaining run found an error where the fast run found
    `fast`, and, where the fast run's errors are shown, one in its words."""
    if not explained or (
        shows_fast_errors and all(error.message != fast.message for error in explained)
    ):
        raise runs_disagree("fast", "explaining", fast) from fast
