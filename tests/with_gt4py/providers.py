"""Offset providers for GT4Py's pass manager, made from the samples' offset-provider types.

`apply_common_transforms` wants connectivities (tables), not their types; the samples hold
only the types. Each connectivity here is a table of the type's shape over `SIZE` source
elements, neighbour i of element e being (e + i) mod `SIZE`: the passes read its type and
size, never what it says. Both runs of a comparison get the same provider."""

from __future__ import annotations

from typing import Any

import numpy as np
from gt4py import next as gtx
from gt4py.next import common

SIZE = 10


def offset_provider(types: dict[str, Any]) -> dict[str, Any]:
    """A provider with a connectivity for each `NeighborConnectivityType` of `types`."""
    provider: dict[str, Any] = {}
    for name, value in types.items():
        if isinstance(value, common.NeighborConnectivityType):
            table = (np.arange(SIZE)[:, None] + np.arange(value.max_neighbors)[None, :]) % SIZE
            provider[name] = gtx.as_connectivity(
                domain={value.source_dim: SIZE, value.neighbor_dim: value.max_neighbors},
                codomain=value.codomain,
                data=table.astype(value.dtype.scalar_type),
                skip_value=value.skip_value,
            )
        else:
            provider[name] = value
    return provider
