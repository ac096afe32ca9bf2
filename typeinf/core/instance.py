"""Whether one type is an instance of another: a substitution for the variables of the general
type that turns it into the specific one, whose own variables stay as they are.

This is how a test pins "at least as general as": the type we infer must have every type the
program is known to have as an instance.
"""

from __future__ import annotations

from typeinf.core.constructors import T_EMPTY, TTUPLE, row
from typeinf.core.schemes import Scheme
from typeinf.core.terms import (
    Cell,
    DefinitionType,
    FencilType,
    Mismatch,
    Type,
    find,
    roots,
)
from typeinf.core.unify import unify


def substitution(
    general: Type, specific: Type, *, in_place: bool = False
) -> dict[Cell, Cell] | None:
    """For each variable of `general` (a cell of it), the type it stands for in `specific`; None
    when `specific` is not an instance of `general`. Both are copied first, so that neither
    changes, unless `in_place` (for cells made only for this, as `typeinf.fencil.convert` does: the
    images are then the specific type's own cells)."""
    if type(general) is not type(specific) or _names(general) != _names(specific):
        return None
    general_cells, specific_cells = list(roots(general)), list(roots(specific))
    if len(general_cells) != len(specific_cells):
        return None
    scheme = Scheme(row(TTUPLE, general_cells, T_EMPTY))
    pattern = scheme.cells if in_place else scheme.copy()
    target_scheme = Scheme(row(TTUPLE, specific_cells, T_EMPTY))
    target = target_scheme.cells if in_place else target_scheme.copy()
    try:
        _known_rows_as_tuples(target)
        # Only the general side may be bound: remember what the specific side's variables and
        # rows of unknown length are, to check that they are still so.
        rigid = [(c, c.sort, c.family) for c in _reachable(target[-1])]
        if unify(pattern[-1], target[-1]) and unify(pattern[-1], target[-1]):
            return None  # lengths the specific type leaves open, that the general one needs
    except Mismatch:
        return None
    images: dict[int, Cell] = {}
    for cell, sort, family in rigid:
        root = find(cell)
        if root.ctor != cell.ctor or root.sort is not sort or root.family != family:
            return None  # a variable of the specific type was bound or narrowed
        if images.setdefault(id(root), cell) is not cell:
            return None  # two variables of the specific type were made one
    return {
        original: find(copy)
        for original, copy in zip(scheme.cells, pattern, strict=True)
        if original.ctor is None
    }


def _known_rows_as_tuples(cells: list[Cell]) -> None:
    """Make each structure that is known to be a structure of another constructor already (the
    fencil IR's row of values whose number of items is known: `Constructor.known_as`) that
    structure: a specific type's row must not stay a row that the general type's tuple could not
    bind."""
    for cell in cells:
        root = find(cell)
        known_as = None if root.ctor is None else root.ctor.known_as
        if known_as is not None:
            concrete = known_as(root)
            if concrete is not None:
                unify(root, concrete)


def _reachable(cell: Cell) -> list[Cell]:
    """The variables, and the structures that may still become a structure of another
    constructor (those with a `Constructor.known_as`: the fencil IR's rows of values, of unknown
    length once `_known_rows_as_tuples` made the others tuples), that `cell` is made of (roots)."""
    seen: dict[int, Cell] = {}
    stack = [cell]
    while stack:
        root = find(stack.pop())
        if id(root) not in seen:
            seen[id(root)] = root
            stack.extend(root.args)
    return [c for c in seen.values() if c.ctor is None or c.ctor.known_as is not None]


def is_instance(general: Type, specific: Type) -> bool:
    return substitution(general, specific) is not None


def _names(type_: Type) -> list[str]:
    if isinstance(type_, DefinitionType):
        return [type_.name]
    if isinstance(type_, FencilType):
        return [d.name for d in type_.definitions]
    return []
