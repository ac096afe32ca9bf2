"""The engine's constructors: the descriptor every dialect's constructors are made of, and the
few constructors the engine itself dispatches on.

A constructor is a `Constructor` descriptor, compared by identity (`cell.ctor is PRIM`). Each
dialect has a table of its own made of them (the fencil IR's `typeinf.fencil.constructors`,
GTIR's `typeinf.gtir.terms`); every module that does something per constructor dispatches through
a table keyed by descriptors.

The engine's own are those it reads a type by:
- a function (`Fun(argument row, result)`, an argument row being a cons list of `TTuple`/`TEmpty`):
  a builtin's scheme is one, and instantiation (`schemes`, `codegen`) and matching read its
  parameters (`fixed_params`);
- a primitive dtype (`Prim`, labelled `float64`): a variable's family (`where T₀: float`) is a set
  of them, which `unify` and `matching` check;
- a dtype row (`DTuple`/`DEmpty`): tuples, in both dialects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from typeinf.core import messages
from typeinf.core.terms import Cell, Sort, find, make

if TYPE_CHECKING:
    #: `meet(structure, other, postponed)`: the pairs of cells that make `structure` equal to
    #: `other`, a structure of another constructor; raises `Mismatch` when they cannot be; may
    #: add to `postponed` a pair it cannot decide yet.
    Meet = Callable[[Cell, Cell, list[tuple[Cell, Cell]]], list[tuple[Cell, Cell]]]
    #: `known_as(structure)`: the structure of another constructor that `structure` is known to
    #: be already (None: not known yet).
    KnownAs = Callable[[Cell], Cell | None]


class Constructor:
    """A type constructor's descriptor.

    `sort` is what a structure of it is; `params` its arguments' sorts, in the order the
    notation walks them; `labelled` whether its structures are constants told apart by a label
    (`Prim` `int32`, `Loc` `Vertex`); `row` the row family (arguments, dtypes, locations) of a
    row's cell, and `is_cons` whether it is a cons cell `(item, rest)` of one;
    `locations` the positions of arguments that are locations (left out of the compact
    notation); `meet` its unification rule against a structure of another constructor (None: a
    mismatch); `known_as`, for a constructor with a `meet` rule, what a structure of it is known
    to be before it meets anything (`instance` reads it so: a row of values of a known number of
    items is the tuple of its items)."""

    __slots__ = (
        "is_cons",
        "known_as",
        "labelled",
        "locations",
        "meet",
        "name",
        "params",
        "row",
        "sort",
    )

    def __init__(
        self,
        name: str,
        sort: Sort,
        params: tuple[Sort, ...] = (),
        *,
        labelled: bool = False,
        row: str | None = None,
        cons: bool = False,
        locations: tuple[int, ...] = (),
        meet: Meet | None = None,
        known_as: KnownAs | None = None,
    ) -> None:
        self.name, self.sort, self.params = name, sort, params
        self.labelled, self.row, self.locations, self.meet = labelled, row, locations, meet
        self.known_as = known_as
        #: A cons cell of a row: `(item, rest)`.
        self.is_cons = cons

    def __repr__(self) -> str:
        return self.name


#: `Fun(argument row, result)`.
FUN = Constructor("Fun", Sort.TYPE, (Sort.TROW, Sort.TYPE))
#: A primitive dtype (`float64`), or one of the special dtypes (`axis`, `named_range`, `domain`).
PRIM = Constructor("Prim", Sort.DTYPE, labelled=True)
TTUPLE = Constructor("TTuple", Sort.TROW, (Sort.TYPE, Sort.TROW), row="argument", cons=True)
TEMPTY = Constructor("TEmpty", Sort.TROW, row="argument")
DTUPLE = Constructor("DTuple", Sort.DROW, (Sort.DTYPE, Sort.DROW), row="dtype", cons=True)
DEMPTY = Constructor("DEmpty", Sort.DROW, row="dtype")


# -- constants ----------------------------------------------------------------------------------
#: Constants are shared: a constant's content never changes, so one cell serves every use, in
#: every inference and every thread (nothing writes it: see "Marks" in `terms`).
_CONSTANTS: dict[tuple[Constructor, object], Cell] = {}


def constant(ctor: Constructor, label: object = None) -> Cell:
    """The one cell of the constant `ctor` labelled `label`."""
    key = (ctor, label)
    cell = _CONSTANTS.get(key)
    if cell is None:
        if ctor.params or ctor.meet is not None:
            raise ValueError(messages.no_constant(ctor.name))
        made = make(ctor)
        made.label = label
        # Made whole before it is seen, and kept only if no other thread kept one meanwhile:
        # two cells of one constant could be linked by unification, one under the other.
        cell = _CONSTANTS.setdefault(key, made)
    return cell


def prim(name: str) -> Cell:
    return constant(PRIM, name)


T_EMPTY = constant(TEMPTY)
D_EMPTY = constant(DEMPTY)


# -- building types -------------------------------------------------------------------------------
def fun(args: list[Cell], ret: Cell) -> Cell:
    return make(FUN, row(TTUPLE, args, T_EMPTY), ret)


def row(ctor: Constructor, items: list[Cell], tail: Cell) -> Cell:
    """A cons list `ctor(items[0], ctor(items[1], … tail))` (TTuple, DTuple or LTuple)."""
    for item in reversed(items):
        tail = make(ctor, item, tail)
    return tail


def row_items(cell: Cell) -> tuple[list[Cell], Cell]:
    """The known items of a row and its tail (an empty-row constant or a variable)."""
    items: list[Cell] = []
    cell = find(cell)
    while cell.ctor is not None and cell.ctor.is_cons:
        items.append(cell.args[0])
        cell = find(cell.args[1])
    return items, cell


def fixed_params(function: Cell) -> list[Cell] | None:
    """The parameters of `function` if it is a function type of a fixed number of them (its
    result is `find(function).args[1]`), else None."""
    root = find(function)
    if root.ctor is not FUN:
        return None
    params, tail = row_items(root.args[0])
    return params if tail.ctor is TEMPTY else None
