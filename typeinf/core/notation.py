"""Printing types: the printer both dialects' notations are made of, and the ASCII spelling of
the marks they share.

`Printer` numbers variables from 0 in order of first occurrence in a depth-first walk over the
fields in constructor order (docs/notation.md), skipping the location fields where it leaves out
locations; it prints without recursion (explicit stacks, so that the type of a 100,000-level
program prints), says a cycle as `…` and a type too large by its size. What each constructor
prints as is an arm of its class's table (`ARMS`): the engine's own constructors (functions,
primitive dtypes, argument and dtype rows) here; the fencil IR's printer
(`typeinf.fencil.notation`) and GTIR's (`typeinf.gtir.notation`) add or replace their own. A
constructor without an arm prints in the generic notation `Name[arg, …]`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, ClassVar, TypeAlias

from typeinf.core.constructors import (
    DEMPTY,
    DTUPLE,
    FUN,
    PRIM,
    TEMPTY,
    TTUPLE,
    Constructor,
    row_items,
)
from typeinf.core.sizes import MOST_PRINTED_CELLS, WrittenOut, check_printable, placeholder
from typeinf.core.terms import (
    FAMILY_NAMES,
    Cell,
    ClosureType,
    DefinitionType,
    Sort,
    Type,
    find,
    make,
    relations_of,
    roots,
)

_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")

#: The ASCII spelling of every character of the notation that is not ASCII (docs/notation.md),
#: for terminals and logs without Unicode: `to_ascii` writes it, `fencil.reader` reads it. A
#: run of superscript digits takes one `^` (`¹²` is `^12`); a subscript digit is the digit
#: (`T₁₂` is `T12`, `…₃` is `...3`, `)₀` is `)0`, `ItOrVal₀` is `ItOrVal0`).
ASCII_SPELLING: dict[str, str] = {
    "→": "->",
    "⇒": "=>",
    "…": "...",
    "ᶜ": "^c",
    "ˢ": "^s",
    **dict(zip("₀₁₂₃₄₅₆₇₈₉", "0123456789", strict=True)),
    **{sup: "^" + digit for sup, digit in zip("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789", strict=True)},
}
_SUPERSCRIPTS = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_ASCII = str.maketrans(ASCII_SPELLING)


def to_ascii(text: str) -> str:
    """Printed notation in its ASCII spelling (`ASCII_SPELLING`), which `parse_type` reads as
    well; characters the notation does not use (in a name) are left as they are."""
    text = _SUPERSCRIPTS.sub(lambda run: "^" + run.group().translate(_DIGITS), text)
    return text.translate(_ASCII)


def subscript(n: int) -> str:
    return str(n).translate(_SUBSCRIPT)


def superscript(n: int) -> str:
    return str(n).translate(_SUPERSCRIPT)


class _Exit:
    """Marks the end of a structure's output, for cycle detection."""

    __slots__ = ("cell",)

    def __init__(self, cell: Cell) -> None:
        self.cell = cell


Piece: TypeAlias = str | Cell | _Exit


#: How a printer prints a structure of one constructor.
Arm: TypeAlias = "Callable[[Any, Cell], list[Piece]]"


class Printer:
    """Numbers the variables of some types, then prints them (sharing one numbering).

    The compact notation leaves out every location (the design's notation, TYPES.md § 2);
    reading it back gives each iterator fresh locations of its own, a type at least as general
    as the one printed. The located notation shows them all."""

    #: How each constructor prints; any other prints in the generic notation (`structure`).
    ARMS: ClassVar[dict[Constructor, Arm]]

    def __init__(self, types: list[Type], locations: bool = False) -> None:
        self.locations = locations
        # Once each: a definition's relations are both its own and its program's.
        self.relations = list({id(r): r for t in types for r in relations_of(t)}.values())
        self.numbers: dict[int, int] = {}
        self.variables: list[Cell] = []
        self.written_out = WrittenOut()
        seen: set[int] = set()
        stack = [cell for type_ in reversed(types) for cell in reversed(list(roots(type_)))]
        while stack:
            cell = find(stack.pop())
            if cell.ctor is None:
                if id(cell) not in self.numbers:
                    self.numbers[id(cell)] = len(self.variables)
                    self.variables.append(cell)
            elif cell.args and id(cell) not in seen:
                seen.add(id(cell))
                skip = () if locations else cell.ctor.locations
                stack.extend(a for i, a in reversed(list(enumerate(cell.args))) if i not in skip)

    def number(self, cell: Cell) -> int:
        root = find(cell)
        if id(root) not in self.numbers:  # only reached by parts the walk leaves out
            self.numbers[id(root)] = len(self.variables)
            self.variables.append(root)
        return self.numbers[id(root)]

    def placeholder(self) -> str:
        """A variable's name that no variable of the types has: for a cell known already, named
        as a variable (as an error names a relation's cells)."""
        self.variables.append(make(PRIM))  # takes a number, and is no variable of a `where`
        return f"T{subscript(len(self.variables) - 1)}"

    def where(self) -> str:
        """`where T₀: float, …`: the `clauses`, or nothing."""
        clauses = self.clauses()
        return " where " + ", ".join(clauses) if clauses else ""

    def clauses(self) -> list[str]:
        """The `where` clause's parts: the family-restricted dtype variables, in number order,
        then the relations the types are subject to (`T₂ = max(T₀, T₁)`), in order."""
        relations = [relation.show(self.render) for relation in self.relations]
        return [
            f"T{subscript(self.numbers[id(v)])}: {FAMILY_NAMES.get(v.family, 'one of ' + ', '.join(sorted(v.family)))}"
            for v in self.variables
            if v.sort in (Sort.DTYPE, Sort.DROW) and v.family is not None and find(v) is v
        ] + relations

    def format(self, type_: Type) -> str:
        if isinstance(type_, Cell):
            return self.render(type_)
        if isinstance(type_, ClosureType):
            inputs = ", ".join(self.render(c) for c in type_.inputs)
            return f"({inputs}) ⇒ {self.render(type_.output)}"
        if isinstance(type_, DefinitionType):
            return f"{type_.name} :: {self.render(type_.type)}"
        definitions = "".join(self.format(d) + ", " for d in type_.definitions)
        params = ", ".join(self.render(c) for c in type_.params)
        return f"{{{definitions}{type_.name}({params})}}"

    def render(self, cell: Cell) -> str:
        cells = self.written_out(cell)
        if cells > MOST_PRINTED_CELLS:  # a message's type: said by its size (`pformat` raises)
            return placeholder(cells)
        out: list[str] = []
        on_path: set[int] = set()
        stack: list[Piece] = [cell]
        while stack:
            piece = stack.pop()
            if type(piece) is str:
                out.append(piece)
            elif type(piece) is _Exit:
                on_path.discard(id(piece.cell))
            else:
                root = find(piece)  # type: ignore[arg-type]  # not a str, not an _Exit: a Cell
                if id(root) in on_path:
                    out.append("…")  # a cycle, which only a failed inference leaves
                    continue
                pieces = self.pieces(root)
                if root.args:
                    on_path.add(id(root))
                    pieces.append(_Exit(root))
                stack.extend(reversed(pieces))
        return "".join(out)

    # -- what each constructor prints as (`ARMS`) ---------------------------------------------------
    def pieces(self, cell: Cell) -> list[Piece]:
        ctor = cell.ctor
        if ctor is None:
            return [f"T{subscript(self.number(cell))}"]
        arm = self.ARMS.get(ctor)
        return self.structure(cell) if arm is None else arm(self, cell)

    def shows(self, cell: Cell) -> bool:
        """Whether `cell`'s locations are printed (if it is an iterator or a row of them): in
        the located notation only."""
        return self.locations

    def function(self, cell: Cell) -> list[Piece]:
        return [cell.args[0], " → ", cell.args[1]]

    def tuple_of(self, cell: Cell) -> list[Piece]:
        """`(a, b)`, `(a, b):tail` where the rest is unknown or a row with a rule of its own
        (`open_row`: a registered constructor is never a row), or just `tail`."""
        items, tail = row_items(cell)
        out: list[Piece] = []
        for i, item in enumerate(items):
            out += [", ", item] if i else [item]
        ctor = tail.ctor
        if ctor is not None and ctor.row is not None and not ctor.params:  # an empty row
            return ["(", *out, ")"]
        if ctor is not None and ctor.row is not None and ctor.meet is not None:
            known, unknown = self.open_row(tail)
            if known:
                out += [", ", *known] if out else known
            if not unknown:
                return ["(", *out, ")"]
            return ["(", *out, "):", *unknown] if out else unknown
        return ["(", *out, "):", tail] if items else [tail]

    def open_row(self, cell: Cell) -> tuple[list[Piece], list[Piece]]:
        """The known items of a row with a rule of its own (a dialect's: the fencil IR's rows of
        values), and its unknown rest; a dialect's printer that has such rows says how."""
        return [], self.structure(cell)

    def structure(self, cell: Cell) -> list[Piece]:
        """The generic notation of a constructor without an arm of its own (one added by
        `register_constructor`), which `fencil.reader` reads back: `Name[arg, …]`, its arguments
        in the order of its params, location arguments left out of the compact notation (as a
        `Val`'s); a labelled constant by its label, a constructor without params by its name."""
        ctor = cell.ctor
        assert ctor is not None  # a structure
        if ctor.labelled:
            return [str(cell.label)]
        if not ctor.params:
            return [ctor.name]
        skip = () if self.shows(cell) else ctor.locations
        out: list[Piece] = [ctor.name, "["]
        for i, arg in enumerate(cell.args):
            if i not in skip:
                out += [arg] if len(out) == 2 else [", ", arg]
        return [*out, "]"]


def label(printer: Printer, cell: Cell) -> list[Piece]:
    """A constant by its label: `float64`, `Vertex`, `4`."""
    return [str(cell.label)]


Printer.ARMS = {
    FUN: Printer.function,
    **dict.fromkeys((TTUPLE, TEMPTY, DTUPLE, DEMPTY), Printer.tuple_of),
    PRIM: label,
}


def written(type_: Type, printer: type[Printer] = Printer, locations: bool = False) -> str:
    """`type_` printed whole by a printer of class `printer` (the engine's own by default, as a
    cell's `repr` prints), its `where` clause after it. Raises TypeTooLargeError for a type too
    large to write out (`sizes.MOST_PRINTED_CELLS`)."""
    check_printable([type_])
    out = printer([type_], locations)
    return out.format(type_) + out.where()


def type_tree(type_: Type) -> dict[str, Any]:
    """A type as a JSON-ready tree, for tools: `{"var": n, "sort": …, "family": …}` (numbered as
    in the located notation), `{"ctor": name, "label": …}` for a constant, `{"ctor": name,
    "args": […]}` for a structure, `{"ctor": "TTuple", "items": […], "tail": …}` for a row; a
    definition, closure or fencil as an object of its parts. Built without recursion; its
    shared parts are shared objects, which JSON writes out: raises as `pformat` does."""
    check_printable([type_])
    if isinstance(type_, DefinitionType):
        return {"definition": type_.name, "type": type_tree(type_.type)}
    if isinstance(type_, ClosureType):
        return {"inputs": [type_tree(t) for t in type_.inputs], "output": type_tree(type_.output)}
    if not isinstance(type_, Cell):
        return {
            "fencil": type_.name,
            "definitions": [type_tree(d) for d in type_.definitions],
            "params": [type_tree(p) for p in type_.params],
        }
    numbers = Printer([type_], locations=True).numbers
    done: dict[int, dict[str, Any]] = {}
    stack: list[tuple[Cell, bool]] = [(find(type_), False)]
    while stack:  # children are built before their parent, and shared ones once
        cell, ready = stack.pop()
        if id(cell) in done:
            continue
        items, tail = (
            row_items(cell)
            if cell.ctor is not None and cell.ctor.is_cons
            else (list(cell.args), None)
        )
        parts = [find(c) for c in (*items, *([tail] if tail is not None else []))]
        if not ready:
            stack.append((cell, True))
            stack.extend((c, False) for c in parts if id(c) not in done)
            continue
        if cell.ctor is None:
            tree: dict[str, Any] = {"var": numbers[id(cell)], "sort": cell.sort.value}
            if cell.family is not None:
                tree["family"] = FAMILY_NAMES[cell.family]
        elif tail is not None:
            tree = {
                "ctor": cell.ctor.name,
                "items": [done[id(c)] for c in parts[:-1]],
                "tail": done[id(parts[-1])],
            }
        elif parts:
            tree = {"ctor": cell.ctor.name, "args": [done[id(c)] for c in parts]}
        else:
            tree = (
                {"ctor": cell.ctor.name}
                if cell.label is None
                else {"ctor": cell.ctor.name, "label": cell.label}
            )
        done[id(cell)] = tree
    return done[id(find(type_))]
