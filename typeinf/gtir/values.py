"""GTIR's public type values, and their conversion to and from cells (`typeinf.gtir.terms`).

As the fencil IR's values (`typeinf.types`, docs/api.md): frozen, resolved, compared and hashed
structurally (with `alpha_eq` up to renaming), read with `match`; they share `types.Type`'s
methods. `str` and `format` print them in GTIR's notation (`typeinf.gtir.notation`), variables
numbered afresh from 0. A constant is a plain Python value where it stands: a scalar its kind's
name (`"float64"`), a dimension an `iterir.gtir_types.Dimension` (its kind included), a ground
set of dimensions a tuple of them in canonical order, a list without a local dimension `None`.
Anything not known is a `Var` (`sort` `"dtype"` for a type, `"dimension"`, `"dimension set"`,
`"dtype row"` for a tuple's unknown rest): a `typeinf.types.Var` that prints in GTIR's notation
(`D₀` for a set).

Conversions walk with explicit stacks (a shared part is converted once), as `typeinf.fencil.convert`
does for the fencil values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from iterir.gtir_types import Dimension
from iterir.vocabulary import PRIMITIVES
from typeinf.core import values as types
from typeinf.core.constructors import D_EMPTY, DEMPTY, DTUPLE, PRIM, row, row_items
from typeinf.core.terms import FAMILIES, FAMILY_NAMES, Cell, Sort, find, make, var
from typeinf.core.values import Cyclic as Cyclic  # re-exported: `to_value` raises it
from typeinf.core.values import Type, value_class
from typeinf.gtir import messages
from typeinf.gtir import terms as g
from typeinf.gtir.notation import GtirPrinter, pformat_gtir
from typeinf.gtir.terms import canonical, dim, dims, offset_amount, scalar


class GtirType(Type):
    """Any GTIR type value: `str(t)` and `format(t)` are GTIR's notation."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        if spec not in ("", "gtir"):
            raise ValueError(messages.unknown_format(spec))
        return pformat_gtir(to_cell(self))


@value_class
class Var(GtirType, types.Var):
    """A variable of a GTIR type: `typeinf.types.Var`'s fields, printed `T₀` or `D₀`."""


@value_class
class Field(GtirType):
    """`Field[[IDim, KDimᵥ], float64]`: a set of dimensions (a tuple, or a `Var`) and a dtype."""

    dims: tuple[Dimension, ...] | Var
    dtype: Any


@value_class
class Tuple(GtirType):
    """`tuple[A, B]`; `tail` the unknown rest of a tuple not known to end (`tuple[A, *T₁]`)."""

    items: tuple[Any, ...]
    tail: Var | None = None


@value_class
class List(GtirType):
    """`List[float64, V2Eₗ]`: element type and local dimension (`None`: `List[float64]`)."""

    dtype: Any
    local: Dimension | Var | None = None


@value_class
class It(GtirType):
    """`It[[Vertex, KDimᵥ], [Edge, KDimᵥ], float64]`: positions, defined dimensions, element."""

    positions: tuple[Dimension, ...] | Var
    defined: tuple[Dimension, ...] | Var
    dtype: Any


@value_class
class Domain(GtirType):
    """`Domain[[IDim, KDimᵥ]]`."""

    dims: tuple[Dimension, ...] | Var


@value_class
class NamedRange(GtirType):
    """`NamedRange[IDim]`."""

    dim: Dimension | Var


@value_class
class DimensionType(GtirType):
    """`Dimension[IDim]`: the type of an axis literal."""

    dim: Dimension | Var


@value_class
class Offset(GtirType):
    """`Offset[V2E]`: the type of an offset literal that names an offset."""

    tag: Dimension | Var


@value_class
class OffsetAmount(GtirType):
    """`Offset[int32]`: the type of an integer offset literal (its scalar kind)."""

    kind: str


@value_class
class CartesianOffset(GtirType):
    """`Offset[IDim→IDim]`: a Cartesian shift's domain and codomain."""

    domain: Dimension | Var
    codomain: Dimension | Var


@value_class
class Function(GtirType):
    """`(A, B) → C`; `tail` the unknown rest of the parameters (`(A, *T₁) → C`)."""

    params: tuple[Any, ...]
    result: Any
    tail: Var | None = None


#: Where a GTIR type stands: a scalar's name, a value of this module, or a `Var`.
GtirValue = str | GtirType | Var

_SORTS = {s.value: s for s in (Sort.DTYPE, Sort.DROW, Sort.DIM, Sort.DIMS)}
#: The classes made from a structure's converted arguments, by constructor.
_MADE: dict[Any, Callable[[list[Any]], GtirType]] = {
    g.FIELD: lambda a: Field(a[0], a[1]),
    g.LIST: lambda a: List(a[0], a[1]),
    g.ITERATOR: lambda a: It(a[0], a[1], a[2]),
    g.DOMAIN: lambda a: Domain(a[0]),
    g.NAMED_RANGE: lambda a: NamedRange(a[0]),
    g.DIMENSION: lambda a: DimensionType(a[0]),
    g.OFFSET: lambda a: Offset(a[0]),
    g.CARTESIAN_OFFSET: lambda a: CartesianOffset(a[0], a[1]),
}
#: The constants whose value is their label (True), or made of it (False, `Offset[int32]`).
_LEAVES: dict[Any, bool] = {PRIM: True, g.DIM: True, g.DIMS: True, g.OFFSET_AMOUNT: False}
_OF_ONE_DIMENSION: dict[type, Any] = {NamedRange: g.NAMED_RANGE, DimensionType: g.DIMENSION}


def to_value(top: Cell, numbers: dict[int, int] | None = None) -> GtirValue:
    """The value of a GTIR type, its variables numbered as `typeinf.gtir.notation` prints
    them (or by `numbers`, a `GtirPrinter`'s over several types, by the id of each variable);
    Cyclic for a type that contains itself."""
    root = find(top)
    made = _MADE.get(root.ctor)
    # A structure of constants only (a declared field: most parameters) is made here, and the
    # variables are numbered only once one is met (`_Numbering`): a per-parameter cost kept
    # small (docs/performance.md, "GTIR inference").
    if made is not None:
        labels = []
        for part in root.args:
            part = find(part)
            if not _LEAVES.get(part.ctor):  # None: a variable
                break
            labels.append(part.label)
        else:
            return made(labels)
    if numbers is None:
        numbers = _Numbering(top)
    done: dict[int, Any] = {}
    entered: set[int] = set()
    stack: list[tuple[Cell, bool]] = [(find(top), False)]
    while stack:
        cell, ready = stack.pop()
        key = id(cell)
        if key in done:
            continue
        if not ready:
            if key in entered:
                raise Cyclic(messages.CONTAINS_ITSELF)
            entered.add(key)
            stack.append((cell, True))
            stack.extend((find(c), False) for c in _parts(cell)[0] if id(find(c)) not in done)
            continue
        parts, tail = _parts(cell)
        args = [done[id(find(c))] for c in parts]
        done[key] = _value_of(cell, args, tail, numbers)
    return done[id(find(top))]  # type: ignore[no-any-return]


class _Numbering(dict[int, int]):
    """The numbers `GtirPrinter` gives the variables of `top`, counted at the first variable
    met: a ground type is printed by no one."""

    def __init__(self, top: Cell) -> None:
        super().__init__()
        self.top = top

    def __missing__(self, key: int) -> int:
        if not self:
            self.update(GtirPrinter([self.top]).numbers)
        if key not in self:
            raise KeyError(key)
        return self[key]


def _parts(cell: Cell) -> tuple[list[Cell], Cell | None]:
    """The cells a structure's value is made of (a row's items, a function's parameters then
    its result), and a row's tail (a variable or the empty row)."""
    if cell.ctor is DTUPLE:
        return row_items(cell)
    if cell.ctor is g.FUNCTION:
        params, tail = row_items(cell.args[0])
        return [*params, cell.args[1]], tail
    return list(cell.args), None


def _value_of(cell: Cell, args: list[Any], tail: Cell | None, numbers: dict[int, int]) -> Any:
    ctor = cell.ctor
    if ctor is None:
        return _var(cell, numbers)
    leaf = _LEAVES.get(ctor)
    if leaf is not None:
        return cell.label if leaf else OffsetAmount(cell.label)  # type: ignore[arg-type]  # a kind
    rest = None if tail is None or tail.ctor is DEMPTY else _var(tail, numbers)
    if ctor is DTUPLE or ctor is DEMPTY:
        return Tuple(tuple(args), rest)
    if ctor is g.FUNCTION:
        return Function(tuple(args[:-1]), args[-1], rest)
    made = _MADE.get(ctor)
    if made is None:
        raise ValueError(messages.structure_without_value(ctor.name))
    return made(args)


def _var(cell: Cell, numbers: dict[int, int]) -> Var:
    family = None if cell.family is None else FAMILY_NAMES[cell.family]
    return Var(cell.sort.value, numbers[id(cell)], family)


def to_cell(top: Any) -> Cell:
    """The cell of a GTIR value; a `Var`'s number names one variable throughout. A value that
    is no GTIR type is a ValueError that says what it is."""
    variables: dict[int, Cell] = {}
    done: dict[int, Cell] = {}
    stack: list[tuple[Any, bool]] = [(top, False)]
    while stack:
        value, ready = stack.pop()
        if id(value) in done and isinstance(value, GtirType):
            continue
        if not ready and isinstance(value, GtirType):
            stack.append((value, True))
            stack.extend((v, False) for v in _children(value))
            continue
        done[id(value)] = _cell_of(value, variables, done)
    return done[id(top)]


def _children(value: GtirType) -> Iterator[GtirType]:
    """A value's parts that are structures (constants and variables are read in place)."""
    if isinstance(value, Tuple):
        parts: tuple[Any, ...] = value.items
    elif isinstance(value, Function):
        parts = (*value.params, value.result)
    else:
        parts = (value.dtype,) if isinstance(value, Field | List | It) else ()
    return (p for p in parts if isinstance(p, GtirType) and not isinstance(p, types.Var))


def _cell_of(value: Any, variables: dict[int, Cell], done: dict[int, Cell]) -> Cell:
    """The cell of one value whose parts that are types are converted already (`done`)."""
    if isinstance(value, types.Var):
        return _variable(value, variables)
    if isinstance(value, str):
        return scalar(_checked(value in PRIMITIVES, value, messages.SCALAR_TYPE))
    if not isinstance(value, GtirType):
        raise ValueError(messages.not_a_gtir_type(value))

    def part(item: Any, of: Sort = Sort.DTYPE) -> Cell:
        if isinstance(item, types.Var):
            return _variable(item, variables, of)
        if of is Sort.DIMS:
            ok = isinstance(item, tuple) and all(isinstance(d, Dimension) for d in item)
            return dims(_checked(ok and canonical(item) == item, item, messages.DIMENSION_SET))
        if of is Sort.DIM:
            return dim(_checked(isinstance(item, Dimension), item, messages.DIMENSION))
        return done[id(item)] if isinstance(item, GtirType) else _cell_of(item, variables, done)

    if isinstance(value, Tuple | Function):
        items = value.items if isinstance(value, Tuple) else value.params
        tail = D_EMPTY if value.tail is None else _variable(value.tail, variables, Sort.DROW)
        cells = row(DTUPLE, [part(i) for i in items], tail)
        return cells if isinstance(value, Tuple) else make(g.FUNCTION, cells, part(value.result))
    if isinstance(value, Field):
        return make(g.FIELD, part(value.dims, Sort.DIMS), part(value.dtype))
    if isinstance(value, List):
        local = dim(None) if value.local is None else part(value.local, Sort.DIM)
        return make(g.LIST, part(value.dtype), local)
    if isinstance(value, It):
        positions, defined = part(value.positions, Sort.DIMS), part(value.defined, Sort.DIMS)
        return make(g.ITERATOR, positions, defined, part(value.dtype))
    if isinstance(value, Domain):
        return make(g.DOMAIN, part(value.dims, Sort.DIMS))
    if isinstance(value, OffsetAmount):
        return offset_amount(value.kind)
    if isinstance(value, CartesianOffset):
        return make(
            g.CARTESIAN_OFFSET, part(value.domain, Sort.DIM), part(value.codomain, Sort.DIM)
        )
    if isinstance(value, NamedRange | DimensionType):
        return make(_OF_ONE_DIMENSION[type(value)], part(value.dim, Sort.DIM))
    if isinstance(value, Offset):
        return make(g.OFFSET, part(value.tag, Sort.DIM))
    raise ValueError(messages.not_a_gtir_type(value))


def _checked(ok: bool, value: Any, what: str) -> Any:
    if not ok:
        raise ValueError(messages.not_a(what, value))
    return value


def _variable(value: types.Var, variables: dict[int, Cell], where: Sort | None = None) -> Cell:
    """The cell of a variable standing where a `where` stands (a part's sort; None: the whole
    type, any sort): a variable of another sort would make a type the reader refuses."""
    sort = _SORTS.get(value.sort)
    if sort is None:
        raise ValueError(messages.no_variable_of_sort(value.sort))
    if where is not None and sort is not where:
        raise ValueError(messages.variable_out_of_place(value.sort, where.value))
    if value.family is not None and (value.family not in FAMILIES or sort is not Sort.DTYPE):
        raise ValueError(messages.no_family(value.sort, value.family))
    cell = variables.get(value.number)
    if cell is None:
        family = None if value.family is None else FAMILIES[value.family]
        cell = variables[value.number] = var(sort, family)
    elif find(cell).sort is not sort:
        raise ValueError(
            messages.variable_of_two_sorts(value.number, find(cell).sort.value, value.sort)
        )
    return cell
