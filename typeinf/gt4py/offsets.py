"""Offset-provider types between iterir (`iterir.offset_types`, which also reads GT4Py's JSON
form of them) and GT4Py 1.2.3 (`gt4py.next.common.NeighborConnectivityType`, and a
`common.Dimension` for a Cartesian offset).

The fields are the same; GT4Py's `dtype` is a `DType` (`int32` as
`DType(scalar_type=numpy.int32)`), iterir's its name. Only scalar dtypes of a name iterir knows
convert. A connectivity type of another class (GT4Py's base `ConnectivityType`) has no
counterpart: a ConversionError, named by its offset.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from gt4py._core import definitions as core_defs
from gt4py.next import common

from iterir import gtir_types as gt
from iterir import vocabulary as voc
from iterir.offset_types import NeighborConnectivityType, OffsetType, max_neighbors_problem
from typeinf.gt4py.errors import ConversionError, a_class
from typeinf.gt4py.types import GT4PyObject, dimension_from_gt4py, dimension_to_gt4py, made


def offset_types_to_gt4py(types: Mapping[str, OffsetType]) -> dict[str, GT4PyObject]:
    """GT4Py's offset-provider types (what its `infer` takes as `offset_provider_type`)."""
    out: dict[str, GT4PyObject] = {}
    for name, value in types.items():
        path = f"$.{name}"
        if isinstance(value, NeighborConnectivityType):
            if value.dtype not in voc.PRIMITIVES:
                raise ConversionError(f"unknown dtype {value.dtype!r}", f"{path}.dtype")
            out[name] = made(
                path,
                common.NeighborConnectivityType,
                domain=tuple(
                    dimension_to_gt4py(d, f"{path}.domain[{i}]") for i, d in enumerate(value.domain)
                ),
                codomain=dimension_to_gt4py(value.codomain, f"{path}.codomain"),
                skip_value=value.skip_value,
                dtype=core_defs.dtype(getattr(np, value.dtype)),
                max_neighbors=value.max_neighbors,
            )
        else:
            out[name] = dimension_to_gt4py(value, path)
    return out


def offset_types_from_gt4py(types: Mapping[str, GT4PyObject]) -> dict[str, OffsetType]:
    """iterir's offset-provider types for GT4Py's."""
    out: dict[str, OffsetType] = {}
    # The drop-ins convert the provider at every call, and a provider names a few dimensions
    # and dtypes many times (icon4py's: 13 connectivities over 4 dimensions): each converted
    # once a call (docs/performance.md, "Against GT4Py inside its pass manager").
    dimensions: dict[tuple[str, common.DimensionKind], gt.Dimension] = {}
    dtypes: dict[type, str] = {}

    def dimension_from(dim: GT4PyObject, path: str) -> gt.Dimension:
        if type(dim) is not common.Dimension:
            return dimension_from_gt4py(dim, path)  # its error
        value, kind = dim.value, dim.kind
        if type(value) is not str or type(kind) is not common.DimensionKind:
            return dimension_from_gt4py(dim, path)  # its error, or a str subclass as before
        key = (value, kind)
        made = dimensions.get(key)
        if made is None:
            made = dimensions[key] = dimension_from_gt4py(dim, path)
        return made

    def dtype_name(dtype: GT4PyObject, path: str) -> str:
        if type(dtype) is not core_defs.DType or dtype.tensor_shape:
            return _dtype_name(dtype, path)  # its error, or a DType's subclass as before
        name = dtypes.get(dtype.scalar_type)
        if name is None:
            name = dtypes[dtype.scalar_type] = _dtype_name(dtype, path)
        return name

    for name, value in types.items():
        path = f"$.{name}"
        if type(value) is common.Dimension:
            out[name] = dimension_from(value, path)
            continue
        if type(value) is not common.NeighborConnectivityType:
            raise ConversionError(
                f"{a_class(value)} is no offset-provider type iterir knows "
                "(a NeighborConnectivityType or a Dimension)",
                path,
            )
        if len(value.domain) != 2:
            raise ConversionError("expected [source dimension, local dimension]", f"{path}.domain")
        source, local = (
            dimension_from(d, f"{path}.domain[{i}]") for i, d in enumerate(value.domain)
        )
        problem = max_neighbors_problem(value.max_neighbors)
        if problem is not None:
            raise ConversionError(f"max_neighbors {problem}", f"{path}.max_neighbors")
        skip = value.skip_value
        if skip is not None and (isinstance(skip, bool) or not isinstance(skip, (int, np.integer))):
            raise ConversionError(f"skip_value must be an integer, not {skip!r}", path)
        out[name] = NeighborConnectivityType(
            (source, local),
            dimension_from(value.codomain, f"{path}.codomain"),
            None if skip is None else int(skip),
            dtype_name(value.dtype, f"{path}.dtype"),
            value.max_neighbors,
        )
    return out


def _dtype_name(dtype: GT4PyObject, path: str) -> str:
    """The name of a GT4Py `DType` of a scalar (`int32`)."""
    if not isinstance(dtype, core_defs.DType) or dtype.tensor_shape:
        raise ConversionError(f"expected the DType of a scalar, found {dtype!r}", path)
    name = str(np.dtype(dtype.scalar_type).name)
    if name not in voc.PRIMITIVES:
        raise ConversionError(f"dtype {name!r} has no counterpart in iterir", path)
    return name
