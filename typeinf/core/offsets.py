"""Offset providers (docs/offset-providers.md): what each offset tag names.

Two JSON forms are read: ours (`{"V2E": {"type": "Connectivity", "origin": …}}`), and GT4Py 1.2's
offset-provider types (`{"V2E": {"t": "NeighborConnectivityType", "domain": …}}`, read by
`iterir.offset_types`), which the GTIR samples record and GT4Py passes to its own inference."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any, TypeVar

from iterir.display import value_text
from iterir.errors import ParseError
from iterir.files import read_text
from iterir.gtir_types import Dimension as GTIRDimension
from iterir.jsontext import loads
from iterir.offset_types import (
    MAX_NEIGHBORS,
    NeighborConnectivityType,
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


#: What `load_offset_provider` gives: ours (the fencil IR's form), or GT4Py's offset-provider
#: types, as the document was written; every `offset_provider=` of the API takes either.
AnyProvider = dict[str, Dimension | Connectivity] | dict[str, OffsetType]


def load_offset_provider(source: object) -> AnyProvider:
    """The one loader of offset providers: from a JSON file's path or from decoded JSON, in
    either form, told apart by content (GT4Py's entries have `"t"`): ours as `Dimension` and
    `Connectivity`, GT4Py's as its offset-provider types (`iterir.offset_types`), nothing lost;
    informational keys (`class`, …) are ignored. A file that cannot be read or is not JSON is
    a ParseError; a malformed document an OffsetProviderFormatError."""
    data = read_offset_json(source) if isinstance(source, str | PathLike) else source
    if _is_gt4py_form(data):
        try:
            return offset_types_from_json(data)
        except ParseError as error:
            raise OffsetProviderFormatError(f"{error.json_path}: {error.message}") from None
    if isinstance(data, Mapping) and data and all(_is_offset_type(v) for v in data.values()):
        return dict(data)
    return _ours(data)


def _is_offset_type(entry: object) -> bool:
    return isinstance(entry, NeighborConnectivityType | GTIRDimension)


def fencil_provider(provider: Mapping[str, object]) -> dict[str, Dimension | Connectivity]:
    """An offset provider in either form (objects or JSON) as the fencil IR reads it."""
    loaded = load_offset_provider(provider)
    if all(_is_offset_type(v) for v in loaded.values()):
        return _from_offset_types(loaded)  # type: ignore[arg-type]  # GT4Py's, as tested
    return loaded  # type: ignore[return-value]  # ours, as tested


def gt4py_offset_types(provider: Mapping[str, object]) -> dict[str, OffsetType]:
    """An offset provider in either form (objects or JSON) as GT4Py's offset-provider types,
    which GTIR reads. Ours says less: a Cartesian offset's dimension is horizontal, and a
    connectivity's local dimension is named by its tag (GT4Py's convention: `V2E`'s is `V2Eₗ`),
    of `int32` indices, `-1` where a neighbour is missing."""
    loaded = load_offset_provider(provider)
    types: dict[str, OffsetType] = {}
    for tag, entry in loaded.items():
        if isinstance(entry, Dimension):
            types[tag] = GTIRDimension(entry.value)
        elif isinstance(entry, Connectivity):
            types[tag] = NeighborConnectivityType(
                (GTIRDimension(entry.origin), GTIRDimension(tag, "local")),
                GTIRDimension(entry.neighbor),
                -1 if entry.has_skip_values else None,
                "int32",
                entry.max_neighbors,
            )
        else:
            types[tag] = entry
    return types


def _ours(data: object) -> dict[str, Dimension | Connectivity]:
    """Our form of an offset provider, from decoded JSON or our objects."""
    if not isinstance(data, Mapping):
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
    """The offset provider in the JSON file `path`, in either form, as the fencil IR reads it;
    a malformed one is a ParseError (with the JSON path of the problem, for GT4Py's form)."""
    return offset_provider_of(read_offset_json(path), str(path))


def read_offset_json(path: str | PathLike[str]) -> object:
    """The decoded JSON of the offset-provider file `path` (a ParseError if it is not JSON),
    for `typeinf.route` to read as the IR it types a program as."""
    return loads(read_text(Path(path)), str(path))


def loaded(provider: _T) -> _T | AnyProvider:
    """An `offset_provider=` argument with a path read (`load_offset_provider`); anything else
    as it is."""
    return load_offset_provider(provider) if isinstance(provider, str | PathLike) else provider


def offset_provider_of(data: object, filename: str) -> dict[str, Dimension | Connectivity]:
    """`read_offset_provider` of the decoded JSON `data` of the file `filename`."""
    if _is_gt4py_form(data):
        return _from_offset_types(offset_types_from_json(data, filename))
    try:
        return _ours(data)
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
