"""The domain of an `as_fieldop` given none, deduced as GT4Py 1.2.3 deduces it (GTIR.md section
4): from the shifts its stencil applies to each input before it dereferences it.

A stencil that runs at positions P and dereferences an input after shifting it by a sequence of
offsets reads the input at those shifted positions, so P is the input's dimensions with each
shift undone, last first: a connectivity's target dimension becomes its source, a Cartesian
offset's codomain its domain (a dimension a shift does not reach stays). The domain is the union
of what every dereference of every input gives; with inputs but no dereference, no dimension.

As GT4Py, only a stencil written out is traced (a lambda, or `scan` of one, naming nothing from
outside it), and only with an offset provider; every offset name must be a connectivity. The
trace here follows iterators through `shift`, `deref`, `can_deref`, `neighbors` and `let`s
(a lambda applied at once); an iterator used otherwise (passed to a function, lifted) ends the
deduction, and the positions are left to
the rest of the program, as without it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeGuard

from iterir import AxisLiteral, FunCall, Lambda, Node, OffsetLiteral, SymRef
from iterir import gtir_types as gt
from iterir.nodes import CartesianOffset
from iterir.offset_types import NeighborConnectivityType, OffsetType
from iterir.traversal import walk
from iterir.vocabulary import GTIR_BUILTINS
from typeinf.gtir_rules import _seen, _set
from typeinf.relations import Equate, Relation, known
from typeinf.terms import Cell

#: A shift undone: a dimension reached (target) and where it came from (source).
Move = tuple[gt.Dimension, gt.Dimension]
#: Per input, the moves of each dereference of it, in the order they were applied.
Moves = list[list[list[Move]]]


class _Untraceable(Exception):
    """The stencil uses an iterator in a way the trace does not follow."""


#: What a name in the stencil stands for: an input (its index) shifted by some moves.
Scope = dict[str, tuple[int, list[Move]]]


def deduction(stencil: Node, count: int, offsets: Mapping[str, OffsetType]) -> Moves | None:
    """The moves of each of the `count` inputs' dereferences, or None where GT4Py deduces no
    domain or the trace cannot follow the stencil."""
    if _is_call(stencil, "scan") and stencil.args:
        stencil, skip = stencil.args[0], 1  # a scan pass's first parameter is its state
    else:
        skip = 0
    if not isinstance(stencil, Lambda) or len(stencil.params) != count + skip:
        return None
    if _refers_outside(stencil):
        return None
    scope: Scope = {p.id: (i, []) for i, p in enumerate(stencil.params[skip:])}
    found: Moves = [[] for _ in range(count)]
    try:
        _trace(stencil.expr, scope, offsets, found)
    except _Untraceable:
        return None
    return found


def _refers_outside(stencil: Lambda) -> bool:
    """Whether the stencil names something other than its own parameters and builtins."""
    bound = {p.id for node in walk(stencil) if isinstance(node, Lambda) for p in node.params}
    return any(
        isinstance(node, SymRef) and node.id not in bound and node.id not in GTIR_BUILTINS
        for node in walk(stencil)
    )


def _trace(node: Node, scope: Scope, offsets: Mapping[str, OffsetType], found: Moves) -> None:
    """Record in `found` every dereference under `node` of an input (an explicit stack, each
    node with the names in scope there: a lambda hides the names it binds, and a `let` of an
    input's iterator, `(λ(x) → …)(⟪…⟫(it))`, names it)."""
    stack: list[tuple[Node, Scope]] = [(node, scope)]
    while stack:
        current, names = stack.pop()
        if isinstance(current, SymRef) and current.id in names:
            raise _Untraceable  # an iterator used otherwise than dereferenced
        if isinstance(current, Lambda):
            hidden = {p.id for p in current.params}
            inner = {k: v for k, v in names.items() if k not in hidden}
            stack.append((current.expr, inner))
            continue
        if not isinstance(current, FunCall):
            stack.extend((child, names) for child in current.children())
            continue
        dereferenced = _is_call(current, "deref") or _is_call(current, "can_deref")
        if dereferenced and len(current.args) == 1 and _reaches(current.args[0], names):
            index, moves = _iterator(current.args[0], names, offsets, stack)
            found[index].append(moves)
            continue
        if _is_call(current, "neighbors") and len(current.args) == 2:
            tag, iterator = current.args
            if _reaches(iterator, names):
                index, moves = _iterator(iterator, names, offsets, stack)
                found[index].append([*moves, _move(tag, offsets)])
                continue
        let = current.fun
        if isinstance(let, Lambda) and len(let.params) == len(current.args):
            inner = {k: v for k, v in names.items() if k not in {p.id for p in let.params}}
            for param, arg in zip(let.params, current.args, strict=True):
                if _reaches(arg, names):
                    inner[param.id] = _iterator(arg, names, offsets, stack)
                else:
                    stack.append((arg, names))
            stack.append((let.expr, inner))
            continue
        stack.extend((child, names) for child in current.children())


def _reaches(node: Node, names: Scope) -> bool:
    """Whether `node` is an input's iterator, shifted or not."""
    while isinstance(node, FunCall) and _is_call(node.fun, "shift"):
        if len(node.args) != 1:
            return False
        node = node.args[0]
    return isinstance(node, SymRef) and node.id in names


def _iterator(
    node: Node, names: Scope, offsets: Mapping[str, OffsetType], stack: list[tuple[Node, Scope]]
) -> tuple[int, list[Move]]:
    """The input an iterator expression shifts and its moves in the order applied; the amounts
    (which may dereference other inputs) go on `stack` to be traced."""
    applied: list[list[Move]] = []
    while not isinstance(node, SymRef):
        assert isinstance(node, FunCall) and isinstance(node.fun, FunCall)
        pairs = node.fun.args
        if len(pairs) % 2:
            raise _Untraceable
        applied.append([_move(tag, offsets) for tag in pairs[::2]])
        stack.extend((amount, names) for amount in pairs[1::2])
        node = node.args[0]
    index, before = names[node.id]
    return index, before + [move for shift in reversed(applied) for move in shift]


def _move(tag: Node, offsets: Mapping[str, OffsetType]) -> Move:
    if isinstance(tag, CartesianOffset):
        return _axis(tag.codomain), _axis(tag.domain)
    if isinstance(tag, OffsetLiteral) and isinstance(tag.value, str):
        connectivity = offsets.get(tag.value)
        if isinstance(connectivity, NeighborConnectivityType):
            return connectivity.codomain, connectivity.domain[0]
    raise _Untraceable  # an offset that is no literal connectivity (or unknown)


def _axis(node: Node) -> gt.Dimension:
    if not isinstance(node, AxisLiteral):
        raise _Untraceable
    return gt.Dimension(node.value, node.kind or "horizontal")


def _is_call(node: Node, name: str) -> TypeGuard[FunCall]:
    return isinstance(node, FunCall) and isinstance(node.fun, SymRef) and node.fun.id == name


class Deduced(Relation):
    """`positions` are the domain GT4Py deduces for an `as_fieldop` of `inputs` (its cells after
    `positions`) whose stencil dereferences each input after `moves`; left alone when the
    program has told them otherwise."""

    __slots__ = ("moves",)

    def __init__(self, positions: Cell, inputs: list[Cell], moves: Moves) -> None:
        super().__init__(positions, *inputs)
        self.moves = moves

    def fire(self, equate: Equate) -> bool:
        positions, *inputs = self.cells
        if known(positions) is not None:
            return True
        reached: list[gt.Dimension] = []
        for argument, dereferences in zip(inputs, self.moves, strict=True):
            seen = _seen(argument)
            if seen is None:
                return False
            for moves in dereferences:
                for dimension in seen[0]:
                    for target, source in reversed(moves):
                        if dimension == target:
                            dimension = source
                    if dimension not in reached:
                        reached.append(dimension)
        equate(positions, _set(reached))
        return True

    def show(self, name: Callable[[Cell], str]) -> str:
        positions, *inputs = self.cells
        return f"{name(positions)} = deduced({', '.join(map(name, inputs))})"

    def copy(self, mapping: Callable[[Cell], Cell]) -> Deduced:
        positions, *inputs = (mapping(cell) for cell in self.cells)
        return Deduced(positions, inputs, self.moves)
