"""GTIR's types between iterir (`iterir.gtir_types`) and GT4Py 1.2.3
(`gt4py.next.type_system.type_specifications` as `ts`, `gt4py.next.iterator.type_system.
type_specifications` as `it_ts`, and `gt4py.next.common.Dimension`).

The classes and fields are the same on both sides; what differs is spelling: GT4Py holds lists
where iterir holds tuples, a `dict` of keyword arguments where iterir holds pairs, enums
(`ScalarKind.FLOAT64`, `DimensionKind.LOCAL`) where iterir holds names. Two differ more:
GT4Py's `OffsetLiteralType(value="V2E")` holds a tag where iterir holds a dimension, so a tag
becomes a horizontal `Dimension` (the kind GT4Py gives an axis it does not know otherwise) and
only a horizontal one goes back; GT4Py's `DeferredType(constraint=…)` may hold Python classes,
which iterir does not keep, so only `constraint=None` converts. Every other GT4Py type class has
no counterpart and is a ConversionError, as is what GT4Py's validation refuses (a
`DomainType` over "unknown" dimensions, a `FieldType` whose dtype is a function).

Types nest a few levels; both directions recurse, and refuse more than `MAX_DEPTH` levels.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gt4py.next import common
from gt4py.next.iterator.type_system import type_specifications as it_ts
from gt4py.next.type_system import type_specifications as ts

from iterir import gtir_types as gt
from iterir import vocabulary as voc
from iterir.jsontext import path_step
from iterir.nodes import Node
from typeinf.gt4py.errors import ConversionError, a_class

#: A GT4Py object: GT4Py is not installed where mypy runs, so its classes are not known there.
GT4PyObject = Any
MAX_DEPTH = gt.MAX_DEPTH


def made(
    path: str, maker: Callable[..., GT4PyObject], node: Node | None = None, **fields: object
) -> GT4PyObject:
    """GT4Py's `maker(**fields)`; what its validation refuses is a ConversionError at `path`
    (about our `node`, when there is one)."""
    try:
        return maker(**fields)
    except (TypeError, ValueError) as refused:
        name = getattr(maker, "__name__", str(maker))
        raise ConversionError(f"GT4Py refuses this {name}: {refused}", path, node) from None


# -- iterir → GT4Py --------------------------------------------------------------------------------
def type_to_gt4py(value: gt.GType, path: str = "$", depth: int = 0) -> GT4PyObject:
    """GT4Py's type for an iterir GTIR type; a ConversionError says what and where if none."""
    return _converted(_TO_GT4PY, value, path, depth, "is not a GTIR type of iterir")


def dimension_to_gt4py(dim: gt.Dimension, path: str) -> GT4PyObject:
    if type(dim) is not gt.Dimension:
        raise ConversionError(f"expected a Dimension, found {_shown(dim)}", path)
    return made(path, common.Dimension, value=dim.value, kind=common.DimensionKind(dim.kind))


def _dims_to(dims: gt.Dims, path: str) -> GT4PyObject:
    if dims == "unknown":
        return dims
    return [dimension_to_gt4py(d, f"{path}[{i}]") for i, d in enumerate(dims)]


def _scalar_to(value: gt.ScalarType, path: str, depth: int) -> GT4PyObject:
    shape = None if value.shape is None else list(value.shape)
    return made(path, ts.ScalarType, kind=ts.ScalarKind[value.kind.upper()], shape=shape)


def _function_to(value: gt.FunctionType, path: str, depth: int) -> GT4PyObject:
    def keywords(field: str, pairs: tuple[tuple[str, gt.GType], ...]) -> dict[str, GT4PyObject]:
        names = [name for name, _ in pairs]
        if len(set(names)) != len(names):
            raise ConversionError("a keyword argument named twice", f"{path}.{field}")
        return {k: type_to_gt4py(t, f"{path}.{field}{path_step(k)}", depth) for k, t in pairs}

    return made(
        path,
        ts.FunctionType,
        pos_only_args=_types_to(value.pos_only_args, f"{path}.pos_only_args", depth),
        pos_or_kw_args=keywords("pos_or_kw_args", value.pos_or_kw_args),
        kw_only_args=keywords("kw_only_args", value.kw_only_args),
        returns=type_to_gt4py(value.returns, f"{path}.returns", depth),
    )


def _types_to(types: tuple[gt.GType, ...], path: str, depth: int) -> list[GT4PyObject]:
    return [type_to_gt4py(t, f"{path}[{i}]", depth) for i, t in enumerate(types)]


def _offset_to(value: gt.OffsetLiteralType, path: str, depth: int) -> GT4PyObject:
    tag = value.value
    if type(tag) is gt.Dimension:
        if tag.kind != "horizontal":
            raise ConversionError(
                f"GT4Py's OffsetLiteralType holds a tag, not a {tag.kind} dimension", path
            )
        return made(path, it_ts.OffsetLiteralType, value=tag.value)
    return made(path, it_ts.OffsetLiteralType, value=type_to_gt4py(tag, f"{path}.value", depth))


_TO_GT4PY: dict[type, Callable[[Any, str, int], GT4PyObject]] = {
    gt.ScalarType: _scalar_to,
    gt.Dimension: lambda v, p, d: dimension_to_gt4py(v, p),
    gt.FieldType: lambda v, p, d: made(
        p,
        ts.FieldType,
        dims=_dims_to(v.dims, f"{p}.dims"),
        dtype=type_to_gt4py(v.dtype, f"{p}.dtype", d),
    ),
    gt.TupleType: lambda v, p, d: made(p, ts.TupleType, types=_types_to(v.types, f"{p}.types", d)),
    gt.ListType: lambda v, p, d: made(
        p,
        ts.ListType,
        element_type=type_to_gt4py(v.element_type, f"{p}.element_type", d),
        offset_type=None
        if v.offset_type is None
        else dimension_to_gt4py(v.offset_type, f"{p}.offset_type"),
    ),
    gt.IteratorType: lambda v, p, d: made(
        p,
        it_ts.IteratorType,
        position_dims=_dims_to(v.position_dims, f"{p}.position_dims"),
        defined_dims=_dims_to(v.defined_dims, f"{p}.defined_dims"),
        element_type=type_to_gt4py(v.element_type, f"{p}.element_type", d),
    ),
    gt.DomainType: lambda v, p, d: made(p, ts.DomainType, dims=_dims_to(v.dims, f"{p}.dims")),
    gt.NamedRangeType: lambda v, p, d: made(
        p, it_ts.NamedRangeType, dim=dimension_to_gt4py(v.dim, f"{p}.dim")
    ),
    gt.DimensionType: lambda v, p, d: made(
        p, ts.DimensionType, dim=dimension_to_gt4py(v.dim, f"{p}.dim")
    ),
    gt.OffsetLiteralType: _offset_to,
    gt.FunctionType: _function_to,
    gt.DeferredType: lambda v, p, d: made(p, ts.DeferredType, constraint=None),
    gt.VoidType: lambda v, p, d: made(p, ts.VoidType),
}


# -- GT4Py → iterir --------------------------------------------------------------------------------
def type_from_gt4py(value: GT4PyObject, path: str = "$", depth: int = 0) -> gt.GType:
    """iterir's GTIR type for a GT4Py type; a ConversionError says what and where if none."""
    converted: gt.GType = _converted(
        _FROM_GT4PY, value, path, depth, "has no counterpart among iterir's types"
    )
    return converted


def dimension_from_gt4py(dim: GT4PyObject, path: str) -> gt.Dimension:
    if type(dim) is not common.Dimension:
        raise ConversionError(f"expected a gt4py Dimension, found {_shown(dim)}", path)
    if not isinstance(dim.value, str):
        raise ConversionError(f"a dimension's name must be a str, not {_shown(dim.value)}", path)
    kind = dim.kind
    if not isinstance(kind, common.DimensionKind):
        raise ConversionError(f"unknown dimension kind {kind!r}", f"{path}.kind")
    return gt.Dimension(str(dim.value), str(kind.value))


def _dims_from(dims: GT4PyObject, path: str) -> gt.Dims:
    """Dimensions where GT4Py may also say "unknown" (`IteratorType.position_dims`)."""
    if isinstance(dims, str) and dims == "unknown":
        return "unknown"
    return _dim_list_from(dims, path)


def _dim_list_from(dims: GT4PyObject, path: str) -> tuple[gt.Dimension, ...]:
    return tuple(dimension_from_gt4py(d, f"{path}[{i}]") for i, d in enumerate(dims))


def _scalar_from(value: GT4PyObject, path: str, depth: int) -> gt.ScalarType:
    name = scalar_kind_name(value.kind, f"{path}.kind")
    return gt.ScalarType(name, None if value.shape is None else tuple(value.shape))


#: Our name of each GT4Py scalar kind iterir has (`ScalarKind.FLOAT64` → "float64").
SCALAR_KIND_NAMES: dict[GT4PyObject, str] = {
    kind: kind.name.lower() for kind in ts.ScalarKind if kind.name.lower() in voc.PRIMITIVES
}


def scalar_kind_name(kind: GT4PyObject, path: str) -> str:
    """The name of a GT4Py `ScalarKind` (`ScalarKind.FLOAT64` → "float64")."""
    name = SCALAR_KIND_NAMES.get(kind) if isinstance(kind, ts.ScalarKind) else None
    if name is None:
        raise ConversionError(f"scalar kind {kind!r} has no counterpart in iterir", path)
    return name


def _types_from(types: GT4PyObject, path: str, depth: int) -> tuple[gt.GType, ...]:
    return tuple(type_from_gt4py(t, f"{path}[{i}]", depth) for i, t in enumerate(types))


def _keywords_from(items: GT4PyObject, path: str, depth: int) -> tuple[tuple[str, gt.GType], ...]:
    return tuple(
        (str(k), type_from_gt4py(t, f"{path}{path_step(str(k))}", depth)) for k, t in items.items()
    )


def _offset_from(value: GT4PyObject, path: str, depth: int) -> gt.OffsetLiteralType:
    if isinstance(value.value, str):
        return gt.OffsetLiteralType(gt.Dimension(str(value.value), "horizontal"))
    return gt.OffsetLiteralType(type_from_gt4py(value.value, f"{path}.value", depth))


def _deferred_from(value: GT4PyObject, path: str, depth: int) -> gt.DeferredType:
    if value.constraint is not None:
        raise ConversionError(
            f"DeferredType(constraint={value.constraint!r}): iterir keeps no constraint", path
        )
    return gt.DeferredType()


_FROM_GT4PY: dict[type, Callable[[Any, str, int], gt.GType]] = {
    ts.ScalarType: _scalar_from,
    common.Dimension: lambda v, p, d: dimension_from_gt4py(v, p),
    ts.FieldType: lambda v, p, d: gt.FieldType(
        _dim_list_from(v.dims, f"{p}.dims"),
        type_from_gt4py(v.dtype, f"{p}.dtype", d),
    ),
    ts.TupleType: lambda v, p, d: gt.TupleType(_types_from(v.types, f"{p}.types", d)),
    ts.ListType: lambda v, p, d: gt.ListType(
        type_from_gt4py(v.element_type, f"{p}.element_type", d),
        None if v.offset_type is None else dimension_from_gt4py(v.offset_type, f"{p}.offset_type"),
    ),
    it_ts.IteratorType: lambda v, p, d: gt.IteratorType(
        _dims_from(v.position_dims, f"{p}.position_dims"),
        _dim_list_from(v.defined_dims, f"{p}.defined_dims"),
        type_from_gt4py(v.element_type, f"{p}.element_type", d),
    ),
    ts.DomainType: lambda v, p, d: gt.DomainType(_dim_list_from(v.dims, f"{p}.dims")),
    it_ts.NamedRangeType: lambda v, p, d: gt.NamedRangeType(
        dimension_from_gt4py(v.dim, f"{p}.dim")
    ),
    ts.DimensionType: lambda v, p, d: gt.DimensionType(dimension_from_gt4py(v.dim, f"{p}.dim")),
    it_ts.OffsetLiteralType: _offset_from,
    ts.FunctionType: lambda v, p, d: gt.FunctionType(
        _types_from(v.pos_only_args, f"{p}.pos_only_args", d),
        _keywords_from(v.pos_or_kw_args, f"{p}.pos_or_kw_args", d),
        _keywords_from(v.kw_only_args, f"{p}.kw_only_args", d),
        type_from_gt4py(v.returns, f"{p}.returns", d),
    ),
    ts.DeferredType: _deferred_from,
    ts.VoidType: lambda v, p, d: gt.VoidType(),
}


def _converted(
    table: dict[type, Callable[[Any, str, int], Any]],
    value: object,
    path: str,
    depth: int,
    missing: str,
) -> Any:
    """`value` converted by its class's entry of `table` (either direction)."""
    if depth > MAX_DEPTH:
        raise ConversionError(f"type nested more than {MAX_DEPTH} levels deep", path)
    convert = table.get(type(value))
    if convert is None:
        raise ConversionError(f"{_shown(value)} {missing}", path)
    return convert(value, path, depth + 1)


def _shown(value: object) -> str:
    """A value in a message: its class, and its text when short."""
    text = repr(value)
    return a_class(value) if len(text) > 80 else f"{a_class(value)} ({text})"
