"""The public type values' machinery, which every dialect's values share: a value class
(`value_class`: a frozen dataclass), compared and hashed structurally (`alpha_eq` up to renaming),
printed by `repr` field by field, turned into a JSON tree (`tree`), made before its fields where
that pays (`on_demand`), and the variable (`Var`) that stands for anything not known.

Each dialect's values are classes of its own on this base, printed by `str` and `format` in its
notation: the fencil IR's (`typeinf.fencil.values`) and GTIR's (`typeinf.gtir.values`). Their
public names are `typeinf.types` (docs/api.md) and `typeinf.gtir`.

`==` and `hash` are structural and include the variables' numbers, which every public function
gives in the order the located notation numbers them, from 0 for each result (`infer_all` and
`check` number all the nodes' types of a program together, so that a node's type can be related
to its parent's). Two types that differ only by renaming are `alpha_eq`. Every walk here uses an
explicit stack: a 100,000-level type compares, hashes and prints at Python's default recursion
limit; shared parts are visited once.

A value can be made before its fields (`on_demand`: the fencil's type `infer` returns), which
are filled at the first read of any of them; `made` tells whether they are.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, TypeVar, dataclass_transform

from typeinf.core import messages
from typeinf.core.notation import written
from typeinf.core.sizes import MOST_PRINTED_CELLS, placeholder
from typeinf.core.terms import FAMILIES, Sort, sort_meet, var


class Type:
    """Any type value: a type, a part of one (a dtype, a row, …) or a program's type, of either
    dialect. `str(t)` and `format(t, spec)` print it in its dialect's notation, variables
    numbered afresh from 0: each dialect's value classes say how (`__format__`)."""

    __slots__ = ("_hash",)
    _hash: int  # the structural hash, once computed (`_hash`)
    #: The dataclass fields, in order (filled in for each class by `_value`).
    _names: ClassVar[tuple[str, ...]] = ()

    def parts(self) -> Iterator[object]:
        """The fields' values in order, a tuple field's items in place of the tuple."""
        for name in self._names:
            field = getattr(self, name)
            if type(field) is tuple:
                yield from field
            else:
                yield field

    def __str__(self) -> str:
        return format(self, "")

    def __format__(self, spec: str) -> str:
        raise NotImplementedError(messages.no_notation(type(self).__name__))

    def __repr__(self) -> str:
        return _repr(self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Type):
            return NotImplemented
        return _equal(self, other, None)

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            return _hash(self)

    def alpha_eq(self, other: Type) -> bool:
        """Whether `other` is this type with its variables renamed (one to one, each keeping
        its sort and family)."""
        return _equal(self, other, ({}, {}))


#: The format specs of the fencil IR's notations: whether each shows locations.
_SPECS = {"": False, "compact": False, "located": True}


def shows_locations(spec: str) -> bool:
    """Whether the format spec `spec` of a fencil IR's value ("", "compact" or "located") shows
    locations; a ValueError for any other spec."""
    located = _SPECS.get(spec)
    if located is None:
        raise ValueError(messages.unknown_format(spec))
    return located


class OnDemand(Type):
    """A class whose values can be made before their fields (`on_demand`): it keeps converting
    a fencil's type out of `infer`, which most callers never read (docs/performance.md,
    "Tricks deleted and kept"). Only such classes
    have `__getattr__`, which Python then calls for every attribute not set: on `Type` it would
    slow down every value's hashing (`hasattr(value, "_hash")`; docs/performance.md, "Handing
    types out")."""

    __slots__ = ("_fill",)
    #: What fills the fields of a value made before them, until it has.
    _fill: Callable[[Any], None]

    def __getattr__(self, name: str) -> Any:
        """Reached only for an attribute not set: a value made on demand has its fields filled
        now, at the first read of any."""
        if name in self._names:
            try:
                fill = _FILL.__get__(self)
            except AttributeError:
                pass
            else:
                with _FILLING:  # one thread fills it; the others wait, then read it
                    if not made(self):
                        try:
                            fill(self)
                        except AttributeError as error:  # not "no such field": a failed fill
                            raise FillError(messages.fill_failed(fill, error)) from error
                if made(self):
                    return getattr(self, name)
                raise AssertionError(messages.not_filled(fill))
        message = f"{type(self).__name__!r} object has no attribute {name!r}"
        raise AttributeError(message, name=name, obj=self)


class Cyclic(Exception):
    """A type that contains itself, which no value can be: only a failed inference leaves one
    (`InfiniteTypeError`); each dialect's conversion to values raises it."""


class FillError(RuntimeError):
    """An `AttributeError` raised while filling a value made on demand: raised as itself it
    would leave `__getattr__` meaning "no such field", so that `hasattr` says False, `getattr`
    gives its default and `match` silently does not match."""


#: The slot of `OnDemand._fill`, read and cleared without going through `__getattr__`.
_FILL: Any = OnDemand.__dict__["_fill"]
_D = TypeVar("_D", bound=OnDemand)
#: Held while a value made on demand is filled (by the thread that first reads it).
_FILLING = threading.RLock()


def on_demand(cls: type[_D], fill: Callable[[_D], None]) -> _D:
    """A `cls` whose fields `fill` sets (with `adopt`) when any of them is first read: reading
    a field, comparing, hashing, printing or matching it. From outside it is the value `fill`
    gives, made then: immutable, and the same whenever it is read."""
    value = object.__new__(cls)
    _FILL.__set__(value, fill)
    return value


def adopt(shell: OnDemand, value: Type) -> None:
    """Fill the fields of `shell` (made by `on_demand`) with those of `value`, of its class, and
    let go of what was to fill them."""
    assert type(shell) is type(value) and not made(shell)
    for name in value._names:
        getattr(type(value), name).__set__(shell, getattr(value, name))
    _FILL.__delete__(shell)


def made(value: Type) -> bool:
    """Whether `value`'s fields are set: False for one made on demand until it is filled."""
    if not isinstance(value, OnDemand):
        return True
    try:
        _FILL.__get__(value)
    except AttributeError:
        return True
    return False


@dataclass_transform(frozen_default=True, eq_default=False)
def _value(cls: type[_T]) -> type[_T]:
    """`cls` as a frozen dataclass (compared, hashed and printed by `Type`'s methods)."""
    made: Any = dataclass(frozen=True, slots=True, eq=False, repr=False)(cls)
    made._names = tuple(f.name for f in fields(made) if not f.name.startswith("_"))
    _DEFAULTS[made] = {f.name: f.default for f in fields(made) if f.default is not MISSING}
    return made  # type: ignore[no-any-return]


@dataclass_transform(frozen_default=True, eq_default=False)
def value_class(cls: type[_T]) -> type[_T]:
    """`_value` for the values of other modules (`typeinf.gtir.values`) that share `Type`'s."""
    return _value(cls)


_T = TypeVar("_T", bound=Type)


#: Each class's fields that have a default, with it.
_DEFAULTS: dict[type, dict[str, object]] = {}


# -- variables, which every dialect's values have ----------------------------------------------
@_value
class Var(Type):
    """A type variable: `sort` says what it stands for (`"type"`, `"dtype"`, `"size"`,
    `"location"`, `"kind"`, `"argument row"`, `"dtype row"`, `"location row"`, `"list length"`,
    `"skip flag"`); `family` restricts a dtype variable (`"numeric"`, `"integer"`, `"float"`)."""

    sort: str
    number: int
    family: str | None = None

    def __format__(self, spec: str) -> str:
        """`T₀`, `T₀ where T₀: float`: a variable alone, in either of the fencil IR's notations
        (`spec` "", "compact" or "located"), as the engine's printer prints its cell."""
        shows_locations(spec)  # a variable has no locations to show, but the spec is checked
        want = VARIABLE_SORTS.get(self.sort, Sort.TYPE)
        content = variable_of(self, want)
        if isinstance(content, str):
            raise ValueError(messages.misplaced("", want.value, content))
        return written(var(*content))


#: The sorts a `Var` may name, by their names.
VARIABLE_SORTS = {
    s.value: s
    for s in (
        Sort.TYPE, Sort.TROW, Sort.KIND, Sort.DTYPE, Sort.DROW, Sort.SIZE, Sort.LOC, Sort.LROW,
        Sort.LENGTH, Sort.SKIP,
    )
}  # fmt: skip


def variable_of(value: Var, want: Sort) -> tuple[Sort, frozenset[str] | None] | str:
    """The sort and family of the cell of `value` standing where a `want` is expected, or, when
    it cannot stand there, what it is in `messages`' words."""
    sort = VARIABLE_SORTS.get(value.sort)
    if sort is None or sort_meet(sort, want) is not sort:
        return messages.a_variable_of_sort(value.sort)
    if value.family is not None and value.family not in FAMILIES:
        return messages.a_variable_of_family(value.family)
    return sort, None if value.family is None else FAMILIES[value.family]


# -- walks ------------------------------------------------------------------------------------------
def _hash(top: Type) -> int:
    """The structural hash, computed children first and kept in each value: shared parts are
    hashed once, and a value's hash only once."""
    stack: list[tuple[Type, bool]] = [(top, False)]
    while stack:
        value, ready = stack.pop()
        if hasattr(value, "_hash"):
            continue
        parts = list(value.parts())
        if not ready:
            stack.append((value, True))
            stack.extend((p, False) for p in parts if isinstance(p, Type))
            continue
        key = (type(value).__name__, *(hash(p) for p in parts), *map(len, _tuples(value)))
        object.__setattr__(value, "_hash", hash(key))
    return top._hash


def _tuples(value: Type) -> Iterator[tuple[object, ...]]:
    return (f for f in map(value.__getattribute__, value._names) if type(f) is tuple)


def _equal(left: Type, right: Type, renaming: tuple[dict[int, int], dict[int, int]] | None) -> bool:
    """Structural equality; with `renaming` (two empty maps), up to a one-to-one renaming of the
    variables, which the maps record as they are met."""
    stack: list[tuple[object, object]] = [(left, right)]
    compared: set[tuple[int, int]] = set()
    while stack:
        a, b = stack.pop()
        if type(a) is not type(b):
            return False
        if not isinstance(a, Type):
            if a != b:
                return False
            continue
        assert isinstance(b, Type)  # of the same class as `a`
        if a is b and renaming is None:
            continue
        if (id(a), id(b)) in compared:
            continue
        compared.add((id(a), id(b)))
        if renaming is not None and isinstance(a, Var) and isinstance(b, Var):
            forward, backward = renaming
            if forward.setdefault(a.number, b.number) != b.number:
                return False
            if backward.setdefault(b.number, a.number) != a.number:
                return False
            if (a.sort, a.family) != (b.sort, b.family):
                return False
            continue
        if renaming is None and hasattr(a, "_hash") and hasattr(b, "_hash") and a._hash != b._hash:
            return False
        for name in a._names:
            x, y = getattr(a, name), getattr(b, name)
            if type(x) is tuple and type(y) is tuple:
                if len(x) != len(y):
                    return False
                stack.extend(zip(reversed(x), reversed(y), strict=True))
            else:
                stack.append((x, y))
    return True


def _repr(top: Type) -> str:
    """`Val(kind='Iterator', dtype='float64', …)`, built without recursion; a value that
    written out has more than `MOST_PRINTED_CELLS` parts shows its size instead
    (`Fencil(‹a type of 17,179,869,195 cells, too large to print›)`), as a cell's repr does."""
    parts = _written_out(top)
    if parts > MOST_PRINTED_CELLS:
        return f"{type(top).__name__}({placeholder(parts)})"
    out: list[str] = []
    stack: list[object] = [top]
    while stack:
        piece = stack.pop()
        if isinstance(piece, _Text):
            out.append(piece.text)
        elif isinstance(piece, Type):
            pieces: list[object] = [_Text(type(piece).__name__ + "(")]
            shown = [n for n in piece._names if not _default(piece, n)]
            for i, name in enumerate(shown):
                pieces.append(_Text(("" if i == 0 else ", ") + name + "="))
                field = getattr(piece, name)
                if type(field) is tuple:
                    pieces.append(_Text("("))
                    for j, item in enumerate(field):
                        pieces += [_Text(", "), item] if j else [item]
                    pieces.append(_Text(",)" if len(field) == 1 else ")"))
                else:
                    pieces.append(field)
            pieces.append(_Text(")"))
            stack.extend(reversed(pieces))
        else:
            out.append(repr(piece))
    return "".join(out)


def _written_out(top: Type) -> int:
    """How many parts (values and constants) `top` has written out, each shared part counted
    at each of its uses: measured in one walk over the shared graph."""
    sizes: dict[int, int] = {}
    for value in _children_first(top):
        sizes[id(value)] = 1 + sum(
            sizes[id(p)] if isinstance(p, Type) else 1 for p in value.parts()
        )
    return sizes[id(top)]


def _children_first(top: Type) -> Iterator[Type]:
    """Every value reachable from `top`, once (a shared part is not walked again), each after
    its parts; with an explicit stack."""
    seen: set[int] = set()
    stack: list[tuple[Type, bool]] = [(top, False)]
    while stack:
        value, ready = stack.pop()
        if ready:
            yield value
        elif id(value) not in seen:
            seen.add(id(value))
            stack.append((value, True))
            stack.extend((p, False) for p in value.parts() if isinstance(p, Type))


def _default(value: Type, name: str) -> bool:
    """Whether a field holds its default (`tail=None`, `current_loc='ANYWHERE'`): the repr
    leaves it out."""
    default = _DEFAULTS[type(value)].get(name, _DEFAULTS)
    field = getattr(value, name)
    return type(field) is type(default) and field == default


class _Text:
    """Text of a repr, told apart from a string field (which prints quoted)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def fast_maker(cls: type[Type]) -> Callable[..., Any]:
    """A function that makes a `cls` from its fields in order, faster than the dataclass's
    `__init__` (which sets each field through `object.__setattr__`): `typeinf.fencil.convert`
    makes one value
    per class of cells. It is a twin class of the same slots whose `__init__` sets them as
    plain attributes (which only a class without the frozen `__setattr__` can), then makes the
    value a `cls` (assigning `__class__`, which the same layout allows), so that no slot goes
    through its descriptor's setter. It keeps converting every node's type (`infer_all`,
    `check`) off the dataclass's `__init__` (docs/performance.md, "Tricks deleted and kept").
    `__class__` assignment is what mypyc cannot compile: this module and the conversions stay
    interpreted."""
    names = cls._names
    assert all(name.isidentifier() for name in names)  # the dataclass's fields
    lines = [f"def __init__(self, {', '.join(names)}):"]
    lines += [f"    self.{name} = {name}" for name in names]
    lines.append("    self.__class__ = cls")
    scope: dict[str, Any] = {}
    exec("\n".join(lines), {"cls": cls}, scope)  # names as attributes: a store the VM specializes
    namespace = {"__slots__": cls.__slots__, "__init__": scope["__init__"]}
    return type(f"_{cls.__name__}Maker", cls.__bases__, namespace)


def tree(value: Type) -> dict[str, Any]:
    """A value as JSON-ready data (`--json`'s `tree`, docs/json-output.md): each value an object
    `{"class": "Val", "kind": …, …}` of its fields, a tuple field a list, a constant as is.
    Built without recursion; a shared part is one object."""
    done: dict[int, Any] = {}
    for current in _children_first(value):
        data: dict[str, Any] = {"class": type(current).__name__}
        for name in current._names:
            field = getattr(current, name)
            if type(field) is tuple:
                data[name] = [done[id(f)] if isinstance(f, Type) else f for f in field]
            else:
                data[name] = done[id(field)] if isinstance(field, Type) else field
        done[id(current)] = data
    return done[id(value)]  # type: ignore[no-any-return]
