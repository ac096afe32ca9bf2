"""GTIR's types as terms of the core: the constructors of GTIR's table, dimensions and canonical
dimension sets, and the cells that build each type (docs/architecture.md, "GTIR types").

Every GTIR type is a cell of one sort, `Sort.DTYPE`: GT4Py has one type language where a scalar
is a type as much as a field is, so a variable `T₀` stands for any of them and the fencil
dtypes' families restrict it (`where T₀: float`). Scalars are the fencil's primitive constants
(`prim("float64")`) and tuples its dtype rows (`tuple[A, B]` is `DTuple(A, DTuple(B, DEmpty))`),
so unification, schemes, instantiation and relations work on GTIR types unchanged. Two sorts are
GTIR's own: a dimension (`Sort.DIM`: a labelled constant whose label is an `iterir.gtir_types.
Dimension`, kind included) and a dimension set (`Sort.DIMS`, variables `D₀`): a ground set is one
labelled constant whose label is its dimensions in GT4Py's canonical order (horizontal < local <
vertical, then by name), so two sets unify exactly when they are equal.

The constructors are a table of their own (`GTIR_CONSTRUCTORS`), not the core's
(`constructors.CONSTRUCTORS`): the core's table is the fencil notation's (its walk,
`tests/test_constructors.py`, reads every constructor back from the compact and the located
fencil notation), and GTIR's names `It`, `List` mean other things there. GTIR types print and
read in a notation of their own (`typeinf.gtir.notation`, `typeinf.gtir.reader`).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from iterir.gtir_types import KIND_SUFFIXES, Dimension
from iterir.vocabulary import PRIMITIVES
from typeinf.core.constructors import D_EMPTY, DTUPLE, Constructor, constant, prim, row
from typeinf.core.terms import Cell, Sort, make
from typeinf.gtir import messages

#: GT4Py's canonical order of dimension kinds in a set.
KIND_ORDER: dict[str, int] = {"horizontal": 0, "local": 1, "vertical": 2}
#: The prefix GT4Py gives a dimension's staggered twin (`_StaggeredIDim`).
STAGGERED = "_Staggered"

_DTYPE, _DROW = Sort.DTYPE, Sort.DROW

#: A dimension (label: its `Dimension`); the label None is "no local dimension", the second
#: argument of `List[float64]` (a `make_const_list`).
DIM = Constructor("Dim", Sort.DIM, labelled=True)
#: A ground set of dimensions (label: a canonical tuple of `Dimension`s, see `canonical`).
DIMS = Constructor("Dims", Sort.DIMS, labelled=True)
#: `Field[dims, dtype]`.
FIELD = Constructor("Field", _DTYPE, (Sort.DIMS, _DTYPE))
#: `List[dtype, local dimension]`, `List[dtype]` (its dimension `NO_DIM`).
LIST = Constructor("List", _DTYPE, (_DTYPE, Sort.DIM))
#: `It[positions, defined dimensions, element]`.
ITERATOR = Constructor("It", _DTYPE, (Sort.DIMS, Sort.DIMS, _DTYPE))
#: `Domain[dims]`.
DOMAIN = Constructor("Domain", _DTYPE, (Sort.DIMS,))
#: `NamedRange[dim]`, `Dimension[dim]`.
NAMED_RANGE = Constructor("NamedRange", _DTYPE, (Sort.DIM,))
DIMENSION = Constructor("Dimension", _DTYPE, (Sort.DIM,))
#: `Offset[V2E]` (an offset's tag, a name), `Offset[int32]` (an amount: a constant labelled by
#: its scalar kind, so that `Offset[T₀]` can only be a tag), `Offset[IDim→IDim]` (a Cartesian
#: offset: domain and codomain).
OFFSET = Constructor("Offset", _DTYPE, (Sort.DIM,))
OFFSET_AMOUNT = Constructor("OffsetAmount", _DTYPE, labelled=True)
CARTESIAN_OFFSET = Constructor("CartesianOffset", _DTYPE, (Sort.DIM, Sort.DIM))
#: `(A, B) → C`: a dtype row of parameters and a result.
FUNCTION = Constructor("Function", _DTYPE, (_DROW, _DTYPE))

#: GTIR's constructors, by name.
GTIR_CONSTRUCTORS: dict[str, Constructor] = {
    c.name: c
    for c in (
        DIM,
        DIMS,
        FIELD,
        LIST,
        ITERATOR,
        DOMAIN,
        NAMED_RANGE,
        DIMENSION,
        OFFSET,
        OFFSET_AMOUNT,
        CARTESIAN_OFFSET,
        FUNCTION,
    )
}


class DimensionSetError(ValueError):
    """Dimensions that make no set of GT4Py's: two local ones, one name of two kinds, a
    dimension with its staggered twin."""


def canonical(dims: Iterable[Dimension]) -> tuple[Dimension, ...]:
    """`dims` as a set in GT4Py's canonical order (horizontal < local < vertical, then by name,
    a staggered dimension by its twin's: `_StaggeredIDim` before `JDim`), each once;
    DimensionSetError says why they make no set."""
    return _canonical(tuple(dims))


# A program's sets are a few, met again and again (each `shift`, union, domain and declared
# type): each ordered and checked once, not at each use (docs/performance.md, "GTIR inference").
# An error is not cached: it is raised again at each use.
@lru_cache(maxsize=4096)
def _canonical(dims: tuple[Dimension, ...]) -> tuple[Dimension, ...]:
    unique = sorted(set(dims), key=_order)
    for odd in (d for d in unique if d.kind not in KIND_ORDER):
        raise DimensionSetError(messages.dimension_without_kind(odd.value, odd.kind))
    local = [d.value for d in unique if d.kind == "local"]
    if len(local) > 1:
        raise DimensionSetError(messages.two_local_dimensions(local))
    names = [d.value for d in unique]
    for name in names:
        if names.count(name) > 1:
            raise DimensionSetError(messages.dimension_of_two_kinds(name))
        if STAGGERED + name in names:
            raise DimensionSetError(messages.staggered_twin(name, STAGGERED + name))
    return tuple(unique)


def _order(dimension: Dimension) -> tuple[int, str]:
    """Where `dimension` stands in a set: by kind, then by its name without the staggered
    prefix (GT4Py's `order_dimensions`, 1.2.1–1.2.3)."""
    name = dimension.value
    return KIND_ORDER.get(dimension.kind, -1), name.removeprefix(STAGGERED)


# -- building cells ---------------------------------------------------------------------------
def dim(dimension: Dimension | None) -> Cell:
    """A dimension's constant (None: no local dimension, `NO_DIM`)."""
    if dimension is not None and dimension.kind not in KIND_SUFFIXES:
        raise ValueError(messages.unknown_dimension_kind(dimension.kind))
    return constant(DIM, dimension)


NO_DIM = dim(None)


def dims(dimensions: Iterable[Dimension]) -> Cell:
    """A ground dimension set's constant (put in canonical order; DimensionSetError if none)."""
    # Found by the dimensions as given, in one lookup (rather than ordered through `canonical`'s
    # cache and then found among the constants, hashing them twice): the relations make a set
    # at each firing (docs/performance.md, "GTIR inference").
    key = dimensions if type(dimensions) is tuple else tuple(dimensions)
    cell = _SETS.get(key)
    if cell is None:
        cell = constant(DIMS, canonical(key))
        if len(_SETS) < _MOST_SETS:  # an error is not kept: raised again at each use
            _SETS[key] = cell
    return cell


#: The constant of each set of dimensions `dims` was given, by the tuple given.
_SETS: dict[tuple[Dimension, ...], Cell] = {}
_MOST_SETS = 4096


def scalar(kind: str) -> Cell:
    """A scalar type (`float64`): the fencil's primitive constant. Its kind is checked here, as
    every way in (GT4Py's structured form, the values, the reader) comes through: a kind GT4Py
    has not (`float128`) would print and unify as a scalar no program can have."""
    return prim(_kind(kind))


def field(dimensions: Cell, dtype: Cell) -> Cell:
    """`Field[dims, dtype]` (`dimensions` a set: `dims(…)` or a variable of `Sort.DIMS`)."""
    return make(FIELD, dimensions, dtype)


def tuple_of(items: list[Cell]) -> Cell:
    """`tuple[A, B]` as the fencil's dtype row, so that rows' unification serves GTIR's tuples."""
    return row(DTUPLE, items, D_EMPTY)


def list_of(dtype: Cell, local: Cell = NO_DIM) -> Cell:
    """`List[dtype, local]`; `NO_DIM` (a `make_const_list`'s list) rather than a variable, so
    that such a list never unifies with one over a neighbourhood."""
    return make(LIST, dtype, local)


def iterator(positions: Cell, defined: Cell, element: Cell) -> Cell:
    """`It[positions, defined, element]`: where it stands and where it may be dereferenced are
    two sets, as `deref` needs one to be in the other (a relation, `typeinf.gtir.relations`)."""
    return make(ITERATOR, positions, defined, element)


def offset_amount(kind: str) -> Cell:
    """`Offset[int32]`: the type of an integer offset literal."""
    return constant(OFFSET_AMOUNT, _kind(kind))


def _kind(kind: str) -> str:
    if kind not in PRIMITIVES:
        raise ValueError(messages.unknown_scalar_kind(kind))
    return kind


def function(params: list[Cell], result: Cell) -> Cell:
    """`(A, B) → C`: the parameters a dtype row, as a tuple's, so that a function of a tuple's
    rest (`(A, *T₁) → C`) is one of any arity."""
    return make(FUNCTION, tuple_of(params), result)


# The axes of a program name a few dimensions: each dimension and its constant is made once per
# (name, kind), rather than at each axis (docs/performance.md, "GTIR inference").
@lru_cache(maxsize=4096)
def dimension_named(value: str, kind: str) -> Dimension:
    """The dimension `value` of `kind`, made once."""
    return Dimension(value, kind)


@lru_cache(maxsize=4096)
def axis_cell(value: str, kind: str) -> Cell:
    """The constant of the dimension `value` of `kind`, made once."""
    return dim(dimension_named(value, kind))


def dim_cell(dimension: Dimension) -> Cell:
    """A dimension's constant by its name and kind, which hash faster than the dimension: a
    connectivity's, at each `neighbors` and shift (see `axis_cell`)."""
    return axis_cell(dimension.value, dimension.kind)
