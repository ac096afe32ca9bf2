"""Solving constraints as the collector emits them, in evaluation order.

Each constraint is unified at once, so that the first one that fails is the later of two
conflicting uses, and no constraint needs to be stored. A definition is generalized once its
body is collected (the collector types definitions in dependency order), and every reference to
it is a fresh instance of that scheme (let-polymorphism). Infinite types are found by one search
for cycles in the type graph at the end, which keeps unification near-linear.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from itertools import repeat

from iterir import Node
from typeinf.core import messages
from typeinf.core.constraints import (
    Equal,
    Reason,
    RelationOf,
    rule_of,
)
from typeinf.core.errors import InfiniteTypeError, UnsatisfiableConstraintError, unchained
from typeinf.core.history import History
from typeinf.core.relations import CannotHold, Relation
from typeinf.core.schemes import Scheme, Shared, Template
from typeinf.core.terms import Cell, Mismatch, Type, find
from typeinf.core.unify import unify
from typeinf.core.watch import Watch, changed, watched

#: A relation waiting for its inputs: the relation, the position and reason of what made it, and
#: what it read when it last fired.
Open = tuple[Relation, int, Reason, Watch | None]


class Solver:
    """The unifier's state for one program: schemes of solved definitions, and the pairs of rows
    that could not be decided yet.

    With `explain`, it also keeps the history of what unification joined and why (`history`),
    so that an error can tell the reasons behind each of its types (the explaining run, see
    `runs`, unifies through `unify_recorded`). `shows_fast_errors`: the fast run's errors are
    shown as they are (GTIR's, which the GT4Py drop-in raises; `typeinf.core.driver`), so its
    unification undoes a mismatch too, for the error to show the types as they were.

    It is the dialect's solver that is made: the engine has no words of its own, and each
    dialect gives how a failed constraint (`unsatisfiable`) or relation (`cannot_hold`) is said.
    """

    def __init__(
        self,
        nodes: list[Node],
        types: list[Cell | None],
        explain: bool = False,
        shows_fast_errors: bool = False,
    ) -> None:
        self.nodes, self.types = nodes, types
        self.shows_fast_errors = shows_fast_errors
        self.schemes: dict[
            int, Scheme | Template
        ] = {}  # definition position → its generalized type
        self.postponed: list[tuple[Cell, Cell, Equal]] = []
        self.open: list[Open] = []  # relations waiting for their inputs (see `relate`)
        #: How many relations were made (`relate`) and how many times one was fired, for the
        #: benchmarks' fires per relation.
        self.related = self.fires = 0
        #: What unification joined, and why (the explaining run's; None in the fast run).
        self.history: History | None = History(nodes) if explain else None

    def equal(
        self, expected: Cell, actual: Cell, position: int, reason: Reason | None = None
    ) -> None:
        """`expected` and `actual` are one type, because of `reason` at `position` (None: the
        typing rule of the node there, `rule_of`): what every typing rule and relation of both
        dialects says through. The fast run (no history) unifies without undo, unless its
        errors are shown (`shows_fast_errors`): a mismatch leaves the graph half-changed, which
        is fine since the run then stops. The explaining run unifies with an undo trail and
        records what it joined (`unify_recorded`). Pairs `unify` cannot decide yet are
        postponed to `settle`. A mismatch is said in the dialect's words (`unsatisfiable`, a
        hook of the dialect's solver)."""
        if self.history is None:
            # The most frequent case first (this runs once per constraint): a fresh variable binds
            # directly to a structure (`unify.binds_directly`).
            if actual.parent is None and actual.ctor is None and actual.family is None:
                while expected.parent is not None:  # `root_of` inline: see there
                    expected = expected.parent
                if expected.ctor is not None and expected.sort is actual.sort:
                    actual.parent = expected
                    return
            try:
                undecided = unify(expected, actual, [] if self.shows_fast_errors else None)
            except Mismatch as mismatch:
                said = Equal(expected, actual, position, reason or rule_of(self.nodes[position]))
                raise unchained(self.unsatisfiable(said, mismatch)) from None
        else:
            undecided = self.unify_recorded(expected, actual, position, reason)
        if undecided:
            said = Equal(expected, actual, position, reason or rule_of(self.nodes[position]))
            self.postpone(undecided, said)

    def postpone(self, undecided: list[tuple[Cell, Cell]], constraint: Equal) -> None:
        """Pairs `unify` could not decide yet, because of `constraint`: `settle` decides them."""
        self.postponed += [(x, y, constraint) for x, y in undecided]

    def unify_recorded(
        self, expected: Cell, actual: Cell, position: int, reason: Reason | None
    ) -> list[tuple[Cell, Cell]]:
        """`expected` and `actual` are one type (the explaining run): unified with an undo trail,
        what it joined kept in the history with `reason` (None: `rule_of` the node at
        `position`); a mismatch is the error, with the reasons behind each side. Returns the
        pairs `unify` could not decide yet."""
        history = self.history
        assert history is not None  # only the explaining run, which keeps history, records
        if reason is None:
            reason = rule_of(self.nodes[position])
        start = len(history.joins)
        try:
            undecided = unify(expected, actual, [], history.joins)
        except Mismatch as mismatch:
            error = self.unsatisfiable(Equal(expected, actual, position, reason), mismatch, start)
            history.forget(start)
            raise unchained(error) from None
        history.record(start, position, reason)
        return undecided

    def settle(self) -> None:
        """Fire the open relations to a fixpoint and decide the postponed pairs: at the end of a
        definition or closure, what the rest of it said about them is known. Deciding a pair
        may tell a relation its inputs, and a relation may bind what a pair needs: both are
        repeated until neither has anything left to do (a postponed pair is decided or an error
        the first time, so this ends)."""
        while True:
            if self.open:
                self.fire_open()
            if not self.postponed:
                return
            self.decide_postponed()
            if not self.open:
                return

    def decide_postponed(self) -> None:
        postponed, self.postponed = self.postponed, []
        for x, y, constraint in postponed:
            if self.history is not None:
                undecided = self.unify_recorded(x, y, constraint.position, constraint.reason)
            else:
                try:
                    undecided = unify(x, y)
                except Mismatch as mismatch:
                    raise unchained(self.unsatisfiable(constraint, mismatch)) from None
            if undecided:
                raise self.unsatisfiable(constraint, Mismatch(x, y, "unknown lengths"))

    def forget(self) -> None:
        """Drop what a failed definition or closure left undecided, and its open relations."""
        self.postponed = []
        self.open = []

    # -- relations (see `relations`) ------------------------------------------------------------
    def relate(
        self, relation: Relation, position: int, reason: Reason, waits: bool = False
    ) -> None:
        """`relation` must hold, because of `reason` at `position`: fired at once, and kept open
        if it must wait for its inputs (fired again at `settle`). `waits`: it is known to wait
        now, a definition's relation for an instance of it (`instantiate`): kept open unfired,
        and counted there."""
        if waits:
            self.open.append((relation, position, reason, None))
            return
        self.related += 1
        if not self.fire(relation, position, reason):
            self.open.append((relation, position, reason, watched(relation)))

    def fire(self, relation: Relation, position: int, reason: Reason) -> bool:
        """Fire `relation`: whether it settled. Raise its error if it cannot hold."""
        self.fires += 1
        equal = self.equal

        def equate(cell: Cell, value: Cell) -> None:
            if find(cell) is find(value):
                return
            try:
                equal(cell, value, position, reason)
            except UnsatisfiableConstraintError as error:  # what it determines clashes
                raise unchained(_Clash(error)) from None

        try:
            return relation.fire(equate)
        except CannotHold as failure:
            raise unchained(self.cannot_hold(relation, position, reason, failure.why)) from None
        except _Clash as clash:
            error = clash.error
            why = f"it determines `{error.actual}`, not `{error.expected}`"
            if error.difference is not None:
                why += f": {error.difference}"
            raise unchained(self.cannot_hold(relation, position, reason, why)) from None

    def fire_open(self) -> None:
        """Fire again, in the order they were made, the open relations whose inputs changed
        since they last fired (`changed`), in passes until a pass fires none; a relation that
        settles is dropped and never visited again. A relation is a function of the graph
        reachable from its cells, so one whose inputs did not change would wait again and bind
        nothing new: skipping it changes nothing but the time (Relay's dependency-driven
        solving; each relation fires about twice on real programs, docs/performance.md).

        Each fire that waits again records what it read after its own bindings, so only another
        relation's bindings, or a postponed pair's (`settle`), make it fire again. Each change
        binds a variable or joins two classes, which are finitely many: this ends."""
        fired = True
        while fired and self.open:
            waiting, self.open, fired = self.open, [], False
            for entry in waiting:
                watch = entry[3]
                if watch is not None and not changed(watch):
                    self.open.append(entry)
                    continue
                fired = True
                relation, position, reason, _ = entry
                if not self.fire(relation, position, reason):
                    self.open.append((relation, position, reason, watched(relation)))

    def take_waiting(self) -> tuple[tuple[Relation, ...], tuple[Watch | None, ...]]:
        """The relations still open, as they were made (children's before their parents'),
        and what each read when it last waited: those of a definition typed at its one use
        (`schemes.Shared`), fired there (`instantiate`) once what they read changes."""
        entries, self.open = self.open, []
        return tuple(entry[0] for entry in entries), tuple(entry[3] for entry in entries)

    def take_open(self) -> tuple[Relation, ...]:
        """The relations still open, which the solver no longer fires: those of a definition
        being generalized, which become part of its scheme."""
        if not self.open:
            return ()
        relations = self.in_order()
        self.open = []
        return relations

    def in_order(self) -> tuple[Relation, ...]:
        """The open relations by the position of the node that made them (each run visits nodes
        in an order of its own, so this is what makes both print a type alike)."""
        return tuple(entry[0] for entry in sorted(self.open, key=lambda e: e[1]))

    def instance(self, definition: int, position: int) -> Cell:
        """A fresh instance of the definition at `definition`, which is solved already, for the
        use at `position` (which its relations, if any, are about)."""
        scheme = self.schemes[definition]
        if not scheme.relations:
            return scheme.instantiate()
        return self.instantiate(scheme, position, waits=True)

    def instantiate(
        self,
        scheme: Scheme | Template | Shared,
        position: int,
        waits: bool = False,
        reason: Reason | None = None,
    ) -> Cell:
        """A fresh instance of a scheme with relations, each copied with the instance's cells
        and related at `position` (a use of a definition or builtin named there), because of
        `reason` (a `RelationOf` that node, if None). `waits`: the scheme is a definition's,
        generalized once its relations were fired to a fixpoint, where each waited: each copy,
        over a copy of that graph, would wait too and bind nothing, so it is kept open unfired
        until `settle` (`relate`). A `Shared` definition's relations are its own, moved to its
        one use, and were counted when made."""
        cell, relations = scheme.instantiate_related()
        if reason is None:
            reason = RelationOf(self.nodes[position])
        if type(scheme) is Shared:
            self.open += zip(relations, repeat(position), repeat(reason), scheme.reads)
            return cell
        if waits:
            self.related += len(relations)
        for relation in relations:
            self.relate(relation, position, reason, waits)
        return cell

    # -- the dialect's words: the two hooks a dialect's solver gives ------------------------------
    # The engine says no error in words of its own: each dialect prints types in its notation and
    # words a conflict as its users read it (the fencil IR with the reasons behind each side,
    # GTIR as GT4Py does). Both are methods of the dialect's solver class, the one the driver is
    # given (`Collector.begin`), so that nothing is passed or kept per run; only a failed
    # constraint calls them, never the hot path (`equal` as it succeeds).
    @abstractmethod
    def cannot_hold(
        self, relation: Relation, position: int, reason: Reason, why: str
    ) -> UnsatisfiableConstraintError:
        """The error of `relation`, made because of `reason` at `position`, that can never hold
        (`why`), in the dialect's words: `typeinf.fencil.collect.FencilSolver`'s, or
        `typeinf.gtir.collect.GtirSolver`'s."""

    @abstractmethod
    def unsatisfiable(
        self, constraint: Equal, mismatch: Mismatch, start: int | None = None
    ) -> UnsatisfiableConstraintError:
        """The error `constraint` is, failing with `mismatch`, in the dialect's words (`start`:
        where its joins begin in the history, if they are still there): the fencil IR's
        solver's, or GTIR's (see `cannot_hold`)."""


class _Clash(Exception):
    """What a relation determined clashes with what is known (the run's error, to be named as
    the relation's)."""

    def __init__(self, error: UnsatisfiableConstraintError) -> None:
        super().__init__(error.message)
        self.error = error


def check_finite(
    nodes: list[Node],
    types: list[Cell | None],
    positions: range,
    show: Callable[[list[Type]], list[str]],
) -> None:
    """Raise InfiniteTypeError if a type among `positions` contains itself, shown by `show`
    (the notation of the program's dialect)."""
    on_cycle = _cycle([c for c in types[positions.start : positions.stop] if c is not None])
    if not on_cycle:
        return
    for position in reversed(positions):
        cell = types[position]
        if cell is not None and id(find(cell)) in on_cycle:
            raise InfiniteTypeError(messages.infinite_type(show([cell])[0]), nodes[position])
    raise InfiniteTypeError(messages.INFINITE_PROGRAM, nodes[positions[0]])


def _cycle(cells: list[Cell]) -> set[int]:
    """The ids of the cells on one cycle reachable from `cells` (empty if there is none).

    Only structures with arguments can lie on a cycle, so leaves are never entered, nor marked:
    a constant is shared by every inference (see "Marks" in `terms`)."""
    active, done = object(), object()  # this search's marks: on the current path / finished
    for root in cells:
        while root.parent is not None:  # `root_of` inline: see there
            root = root.parent
        if root.mark is done or not root.args:
            continue
        root.mark = active
        path, pending = [root], [iter(root.args)]  # the current path, and what is left of each
        while pending:
            for child in pending[-1]:
                while child.parent is not None:  # `root_of` inline: see there
                    child = child.parent
                if child.mark is done or not child.args:
                    continue
                if child.mark is active:
                    return {id(c) for c in path[path.index(child) :]}
                child.mark = active
                path.append(child)
                pending.append(iter(child.args))
                break
            else:
                path.pop().mark = done
                pending.pop()
    return set()
