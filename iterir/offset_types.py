"""GTIR's offset-provider types, in the form GT4Py passes them to its inference (and the GTIR
samples record): each offset name maps to a `NeighborConnectivityType` or a `Dimension`.

    {"V2E": {"t": "NeighborConnectivityType",
             "domain": [{"t": "Dimension", "value": "Vertex", "kind": "horizontal"},
                        {"t": "Dimension", "value": "V2E", "kind": "local"}],
             "codomain": {"t": "Dimension", "value": "Edge", "kind": "horizontal"},
             "skip_value": null, "dtype": "int32", "max_neighbors": 4},
     "Ioff": {"t": "Dimension", "value": "IDim", "kind": "horizontal"}}

GT4Py's derived conveniences (`source_dim`, `neighbor_dim`, `has_skip_values`) may be present;
they are checked against the fields they derive from, not kept. A malformed document is a
ParseError naming the JSON path of the problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from iterir import vocabulary as voc
from iterir.display import value_text
from iterir.errors import ParseError
from iterir.files import read_text
from iterir.gtir_types import Dimension, TypeFormatError, json_kind, type_from_json, type_to_json
from iterir.jsontext import loads, path_step


@dataclass(frozen=True, slots=True)
class NeighborConnectivityType:
    """A connectivity: from `domain[0]` to up to `max_neighbors` neighbours in `codomain`, along
    the local dimension `domain[1]`; `skip_value` marks a missing neighbour (None: none miss)."""

    domain: tuple[Dimension, Dimension]
    codomain: Dimension
    skip_value: int | None
    dtype: str
    max_neighbors: int

    @property
    def source_dim(self) -> Dimension:
        return self.domain[0]

    @property
    def neighbor_dim(self) -> Dimension:
        return self.domain[1]

    @property
    def has_skip_values(self) -> bool:
        return self.skip_value is not None


OffsetType = NeighborConnectivityType | Dimension

#: The most neighbours a connectivity may give a location (docs/offset-providers.md): a mesh's
#: locations have a handful; a larger number is a mistake, and a negative one no length at all.
MAX_NEIGHBORS = 10_000


def max_neighbors_problem(value: object) -> str | None:
    """What is wrong with `value` as a connectivity's `max_neighbors`, or None."""
    if isinstance(value, bool) or not isinstance(value, int):
        return f"must be an integer, not {json_kind(value)}"
    if not 0 <= value <= MAX_NEIGHBORS:
        shown = f"{value:,}" if abs(value) < 10**20 else "one of more than 20 digits"
        return f"must be an integer from 0 to {MAX_NEIGHBORS:,}, not {shown}"
    return None


def offset_types_from_json(data: Any, filename: str | None = None) -> dict[str, OffsetType]:
    """The offset-provider types a decoded JSON object describes."""

    def fail(message: str, *keys: str | int) -> ParseError:
        path = "$" + "".join(path_step(k) for k in keys)
        return ParseError(message, filename, json_path=path)

    if not isinstance(data, dict):
        raise fail(f"expected an object of offset types, found {json_kind(data)}")
    out: dict[str, OffsetType] = {}
    for name, value in data.items():
        if not isinstance(value, dict):
            raise fail(f"expected an offset type object, found {json_kind(value)}", name)
        if value.get("t") == "Dimension":
            out[name] = _type(value, Dimension, fail, name)
            continue
        if value.get("t") != "NeighborConnectivityType":
            raise fail("expected 't': 'NeighborConnectivityType' or 'Dimension'", name, "t")
        out[name] = _connectivity(value, fail, name)
    return out


def _connectivity(value: dict[str, Any], fail: Any, name: str) -> NeighborConnectivityType:
    known = {"t", "domain", "codomain", "skip_value", "dtype", "max_neighbors"}
    derived = {"source_dim", "neighbor_dim", "has_skip_values"}
    for key in value:
        if key not in known | derived:
            raise fail(f"unknown field {key!r} of NeighborConnectivityType", name)
    for key in sorted(known - {"t"}):
        if key not in value:
            raise fail(f"missing field {key!r}", name)
    domain = value["domain"]
    if not (isinstance(domain, list) and len(domain) == 2):
        raise fail("expected [source dimension, local dimension]", name, "domain")
    source = _type(domain[0], Dimension, fail, name, "domain", 0)
    local = _type(domain[1], Dimension, fail, name, "domain", 1)
    if local.kind != "local":
        raise fail(f"the neighbour dimension must be local, not {local.kind}", name, "domain", 1)
    codomain = _type(value["codomain"], Dimension, fail, name, "codomain")
    skip, dtype, most = value["skip_value"], value["dtype"], value["max_neighbors"]
    if skip is not None and (isinstance(skip, bool) or not isinstance(skip, int)):
        raise fail(f"expected an integer or null, found {json_kind(skip)}", name, "skip_value")
    if not isinstance(dtype, str):
        raise fail(f"expected a dtype name, found {json_kind(dtype)}", name, "dtype")
    if dtype not in voc.PRIMITIVES:
        raise fail(f"unknown dtype {value_text(dtype)}", name, "dtype")
    problem = max_neighbors_problem(most)
    if problem is not None:
        raise fail(problem, name, "max_neighbors")
    result = NeighborConnectivityType((source, local), codomain, skip, dtype, most)
    for key, expected in (
        ("source_dim", type_to_json(source)),
        ("neighbor_dim", type_to_json(local)),
        ("has_skip_values", skip is not None),
    ):
        if key in value and value[key] != expected:
            raise fail(f"disagrees with the fields it derives from ({expected!r})", name, key)
    return result


def _type(value: Any, cls: type[Dimension], fail: Any, *keys: str | int) -> Dimension:
    try:
        found = type_from_json(value)
    except TypeFormatError as error:
        raise fail(error.message, *keys, *error.keys) from None
    if not isinstance(found, cls):
        raise fail(f"expected a {cls.__name__}, found {type(found).__name__}", *keys)
    return found


def load_offset_types(path: str | Path) -> dict[str, OffsetType]:
    """Read the offset-provider types in a JSON file."""
    name = str(path)
    return offset_types_from_json(loads(read_text(path), name), name)
