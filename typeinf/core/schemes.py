"""Generalized types (schemes) and their instantiation: a typed plan of the type's cells,
children first, that is interpreted here (`Scheme.copy`) or turned into straight-line code
(`codegen`); and `copy_graph`, which copies a solved graph without a plan (`Template`)."""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import TYPE_CHECKING, NamedTuple, TypeAlias, final

from typeinf.core import messages
from typeinf.core.constructors import Constructor, fixed_params
from typeinf.core.terms import Cell, Sort, root_of

if TYPE_CHECKING:
    from typeinf.core.relations import Relation
    from typeinf.core.watch import Watch


#: What a constant is labelled with (any value, see `Cell.label`). Named here, not written
#: `object` in `Build`: the compiled build (tools/compile.py) reads a named tuple's annotations
#: in the module's own names, where the builtins are not.
Label: TypeAlias = object


@final  # as `Cell`: so that `type(step) is Fresh` tells mypy what `step` is, either way
class Fresh(NamedTuple):
    """A step of a plan: a fresh variable of `sort`, restricted to `family` if any."""

    sort: Sort
    family: frozenset[str] | None


@final
class Build(NamedTuple):
    """A step of a plan: a fresh structure of `ctor` with `label`, whose arguments are the copies
    made at the steps `args` (`get` picks them out of the list of copies)."""

    ctor: Constructor
    label: Label
    args: tuple[int, ...]
    get: Callable[[list[Cell]], tuple[Cell, ...]]


#: A plan: one step per cell of a type, children first. A constant (a `Cell`) is shared.
Step: TypeAlias = Cell | Fresh | Build

#: In `Scheme`'s index of the cells met: a cell on the current path, not ordered yet.
_ON_PATH = -1


class Scheme:
    """A generalized type, compiled for fast instantiation (let-polymorphism).

    The cells reachable from the type are listed children first; instantiating builds a copy in
    that order, with fresh variables and shared constants, without searching the graph again.
    `relations` are those the type is subject to (see `relations`): `instantiate_related`
    copies them too, and the solver queues the copies (`Solver.instantiate`).
    """

    __slots__ = ("cells", "plan", "relations")

    def __init__(self, root: Cell, relations: tuple[Relation, ...] = ()) -> None:
        self.relations = relations
        order: list[Cell] = []  # post-order: a cell after all its arguments
        plan: list[Step] = []
        # The id of each cell met → its place in `order` once ordered, `_ON_PATH` until then:
        # kept here, not marked on the cells, so that generalizing only reads the graph (a
        # builtin's type is shared by every inference: see "Marks" in `terms`).
        index: dict[int, int] = {}
        root = root_of(root)
        index[id(root)] = _ON_PATH
        path, pending = [root], [iter(root.args)]  # the current path, and what is left of each
        while pending:
            for child in pending[-1]:
                while child.parent is not None:  # `root_of` inline: see there
                    child = child.parent
                key = id(child)
                if key in index:
                    if index[key] == _ON_PATH:
                        raise ValueError(messages.CYCLIC_SCHEME)
                    continue
                if child.args:
                    index[key] = _ON_PATH
                    path.append(child)
                    pending.append(iter(child.args))
                    break
                index[key] = len(order)  # a leaf: a variable or a constant
                order.append(child)
                plan.append(Fresh(child.sort, child.family) if child.ctor is None else child)
            else:  # every argument of the cell on top is ordered: order it
                cell = path.pop()
                pending.pop()
                index[id(cell)] = len(order)
                order.append(cell)
                if not cell.args:
                    plan.append(Fresh(cell.sort, cell.family) if cell.ctor is None else cell)
                    continue
                assert cell.ctor is not None  # a structure: it has arguments
                indices = tuple(index[id(root_of(a))] for a in cell.args)
                getter = (
                    itemgetter(*indices)
                    if len(indices) > 1
                    else (lambda cells, i=indices[0]: (cells[i],))
                )
                plan.append(Build(cell.ctor, cell.label, indices, getter))
        self.plan = plan
        self.cells = order  # the generalized cells, in the order of the plan

    def instantiate(self) -> Cell:
        return self.copy()[-1]

    def instantiate_related(self) -> tuple[Cell, list[Relation]]:
        """A fresh instance, and a copy of each relation over the instance's cells (a cell of a
        relation that is not part of the type gets a fresh copy, shared among the relations)."""
        copies = self.copy()
        mapping = {id(cell): copy for cell, copy in zip(self.cells, copies, strict=True)}
        return copies[-1], _copied(self.relations, mapping)

    def copy(self) -> list[Cell]:
        """A fresh copy of every cell of `cells`, in the same order (the root last)."""
        # Fills the slots `Cell.__init__` fills, without its call: this runs for every use of a
        # builtin or definition, and is the collector's hottest loop.
        cells: list[Cell] = []
        append = cells.append
        new = Cell.__new__
        for step in self.plan:
            if type(step) is Cell:
                append(step)
                continue
            cell = new(Cell)
            cell.parent, cell.rank, cell.mark = None, 0, None
            if type(step) is Fresh:
                cell.ctor, cell.label, cell.args, cell.sort, cell.family = None, None, (), step[0], step[1]  # fmt: skip
            else:
                ctor = step[0]
                cell.ctor, cell.label, cell.args = ctor, step[1], step[3](cells)
                cell.sort, cell.family = ctor.sort, None
            append(cell)
        return cells

    def instantiate_call(self) -> tuple[Cell, ...] | None:
        """For a direct call: fresh parameters and result, result last, by copying the whole
        type (the interpreted form of `codegen.compiled_call`); None if the type is not a
        function of a fixed number of parameters."""
        copy = self.copy()[-1]
        params = fixed_params(copy)
        return None if params is None else (*params, copy.args[1])


def copy_graph(root: Cell, copies: dict[int, Cell]) -> Cell:
    """A copy of the graph at `root` with fresh variables and shared constants, but for the
    cells `copies` maps already (by the id of their root) to what stands for them; every cell
    copied is added to `copies`. Each cell is copied when first reached, and structures get
    their arguments' copies once all are made."""
    structures: list[tuple[Cell, tuple[Cell, ...]]] = []
    stack = [root]
    new = Cell.__new__
    while stack:
        cell = stack.pop()
        while cell.parent is not None:  # `root_of` inline: see there
            cell = cell.parent
        key = id(cell)
        if key in copies:
            continue
        args = cell.args
        if not args and cell.ctor is not None:  # a constant
            copies[key] = cell
            continue
        # Slots filled one by one: a tuple assignment would build a tuple for each cell.
        copy = new(Cell)
        copy.parent = None
        copy.rank = 0
        copy.mark = None
        copy.ctor = cell.ctor
        copy.label = cell.label
        copy.sort = cell.sort
        copy.family = cell.family
        if args:
            structures.append((copy, args))
            stack += args
        else:
            copy.args = ()
        copies[key] = copy
    for copy, args in structures:
        arguments = []
        for argument in args:
            while argument.parent is not None:  # `root_of` inline: see there
                argument = argument.parent
            arguments.append(copies[id(argument)])
        copy.args = tuple(arguments)
    return copies[id(root_of(root))]


class Template:
    """A type that nothing changes any more (a definition's solved type, in the fast run),
    instantiated by copying its graph. Most definitions are used once or twice: copying is then
    cheaper than compiling a `Scheme`'s plan. It does not look for cycles (a Scheme does)."""

    __slots__ = ("relations", "root")

    def __init__(self, root: Cell, relations: tuple[Relation, ...] = ()) -> None:
        self.root = root
        self.relations = relations  # as a Scheme's

    def instantiate(self) -> Cell:
        return copy_graph(self.root, {})

    def instantiate_related(self) -> tuple[Cell, list[Relation]]:
        """As `Scheme.instantiate_related`."""
        mapping: dict[int, Cell] = {}
        root = copy_graph(self.root, mapping)
        return root, _copied(self.relations, mapping)


def _copied(relations: tuple[Relation, ...], mapping: dict[int, Cell]) -> list[Relation]:
    """`relations` over the copies `mapping` holds (by the id of a cell's root), each cell not
    copied yet copied with `copy_graph` (and added to `mapping`)."""
    return [relation.copy(lambda cell: copy_graph(cell, mapping)) for relation in relations]


class Shared:
    """A definition's type for its one and only use, monomorphic as GT4Py types definitions
    (the drop-in, `GtirInference`'s `as_gt4py`): instantiating gives the type itself, not a
    copy, with its relations themselves, so that what the use says of it is what its body's
    types become, and nothing is copied or fired again for a use that cannot differ.

    `reads` has, for each relation, what it read when it last waited (None if it was never
    fired since it was made): moved to the use with it (`Solver.instantiate`), so that it is
    fired there only once what it reads changes."""

    __slots__ = ("reads", "relations", "root")

    def __init__(
        self, root: Cell, relations: tuple[Relation, ...], reads: tuple[Watch | None, ...]
    ) -> None:
        self.root = root
        self.relations = relations  # as a Scheme's: those still open when it was typed
        self.reads = reads

    def instantiate(self) -> Cell:
        return self.root

    def instantiate_related(self) -> tuple[Cell, list[Relation]]:
        """The type itself and its relations themselves (see the class)."""
        return self.root, list(self.relations)
