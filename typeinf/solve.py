"""Solving constraints as the collector emits them, in evaluation order.

Each constraint is unified at once, so that the first one that fails is the later of two
conflicting uses, and no constraint needs to be stored. A definition is generalized once its
body is collected (the collector types definitions in dependency order), and every reference to
it is a fresh instance of that scheme (let-polymorphism). Infinite types are found by one search
for cycles in the type graph at the end, which keeps unification near-linear.
"""

from __future__ import annotations

from iterir import Node
from typeinf import diagnostics
from typeinf.constraints import Argument, Call, Conflict, Equal, Note, Reason
from typeinf.errors import InfiniteTypeError, UnsatisfiableConstraintError
from typeinf.notation import Printer, pformat_all
from typeinf.schemes import Scheme, Template
from typeinf.terms import Cell, Mismatch, Sort, Type, find, new_marks
from typeinf.unify import Trail, unify


class Solver:
    """The unifier's state for one program: schemes of solved definitions, and the pairs of rows
    that could not be decided yet.

    With `explain`, it also keeps which constraint linked each cell into another class, so that
    an error can tell the chain of reasons behind a type (the explaining run records it, see
    `runs`).
    """

    def __init__(self, nodes: list[Node], types: list[Cell | None], explain: bool = False) -> None:
        self.nodes, self.types = nodes, types
        self.schemes: dict[
            int, Scheme | Template
        ] = {}  # definition position → its generalized type
        self.postponed: list[tuple[Cell, Cell, Equal]] = []
        #: id of a cell → (position, reason) of the constraint that linked it, and its new parent.
        self.history: dict[int, tuple[int, Reason, Cell]] | None = {} if explain else None

    def postpone(self, undecided: list[tuple[Cell, Cell]], constraint: Equal) -> None:
        """Pairs `unify` could not decide yet, because of `constraint`: `settle` decides them."""
        self.postponed += [(x, y, constraint) for x, y in undecided]

    def record(self, trail: Trail, position: int, reason: Reason) -> None:
        history = self.history
        assert history is not None  # only the explaining run, which keeps history, records
        for cell, *_ in trail:
            if cell.parent is not None and id(cell) not in history:
                history[id(cell)] = (position, reason, cell.parent)

    def settle(self) -> None:
        """Decide the postponed pairs: at the end of a definition or closure, what the rest of it
        said about their lengths is known."""
        postponed, self.postponed = self.postponed, []
        for x, y, constraint in postponed:
            trail: Trail | None = None if self.history is None else []
            try:
                if unify(x, y, trail):
                    raise Mismatch(x, y, "unknown lengths")
            except Mismatch as mismatch:
                raise self.unsatisfiable(constraint, mismatch) from None
            if trail:
                self.record(trail, constraint.position, constraint.reason)

    def forget(self) -> None:
        """Drop what a failed definition or closure left undecided."""
        self.postponed = []

    def instance(self, definition: int) -> Cell:
        """A fresh instance of the definition at `definition`, which is solved already."""
        return self.schemes[definition].instantiate()

    def reasons(self, cell: Cell, position: int) -> list[tuple[Reason, Node]]:
        """Why `cell` has its type: the constraints that joined it, or anything in its class,
        with something else, in the order they were solved, each with the node it is about (the
        failing constraint's own `position` left out)."""
        if self.history is None:
            return []
        root, own = find(cell), []
        while id(cell) in self.history:  # the links out of `cell` itself
            at, reason, cell = self.history[id(cell)]
            own.append((at, reason))
        return self.joined({id(root)}, own, MAX_REASONS, skip=position, by_position=True)

    def joined(
        self,
        classes: set[int],
        also: list[tuple[int, Reason]],
        limit: int,
        skip: int | None = None,
        by_position: bool = False,
    ) -> list[tuple[Reason, Node]]:
        """The constraints that joined something into one of `classes` (ids of class roots),
        after `also`, in the order they were solved (or of their nodes' positions): the reason
        and the node each is about, one per node position, at most `limit`, the one at `skip` left
        out."""
        chain = also + [
            (at, reason)
            for at, reason, joined in (self.history or {}).values()
            if id(find(joined)) in classes
        ]
        if by_position:
            chain.sort(key=lambda pair: pair[0])
        out: list[tuple[Reason, Node]] = []
        seen = {skip}
        for at, reason in chain:
            if at not in seen and len(out) < limit:
                seen.add(at)
                out.append((reason, self.nodes[at]))
        return out

    def unsatisfiable(self, constraint: Equal, mismatch: Mismatch) -> UnsatisfiableConstraintError:
        """The error `constraint` is, failing with `mismatch`: its types and the clashing parts,
        printed together, and the reasons behind each (said in words by `diagnostics`)."""
        # Locations are shown when they are what differs.
        located = mismatch.left.sort in (Sort.LOC, Sort.LROW) or mismatch.right.sort in (
            Sort.LOC,
            Sort.LROW,
        )
        reason = constraint.reason
        callee = reason.callee_position if isinstance(reason, (Argument, Call)) else None
        callee_type = self.types[callee] if callee is not None else None
        callee_reasons = (
            self.reasons(callee_type, constraint.position) if callee_type is not None else []
        )
        shown: list[Type] = [constraint.expected, constraint.actual, mismatch.left, mismatch.right]
        printer = Printer(
            shown + ([callee_type] if callee_type is not None and callee_reasons else []), located
        )
        expected, actual, left, right = (printer.format(c) for c in shown)
        notes = [
            Note("expected", expected, why, at)
            for why, at in self.reasons(constraint.expected, constraint.position)
        ]
        if callee_reasons:  # what made the callee expect that
            assert callee is not None and callee_type is not None  # it has reasons: it has a type
            printed = printer.format(callee_type)
            notes += [
                Note("callee", printed, why, at, self.nodes[callee]) for why, at in callee_reasons
            ]
        notes += [
            Note("actual", actual, why, at)
            for why, at in self.reasons(constraint.actual, constraint.position)
        ]
        for cell, text in ((mismatch.left, left), (mismatch.right, right)):  # the parts that clash
            if cell is not constraint.expected and cell is not constraint.actual:
                notes += [
                    Note("part", text, why, at)
                    for why, at in self.reasons(cell, constraint.position)
                ]
        once: dict[int, Note] = {}
        for note in notes:  # one note per node, the first
            once.setdefault(id(note.node), note)
        node = self.nodes[constraint.position]
        where = printer.where()
        conflict = Conflict(
            reason, node, expected, actual, left, right, mismatch.why, where, tuple(once.values())
        )
        return diagnostics.unsatisfiable(conflict)


MAX_REASONS = 4


def check_finite(nodes: list[Node], types: list[Cell | None], positions: range) -> None:
    """Raise InfiniteTypeError if a type among `positions` contains itself."""
    on_cycle = _cycle([c for c in types[positions.start : positions.stop] if c is not None])
    if not on_cycle:
        return
    for position in reversed(positions):
        cell = types[position]
        if cell is not None and id(find(cell)) in on_cycle:
            text = pformat_all([cell])[0]
            raise InfiniteTypeError(
                f"this would need an infinite type (`{text}`, where `…` is the type itself)",
                nodes[position],
            )
    raise InfiniteTypeError("the program would need an infinite type", nodes[positions[0]])


def _cycle(cells: list[Cell]) -> set[int]:
    """The ids of the cells on one cycle reachable from `cells` (empty if there is none).

    Only structures with arguments can lie on a cycle, so leaves are never entered."""
    active, done = new_marks()  # on the current path / finished
    for root in cells:
        while root.parent is not None:
            root = root.parent
        if root.mark == done or not root.args:
            continue
        root.mark = active
        path, pending = [root], [iter(root.args)]  # the current path, and what is left of each
        while pending:
            for child in pending[-1]:
                while child.parent is not None:
                    child = child.parent
                if child.mark == done or not child.args:
                    continue
                if child.mark == active:
                    return {id(c) for c in path[path.index(child) :]}
                child.mark = active
                path.append(child)
                pending.append(iter(child.args))
                break
            else:
                path.pop().mark = done
                pending.pop()
    return set()
