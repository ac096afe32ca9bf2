"""What a waiting relation reads, and whether it changed since: how the solver fires relations
by dependency (`solve.Solver.fire_open`), as Relay's solver does.

A relation is a function of the type graph reachable from its cells. In that graph only roots
change: a variable is bound or joined to another (it gets a parent), two variables' meet narrows
the sort or family of the one that stays a root, and a structure whose constructor has a rule of
its own (`Constructor.meet`) is relinked to the structure it expands into. A structure of any
other constructor keeps its constructor, label and arguments; it is only ever linked to an equal
structure, which unifies their arguments, so a change under it is a change of a variable found
here. `watched` records those roots with what they are now; `changed` tells whether any of them
moved since. Compiled with the solver (tools/compile.py): it runs at every wait and every pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from typeinf.core.terms import Cell

if TYPE_CHECKING:
    from typeinf.core.relations import Relation

#: What a waiting relation read when it last fired: each root reachable from its cells that can
#: change (a variable, with its sort and family then; a structure whose constructor can relink
#: it, `Constructor.meet`). Nothing else in a type graph changes (see `changed`).
Watch: TypeAlias = tuple[tuple[Cell, object, object], ...]


def watched(relation: Relation) -> Watch:
    """What `relation` reads that can change: each root reachable from its cells that is a
    variable (with its sort and family now) or a structure whose constructor relinks it when it
    meets another (`Constructor.meet`). Any other root is a structure, whose constructor, label
    and arguments never change: it changes only by a link to an equal structure, which unifies
    their arguments, so a change of anything under it is a change of a variable reached here."""
    watch: list[tuple[Cell, object, object]] = []
    # This search's mark of a cell met already (no set of ids: this runs at every wait).
    seen = object()
    stack = list(relation.cells)
    while stack:
        cell = stack.pop()
        while cell.parent is not None:  # `root_of` inline: see there
            cell = cell.parent
        if cell.mark is seen:
            continue
        ctor = cell.ctor
        if ctor is None:
            cell.mark = seen
            watch.append((cell, cell.sort, cell.family))
        elif cell.args:
            cell.mark = seen
            if ctor.meet is not None:
                watch.append((cell, None, None))
            stack += cell.args
        # Else a constant: it never changes, and it is shared by every inference, so it is
        # never marked (see "Marks" in `terms`).
    return tuple(watch)


def changed(watch: Watch) -> bool:
    """Whether anything `watched` recorded changed: a root linked under another, or a variable
    whose sort or family a meet of variables narrowed."""
    for cell, sort, family in watch:
        if cell.parent is not None or (
            cell.ctor is None and (cell.sort is not sort or cell.family is not family)
        ):
            return True
    return False
