"""GT4Py's structured types (`iterir.gtir_types`: `FieldType(dims, dtype)`, …, whose JSON is
`{"t": "FieldType", …}`) to GTIR's cells and back (`values` turns cells into values).

What GT4Py leaves open becomes a variable: `DeferredType` a fresh type variable, `"unknown"`
positions (or domain dimensions, which iterir's JSON reads) a fresh dimension-set variable;
back, a type variable is `DeferredType` and an iterator's unknown positions `"unknown"` again,
so that every type GT4Py gives converts there and back equal. A variable GT4Py has no form for
(a field's or a domain's dimensions, as GT4Py 1.2.3 refuses `DomainType("unknown")`; a
dimension, a tuple's unknown rest, a dtype family) is `NotStructured` at its path in GT4Py's
fields, and so are our types GT4Py's JSON has no class for (`Offset[IDim→IDim]`); GT4Py's forms
we have no term for (a scalar's `shape`, a function's keyword parameters, `VoidType`) are a
ValueError saying so.
"""

from __future__ import annotations

from iterir import gtir_types as gt
from typeinf.core.constructors import DEMPTY, DTUPLE, PRIM, constant, row_items
from typeinf.core.terms import FAMILY_NAMES, Cell, Sort, find, make, var
from typeinf.gtir import messages
from typeinf.gtir import terms as g
from typeinf.gtir.terms import (
    canonical,
    dim,
    field,
    function,
    iterator,
    list_of,
    offset_amount,
    scalar,
    tuple_of,
)
from typeinf.gtir.values import GtirValue, to_cell, to_value


class NotStructured(ValueError):
    """A type of ours GT4Py's structured form cannot say."""


def value_from_gt4py(value: gt.GType) -> GtirValue:
    """The public value (`typeinf.gtir.values`) of one of GT4Py's types."""
    return to_value(from_gt4py(value))


def value_to_gt4py(value: GtirValue) -> gt.GType:
    """GT4Py's structured form of a public value; NotStructured as `to_gt4py`."""
    return to_gt4py(to_cell(value))


def from_gt4py(value: gt.GType, depth: int = 0) -> Cell:
    """The cell of one of GT4Py's types, nested at most `gt.MAX_DEPTH` levels (as GT4Py's JSON
    is read: the walk is recursive)."""
    if depth > gt.MAX_DEPTH:
        raise ValueError(messages.nested_too_deep(gt.MAX_DEPTH))
    inner = depth + 1
    if isinstance(value, gt.ScalarType):
        if value.shape is not None:
            raise ValueError(messages.scalar_with_shape(list(value.shape)))
        return scalar(value.kind)
    if isinstance(value, gt.FieldType):
        return field(_dims(value.dims), from_gt4py(value.dtype, inner))
    if isinstance(value, gt.TupleType):
        return tuple_of([from_gt4py(t, inner) for t in value.types])
    if isinstance(value, gt.ListType):
        return list_of(from_gt4py(value.element_type, inner), dim(value.offset_type))
    if isinstance(value, gt.IteratorType):
        element = from_gt4py(value.element_type, inner)
        return iterator(_dims(value.position_dims), _dims(value.defined_dims), element)
    if isinstance(value, gt.DomainType):
        return make(g.DOMAIN, _dims(value.dims))
    if isinstance(value, gt.NamedRangeType | gt.DimensionType):
        ctor = g.NAMED_RANGE if isinstance(value, gt.NamedRangeType) else g.DIMENSION
        return make(ctor, dim(value.dim))
    if isinstance(value, gt.OffsetLiteralType):
        if isinstance(value.value, gt.ScalarType) and value.value.shape is None:
            return offset_amount(value.value.kind)
        if isinstance(value.value, gt.Dimension):
            return make(g.OFFSET, dim(value.value))
        raise ValueError(messages.offset_without_term(value.value))
    if isinstance(value, gt.FunctionType):
        if value.pos_or_kw_args or value.kw_only_args:
            raise ValueError(messages.KEYWORD_PARAMETERS)
        params = [from_gt4py(t, inner) for t in value.pos_only_args]
        return function(params, from_gt4py(value.returns, inner))
    if isinstance(value, gt.DeferredType):
        return var(Sort.DTYPE)
    raise ValueError(messages.types_no_expression(type(value).__name__))


def _dims(value: gt.Dims) -> Cell:
    """A set's constant (in the order GT4Py gave it, which must be canonical), or a fresh
    variable for `"unknown"`."""
    if value == "unknown":
        return var(Sort.DIMS)
    ordered = canonical(value)
    if ordered != value:
        raise ValueError(messages.not_canonical([d.value for d in ordered]))
    return constant(g.DIMS, ordered)  # `dims(value)`, without ordering the set a second time


def to_gt4py(cell: Cell, depth: int = 0, path: str = "$") -> gt.GType:
    """GT4Py's structured form of a GTIR type; NotStructured names the part it cannot say by
    its path in GT4Py's fields (`$.pos_only_args[1].dims`), so that a large type's message
    points at it (or says that it nests more than `gt.MAX_DEPTH` levels, more than GT4Py's JSON
    reads back)."""
    if depth > gt.MAX_DEPTH:
        raise NotStructured(messages.at_path(path, messages.nested_too_deep(gt.MAX_DEPTH)))
    inner = depth + 1
    root = find(cell)
    ctor = root.ctor
    if ctor is None:
        if root.sort is Sort.DROW:  # `tuple[*T₀]`: a tuple of which nothing is known
            _items(root, path)
        if root.family is not None:
            family = FAMILY_NAMES[root.family]
            raise NotStructured(messages.at_path(path, messages.family_without_form(family)))
        if root.sort is not Sort.DTYPE:
            raise NotStructured(messages.at_path(path, messages.sort_without_form(root.sort.value)))
        return gt.DeferredType()
    if ctor is PRIM:
        return gt.ScalarType(str(root.label))
    if ctor is DTUPLE or ctor is DEMPTY:
        items = _items(root, path)
        return gt.TupleType(
            tuple(to_gt4py(c, inner, f"{path}.types[{i}]") for i, c in enumerate(items))
        )
    if ctor is g.FIELD:
        dimensions = _ground_set(root.args[0], f"{path}.dims")
        return gt.FieldType(dimensions, to_gt4py(root.args[1], inner, f"{path}.dtype"))
    if ctor is g.LIST:
        local = find(root.args[1])
        offset = None if local is g.NO_DIM else _dimension(local, f"{path}.offset_type")
        return gt.ListType(to_gt4py(root.args[0], inner, f"{path}.element_type"), offset)
    if ctor is g.ITERATOR:
        positions, defined, element = root.args
        return gt.IteratorType(
            "unknown"
            if find(positions).ctor is None
            else _ground_set(positions, f"{path}.position_dims"),
            _ground_set(defined, f"{path}.defined_dims"),
            to_gt4py(element, inner, f"{path}.element_type"),
        )
    if ctor is g.DOMAIN:  # GT4Py 1.2.3 refuses `DomainType("unknown")`: only a ground set
        return gt.DomainType(_ground_set(root.args[0], f"{path}.dims"))
    if ctor is g.NAMED_RANGE:
        return gt.NamedRangeType(_dimension(root.args[0], f"{path}.dim"))
    if ctor is g.DIMENSION:
        return gt.DimensionType(_dimension(root.args[0], f"{path}.dim"))
    if ctor is g.OFFSET:
        return gt.OffsetLiteralType(_dimension(root.args[0], f"{path}.value"))
    if ctor is g.OFFSET_AMOUNT:
        return gt.OffsetLiteralType(gt.ScalarType(str(root.label)))
    if ctor is g.FUNCTION:
        params = _items(root.args[0], f"{path}.pos_only_args")
        return gt.FunctionType(
            tuple(to_gt4py(c, inner, f"{path}.pos_only_args[{i}]") for i, c in enumerate(params)),
            (),
            (),
            to_gt4py(root.args[1], inner, f"{path}.returns"),
        )
    raise NotStructured(messages.at_path(path, messages.constructor_without_form(ctor.name)))


def _items(row: Cell, path: str) -> list[Cell]:
    items, tail = row_items(row)
    if tail.ctor is not DEMPTY:
        raise NotStructured(messages.at_path(path, messages.OPEN_TUPLE))
    return items


def _ground_set(cell: Cell, path: str) -> tuple[gt.Dimension, ...]:
    root = find(cell)
    if root.ctor is not g.DIMS:
        raise NotStructured(messages.at_path(path, messages.UNKNOWN_SET))
    return root.label  # type: ignore[return-value]  # a canonical tuple of dimensions


def _dimension(cell: Cell, path: str) -> gt.Dimension:
    root = find(cell)
    if root.ctor is not g.DIM or root.label is None:
        raise NotStructured(messages.at_path(path, messages.UNKNOWN_DIMENSION))
    return root.label  # type: ignore[return-value]  # a labelled dimension
