"""Solving constraints as the collector emits them, in evaluation order.

Each constraint is unified at once, so that the first one that fails is the later of two
conflicting uses, and no constraint needs to be stored. A definition is generalized once its
body is collected (the collector types definitions in dependency order), and every reference to
it is a fresh instance of that scheme (let-polymorphism). Infinite types are found by one search
for cycles in the type graph at the end, which keeps unification near-linear.
"""

from __future__ import annotations

from iterir import Node
from typeinf.constraints import Equal, Reason, reason_text
from typeinf.errors import InfiniteTypeError, UnsatisfiableConstraintError
from typeinf.notation import Printer, pformat_all
from typeinf.terms import Cell, Scheme, Sort, find, new_marks
from typeinf.unify import Mismatch, unify


class Solver:
    """The unifier's state for one program: schemes of solved definitions, and the pairs of rows
    that could not be decided yet."""

    def __init__(self, nodes: list[Node]) -> None:
        self.nodes = nodes
        self.schemes: dict[int, Scheme] = {}  # definition position → its generalized type
        self.postponed: list[tuple[Cell, Cell, Equal]] = []

    def equal(self, expected: Cell, actual: Cell, position: int, reason: Reason) -> None:
        """`expected` and `actual` (the type of the node at `position`) are one type, because of
        `reason`; raise UnsatisfiableConstraintError if they cannot be."""
        # Inlined fast path of `unify` (the most frequent case, and this runs once per constraint):
        # a fresh variable without a family meets a structure of its sort.
        if actual.parent is None and actual.ctor is None and actual.family is None:
            while expected.parent is not None:
                expected = expected.parent
            if expected.ctor is not None and expected.sort is actual.sort:
                actual.parent = expected
                return
        try:
            undecided = unify(expected, actual)
        except Mismatch as mismatch:
            raise self.unsatisfiable(Equal(expected, actual, position, reason), mismatch) from None
        if undecided:
            constraint = Equal(expected, actual, position, reason)
            self.postponed += [(x, y, constraint) for x, y in undecided]

    def settle(self) -> None:
        """Decide the postponed pairs: at the end of a definition or closure, what the rest of it
        said about their lengths is known."""
        postponed, self.postponed = self.postponed, []
        for x, y, constraint in postponed:
            try:
                if unify(x, y):
                    raise Mismatch(x, y, "a row of values against a row of lists of unknown length")
            except Mismatch as mismatch:
                raise self.unsatisfiable(constraint, mismatch) from None

    def generalize(self, position: int, cell: Cell, types: list[Cell | None], size: int) -> None:
        """Make `cell`, the solved type of the definition at `position`, a scheme."""
        try:
            self.schemes[position] = Scheme(cell)
        except ValueError:  # the definition's type contains itself: say where
            check_finite(self.nodes, types, range(position, position + size))
            raise

    def instance(self, definition: int) -> Cell:
        """A fresh instance of the definition at `definition`, which is solved already."""
        return self.schemes[definition].instantiate()

    def unsatisfiable(self, constraint: Equal, mismatch: Mismatch) -> UnsatisfiableConstraintError:
        # Locations are shown when they are what differs.
        located = mismatch.left.sort in (Sort.LOC, Sort.LROW) or mismatch.right.sort in (Sort.LOC, Sort.LROW)
        printer = Printer([constraint.expected, constraint.actual, mismatch.left, mismatch.right], located)
        expected, actual, left, right = (printer.format(c) for c in (constraint.expected, constraint.actual,
                                                                     mismatch.left, mismatch.right))  # fmt: skip
        message = f"type mismatch in {reason_text(constraint.reason)}: expected `{expected}`, found `{actual}`"
        if {left, right} != {expected, actual}:
            message += f"; `{left}` and `{right}` differ"
        message += f" ({mismatch.why})" + printer.where().replace(" where", "; where", 1)
        return UnsatisfiableConstraintError(message, self.nodes[constraint.position], expected, actual)


def check_finite(nodes: list[Node], types: list[Cell | None], positions: range) -> None:
    """Raise InfiniteTypeError if a type among `positions` contains itself."""
    on_cycle = _cycle([c for c in types[positions.start : positions.stop] if c is not None])
    if not on_cycle:
        return
    for position in reversed(positions):
        cell = types[position]
        if cell is not None and id(find(cell)) in on_cycle:
            text = pformat_all([cell])[0]
            raise InfiniteTypeError(f"this would need an infinite type (`{text}`, where `…` is "
                                    "the type itself)", nodes[position])  # fmt: skip
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
