"""GTIR's builtins: the signatures a type can say (`builtins/gtir.gsig`, in the GTIR notation,
read by `gtir_reader`) and the relations behind the rules that need more than one type
(docs/gtir.md, "Typing"):

- `Lifted(argument, positions, iterator)`: `as_fieldop` makes each input an iterator over the
  domain's dimensions: a field `Field[D, T]` becomes `It[P, D, T]` (a local dimension of `D`
  becomes the list dtype `List[T, L]`), a scalar `It[P, [], T]`, a tuple of fields one
  iterator over the union of their dimensions and the tuple of their dtypes;
- `OnDomain(positions, element, result)`: what `as_fieldop` returns, a field over the domain's
  dimensions of what the stencil returns, mapped over tuples.

- `Shifted(positions, moved)`: `shift` moves an iterator's positions: each connectivity
  replaces its source dimension by its target, each Cartesian offset its domain by its codomain.

- `Spread(dims, result, values…)`: the values (fields, scalars, or tuples of them alike) as one,
  each leaf a field over the union of `dims` and the leaves' own dimensions, of one dtype
  (`broadcast` of one value; `concat_where` of both branches, `dims` its condition's).

- `Along(local, own)`: a list along `own` goes into a `map_list` along `local` (a constant
  list, along no dimension, into any).

- `Index(index)`: `list_get`'s index is an integer or an integer offset (`0ₒ`).

Each waits until the type it reads (the argument, the element) is known to be a field, a
scalar or a tuple.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from iterir.gtir_types import Dimension
from typeinf import gtir_terms as g
from typeinf.constructors import DEMPTY, DTUPLE, PRIM, row_items
from typeinf.gtir_notation import dims_text
from typeinf.gtir_reader import parse_gtir_type
from typeinf.gtir_relations import members
from typeinf.packaged import data_folder
from typeinf.relations import CannotHold, Equate, Relation, known
from typeinf.schemes import Scheme
from typeinf.signatures import _entries
from typeinf.terms import INTEGERS, Cell, Sort, find, var


def _load() -> dict[str, str]:
    """Each builtin's signature text, from the `.gsig` files."""
    table: dict[str, str] = {}
    for path in sorted(data_folder("builtins", "*.gsig").glob("*.gsig")):
        for names, text in _entries(path.read_text(encoding="utf-8")):
            for name in names:
                if name in table:
                    raise ValueError(f"{path.name}: builtin {name!r} has two signatures")
                table[name] = text
    return table


#: GTIR builtins typed by a signature, by name (the signature's text).
SIGNATURES: dict[str, str] = _load()


@cache
def scheme(name: str) -> Scheme:
    """The generalized type of the builtin `name` (read once)."""
    return Scheme(parse_gtir_type(SIGNATURES[name]))


def _known_tuple(cell: Cell) -> list[Cell] | None:
    """The items of a tuple known to end, or None."""
    items, tail = row_items(cell)
    return items if tail.ctor is DEMPTY else None


def _shape(cell: Cell) -> tuple[str, Cell] | None:
    """What `cell` is known to be: ("field" / "scalar" / "tuple" / "other", its root), or None
    while it is a variable (a tuple whose end is unknown is not known either)."""
    root = known(cell)
    if root is None:
        return None
    if root.ctor is g.FIELD:
        return "field", root
    if root.ctor is PRIM:
        return "scalar", root
    if root.ctor is DTUPLE or root.ctor is DEMPTY:
        return ("tuple", root) if _known_tuple(root) is not None else None
    return "other", root


class Lifted(Relation):
    """`iterator` is what `as_fieldop` makes of `argument` over the dimensions `positions`."""

    __slots__ = ()

    def fire(self, equate: Equate) -> bool:
        argument, positions, iterator = self.cells
        seen = _seen(argument)
        if seen is None:
            return False
        every, element = seen
        equate(iterator, g.iterator(positions, _set(every), element))
        return True

    def show(self, name: Callable[[Cell], str]) -> str:
        argument, positions, iterator = self.cells
        return f"{name(iterator)} = lift({name(argument)}, {name(positions)})"


def _set(dimensions: list[Dimension]) -> Cell:
    """A ground set of `dimensions`; one that makes no set cannot hold, saying why."""
    try:
        return g.dims(dimensions)
    except g.DimensionSetError as error:
        raise CannotHold(str(error)) from None


def _seen(argument: Cell) -> tuple[list[Dimension], Cell] | None:
    """What an iterator over `argument` defines and holds: a field's dimensions and dtype (its
    local dimension making the dtype a list), a scalar nothing and itself, a tuple the union
    of its items' and the tuple of theirs; None while a part is not known."""
    shape = _shape(argument)
    if shape is None:
        return None
    kind, root = shape
    if kind == "scalar":
        return [], root
    if kind == "field":
        dimensions = known(root.args[0])
        if dimensions is None:
            return None
        local = [d for d in members(dimensions) if d.kind == "local"]
        dtype = g.list_of(root.args[1], g.dim(local[0])) if local else root.args[1]
        return [d for d in members(dimensions) if d.kind != "local"], dtype
    if kind == "other":
        raise CannotHold("an input of `as_fieldop` is a field, a scalar or a tuple of them")
    every: list[Dimension] = []
    dtypes = []
    for item in _known_tuple(root) or []:
        seen = _seen(item)
        if seen is None:
            return None
        every += seen[0]
        dtypes.append(seen[1])
    return every, g.tuple_of(dtypes)


class OnDomain(Relation):
    """`result` is a field over `positions` of `element`, mapped over tuples."""

    __slots__ = ()

    def fire(self, equate: Equate) -> bool:
        positions, element, result = self.cells
        shape = _shape(element)
        if shape is None:
            return False
        kind, root = shape
        if kind != "tuple":
            equate(result, g.field(positions, root))
            return True
        items = _known_tuple(root) or []
        results = [var(Sort.DTYPE) for _ in items]
        equate(result, g.tuple_of(results))
        for item, out in zip(items, results, strict=True):
            if not OnDomain(positions, item, out).fire(equate):
                return False  # an item not known yet: fired again with the tuple bound
        return True

    def show(self, name: Callable[[Cell], str]) -> str:
        positions, element, result = self.cells
        return f"{name(result)} = Field[{name(positions)}, {name(element)}]"


class Shifted(Relation):
    """`moved` is `positions` after each move in turn: a move is a cell `Offset[a→b]` (a
    Cartesian offset, or a connectivity from its source to its target), known from the text or
    from an offset passed as a parameter (then the relation waits for it)."""

    __slots__ = ()

    def fire(self, equate: Equate) -> bool:
        positions, moved, *moves = self.cells
        start = known(positions)
        ends = [_move(m) for m in moves]
        if start is None and None not in ends and all(a == b for a, b in ends):  # type: ignore[misc]
            equate(moved, positions)  # moves within one dimension: the positions stay
            return True
        if start is None or None in ends:
            return False
        current = list(members(start))
        for source, target in ends:  # type: ignore[misc]  # None is ruled out above
            if source not in current:
                raise CannotHold(
                    f"a shift from {dims_text((source,))} applies to an iterator at "
                    f"{dims_text(tuple(current))}"
                )
            current[current.index(source)] = target
        equate(moved, _set(current))
        return True

    def show(self, name: Callable[[Cell], str]) -> str:
        positions, moved, *moves = self.cells
        return f"{name(moved)} = shift({', '.join(name(c) for c in (positions, *moves))})"


def _move(cell: Cell) -> tuple[Dimension, Dimension] | None:
    """The dimensions a known `Offset[a→b]` moves from and to; None while either is unknown."""
    root = known(cell)
    if root is None or root.ctor is not g.CARTESIAN_OFFSET:
        return None
    source, target = (find(a).label for a in root.args)
    if not (isinstance(source, Dimension) and isinstance(target, Dimension)):
        return None
    return source, target


class Spread(Relation):
    """`result` is the values, each leaf a field over the union of `dims` and the leaves'
    dimensions (a scalar leaf has none), their dtypes one."""

    __slots__ = ()

    def fire(self, equate: Equate) -> bool:
        dims, result, *values = self.cells
        extra, shapes = known(dims), [_shape(v) for v in values]
        if extra is None or None in shapes:
            return False
        kinds = {kind for kind, _ in shapes}  # type: ignore[misc]  # None is ruled out above
        roots = [root for _, root in shapes]  # type: ignore[misc]
        if "other" in kinds or ("tuple" in kinds and kinds != {"tuple"}):
            raise CannotHold("only fields, scalars and tuples of them alike are spread")
        if kinds == {"tuple"}:
            rows = [_known_tuple(r) or [] for r in roots]
            if len({len(r) for r in rows}) > 1:
                raise CannotHold("tuples of different lengths")
            results = [var(Sort.DTYPE) for _ in rows[0]]
            equate(result, g.tuple_of(results))
            settled = [
                Spread(dims, out, *items).fire(equate)
                for out, *items in zip(results, *rows, strict=True)
            ]
            return all(settled)
        every = list(members(extra))
        for root in roots:
            if root.ctor is g.FIELD:
                own = known(root.args[0])
                if own is None:
                    return False
                every += members(own)
        dtype = var(Sort.DTYPE)
        for root in roots:
            equate(dtype, root.args[1] if root.ctor is g.FIELD else root)
        equate(result, g.field(_set(every), dtype))
        return True

    def show(self, name: Callable[[Cell], str]) -> str:
        dims, result, *values = self.cells
        return f"{name(result)} = spread({', '.join(name(c) for c in (dims, *values))})"


class Along(Relation):
    """A list along `own` (a local dimension, or `NO_DIM` for a `make_const_list`) goes into
    a `map_list` along `local`: the same dimension, unless it is a constant list, which goes
    with any. Waits until `own` is known: a list's dimension may be told later than its use
    (by an `as_fieldop`'s deduced domain, say)."""

    __slots__ = ()

    def fire(self, equate: Equate) -> bool:
        local, own = self.cells
        root = known(own)
        if root is None:
            return False
        if root is not g.NO_DIM:
            equate(local, own)
        return True

    def show(self, name: Callable[[Cell], str]) -> str:
        local, own = self.cells
        return f"{name(own)} = {name(local)} or none"


class Index(Relation):
    """`index` is an integer scalar or `Offset[int32]` (`list_get`'s index)."""

    __slots__ = ()

    def fire(self, equate: Equate) -> bool:
        root = known(self.cells[0])
        if root is None:
            return False
        if root.ctor is g.OFFSET_AMOUNT or (root.ctor is PRIM and root.label in INTEGERS):
            return True
        raise CannotHold("an index is an integer or an integer offset")

    def show(self, name: Callable[[Cell], str]) -> str:
        return f"{name(self.cells[0])}: index"
