"""What the explaining run remembers of unification, so that an error can say why each side has
its type, and `explain` why a node has its type.

Every pair of classes unification joins is a `Join` (`unify`): the two cells it was given, the
roots it joined, and what made it: a constraint, or the pair of structures it is an argument
pair of. Every link of a cell to a new parent is kept with the join that made it. A cell's
type is explained by the links from it up to its root, and a join by its cause and by the links
that brought its two cells to the roots it joined; each of those links is again a join. That is
a proof forest (Nieuwenhuis and Oliveras, "Proof-producing congruence closure", 2005): the
reasons are read off the path that joined two cells, so finding them costs the length of that
path and of the joins on it, never a scan of the whole history (which made reporting N errors
quadratic: docs/performance.md, "Error reporting").
"""

from __future__ import annotations

from iterir import Node
from typeinf.core.constraints import Reason
from typeinf.core.terms import Cell, Mismatch, root_of
from typeinf.core.unify import Join

#: A join's `origin` that names a constraint: -2 for the first, -3 for the second, …
#: (-1 is the pair `unify` was given, before the constraint is recorded; ≥ 0 another join).
_FIRST_CONSTRAINT = -2

#: The joins of a failed constraint behind each of its two sides: those that made the two types
#: what they are (`expected`, `actual`), and those that made the clashing parts inside them what
#: they are (`left`, `right`, in the mismatch's order).
Sides = tuple[list[int], list[int], list[int], list[int]]


class History:
    """The joins of one explaining run, the constraint behind each, and every link."""

    def __init__(self, nodes: list[Node]) -> None:
        self.nodes = nodes
        self.joins: list[Join] = []
        self.constraints: list[tuple[int, Reason]] = []  # by the order they were solved
        self.links: dict[int, tuple[Cell, int]] = {}  # id of a cell → its parent, by which join
        #: id of a variable → the variables restricted to a family linked to it, by which join:
        #: where its own restriction came from.
        self.restricted: dict[int, list[tuple[Cell, int]]] = {}

    def record(self, start: int, position: int, reason: Reason) -> None:
        """The joins from `start` on were made by the constraint at `position`: each cell linked
        by them is kept with the join that linked it (the last join it was a root of)."""
        joins, links = self.joins, self.links
        cause = _FIRST_CONSTRAINT - len(self.constraints)
        self.constraints.append((position, reason))
        for k in range(len(joins) - 1, start - 1, -1):
            x0, y0, x, y, origin = joins[k]
            if origin == -1:
                joins[k] = (x0, y0, x, y, cause)
            for cell in (x, y):
                parent = cell.parent
                if parent is not None and id(cell) not in links:
                    links[id(cell)] = (parent, k)
                    if cell.family is not None and parent.ctor is None:
                        self.restricted.setdefault(id(parent), []).append((cell, k))

    def forget(self, start: int) -> None:
        """Drop the joins from `start` on: a constraint's that failed (its work is undone)."""
        del self.joins[start:]

    # -- reading the reasons off ----------------------------------------------------------------
    def path(self, cell: Cell, stop: Cell | None = None, before: int | None = None) -> list[int]:
        """The joins of the links from `cell` up to `stop` (or its root), made before join
        `before` (all, by default)."""
        return self._climb(cell, stop, before)[0]

    def _climb(self, cell: Cell, stop: Cell | None, before: int | None) -> tuple[list[int], Cell]:
        """`path`, and the cell where it ends."""
        out: list[int] = []
        links = self.links
        while cell is not stop:
            link = links.get(id(cell))
            if link is None or (before is not None and link[1] >= before):
                break
            cell, k = link
            out.append(k)
        return out, cell

    def restriction(self, root: Cell) -> list[int]:
        """The joins that restricted the variable `root` to its family: the links of variables
        restricted to one into it, and theirs into them."""
        out: list[int] = []
        stack = [root]
        while stack:
            for cell, k in self.restricted.get(id(stack.pop()), ()):
                out.append(k)
                stack.append(cell)
        return out

    def causes(self, todo: list[int]) -> set[int]:
        """The constraints (by their index) behind the joins `todo`: a join is made by its
        constraint, or by the join of the structures it is an argument pair of, and by the
        links that brought its two cells to the roots it joined (made before it)."""
        joins, seen, out = self.joins, set(), set()
        while todo:
            k = todo.pop()
            if k in seen:
                continue
            seen.add(k)
            x0, y0, x, y, origin = joins[k]
            if origin >= 0:
                todo.append(origin)
            elif origin <= _FIRST_CONSTRAINT:
                out.add(_FIRST_CONSTRAINT - origin)
            todo += self.path(x0, x, k)
            todo += self.path(y0, y, k)
        return out

    def reasons(
        self, todo: list[int], skip: int | None = None, solved_order: bool = False
    ) -> list[tuple[Reason, Node]]:
        """The constraints behind the joins `todo`, by their nodes' positions (or in the order
        they were solved), one per node position, the one at `skip` left out: the reason and
        the node each is about."""
        found = sorted(self.causes(todo))
        chosen = [self.constraints[c] for c in found]
        if not solved_order:
            chosen.sort(key=lambda constraint: constraint[0])
        out: list[tuple[Reason, Node]] = []
        seen = {skip}
        for at, reason in chosen:
            if at not in seen:
                seen.add(at)
                out.append((reason, self.nodes[at]))
        return out

    def of_type(self, cells: list[Cell]) -> list[tuple[Reason, Node]]:
        """Why `cells` have their types, part by part: the constraints behind the path from each
        cell, and from each part of the type it stands for, to its root, in the order they were
        solved, one per node position."""
        todo: list[int] = []
        seen: set[int] = set()
        stack = list(cells)
        while stack:
            cell = stack.pop()
            if id(cell) in seen:
                continue
            seen.add(id(cell))
            todo += self.path(cell)
            root = root_of(cell)
            stack.append(root)
            stack.extend(root.args)
        return self.reasons(todo, solved_order=True)

    def failed(self, start: int, expected: Cell, actual: Cell, mismatch: Mismatch) -> Sides:
        """The joins behind each side of a constraint that failed with `mismatch`, its joins
        from `start` on (the failing pair last): at every level of the pairs that led from the
        constraint's two types down to the clashing parts, the links that brought each cell
        of the pair to the root it met."""
        joins = self.joins
        if len(joins) <= start:  # it failed after unification (rows of unknown lengths)
            return self.path(expected), self.path(actual), [], []
        k = len(joins) - 1
        failing = joins[k]
        swapped = mismatch.left is failing[3] or mismatch.right is failing[2]
        # The failed constraint's own links are undone: its joins stand for them, both ways.
        undone: dict[int, list[tuple[Cell, int]]] = {}
        for j in range(start, k):
            x, y = joins[j][2], joins[j][3]
            undone.setdefault(id(x), []).append((y, j))
            undone.setdefault(id(y), []).append((x, j))

        def side(cell: Cell, root: Cell, before: int) -> list[int]:
            found, end = self._climb(cell, root, before)
            return found + _between(undone, end, root)

        # A variable that clashes does so by its family: say where that came from.
        deep = (self.restriction(failing[2]), self.restriction(failing[3]))
        while True:
            x0, y0, x, y, origin = joins[k]
            xs, ys = side(x0, x, k), side(y0, y, k)
            if origin < 0:  # the constraint's own pair
                left, right = deep[::-1] if swapped else deep
                return xs, ys, left, right
            deep[0].extend(xs)
            deep[1].extend(ys)
            k = origin


def _between(edges: dict[int, list[tuple[Cell, int]]], start: Cell, goal: Cell) -> list[int]:
    """The joins on a shortest path from `start` to `goal` over `edges` (none if there is none)."""
    if start is goal:
        return []
    came: dict[int, tuple[Cell, int] | None] = {id(start): None}
    frontier = [start]
    while frontier:
        following: list[Cell] = []
        for cell in frontier:
            for other, j in edges.get(id(cell), ()):
                if id(other) in came:
                    continue
                came[id(other)] = (cell, j)
                if other is goal:
                    out: list[int] = []
                    step = came[id(goal)]
                    while step is not None:
                        out.append(step[1])
                        step = came[id(step[0])]
                    return out
                following.append(other)
        frontier = following
    return []
