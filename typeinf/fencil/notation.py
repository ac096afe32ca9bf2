"""Printing the fencil IR's types in GT4Py's notation: compact (`Val(kind, dtype, size)` only) or
located.

The compact notation leaves out every location, and the numbering skips the location fields
(docs/notation.md); located output is character for character GT4Py 1.0.3's. The printer is the
core's (`typeinf.core.notation.Printer`) with the fencil IR's arms: values and iterators, lists,
sizes, kinds, locations and the rows of values.
"""

from __future__ import annotations

from typeinf.core.constructors import DEMPTY, row_items
from typeinf.core.notation import Piece, Printer, label, subscript, superscript, written
from typeinf.core.sizes import check_printable
from typeinf.core.terms import Cell, FencilType, Type, find, make
from typeinf.fencil.constructors import (
    ANYWHERE,
    COLUMN_SIZE,
    ITERATOR_KIND,
    LEMPTY,
    LENGTH,
    LIST,
    LOC,
    LTUPLE,
    SCALAR_SIZE,
    SKIP,
    VAL,
    VALLISTTUPLE,
    VALTUPLE,
    VALUE_KIND,
)


class FencilPrinter(Printer):
    """The core's printer with the fencil IR's arms (`ARMS`)."""

    def value(self, cell: Cell) -> list[Piece]:
        kind, dtype, size, current, defined = cell.args
        return self.kinded(kind, [dtype, self.size(size)], current, defined, self.shows(cell))

    def list_of(self, cell: Cell) -> list[Piece]:
        dtype, length, skip = cell.args
        return ["L[", dtype, ", ", length, ", ", skip, "]"]

    def size(self, size: Cell) -> str:
        root = find(size)
        if root.ctor is COLUMN_SIZE:
            return "ᶜ"
        if root.ctor is SCALAR_SIZE:
            return "ˢ"
        return superscript(self.number(root))

    def kinded(
        self, kind: Cell, inner: list[Piece], current: Piece, defined: Piece, shown: bool
    ) -> list[Piece]:
        """A Val's text around its dtype and size: as is for a value, `It[…]` for an iterator,
        with its locations if `shown` (GT4Py's located notation leaves out both `ANYWHERE`)."""
        root = find(kind)
        if root.ctor is VALUE_KIND:
            return inner
        if root.ctor is ITERATOR_KIND:
            anywhere = (
                self.locations
                and isinstance(current, Cell)
                and isinstance(defined, Cell)
                and find(current) is ANYWHERE
                and find(defined) is ANYWHERE
            )
            if not shown or anywhere:
                return ["It[", *inner, "]"]
            return ["It[", current, ", ", defined, ", ", *inner, "]"]
        # GT4Py's located notation has no located `ItOrVal`: neither notation shows its places.
        return [f"ItOrVal{subscript(self.number(root))}[", *inner, "]"]

    def open_row(self, cell: Cell) -> tuple[list[Piece], list[Piece]]:
        """A row of values at the end of a tuple: its known items and its unknown rest."""
        return self.row_of_values(cell)

    def value_row(self, cell: Cell) -> list[Piece]:
        known, unknown = self.row_of_values(cell)
        if not unknown:
            return ["(", *known, ")"]
        return ["(", *known, "):", *unknown] if known else unknown

    def row_of_values(self, cell: Cell) -> tuple[list[Piece], list[Piece]]:
        """A ValTuple's or ValListTuple's known items, and its unknown rest (`(It[T¹], …)ᵣ`)."""
        if cell.ctor is VALLISTTUPLE:
            return self.list_row(cell)
        kind, dtypes, size, current, defined = cell.args
        dtype_items, dtype_tail = row_items(dtypes)
        loc_items, loc_tail = row_items(defined)
        shown = self.shows(cell)
        known: list[Piece] = []
        for i, dtype in enumerate(dtype_items):
            location = loc_items[i] if i < len(loc_items) else "_"
            item = self.kinded(kind, [dtype, self.size(size)], current, location, shown)
            known += [", ", *item] if i else item
        if dtype_tail.ctor is DEMPTY:
            return known, []
        rest_locations = f"…{subscript(self.number(loc_tail))}" if loc_tail.ctor is None else "…"
        unknown = [
            "(",
            *self.kinded(kind, ["T", self.size(size)], current, rest_locations, shown),
            f", …){subscript(self.number(dtype_tail))}",
        ]
        return known, unknown

    def list_row(self, cell: Cell) -> tuple[list[Piece], list[Piece]]:
        """A ValListTuple's known items, and its unknown rest (`(L[…ᵣ, n, k]ˢ, …)`)."""
        kind, dtypes, length, skip, size = cell.args
        items, tail = row_items(dtypes)
        known: list[Piece] = []
        for i, dtype in enumerate(items):
            item = make(VAL, kind, make(LIST, dtype, length, skip), size, ANYWHERE, ANYWHERE)
            known += [", ", item] if i else [item]
        if tail.ctor is DEMPTY:
            return known, []
        inner: list[Piece] = [
            f"L[…{subscript(self.number(tail))}, ",
            length,
            ", ",
            skip,
            "]",
            self.size(size),
        ]
        return known, ["(", *self.kinded(kind, inner, ANYWHERE, ANYWHERE, self.locations), ", …)"]


def _skip(printer: Printer, cell: Cell) -> list[Piece]:
    """A skip flag: `True`, `False`."""
    return [str(bool(cell.label))]


def _name(printer: Printer, cell: Cell) -> list[Piece]:
    """A constant without a label, by its constructor's name (`Iterator` in error messages)."""
    return [cell.ctor.name]  # type: ignore[union-attr]  # a structure


#: How each constructor of the fencil IR's table prints (`tests/test_constructors.py` checks
#: that every one has an arm); any other prints in the generic notation (`Printer.structure`).
FencilPrinter.ARMS = {
    **Printer.ARMS,
    VAL: FencilPrinter.value,
    LIST: FencilPrinter.list_of,
    **dict.fromkeys((LTUPLE, LEMPTY), FencilPrinter.tuple_of),
    **dict.fromkeys((VALTUPLE, VALLISTTUPLE), FencilPrinter.value_row),
    **dict.fromkeys((LOC, LENGTH), label),
    SKIP: _skip,
    **dict.fromkeys((ITERATOR_KIND, VALUE_KIND, COLUMN_SIZE, SCALAR_SIZE), _name),
}


def pformat(type_: Type, locations: bool = False) -> str:
    """A type in the compact notation, or the located one (GT4Py 1.0.3's) with `locations`.
    Raises TypeTooLargeError for a type too large to write out (`sizes.MOST_PRINTED_CELLS`)."""
    return written(type_, FencilPrinter, locations)


def pformat_lines(type_: Type, locations: bool = False) -> list[str]:
    """A fencil's type as lines, each numbered on its own with its own `where` clause: one per
    definition (`f :: …`), then the fencil's parameters (`{name(…)}`); any other type, one line.
    This is what `typeinf infer` prints and what a snapshot holds."""
    if not isinstance(type_, FencilType):
        return [pformat(type_, locations)]
    lines = [pformat(d, locations) for d in type_.definitions]
    return [*lines, pformat(FencilType(type_.name, (), type_.params), locations)]


def pformat_all(types: list[Type], locations: bool = False) -> list[str]:
    """Several types numbered together (as a fencil's parts are); no `where` clauses. Raises
    as `pformat` does."""
    check_printable(types)
    printer = FencilPrinter(types, locations)
    return [printer.format(t) for t in types]
