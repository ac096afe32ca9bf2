"""Solving: definitions in dependency order, each generalized once solved; then the closures.

A reference to a definition is a fresh instance of its solved type (let-polymorphism), so a
definition is solved before anything that uses it; a cycle among definitions is recursion,
which is an error naming the cycle. Infinite types are found by one search for cycles in the
type graph at the end of each definition and of the whole program.
"""

from __future__ import annotations

from iterir import FunctionDefinition, Node
from typeinf.collect import Collection
from typeinf.constraints import Equal, Group, Instance, reason_text
from typeinf.errors import InfiniteTypeError, RecursionCycleError, UnsatisfiableConstraintError
from typeinf.notation import Printer, pformat_all
from typeinf.terms import Cell, Scheme, Sort, find, new_marks
from typeinf.unify import Mismatch, unify


def solve(collection: Collection) -> None:
    """Unify every constraint of `collection`, or raise the first TypeInferenceError."""
    schemes: dict[int, Scheme] = {}
    groups = _ordered(collection)
    if collection.parameters is not None:
        groups.insert(sum(1 for g in groups if g.position in collection.definitions), collection.parameters)
    for group in groups:
        postponed: list[tuple[Cell, Cell, Equal | Instance]] = []
        for constraint in group.constraints:
            if isinstance(constraint, Equal):
                expected, actual = constraint.expected, constraint.actual
            else:
                expected = constraint.cell
                actual = schemes[constraint.definition].instantiate()
            try:
                undecided = unify(expected, actual)
            except Mismatch as mismatch:
                raise _unsatisfiable(collection, constraint, mismatch) from None
            if undecided:
                postponed += [(x, y, constraint) for x, y in undecided]
        for x, y, constraint in postponed:
            try:
                if unify(x, y):
                    raise Mismatch(x, y, "a row of values against a row of lists of unknown length")
            except Mismatch as mismatch:
                raise _unsatisfiable(collection, constraint, mismatch) from None
        if group.position in collection.definitions:
            try:
                schemes[group.position] = Scheme(collection.type_at(group.position))
            except ValueError:  # the definition's type contains itself: say where
                _check_finite(collection, range(group.position, group.position + collection.sizes[group.position]))
                raise
    _check_finite(collection, range(len(collection.nodes)))


def _ordered(collection: Collection) -> list[Group]:
    """Definitions after the definitions they use (source order otherwise), then the rest."""
    groups = {g.position: g for g in collection.groups}
    order: list[Group] = []
    state: dict[int, str] = {}  # "active" on the current path, "done" once ordered
    for start in collection.definitions:
        if start in state:
            continue
        path: list[tuple[int, int]] = [(start, 0)]  # (definition, index of its next use)
        state[start] = "active"
        while path:
            position, next_use = path[-1]
            uses = groups[position].uses
            if next_use == len(uses):
                path.pop()
                state[position] = "done"
                order.append(groups[position])
                continue
            path[-1] = (position, next_use + 1)
            used, reference = uses[next_use]
            if state.get(used) == "active":
                names = [_name(collection.nodes[p]) for p, _ in path[[p for p, _ in path].index(used) :]]
                cycle = [*names, names[0]]
                raise RecursionCycleError(
                    "recursion is not allowed: " + " → ".join(cycle), collection.nodes[reference], cycle
                )
            if used not in state:
                state[used] = "active"
                path.append((used, 0))
    order += [g for g in collection.groups if g.position not in collection.definitions]
    return order


def _name(node: Node) -> str:
    return node.id if isinstance(node, FunctionDefinition) else "?"


def _unsatisfiable(collection: Collection, constraint: Equal | Instance, mismatch: Mismatch) -> UnsatisfiableConstraintError:
    node = collection.nodes[constraint.position]
    assert isinstance(constraint, Equal)  # an instance is a fresh variable: it always unifies
    # Locations are shown when they are what differs.
    located = mismatch.left.sort in (Sort.LOC, Sort.LROW) or mismatch.right.sort in (Sort.LOC, Sort.LROW)
    printer = Printer([constraint.expected, constraint.actual, mismatch.left, mismatch.right], located)
    expected, actual, left, right = (printer.format(c) for c in (constraint.expected, constraint.actual,
                                                                 mismatch.left, mismatch.right))  # fmt: skip
    message = f"type mismatch in {reason_text(constraint.reason)}: expected `{expected}`, found `{actual}`"
    if {left, right} != {expected, actual}:
        message += f"; `{left}` and `{right}` differ"
    message += f" ({mismatch.why})" + printer.where().replace(" where", "; where", 1)
    return UnsatisfiableConstraintError(message, node, expected, actual)


def _check_finite(collection: Collection, positions: range) -> None:
    """Raise InfiniteTypeError if a type among `positions` contains itself."""
    on_cycle = _cycle([c for p in positions if (c := collection.types[p]) is not None])
    if not on_cycle:
        return
    for position in reversed(positions):
        cell = collection.types[position]
        if cell is not None and id(find(cell)) in on_cycle:
            node = collection.nodes[position]
            text = pformat_all([cell])[0]
            raise InfiniteTypeError(f"this would need an infinite type (`{text}`, where `…` is "
                                    "the type itself)", node)  # fmt: skip
    raise InfiniteTypeError("the program would need an infinite type", collection.nodes[positions[0]])


def _cycle(cells: list[Cell]) -> set[int]:
    """The ids of the cells on one cycle reachable from `cells` (empty if there is none).

    Only structures with arguments can lie on a cycle, so leaves are never visited."""
    active, done = new_marks()  # on the current path / finished
    for start in cells:
        root = find(start)
        if root.mark == done or not root.args:
            continue
        path, indices = [root], [0]
        root.mark = active
        while path:
            cell = path[-1]
            args, i = cell.args, indices[-1]
            child = None
            while i < len(args):
                child = args[i]
                while child.parent is not None:
                    child = child.parent
                if child.mark != done and child.args:
                    break
                i += 1
            if i == len(args):
                cell.mark = done
                path.pop()
                indices.pop()
                continue
            indices[-1] = i + 1
            if child.mark == active:  # type: ignore[union-attr]
                return {id(c) for c in path[path.index(child) :]}  # type: ignore[arg-type]
            child.mark = active  # type: ignore[union-attr]
            path.append(child)  # type: ignore[arg-type]
            indices.append(0)
    return set()
