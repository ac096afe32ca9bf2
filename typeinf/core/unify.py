"""Unification of type cells: union-find, near-linear, without recursion.

Rules: a variable binds to a structure of its sort (or a subsort) and, for a dtype restricted to
a family, only to a primitive of that family; two variables merge (sorts and families meet);
two structures of one constructor and label unify argument by argument; two structures of
different constructors are equal only by the rule of one of them (`Constructor.meet`: a row of
values expands into a concrete argument row, see `constructors`).

There is no occurs check here: a cycle can only come from an infinite type, and the solver looks
for cycles once at the end, which keeps unification near-linear.
"""

from __future__ import annotations

from typing import TypeAlias

from typeinf.core.constructors import PRIM
from typeinf.core.terms import Cell, Mismatch, Sort, Why, root_of, sort_meet

#: A root a constraint linked to another cell: the cell itself when only its parent changed (a
#: binding, a link of two structures), or with its sort and family before when a meet of
#: variables changed them too. Undoing makes it a root again with what it had; a rank raised by
#: a link stays, as it only balances the trees. A cell rather than a tuple of its five fields,
#: so that the common entry makes no tuple (docs/performance.md, "GTIR inference").
TrailEntry: TypeAlias = "Cell | tuple[Cell, Sort, frozenset[str] | None]"
Trail: TypeAlias = list[TrailEntry]
#: A pair of cells unification made equal, for the explaining run's reasons: the pair as given,
#: the roots of their two classes then, and the index (in the list of joins) of the pair it came
#: from, -1 for the pair `unify` was given (see `history`).
Join: TypeAlias = tuple[Cell, Cell, Cell, Cell, int]


def unify(
    a: Cell, b: Cell, trail: Trail | None = None, joins: list[Join] | None = None
) -> list[tuple[Cell, Cell]]:
    """Make `a` and `b` equal, or raise Mismatch. Returns the pairs it could not decide yet
    (a row of values meeting a row of lists while both lengths are unknown), for a later try.

    With a `trail`, a Mismatch undoes this call's partial work (so that an error shows the types
    as they were) and a success leaves on the trail every cell it changed (to learn which
    constraint linked what). Without one, a Mismatch leaves the graph half-changed: for callers
    that give up on the graph then, as fast inference does (it runs again to report the error).
    With `joins` too (the explaining run), every pair of classes it joins is added there, each
    with the pair it came from; after a Mismatch the failing pair is the last one added, and the
    caller, who explains it, removes this call's joins.
    """
    x, y = root_of(a), root_of(b)
    if x is y:
        return []
    if joins is None:
        # Fast paths, the most frequent cases, which cannot fail: a variable binds directly to a
        # structure (a fresh result, a parameter meeting its first use; `binds_directly`,
        # inlined), recorded on a trail as `_solve` records it, also with a trail, as GTIR's
        # `equal` unifies (a frequent case there).
        # A variable of a family binds so to a primitive of it (a builtin's numeric parameter
        # meeting its argument's scalar), and two structures of one constructor whose arguments
        # are one already or bind directly are linked here, without `_solve`'s set-up (any other
        # argument left to `_solve`, which finds those bound one; `_solve` then runs for half as
        # many constraints). Both keep the common cases off `_solve`'s loop
        # (docs/performance.md, "GTIR inference").
        if (
            x.ctor is None
            and y.ctor is not None
            and x.sort is y.sort
            and (x.family is None or (y.ctor is PRIM and y.label in x.family))
        ):
            if trail is not None:
                trail.append(x)
            x.parent = y
            return []
        if (
            y.ctor is None
            and x.ctor is not None
            and y.sort is x.sort
            and (y.family is None or (x.ctor is PRIM and x.label in y.family))
        ):
            if trail is not None:
                trail.append(y)
            y.parent = x
            return []
    postponed: list[tuple[Cell, Cell]] = []
    start = 0 if trail is None else len(trail)
    try:
        if joins is None and x.ctor is y.ctor and (x.ctor is not None or x.family is y.family):
            if x.label != y.label or x.sort is not y.sort:
                pairs = [(a, b, -1)]  # `_solve` says why they differ
            else:
                # Two variables of one sort and family, which the link keeps; or two structures
                # of one constructor, their arguments then settled as `_solve` settles them
                # (one of the fast paths above: docs/performance.md, "GTIR inference").
                linked = _link(x, y)
                if trail is not None:
                    trail.append(linked)
                pairs = _settle_arguments(x, y, trail, None, -1)
                if not pairs:
                    return postponed
        else:
            pairs = [(a, b, -1)]
        _solve(pairs, postponed, trail, joins)
    except Mismatch:
        if trail is not None:
            undo(trail, start)  # so that the error shows the types as they were
        raise
    return postponed


def undo(trail: Trail, start: int = 0) -> None:
    """Undo the changes recorded on `trail` from `start` on, last first, and forget them."""
    for entry in reversed(trail[start:]):
        if type(entry) is Cell:
            entry.parent = None
        else:
            cell, sort, family = entry
            cell.parent, cell.sort, cell.family = None, sort, family
    del trail[start:]


def _solve(stack: list[tuple[Cell, Cell, int]], postponed: list[tuple[Cell, Cell]],
           trail: Trail | None, joins: list[Join] | None) -> None:  # fmt: skip
    """Make each pair of `stack` equal (each with the join it came from, `Join`), and the pairs
    that makes, until none is left."""
    pop, push = stack.pop, stack.extend
    keep = trail is not None  # what changes, for an undo
    save = trail.append if trail is not None else _unsaved
    join = joins.append if joins is not None else _unjoined
    here = -1  # the index of the pair being joined, when `joins` are kept
    while stack:
        x0, y0, origin = pop()
        x, y = x0, y0
        while x.parent is not None:  # `root_of` inline: see there
            x = x.parent
        while y.parent is not None:  # `root_of` inline: see there
            y = y.parent
        if x is y:
            continue
        if joins is not None:
            here = len(joins)
            join((x0, y0, x, y, origin))
        if x.ctor is None or y.ctor is None:
            if x.ctor is not None:
                x, y = y, x
            if y.ctor is not None:  # a variable meets a structure
                if keep:
                    save(x)
                bind(x, y)
            else:
                if keep:
                    save((x, x.sort, x.family))
                    save((y, y.sort, y.family))
                _merge_variables(x, y)
        elif x.ctor is y.ctor:
            if x.label != y.label:
                raise Mismatch(x, y, "constants")
            linked = _link(x, y)
            if keep:
                save(linked)
            push(_settle_arguments(x, y, trail, joins, here))
        else:
            if keep:  # the rule links one of them to a structure it makes
                save(x)
                save(y)
            # Structures of two constructors: equal only by a rule of one of them (a row of values
            # expands into an argument row, see `constructors`).
            if x.ctor.meet is not None:
                push([(p, q, here) for p, q in x.ctor.meet(x, y, postponed)])
            elif y.ctor.meet is not None:
                push([(p, q, here) for p, q in y.ctor.meet(y, x, postponed)])
            else:
                raise Mismatch(x, y, _why(x, y))


def _settle_arguments(
    x: Cell, y: Cell, trail: Trail | None, joins: list[Join] | None, here: int
) -> list[tuple[Cell, Cell, int]]:
    """Of the arguments of `x` and `y`, two structures of one constructor just linked, settle
    the pairs that are one already or a variable that binds directly to a structure
    (`binds_directly`, inlined), each binding on `trail` and `joins` (as made by the join at
    `here`); the other pairs, for `_solve`."""
    rest = []
    for u0, v0 in zip(x.args, y.args):  # noqa: B905 - one constructor, one arity; strict= costs a keyword call
        u, v = u0, v0
        while u.parent is not None:  # `root_of` inline: see there
            u = u.parent
        while v.parent is not None:  # `root_of` inline: see there
            v = v.parent
        if u is v:
            continue
        if u.ctor is None and v.ctor is not None and u.family is None and u.sort is v.sort:
            u.parent = bound = v
        elif v.ctor is None and u.ctor is not None and v.family is None and v.sort is u.sort:
            v.parent = bound = u
        else:
            rest.append((u0, v0, here))
            continue
        if trail is not None:
            trail.append(u if bound is v else v)
            if joins is not None:
                joins.append((u0, v0, u, v, here))
    return rest


def _unsaved(entry: TrailEntry) -> None:
    """`_solve`'s `save` without a trail: never called (`keep` guards every call)."""


def _unjoined(entry: Join) -> None:
    """`_solve`'s `join` without joins: never called (`joins` guards every call, so that with a
    trail but no joins, as a GTIR builtin's call unifies, no argument bound pays for a call:
    docs/performance.md, "GTIR inference")."""


def _why(x: Cell, y: Cell) -> Why:
    assert x.ctor is not None and y.ctor is not None  # both are structures here
    row = x.ctor.row
    return "items" if row is not None and row == y.ctor.row else "constructors"


def _link(x: Cell, y: Cell) -> Cell:
    """Union by rank of two roots with equal content; returns the one linked to the other."""
    if x.rank < y.rank:
        x.parent = y
        return x
    if x.rank == y.rank:
        x.rank += 1
    y.parent = x
    return y


def _merge_variables(x: Cell, y: Cell) -> None:
    sort = sort_meet(x.sort, y.sort)
    if sort is None:
        raise Mismatch(x, y, "sorts")
    family = x.family if y.family is None else y.family if x.family is None else x.family & y.family
    if family is not None and not family:
        raise Mismatch(x, y, "families")
    _link(x, y)
    root = root_of(x)
    root.sort, root.family = sort, family


def binds_directly(variable: Cell, structure: Cell) -> bool:
    """The binding rule's fast case: a variable of the structure's own sort, restricted to no
    family, stands for it by pointing at it. The hot paths (here, `solve.Solver.equal`, the
    generated matchers) inline this test: it runs for nearly every constraint."""
    return variable.family is None and variable.sort is structure.sort


def bind(variable: Cell, structure: Cell) -> None:
    """The binding rule: a variable (a root) stands for a structure (a root) of its sort or a
    subsort of it; a dtype variable restricted to a family, only for a primitive of the family."""
    if not binds_directly(variable, structure):
        if sort_meet(variable.sort, structure.sort) is not structure.sort:
            raise Mismatch(variable, structure, "sorts")
        if variable.family is not None and not (
            structure.ctor is PRIM and structure.label in variable.family
        ):
            raise Mismatch(variable, structure, "family")
    variable.parent = structure
