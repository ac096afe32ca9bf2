"""The fencil IR's type constructors, as a checked table: what each makes, what it takes, how it
unifies with a structure of another constructor, and which of its arguments the compact notation
leaves out.

The engine's descriptor and its own constructors (`Fun`, `Prim`, the argument and dtype rows) are
`typeinf.core.constructors`'; the fencil IR's table (`CONSTRUCTORS`) holds them beside its own:
values and iterators (`Val`, with a kind, a size and two locations), lists, locations, and rows
of values. Every module that does something per constructor dispatches through a table keyed by
descriptors (the printer's arms in `typeinf.fencil.notation`, the reader's, `instance.py`'s), and
`tests/test_constructors.py` walks every constructor of `CONSTRUCTORS` through reader, printer,
unification, matching, instantiation and `is_instance`: a constructor added without one of its
behaviours fails that test, not a user. `docs/architecture.md` shows how to add one: a
constructor added from outside is `register_constructor`ed, and has the generic notation
`Name[arg, …]` (`typeinf.fencil.notation`, `typeinf.fencil.reader`).

Rows are cons lists of a row family (`TTuple`/`TEmpty` for arguments, `DTuple`/`DEmpty` for
dtypes, `LTuple`/`LEmpty` for locations). A row of values (`ValTuple`, `ValListTuple`: any
number of arguments of one shape) is the one structure with a rule of its own: meeting a
concrete argument row, it expands into it one item at a time (`meet`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from iterir.vocabulary import PRIMITIVES
from typeinf.core.constructors import (
    D_EMPTY,
    DEMPTY,
    DTUPLE,
    FUN,
    PRIM,
    T_EMPTY,
    TEMPTY,
    TTUPLE,
    Constructor,
    constant,
    row,
    row_items,
)
from typeinf.core.terms import SPECIAL_DTYPES, Cell, Mismatch, Sort, make, root_of, var
from typeinf.fencil import constructor_messages as messages

_TYPE, _TROW, _KIND, _DTYPE = Sort.TYPE, Sort.TROW, Sort.KIND, Sort.DTYPE
_DROW, _SIZE, _LOC, _LROW = Sort.DROW, Sort.SIZE, Sort.LOC, Sort.LROW

# -- values -------------------------------------------------------------------------------------
#: `Val(kind, dtype, size, current location, defined location)`: a value or an iterator.
VAL = Constructor("Val", _TYPE, (_KIND, _DTYPE, _SIZE, _LOC, _LOC), locations=(3, 4))
ITERATOR_KIND = Constructor("Iterator", _KIND)
VALUE_KIND = Constructor("Value", _KIND)
COLUMN_SIZE = Constructor("Column", _SIZE)
SCALAR_SIZE = Constructor("Scalar", _SIZE)
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


def _known_tuple(row_: Cell) -> Cell | None:
    """The tuple of a row of values whose number of items is known, which it is (`↑deref`'s
    `ValTuple` of one iterator, from `shaped.for_arity`): the text prints it as that tuple and
    reads it back as one."""
    items, rest = row_items(row_.args[1])
    return row(TTUPLE, [var(Sort.TYPE) for _ in items], T_EMPTY) if rest.ctor is DEMPTY else None


def _first_known(row_: Cell) -> bool:
    tail = root_of(row_.args[1]).ctor
    return tail is DTUPLE or tail is DEMPTY


# -- rows ---------------------------------------------------------------------------------------
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
    known_as=_known_tuple,
)
#: `ValListTuple(kind, dtypes, length, skip flag, size)`: lists sharing length and skip flag
#: (the inputs of `reduce`, `map_`).
VALLISTTUPLE = Constructor(
    "ValListTuple",
    _TROW,
    (_KIND, _DROW, Sort.LENGTH, Sort.SKIP, _SIZE),
    row="argument",
    meet=_meet_row_of_values,
    known_as=_known_tuple,
)

#: Every constructor of the fencil IR's notation, by name (for the reader and JSON trees).
CONSTRUCTORS: dict[str, Constructor] = {
    c.name: c
    for c in (VAL, FUN, ITERATOR_KIND, VALUE_KIND, COLUMN_SIZE, SCALAR_SIZE, PRIM, LIST, LOC, LENGTH, SKIP,
              TTUPLE, TEMPTY, DTUPLE, DEMPTY, LTUPLE, LEMPTY, VALTUPLE, VALLISTTUPLE)
}  # fmt: skip
ROWS_OF_VALUES = (VALTUPLE, VALLISTTUPLE)
#: The constructors with a notation of their own; any other is written `Name[arg, …]`.
OWN_NOTATION: frozenset[Constructor] = frozenset(CONSTRUCTORS.values())


# -- constructors added from outside ---------------------------------------------------------
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
    not outlive its test); the notation's own constructors stay."""
    if ctor in OWN_NOTATION:
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
def loc(name: str) -> Cell:
    return constant(LOC, name)


ITERATOR = constant(ITERATOR_KIND)
VALUE = constant(VALUE_KIND)
COLUMN = constant(COLUMN_SIZE)
SCALAR = constant(SCALAR_SIZE)
ANYWHERE = loc("ANYWHERE")
L_EMPTY = constant(LEMPTY)
#: The empty row of each row family, by its cons constructor.
EMPTY_OF = {TTUPLE: T_EMPTY, DTUPLE: D_EMPTY, LTUPLE: L_EMPTY}


# -- building types -------------------------------------------------------------------------------
def val(
    kind: Cell, dtype: Cell, size: Cell, current: Cell = ANYWHERE, defined: Cell = ANYWHERE
) -> Cell:
    return make(VAL, kind, dtype, size, current, defined)
