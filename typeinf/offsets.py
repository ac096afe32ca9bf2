"""Offset providers (docs/offset-providers.md): what each offset tag names."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from iterir.errors import ParseError
from iterir.files import read_text
from iterir.jsontext import loads


@dataclass(frozen=True)
class Dimension:
    """A cartesian offset: shifting along it keeps the location."""

    value: str


@dataclass(frozen=True)
class Connectivity:
    """An unstructured offset: from `origin` locations to up to `max_neighbors` `neighbor`s."""

    origin: str
    neighbor: str
    max_neighbors: int
    has_skip_values: bool


OffsetProvider = Mapping[str, Dimension | Connectivity]


_T = TypeVar("_T")


class OffsetProviderFormatError(ValueError):
    """An offset provider document that is not of the form of docs/offset-providers.md."""


def load_offset_provider(data: object) -> dict[str, Dimension | Connectivity]:
    """Read an offset provider from decoded JSON; informational keys (`class`, …) are ignored."""
    if not isinstance(data, dict):
        raise OffsetProviderFormatError("an offset provider is a JSON object of offset tags")
    provider: dict[str, Dimension | Connectivity] = {}
    for tag, entry in data.items():
        if isinstance(entry, (Dimension, Connectivity)):
            provider[tag] = entry
            continue
        where = f"offset provider entry {tag!r}"
        if not isinstance(entry, dict) or entry.get("type") not in ("Dimension", "Connectivity"):
            raise OffsetProviderFormatError(f'{where}: needs "type": "Dimension" or "Connectivity"')
        try:
            if entry["type"] == "Dimension":
                provider[tag] = Dimension(_typed(entry, "value", str))
            else:
                provider[tag] = Connectivity(
                    _typed(entry, "origin", str),
                    _typed(entry, "neighbor", str),
                    _typed(entry, "max_neighbors", int),
                    _typed(entry, "has_skip_values", bool),
                )
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
    """The offset provider in the JSON file `path`; a malformed one is a ParseError."""
    data = loads(read_text(path), str(path))
    try:
        return load_offset_provider(data)
    except OffsetProviderFormatError as error:
        raise ParseError(str(error), str(path)) from None
