"""The type constructors, as a checked table: what each makes, what it takes, how it unifies with
a structure of another constructor, and which of its arguments the compact notation leaves out.

A constructor is a `Constructor` descriptor, compared by identity (`cell.ctor is VAL`). Every
module that does something per constructor dispatches through a table keyed by descriptors
(the printer's arms in `notation.py`, the reader's, `instance.py`'s), and
`tests/test_constructors.py` walks every constructor of `CONSTRUCTORS` through reader, printer,
unification, matching, instantiation and `is_instance`: a constructor added without one of its
behaviours fails that test, not a user. `docs/architecture.md` shows how to add one: a
constructor outside the core is `register_constructor`ed, and has the generic notation
`Name[arg, …]` (`notation`, `fencil.reader`).

Rows are cons lists of a row family (`TTuple`/`TEmpty` for arguments, `DTuple`/`DEmpty` for
dtypes, `LTuple`/`LEmpty` for locations). A row of values (`ValTuple`, `ValListTuple`: any
number of arguments of one shape) is the one structure with a rule of its own: meeting a
concrete argument row, it expands into it one item at a time (`meet`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from iterir.vocabulary import PRIMITIVES
from typeinf.core import messages
from typeinf.core.terms import SPECIAL_DTYPES, Cell, Mismatch, Sort, find, make, root_of, var

if TYPE_CHECKING:
    #: `meet(structure, other, postponed)`: the pairs of cells that make `structure` equal to
    #: `other`, a structure of another constructor; raises `Mismatch` when they cannot be; may
    #: add to `postponed` a pair it cannot decide yet.
    Meet = Callable[[Cell, Cell, list[tuple[Cell, Cell]]], list[tuple[Cell, Cell]]]


class Constructor:
    """A type constructor's descriptor.

    `sort` is what a structure of it is; `params` its arguments' sorts, in the order the
    notation walks them; `labelled` whether its structures are constants told apart by a label
    (`Prim` `int32`, `Loc` `Vertex`); `row` the row family (arguments, dtypes, locations) of a
    row's cell, and `is_cons` whether it is a cons cell `(item, rest)` of one;
    `locations` the positions of arguments that are locations (left out of the compact
    notation); `meet` its unification rule against a structure of another constructor (None: a
    mismatch)."""

    __slots__ = ("is_cons", "labelled", "locations", "meet", "name", "params", "row", "sort")

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
    ) -> None:
        self.name, self.sort, self.params = name, sort, params
        self.labelled, self.row, self.locations, self.meet = labelled, row, locations, meet
        #: A cons cell of a row: `(item, rest)`.
        self.is_cons = cons

    def __repr__(self) -> str:
        return self.name


_TYPE, _TROW, _KIND, _DTYPE = Sort.TYPE, Sort.TROW, Sort.KIND, Sort.DTYPE
_DROW, _SIZE, _LOC, _LROW = Sort.DROW, Sort.SIZE, Sort.LOC, Sort.LROW

# -- values and functions ---------------------------------------------------------------------------
#: `Val(kind, dtype, size, current location, defined location)`: a value or an iterator.
VAL = Constructor("Val", _TYPE, (_KIND, _DTYPE, _SIZE, _LOC, _LOC), locations=(3, 4))
#: `Fun(argument row, result)`.
FUN = Constructor("Fun", _TYPE, (_TROW, _TYPE))
ITERATOR_KIND = Constructor("Iterator", _KIND)
VALUE_KIND = Constructor("Value", _KIND)
COLUMN_SIZE = Constructor("Column", _SIZE)
SCALAR_SIZE = Constructor("Scalar", _SIZE)
#: A primitive dtype (`float64`), or one of the special dtypes (`axis`, `named_range`, `domain`).
PRIM = Constructor("Prim", _DTYPE, labelled=True)
#: `List(element dtype, length, skip flag)`.
LIST = Constructor("List", _DTYPE, (_DTYPE, Sort.LENGTH, Sort.SKIP))
LOC = Constructor("Loc", _LOC, labelled=True)
LENGTH = Constructor("Length", Sort.LENGTH, labelled=True)
SKIP = Constructor("Skip", Sort.SKIP, labelled=True)


# -- the unification rule of rows of values ----------------------------------------------------
def _meet_row_of_values(
    row_: Cell, other: Cell, postponed: list[tuple[Cell, Cell]]
) -> list[tuple[Cell, Cell]]:
    """A row of values meeting a concrete argument row expands into it, one item at a time, so
    that rows of any length, and partially known rows, are handled alike. Against the other kind
    of row of values, whichever has a known first item becomes a concrete row first; while
    neither has, the pair waits in `postponed` (`Solver.settle` decides it)."""
    if other.ctor is TTUPLE or other.ctor is TEMPTY:
        return _expand(row_, other)
    if other.ctor in ROWS_OF_VALUES:
        first, second = (row_, other) if _first_known(row_) else (other, row_)
        if not _first_known(first):
            postponed.append((row_, other))
            return []
        empty = root_of(first.args[1]).ctor is DEMPTY
        concrete = T_EMPTY if empty else make(TTUPLE, var(Sort.TYPE), var(Sort.TROW))
        return [*_expand(first, concrete), (concrete, second)]
    same_family = other.ctor is not None and other.ctor.row == "argument"
    raise Mismatch(row_, other, "items" if same_family else "constructors")


def _expand(row_: Cell, concrete: Cell) -> list[tuple[Cell, Cell]]:
    """Equations making a ValTuple/ValListTuple equal to a TTuple/TEmpty; the row joins it."""
    row_.parent = concrete
    pairs: list[tuple[Cell, Cell]] = []
    if row_.ctor is VALTUPLE:
        kind, dtypes, size, current, defined = row_.args
        if concrete.ctor is TEMPTY:
            return [(dtypes, D_EMPTY), (defined, L_EMPTY)]
        dtype, dtypes_rest = _split(dtypes, DTUPLE, Sort.DTYPE, Sort.DROW, pairs)
        location, defined_rest = _split(defined, LTUPLE, Sort.LOC, Sort.LROW, pairs)
        here = current
        if root_of(kind).ctor is VALUE_KIND:  # a value stands ANYWHERE, as every other value
            pairs.append((location, ANYWHERE))
            here = location = ANYWHERE
        pairs += [
            (concrete.args[0], make(VAL, kind, dtype, size, here, location)),
            (concrete.args[1], make(VALTUPLE, kind, dtypes_rest, size, current, defined_rest)),
        ]
        return pairs
    kind, dtypes, length, skip, size = row_.args
    if concrete.ctor is TEMPTY:
        return [(dtypes, D_EMPTY)]
    dtype, dtypes_rest = _split(dtypes, DTUPLE, Sort.DTYPE, Sort.DROW, pairs)
    item = make(VAL, kind, make(LIST, dtype, length, skip), size, ANYWHERE, ANYWHERE)
    pairs += [
        (concrete.args[0], item),
        (concrete.args[1], make(VALLISTTUPLE, kind, dtypes_rest, length, skip, size)),
    ]
    return pairs


def _split(
    items: Cell, ctor: Constructor, item_sort: Sort, rest_sort: Sort, pairs: list[tuple[Cell, Cell]]
) -> tuple[Cell, Cell]:
    """The first item and the rest of the row `items`: its own, when it is known already (a row
    of values met before, as `lift`'s two rows share their dtypes), else fresh variables that an
    equation added to `pairs` makes so."""
    known = root_of(items)
    if known.ctor is ctor:
        return known.args[0], known.args[1]
    first, rest = var(item_sort), var(rest_sort)
    pairs.append((items, make(ctor, first, rest)))
    return first, rest


def _first_known(row_: Cell) -> bool:
    tail = root_of(row_.args[1]).ctor
    return tail is DTUPLE or tail is DEMPTY


# -- rows ---------------------------------------------------------------------------------------
TTUPLE = Constructor("TTuple", _TROW, (_TYPE, _TROW), row="argument", cons=True)
TEMPTY = Constructor("TEmpty", _TROW, row="argument")
DTUPLE = Constructor("DTuple", _DROW, (_DTYPE, _DROW), row="dtype", cons=True)
DEMPTY = Constructor("DEmpty", _DROW, row="dtype")
LTUPLE = Constructor("LTuple", _LROW, (_LOC, _LROW), row="location", cons=True)
LEMPTY = Constructor("LEmpty", _LROW, row="location")
#: `ValTuple(kind, dtypes, size, current location, defined locations)`: arguments of one shape,
#: each with its own dtype and defined location (the stencil's inputs of `lift`, `scan`).
VALTUPLE = Constructor(
    "ValTuple",
    _TROW,
    (_KIND, _DROW, _SIZE, _LOC, _LROW),
    row="argument",
    locations=(3, 4),
    meet=_meet_row_of_values,
)
#: `ValListTuple(kind, dtypes, length, skip flag, size)`: lists sharing length and skip flag
#: (the inputs of `reduce`, `map_`).
VALLISTTUPLE = Constructor(
    "ValListTuple",
    _TROW,
    (_KIND, _DROW, Sort.LENGTH, Sort.SKIP, _SIZE),
    row="argument",
    meet=_meet_row_of_values,
)

#: Every constructor of the core, by name (for the reader and JSON trees).
CONSTRUCTORS: dict[str, Constructor] = {
    c.name: c
    for c in (VAL, FUN, ITERATOR_KIND, VALUE_KIND, COLUMN_SIZE, SCALAR_SIZE, PRIM, LIST, LOC, LENGTH, SKIP,
              TTUPLE, TEMPTY, DTUPLE, DEMPTY, LTUPLE, LEMPTY, VALTUPLE, VALLISTTUPLE)
}  # fmt: skip
ROWS_OF_VALUES = (VALTUPLE, VALLISTTUPLE)
#: The core's constructors, each with a notation of its own; any other is written `Name[arg, …]`.
CORE: frozenset[Constructor] = frozenset(CONSTRUCTORS.values())


# -- constructors added from outside the core ---------------------------------------------------
#: A name as the reader tokenizes one (`[A-Za-z_][A-Za-z0-9_]*`).
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: Words the notation gives a meaning of its own: `Name[…]` there would read as something else.
_RESERVED = frozenset({"It", "L", "T", "True", "False"}) | PRIMITIVES | SPECIAL_DTYPES


def register_constructor(ctor: Constructor) -> Constructor:
    """Add `ctor` to `CONSTRUCTORS`, so that the reader reads its generic notation `Name[arg, …]`
    (and JSON trees name it); returns it, so that it can be defined and registered in one line.

    Its name must be free and a name the notation leaves to constructors (a ValueError names
    the clash otherwise): the printer's and reader's words (`It`, `L`, `T…`, `ItOrVal…`,
    `True`, `False`, a primitive or special dtype, `where…`) are not. A row constructor is
    refused too: a row's notation is its family's (`(a, b)`), not a constructor's."""
    name = ctor.name
    if _IDENTIFIER.fullmatch(name) is None:
        raise ValueError(messages.not_a_constructor_name(name))
    if name in CONSTRUCTORS:
        raise ValueError(messages.constructor_already(name))
    reserved = name in _RESERVED or re.fullmatch(r"T[0-9]*", name) is not None
    if reserved or name.startswith(("ItOrVal", "where")):
        raise ValueError(messages.notation_word(name))
    if ctor.row is not None or ctor.is_cons:
        raise ValueError(messages.row_constructor(name))
    if any(i >= len(ctor.params) or ctor.params[i] is not Sort.LOC for i in ctor.locations):
        raise ValueError(messages.not_location_positions(name))
    CONSTRUCTORS[name] = ctor
    return ctor


def unregister_constructor(ctor: Constructor) -> None:
    """Take `ctor`, added by `register_constructor`, out of the table again (a test's toy must
    not outlive its test); the core's constructors stay."""
    if ctor in CORE:
        raise ValueError(messages.core_constructor(ctor.name))
    if CONSTRUCTORS.get(ctor.name) is not ctor:
        raise ValueError(messages.not_registered(ctor.name))
    del CONSTRUCTORS[ctor.name]


@contextmanager
def registered(ctor: Constructor) -> Iterator[Constructor]:
    """`ctor` registered for the duration of a `with` block."""
    register_constructor(ctor)
    try:
        yield ctor
    finally:
        unregister_constructor(ctor)


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


def loc(name: str) -> Cell:
    return constant(LOC, name)


ITERATOR = constant(ITERATOR_KIND)
VALUE = constant(VALUE_KIND)
COLUMN = constant(COLUMN_SIZE)
SCALAR = constant(SCALAR_SIZE)
ANYWHERE = loc("ANYWHERE")
T_EMPTY = constant(TEMPTY)
D_EMPTY = constant(DEMPTY)
L_EMPTY = constant(LEMPTY)
#: The empty row of each row family, by its cons constructor.
EMPTY_OF = {TTUPLE: T_EMPTY, DTUPLE: D_EMPTY, LTUPLE: L_EMPTY}


# -- building types -------------------------------------------------------------------------------
def val(
    kind: Cell, dtype: Cell, size: Cell, current: Cell = ANYWHERE, defined: Cell = ANYWHERE
) -> Cell:
    return make(VAL, kind, dtype, size, current, defined)


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
