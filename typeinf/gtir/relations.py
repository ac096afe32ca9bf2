"""GTIR's relations (`typeinf.core.relations`): what its typing rules need said of more than one
type, which unification cannot say (docs/gtir.md, "Typing"). On dimension sets:

- `Union(a, b, out)`: `out` is the union of the sets `a` and `b`, in canonical order
  (GT4Py's `promote_dims`), printed `D₂ = D₀ ∪ D₁`;
- `Subset(sub, sup)`: every dimension of `sub` is in `sup` (what `deref` needs of an iterator:
  its defined dimensions within its positions), printed `D₁ ⊆ D₀`;
- `Shifted(positions, moved)`: `shift` moves an iterator's positions: each connectivity
  replaces its source dimension by its target, each Cartesian offset its domain by its codomain;
- `Deduced(positions, inputs…)`: the dimensions `as_fieldop` without a domain deduces, as
  GT4Py does, from its inputs' dimensions moved back through the shifts the stencil reads each
  input after (`shifts`).

On fields, scalars and tuples of them, each waiting until the type it reads is known to be one:

- `Lifted(argument, positions, iterator)`: `as_fieldop` makes each input an iterator over the
  domain's dimensions: a field `Field[D, T]` becomes `It[P, D, T]` (a local dimension of `D`
  becomes the list dtype `List[T, L]`), a scalar `It[P, [], T]`, a tuple of fields one
  iterator over the union of their dimensions and the tuple of their dtypes;
- `OnDomain(positions, element, result)`: what `as_fieldop` returns, a field over the domain's
  dimensions of what the stencil returns, mapped over tuples;
- `Spread(dims, result, values…)`: the values (fields, scalars, or tuples of them alike) as one,
  each leaf a field over the union of `dims` and the leaves' own dimensions, of one dtype
  (`broadcast` of one value; `concat_where` of both branches, `dims` its condition's);
- `TupleMapped(fresh, recursive, function, tuple, result)`: `map_tuple` (`tree_map_tuple` with
  `recursive`) applies the function to each item (leaf) of the tuple.

On one type: `Along(own, local)`, a list `map_list` maps is along `local`, unless it is along
none (a `make_const_list`'s, which goes with a list along any dimension); `Scalar(value)`, what
`cast_` converts is a scalar; `Index(index)`, `list_get`'s index is an integer or an integer
offset (`0ₒ`).

Each fires when its inputs are known and waits otherwise; a union settles early when one side
is known to be empty (the other is the result) or both are one set, a subset when `sub` is
empty or both are one set. One that cannot hold raises `CannotHold` saying why (the union of
two sets with two local dimensions; a dimension missing from the superset).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from iterir.gtir_types import Dimension
from typeinf.core.constructors import DEMPTY, DTUPLE, PRIM, row_items
from typeinf.core.relations import CannotHold, Equate, Relation, known
from typeinf.core.schemes import Scheme
from typeinf.core.terms import INTEGERS, Cell, Sort, find, var
from typeinf.gtir import messages
from typeinf.gtir import terms as g
from typeinf.gtir.notation import dimension_text, dims_text
from typeinf.gtir.terms import DIMS, DimensionSetError, canonical, dims


def members(known_set: Cell) -> tuple[Dimension, ...]:
    """The dimensions of a ground set (a `DIMS` constant), in canonical order."""
    return cast("tuple[Dimension, ...]", known_set.label)


def set_difference(expected: Cell, actual: Cell) -> str | None:
    """In words, how the first ground dimension sets that differ between `expected` and
    `actual` (walked side by side, as far as their structures agree) differ: which dimensions
    `actual` has that `expected` lacks ("extra") and which it lacks ("missing"); None where no
    two known sets differ."""
    pending, seen = [(expected, actual)], set()
    # What each variable of either side stands for across from it: a variable met twice ties
    # the two things across from it (`(T₀, T₀) → T₀` against two fields compares the fields).
    across: dict[int, Cell] = {}
    while pending:
        left, right = (find(c) for c in pending.pop())
        if (id(left), id(right)) in seen:
            continue
        seen.add((id(left), id(right)))
        variable, other = (left, right) if left.ctor is None else (right, left)
        if variable.ctor is None:
            if id(variable) in across:
                pending.append((across[id(variable)], other))
            else:
                across[id(variable)] = other
            continue
        if left.ctor is not right.ctor:
            continue
        if left.ctor is DIMS:
            if left.label != right.label:
                return _difference(members(left), members(right))
            continue
        pending.extend(reversed(list(zip(left.args, right.args, strict=False))))
    return None


def _difference(expected: tuple[Dimension, ...], actual: tuple[Dimension, ...]) -> str:
    extra = [dimension_text(d) for d in actual if d not in expected]
    missing = [dimension_text(d) for d in expected if d not in actual]
    return messages.set_difference(extra, missing)


class Union(Relation):
    """`out = a ∪ b` over dimension sets."""

    __slots__ = ()

    def fire(self, equate: Equate) -> bool:
        a, b, out = self.cells
        left, right = known(a), known(b)
        if find(a) is find(b):
            equate(out, a)
            return True
        if left is not None and not members(left):
            equate(out, b)
            return True
        if right is not None and not members(right):
            equate(out, a)
            return True
        if left is None or right is None:
            return False
        try:
            union = canonical((*members(left), *members(right)))
        except DimensionSetError as error:
            raise CannotHold(str(error)) from None
        equate(out, dims(union))
        return True

    def show(self, name: Callable[[Cell], str]) -> str:
        a, b, out = self.cells
        return f"{name(out)} = {name(a)} ∪ {name(b)}"


class Subset(Relation):
    """`sub ⊆ sup` over dimension sets."""

    __slots__ = ()

    def fire(self, equate: Equate) -> bool:
        sub, sup = self.cells
        inner, outer = known(sub), known(sup)
        if find(sub) is find(sup) or (inner is not None and not members(inner)):
            return True
        if inner is None or outer is None:
            return False
        missing = tuple(d for d in members(inner) if d not in members(outer))
        if missing:
            raise CannotHold(messages.not_within(dims_text(missing), dims_text(members(outer))))
        return True

    def show(self, name: Callable[[Cell], str]) -> str:
        sub, sup = self.cells
        return f"{name(sub)} ⊆ {name(sup)}"


def known_tuple(cell: Cell) -> list[Cell] | None:
    """The items of a tuple known to end, or None."""
    items, tail = row_items(cell)
    return items if tail.ctor is DEMPTY else None


def _mapped(
    argument: Cell,
    result: Cell,
    equate: Equate,
    each: Callable[[Cell, Cell], bool],
    other: Callable[[Cell], object],
) -> bool:
    """A relation mapped over tuples, once `argument` is known: `other` of it (its root) when
    it is not a tuple; else `result` is a tuple of a fresh type per item, which `each` relates
    to its item. False while `argument` or an item is not known yet (fired again later)."""
    shape = _shape(argument)
    if shape is None:
        return False
    kind, root = shape
    if kind != "tuple":
        other(root)
        return True
    items = known_tuple(root) or []
    results = [var(Sort.DTYPE) for _ in items]
    equate(result, g.tuple_of(results))
    return all(each(item, out) for item, out in zip(items, results, strict=True))


def _not_a_tuple(root: Cell) -> None:
    raise CannotHold(messages.MAPS_OVER_A_TUPLE)


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
        return ("tuple", root) if known_tuple(root) is not None else None
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


def iterated(field: Cell) -> tuple[tuple[Dimension, ...], Cell] | None:
    """A field (a `Field[…]` root) as an iterator over it sees it, as GT4Py's inference does:
    its dimensions but its local one, and its dtype, a list along the local dimension if it has
    one; None while its dimensions are not known."""
    dimensions = known(field.args[0])
    if dimensions is None:
        return None
    local = [d for d in members(dimensions) if d.kind == "local"]
    dtype = g.list_of(field.args[1], g.dim(local[0])) if local else field.args[1]
    return tuple(d for d in members(dimensions) if d.kind != "local"), dtype


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
        found = iterated(root)
        return None if found is None else (list(found[0]), found[1])
    if kind == "other":
        raise CannotHold(messages.FIELDOP_INPUT)
    every: list[Dimension] = []
    dtypes = []
    for item in known_tuple(root) or []:
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
        return _mapped(
            element,
            result,
            equate,
            lambda item, out: OnDomain(positions, item, out).fire(equate),
            lambda root: equate(result, g.field(positions, root)),
        )

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
                    messages.shift_from(dims_text((source,)), dims_text(tuple(current)))
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
            raise CannotHold(messages.SPREAD_KINDS)
        if kinds == {"tuple"}:
            rows = [known_tuple(r) or [] for r in roots]
            if len({len(r) for r in rows}) > 1:
                raise CannotHold(messages.TUPLE_LENGTHS)
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
        equate(result, g.field(_set(every), promoted(equate, roots)))
        return True

    def show(self, name: Callable[[Cell], str]) -> str:
        dims, result, *values = self.cells
        return f"{name(result)} = spread({', '.join(name(c) for c in (dims, *values))})"


def promoted(equate: Equate, values: list[Cell]) -> Cell:
    """The one dtype of `values` (fields or scalars, their dtypes), as GT4Py 1.2.3 promotes
    them: equal, but lists along one local dimension or a `make_const_list`'s none, which goes
    with any (a list known only so far as it is a list)."""
    dtypes = [find(v.args[1]) if v.ctor is g.FIELD else v for v in values]
    if not all(d.ctor is g.LIST for d in dtypes):
        dtype = var(Sort.DTYPE)
        for each in dtypes:
            equate(dtype, each)
        return dtype
    element = var(Sort.DTYPE)
    along = [d for d in (find(each.args[1]) for each in dtypes) if d is not g.NO_DIM]
    for each in dtypes:
        equate(element, each.args[0])
    for each in along[1:]:
        equate(along[0], each)
    return g.list_of(element, along[0] if along else g.NO_DIM)


def as_lists(field: Cell) -> Cell | None:
    """A field known to have a local dimension as GT4Py's inference sees it, a field of lists
    along it (`Field[[Vertex, V2Eₗ], T]` as `Field[[Vertex], List[T, V2Eₗ]]`); None for any
    other."""
    found = iterated(field) if field.ctor is g.FIELD else None
    if found is None or found[1] is field.args[1]:  # unknown, or no local dimension
        return None
    return g.field(_set(list(found[0])), found[1])


#: A shift as the dimensions it moves from and to, in order (`Deduced`).
Moves = tuple[tuple[Dimension, Dimension], ...]


class Deduced(Relation):
    """`positions` are the dimensions GT4Py deduces for `as_fieldop` without a domain: the
    union, over each input's leaves (fields and scalars) and each shift the stencil reads the
    input after (`reads`), of the leaf's dimensions each moved back through the shift (a
    target dimension becomes its source); nothing with no leaf at all."""

    __slots__ = ("reads",)

    def __init__(self, reads: tuple[frozenset[Moves], ...], positions: Cell, *inputs: Cell) -> None:
        super().__init__(positions, *inputs)
        self.reads = reads

    def copy(self, mapping: Callable[[Cell], Cell]) -> Deduced:
        clone = super().copy(mapping)
        clone.reads = self.reads
        return clone

    def fire(self, equate: Equate) -> bool:
        positions, *inputs = self.cells
        every: list[Dimension] = []
        leaves = 0
        for cell, reads in zip(inputs, self.reads, strict=True):
            found = _leaf_dimensions(cell)
            if found is None:
                return False
            leaves += len(found)
            for dimensions in found:
                for moves in reads:
                    every += (_moved_back(d, moves) for d in dimensions)
        if leaves:
            equate(positions, _set(list(dict.fromkeys(every))))
        return True

    def show(self, name: Callable[[Cell], str]) -> str:
        positions, *inputs = self.cells
        return f"{name(positions)} = deduced({', '.join(map(name, inputs))})"


def _leaf_dimensions(cell: Cell) -> list[tuple[Dimension, ...]] | None:
    """The dimensions of each field or scalar of `cell` (a tuple's, in order); None while a
    part is not known."""
    shape = _shape(cell)
    if shape is None:
        return None
    kind, root = shape
    if kind == "scalar":
        return [()]
    if kind == "field":  # GT4Py deduces from the field as an iterator sees it (`iterated`)
        seen = iterated(root)
        return None if seen is None else [seen[0]]
    found: list[tuple[Dimension, ...]] = []
    items = (known_tuple(root) or []) if kind == "tuple" else []  # "other": no leaves
    for item in items:
        leaves = _leaf_dimensions(item)
        if leaves is None:
            return None
        found += leaves
    return found


def _moved_back(dimension: Dimension, moves: Moves) -> Dimension:
    for source, target in reversed(moves):
        if dimension == target:
            dimension = source
    return dimension


class Along(Relation):
    """`own` (a list's local dimension) is `local`, unless it is none."""

    __slots__ = ()

    def fire(self, equate: Equate) -> bool:
        own, local = self.cells
        root = known(own)
        if root is None:
            return False
        if root is not g.NO_DIM:
            equate(local, root)
        return True

    def show(self, name: Callable[[Cell], str]) -> str:
        own, local = self.cells
        return f"{name(own)} ∈ {{{name(local)}, none}}"


class TupleMapped(Relation):
    """`result` is `function` applied to each item of `argument`, a tuple (with `recursive`,
    to each leaf of nested tuples); `fresh`, a builtin's scheme, gives each item an instance
    of its own, else all items share `function`'s type."""

    __slots__ = ("fresh", "recursive")

    def __init__(
        self, fresh: Scheme | None, recursive: bool, function: Cell, argument: Cell, result: Cell
    ) -> None:
        super().__init__(function, argument, result)
        self.fresh, self.recursive = fresh, recursive

    def copy(self, mapping: Callable[[Cell], Cell]) -> TupleMapped:
        clone = super().copy(mapping)
        clone.fresh, clone.recursive = self.fresh, self.recursive
        return clone

    def fire(self, equate: Equate) -> bool:
        function, argument, result = self.cells

        def each(item: Cell, out: Cell) -> bool:
            shape = _shape(item)
            if self.recursive and shape is None:
                return False  # a leaf or a tuple: not known yet
            if self.recursive and shape is not None and shape[0] == "tuple":
                return TupleMapped(self.fresh, True, function, item, out).fire(equate)
            applied = function if self.fresh is None else self.fresh.instantiate()
            equate(applied, g.function([item], out))
            return True

        return _mapped(argument, result, equate, each, _not_a_tuple)

    def show(self, name: Callable[[Cell], str]) -> str:
        function, argument, result = self.cells
        which = "tree_map_tuple" if self.recursive else "map_tuple"
        return f"{name(result)} = {which}({name(function)}, {name(argument)})"


class _Restricted(Relation):
    """A type restricted to some kinds of type, checked once it is known; `label` names the
    restriction in a `where` clause, `why` says it when it fails."""

    __slots__ = ()
    label = ""
    why = ""

    def holds(self, root: Cell) -> bool:
        raise NotImplementedError

    def fire(self, equate: Equate) -> bool:
        root = known(self.cells[0])
        if root is None:
            return False
        if self.holds(root):
            return True
        raise CannotHold(self.why)

    def show(self, name: Callable[[Cell], str]) -> str:
        return f"{name(self.cells[0])}: {self.label}"


class Scalar(_Restricted):
    """`value` is a scalar (what `cast_` converts)."""

    __slots__ = ()
    label, why = "scalar", messages.CAST_OPERAND

    def holds(self, root: Cell) -> bool:
        return root.ctor is PRIM


class Index(_Restricted):
    """`index` is an integer scalar or `Offset[int32]` (`list_get`'s index)."""

    __slots__ = ()
    label, why = "index", messages.INDEX_KIND

    def holds(self, root: Cell) -> bool:
        return root.ctor is g.OFFSET_AMOUNT or (root.ctor is PRIM and root.label in INTEGERS)
