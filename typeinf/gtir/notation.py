"""Printing GTIR types (cells of `typeinf.gtir.terms`) in the notation of docs/gtir.md.

A ground type prints as GT4Py 1.2.3's `str()` does where GT4Py's is a notation
(`float64`, `Field[[IDim, JDim], float64]`, `tuple[int32, bool]`, `(int32) → bool` with `→` for
GT4Py's `->`); the types GT4Py shows only by their `repr` have a form of their own
(`It[[Vertex], [Edge], float64]`, `List[int32, V2Eₗ]`, `Domain[[IDim]]`, `NamedRange[IDim]`,
`Dimension[IDim]`, `Offset[V2E]`, `Offset[int32]`, `Offset[IDim→IDim]`). A dimension prints
with its kind where the kind is not GT4Py's default: `KDimᵥ` (vertical), `V2Eₗ` (local),
horizontal ones bare. Variables are numbered from 0 in order of first occurrence, as the fencil
notation numbers them: `D₀` stands for a dimension set, `T₀` for anything else (a type, a
dimension, a tuple's unknown rest `tuple[int32, *T₁]`, `tuple[*T₁]`); families and relations
follow in a `where` clause. `typeinf.gtir.reader` reads all of it back.

The printer is the core's (`notation.Printer`: numbering, explicit stack, cycles, size limit),
with GTIR's arms in place of the fencil notation's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from iterir.gtir_types import ABBREVIATED, KIND_SUFFIXES, Dimension
from iterir.vocabulary import PRIMITIVES
from typeinf.core.constructors import DEMPTY, DTUPLE, PRIM, Constructor, row_items
from typeinf.core.notation import ASCII_SPELLING, Piece, Printer, subscript, to_ascii
from typeinf.core.sizes import check_printable
from typeinf.core.terms import Cell, Sort, Type, find
from typeinf.gtir import terms as g

#: A name written bare: ASCII (the reader's names), and not a variable (`T0`).
_BARE = re.compile(r"(?![TD][0-9]*$)[A-Za-z_][A-Za-z0-9_]*")


def dimension_text(dimension: Dimension) -> str:
    """`IDim` (horizontal), `KDimᵥ`, `V2Eₗ`; any other name, or one that would read as
    something else (a variable, a scalar), in backquotes with JSON's escapes (`` `T0` ``,
    `` `int32` ``, `` `a b` ``)."""
    name = dimension.value
    if _BARE.fullmatch(name) is None or name in PRIMITIVES or name in ABBREVIATED:
        name = "`" + json.dumps(name, ensure_ascii=False)[1:-1].translate(_ESCAPED) + "`"
    return name if dimension.kind == "horizontal" else name + KIND_SUFFIXES[dimension.kind]


def dims_text(dimensions: tuple[Dimension, ...]) -> str:
    """`[IDim, KDimᵥ]`: a ground set as GT4Py's `str()` writes a field's dimensions (with the
    kinds it drops), so that a field prints as GT4Py's does."""
    return "[" + ", ".join(map(dimension_text, dimensions)) + "]"


class GtirPrinter(Printer):
    """The core's printer with GTIR's arms (`_ARMS`); a cell of another constructor prints as
    the core's printer prints it."""

    def __init__(self, types: list[Type]) -> None:
        super().__init__(types, locations=True)  # GTIR types have no locations to leave out

    def pieces(self, cell: Cell) -> list[Piece]:
        ctor = cell.ctor
        if ctor is None:
            if cell.sort is Sort.DROW:  # a tuple of which nothing is known
                return ["tuple[", *self.items(cell), "]"]
            letter = "D" if cell.sort is Sort.DIMS else "T"
            return [f"{letter}{subscript(self.number(cell))}"]
        arm = _ARMS.get(ctor)
        return super().pieces(cell) if arm is None else arm(self, cell)

    def items(self, row: Cell) -> list[Piece]:
        """A dtype row's items, comma-separated, and its unknown rest as `*T₁`."""
        items, tail = row_items(row)
        out: list[Piece] = []
        for item in items:
            out += [", ", item] if out else [item]
        if tail.ctor is not DEMPTY:
            rest = f"*T{subscript(self.number(tail))}" if tail.ctor is None else tail
            out += [", ", rest] if out else [rest]
        return out


def _tuple(printer: GtirPrinter, cell: Cell) -> list[Piece]:
    return ["tuple[", *printer.items(cell), "]"]


def _function(printer: GtirPrinter, cell: Cell) -> list[Piece]:
    params, result = cell.args
    return ["(", *printer.items(params), ") → ", result]


def _dim(printer: GtirPrinter, cell: Cell) -> list[Piece]:
    return ["_" if cell.label is None else dimension_text(cell.label)]  # type: ignore[arg-type]


def _dims(printer: GtirPrinter, cell: Cell) -> list[Piece]:
    return [dims_text(cell.label)]  # type: ignore[arg-type]  # a canonical tuple of dimensions


def _list(printer: GtirPrinter, cell: Cell) -> list[Piece]:
    element, local = cell.args
    if find(local) is g.NO_DIM:
        return ["List[", element, "]"]
    return ["List[", element, ", ", local, "]"]


def _applied(name: str) -> Callable[[GtirPrinter, Cell], list[Piece]]:
    """`Name[a, b]` of a structure's arguments."""

    def arm(printer: GtirPrinter, cell: Cell) -> list[Piece]:
        out: list[Piece] = [name, "["]
        for i, arg in enumerate(cell.args):
            out += [", ", arg] if i else [arg]
        return [*out, "]"]

    return arm


def _amount(printer: GtirPrinter, cell: Cell) -> list[Piece]:
    return [f"Offset[{cell.label}]"]


def _cartesian(printer: GtirPrinter, cell: Cell) -> list[Piece]:
    domain, codomain = cell.args
    return ["Offset[", domain, "→", codomain, "]"]


def _scalar(printer: GtirPrinter, cell: Cell) -> list[Piece]:
    return [str(cell.label)]


#: How each of GTIR's constructors (and the core's it reuses) prints.
_ARMS: dict[Constructor, Callable[[GtirPrinter, Cell], list[Piece]]] = {
    PRIM: _scalar,
    DTUPLE: _tuple,
    DEMPTY: _tuple,
    g.FUNCTION: _function,
    g.DIM: _dim,
    g.DIMS: _dims,
    g.LIST: _list,
    g.FIELD: _applied("Field"),
    g.ITERATOR: _applied("It"),
    g.DOMAIN: _applied("Domain"),
    g.NAMED_RANGE: _applied("NamedRange"),
    g.DIMENSION: _applied("Dimension"),
    g.OFFSET: _applied("Offset"),
    g.OFFSET_AMOUNT: _amount,
    g.CARTESIAN_OFFSET: _cartesian,
}


#: The ASCII spelling of GTIR's own marks, beside the core's (`notation.ASCII_SPELLING`):
#: `to_ascii_gtir` writes it, `typeinf.gtir.reader` reads a kind's back (`KDim^v`).
GTIR_ASCII_SPELLING: dict[str, str] = {
    **{suffix: "^" + kind[0] for kind, suffix in KIND_SUFFIXES.items()},
    "⊆": "<=",
    "∪": "|",
    "∈": "in",
}
_GTIR_ASCII = str.maketrans(GTIR_ASCII_SPELLING)

#: Characters a quoted name writes as JSON escapes: the backquote, and every mark the ASCII
#: spelling rewrites (`ASCII_SPELLING`, `GTIR_ASCII_SPELLING`), so that a name
#: (`` `\u00b2` ``, a dimension named `²`) is the same name in both spellings and `to_ascii`
#: never changes it into another.
_ESCAPED = str.maketrans(
    {c: f"\\u{ord(c):04x}" for c in ("`", *ASCII_SPELLING, *GTIR_ASCII_SPELLING)}
)


def to_ascii_gtir(text: str) -> str:
    """GTIR's printed notation in its ASCII spelling (`--ascii`): `KDim^v`, `D1 <= D2`."""
    return to_ascii(text.translate(_GTIR_ASCII))


def pformat_gtir(type_: Type) -> str:
    """A GTIR type in the notation, with its `where` clause; raises TypeTooLargeError for a
    type too large to write out (as `typeinf.core.notation.written`)."""
    return pformat_gtir_where(type_)[0]


def pformat_gtir_where(type_: Type) -> tuple[str, tuple[str, ...]]:
    """`pformat_gtir(type_)` and the parts of its `where` clause (`where_clauses`), printed
    once: a definition's public value holds both."""
    check_printable([type_])
    printer = GtirPrinter([type_])
    text = printer.format(type_)
    clauses = tuple(printer.clauses())
    return (text + " where " + ", ".join(clauses) if clauses else text), clauses


def where_clauses(type_: Type) -> list[str]:
    """The parts of `pformat_gtir(type_)`'s `where` clause, in order, numbered as it numbers
    them (`D₁ ⊆ D₂`): what a `--json` report lists beside the type."""
    return GtirPrinter([type_]).clauses()


def pformat_gtir_all(types: list[Type]) -> list[str]:
    """Several GTIR types numbered together (a variable one number in all), as a message that
    shows an expected and a found type needs; no `where` clauses."""
    check_printable(types)
    printer = GtirPrinter(types)
    return [printer.format(t) for t in types]
