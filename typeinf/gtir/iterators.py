"""GTIR's rules for iterators and lists (docs/gtir.md, "Typing"): `deref`, `shift` (with its
offsets, a connectivity's or a Cartesian one), `neighbors`, `reduce`, `list_get` and
`map_list`. Each rule is a function of the inference, the call's position, node and argument
positions, and returns the call's type (see `typeinf.gtir.fieldops`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from iterir import (
    FunCall,
    Node,
    OffsetLiteral,
)
from iterir import gtir_types as gt
from iterir.offset_types import NeighborConnectivityType
from iterir.traversal import child_positions
from typeinf.core.driver import check_arity
from typeinf.core.errors import (
    GrammarBuiltinError,
    TypeInferenceError,
)
from typeinf.core.terms import Cell, Sort, find, make, var
from typeinf.gtir import calls, messages
from typeinf.gtir import terms as g
from typeinf.gtir.relations import Along, Index, Shifted, Subset

if TYPE_CHECKING:
    from typeinf.gtir.collect import GtirInference


def rule_deref(inf: GtirInference, position: int, node: FunCall, args: list[int]) -> Cell:
    check_arity(node, 1)
    return deref_of(inf, position, inf.type_at(args[0]))


def deref_value(inf: GtirInference, position: int) -> Cell:
    """`deref` as a value (`as_fieldop(deref, …)`): a function of an iterator to its element."""
    argument = var(Sort.DTYPE)
    return g.function([argument], deref_of(inf, position, argument))


def deref_of(inf: GtirInference, position: int, argument: Cell) -> Cell:
    """`deref` of an iterator of type `argument`: its element, defined where it is."""
    known = inf.run.known(argument)
    if known is not None and known.ctor is g.ITERATOR:  # its parts, read (see `runs`)
        positions, defined, element = known.args
        inf.relate(Subset(defined, positions), position)
        return element
    positions, defined, element = var(Sort.DIMS), var(Sort.DIMS), var(Sort.DTYPE)
    inf.equal(g.iterator(positions, defined, element), argument, position)
    inf.relate(Subset(defined, positions), position)
    return element


def rule_shift(inf: GtirInference, position: int, node: FunCall, args: list[int]) -> Cell | None:
    """`shift(…)`: typed as its run types it (`runs.FastRun.shift`, `runs.ExplainingRun.shift`):
    here, a function its application unifies, or where it is applied, by `shifted`."""
    return inf.run.shift(inf, position, node)


def shift(inf: GtirInference, position: int, node: FunCall) -> Cell:
    """`shift(offset, amount, …)`: an iterator to one at the positions the offsets reach
    (`Shifted`), defined and holding as before."""
    moves = moves_of(inf, position, node)
    positions, moved, defined, element = (
        var(Sort.DIMS),
        var(Sort.DIMS),
        var(Sort.DIMS),
        var(Sort.DTYPE),
    )
    inf.relate(Shifted(positions, moved, *moves), position)
    before = g.iterator(positions, defined, element)
    return g.function([before], g.iterator(moved, defined, element))


def moves_of(inf: GtirInference, position: int, node: FunCall) -> list[Cell]:
    """What each offset of the `shift(…)` call at `position` moves (`move`)."""
    if len(node.args) % 2:
        raise GrammarBuiltinError(messages.SHIFT_PAIRS, node)
    tags = child_positions(inf.sizes, position, len(node.args) + 1)[1::2]
    return [offset_move(inf, t, node.args[i * 2]) for i, t in enumerate(tags)]


def shift_applied(inf: GtirInference, position: int) -> bool:
    """Whether the `shift(…)` call at `position` is applied to one iterator, whose type
    its application reads (`shifted`): the fast run's way (`runs.FastRun.shift`)."""
    parent = inf.nodes[position - 1] if position else None
    return (
        isinstance(parent, FunCall) and parent.fun is inf.nodes[position] and len(parent.args) == 1
    )


def shifted(inf: GtirInference, position: int, inner: FunCall, args: list[int]) -> Cell:
    """`shift(…)(it)`: `shift`'s rule, reading the parts of `it`'s type where it is known
    to be an iterator, rather than unifying function types built for it
    (docs/performance.md, "GTIR inference")."""
    known = find(inf.type_at(args[0]))
    if known.ctor is not g.ITERATOR:  # typed as any call, which says what is wrong
        function = inf.types[position + 1] = shift(inf, position + 1, inner)
        return calls.apply(inf, function, position, args)
    positions, defined, element = known.args
    moved = var(Sort.DIMS)
    inf.relate(Shifted(positions, moved, *moves_of(inf, position + 1, inner)), position + 1)
    result = g.iterator(moved, defined, element)
    inf.types[position + 1] = g.function([known], result)
    return result


def offset_move(inf: GtirInference, position: int, tag: Node) -> Cell:
    """What a shift's offset moves: `Offset[a→b]`, from a Cartesian offset, a connectivity
    (from its source to its target) or an offset passed as a value (its type)."""
    if isinstance(tag, OffsetLiteral) and isinstance(tag.value, str):
        source, target = connectivity(inf, tag)
        return make(g.CARTESIAN_OFFSET, g.dim_cell(source), g.dim_cell(target))
    if isinstance(tag, OffsetLiteral):
        raise GrammarBuiltinError(messages.OFFSET_NAME, tag)
    given = inf.type_at(position)
    known = inf.run.known(given)
    # A Cartesian offset's type, known, is read rather than unified with a fresh pattern
    # (see `runs`), with `unify` calling no `join` when it keeps none
    # (docs/performance.md, "GTIR inference").
    if known is not None and known.ctor is g.CARTESIAN_OFFSET:
        return known
    move = make(g.CARTESIAN_OFFSET, var(Sort.DIM), var(Sort.DIM))
    inf.equal(move, given, position)
    return move


def connectivity(inf: GtirInference, tag: OffsetLiteral) -> tuple[gt.Dimension, gt.Dimension]:
    """The dimension the named offset moves from, and the one it moves to."""
    found = (inf.offset_types or {}).get(str(tag.value))
    if found is None:
        provided = inf.offset_types is not None
        raise TypeInferenceError(messages.unknown_offset(str(tag.value), provided), tag)
    if isinstance(found, gt.Dimension):
        return found, found
    return found.source_dim, found.codomain


def rule_neighbors(inf: GtirInference, position: int, node: FunCall, args: list[int]) -> Cell:
    """`neighbors(C, it)`: the values at `it`'s neighbours along `C`, `List[T, C's local
    dimension]`; `it` must stand at `C`'s source, defined at its target (with
    `Reading.neighbors_unchecked`, anywhere: GT4Py 1.2 does not check where, and its own tests
    rely on that)."""
    check_arity(node, 2)
    tag = node.args[0]
    if not (isinstance(tag, OffsetLiteral) and isinstance(tag.value, str)):
        raise GrammarBuiltinError(messages.NEIGHBORS_CONNECTIVITY, tag)
    found = (inf.offset_types or {}).get(tag.value)
    if not isinstance(found, NeighborConnectivityType):
        connectivity(inf, tag)  # an unknown offset: its error
        raise TypeInferenceError(messages.not_a_connectivity(str(tag.value)), tag)
    positions, moved, defined, element = (
        var(Sort.DIMS),
        var(Sort.DIMS),
        var(Sort.DIMS),
        var(Sort.DTYPE),
    )
    inf.equal(g.iterator(positions, defined, element), inf.type_at(args[1]), args[1])
    move = make(g.CARTESIAN_OFFSET, g.dim_cell(found.source_dim), g.dim_cell(found.codomain))
    inf.relate(Shifted(positions, moved, move), position)
    if not inf.reading.neighbors_unchecked:
        inf.relate(Subset(defined, moved), position)
    return g.list_of(element, g.dim_cell(found.neighbor_dim))


def reduce(inf: GtirInference, position: int, inner: FunCall, args: list[int]) -> Cell:
    """`reduce(f, init)(lists…)`: `f` folds `(A, elements…) → A` from `init: A` over
    lists along one local dimension."""
    check_arity(inner, 2)
    step, init = inf.args(position + 1, inner)
    # Lists along different local dimensions of one size fold together (GT4Py's samples
    # do: a sparse field along V2V with neighbours along V2E).
    state = inf.type_at(init)
    elements = [list_element(inf, a, var(Sort.DIM)) for a in args]
    inf.equal(inf.type_at(step), g.function([state, *elements], state), step)
    inf.types[position + 1] = g.function([inf.type_at(a) for a in args], state)
    return state


def rule_list_get(inf: GtirInference, position: int, node: FunCall, args: list[int]) -> Cell:
    """`list_get(i, list)`: an element; `i` an integer or an integer offset (`Index`)."""
    check_arity(node, 2)
    inf.relate(Index(inf.type_at(args[0])), args[0])
    return list_element(inf, args[1], var(Sort.DIM))


def map_list(inf: GtirInference, position: int, inner: FunCall, args: list[int]) -> Cell:
    """`map_list(f)(lists…)`: `f` applied elementwise, a list along the same dimension."""
    check_arity(inner, 1)
    local, result = var(Sort.DIM), var(Sort.DTYPE)
    elements = [list_element(inf, a, local) for a in args]
    (function,) = inf.args(position + 1, inner)
    inf.equal(inf.type_at(function), g.function(elements, result), function)
    mapped = g.list_of(result, local)
    inf.types[position + 1] = g.function([inf.type_at(a) for a in args], mapped)
    return mapped


def list_element(inf: GtirInference, position: int, local: Cell) -> Cell:
    """The element type of the list at `position`, along the dimension `local` (or along
    none: a `make_const_list` goes with a list along any dimension)."""
    element, own = var(Sort.DTYPE), var(Sort.DIM)
    inf.equal(g.list_of(element, own), inf.type_at(position), position)
    inf.relate(Along(own, local), position)
    return element
