"""Offset providers (docs/offset-providers.md): what each offset tag names.

Two JSON forms are read: ours (`{"V2E": {"type": "Connectivity", "origin": …}}`), and GT4Py 1.2's
offset-provider types (`{"V2E": {"t": "NeighborConnectivityType", "domain": …}}`, read by
`iterir.offset_types`), which the GTIR samples record and GT4Py passes to its own inference."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from iterir.display import value_text
from iterir.errors import ParseError
from iterir.files import read_text
from iterir.gtir_types import Dimension as GTIRDimension
from iterir.jsontext import loads
from iterir.offset_types import (
    MAX_NEIGHBORS,
    OffsetType,
    max_neighbors_problem,
    offset_types_from_json,
)


@dataclass(frozen=True)
class Dimension:
    """A cartesian offset: shifting along it keeps the location."""

    value: str

    def __post_init__(self) -> None:
        _expect(self, "value", str, "a str (the dimension's name, such as 'KDim')")


@dataclass(frozen=True)
class Connectivity:
    """An unstructured offset: from `origin` locations to up to `max_neighbors` `neighbor`s
    (0 to `MAX_NEIGHBORS`)."""

    origin: str
    neighbor: str
    max_neighbors: int
    has_skip_values: bool

    def __post_init__(self) -> None:
        _expect(self, "origin", str, "a str (a location's name, such as 'Vertex')")
        _expect(self, "neighbor", str, "a str (a location's name, such as 'Edge')")
        _expect(self, "max_neighbors", int, f"an int from 0 to {MAX_NEIGHBORS:,}")
        _expect(self, "has_skip_values", bool, "True or False")
        problem = max_neighbors_problem(self.max_neighbors)
        if problem is not None:
            raise ValueError(f"Connectivity.max_neighbors {problem}")


def _expect(entry: object, name: str, kind: type, expected: str) -> None:
    """A TypeError unless field `name` of `entry` is a `kind` (an int is not a bool)."""
    value = getattr(entry, name)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(
            f"{type(entry).__name__}.{name} must be {expected}, not {value_text(value)}"
        )


OffsetProvider = Mapping[str, Dimension | Connectivity]


_T = TypeVar("_T")


class OffsetProviderFormatError(ValueError):
    """An offset provider document that is not of the form of docs/offset-providers.md."""


def load_offset_provider(data: object) -> dict[str, Dimension | Connectivity]:
    """Read an offset provider from decoded JSON, in either form; informational keys (`class`,
    …) are ignored."""
    if _is_gt4py_form(data):
        try:
            return _from_offset_types(offset_types_from_json(data))
        except ParseError as error:
            raise OffsetProviderFormatError(f"{error.json_path}: {error.message}") from None
    if not isinstance(data, dict):
        raise OffsetProviderFormatError("an offset provider is a JSON object of offset tags")
    provider: dict[str, Dimension | Connectivity] = {}
    for tag, entry in data.items():
        if not isinstance(tag, str):
            raise OffsetProviderFormatError(
                f"an offset tag must be a string, not {value_text(tag)}"
            )
        if isinstance(entry, (Dimension, Connectivity)):
            provider[tag] = entry
            continue
        where = f"offset provider entry {value_text(tag)}"
        if not isinstance(entry, dict) or entry.get("type") not in ("Dimension", "Connectivity"):
            raise OffsetProviderFormatError(f'{where}: needs "type": "Dimension" or "Connectivity"')
        try:
            if entry["type"] == "Dimension":
                provider[tag] = Dimension(_typed(entry, "value", str))
            else:
                origin, neighbor = _typed(entry, "origin", str), _typed(entry, "neighbor", str)
                most = _typed(entry, "max_neighbors", int)
                problem = max_neighbors_problem(most)
                if problem is not None:
                    raise TypeError(f"'max_neighbors' {problem}")
                skips = _typed(entry, "has_skip_values", bool)
                provider[tag] = Connectivity(origin, neighbor, most, skips)
        except KeyError as missing:
            raise OffsetProviderFormatError(f"{where}: missing {missing}") from None
        except TypeError as wrong:
            raise OffsetProviderFormatError(f"{where}: {wrong}") from None
    return provider


def _typed(entry: dict[str, Any], key: str, kind: type[_T]) -> _T:
    value = entry[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(
            f"{key!r} must be {'a string' if kind is str else 'an integer' if kind is int else 'a boolean'}"
        )
    return value


def read_offset_provider(path: str | Path) -> dict[str, Dimension | Connectivity]:
    """The offset provider in the JSON file `path`, in either form; a malformed one is a
    ParseError (with the JSON path of the problem, for GT4Py's form)."""
    return offset_provider_of(read_offset_json(path), str(path))


def read_offset_json(path: str | Path) -> object:
    """The decoded JSON of the offset-provider file `path` (a ParseError if it is not JSON),
    for `typeinf.route` to read as the IR it types a program as."""
    return loads(read_text(path), str(path))


def offset_provider_of(data: object, filename: str) -> dict[str, Dimension | Connectivity]:
    """`read_offset_provider` of the decoded JSON `data` of the file `filename`."""
    if _is_gt4py_form(data):
        return _from_offset_types(offset_types_from_json(data, filename))
    try:
        return load_offset_provider(data)
    except OffsetProviderFormatError as error:
        raise ParseError(str(error), filename) from None


def _is_gt4py_form(data: object) -> bool:
    """Whether a decoded document is GT4Py's offset-provider types (its entries have `"t"`)."""
    return isinstance(data, dict) and any(
        isinstance(entry, dict) and "t" in entry for entry in data.values()
    )


def _from_offset_types(types: dict[str, OffsetType]) -> dict[str, Dimension | Connectivity]:
    """GT4Py's offset-provider types as what `shift` and `neighbors` need: a connectivity's
    source and target locations, its neighbours' count and whether some may be missing."""
    return {
        tag: Dimension(entry.value)
        if isinstance(entry, GTIRDimension)
        else Connectivity(
            entry.source_dim.value, entry.codomain.value, entry.max_neighbors, entry.has_skip_values
        )
        for tag, entry in types.items()
    }
