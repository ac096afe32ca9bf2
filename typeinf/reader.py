"""Reading types written in the notation (compact or located) back into cells.

A variable's number names it across the whole text (`T₁` and the size mark `¹` are one
variable); the place it stands in gives its sort. What the compact notation leaves out (an
iterator's locations) reads as fresh variables; the located notation's `It[d]` is `ANYWHERE`.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

import lark
from lark import Token
from lark.exceptions import LarkError, UnexpectedInput

from iterir.vocabulary import PRIMITIVES
from typeinf.constructors import (
    ANYWHERE,
    COLUMN,
    D_EMPTY,
    DTUPLE,
    FUN,
    ITERATOR,
    LENGTH,
    LIST,
    SCALAR,
    SKIP,
    T_EMPTY,
    TTUPLE,
    VALLISTTUPLE,
    VALTUPLE,
    VALUE,
    constant,
    loc,
    prim,
    row,
    row_items,
    val,
)
from typeinf.terms import (
    FAMILIES,
    SPECIAL_DTYPES,
    Cell,
    ClosureType,
    DefinitionType,
    FencilType,
    Sort,
    Type,
    find,
    make,
    sort_meet,
    var,
)

_DIGITS = {c: i for i, c in enumerate("₀₁₂₃₄₅₆₇₈₉")} | {c: i for i, c in enumerate("⁰¹²³⁴⁵⁶⁷⁸⁹")}



@functools.cache
def _parser() -> lark.Lark:
    """The reader, made when a type is first read: `import typeinf` does not pay for it."""
    grammar = resources.files("typeinf").joinpath("type_grammar.lark").read_text(encoding="utf-8")
    return lark.Lark(grammar, parser="earley", maybe_placeholders=False)


class TypeSyntaxError(ValueError):
    """A type or signature that is not written in the notation, with where it goes wrong."""


def parse_type(text: str, locations: bool | None = None) -> Type:
    """Read a type (or `name :: type`, `inputs ⇒ output`, `{…}`) in either notation.

    `locations` says which notation; by default it is the located one if any iterator shows
    its locations.
    """
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        where = f"at column {exc.column}" if exc.column > 0 else "at its end"  # lark says -1 there
        raise TypeSyntaxError(f"not a type {where}: {text!r}") from None
    except (LarkError, RecursionError) as exc:
        raise TypeSyntaxError(f"not a type: {text!r} ({type(exc).__name__})") from None
    if locations is None:
        located = ("located_iterator", "row_of_located_iterators")
        locations = any(t.data in located for t in tree.iter_subtrees())
    try:
        return _Builder(locations).transform(tree)  # type: ignore[no-any-return]
    except lark.exceptions.VisitError as exc:
        if isinstance(exc.orig_exc, TypeSyntaxError):
            raise TypeSyntaxError(f"{exc.orig_exc} in {text!r}") from None
        raise


def _number(text: str) -> int:
    return int("".join(str(_DIGITS[c]) for c in text if c in _DIGITS))


@lark.v_args(inline=True)
class _Builder(lark.Transformer):  # type: ignore[type-arg]
    def __init__(self, located: bool) -> None:
        super().__init__()
        self.located = located
        self.variables: dict[int, Cell] = {}

    def variable(self, token: Token, sort: Sort) -> Cell:
        number = _number(token.value)
        cell = self.variables.get(number)
        if cell is None:
            cell = self.variables[number] = var(sort)
            return cell
        root = find(cell)
        meet = sort_meet(root.sort, sort)  # type: ignore[arg-type]
        if meet is None:
            raise TypeSyntaxError(f"variable {number} stands for a {root.sort.value} and a "
                                  f"{sort.value}")  # type: ignore[union-attr]
        root.sort = meet
        return cell

    def fresh_locations(self) -> tuple[Cell, Cell]:
        return (ANYWHERE, ANYWHERE) if self.located else (var(Sort.LOC), var(Sort.LOC))

    def size(self, token: Token) -> Cell:
        if token.value == "ᶜ":
            return COLUMN
        if token.value == "ˢ":
            return SCALAR
        return self.variable(token, Sort.SIZE)

    # -- programs ---------------------------------------------------------------------------------
    def start(self, result: Type) -> Type:
        return result

    def typed(self, type_: Cell, families: list[tuple[Token, Token]] | None = None) -> Cell:
        self.restrict(families)
        return type_

    def definition(self, name: Token, type_: Cell, families: Any = None) -> DefinitionType:
        self.restrict(families)
        return DefinitionType(name.value, type_)

    def closure(self, inputs: Cell, output: Cell, families: Any = None) -> ClosureType:
        self.restrict(families)
        items, tail = row_items(inputs)
        if tail is not T_EMPTY:
            raise TypeSyntaxError("a closure's inputs are a tuple")
        return ClosureType(tuple(items), output)

    def fencil(self, *parts: Any) -> FencilType:
        families = parts[-1] if parts and isinstance(parts[-1], list) else None
        items = list(parts[:-1] if families is not None else parts)
        self.restrict(families)
        # (name, type) pairs for the definitions, then the fencil's name and parameter types.
        last = max(i for i, item in enumerate(items) if isinstance(item, Token))
        defs = tuple(DefinitionType(items[i].value, items[i + 1]) for i in range(0, last, 2))
        return FencilType(items[last].value, defs, tuple(items[last + 1 :]))

    def where(self, *families: tuple[Token, Token]) -> list[tuple[Token, Token]]:
        return list(families)

    def family(self, variable: Token, name: Token) -> tuple[Token, Token]:
        return (variable, name)

    def restrict(self, families: list[tuple[Token, Token]] | None) -> None:
        for variable, name in families or []:
            if name.value not in FAMILIES:
                raise TypeSyntaxError(f"unknown family {name.value!r}; expected one of: "
                                      + ", ".join(sorted(FAMILIES)))  # fmt: skip
            root = find(self.variable(variable, Sort.DTYPE))
            root.family = FAMILIES[name.value]

    # -- types ------------------------------------------------------------------------------------
    def fun(self, args: Cell, ret: Cell) -> Cell:
        root = find(args)
        if root.ctor is None:
            root.sort = sort_meet(root.sort, Sort.TROW)  # type: ignore[arg-type]
            if root.sort is None:
                raise TypeSyntaxError("a function's arguments must be a tuple")
        elif root.sort is not Sort.TROW:
            raise TypeSyntaxError("a function's arguments must be a tuple")
        return make(FUN, args, ret)

    def type_var(self, token: Token) -> Cell:
        return self.variable(token, Sort.TYPE)

    def row_var(self, token: Token) -> Cell:
        return self.variable(token, Sort.TROW)

    def args(self, *items: Cell) -> Cell:
        return row(TTUPLE, list(items), T_EMPTY)

    def args_with_tail(self, *items: Cell) -> Cell:
        return row(TTUPLE, list(items[:-1]), items[-1])

    def plain_value(self, dtype: Cell, size: Token) -> Cell:
        return val(VALUE, dtype, self.size(size))

    def iterator(self, dtype: Cell, size: Token) -> Cell:
        return val(ITERATOR, dtype, self.size(size), *self.fresh_locations())

    def located_iterator(self, current: Cell, defined: Cell, dtype: Cell, size: Token) -> Cell:
        return val(ITERATOR, dtype, self.size(size), current, defined)

    def it_or_val(self, kind: Token, dtype: Cell, size: Token) -> Cell:
        kind_var = self.variable(kind, Sort.KIND)
        return val(kind_var, dtype, self.size(size), var(Sort.LOC), var(Sort.LOC))

    # -- dtypes -----------------------------------------------------------------------------------
    def dtype_var(self, token: Token) -> Cell:
        return self.variable(token, Sort.DTYPE)

    def primitive(self, token: Token) -> Cell:
        if token.value not in PRIMITIVES | SPECIAL_DTYPES:
            raise TypeSyntaxError(f"unknown dtype {token.value!r}")
        return prim(token.value)

    def dtype_tuple(self, *items: Cell) -> Cell:
        return row(DTUPLE, list(items), D_EMPTY)

    def dtype_tuple_with_tail(self, *items: Any) -> Cell:
        return row(DTUPLE, list(items[:-1]), self.variable(items[-1], Sort.DROW))

    def list(self, dtype: Cell, length: Cell, skip: Cell) -> Cell:
        return make(LIST, dtype, length, skip)

    def length_var(self, token: Token) -> Cell:
        return self.variable(token, Sort.LENGTH)

    def length(self, token: Token) -> Cell:
        return constant(LENGTH, int(token.value))

    def skip_var(self, token: Token) -> Cell:
        return self.variable(token, Sort.SKIP)

    def skip_true(self) -> Cell:
        return constant(SKIP, True)

    def skip_false(self) -> Cell:
        return constant(SKIP, False)

    def location_var(self, token: Token) -> Cell:
        return self.variable(token, Sort.LOC)

    def location(self, token: Token) -> Cell:
        return loc(token.value)

    # -- rows of values and lists -----------------------------------------------------------------
    def value_row(self, item: tuple[Cell, Cell, Cell, Cell], dtypes: Token) -> Cell:
        kind, size, current, defined = item
        return make(VALTUPLE, kind, self.variable(dtypes, Sort.DROW), size, current, defined)

    def row_of_values(self, size: Token) -> tuple[Cell, Cell, Cell, Cell]:
        return (VALUE, self.size(size), var(Sort.LOC), var(Sort.LROW))

    def row_of_iterators(self, size: Token) -> tuple[Cell, Cell, Cell, Cell]:
        return (ITERATOR, self.size(size), var(Sort.LOC), var(Sort.LROW))

    def row_of_located_iterators(self, current: Cell, defined: Token, size: Token) -> tuple[Cell, Cell, Cell, Cell]:
        return (ITERATOR, self.size(size), current, self.variable(defined, Sort.LROW))

    def row_of_either(self, kind: Token, size: Token) -> tuple[Cell, Cell, Cell, Cell]:
        return (self.variable(kind, Sort.KIND), self.size(size), var(Sort.LOC), var(Sort.LROW))

    def list_row(self, dtypes: Token, length: Cell, skip: Cell, size: Token) -> Cell:
        return make(VALLISTTUPLE, VALUE, self.variable(dtypes, Sort.DROW), length, skip, self.size(size))
