"""Building cells from the syntax of a fencil type text (`typesyntax.Node`): a method of
`CellBuilder` per production, named by the node; its variables as every dialect's reader builds
them (`typeinf.core.cellbuilder.VariableBuilder`).

What the compact notation leaves out (an iterator's locations) is built as fresh variables, two
of its own for each compact `It[d]` and `ItOrValₖ[d]`; in GT4Py's located notation (`located`)
`It[d]` is `ANYWHERE`.
"""

from __future__ import annotations

from typing import Any

from iterir.vocabulary import PRIMITIVES
from typeinf.core.cellbuilder import VariableBuilder
from typeinf.core.constructors import (
    D_EMPTY,
    DTUPLE,
    FUN,
    T_EMPTY,
    TTUPLE,
    Constructor,
    constant,
    prim,
    row,
    row_items,
)
from typeinf.core.errors import unchained
from typeinf.core.notation import ASCII_SPELLING
from typeinf.core.terms import (
    SPECIAL_DTYPES,
    Cell,
    ClosureType,
    DefinitionType,
    FencilType,
    Sort,
    find,
    make,
    sort_meet,
    var,
)
from typeinf.core.typetokens import TypeSyntaxError
from typeinf.fencil.constructors import (
    ANYWHERE,
    COLUMN,
    ITERATOR,
    LENGTH,
    LIST,
    SCALAR,
    SKIP,
    VALLISTTUPLE,
    VALTUPLE,
    VALUE,
    loc,
    val,
)
from typeinf.fencil.typesyntax import Node

_COLUMN, _SCALAR = ASCII_SPELLING["ᶜ"], ASCII_SPELLING["ˢ"]  # the size marks' ASCII spelling


class CellBuilder(VariableBuilder):
    """The cells of each production (the `Node.method`s), and the variables met, by number."""

    def __init__(self, located: bool) -> None:
        super().__init__()
        self.located = located

    def build(self, tree: Node) -> Any:
        """The value of `tree`: each node's parts built before it, left to right (the order in
        which variables are met decides which sort a conflict names first), without recursion."""
        built: list[Any] = []
        stack: list[tuple[Node, bool]] = [(tree, False)]
        while stack:
            node, ready = stack.pop()
            if not ready:
                stack.append((node, True))
                for arg in reversed(node.args):
                    if type(arg) is Node:
                        stack.append((arg, False))
                continue
            count = sum(type(arg) is Node for arg in node.args)
            parts = iter(built[len(built) - count :])
            del built[len(built) - count :]
            args = [next(parts) if type(arg) is Node else arg for arg in node.args]
            built.append(getattr(self, node.resolved())(*args))
        return built[0]

    def fresh_locations(self) -> tuple[Cell, Cell]:
        """An `It[d¹]`'s locations: `ANYWHERE` in GT4Py's located notation; in any other text
        (the compact notation, which writes no location) two fresh variables of its own."""
        if self.located:
            return ANYWHERE, ANYWHERE
        return var(Sort.LOC), var(Sort.LOC)

    def size(self, text: str) -> Cell:
        if text in ("ᶜ", _COLUMN):
            return COLUMN
        if text in ("ˢ", _SCALAR):
            return SCALAR
        return self.variable(text, Sort.SIZE)

    # -- programs ---------------------------------------------------------------------------------
    def typed(self, type_: Cell, families: list[tuple[str, str]]) -> Cell:
        self.restrict(families)
        return type_

    def definition(self, name: str, type_: Cell, families: list[tuple[str, str]]) -> DefinitionType:
        self.restrict(families)
        return DefinitionType(name, type_)

    def closure(self, inputs: Cell, output: Cell, families: list[tuple[str, str]]) -> ClosureType:
        self.restrict(families)
        items, tail = row_items(inputs)
        if tail is not T_EMPTY:
            raise TypeSyntaxError("a closure's inputs are a tuple")
        return ClosureType(tuple(items), output)

    def fencil(self, name: str, names: list[str], *parts: Any) -> FencilType:
        """The definitions' types, then the fencil's parameter types, then the `where` clause."""
        *types, families = parts
        self.restrict(families)
        definitions = tuple(DefinitionType(n, t) for n, t in zip(names, types, strict=False))
        return FencilType(name, definitions, tuple(types[len(names) :]))

    # -- types ------------------------------------------------------------------------------------
    # -- types ------------------------------------------------------------------------------------
    def fun(self, args: Cell, ret: Cell) -> Cell:
        root = find(args)
        if root.ctor is None:
            sort = sort_meet(root.sort, Sort.TROW)
            if sort is None:
                raise TypeSyntaxError("a function's arguments must be a tuple")
            root.sort = sort
        elif root.sort is not Sort.TROW:
            raise TypeSyntaxError("a function's arguments must be a tuple")
        return make(FUN, args, ret)

    def type_var(self, text: str) -> Cell:
        return self.variable(text, Sort.TYPE)

    def row_var(self, text: str) -> Cell:
        return self.variable(text, Sort.TROW)

    def args(self, *items: Cell) -> Cell:
        return row(TTUPLE, list(items), T_EMPTY)

    def args_with_tail(self, *items: Cell) -> Cell:
        return row(TTUPLE, list(items[:-1]), items[-1])

    def plain_value(self, dtype: Cell, size: str) -> Cell:
        return val(VALUE, dtype, self.size(size))

    def iterator(self, dtype: Cell, size: str) -> Cell:
        return val(ITERATOR, dtype, self.size(size), *self.fresh_locations())

    def located_iterator(self, current: Cell, defined: Cell, dtype: Cell, size: str) -> Cell:
        return val(ITERATOR, dtype, self.size(size), current, defined)

    def it_or_val(self, kind: str, dtype: Cell, size: str) -> Cell:
        """`ItOrValₖ[d¹]`: at two fresh locations of its own (neither notation writes them)."""
        kind_var = self.variable(kind, Sort.KIND)
        return val(kind_var, dtype, self.size(size), var(Sort.LOC), var(Sort.LOC))

    def located_it_or_val(
        self, kind: str, current: Cell, defined: Cell, dtype: Cell, size: str
    ) -> Cell:
        return val(self.variable(kind, Sort.KIND), dtype, self.size(size), current, defined)

    # -- dtypes -----------------------------------------------------------------------------------
    def dtype_var(self, text: str) -> Cell:
        return self.variable(text, Sort.DTYPE)

    def drow_var(self, text: str) -> Cell:
        return self.variable(text, Sort.DROW)

    def primitive(self, name: str) -> Cell:
        if name not in PRIMITIVES | SPECIAL_DTYPES:
            raise TypeSyntaxError(f"unknown dtype {name!r}")
        return prim(name)

    def dtype_tuple(self, *items: Cell) -> Cell:
        return row(DTUPLE, list(items), D_EMPTY)

    def dtype_tuple_with_tail(self, *items: Cell) -> Cell:
        return row(DTUPLE, list(items[:-1]), items[-1])

    def list(self, dtype: Cell, length: Cell, skip: Cell) -> Cell:
        return make(LIST, dtype, length, skip)

    def length_var(self, text: str) -> Cell:
        return self.variable(text, Sort.LENGTH)

    def length(self, text: str) -> Cell:
        try:
            return constant(LENGTH, int(text))
        except ValueError:  # more digits than `int` reads
            raise unchained(TypeSyntaxError(f"a list length of {len(text)} digits")) from None

    def skip_var(self, text: str) -> Cell:
        return self.variable(text, Sort.SKIP)

    def skip_true(self) -> Cell:
        return constant(SKIP, True)

    def skip_false(self) -> Cell:
        return constant(SKIP, False)

    def location_var(self, text: str) -> Cell:
        return self.variable(text, Sort.LOC)

    def location(self, name: str) -> Cell:
        return loc(name)

    # -- constructors added from outside the core ------------------------------------------------
    def structure(self, ctor: Constructor, positions: tuple[int, ...], *args: Cell) -> Cell:
        """A structure of `ctor` of the arguments read at `positions`; a location left out (in
        the compact notation) is a fresh variable, as an iterator's is (`ANYWHERE` if located)."""
        if not ctor.params:
            return constant(ctor)
        read = dict(zip(positions, args, strict=True))
        anywhere = ANYWHERE if self.located else None
        return make(
            ctor,
            *(read[i] if i in read else anywhere or var(s) for i, s in enumerate(ctor.params)),
        )

    def sorted_var(self, text: str, sort: Sort) -> Cell:
        return self.variable(text, sort)

    def named_constant(self, ctor: Constructor) -> Cell:
        return constant(ctor)

    # -- rows of values and lists -----------------------------------------------------------------
    def value_row(self, item: tuple[Cell, Cell, Cell, Cell], dtypes: str) -> Cell:
        kind, size, current, defined = item
        return make(VALTUPLE, kind, self.variable(dtypes, Sort.DROW), size, current, defined)

    def row_of_values(self, size: str) -> tuple[Cell, Cell, Cell, Cell]:
        return (VALUE, self.size(size), var(Sort.LOC), var(Sort.LROW))

    def row_of_iterators(self, size: str) -> tuple[Cell, Cell, Cell, Cell]:
        return (ITERATOR, self.size(size), var(Sort.LOC), var(Sort.LROW))

    def row_of_located_iterators(
        self, current: Cell, defined: str, size: str
    ) -> tuple[Cell, Cell, Cell, Cell]:
        return (ITERATOR, self.size(size), current, self.variable(defined, Sort.LROW))

    def row_of_either(self, kind: str, size: str) -> tuple[Cell, Cell, Cell, Cell]:
        return (self.variable(kind, Sort.KIND), self.size(size), var(Sort.LOC), var(Sort.LROW))

    def list_row(self, dtypes: str, length: Cell, skip: Cell, size: str) -> Cell:
        return make(
            VALLISTTUPLE, VALUE, self.variable(dtypes, Sort.DROW), length, skip, self.size(size)
        )
