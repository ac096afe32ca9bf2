"""Offset providers (docs/offset-providers.md): what each offset tag names.

Two JSON forms are read: ours (`{"V2E": {"type": "Connectivity", "origin": …}}`), and GT4Py 1.2's
offset-provider types (`{"V2E": {"t": "NeighborConnectivityType", "domain": …}}`, read by
`iterir.offset_types`), which the GTIR samples record and GT4Py passes to its own inference.

An offset provider is read once, where it comes in (`typeinf.infer`, `infer_all`, `check`,
`Reinference`, the command line through `typeinf.route`, the GT4Py bridge): `read_offsets` makes
it an `Offsets`, which tells its form to the dispatch by dialect (`dialect.decide`) and gives
the dialect that types the tree the one view that dialect reads (`Offsets.fencil`,
`Offsets.gtir`), made once. Nothing below the API reads it again."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from os import PathLike
from pathlib import Path
from typing import Any, TypeVar

from iterir.errors import ParseError
from iterir.files import read_text
from iterir.gtir_types import Dimension as GTIRDimension
from iterir.jsontext import loads
from iterir.offset_types import (
    NeighborConnectivityType,
    OffsetType,
    max_neighbors_problem,
    offset_types_from_json,
)
from typeinf.core import messages, offset_messages
from typeinf.core.arguments import a_provider


@dataclass(frozen=True)
class Dimension:
    """A cartesian offset: shifting along it keeps the location."""

    value: str

    def __post_init__(self) -> None:
        _expect(self, "value", str, offset_messages.DIMENSION_NAME)


@dataclass(frozen=True)
class Connectivity:
    """An unstructured offset: from `origin` locations to up to `max_neighbors` `neighbor`s
    (0 to `MAX_NEIGHBORS`)."""

    origin: str
    neighbor: str
    max_neighbors: int
    has_skip_values: bool

    def __post_init__(self) -> None:
        _expect(self, "origin", str, offset_messages.ORIGIN_NAME)
        _expect(self, "neighbor", str, offset_messages.NEIGHBOR_NAME)
        _expect(self, "max_neighbors", int, offset_messages.NEIGHBOR_COUNT)
        _expect(self, "has_skip_values", bool, messages.A_FLAG)
        problem = max_neighbors_problem(self.max_neighbors)
        if problem is not None:
            raise ValueError(offset_messages.connectivity_max_neighbors(problem))


def _expect(entry: object, name: str, kind: type, expected: str) -> None:
    """A TypeError unless field `name` of `entry` is a `kind` (an int is not a bool)."""
    value = getattr(entry, name)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(offset_messages.wrong_field(entry, name, expected, value))


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
    if _gt4py_json(data):
        try:
            return offset_types_from_json(data)
        except ParseError as error:
            raise OffsetProviderFormatError(
                offset_messages.at(error.json_path, error.message)
            ) from None
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


def _as_offset_types(provider: dict[str, Dimension | Connectivity]) -> dict[str, OffsetType]:
    """An offset provider of ours as GT4Py's offset-provider types, which GTIR reads. Ours says
    less: a Cartesian offset's dimension is horizontal, and a connectivity's local dimension is
    named by its tag (GT4Py's convention: `V2E`'s is `V2Eₗ`), of `int32` indices, `-1` where a
    neighbour is missing."""
    types: dict[str, OffsetType] = {}
    for tag, entry in provider.items():
        if isinstance(entry, Dimension):
            types[tag] = GTIRDimension(entry.value)
        else:
            types[tag] = NeighborConnectivityType(
                (GTIRDimension(entry.origin), GTIRDimension(tag, "local")),
                GTIRDimension(entry.neighbor),
                -1 if entry.has_skip_values else None,
                "int32",
                entry.max_neighbors,
            )
    return types


def _ours(data: object) -> dict[str, Dimension | Connectivity]:
    """Our form of an offset provider, from decoded JSON or our objects."""
    if not isinstance(data, Mapping):
        raise OffsetProviderFormatError(offset_messages.NOT_AN_OBJECT)
    provider: dict[str, Dimension | Connectivity] = {}
    for tag, entry in data.items():
        if not isinstance(tag, str):
            raise OffsetProviderFormatError(offset_messages.not_a_tag(tag))
        if isinstance(entry, (Dimension, Connectivity)):
            provider[tag] = entry
            continue
        if not isinstance(entry, dict) or entry.get("type") not in ("Dimension", "Connectivity"):
            raise OffsetProviderFormatError(
                offset_messages.in_entry(tag, offset_messages.NEEDS_TYPE)
            )
        try:
            if entry["type"] == "Dimension":
                provider[tag] = Dimension(_typed(entry, "value", str))
            else:
                origin, neighbor = _typed(entry, "origin", str), _typed(entry, "neighbor", str)
                most = _typed(entry, "max_neighbors", int)
                problem = max_neighbors_problem(most)
                if problem is not None:
                    raise TypeError(offset_messages.key_problem("max_neighbors", problem))
                skips = _typed(entry, "has_skip_values", bool)
                provider[tag] = Connectivity(origin, neighbor, most, skips)
        except KeyError as missing:
            raise OffsetProviderFormatError(
                offset_messages.in_entry(tag, offset_messages.missing(missing))
            ) from None
        except TypeError as wrong:
            raise OffsetProviderFormatError(offset_messages.in_entry(tag, wrong)) from None
    return provider


def _typed(entry: dict[str, Any], key: str, kind: type[_T]) -> _T:
    value = entry[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(offset_messages.key_of_kind(key, kind))
    return value


def read_offset_provider(path: str | Path) -> dict[str, Dimension | Connectivity]:
    """The offset provider in the JSON file `path`, in either form, as the fencil IR reads it;
    a malformed one is a ParseError (with the JSON path of the problem, for GT4Py's form)."""
    return offset_provider_of(read_offset_json(path), str(path))


def read_offset_json(path: str | PathLike[str]) -> object:
    """The decoded JSON of the offset-provider file `path` (a ParseError if it is not JSON)."""
    return loads(read_text(Path(path)), str(path))


def offset_provider_of(data: object, filename: str) -> dict[str, Dimension | Connectivity]:
    """`read_offset_provider` of the decoded JSON `data` of the file `filename`."""
    if _gt4py_json(data):
        return _from_offset_types(offset_types_from_json(data, filename))
    try:
        return _ours(data)
    except OffsetProviderFormatError as error:
        raise ParseError(str(error), filename) from None


def in_gt4py_form(provider: object) -> bool:
    """Whether `provider` is in GT4Py's form (GT4Py's offset-provider types,
    `iterir.offset_types`), as objects or as their JSON: the form that only GTIR reads, and that
    alone makes a tree GTIR (`dialect.decide`)."""
    return isinstance(provider, Mapping) and any(
        _is_offset_type(entry) or _gt4py_entry(entry) for entry in provider.values()
    )


def _gt4py_json(data: object) -> bool:
    """Whether a decoded document is GT4Py's offset-provider types, which the JSON reader reads
    (objects are taken as they are)."""
    return isinstance(data, dict) and any(map(_gt4py_entry, data.values()))


def _gt4py_entry(entry: object) -> bool:
    """Whether `entry` is one of GT4Py's offset-provider types in JSON (it has `"t"`)."""
    return isinstance(entry, dict) and "t" in entry


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


def read_offsets(provider: object = None, *, file: str | None = None) -> Offsets:
    """The one reading of an offset provider, where it comes in: an `offset_provider=` argument
    (None, either form as objects or decoded JSON, or a JSON file's path, read here: a file
    that cannot be read or is not JSON is a ParseError, a malformed document an
    OffsetProviderFormatError), or the JSON `file` named on the command line (`typeinf.route`;
    a ParseError if it cannot be read or is not JSON)."""
    if file is not None:
        given = read_offset_json(file)
    elif isinstance(provider, str | PathLike):
        given = load_offset_provider(provider)
    else:
        given = provider
    return Offsets(given, in_gt4py_form(given), file)


@dataclass(frozen=True, eq=False)
class Offsets:
    """An offset provider read (`read_offsets`): as given (a path read), whether it is in GT4Py's
    form (for `dialect.decide`), and the view of the dialect that types the tree, made when first
    asked for and then kept. A malformed provider is said by that view, in the words that dialect
    has always used: as an argument, an OffsetProviderFormatError (TypeError when it is no
    mapping) for the fencil IR, a ParseError for GTIR; from the command line (`filename`), a
    ParseError naming the file, and GTIR takes GT4Py's form only there."""

    given: object
    gt4py_form: bool
    filename: str | None = None

    @cached_property
    def fencil(self) -> OffsetProvider | None:
        """What `shift` and `neighbors` read in the fencil IR: ours, by offset tag."""
        if self.filename is not None:
            return offset_provider_of(self.given, self.filename)
        given = a_provider("typeinf", self.given)
        return None if given is None else fencil_provider(given)

    @cached_property
    def gtir(self) -> dict[str, OffsetType] | None:
        """What GTIR reads: GT4Py's offset-provider types, by offset name (an offset provider of
        ours converted, `_as_offset_types` says how)."""
        given = self.given
        if self.filename is not None:
            return offset_types_from_json(given, self.filename)
        if given is None:
            return None
        if isinstance(given, Mapping) and all(_is_offset_type(v) for v in given.values()):
            return dict(given)
        if isinstance(given, Mapping) and given and not self.gt4py_form:
            try:
                return _as_offset_types(_ours(given))
            except OffsetProviderFormatError as error:
                raise ParseError(str(error)) from None
        return offset_types_from_json(given)

    def view(self, gtir: bool) -> Mapping[str, object] | None:
        """GTIR's view (`gtir`) or the fencil IR's, made now: the command line says a malformed
        file before it types anything."""
        return self.gtir if gtir else self.fencil
