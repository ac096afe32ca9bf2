"""GTIR's types: the ones GT4Py's inference reads before it starts (`Sym.type`, a free
`SymRef.type`, `Temporary.dtype`), kept on the nodes, encoded in JSON and written in text.

They are GT4Py's classes and field names (`FieldType(dims, dtype)`, `Dimension(value, kind)`, …),
immutable and hashable. In text they print in the notation of docs/gtir.md
(`Field[[IDimₕ, KDimᵥ], f64]`); in JSON as `{"t": "FieldType", "dims": […], "dtype": {…}}`.
Types nest a few levels in practice; readers refuse more than MAX_DEPTH levels, so that the
recursive helpers here (and the dataclasses' own hash and equality) stay far from the recursion
limit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from iterir import vocabulary as voc

MAX_DEPTH = 64

#: GT4Py's abbreviations of the scalar kinds (`f64`, `i1` for bool), as its text writes them.
#: The same as our literal suffixes, but for bool.
ABBREVIATIONS: dict[str, str] = {**voc.PRIMITIVE_SUFFIXES, "bool": "i1"}
ABBREVIATED: dict[str, str] = {short: kind for kind, short in ABBREVIATIONS.items()}
#: A dimension's kind, and the subscript that marks it in text (`IDimₕ`, `KDimᵥ`, `V2Eₗ`).
KIND_SUFFIXES: dict[str, str] = {"horizontal": "ₕ", "vertical": "ᵥ", "local": "ₗ"}
SUFFIX_KINDS: dict[str, str] = {suffix: kind for kind, suffix in KIND_SUFFIXES.items()}


class TypeFormatError(ValueError):
    """A malformed type: the message, and the JSON keys from the type's root to the problem."""

    def __init__(self, message: str, keys: tuple[str | int, ...] = ()) -> None:
        super().__init__(message)
        self.message, self.keys = message, keys


class GType:
    """Base of GTIR's types."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class ScalarType(GType):
    """A scalar; its kind is checked when it is made, since every printer and converter looks
    it up (GT4Py's `ScalarKind` has no other members that iterir knows)."""

    kind: str
    shape: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        _check_kind("scalar", self.kind, sorted(voc.PRIMITIVES))


@dataclass(frozen=True, slots=True)
class Dimension(GType):
    """A dimension; its kind is checked when it is made, as ScalarType's is."""

    value: str
    kind: str = "horizontal"

    def __post_init__(self) -> None:
        _check_kind("dimension", self.kind, list(KIND_SUFFIXES))


def _check_kind(what: str, kind: object, known: list[str]) -> None:
    """A TypeFormatError at key `kind` unless `kind` is one of `known`."""
    if not (isinstance(kind, str) and kind in known):
        raise TypeFormatError(f"unknown {what} kind {kind!r}; expected one of {known}", ("kind",))


@dataclass(frozen=True, slots=True)
class FieldType(GType):
    dims: tuple[Dimension, ...]
    dtype: GType


@dataclass(frozen=True, slots=True)
class TupleType(GType):
    types: tuple[GType, ...]


@dataclass(frozen=True, slots=True)
class ListType(GType):
    element_type: GType
    offset_type: Dimension | None = None


Dims = tuple[Dimension, ...] | Literal["unknown"]


@dataclass(frozen=True, slots=True)
class IteratorType(GType):
    position_dims: Dims
    defined_dims: tuple[Dimension, ...]
    element_type: GType


@dataclass(frozen=True, slots=True)
class DomainType(GType):
    dims: Dims


@dataclass(frozen=True, slots=True)
class NamedRangeType(GType):
    dim: Dimension


@dataclass(frozen=True, slots=True)
class DimensionType(GType):
    dim: Dimension


@dataclass(frozen=True, slots=True)
class OffsetLiteralType(GType):
    value: GType  # a Dimension, or a ScalarType for an integer offset


@dataclass(frozen=True, slots=True)
class FunctionType(GType):
    pos_only_args: tuple[GType, ...]
    pos_or_kw_args: tuple[tuple[str, GType], ...]
    kw_only_args: tuple[tuple[str, GType], ...]
    returns: GType


@dataclass(frozen=True, slots=True)
class DeferredType(GType):
    """GT4Py could not tell yet (its constraint, a Python class, is not kept: always null)."""

    constraint: None = None


@dataclass(frozen=True, slots=True)
class VoidType(GType):
    pass


#: Each class's fields in GT4Py's order, with how a field's JSON value is read: "type", "types"
#: (a list), "dim", "dims" (a list of Dimensions, or "unknown" where "dims?" says so),
#: "kwargs" (an object of types), "str", "shape", "null". (A kind is a "str" that the class
#: checks when it is made.)
FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "ScalarType": (("kind", "str"), ("shape", "shape")),
    "Dimension": (("value", "str"), ("kind", "str")),
    "FieldType": (("dims", "dims"), ("dtype", "type")),
    "TupleType": (("types", "types"),),
    "ListType": (("element_type", "type"), ("offset_type", "dim?")),
    "IteratorType": (
        ("position_dims", "dims?"),
        ("defined_dims", "dims"),
        ("element_type", "type"),
    ),
    "DomainType": (("dims", "dims?"),),
    "NamedRangeType": (("dim", "dim"),),
    "DimensionType": (("dim", "dim"),),
    "OffsetLiteralType": (("value", "type"),),
    "FunctionType": (
        ("pos_only_args", "types"),
        ("pos_or_kw_args", "kwargs"),
        ("kw_only_args", "kwargs"),
        ("returns", "type"),
    ),
    "DeferredType": (("constraint", "null"),),
    "VoidType": (),
}
CLASSES: dict[str, type[GType]] = {
    cls.__name__: cls
    for cls in (
        ScalarType,
        Dimension,
        FieldType,
        TupleType,
        ListType,
        IteratorType,
        DomainType,
        NamedRangeType,
        DimensionType,
        OffsetLiteralType,
        FunctionType,
        DeferredType,
        VoidType,
    )
}


# -- JSON ------------------------------------------------------------------------------------------
def type_to_json(value: GType) -> Any:
    """The JSON value of a type: `{"t": class, field: value…}` in GT4Py's field order."""
    name = type(value).__name__
    data: dict[str, Any] = {"t": name}
    for field, kind in FIELDS[name]:
        item = getattr(value, field)
        if kind in ("type", "dim", "dim?"):
            data[field] = None if item is None else type_to_json(item)
        elif kind in ("types", "dims", "dims?"):
            data[field] = item if item == "unknown" else [type_to_json(t) for t in item]
        elif kind == "kwargs":
            data[field] = {key: type_to_json(t) for key, t in item}
        elif kind == "shape":
            data[field] = None if item is None else list(item)
        else:
            data[field] = item
    return data


def type_from_json(data: Any, depth: int = 0) -> GType:
    """The type a JSON value encodes; TypeFormatError says what is wrong and where."""
    if depth > MAX_DEPTH:
        raise TypeFormatError(f"type nested more than {MAX_DEPTH} levels deep")
    if not isinstance(data, dict):
        raise TypeFormatError(f"expected a type object, found {json_kind(data)}")
    name = data.get("t")
    if not isinstance(name, str):
        raise TypeFormatError("missing field 't'" if name is None else "'t' must be a string")
    if name not in FIELDS:
        raise TypeFormatError(f"unknown type {name!r}", ("t",))
    fields = FIELDS[name]
    known = {field for field, _ in fields}
    for key in data:
        if key != "t" and key not in known:
            raise TypeFormatError(f"unknown field {key!r} of {name}")
    values: dict[str, Any] = {}
    for field, kind in fields:
        if field not in data:
            raise TypeFormatError(f"missing field {field!r}")
        try:
            values[field] = _field_from_json(kind, data[field], depth)
        except TypeFormatError as error:
            raise TypeFormatError(error.message, (field, *error.keys)) from None
    return CLASSES[name](**values)


def _field_from_json(kind: str, value: Any, depth: int) -> Any:
    if kind == "type":
        return type_from_json(value, depth + 1)
    if kind in ("dim", "dim?"):
        if value is None and kind == "dim?":
            return None
        return _dimension(value, depth)
    if kind in ("types", "dims", "dims?"):
        if value == "unknown" and kind == "dims?":
            return "unknown"
        if not isinstance(value, list):
            raise TypeFormatError(f"expected a list, found {json_kind(value)}")
        read = _dimension if kind != "types" else lambda v, d: type_from_json(v, d + 1)
        return tuple(_at(i, read, item, depth) for i, item in enumerate(value))
    if kind == "kwargs":
        if not isinstance(value, dict):
            raise TypeFormatError(f"expected an object, found {json_kind(value)}")
        return tuple(
            (key, _at(key, lambda v, d: type_from_json(v, d + 1), item, depth))
            for key, item in value.items()
        )
    if kind == "shape":
        if value is None:
            return None
        if not (isinstance(value, list) and value and all(_is_int(n) for n in value)):
            raise TypeFormatError("expected null or a non-empty list of integers")
        return tuple(value)
    if kind == "null":
        if value is not None:
            raise TypeFormatError("only a null constraint is supported")
        return None
    if not isinstance(value, str):
        raise TypeFormatError(f"expected a string, found {json_kind(value)}")
    return value  # a kind is checked by the class (ScalarType, Dimension)


def _at(key: str | int, read: Callable[[Any, int], Any], value: Any, depth: int) -> Any:
    try:
        return read(value, depth)
    except TypeFormatError as error:
        raise TypeFormatError(error.message, (key, *error.keys)) from None


def _dimension(value: Any, depth: int) -> Dimension:
    found = type_from_json(value, depth + 1)
    if not isinstance(found, Dimension):
        raise TypeFormatError(f"expected a Dimension, found {type(found).__name__}")
    return found


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def json_kind(value: Any) -> str:
    """How a JSON value is called in messages."""
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return "a string" if isinstance(value, str) else "a number"


# -- text ------------------------------------------------------------------------------------------
def dimension_text(dim: Dimension, name_text: Callable[[str], str]) -> str:
    return name_text(dim.value) + KIND_SUFFIXES[dim.kind]


def type_text(value: GType, name_text: Callable[[str], str], braces: bool = False) -> str:
    """A type in text (docs/gtir.md); `braces` writes tuples `{f64, i32}` as GT4Py's
    `temporary(…)` does, else `tuple[f64, i32]`."""

    def text(t: GType) -> str:
        return type_text(t, name_text, braces)

    def dims(ds: Dims) -> str:
        if ds == "unknown":
            return "unknown"
        return "[" + ", ".join(dimension_text(d, name_text) for d in ds) + "]"

    if isinstance(value, ScalarType):
        shape = "" if not value.shape else "[" + ", ".join(map(str, value.shape)) + "]"
        return ABBREVIATIONS[value.kind] + shape
    if isinstance(value, Dimension):
        return dimension_text(value, name_text)
    if isinstance(value, FieldType):
        return f"Field[{dims(value.dims)}, {text(value.dtype)}]"
    if isinstance(value, TupleType):
        inner = ", ".join(text(t) for t in value.types)
        return "{" + inner + "}" if braces else f"tuple[{inner}]"
    if isinstance(value, ListType):
        if value.offset_type is None:
            return f"List[{text(value.element_type)}]"
        return f"List[{text(value.element_type)}, {text(value.offset_type)}]"
    if isinstance(value, IteratorType):
        return (
            f"It[{dims(value.position_dims)}, {dims(value.defined_dims)}, "
            f"{text(value.element_type)}]"
        )
    if isinstance(value, DomainType):
        return f"Domain[{dims(value.dims)}]"
    if isinstance(value, NamedRangeType):
        return f"NamedRange[{text(value.dim)}]"
    if isinstance(value, DimensionType):
        return f"Dimension[{text(value.dim)}]"
    if isinstance(value, OffsetLiteralType):
        return f"Offset[{text(value.value)}]"
    if isinstance(value, FunctionType):
        args = [text(t) for t in value.pos_only_args]
        args += [f"{name_text(k)}: {text(t)}" for k, t in value.pos_or_kw_args]
        if value.kw_only_args:
            args += ["*", *(f"{name_text(k)}: {text(t)}" for k, t in value.kw_only_args)]
        return f"({', '.join(args)}) → {text(value.returns)}"
    if isinstance(value, DeferredType):
        return "Deferred"
    if isinstance(value, VoidType):
        return "Void"
    raise ValueError(f"cannot print {value!r}: not a GTIR type")
