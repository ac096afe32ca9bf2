"""GTIR's rules for fields and domains (docs/gtir.md, "Typing"): `as_fieldop` applied to its
inputs (its stencil's reads on a domain, or deduced from the shifts the stencil makes of each
input), `lift`, the domain builtins (`cartesian_domain`, `index`), `concat_where` and its
conditions on dimensions, `broadcast` and `scan`. Each rule is a function of the inference,
the call's position, node and argument positions, and returns the call's type, emitting its
constraints through `inf.equal` and its relations through `inf.relate`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from iterir import (
    AxisLiteral,
    FunCall,
    Node,
    OffsetLiteral,
    SymRef,
)
from iterir import gtir_types as gt
from iterir.nodes import (
    CartesianOffset,
)
from iterir.offset_types import NeighborConnectivityType
from typeinf.core.constructors import DTUPLE
from typeinf.core.driver import check_arity
from typeinf.core.errors import (
    GrammarBuiltinError,
    TypeInferenceError,
    unchained,
)
from typeinf.core.terms import INTEGERS, Cell, Sort, find, make, var
from typeinf.gtir import calls, messages
from typeinf.gtir import terms as g
from typeinf.gtir.relations import (
    Deduced,
    Lifted,
    Moves,
    OnDomain,
    Spread,
    Union,
    known_tuple,
)
from typeinf.gtir.shifts import shifts_read

if TYPE_CHECKING:
    from typeinf.gtir.collect import GtirInference


def as_fieldop(inf: GtirInference, position: int, inner: FunCall, args: list[int]) -> Cell:
    """`as_fieldop(stencil, domain?)(inputs…)`: each input an iterator over the domain's
    dimensions; the result a field over them of what the stencil returns."""
    if not 1 <= len(inner.args) <= 2:
        raise GrammarBuiltinError(messages.AS_FIELDOP_ARGUMENTS, inner)
    at = inf.args(position + 1, inner)
    unknown = False
    if len(at) == 2:
        positions = inf.inside(at[1], g.DOMAIN, Sort.DIMS)
    else:
        positions = var(Sort.DIMS)
        deduced = deduce(inf, position, inner.args[0], positions, args)
        unknown = not deduced and inf.reading.unknown_undeduced_domain
    iterators = []
    for a in args:
        iterator = var(Sort.DTYPE)
        inf.relate(Lifted(inf.type_at(a), positions, iterator), a)
        iterators.append(iterator)
    element = var(Sort.DTYPE)
    inf.equal(inf.type_at(at[0]), g.function(iterators, element), at[0])
    result = var(Sort.DTYPE)
    if not unknown:
        inf.relate(OnDomain(positions, element, result), position)
    inf.types[position + 1] = g.function([inf.type_at(a) for a in args], result)
    return result


def deduce(
    inf: GtirInference, position: int, stencil: Node, positions: Cell, args: list[int]
) -> bool:
    """`as_fieldop` without a domain: its dimensions are those GT4Py deduces from the
    shifts the stencil reads its inputs after (`Deduced`), where it deduces any (whether
    it does)."""
    reads = shifts_read(stencil, len(args))
    if reads is None:
        return False
    moves = [{tag_moves(inf, tags) for tags in input_reads} for input_reads in reads]
    if any(None in each for each in moves):
        return False  # an offset the provider does not name: its shift says so
    deduced = tuple(frozenset(each) for each in moves)
    inf.relate(Deduced(deduced, positions, *map(inf.type_at, args)), position)  # type: ignore[arg-type]
    return True


def tag_moves(inf: GtirInference, tags: tuple[Node, ...]) -> Moves | None:
    """The dimensions each shift tag moves from and to; None for a tag not known."""
    found = []
    for tag in tags:
        if isinstance(tag, CartesianOffset):
            found.append((_dimension(tag.domain), _dimension(tag.codomain)))
            continue
        connectivity = (
            inf.offset_types.get(tag.value)
            if isinstance(tag, OffsetLiteral)
            and isinstance(tag.value, str)
            and inf.offset_types is not None
            else None
        )
        if not isinstance(connectivity, NeighborConnectivityType):
            return None
        found.append((connectivity.domain[0], connectivity.codomain))
    return tuple(found)


def lift(inf: GtirInference, position: int, inner: FunCall, args: list[int]) -> Cell:
    """`lift(stencil)(iterators…)`: an iterator at the inputs' positions, defined
    everywhere (no dimension), of what the stencil returns, as GT4Py 1.2 types it. Where
    it is defined depends on the shifts the stencil reads its inputs after (the lifted
    iterator of a nested reduction is shifted off its inputs' dimensions and still read),
    which GT4Py does not trace. The stencil reads each input where the lifted iterator is
    dereferenced, after any shift of it: at positions of its own (GT4Py's "unknown"),
    defined where the input is, of its element."""
    check_arity(inner, 1)
    positions, element = var(Sort.DIMS), var(Sort.DTYPE)
    read: list[Cell] = []
    for a in args:
        own, held = var(Sort.DIMS), var(Sort.DTYPE)
        inf.equal(g.iterator(positions, own, held), inf.type_at(a), a)
        read.append(g.iterator(var(Sort.DIMS), own, held))
    stencil = inf.args(position + 1, inner)[0]
    inf.equal(inf.type_at(stencil), g.function(read, element), stencil)
    result = g.iterator(positions, g.dims(()), element)
    inf.types[position + 1] = g.function([inf.type_at(a) for a in args], result)
    return result


def rule_comparison(inf: GtirInference, position: int, node: FunCall, args: list[int]) -> Cell:
    """A comparison or `and_`/`or_`/`xor_`: a domain (a `concat_where` condition,
    `domain_condition`) where an argument is known to be a dimension or a domain, else typed by
    its signature."""
    if any(find(inf.type_at(a)).ctor in (g.DIMENSION, g.DOMAIN) for a in args):
        return domain_condition(inf, position, node, args)
    callee = node.fun
    assert isinstance(callee, SymRef)  # a builtin, called by its name
    return calls.by_signature(inf, callee.id, position, node, args)


def domain_condition(inf: GtirInference, position: int, node: FunCall, args: list[int]) -> Cell:
    """`IDimₕ < n` or `n < IDimₕ`: the domain `Domain[[IDim]]`; `and_`/`or_`/`xor_` of
    domains: over the union of their dimensions (GT4Py's `promote_dims`)."""
    check_arity(node, 2)
    types = [find(inf.type_at(a)) for a in args]
    for axis, other in ((0, 1), (1, 0)):
        if types[axis].ctor is g.DIMENSION:
            inf.equal(var(Sort.DTYPE, INTEGERS), types[other], args[other])
            label = find(types[axis].args[0]).label
            assert isinstance(label, gt.Dimension)  # an axis's type holds its dimension
            return make(g.DOMAIN, g.dims([label]))
    first, second = types
    if getattr(node.fun, "id", "") not in ("and_", "or_", "xor_"):
        raise GrammarBuiltinError(messages.DOMAIN_OPERATORS, node)
    left, right, union = var(Sort.DIMS), var(Sort.DIMS), var(Sort.DIMS)
    inf.equal(make(g.DOMAIN, left), first, args[0])
    inf.equal(make(g.DOMAIN, right), second, args[1])
    inf.relate(Union(left, right, union), position)
    return make(g.DOMAIN, union)


def rule_concat_where(inf: GtirInference, position: int, node: FunCall, args: list[int]) -> Cell:
    """`concat_where(domain, a, b)`: `a` where the domain holds, else `b`: fields over the
    union of the domain's and the branches' dimensions, mapped over tuples (`Spread`)."""
    check_arity(node, 3)
    dims = inf.inside(args[0], g.DOMAIN, Sort.DIMS)
    result = var(Sort.DTYPE)
    inf.relate(Spread(dims, result, inf.type_at(args[1]), inf.type_at(args[2])), position)
    return result


def rule_broadcast(inf: GtirInference, position: int, node: FunCall, args: list[int]) -> Cell:
    """`broadcast(x, {IDimₕ, …})`: `x` over at least the dimensions listed, written out or the
    type of the second argument (a tuple of known `Dimension[…]`s: GT4Py's own passes give
    one, such as a typed subtree that `reinfer` does not walk again)."""
    check_arity(node, 2)
    listed = node.args[1]
    axes = listed.args if isinstance(listed, FunCall) else ()
    if _is_builtin_call(listed, "make_tuple") and all(isinstance(a, AxisLiteral) for a in axes):
        dimensions = [_dimension(a) for a in axes]  # type: ignore[arg-type]  # axes, as tested
    else:
        typed = _typed_axes(inf.type_at(args[1]))
        if typed is None:
            raise GrammarBuiltinError(messages.BROADCAST_AXES, listed)
        dimensions = typed
    try:
        dims = g.dims(dimensions)
    except g.DimensionSetError as error:
        raise unchained(TypeInferenceError(messages.not_dimensions(error), listed)) from None
    result = var(Sort.DTYPE)
    inf.relate(Spread(dims, result, inf.type_at(args[0])), position)
    return result


def rule_cartesian_domain(
    inf: GtirInference, position: int, node: FunCall, args: list[int]
) -> Cell:
    found = []
    for a in args:
        label = find(inf.inside(a, g.NAMED_RANGE, Sort.DIM)).label
        if not isinstance(label, gt.Dimension):
            return make(g.DOMAIN, var(Sort.DIMS))
        found.append(label)
    try:
        return make(g.DOMAIN, g.dims(found))
    except g.DimensionSetError as error:
        raise unchained(TypeInferenceError(messages.not_a_domain(error), node)) from None


def rule_index(inf: GtirInference, position: int, node: FunCall, args: list[int]) -> Cell:
    check_arity(node, 1)
    dimension = var(Sort.DIM)
    inf.equal(make(g.DIMENSION, dimension), inf.type_at(args[0]), position)
    label = find(dimension).label
    if not isinstance(label, gt.Dimension):
        return g.field(var(Sort.DIMS), g.scalar("int32"))
    return g.field(g.dims([label]), g.scalar("int32"))


def rule_scan(inf: GtirInference, position: int, node: FunCall, args: list[int]) -> Cell:
    """`scan(f, forward, init)`: a stencil of any inputs `(its…) → A`, where `f` is
    `(A, its…) → A`, `forward` a `bool` and `init` an `A`."""
    check_arity(node, 3)
    inputs, state = var(Sort.DROW), var(Sort.DTYPE)
    step = make(g.FUNCTION, make(DTUPLE, state, inputs), state)
    inf.equal(step, inf.type_at(args[0]), args[0])
    inf.equal(g.scalar("bool"), inf.type_at(args[1]), args[1])
    inf.equal(state, inf.type_at(args[2]), args[2])
    return make(g.FUNCTION, inputs, state)


def _typed_axes(cell: Cell) -> list[gt.Dimension] | None:
    """The dimensions of a tuple of axes known by its type, `tuple[Dimension[Cellₕ], …]`;
    None where the type is anything else or not known so far."""
    items = known_tuple(cell)
    if items is None:
        return None
    found = []
    for item in map(find, items):
        if item.ctor is not g.DIMENSION:
            return None
        label = find(item.args[0]).label
        if not isinstance(label, gt.Dimension):
            return None
        found.append(label)
    return found


def _dimension(axis: AxisLiteral) -> gt.Dimension:
    """An axis's dimension; one without a kind (the fencil IR's) is horizontal, GT4Py's default."""
    return g.dimension_named(axis.value, axis.kind or "horizontal")


def _is_builtin_call(node: Node, name: str) -> bool:
    return isinstance(node, FunCall) and isinstance(node.fun, SymRef) and node.fun.id == name
